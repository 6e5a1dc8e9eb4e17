"""Mutation testing of posenc's core and of its experiment: `make mutation` (mutmut; pyproject's [tool.mutmut]).

mutmut changes one small thing in a core module at a time (``<`` to ``<=``, a constant
plus one, an argument dropped, ...) and runs the fast core tests that call the changed
function. A mutant the tests do not notice "survives": either a test is missing or the
change does not alter behaviour (an equivalent mutant). Equivalent mutants are listed with
the argument why in ``tests/mutation/equivalent.toml``; the report marks them and leaves
them out of the adjusted score.

    python tests/mutation/run.py                     run every module of both suites, then report
    python tests/mutation/run.py scaling relative    run only these modules (the report covers all)
    python tests/mutation/run.py experiment.train    a module of posenc/experiment/
    python tests/mutation/run.py --fresh             forget earlier results first (a clean run)
    python tests/mutation/run.py --report            only write the report from stored results

The working tree (tracked and new files) is mirrored into ``.cache/mutation`` and mutmut runs
there, so the checkout gets no ``mutants/`` folder. Results are kept between runs: a rerun
checks mutants not yet checked and re-checks the survivors (tests may have been added). It
runs under ``nice`` with CI=true (derandomized Hypothesis); a full run takes about an hour on
two idle cores. The report is printed and written to tests/mutation/latest.txt.

Two suites, each in its own mirror and with its own report. ``core``: the modules and tests
pyproject's [tool.mutmut] lists. ``experiment``: posenc/experiment/'s modules that train, evaluate,
sweep and verify (EXPERIMENT below), against the behaviour tests tests/test_experiment_*.py and
tests/test_experiment.py, reported in tests/mutation/latest-experiment.txt. Every experiment mutant
changes the code the committed results' hash covers, so in the experiment mirror (never in the
checkout) provenance.code_hash returns the hash the results file records: the file's freshness
counts for no mutant, and the freshness test itself (test_committed_results_are_up_to_date) is
left out. Only tests of behaviour can kill a mutant there.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import platform
import shutil
import subprocess
import sys
import time
import tomllib
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EQUIVALENT = Path(__file__).with_name("equivalent.toml")
MIRRORED = ("pyproject.toml", "posenc", "tests", "docs/snippets", "docs/lessons", "figures_src", "tools", "mkdocs.yml")  # tests import tools/ and read mkdocs.yml


@dataclass(frozen=True)
class Suite:
    name: str
    work: Path  # the mirror mutmut runs in
    report: Path


CORE = Suite("core", ROOT / ".cache" / "mutation", Path(__file__).with_name("latest.txt"))
EXPERIMENT = Suite("experiment", ROOT / ".cache" / "mutation-experiment", Path(__file__).with_name("latest-experiment.txt"))
# posenc/experiment/'s modules that compute, sweep and verify (claims.py, stats.py and figures.py only read results;
# provenance.py is patched in the mirror, see the module docstring), in the order a run uses them.
EXPERIMENT_MODULES = ("config", "corpus", "data", "model", "train", "evaluate", "scalings", "extend", "run", "sweep", "runtime", "verify")
# Tests of the committed files' freshness, which compare hashes of the (mutated) number files with recorded ones: they
# fail for every mutant, so they are left out of the mirror's runs (each has behavioural tests beside it).
FRESHNESS_TESTS = ("tests/test_experiment.py::test_committed_results_are_up_to_date",
                   "tests/test_experiment_provenance.py::test_verify_takes_a_superseded_source_hash_only_while_it_maps_to_todays",
                   "tests/test_experiment_provenance.py::test_results_made_before_the_sweep_left_run_py_are_this_codes",
                   "tests/test_experiment_replication_units.py::test_a_resumed_replication_finds_every_committed_unit",
                   "tests/test_experiment_sweep.py::test_the_committed_replication_units_lie_under_their_units_keys")
NEUTRAL_HASH = """

# --- added by tests/mutation/run.py in its mutation mirror; never in the repository ---
# mutmut rewrites the hashed modules (every mutant's code sits in them), so their hash never matches the
# committed results. Neutralised here: the results file's freshness must not count as a test.
def code_hash(cfg):
    code = json.loads((PACKAGE_DIR / "results" / "full.json").read_text(encoding="utf-8"))["code"]
    # the hash today's unmutated code gives: full.json may record one that SUPERSEDED maps to it (made before code
    # that computes nothing moved), and a results file made now, as the tests make the tiny one, records today's
    return {**code, "source_sha256": SUPERSEDED.get(code["source_sha256"], code["source_sha256"])}
