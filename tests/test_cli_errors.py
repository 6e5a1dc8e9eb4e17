"""Every bad input to ``python -m posenc.experiment`` ends in one line naming the option or file and
the fix, with no traceback; nothing starts training on a value the run would misreport."""

from __future__ import annotations

import copy
import json
import math
import subprocess
import sys
from pathlib import Path
from functools import lru_cache

import pytest

from posenc.experiment import __main__ as cli
from posenc.experiment import provenance
from posenc.experiment import sweep
from posenc.experiment.course import PAGE_SEEDS
from posenc.experiment.sweep import results_path
from site_support import ROOT


@pytest.fixture
def no_training(monkeypatch):
    """Stand-in for sweep.run: records its arguments instead of training."""
    calls = []
    monkeypatch.setattr(sweep, "run", lambda cfg, **kw: calls.append((cfg, kw)))
    return calls


def _usage_error(capsys, argv) -> str:
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--methods", "bogus"], ["--methods", "'bogus'", "rope"]),
        (["--methods", ","], ["--methods is empty", "rope"]),
        (["--methods", "rope,rope"], ["--methods", "rope twice"]),
        (["--seeds", "4", "--seed", "2", "--seed", "2"], ["--seed 2 is given twice"]),
        (["--extensions", "bogus"], ["--extensions", "'bogus'", "abf"]),
        (["--methods", "nope", "--extensions", "pi"], ["--extensions", "add rope to --methods", "--extensions ''"]),
        (["--jobs", "0"], ["--jobs must be at least 1, got 0"]),
        (["--threads", "0"], ["--threads must be at least 1, got 0"]),
        (["--threads", "-2"], ["--threads must be at least 1, got -2"]),
        (["--device", "bogus"], ["--device bogus", "use cpu, cuda"]),
        (["--seeds", "0"], ["--seeds must be at least 1, got 0"]),
        (["--seeds", "-3"], ["--seeds must be at least 1, got -3"]),
        (["--first-seed", "-1"], ["--first-seed must be 0 or more, got -1"]),
        (["--seed", "-5"], ["--seed -5", "seeds 0…0", "--seeds"]),
        (["--seeds", "3", "--seed", "3"], ["--seed 3", "seeds 0…2"]),
        (["--first-seed", "8", "--seeds", "2", "--seed", "0"], ["--seed 0", "seeds 8…9"]),
        (["--preset", "nosuch"], ["--preset", "'nosuch'", "full"]),
    ],
)
def test_a_bad_run_option_is_one_line_naming_it(capsys, no_training, argv, words):
    err = _usage_error(capsys, ["run", *argv, "--no-progress"])
    for word in words:
        assert word in err, err
    assert not no_training


def test_a_cuda_device_without_a_gpu_is_named(capsys, no_training):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    err = _usage_error(capsys, ["run", "--device", "cuda"])
    assert "--device cuda" in err and "--device cpu" in err


def test_good_options_reach_the_run_with_the_seeds_asked_for(no_training):
    assert cli.main(["run", "--preset", "quick", "--first-seed", "4", "--seeds", "3", "--seed", "5", "--seed", "6",
                     "--methods", "rope, nope", "--extensions", "", "--jobs", "2", "--threads", "1", "--no-progress"]) == 0
    (cfg, kw), = no_training
    assert cfg.preset == "quick"
    assert list(kw["seeds"]) == [4, 5, 6] and kw["compute_seeds"] == [5, 6]
    assert kw["methods"] == ("rope", "nope") and kw["variants"] == ()
    assert (kw["jobs"], kw["threads"], kw["progress"]) == (2, 1, False)
    assert kw["cache_dir"] == sweep.CACHE_DIR  # experiment_runs/ unless --cache names another folder
    no_training.clear()
    assert cli.main(["run", "--cache", "elsewhere/units", "--no-progress"]) == 0
    assert no_training[0][1]["cache_dir"] == Path("elsewhere/units")


