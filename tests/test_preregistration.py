"""The pre-registered claim set (posenc/experiment/preregistration/): frozen, hashed, and earlier than the seeds it judges."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from posenc.experiment import claims, frozen

ROOT = Path(__file__).resolve().parent.parent
FREEZES = sorted(frozen.DIRECTORY.glob("*.json"))


def test_a_freeze_exists():
    assert FREEZES, f"no pre-registration in {frozen.DIRECTORY}"


@pytest.mark.parametrize("path", FREEZES, ids=lambda p: p.name)
def test_frozen_hash_matches_the_claims_it_names(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    assert frozen.digest(record["claim_set"]) == record["sha256"]
    assert record["date"] == path.stem
    assert record["replication"]["seeds"] >= 8 and record["replication"]["first_seed"] >= 16


def test_an_edited_freeze_is_refused(tmp_path):
    record = json.loads(FREEZES[-1].read_text(encoding="utf-8"))
    name = next(iter(record["claim_set"]["claims"]))
    record["claim_set"]["claims"][name]["checks"][0]["word"] = "within"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(record, ensure_ascii=False))
    with pytest.raises(ValueError, match="does not match its sha256"):
        frozen.load(edited)


def test_the_pages_state_the_latest_frozen_claims():
    # Until a claim fails replication and is reworded (the results page then shows both wordings),
    # the claims the pages print are exactly the ones frozen, with the same checks and margins.
    record = frozen.load()
    assert record["claim_set"] == frozen.claim_set(), "claims.py differs from the latest freeze; freeze anew only before new seeds"


def test_the_freeze_is_committed_before_any_replication_results():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")

    def first_commit_time(path: Path) -> int | None:
        out = subprocess.run(["git", "log", "--diff-filter=A", "--format=%ct", "--", str(path.relative_to(ROOT))],
                             cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
        return int(out[-1]) if out else None

    frozen_at = first_commit_time(frozen.latest())
    replication_at = first_commit_time(frozen.REPLICATION_FILE) if frozen.REPLICATION_FILE.exists() else None
    if replication_at is not None:
        assert frozen_at is not None and frozen_at < replication_at, "the replication results were committed before the claims were frozen"