"""

# mutmut's statuses, grouped for the score. "check was interrupted" is pytest's exit code 2, which
# a mutant causes when the tests cannot even be collected (a module-level call fails): detected.
DETECTED = {"killed", "timeout", "segfault", "caught by type check", "check was interrupted by user"}
STATUS = {0: "survived", 1: "killed", 3: "killed", 2: "check was interrupted by user", 5: "no tests", 33: "no tests",
          34: "skipped", 35: "suspicious", 36: "timeout", 37: "caught by type check", -24: "timeout", 24: "timeout",
          152: "timeout", 255: "timeout", -11: "segfault", -9: "segfault", None: "not checked"}


def config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]


def core_modules() -> list[str]:
    """Core module names in the order pyproject lists them ("scaling" for posenc/scaling.py)."""
    return [Path(p).stem for p in config()["only_mutate"]]


def modules(suite: Suite | None = None) -> list[str]:
    """Module names of a suite, or of both: "scaling" (posenc/scaling.py), "experiment.train" (posenc/experiment/train.py)."""
    exp = [f"experiment.{m}" for m in EXPERIMENT_MODULES]
    return core_modules() if suite is CORE else exp if suite is EXPERIMENT else core_modules() + exp


def suite_of(module: str) -> Suite:
    return EXPERIMENT if module.startswith("experiment.") else CORE


def source(module: str) -> str:
    """posenc/experiment/train.py for "experiment.train"."""
    return f"posenc/{module.replace('.', '/')}.py"


def experiment_config() -> str:
    """The [tool.mutmut] table of the experiment mirror: the core's settings, its own modules and tests."""
    cfg = dict(config())
    cfg["only_mutate"] = [source(m) for m in modules(EXPERIMENT)]
    cfg["pytest_add_cli_args_test_selection"] = ["tests/test_experiment.py"] + sorted(
        str(p.relative_to(ROOT)) for p in (ROOT / "tests").glob("test_experiment_*.py"))
    cfg["pytest_add_cli_args"] = [*cfg.get("pytest_add_cli_args", []), *(a for t in FRESHNESS_TESTS for a in ("--deselect", t))]
    lines = ["[tool.mutmut]", "# written by tests/mutation/run.py for the experiment suite"]
    lines += [f"{k} = {json.dumps(v, ensure_ascii=False) if not isinstance(v, bool) else str(v).lower()}" for k, v in cfg.items()]
    return "\n".join(lines) + "\n"


def mirror(suite: Suite = CORE) -> None:
    """Copy the working tree's files into the suite's mirror, keeping mtimes; copy only files whose content changed.

    mutmut regenerates a module's mutants when its source is newer than the mutated copy,
    so an unchanged file must keep its old mtime. The experiment mirror then gets its own
    [tool.mutmut] table and the neutral code hash (module docstring).
    """
    work = suite.work
    wanted_text = {}
    if suite is EXPERIMENT:
        pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
        wanted_text["pyproject.toml"] = pyproject[: pyproject.index("[tool.mutmut]")] + experiment_config()
        prov = "posenc/experiment/provenance.py"
        wanted_text[prov] = (ROOT / prov).read_text(encoding="utf-8") + NEUTRAL_HASH
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "--", *MIRRORED], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split("\n")
    wanted = {p for p in listed if p and (ROOT / p).is_file()}
    for rel in sorted(wanted):
        src, dst = ROOT / rel, work / rel
        content = wanted_text[rel].encode("utf-8") if rel in wanted_text else src.read_bytes()
        if dst.exists() and dst.read_bytes() == content:
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        if rel in wanted_text:
            dst.write_bytes(content)
        else:
            shutil.copy2(src, dst)
    for top in MIRRORED:  # files deleted from the working tree
        base = work / top
        for path in ([base] if base.is_file() else base.rglob("*") if base.exists() else []):
            if path.is_file() and str(path.relative_to(work)) not in wanted:
                path.unlink()


def mutmut(suite: Suite, *args: str) -> int:
    env = dict(os.environ, CI="true", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONHASHSEED="0")
    cmd = ["nice", "-n", "10", sys.executable, "-m", "mutmut", *args]
    print("$", " ".join(cmd[3:]), flush=True)
    return subprocess.run(cmd, cwd=suite.work, env=env).returncode


