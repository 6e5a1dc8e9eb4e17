"""Run lesson snippets as ``python snippet.py`` would, importing torch once for all of them.

A snippet spends most of its ≈2.5 s importing torch and numpy; what it computes takes a fraction of
a second. This process imports those two once, then forks one child per snippet: each child starts
from that state, as a fresh interpreter that has just imported them would, and runs its snippet as
``__main__`` with the snippet's folder first on ``sys.path`` (so a snippet imports its neighbours, as
lesson3_cat_fish.py imports lesson3_table.py). The children run at the same time, one per core at most.

    python -m tools.build.snippet_runner OUT_DIR SNIPPET.py [SNIPPET.py …]

For each snippet it writes OUT_DIR/<stem>.out (what it printed), OUT_DIR/<stem>.err and
OUT_DIR/<stem>.exit (its exit status). tools/build/macros.py starts it with PYTHONHASHSEED=0 and the
repository on PYTHONPATH.
"""

from __future__ import annotations

import os
import runpy
import sys
import traceback
from pathlib import Path

import numpy  # noqa: F401  (imported once here, for every fork: see the module docstring; tests/test_layering.py)
import torch  # noqa: F401


def _run_child(snippet: Path, out_dir: Path) -> int:
    """In the forked child: run ``snippet`` with stdout and stderr in its files; return its exit status."""
    sys.stdout = open(out_dir / f"{snippet.stem}.out", "w", encoding="utf-8")
    sys.stderr = open(out_dir / f"{snippet.stem}.err", "w", encoding="utf-8")
    sys.argv = [str(snippet)]
    sys.path[0] = str(snippet.parent)
    status = 0
    try:
        runpy.run_path(str(snippet), run_name="__main__")
    except SystemExit as stop:  # as the interpreter treats sys.exit(code): None is 0, other non-ints are printed
        status = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
        if status == 1 and not isinstance(stop.code, int):
            print(stop.code, file=sys.stderr)
    except BaseException:  # noqa: BLE001 - reported as the interpreter reports it
        traceback.print_exc()
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    return status


def run(snippets: list[Path], out_dir: Path) -> None:
    """Fork a child per snippet, one per core at a time; write each one's exit status to OUT_DIR/<stem>.exit."""
    jobs = os.cpu_count() or 1
    running: dict[int, Path] = {}
    todo = list(snippets)
    while todo or running:
        while todo and len(running) < jobs:
            snippet = todo.pop(0)
            pid = os.fork()
            if pid == 0:  # the child never returns into the parent's code
                code = 1
                try:
                    code = _run_child(snippet, out_dir)
                finally:
                    os._exit(code)
            running[pid] = snippet
        pid, wait_status = os.wait()
        snippet = running.pop(pid)
        (out_dir / f"{snippet.stem}.exit").write_text(str(os.waitstatus_to_exitcode(wait_status)), encoding="utf-8")


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    out_dir = Path(argv[0])
    out_dir.mkdir(parents=True, exist_ok=True)
    snippets = [Path(a).resolve() for a in argv[1:]]
    run(snippets, out_dir)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
