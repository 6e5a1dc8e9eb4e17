"""Warm figure workers for `make serve`: a figure-code edit redrawn without starting Python again, by a build's rules.

A build draws missing figures in a fresh Python process (figures_src/build.py), so that it never draws with
code imported before an edit. Each such process spends CPU seconds before it draws anything (Python,
numpy, matplotlib, posenc, the quantities the cache keys quote, the CJK font), in each language, on every
save. So while serving, one process per language stays up (``Workers``, started after the first build)
and draws on request. Before each request it imports again every project module whose source changed
(tools/build/freshness.py), and it draws as the fresh process does (``render_all`` in process: the sources'
digest is taken before the figure code is imported again and compared after drawing; a change in between
discards what was drawn). What it writes into the figure cache is what a fresh process writes
(tests/test_serve.py compares the bytes).

    python -m tools.build.figure_workers --lang en --cache .cache/figures   # one worker: a request a line on stdin
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class WorkerGone(RuntimeError):
    """A worker process ended (or never answered); the caller draws in a fresh process instead."""


class Worker:
    """One language's worker process: ``draw()`` sends a request, ``report()`` waits for its answer."""

    def __init__(self, lang: str, cache: Path):
        self.lang = lang
        self.cache = cache
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=str(ROOT))
        # stderr is the server's: a worker's warnings and errors print where the build's do
        self.proc = subprocess.Popen([sys.executable, "-m", "tools.build.figure_workers", "--lang", lang, "--cache", str(cache)],
                                     cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def draw(self) -> None:
        try:
            self.proc.stdin.write("draw\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as err:
            raise WorkerGone(f"the figure worker ({self.lang}) is gone: {err}") from err

    def report(self):
        from figures_src.build import RenderReport

        line = self.proc.stdout.readline()
        if not line:
            raise WorkerGone(f"the figure worker ({self.lang}) ended (exit {self.proc.wait()})")
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"drawing the figures failed (figure worker, {self.lang}):\n{reply['error'][-6000:]}")
        return RenderReport.from_json(reply["report"])

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()  # it ends at the end of its input
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Workers:
    """A worker per language: ``start()`` then ``reports()`` draws every language at once (a process each)."""

    def __init__(self, langs, cache: Path | None = None):
        from figures_src.build import DEFAULT_CACHE

        self.cache = cache or DEFAULT_CACHE
        self.workers = {lang: Worker(lang, self.cache) for lang in langs}
        self._sent: list[str] = []

    def start(self) -> None:
        """Ask every worker to draw what is missing; ``reports()`` waits for them."""
        self._read()  # answers to a request never collected (its redraw failed before): the next line is this one's
        for lang, worker in self.workers.items():
            try:
                worker.draw()
                self._sent.append(lang)
            except WorkerGone:
                pass

    def _read(self) -> tuple[dict, list[RuntimeError]]:
        """The answers to the request sent, every one read: {lang: RenderReport}, and the errors."""
        reports, failed = {}, []
        sent, self._sent = self._sent, []
        for lang in sent:
            try:
                reports[lang] = self.workers[lang].report()
            except WorkerGone:
                pass
            except RuntimeError as err:
                failed.append(err)
        return reports, failed

    def reports(self) -> dict:
        """{lang: RenderReport} for the request ``start()`` sent, as ``render_all(fresh_process=True)`` would have
        drawn. A worker that is gone is started again, and its language drawn in a fresh process this time."""
        from figures_src.build import render_all

        reports, failed = self._read()
        if failed:
            raise failed[0]
        for lang in self.workers:
            if lang not in reports:
                self.workers[lang].stop()
                self.workers[lang] = Worker(lang, self.cache)
                reports[lang] = render_all(self.cache, fresh_process=True, lang=lang)
        return reports

    def stop(self) -> None:
        for worker in self.workers.values():
            worker.stop()


def serve(lang: str, cache: Path, requests, replies) -> None:
    """Answer each request line with one JSON line: {"report": …} or {"error": the traceback}."""
    from tools.build import freshness

    freshness.forget_changed_code()  # the snapshot the first request compares with, taken before any import

    def render() -> str:
        freshness.forget_changed_code()  # figure code (or posenc) edited since: imported again by render_all
        from figures_src.build import render_all

        return render_all(cache, lang=lang).to_json()

    start = time.perf_counter()
    try:
        render()  # warm: the imports, the font, the quantities the cache keys quote (and whatever is missing, drawn)
    except Exception:
        pass  # the first request meets the same error and answers it
    # in the server's log, as its own lines are (make bench waits for this before it times an edit)
    print(f"INFO    -  figure worker ({lang}): ready after {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
    for _ in requests:
        try:
            reply = {"report": render()}
        except Exception:
            reply = {"error": traceback.format_exc()}
        replies.write(json.dumps(reply) + "\n")
        replies.flush()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lang", required=True, help="the language of the pages the figures are for")
    parser.add_argument("--cache", type=Path, required=True, help="the figure cache (figures_src/build.py)")
    args = parser.parse_args(argv)
    # the replies keep stdout to themselves: anything figure code prints goes to stderr
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(args.lang, args.cache, sys.stdin, replies)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