def meta(module: str) -> dict:
    path = suite_of(module).work / "mutants" / f"{source(module)}.meta"
    return json.loads(path.read_text()) if path.exists() else {"exit_code_by_key": {}, "durations_by_key": {}}


def statuses(module: str) -> dict[str, str]:
    return {k: STATUS.get(v, "suspicious") for k, v in meta(module)["exit_code_by_key"].items()}


def run(selected: list[str]) -> list[str]:
    """One mutmut run per suite over the selected modules: mutants never checked, and survivors again. Stops at
    the first suite whose run fails and returns its name, else [] (mutmut exits non-zero when, for one, the tests fail
    on the unmutated code).

    mutmut keeps a mutant's result and, when named explicitly, checks it again; survivors are
    re-checked because tests may have been added since. A module whose source changed since its
    results were stored (or that has none) is run whole by pattern.
    """
    for suite in (CORE, EXPERIMENT):
        chosen = [m for m in selected if suite_of(m) is suite]
        if not chosen:
            continue
        mirror(suite)
        names = []
        for module in chosen:
            stored = suite.work / "mutants" / f"{source(module)}.meta"
            if not stored.exists() or (suite.work / source(module)).stat().st_mtime > stored.stat().st_mtime:
                names.append(f"posenc.{module}.*")
            else:
                names += [k for k, s in statuses(module).items()
                          if s in ("not checked", "survived", "no tests", "suspicious", "timeout")]
        if names and mutmut(suite, "run", *names) != 0:
            return [suite.name]  # not the next suite: its hours would be thrown away with the reports
    return []


def diff(name: str) -> list[str]:
    """The changed lines of a mutant, from mutmut's own diff (run inside its suite's mirror)."""
    code = ("import sys; from mutmut.mutation.diff_apply import get_diff_for_mutant; "
            "print(get_diff_for_mutant(sys.argv[1], path=sys.argv[2]))")
    module = module_of(name)
    out = subprocess.run([sys.executable, "-c", code, name, source(module)], cwd=suite_of(module).work,
                         capture_output=True, text=True).stdout
    return [ln for ln in out.splitlines() if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]


def module_of(name: str) -> str:
    """posenc.experiment.train.x_fit__mutmut_3 → experiment.train."""
    return max((m for m in modules() if name.startswith(f"posenc.{m}.")), key=len)


def function_of(name: str) -> str:
    """posenc.scaling.x_llama3__mutmut_12 → scaling.llama3 (methods: ModelConfig.get; experiment.train.fit)."""
    module = module_of(name)
    rest = name[len(f"posenc.{module}.") :]
    fn = rest.rsplit("__mutmut_", 1)[0]
    fn = fn[2:] if fn.startswith("x_") else fn.lstrip("xǁ").replace("ǁ", ".")
    return f"{module}.{fn}"


def equivalents() -> list[dict]:
    if not EQUIVALENT.exists():
        return []
    return tomllib.loads(EQUIVALENT.read_text(encoding="utf-8")).get("mutant", [])


def normal(line: str) -> str:
    return " ".join(line[1:].split())


