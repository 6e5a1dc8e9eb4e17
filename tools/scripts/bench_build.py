"""Build-speed report (`make bench`): how long the site takes to build, and what a rebuild redraws.

Works on a copy of the project in a temporary folder (the real files are never edited), and
measures on this machine:

    cold        full build with empty caches (figures, snippets, executed notebooks)
    no-change   the same build again: must redraw no figure and cost ≤ 1.05 × plain
    prose edit  after adding a sentence to one lesson: must redraw no figure
    figure edit after changing one lesson's figure code: must redraw that lesson's figures only
    plain       the same build with figure generation switched off (POSENC_SKIP_FIGURES=1)
    serve       `make serve` (`python -m properdocs serve`, warm caches): seconds from saving an edited lesson
                until the served page shows the edit (target ≤ 2 s; a page-only rebuild, tools/build/serve_pages.py),
                and from saving an edit to the lesson's figure code until serve tells the browser to reload
                (target ≤ 5 s; the module's figures redrawn by the warm figure workers, tools/build/figure_workers.py,
                and the pages whose figure texts changed built again: the bench's edit, a comment, changes none)

The machine's load average is printed with every time: on a shared machine the times are only as good as it.
Each serve time also gives the CPU seconds the server and its figure workers spent on the edit, which the
load does not stretch (on two free cores the two workers draw at once).

Every edit is one an author makes and the build accepts: a sentence the prose lint passes (no typed
digits: the strict serve rebuild refuses a typed number, so a marker with digits would never show).

Every time is printed with its ratio to the plain build. The report is also written to
tools/scripts/bench_build.latest.txt.

    python -m tools.scripts.bench_build [--repeat N] [--lesson 03-sinusoidal] [--keep] [--serve-only]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from tools.scripts.local_http import fetch, free_port
from tools.scripts.site_command import site_command

ROOT = Path(__file__).resolve().parents[2]
LATEST = ROOT / "tools" / "scripts" / "bench_build.latest.txt"
IGNORE = shutil.ignore_patterns(".venv", "site", "node_modules", ".cache", ".git", "__pycache__", ".hypothesis",
                                ".pytest_cache", "experiment_runs")
FIGURES_LINE = re.compile(r"figures(?: \(\w+\))?: (\d+) drawn, (\d+) cached")  # one line per language: "figures (en): …"
NOTEBOOK_RUN = re.compile(r"Converting notebook \(execute=True\)")
NOTEBOOK_HIT = re.compile(r"Cache hit: ")


@dataclass
class Build:
    label: str
    seconds: float
    drawn: int | None  # figures drawn (None: figure generation off)
    cached: int | None
    notebooks_run: int
    notebooks_cached: int
    load: float  # the machine's load average (1 min) when the build ended


def _env(**extra) -> dict:
    return dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONHASHSEED="0", **extra)


def build(copy: Path, label: str, **env) -> Build:
    out = copy / "_bench_site"
    start = time.perf_counter()
    proc = subprocess.run(site_command("build", "--strict", "-d", str(out)),
                          cwd=copy, env=_env(**env), capture_output=True, text=True, timeout=1800)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"bench: the {label} build failed:\n{proc.stderr[-4000:]}")
    lines = FIGURES_LINE.findall(proc.stderr)  # summed over the languages the build writes
    drawn, cached = (sum(int(x[i]) for x in lines) if lines else None for i in (0, 1))
    return Build(label, seconds, drawn, cached,
                 len(NOTEBOOK_RUN.findall(proc.stderr)), len(NOTEBOOK_HIT.findall(proc.stderr)), os.getloadavg()[0])


def best_of(n: int, copy: Path, label: str, **env) -> Build:
    runs = [build(copy, label, **env) for _ in range(n)]
    return min(runs, key=lambda b: b.seconds)


def figures_by_module(copy: Path) -> dict[str, int]:
    """How many figures (each drawn in two schemes) every figures_src module defines."""
    code = ("import json, collections; from figures_src.build import load_all; "
            "print(json.dumps(collections.Counter(s.module.rsplit('.', 1)[-1] for s in load_all().values())))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=copy, env=_env(), capture_output=True, text=True, timeout=300, check=True)
    return json.loads(proc.stdout)




def edit_marker() -> str:
    """A sentence unique to this run that the prose lint accepts: Chinese, then letters a–z, no digits."""
    n = int(time.time() * 1000)
    letters = ""
    for _ in range(8):
        n, r = divmod(n, 26)
        letters += chr(ord("a") + r)
    return f"测速标记 {letters}。"


def lesson_key(lesson: str) -> str:
    """'03b-relative-bias' → 'lesson3b': the lesson's name in its other files (figures_src/lesson3b.py …)."""
    m = re.match(r"0*(\d+b?)-", lesson)
    if not m:
        raise SystemExit(f"bench: --lesson {lesson!r} is not a page name such as 03-sinusoidal (docs/lessons/NN-name.md)")
    return f"lesson{m.group(1)}"


