"""Mutation testing of posenc's core: `make mutation` (mutmut, configured in pyproject's [tool.mutmut]).

mutmut changes one small thing in a core module at a time (``<`` to ``<=``, a constant
plus one, an argument dropped, ...) and runs the fast core tests that call the changed
function. A mutant the tests do not notice "survives": either a test is missing or the
change does not alter behaviour (an equivalent mutant). Equivalent mutants are listed with
the argument why in ``tests/mutation/equivalent.toml``; the report marks them and leaves
them out of the adjusted score.

    python tests/mutation/run.py                     run every core module, then report
    python tests/mutation/run.py scaling relative    run only these modules (the report covers all)
    python tests/mutation/run.py --fresh             forget earlier results first (a clean run)
    python tests/mutation/run.py --report            only write the report from stored results

The working tree (tracked and new files) is mirrored into ``.cache/mutation`` and mutmut runs
there, so the checkout gets no ``mutants/`` folder. Results are kept between runs: a rerun
checks mutants not yet checked and re-checks the survivors (tests may have been added). It
runs under ``nice`` with CI=true (derandomized Hypothesis); a full run takes about an hour on
two idle cores. The report is printed and written to tests/mutation/latest.txt.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
import tomllib
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / ".cache" / "mutation"
REPORT = Path(__file__).with_name("latest.txt")
EQUIVALENT = Path(__file__).with_name("equivalent.toml")
MIRRORED = ("pyproject.toml", "posenc", "tests", "docs/snippets", "docs/lessons", "figures_src")

# mutmut's statuses, grouped for the score. "check was interrupted" is pytest's exit code 2, which
# a mutant causes when the tests cannot even be collected (a module-level call fails): detected.
DETECTED = {"killed", "timeout", "segfault", "caught by type check", "check was interrupted by user"}
STATUS = {0: "survived", 1: "killed", 3: "killed", 2: "check was interrupted by user", 5: "no tests", 33: "no tests",
          34: "skipped", 35: "suspicious", 36: "timeout", 37: "caught by type check", -24: "timeout", 24: "timeout",
          152: "timeout", 255: "timeout", -11: "segfault", -9: "segfault", None: "not checked"}


def config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]


def modules() -> list[str]:
    """Core module names in the order pyproject lists them ("scaling" for posenc/scaling.py)."""
    return [Path(p).stem for p in config()["only_mutate"]]


def mirror() -> None:
    """Copy the working tree's files into WORK, keeping mtimes; copy only files whose content changed.

    mutmut regenerates a module's mutants when its source is newer than the mutated copy,
    so an unchanged file must keep its old mtime.
    """
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "--", *MIRRORED], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split("\n")
    wanted = {p for p in listed if p and (ROOT / p).is_file()}
    for rel in sorted(wanted):
        src, dst = ROOT / rel, WORK / rel
        if dst.exists() and dst.read_bytes() == src.read_bytes():
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)
    for top in MIRRORED:  # files deleted from the working tree
        base = WORK / top
        for path in ([base] if base.is_file() else base.rglob("*") if base.exists() else []):
            if path.is_file() and str(path.relative_to(WORK)) not in wanted:
                path.unlink()


def mutmut(*args: str) -> int:
    env = dict(os.environ, CI="true", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONHASHSEED="0")
    cmd = ["nice", "-n", "10", sys.executable, "-m", "mutmut", *args]
    print("$", " ".join(cmd[3:]), flush=True)
    return subprocess.run(cmd, cwd=WORK, env=env).returncode


def meta(module: str) -> dict:
    path = WORK / "mutants" / "posenc" / f"{module}.py.meta"
    return json.loads(path.read_text()) if path.exists() else {"exit_code_by_key": {}, "durations_by_key": {}}


def statuses(module: str) -> dict[str, str]:
    return {k: STATUS.get(v, "suspicious") for k, v in meta(module)["exit_code_by_key"].items()}


def run(selected: list[str]) -> None:
    """One mutmut run over the selected modules: mutants never checked, and survivors again.

    mutmut keeps a mutant's result and, when named explicitly, checks it again; survivors are
    re-checked because tests may have been added since. A module whose source changed since its
    results were stored (or that has none) is run whole by pattern.
    """
    names = []
    for module in selected:
        stored = WORK / "mutants" / "posenc" / f"{module}.py.meta"
        source = WORK / "posenc" / f"{module}.py"
        if not stored.exists() or source.stat().st_mtime > stored.stat().st_mtime:
            names.append(f"posenc.{module}.*")
        else:
            names += [k for k, s in statuses(module).items()
                      if s in ("not checked", "survived", "no tests", "suspicious", "timeout")]
    if names:
        mutmut("run", *names)


def diff(name: str) -> list[str]:
    """The changed lines of a mutant, from mutmut's own diff (run inside WORK)."""
    code = ("import sys; from mutmut.mutation.diff_apply import get_diff_for_mutant; "
            "print(get_diff_for_mutant(sys.argv[1], path=sys.argv[2]))")
    module = name.split(".")[1]
    out = subprocess.run([sys.executable, "-c", code, name, f"posenc/{module}.py"], cwd=WORK,
                         capture_output=True, text=True).stdout
    return [ln for ln in out.splitlines() if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]


