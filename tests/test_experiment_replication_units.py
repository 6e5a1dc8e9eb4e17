"""The frozen replication's finished units (posenc/experiment/results/replication-units/, the run's --cache): units of
the seeds the freeze names, complete and self-consistent, committed after the freeze, where a resumed run finds them."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from posenc.experiment import frozen, plan, provenance, sweep, verify
from posenc.experiment.config import EXTENSIONS, METHODS, PRESETS

ROOT = Path(__file__).resolve().parent.parent
FULL = PRESETS["full"]
UNITS = sorted(frozen.REPLICATION_UNITS.rglob("*.json"))
RECORD = frozen.load()["replication"]
SEEDS = range(RECORD["first_seed"], RECORD["first_seed"] + RECORD["seeds"])


def _unit(path: Path) -> tuple[str, str, int]:
    """rope-seed16.json → ("train", "rope", 16); extend-pi-seed16.json → ("extend", "pi", 16)."""
    stem, _, seed = path.stem.rpartition("-seed")
    kind, name = ("extend", stem[len("extend-"):]) if stem.startswith("extend-") else ("train", stem)
    return kind, name, int(seed)


def test_the_units_are_the_frozen_replications_seeds_of_what_the_preset_trains():
    for path in UNITS:
        kind, name, seed = _unit(path)
        assert seed in SEEDS, f"{path.name}: seed {seed} is not one of the replication's {SEEDS.start}–{SEEDS.stop - 1}"
        assert name in (METHODS if kind == "train" else EXTENSIONS), path.name
        assert path.parent.parent.name == FULL.preset


@pytest.mark.parametrize("path", UNITS, ids=lambda p: p.name)
def test_each_unit_is_complete_finite_and_agrees_with_itself(path):
    kind, name, seed = _unit(path)
    u = json.loads(path.read_text(encoding="utf-8"))
    assert (u.get("method") if kind == "train" else u.get("variant"), u["seed"]) == (name, seed)
    for field, n in verify.unit_lengths(FULL, kind, name).items():
        values = u
        for part in field.split("."):
            values = values[part]
        assert len(values) == n and all(isinstance(v, float) and v == v and abs(v) < 100 for v in values), (path.name, field)
    if kind == "train":  # the curve's last point is the evaluation's in-distribution loss (verify's consistency check)
        assert abs(u["val_curve"][-1] - u["val_loss_128"]) <= verify.CONSISTENCY_TOLERANCE, path.name
    elif name == "rope" and (base := sweep.unit_path(frozen.REPLICATION_UNITS, FULL, provenance.unit_key(FULL, "train", "rope"),
                                                      "train", "rope", seed)).exists():  # it starts from its seed's model
        assert abs(u["in_distribution_curve"][0] - json.loads(base.read_text())["val_curve"][-1]) <= verify.CONSISTENCY_TOLERANCE, path.name


def test_a_resumed_replication_finds_every_committed_unit():
    p = plan.plan(FULL, SEEDS, METHODS, EXTENSIONS, frozen.REPLICATION_UNITS)
    assert len(p.cached) == len(UNITS) and len(p.cached) + len(p.todo) == len(SEEDS) * (len(METHODS) + len(EXTENSIONS))
    assert set(p.cached) == {_unit(path) for path in UNITS}, "units under another key: made by other code or config"


def test_the_units_are_committed_after_the_freeze():
    """Each commit that added a unit has the freeze in its history (not a clock: committer times can be set)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")

    def git(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)

    def adding_commits(path: Path) -> list[str]:
        return git("log", "--diff-filter=A", "--format=%H", "--", str(path.relative_to(ROOT))).stdout.split()

    freeze = adding_commits(frozen.latest())
    if not freeze:
        pytest.skip("the freeze's commit is not in this checkout's history (a shallow clone)")
    for commit in adding_commits(frozen.REPLICATION_UNITS):
        assert git("merge-base", "--is-ancestor", freeze[-1], commit).returncode == 0, f"{commit[:7]} adds units without the freeze"