def test_a_dry_run_prints_the_plan_and_trains_nothing(capsys, no_training, tmp_path):
    assert cli.main(["run", "--preset", "quick", "--seeds", "2", "--methods", "rope,nope", "--extensions", "pi",
                     "--cache", str(tmp_path), "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("plan for preset quick: 0 of 6 unit(s) cached in ") and out[0].endswith(", 6 to compute")
    assert out[1:] == ["  rope: seeds 0–1", "  nope: seeds 0–1", "  extend pi: seeds 0–1"]
    assert not no_training
    assert cli.main(["run", "--preset", "quick", "--cache", str(tmp_path), "--no-progress"]) == 0
    assert no_training and capsys.readouterr().out.startswith("plan for preset quick: 0 of 12 unit(s)")  # printed before the run


@pytest.mark.parametrize("argv, words", [(["--threads", "0"], ["--threads must be at least 1"]),
                                         (["--steps", "0"], ["--steps must be at least 1"]),
                                         (["--steps", "100000"], ["--steps 100000", "'full'", "at most"])])
def test_a_bad_verify_option_is_one_line_naming_it(capsys, argv, words):
    err = _usage_error(capsys, ["verify", "--no-rerun", *argv])
    for word in words:
        assert word in err, err


# --- results files that summary and verify must refuse in one line -------------------------------

@lru_cache(maxsize=1)
def _committed() -> dict:
    return json.loads(results_path("full").read_text())


def _resealed(edit) -> dict:
    results = copy.deepcopy(_committed())
    edit(results)
    results["seal_sha256"] = provenance.seal(results)
    return results


def _nan(results):
    results["runs"]["alibi"][0]["position_loss"][7] = math.nan


def _strings(results):
    loss = results["runs"]["rope"][0]["position_loss"]
    results["runs"]["rope"][0]["position_loss"] = [str(v) for v in loss]


def _runs_as_list(results):
    results["runs"] = list(results["runs"].values())


CORRUPT = {
    "truncated": lambda: results_path("full").read_text()[:100_000],
    "empty": lambda: "",
    "a JSON list": lambda: "[1, 2]",
    "a JSON string": lambda: '"results"',
    "an empty object": lambda: "{}",
    "a NaN, resealed": lambda: json.dumps(_resealed(_nan)),
    "numbers as strings, resealed": lambda: json.dumps(_resealed(_strings)),
    "runs as a list, resealed": lambda: json.dumps(_resealed(_runs_as_list)),
    "seeds as a number": lambda: json.dumps(dict(_committed(), seeds=16)),
}


@pytest.mark.parametrize("command", ["summary", "verify"])
@pytest.mark.parametrize("kind", list(CORRUPT))
def test_a_corrupt_results_file_fails_in_one_line_naming_it(tmp_path, capsys, command, kind):
    path = tmp_path / "full.json"
    path.write_text(CORRUPT[kind](), encoding="utf-8")
    argv = [command, "--results", str(path)] + (["--no-rerun"] if command == "verify" else [])
    assert cli.main(argv) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"FAILED: {path}") and "\n" not in err, err
    assert "run --preset full --seeds" in err


@pytest.mark.parametrize("command", ["summary", "verify"])
def test_a_missing_results_file_asks_for_the_pages_seed_count(tmp_path, capsys, command):
    path = tmp_path / "none.json"
    assert cli.main([command, "--results", str(path)] + (["--no-rerun"] if command == "verify" else [])) == 1
    err = capsys.readouterr().err
    assert f"does not exist; re-run `python -m posenc.experiment run --preset full --seeds {PAGE_SEEDS}`" in err


def test_the_pages_seed_count_is_the_committed_files():
    assert len(_committed()["seeds"]) == PAGE_SEEDS
    assert f"--seeds {PAGE_SEEDS}" in (ROOT / "Makefile").read_text()


def test_the_module_run_prints_no_traceback():
    """The real entry point, as a user types it (the others call main in-process)."""
    out = subprocess.run([sys.executable, "-m", "posenc.experiment", "run", "--jobs", "0"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr and "--jobs must be at least 1, got 0" in out.stderr
