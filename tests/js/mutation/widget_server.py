"""Mutation testing of one widget (docs/javascripts/widgets/<name>.js) with one browser for all its mutants.

    .venv/bin/python tests/js/mutation/widget_server.py sin-heatmap      (what `make mutation-widgets` runs per widget)

StrykerJS (stryker.widgets.config.mjs) instruments the widget's file once with every mutant in it, switched on by
``globalThis.__stryker__.activeMutant``, and runs a command per mutant with the mutant's id in its environment. Started
afresh for each mutant, the browser tests cost pytest's start, a browser launch and a served site before their first
page: 10-30 s a mutant. Here one pytest session collects the widget's tests, starts Chromium and the site once, then
starts Stryker and answers its commands (tests/js/mutation/widget_client.py, over a Unix socket): for each mutant it
serves the widgets' files from Stryker's sandbox with a first line that sets the active mutant (and ``no-store``, so no
page reuses another mutant's copy) and runs the tests until one fails. The test that killed the last mutant runs first
for the next: neighbouring mutants tend to fall to the same test, so a killed mutant costs about one test (1-3 s).

Which tests: those named after the widget (sin-heatmap: ``-k "sin_heatmap or …"``) and the every-widget tests that
mount each widget bare on one page (SHARED); for _ui.js, which every widget uses, every widget test. The every-widget
tests that load every lesson page (spacing, labels and sliders; phone, dark and print) are left out (about 15 s a
mutant each): a mutant only they would kill counts as a survivor, so the score is a lower bound.

Each verdict is logged, with the test that killed the mutant, in .cache/mutation-widgets/<name>.log, and reused by the
next run where it still holds (reusable_verdicts). A run stopped part-way writes no report (MutantLoop: Stryker would
count the commands that get no answer as killed mutants).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import socket
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[3]
WIDGETS = ROOT / "docs" / "javascripts" / "widgets"
TEST_FILES = ["tests/browser/test_widget_drawings.py", "tests/browser/test_widgets.py",
              "tests/browser/test_widgets_prose.py", "tests/browser/test_dataflow_panel.py"]
# The every-widget tests that mount each widget bare on one page: a few seconds, so every widget's mutants get them.
SHARED_TESTS = ("every_widget_needs_its_page_options", "a_changed_example_reaches_every_widget",
                "every_widget_keeps_its_controls_apart", "every_widget_sets_its_fields_in_control_rows",
                "every_widget_drawing_is_one_labelled_image", "every_widget_refuses_each_page_option_past_its_limit")
SHARED = " or ".join(SHARED_TESTS)
# The every-widget tests left out: one loads every lesson page (about 15 s a mutant); one reads only the built HTML.
LEFT_OUT_TESTS = ("every_widget_spaces_chinese_from_latin_labels_its_boxes_and_matches_its_sliders",
                  "every_widget_is_listed_and_mounted")
WIDGET_FILE = re.compile(r"/javascripts/widgets/([\w-]+\.js)")
# A test still running after this long has met a mutant that loops forever: Playwright's page.evaluate waits without a
# timeout. The watchdog then kills the browser's renderers, so the test fails (the mutant is caught, as a hang) and the
# browser, which survives its renderers, serves the next mutant. A test takes 1-3 s, with waits of up to 30 s.
HANG_S = 90


def _renderers() -> list[int]:
    """The process ids of this process's Chromium renderers (Linux: read from /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue  # gone meanwhile
            parents.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [os.getpid()]
    while todo:
        for child in parents.get(todo.pop(), []):
            todo.append(child)
            try:
                if b"--type=renderer" in Path(f"/proc/{child}/cmdline").read_bytes():
                    found.append(child)
            except OSError:
                continue
    return found


def _kill_renderers(hung: list[bool]) -> None:
    hung.append(True)
    for pid in _renderers():
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