def report(suite: Suite = CORE) -> str:
    eq = [e for e in equivalents() if e["function"].startswith("experiment.") == (suite is EXPERIMENT)]
    used = set()
    lines, survivors_out, timed_out = [], [], []
    totals = Counter()
    cpu = platform.machine()
    load = os.getloadavg()
    lines.append(f"posenc mutation report (mutmut {mutmut_version()}), {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC")
    tests = ("the fast core tests listed in pyproject's [tool.mutmut]" if suite is CORE else
             "tests/test_experiment_*.py and tests/test_experiment.py without its freshness test, code hash neutralised")
    lines.append(f"machine: {os.cpu_count()} CPUs ({cpu}), load average {load[0]:.1f} at report time; tests: {tests}, "
                 f"Hypothesis derandomized (CI=true)")
    lines.append("score = detected / (mutants − argued equivalent); detected = killed, timed out, or tests not collectable")
    lines.append("")
    lines.append(f"{'module':<20}{'mutants':>8}{'killed':>8}{'survived':>9}{'equiv.':>7}{'no test':>8}{'unchecked':>10}"
                 f"{'score':>8}{'raw':>8}")
    for module in modules(suite):
        st = statuses(module)
        c = Counter()
        for name, s in sorted(st.items(), key=lambda kv: mutant_order(kv[0])):
            group = "killed" if s in DETECTED else s
            if s == "timeout":
                timed_out.append(name)
            if s in ("survived", "no tests", "suspicious", "skipped"):
                changed = diff(name)
                plus = [normal(ln) for ln in changed if ln.startswith("+")]
                minus = [normal(ln) for ln in changed if ln.startswith("-")]
                match = next((i for i, e in enumerate(eq) if e["function"] == function_of(name) and (
                    normal("+" + e["mutated"]) in plus if "mutated" in e  # a line changed
                    else not plus and normal("-" + e["removed"]) in minus)), None)  # a line (an argument) removed
                if match is not None:
                    used.add(match)
                    group = "equivalent"
                survivors_out.append((name, s, changed, None if match is None else eq[match]))
            c[group] += 1
        total = sum(c.values())
        totals.update(c)
        lines.append(row(module, total, c))
    lines.append(row(suite.name, sum(totals.values()), totals))
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
    skipped = unmutated(suite)
    if skipped:
        lines.append("")
        lines.append(f"not mutated: mutmut mutates function bodies only, neither module-level code (tables, dataclass "
                     f"fields) nor decorated functions ({len(skipped)}):")
        lines.extend(f"  {name}" for name in skipped)
    stale = [e for i, e in enumerate(eq) if i not in used]
    if stale:
        lines.append("")
        lines.append(f"arguments in equivalent.toml that match no surviving mutant ({len(stale)}; remove or update them):")
        lines.extend(f"  {e['function']}: {e.get('mutated', 'removed: ' + e.get('removed', ''))}" for e in stale)
    return "\n".join(lines) + "\n"


def unmutated(suite: Suite) -> list[str]:
    """Functions mutmut leaves alone: those with a decorator other than a lone @staticmethod or @classmethod
    (mutmut 3 does not mutate them, file_mutation.py). Their tests are not measured here."""
    out = []
    for module in modules(suite):
        for node in ast.walk(ast.parse((ROOT / source(module)).read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.decorator_list and not (
                    len(node.decorator_list) == 1 and isinstance(node.decorator_list[0], ast.Name)
                    and node.decorator_list[0].id in ("staticmethod", "classmethod")):
                out.append(f"{module}.{node.name} (@{ast.unparse(node.decorator_list[0])})")
    return out


def mutant_order(name: str) -> tuple[str, int]:
    head, _, n = name.rpartition("__mutmut_")
    return head, int(n) if n.isdigit() else 0


def row(module: str, total: int, c: Counter) -> str:
    scored = total - c["equivalent"] - c["not checked"]
    score = f"{c['killed'] / scored:.1%}" if scored else "–"
    raw = f"{c['killed'] / (total - c['not checked']):.1%}" if total - c["not checked"] else "–"
    return (f"{module:<20}{total:>8}{c['killed']:>8}{c['survived'] + c['suspicious'] + c['skipped']:>9}{c['equivalent']:>7}"
            f"{c['no tests']:>8}{c['not checked']:>10}{score:>8}{raw:>8}")


def mutmut_version() -> str:
    from importlib.metadata import version

    return version("mutmut")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help=f"modules to run (default: all of {', '.join(modules())})")
    parser.add_argument("--fresh", action="store_true", help="forget stored results and mutants first")
    parser.add_argument("--report", action="store_true", help="only write the report from stored results")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.modules) - set(modules()))
    if unknown:
        parser.error(f"not a module of either suite: {', '.join(unknown)}; choose from {', '.join(modules())}")
    selected = args.modules or modules()
    suites = [s for s in (CORE, EXPERIMENT) if any(suite_of(m) is s for m in selected)]
    for suite in suites:
        if args.fresh and suite.work.exists():
            shutil.rmtree(suite.work)
        suite.work.mkdir(parents=True, exist_ok=True)
    if not args.report:
        start = time.time()
        failed = run(selected)
        print(f"mutation run took {time.time() - start:,.0f} s", flush=True)
        if failed:  # its stored results say nothing new: a report from them would replace the committed one with blanks
            print(f"mutmut failed for the {' and '.join(failed)} suite(s) (above: a test that fails on the unmutated code "
                  f"stops it before any mutant); the reports are left as they are", file=sys.stderr)
            return 1
    for suite in suites:  # a suite's report only from its own stored results, so a run of one leaves the other's
        if not (suite.work / "mutants").exists():
            print(f"no stored {suite.name} results in {suite.work}: {suite.report.name} left as it is")
            continue
        text = report(suite)
        print(text)
        suite.report.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
