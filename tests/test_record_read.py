"""tools/scripts/record_read.py: a newcomer read recorded into a scratch repository, and the reports it refuses."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml

from tools.scripts import record_read as rr

REPORT = """# Read P

Prose the reader wrote. A ```yaml block earlier in a report is not the closing one:

```yaml
- page: not/this.md
```

Closing entries:

```yaml
- page: lessons/01-a.md
  minutes: 12
  range: [9, 16]
  promised: 11
  counts: {chinese_chars: 1200, latin_words: 80, inline: 9, display: 1, display_rows: 2, figures: 1, widgets: 1, code_lines: 0}
  uses_before_explanation: 0
  symbol_collisions: 1
  question: right
  note: "含中文的说明, and a quote: \\"x\\""
```
"""


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture
def repo(tmp_path) -> tuple[Path, str]:
    root = tmp_path / "repo"
    (root / "docs" / "lessons").mkdir(parents=True)
    (root / "tests" / "data").mkdir(parents=True)
    (root / "docs" / "lessons" / "01-a.md").write_text("# 第一课\n\n读到的版本。\n", encoding="utf-8")
    (root / "tests" / "data" / "newcomer_reads.yaml").write_text(
        "# header comment\nreads:\n  - reader: an earlier reader\n    source: read-O.md (kept …)\n    pages: []\n", encoding="utf-8")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "read this")
    read_at = _git(root, "rev-parse", "HEAD")
    (root / "docs" / "lessons" / "01-a.md").write_text("# 第一课\n\n后来改过。\n", encoding="utf-8")  # the page moved on since
    (tmp_path / "read-P.md").write_text(REPORT, encoding="utf-8")
    return root, read_at


def test_a_read_is_recorded_with_the_pages_as_they_were_read(repo, tmp_path):
    root, commit = repo
    folder = rr.record(tmp_path / "read-P.md", commit[:8], "P", "independent newcomer read P by a helper: the whole course # all",
                       "350 characters a minute;\n  5 s an inline formula", "2026-12-06", root=root)
    assert folder == root / "tests" / "data" / "newcomer_reads" / commit[:7]
    assert (folder / "lessons" / "01-a.md").read_text(encoding="utf-8") == "# 第一课\n\n读到的版本。\n"  # at the read's commit
    assert (folder / "reports" / "read-P.md").read_text(encoding="utf-8") == REPORT
    reads = yaml.safe_load((root / "tests" / "data" / "newcomer_reads.yaml").read_text(encoding="utf-8"))["reads"]
    assert len(reads) == 2
    new = reads[-1]
    assert (new["commit"], str(new["date"]), new["language"], new["viewport_px"]) == (commit, "2026-12-06", "zh", 390)
    assert new["reader"] == "independent newcomer read P by a helper: the whole course # all"  # a colon, a hash: text
    assert new["cost_model"] == "350 characters a minute; 5 s an inline formula" and "read-P.md" in new["source"]
    page, = new["pages"]
    assert page["blob"] == _git(root, "rev-parse", f"{commit}:docs/lessons/01-a.md")
    assert page["counts"]["chinese_chars"] == 1200 and page["range"] == [9, 16] and page["symbol_collisions"] == 1
    assert page["note"] == '含中文的说明, and a quote: "x"'


def test_a_read_already_recorded_or_a_bad_report_is_refused_naming_it(repo, tmp_path):
    root, commit = repo
    args = (commit, "O", "read O again", "rates", "2026-12-06")
    with pytest.raises(rr.ReadError, match="read O is already recorded"):
        rr.record(tmp_path / "read-P.md", *args, root=root)
    with pytest.raises(rr.ReadError, match="one or two capital letters"):
        rr.record(tmp_path / "read-P.md", commit, "p", "r", "rates", "2026-12-06", root=root)
    bad = tmp_path / "bad.md"
    bad.write_text(REPORT.replace("  question: right\n", ""), encoding="utf-8")
    with pytest.raises(rr.ReadError, match=r"bad.md: the entry for 'lessons/01-a.md' lacks question"):
        rr.record(bad, commit, "P", "r", "rates", "2026-12-06", root=root)
    bad.write_text("no closing block", encoding="utf-8")
    with pytest.raises(rr.ReadError, match="no ```yaml block"):
        rr.record(bad, commit, "P", "r", "rates", "2026-12-06", root=root)
    with pytest.raises(rr.ReadError, match="read O is already recorded"):  # named by its kept report, not its words
        rr.record(tmp_path / "read-P.md", commit, "O", "someone else's words", "rates", "2026-12-06", root=root)
    with pytest.raises(rr.ReadError, match="git rev-parse"):
        rr.record(tmp_path / "read-P.md", "0" * 40, "P", "r", "rates", "2026-12-06", root=root)
    assert len(yaml.safe_load((root / "tests" / "data" / "newcomer_reads.yaml").read_text(encoding="utf-8"))["reads"]) == 1
    assert not (root / "tests" / "data" / "newcomer_reads" / commit[:7]).exists()  # a refused read copies nothing