# What a mutant's verdict depends on besides its id: the site's sources (pages, widgets, posenc, template) and the tests
# (the browser tests and this harness, which picks them). Stryker numbers a file's mutants alike from run to run, so a
# run reuses the verdicts in its widget's log: all of them where both hash alike (a run stopped part-way goes on where it
# stopped); where only the tests changed, each kill whose test is still among those run (as mutmut re-checks only its
# survivors), and every survivor runs again.
SOURCES = ["docs", "posenc", "figures_src", "overrides", "mkdocs.yml"]
TESTS = ["tests/browser", "tests/conftest.py", "tests/js/mutation/widget_server.py"]


def inputs_hash(widget: str, tops: list[str]) -> str:
    digest = hashlib.sha256(widget.encode())
    for top in tops:
        path = ROOT / top
        for file in sorted([path] if path.is_file() else (p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts)):
            digest.update(str(file.relative_to(ROOT)).encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()


def reusable_verdicts(log_path: Path, inputs: dict, tests_run: set[str]) -> dict[str, dict]:
    """The verdicts of an earlier run in ``log_path`` that hold for a run with ``inputs`` (see SOURCES and TESTS)."""
    if not log_path.is_file():
        return {}
    header, *verdicts = [json.loads(line) for line in log_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if header.get("source") != inputs["source"]:
        return {}
    same_tests = header.get("tests") == inputs["tests"]
    return {v["mutant"]: v for v in verdicts if v["mutant"] and (same_tests or v["killed_by"] in tests_run)}


def selection(widget: str) -> str:
    """pytest's -k expression for a widget's tests ('' for _ui.js: every test in TEST_FILES)."""
    return "" if widget == "_ui" else f"{widget.replace('-', '_')} or {SHARED}"


class MutantLoop:
    """A pytest plugin: instead of running the collected tests once, run them once per request from Stryker."""

    def __init__(self, widget: str, socket_path: Path, log_path: Path):
        self.widget, self.socket_path, self.log_path = widget, socket_path, log_path
        self.sandbox: Path | None = None  # Stryker's sandbox, where the instrumented widget files are
        self.mutant = ""  # the active mutant's id; "" for Stryker's first run, with no mutant

    def pytest_collection_finish(self, session):
        """Serve the widget files from the sandbox, with the active mutant, on the browser tests' site server."""
        conftest = next((p for p in session.config.pluginmanager.get_plugins()
                         if getattr(p, "__file__", "").endswith(os.path.join("tests", "browser", "conftest.py"))), None)
        if conftest is None:
            raise pytest.UsageError("tests/browser/conftest.py was not loaded: run from the repository root")
        loop, served = self, conftest._QuietHandler

        class MutantHandler(served):
            def do_GET(self):
                match = WIDGET_FILE.fullmatch(urlsplit(self.path).path)
                if match is None or loop.sandbox is None:
                    return super().do_GET()
                body = (f'globalThis.__stryker__ = Object.assign(globalThis.__stryker__ || {{}}, '
                        f'{{activeMutant: {json.dumps(loop.mutant) if loop.mutant else "undefined"}}});\n').encode()
                body += (loop.sandbox / "docs" / "javascripts" / "widgets" / match[1]).read_bytes()
                self.send_response(200)
                self.send_header("Content-Type", "text/javascript")
                self.send_header("Cache-Control", "no-store")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        conftest._QuietHandler = MutantHandler

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session):
        from _pytest.runner import runtestprotocol

        items = list(session.items)
        if not items:
            raise pytest.UsageError(f"no browser test selected for {self.widget} (-k {selection(self.widget)!r})")

        def run_until_a_failure() -> tuple[str | None, str]:
            for i, item in enumerate(items):
                after = items[i + 1] if i + 1 < len(items) else items[0]  # keeps the session's browser and site
                hung: list[bool] = []
                watchdog = threading.Timer(HANG_S, _kill_renderers, args=(hung,))
                watchdog.start()
                try:
                    reports = runtestprotocol(item, nextitem=after, log=False)
                finally:
                    watchdog.cancel()
                failed = next((r for r in reports if r.failed), None)
                if failed is not None or hung:
                    session._setupstate.teardown_exact(items[0])  # back to the state the next run starts from
                    items.insert(0, items.pop(i))  # the killer first next time
                    why = f"hung: its renderers were killed after {HANG_S} s" if hung else str(failed.longrepr).strip().splitlines()[-1]
                    return item.nodeid, why[:200]
            return None, ""

        self.socket_path.unlink(missing_ok=True)
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(str(self.socket_path))
        server.listen(1)
        server.settimeout(1.0)
        env = {**os.environ, "POSENC_WIDGET": self.widget, "POSENC_MUTANT_SOCKET": str(self.socket_path)}
        # Stryker counts a command that fails as a killed mutant, so without this session's answers its report would be
        # false: whatever ends this session (an error, Ctrl-C, SIGTERM) ends Stryker first, before it writes a report
        # (its own process group; widget_client.py stops it likewise when it cannot reach this session).
        stryker = subprocess.Popen(["npx", "stryker", "run", "stryker.widgets.config.mjs"], cwd=ROOT, env=env, start_new_session=True)
        def stop(*_):
            os.killpg(stryker.pid, signal.SIGKILL)
            raise KeyboardInterrupt(f"{self.widget}: stopped (SIGTERM); Stryker stopped without a report")  # pytest lets it through

        signal.signal(signal.SIGTERM, stop)
        try:
            self._serve(server, stryker, items, run_until_a_failure)
        finally:
            if stryker.poll() is None:
                os.killpg(stryker.pid, signal.SIGKILL)
            server.close()
            self.socket_path.unlink(missing_ok=True)
        session.testsfailed = 1 if stryker.returncode else 0
        return True

    def _serve(self, server, stryker, items, run_until_a_failure) -> None:
        inputs = {"source": inputs_hash(self.widget, SOURCES), "tests": inputs_hash(self.widget, TESTS)}
        known = reusable_verdicts(self.log_path, inputs, {item.nodeid for item in items})
        print(f"{self.widget}: {len(known)} verdicts of an earlier run reused ({self.log_path.relative_to(ROOT)})", flush=True)
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self.log_path.write_text("".join(json.dumps(line) + "\n" for line in [
            inputs, *known.values()]), encoding="utf-8")
        with self.log_path.open("a", encoding="utf-8") as log:
            while stryker.poll() is None:
                try:
                    conn, _ = server.accept()
                except TimeoutError:
                    continue
                with conn:
                    request = json.loads(conn.makefile(encoding="utf-8").readline())
                    self.sandbox, self.mutant = Path(request["sandbox"]), request["mutant"]
                    if self.mutant in known:
                        killer, why = known[self.mutant]["killed_by"], known[self.mutant]["why"]
                    else:
                        started = time.monotonic()
                        killer, why = run_until_a_failure()
                        seconds = time.monotonic() - started
                        log.write(json.dumps({"mutant": self.mutant, "killed_by": killer, "why": why, "seconds": round(seconds, 1)},
                                             ensure_ascii=False) + "\n")
                        log.flush()
                    try:
                        conn.sendall((json.dumps({"killed_by": killer, "why": why}) + "\n").encode())
                    except OSError:
                        pass  # Stryker gave up on this mutant (its timeout): the next one is waiting


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not (WIDGETS / f"{argv[0]}.js").is_file():
        names = sorted(p.stem for p in WIDGETS.glob("*.js") if p.stem != "index")
        print(f"usage: widget_server.py WIDGET, one of: {' '.join(names)}", file=sys.stderr)
        return 2
    widget = argv[0]
    if not os.environ.get("POSENC_SITE_DIR"):
        print("set POSENC_SITE_DIR to a build of this checkout (make mutation-widgets builds .cache/mutation-site)", file=sys.stderr)
        return 2
    cache = ROOT / ".cache" / "mutation-widgets"
    loop = MutantLoop(widget, Path(f"/tmp/posenc-mutant-{os.getpid()}.sock"), cache / f"{widget}.log")
    os.environ["CI"] = "true"  # Hypothesis derandomized, as in CI
    chosen = ["-k", selection(widget)] if selection(widget) else []
    return pytest.main(["-q", "-p", "no:cacheprovider", "-o", "addopts=", *chosen, *TEST_FILES], plugins=[loop])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