def function_of(name: str) -> str:
    """posenc.scaling.x_llama3__mutmut_12 → scaling.llama3 (methods: ModelConfig.get)."""
    _, module, rest = name.split(".", 2)
    fn = rest.rsplit("__mutmut_", 1)[0]
    fn = fn[2:] if fn.startswith("x_") else fn.lstrip("xǁ").replace("ǁ", ".")
    return f"{module}.{fn}"


def equivalents() -> list[dict]:
    if not EQUIVALENT.exists():
        return []
    return tomllib.loads(EQUIVALENT.read_text(encoding="utf-8")).get("mutant", [])


def normal(line: str) -> str:
    return " ".join(line[1:].split())


def report() -> str:
    eq = equivalents()
    used = set()
    lines, survivors_out, timed_out = [], [], []
    totals = Counter()
    cpu = platform.machine()
    load = os.getloadavg()
    lines.append(f"posenc mutation report (mutmut {mutmut_version()}), {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC")
    lines.append(f"machine: {os.cpu_count()} CPUs ({cpu}), load average {load[0]:.1f} at report time; tests: the fast core "
                 f"tests listed in pyproject's [tool.mutmut], Hypothesis derandomized (CI=true)")
    lines.append("score = detected / (mutants − argued equivalent); detected = killed, timed out, or tests not collectable")
    lines.append("")
    lines.append(f"{'module':<14}{'mutants':>8}{'killed':>8}{'survived':>9}{'equiv.':>7}{'no test':>8}{'unchecked':>10}"
                 f"{'score':>8}{'raw':>8}")
    for module in modules():
        st = statuses(module)
        c = Counter()
        for name, s in sorted(st.items(), key=lambda kv: mutant_order(kv[0])):
            group = "killed" if s in DETECTED else s
            if s == "timeout":
                timed_out.append(name)
            if s in ("survived", "no tests", "suspicious", "skipped"):
                changed = diff(name)
                plus = [normal(ln) for ln in changed if ln.startswith("+")]
                match = next((i for i, e in enumerate(eq) if e["function"] == function_of(name)
                              and normal("+" + e["mutated"]) in plus), None)
                if match is not None:
                    used.add(match)
                    group = "equivalent"
                survivors_out.append((name, s, changed, None if match is None else eq[match]))
            c[group] += 1
        total = sum(c.values())
        totals.update(c)
        lines.append(row(module, total, c))
    lines.append(row("core", sum(totals.values()), totals))
    lines.append("")
    open_ = [x for x in survivors_out if x[3] is None]
    argued = [x for x in survivors_out if x[3] is not None]
    lines.append(f"surviving mutants not argued equivalent ({len(open_)}):")
    for name, s, changed, _ in open_:
        lines.append(f"  {name} [{s}]")
        lines.extend(f"      {ln}" for ln in changed)
    lines.append("")
    lines.append(f"equivalent mutants ({len(argued)}), with the argument (tests/mutation/equivalent.toml):")
    for name, s, changed, e in argued:
        lines.append(f"  {name}: {e['why']}")
        lines.extend(f"      {ln}" for ln in changed)
    if timed_out:
        lines.append("")
        lines.append(f"timed out, counted as detected ({len(timed_out)}; a mutant that hangs, or a machine too busy: "
                     f"rerun these by name to tell):")
        lines.extend(f"  {name}" for name in timed_out)
    stale = [e for i, e in enumerate(eq) if i not in used]
    if stale:
        lines.append("")
        lines.append(f"arguments in equivalent.toml that match no surviving mutant ({len(stale)}; remove or update them):")
        lines.extend(f"  {e['function']}: {e['mutated']}" for e in stale)
    return "\n".join(lines) + "\n"


def mutant_order(name: str) -> tuple[str, int]:
    head, _, n = name.rpartition("__mutmut_")
    return head, int(n) if n.isdigit() else 0


def row(module: str, total: int, c: Counter) -> str:
    scored = total - c["equivalent"] - c["not checked"]
    score = f"{c['killed'] / scored:.1%}" if scored else "–"
    raw = f"{c['killed'] / (total - c['not checked']):.1%}" if total - c["not checked"] else "–"
    return (f"{module:<14}{total:>8}{c['killed']:>8}{c['survived'] + c['suspicious'] + c['skipped']:>9}{c['equivalent']:>7}"
            f"{c['no tests']:>8}{c['not checked']:>10}{score:>8}{raw:>8}")


def mutmut_version() -> str:
    from importlib.metadata import version

    return version("mutmut")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help=f"core modules to run (default: all of {', '.join(modules())})")
    parser.add_argument("--fresh", action="store_true", help="forget stored results and mutants first")
    parser.add_argument("--report", action="store_true", help="only write the report from stored results")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.modules) - set(modules()))
    if unknown:
        parser.error(f"not a core module: {', '.join(unknown)}; choose from {', '.join(modules())}")
    if args.fresh and WORK.exists():
        shutil.rmtree(WORK)
    WORK.mkdir(parents=True, exist_ok=True)
    if not args.report:
        start = time.time()
        mirror()
        run(args.modules or modules())
        print(f"mutation run took {time.time() - start:,.0f} s", flush=True)
    text = report()
    print(text)
    REPORT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
