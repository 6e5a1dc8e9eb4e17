"""Record a newcomer read: copy the pages it read, keep its report, and add its entry to tests/data/newcomer_reads.yaml.

    python -m tools.scripts.record_read REPORT --commit SHA --letter P --reader "independent newcomer read P by …"
        --cost-model "Chinese 350 characters a minute; …" [--date 2026-12-07] [--viewport 390] [--language zh]

REPORT is the reader's report (Markdown). Its last ```yaml block lists the pages it read, each with minutes, range,
promised, counts, uses_before_explanation, symbol_collisions, question and note (the protocol's closing entries).
For each page the script writes `git show SHA:docs/<page>` under tests/data/newcomer_reads/<SHA[:7]>/ and its blob
id into the entry, so tests/test_reading_time.py can check the copy and judge the reading-time rule on the page as
it was read. The report is kept as reports/read-<letter>.md beside the pages. Nothing is overwritten: a read
already recorded (its letter, or its report file) is refused.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import subprocess
import sys
from pathlib import Path

import yaml

from posenc.formatting import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
PAGE_FIELDS = ("minutes", "range", "promised", "counts", "uses_before_explanation", "symbol_collisions", "question", "note")
YAML_BLOCK = re.compile(r"^```yaml\n(.*?)^```", re.S | re.M)


class ReadError(Exception):
    """A report or an option the script cannot record; the message names it and the fix."""


def pages_of(report: str, name: str) -> list[dict]:
    """The page entries of the report's last ```yaml block, each checked for the fields an entry needs."""
    blocks = YAML_BLOCK.findall(report)
    if not blocks:
        raise ReadError(f"{name}: no ```yaml block; the report must end with its per-page entries in one")
    pages = yaml.safe_load(blocks[-1])
    if not isinstance(pages, list) or not pages:
        raise ReadError(f"{name}: its last ```yaml block is not a list of pages")
    for entry in pages:
        missing = [f for f in ("page", *PAGE_FIELDS) if not isinstance(entry, dict) or f not in entry]
        if missing:
            raise ReadError(f"{name}: the entry for {entry.get('page') if isinstance(entry, dict) else entry!r} "
                            f"lacks {', '.join(missing)}")
    return pages


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
    if done.returncode:
        raise ReadError(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def _scalar(value) -> str:
    # JSON's strings, numbers, lists and null are YAML too; flow style keeps an entry as compact as the file's others
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_scalar(v)}" for k, v in value.items()) + "}"
    return json.dumps(value, ensure_ascii=False)


def entry_text(meta: dict, pages: list[dict]) -> str:
    """The read as newcomer_reads.yaml writes one entry under `reads` (free text quoted, so a colon is only text)."""
    lines = [f"  - reader: {_scalar(meta['reader'])}"]
    for key in ("source", "date", "commit", "language", "viewport_px"):
        lines.append(f"    {key}: {_scalar(meta[key])}")
    lines.append(f"    cost_model: {_scalar(' '.join(meta['cost_model'].split()))}")
    lines.append("    pages:")
    for p in pages:
        lines.append(f"      - page: {p['page']}")
        lines.append(f"        blob: {p['blob']}")
        lines.extend(f"        {f}: {_scalar(p[f])}" for f in PAGE_FIELDS)
    return "\n".join(lines) + "\n"


def record(report_path: Path, commit: str, letter: str, reader: str, cost_model: str, date: str,
           viewport: int = 390, language: str = "zh", root: Path = ROOT) -> Path:
    """Copy the pages and the report, append the entry; return the folder the pages went to."""
    if not re.fullmatch(r"[A-Z]{1,2}", letter):
        raise ReadError(f"--letter {letter!r}: a read is named by one or two capital letters (the next after the last one)")
    reads_file = root / "tests" / "data" / "newcomer_reads.yaml"
    before = reads_file.read_text(encoding="utf-8")
    known = yaml.safe_load(before)["reads"]
    if any(re.search(rf"\bread {letter}\b", r["reader"]) or f"read-{letter}.md" in r.get("source", "") for r in known):
        raise ReadError(f"read {letter} is already recorded in {reads_file.name}; pick the next letter")
    full = _git(root, "rev-parse", "--verify", f"{commit}^{{commit}}").strip()
    folder = root / "tests" / "data" / "newcomer_reads" / full[:7]
    kept = folder / "reports" / f"read-{letter}.md"
    if kept.exists():
        raise ReadError(f"{kept} exists; a recorded report is never overwritten")
    report = report_path.read_text(encoding="utf-8")
    pages = pages_of(report, report_path.name)
    for p in pages:
        p["blob"] = _git(root, "rev-parse", f"{full}:docs/{p['page']}").strip()
    meta = {"reader": reader, "date": date, "commit": full, "language": language, "viewport_px": viewport,
            "cost_model": cost_model,
            "source": f"read-{letter}.md (kept in tests/data/newcomer_reads/{full[:7]}/reports/), its cost model and closing per-page entries"}
    after = before + ("" if before.endswith("\n") else "\n") + entry_text(meta, pages)
    try:  # checked before anything is written: a refused read leaves no trace
        assert len(yaml.safe_load(after)["reads"]) == len(known) + 1
    except (yaml.YAMLError, AssertionError) as err:
        raise ReadError(f"the entry for read {letter} would not parse as one more read ({err}); nothing was written") from None
    for p in pages:
        target = folder / p["page"]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(subprocess.run(["git", "show", f"{full}:docs/{p['page']}"], cwd=root, capture_output=True, check=True).stdout)
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_text(report, encoding="utf-8")
    reads_file.write_text(after, encoding="utf-8")
    return folder


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report", type=Path)
    ap.add_argument("--commit", required=True, help="the commit whose built pages were read")
    ap.add_argument("--letter", required=True, help="the read's letter, the next after the last recorded one")
    ap.add_argument("--reader", required=True, help="who read and how, as the file's other entries say it")
    ap.add_argument("--cost-model", required=True, help="the reader's rates, in one paragraph")
    ap.add_argument("--date", default=dt.date.today().isoformat())
    ap.add_argument("--viewport", type=int, default=390)
    ap.add_argument("--language", default=LANGUAGES[0], choices=LANGUAGES)
    args = ap.parse_args(argv)
    try:
        folder = record(args.report, args.commit, args.letter, args.reader, args.cost_model, args.date, args.viewport, args.language)
    except (ReadError, OSError) as err:
        print(f"record_read: {err}", file=sys.stderr)
        return 1
    print(f"recorded read {args.letter}: pages and report in {folder.relative_to(ROOT)}, entry appended to tests/data/newcomer_reads.yaml")
    return 0


if __name__ == "__main__":
    sys.exit(main())
