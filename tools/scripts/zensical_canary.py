"""Zensical canary: how far the newest Zensical gets with this site today (MAINTAINING.md, "Maintenance").

    python -m tools.scripts.zensical_canary [--reference site] [--out zensical-canary] [--tries 3]

1. Install: the newest Zensical on the package index, into a folder of its own (pip --target; the
   project's virtualenv is never touched). Where it does not install, the next older release, up to
   --tries releases; the report names each failure. Unpinned on purpose: this measures what the index
   offers today, and nothing it installs reaches the site that is published.
2. Build: a copy of the project, the generator-neutral steps (GENERATOR_NEUTRAL_STEPS; the hooks move out
   of the generator one by one) around `zensical build` on mkdocs.yml, under the project's Python so that
   the macros can import posenc. A step that fails is reported with its output, as a failed build.
3. Compare with the reference, the site ProperDocs built (`make build` writes site/): the pages built,
   the pages missing, and the text of three lessons (THREE_LESSONS) line by line.

Writes report.md and report.json to --out (CI keeps them as an artifact) and prints the report.
Exit 0 only when Zensical installed, built, and matched every page and the three lessons' text; 1 otherwise
(the CI job may fail: it watches readiness, it never blocks a deploy).
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "zensical"
# One Chinese lesson with widgets and many formulas, one that quotes the experiment, one English page.
THREE_LESSONS = ("lessons/01-order-blind/index.html", "lessons/04-rope/index.html", "en/lessons/05-long-context/index.html")
# Steps that make part of the site without any generator (before or after `zensical build`), as
# (name, command run in the copy with {python} and {site} filled in, "pre" or "post") (MAINTAINING.md, "Maintenance").
# The site-level post-build step: KaTeX's fonts cut to the formulas' characters and the search index cleaned; the
# page policy's hashes go only where a page carries its placeholder, which the per-page step (a hook) writes.
GENERATOR_NEUTRAL_STEPS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("post-build (tools/build/post_build.py --site)", ("{python}", "-m", "tools.build.post_build", "--site", "{site}"), "post"),
)
COPY_IGNORE = shutil.ignore_patterns(".venv", "site", "node_modules", ".cache", ".git", "__pycache__", ".hypothesis",
                                     ".pytest_cache", "experiment_runs", "zensical-canary")


@dataclass
class Attempt:
    version: str
    installed: bool
    reason: str = ""


@dataclass
class Report:
    date: str
    newest: str | None = None
    attempts: list[Attempt] = field(default_factory=list)
    installed: str | None = None
    steps: list[str] = field(default_factory=list)
    built: bool | None = None
    build_log_tail: str = ""
    reference_pages: int = 0
    pages_built: int = 0
    pages_missing: list[str] = field(default_factory=list)
    pages_extra: list[str] = field(default_factory=list)
    text: dict[str, dict] = field(default_factory=dict)

    @property
    def ready(self) -> bool:
        return bool(self.built and not self.pages_missing and self.text
                    and all(t.get("differing_lines") == 0 for t in self.text.values()))


# ---- 1. install ---------------------------------------------------------------------------------------

def pip(*args: str, timeout: int = 900) -> subprocess.CompletedProcess:
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1")
    return subprocess.run([sys.executable, "-m", "pip", *args], capture_output=True, text=True, timeout=timeout, env=env)


def index_versions(package: str = PACKAGE) -> list[str]:
    """The releases the index offers, newest first (pip's own listing)."""
    proc = pip("index", "versions", package, timeout=300)
    m = re.search(r"^Available versions:\s*(.+)$", proc.stdout, re.M)
    return [v.strip() for v in m.group(1).split(",")] if m else []


def why_not(log: str) -> str:
    """The line of pip's output that says why an install failed."""
    for pattern in (r"Could not find a version that satisfies the requirement [^\n]+", r"No matching distribution found for [^\n]+",
                    r"ResolutionImpossible[^\n]*", r"conflict[^\n]+", r"ERROR: [^\n]+"):
        m = re.search(pattern, log)
        if m:
            return m.group(0).strip()
    lines = [ln for ln in log.strip().splitlines() if ln.strip()]
    return lines[-1].strip() if lines else "pip failed without a message"


def install(target: Path, versions: list[str], tries: int) -> list[Attempt]:
    attempts = []
    for version in versions[:tries]:
        shutil.rmtree(target, ignore_errors=True)
        proc = pip("install", "--quiet", "--target", str(target), f"{PACKAGE}=={version}")
        attempts.append(Attempt(version, proc.returncode == 0, "" if proc.returncode == 0 else why_not(proc.stdout + proc.stderr)))
        if proc.returncode == 0:
            break
    return attempts


def console_script(target: Path, name: str = PACKAGE) -> str:
    """`module:function` of the installed package's console script."""
    for entry_points in target.glob("*.dist-info/entry_points.txt"):
        m = re.search(rf"^\s*{re.escape(name)}\s*=\s*(\S+)\s*$", entry_points.read_text(encoding="utf-8"), re.M)
        if m:
            return m.group(1)
    raise RuntimeError(f"{PACKAGE} installed into {target} without a `{name}` console script")


# ---- 2. build -----------------------------------------------------------------------------------------

def filled(command: tuple[str, ...], site: Path) -> list[str]:
    """A step's command with this Python and the site folder Zensical writes."""
    return [part.format(python=sys.executable, site=site) for part in command]


def build(target: Path, work: Path, out: Path) -> tuple[bool, str]:
    """Copy the project, run the generator-neutral steps and `zensical build` into ``out``: (built, log tail)."""
    copy = work / "project"
    shutil.copytree(ROOT, copy, ignore=COPY_IGNORE)
    if (ROOT / "node_modules").exists():
        (copy / "node_modules").symlink_to((ROOT / "node_modules").resolve())
    config = copy / "mkdocs.yml"  # Zensical has no --site-dir: the output folder goes into the config
    config.write_text(config.read_text(encoding="utf-8") + f"\nsite_dir: {json.dumps(str(out))}\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(target), str(copy)]))
    for name, command, _when in [s for s in GENERATOR_NEUTRAL_STEPS if s[2] == "pre"]:
        subprocess.run(filled(command, out), cwd=copy, env=env, check=True, timeout=1800)
    module, _, func = console_script(target).partition(":")
    run = f"import sys; sys.argv[0] = {PACKAGE!r}; from {module} import {func.split('.')[0]} as f; sys.exit(f())"
    proc = subprocess.run([sys.executable, "-c", run, "build", "-f", "mkdocs.yml"], cwd=copy, env=env,
                          capture_output=True, text=True, timeout=1800)
    log = (proc.stdout + proc.stderr).strip().splitlines()
    built = proc.returncode == 0 and out.is_dir()
    if built:
        for name, command, _when in [s for s in GENERATOR_NEUTRAL_STEPS if s[2] == "post"]:
            step = subprocess.run(filled(command, out), cwd=copy, env=env, capture_output=True, text=True, timeout=1800)
            if step.returncode != 0:
                log = [f"{name} failed (exit status {step.returncode}):", *(step.stdout + step.stderr).strip().splitlines()[-14:]]
                built = False
                break
    return built, "\n".join(log[-15:])


# ---- 3. compare ---------------------------------------------------------------------------------------

def pages(site: Path) -> set[str]:
    return {p.relative_to(site).as_posix() for p in site.rglob("*.html")} if site.is_dir() else set()


BLOCKS = {"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "tr", "pre", "blockquote", "figcaption", "summary",
          "dt", "dd", "div", "section", "details", "table", "br"}


class _ArticleText(HTMLParser):
    """The text a reader sees in a page's article (Material's <article>, else <main>, else <body>), one line
    per block, scripts, styles and KaTeX's MathML copy left out."""

    SKIP = {"script", "style", "noscript", "template", "svg", "annotation", "math"}

    def __init__(self, root_tag: str):
        super().__init__(convert_charrefs=True)
        self.root_tag, self.depth, self.skip, self.lines, self.current = root_tag, 0, 0, [], []

    def _flush(self):
        line = " ".join("".join(self.current).split())
        if line:
            self.lines.append(line)
        self.current = []

    def handle_starttag(self, tag, attrs):
        if tag == self.root_tag:
            self.depth += 1
        if self.depth and tag in self.SKIP:
            self.skip += 1
        if self.depth and tag in BLOCKS:
            self._flush()

    def handle_endtag(self, tag):
        if self.depth and tag in self.SKIP and self.skip:
            self.skip -= 1
        if self.depth and tag in BLOCKS:
            self._flush()
        if tag == self.root_tag and self.depth:
            self.depth -= 1
            if not self.depth:
                self._flush()

    def handle_data(self, data):
        if self.depth and not self.skip:
            self.current.append(data)


def article_text(html: str) -> list[str]:
    for tag in ("article", "main", "body"):
        if f"<{tag}" in html:
            parser = _ArticleText(tag)
            parser.feed(html)
            parser.close()
            return parser.lines
    return []


def text_difference(reference: Path, candidate: Path) -> dict:
    """Lines of article text only in the reference page, only in the candidate, and a few of them."""
    if not candidate.is_file():
        return {"missing": True, "differing_lines": None}
    a = article_text(reference.read_text(encoding="utf-8"))
    b = article_text(candidate.read_text(encoding="utf-8"))
    diff = [ln for ln in difflib.unified_diff(a, b, "properdocs", "zensical", n=0, lineterm="") if ln[:1] in "+-"][2:]
    only_ref = [ln[1:] for ln in diff if ln.startswith("-")]
    only_new = [ln[1:] for ln in diff if ln.startswith("+")]
    return {"missing": False, "reference_lines": len(a), "candidate_lines": len(b), "differing_lines": len(diff),
            "only_in_reference": only_ref[:5], "only_in_zensical": only_new[:5]}


def compare(report: Report, reference: Path, built: Path) -> None:
    ref, new = pages(reference), pages(built)
    report.reference_pages, report.pages_built = len(ref), len(new & ref)
    report.pages_missing, report.pages_extra = sorted(ref - new), sorted(new - ref)
    report.text = {page: text_difference(reference / page, built / page) for page in THREE_LESSONS}


# ---- the report ---------------------------------------------------------------------------------------

def markdown(report: Report) -> str:
    out = [f"# Zensical canary, {report.date}", ""]
    out.append(f"- newest {PACKAGE} on the index: {report.newest or 'none found'}")
    for a in report.attempts:
        out.append(f"- {PACKAGE} {a.version}: " + ("installs" if a.installed else f"does not install: {a.reason}"))
    out.append(f"- installs: {'yes, ' + report.installed if report.installed else 'no'}")
    out.append(f"- generator-neutral steps: {', '.join(report.steps) or 'none yet (the hooks still run inside the generator)'}")
    if report.built is None:
        out.append("- build: not run (nothing installed)")
    else:
        out.append(f"- build: {'done' if report.built else 'failed'}")
        if report.build_log_tail:
            out += ["", "```", report.build_log_tail, "```", ""]
    if report.built:
        out.append(f"- pages built: {report.pages_built} of the reference's {report.reference_pages}")
        missing = report.pages_missing
        out.append(f"- pages missing: {len(missing)}" + (f" ({', '.join(missing[:12])}{', …' if len(missing) > 12 else ''})" if missing else ""))
        if report.pages_extra:
            out.append(f"- pages only Zensical wrote: {len(report.pages_extra)} ({', '.join(report.pages_extra[:6])})")
        for page, t in report.text.items():
            if t.get("missing"):
                out.append(f"- text of {page}: page missing")
            else:
                out.append(f"- text of {page}: {t['differing_lines']} differing lines "
                           f"({t['reference_lines']} lines in ProperDocs' page, {t['candidate_lines']} in Zensical's)")
                out += [f"    - only in ProperDocs': {ln[:120]}" for ln in t["only_in_reference"][:3]]
                out += [f"    + only in Zensical's: {ln[:120]}" for ln in t["only_in_zensical"][:3]]
    else:
        out.append("- pages built, pages missing, text of three lessons: not measured (no Zensical build)")
    out += ["", f"Ready by these measures: {'yes' if report.ready else 'no'}.", ""]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reference", type=Path, default=ROOT / "site", help="ProperDocs' build (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=ROOT / "zensical-canary", help="report folder (default: %(default)s)")
    parser.add_argument("--tries", type=int, default=3, help="releases to try, newest first (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.tries < 1:
        parser.error(f"--tries {args.tries}: try at least one release")
    if not pages(args.reference):
        parser.error(f"--reference {args.reference}: no built site there; run `make build` first (it writes site/)")
    report = Report(date=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="zensical-canary-") as tmp:
        work = Path(tmp)
        versions = index_versions()
        report.newest = versions[0] if versions else None
        report.attempts = install(work / "zensical", versions, args.tries)
        report.installed = next((a.version for a in report.attempts if a.installed), None)
        report.steps = [name for name, _, _ in GENERATOR_NEUTRAL_STEPS]
        if report.installed:
            built_site = work / "site"
            report.built, report.build_log_tail = build(work / "zensical", work, built_site)
            if report.built:
                compare(report, args.reference, built_site)
    text = markdown(report)
    (args.out / "report.md").write_text(text, encoding="utf-8")
    (args.out / "report.json").write_text(json.dumps(asdict(report) | {"ready": report.ready}, ensure_ascii=False, indent=2) + "\n",
                                          encoding="utf-8")
    print(text)
    return 0 if report.ready else 1


if __name__ == "__main__":
    sys.exit(main())