def _tail(name: str, copy: Path, lines: int = 5) -> str:
    log = (copy / name).read_text(encoding="utf-8", errors="replace").splitlines()
    return " | ".join(log[-lines:])


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _load() -> str:
    return "load average " + " / ".join(f"{x:.1f}" for x in os.getloadavg())


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) spent so far by process ``pid``, its children that ended and those still
    running (serve's figure workers), from /proc; None where there is no /proc. A shared machine stretches
    the wall-clock times; this is what the work itself cost."""
    proc = Path("/proc")
    if not (proc / str(pid) / "stat").is_file():
        return None
    stats, children = {}, {}
    for stat in proc.glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue  # a process that ended while this read
        # after the name: state ppid … utime stime cutime cstime are fields 11–14 (proc(5), counted from 0)
        stats[int(stat.parent.name)] = sum(int(x) for x in fields[11:15])
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += stats.get(p, 0)
        todo += children.get(p, [])
    return total / os.sysconf("SC_CLK_TCK")


def serve_reload(copy: Path, lesson: str, figure_module: str, timeout: float = 600.0) -> dict[str, tuple]:
    """Under `properdocs serve`: {"up": seconds until it first answers, "prose": seconds from saving an edited
    lesson until the page shows it, "figure": seconds from saving an edit to the lesson's figure code until
    the server tells browsers to reload}, each with the load average when it was measured and the CPU
    seconds the server (with its figure workers) spent meanwhile. The edits are timed once the figure
    workers are warm (tools/build/figure_workers.py), as they are when an author edits."""
    port = free_port()
    log = open(copy / "_bench_serve.log", "w", encoding="utf-8")
    proc = subprocess.Popen(site_command("serve", "-a", f"127.0.0.1:{port}"), cwd=copy, env=_env(),
                            stdout=log, stderr=subprocess.STDOUT)
    # serve mounts the site under site_url's path (/posenc/), as GitHub Pages does
    m = re.search(r"^site_url:\s*\S+?://[^/\s]+(/\S*)?", (copy / "mkdocs.yml").read_text(encoding="utf-8"), re.M)
    prefix = ((m.group(1) if m and m.group(1) else "/").rstrip("/")) + "/"
    page = f"http://127.0.0.1:{port}{prefix}lessons/{lesson}/"
    md = copy / "docs" / "lessons" / f"{lesson}.md"
    fig_src = copy / "figures_src" / f"{figure_module}.py"
    originals = {p: p.read_text(encoding="utf-8") for p in (md, fig_src)}
    out: dict[str, tuple] = {}

    def alive(what: str, since: float) -> None:
        if proc.poll() is not None or time.perf_counter() - since > timeout:
            raise RuntimeError(f"{what}: {_tail(log.name, copy)}")

    def epoch(after: int = 0) -> int:
        # Live reload's poll: answers at once with the site's version if newer than `after`, else after a while
        body = fetch(f"http://127.0.0.1:{port}/livereload/{after}/0", timeout=120)
        return int(body) if body else after

    try:
        start = time.perf_counter()
        while fetch(page, timeout=5) is None:
            alive(f"properdocs serve did not answer {page}", start)
            time.sleep(0.2)
        out["up"] = (time.perf_counter() - start, _load(), None)
        langs = set(re.findall(r"figures \((\w+)\): \d+ drawn", (copy / "_bench_serve.log").read_text(encoding="utf-8")))
        while not all(f"figure worker ({lang}): ready" in (copy / "_bench_serve.log").read_text(encoding="utf-8")
                      for lang in langs):
            alive("the figure workers never said they were ready", start)
            time.sleep(0.2)
        time.sleep(1.0)  # let the file watcher settle after the first build

        def cpu_since(before: float | None) -> float | None:
            now = cpu_seconds(proc.pid)
            return None if before is None or now is None else now - before

        marker = edit_marker()
        cpu = cpu_seconds(proc.pid)
        md.write_text(originals[md] + f"\n\n{marker}\n", encoding="utf-8")
        edited = time.perf_counter()
        while True:
            body = fetch(page, timeout=5)
            if body and marker in body.decode("utf-8", "replace"):
                out["prose"] = (time.perf_counter() - edited, _load(), cpu_since(cpu))
                break
            alive("the served page never showed the edit", edited)
            time.sleep(0.05)
        before = epoch()  # the edit's rebuild is done: the page is served only when it is
        md.write_text(originals[md], encoding="utf-8")
        while (now := epoch(before)) == before:  # the rebuild that puts the lesson back
            alive("serve never rebuilt after the lesson was put back", edited)
        time.sleep(1.0)

        cpu = cpu_seconds(proc.pid)
        fig_src.write_text(originals[fig_src] + "\n# bench: figure code changed\n", encoding="utf-8")
        edited = time.perf_counter()
        while epoch(now) == now:
            alive("serve never rebuilt after the figure code changed", edited)
        out["figure"] = (time.perf_counter() - edited, _load(), cpu_since(cpu))
        text = (copy / "_bench_serve.log").read_text(encoding="utf-8", errors="replace")
        drawn = FIGURES_LINE.findall(text.rsplit("Detected file changes", 1)[-1])
        if not drawn or not int(drawn[0][0]):
            raise RuntimeError(f"serve reloaded after the figure edit without redrawing a figure: {_tail(log.name, copy)}")
        return out
    finally:
        for path, text in originals.items():
            path.write_text(text, encoding="utf-8")
        _stop(proc)
        log.close()


def serve_times(copy: Path, lesson: str, figure_module: str, say) -> dict[str, tuple]:
    try:
        serve = serve_reload(copy, lesson, figure_module)
    except RuntimeError as err:
        say(f"properdocs serve: failed: {err}")
        return {"prose": (float("inf"), "", None), "figure": (float("inf"), "", None)}

    def cpu(seconds: float | None) -> str:
        return "" if seconds is None else f"; {seconds:.1f} CPU s in the server and its figure workers"

    say(f"properdocs serve (make serve): up after {serve['up'][0]:.1f} s ({serve['up'][1]})")
    say(f"  an edit to {lesson}.md shows after {serve['prose'][0]:.2f} s ({serve['prose'][1]}{cpu(serve['prose'][2])})")
    say(f"  an edit to figures_src/{figure_module}.py reloads after {serve['figure'][0]:.2f} s "
        f"({serve['figure'][1]}{cpu(serve['figure'][2])})")
    return serve


def serve_checks(serve: dict[str, tuple]) -> list[tuple[str, bool, str]]:
    return [
        ("make serve shows an edited lesson in ≤ 2 s", serve["prose"][0] <= 2.0, f"{serve['prose'][0]:.2f} s"),
        ("make serve reloads after a figure-code edit in ≤ 5 s", serve["figure"][0] <= 5.0, f"{serve['figure'][0]:.2f} s"),
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=2, help="runs of the no-change and plain builds; the fastest counts (default 2)")
    parser.add_argument("--lesson", default="03-sinusoidal", help="the lesson edited (docs/lessons/<name>.md; default 03-sinusoidal)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary copy and print where it is")
    parser.add_argument("--serve-only", action="store_true",
                        help="time `make serve` alone (its first build fills the caches); the report file is not written")
    args = parser.parse_args(argv)
    figure_module = lesson_key(args.lesson)

    tmp = Path(tempfile.mkdtemp(prefix="posenc-bench-"))
    copy = tmp / "project"
    lines: list[str] = []

    def say(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    try:
        shutil.copytree(ROOT, copy, ignore=IGNORE)
        (copy / "node_modules").symlink_to(ROOT / "node_modules")
        load = os.getloadavg()
        say(f"posenc build benchmark, {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC")
        say(f"machine: {os.cpu_count()} CPUs, load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} at start, "
            f"Python {platform.python_version()}, {platform.machine()}")
        per_module = figures_by_module(copy)
        total_figs = sum(per_module.values())
        say(f"site: {total_figs} figures × 2 schemes ({', '.join(f'{k} {v}' for k, v in sorted(per_module.items()))}); "
            f"{len(list((copy / 'docs' / 'notebooks').glob('*.ipynb')))} notebooks")
        say()

        if args.serve_only:
            if (ROOT / ".cache").is_dir():  # a warm start, as an author's checkout has: entries are keyed on their inputs
                shutil.copytree(ROOT / ".cache", copy / ".cache")
            serve = serve_times(copy, args.lesson, figure_module, say)
            for name, ok, detail in serve_checks(serve):
                say(f"  [{'ok' if ok else 'MISSED'}] {name} ({detail})")
            return 0

        cold = build(copy, "cold (empty caches)")
        no_change = best_of(args.repeat, copy, "no-change rebuild")
        md = copy / "docs" / "lessons" / f"{args.lesson}.md"
        md.write_text(md.read_text(encoding="utf-8") + "\n\n这一句只为测速而加。\n", encoding="utf-8")
        prose = build(copy, f"after editing {args.lesson}.md")
        fig_src = copy / "figures_src" / f"{figure_module}.py"
        fig_src.write_text(fig_src.read_text(encoding="utf-8") + "\n# bench: figure code changed\n", encoding="utf-8")
        fig_edit = build(copy, f"after editing figures_src/{figure_module}.py")
        plain = best_of(args.repeat, copy, "plain (POSENC_SKIP_FIGURES=1)", POSENC_SKIP_FIGURES="1")

        say(f"{'build':<42}{'seconds':>9}{'× plain':>9}  figures drawn / cached   notebooks run / cached   load")
        for b in (cold, no_change, prose, fig_edit, plain):
            figs = "off" if b.drawn is None else f"{b.drawn} / {b.cached}"
            say(f"{b.label:<42}{b.seconds:>9.1f}{b.seconds / plain.seconds:>9.2f}  {figs:<24} "
                f"{f'{b.notebooks_run} / {b.notebooks_cached}':<24} {b.load:.1f}")
        say()

        serve = serve_times(copy, args.lesson, figure_module, say)
        say()

        expected_redraw = 2 * 2 * per_module.get(figure_module, 0)  # two schemes × two languages (each module is drawn in both)
        checks = [
            ("no-change rebuild redraws no figure", no_change.drawn == 0, f"{no_change.drawn} drawn"),
            ("no-change rebuild ≤ 1.05 × plain build", no_change.seconds <= 1.05 * plain.seconds,
             f"{no_change.seconds / plain.seconds:.2f} ×"),
            ("editing a lesson's prose redraws no figure", prose.drawn == 0, f"{prose.drawn} drawn"),
            (f"editing figures_src/{figure_module}.py redraws only its figures", fig_edit.drawn == expected_redraw,
             f"{fig_edit.drawn} drawn, {expected_redraw} expected"),
            *serve_checks(serve),
        ]
        say("targets:")
        for name, ok, detail in checks:
            say(f"  [{'ok' if ok else 'MISSED'}] {name} ({detail})")
        LATEST.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"\nwritten to {LATEST.relative_to(ROOT)}")
        return 0
    finally:
        if args.keep:
            print(f"copy kept at {copy}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
