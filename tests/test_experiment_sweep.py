"""posenc/experiment/sweep.py: the sweep's units, what a unit records, resuming, and the results file it assembles.

The sweep runs the tiny experiment (tests/experiment_tiny.py) on a random-token dataset into a
temporary cache. Each unit's numbers are checked against training and evaluating the same seed
here; resuming is checked by stopping a sweep part-way (a unit that raises KeyboardInterrupt, as
Ctrl-C does) and counting what the next sweep computes.
"""

from __future__ import annotations

import datetime
import json
import os
import queue
import re
import signal
import time
from concurrent.futures import Future
from pathlib import Path

import numpy as np
import pytest
import torch
from experiment_tiny import TINY, dataset

from posenc.experiment import evaluate, plan, provenance, run, train
from posenc.experiment import sweep as sweep_mod

DS = dataset()
SEEDS, METHODS, VARIANTS = (0, 1), ("nope", "rope"), ("pi", "yarn")
COMPUTE_UNIT = sweep_mod.compute_unit
RUN_DATASET = sweep_mod._dataset  # the committed corpus, as a worker process loads it


@pytest.fixture(autouse=True)
def tiny_sweep(monkeypatch):
    """run() on the tiny dataset, leaving torch's thread count and determinism setting as they were."""
    monkeypatch.setattr(sweep_mod, "_dataset", lambda cfg: DS)
    threads, deterministic = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    yield
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(deterministic)


def sweep(cache, out=None, lines=None, **kw):
    """run() on TINY; its results file goes to ``out`` (default: beside the cache, never into the repository);
    what it logs goes to ``lines`` when given."""
    out = Path(cache) / "results.json" if out is None else out
    kw.setdefault("seeds", SEEDS)
    kw.setdefault("methods", METHODS)
    kw.setdefault("variants", VARIANTS)
    log = lines.append if lines is not None else (lambda *a: None)
    return sweep_mod.run(TINY, threads=torch.get_num_threads(), cache_dir=cache, out=out, progress=False, log=log, **kw)


class Computed:
    """Records the units compute_unit is asked for; raises KeyboardInterrupt at call number ``stop_at``."""

    def __init__(self, monkeypatch, stop_at=None):
        self.units, self.stop_at = [], stop_at
        real = COMPUTE_UNIT  # not sweep_mod.compute_unit, which may be an earlier spy

        def spy(cfg, kind, name, seed, *args, **kw):
            if self.stop_at is not None and len(self.units) == self.stop_at:
                raise KeyboardInterrupt("stopped by the test")
            self.units.append((kind, name, seed))
            return real(cfg, kind, name, seed, *args, **kw)

        monkeypatch.setattr(sweep_mod, "compute_unit", spy)


ALL_UNITS = [("train", "rope", 0), ("train", "nope", 0), ("train", "rope", 1), ("train", "nope", 1),
             ("extend", "pi", 0), ("extend", "yarn", 0), ("extend", "pi", 1), ("extend", "yarn", 1)]


def test_units_are_every_method_then_every_extension_per_seed_rope_first():
    assert sweep_mod.units(METHODS, VARIANTS, SEEDS) == ALL_UNITS
    assert sweep_mod.units(("learned",), (), (5,)) == [("train", "learned", 5)]


def _sweep_scope(fixture_name, config):
    # mutmut runs a mutant only against the tests its statistics run saw call the mutated function, and a
    # module-scoped fixture's sweep is seen in the first test that asks for it alone: while mutmut collects
    # those statistics (MUTANT_UNDER_TEST=stats), every reader of the sweep runs its own.
    return "function" if os.environ.get("MUTANT_UNDER_TEST") == "stats" else "module"


@pytest.fixture(scope=_sweep_scope)
def whole(tmp_path_factory):
    """One uninterrupted sweep: (its results, its cache)."""
    cache = tmp_path_factory.mktemp("whole")
    mp = pytest.MonkeyPatch()
    mp.setattr(sweep_mod, "_dataset", lambda cfg: DS)
    threads, deterministic = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    try:
        lines, began = [], time.time()
        results = sweep(cache, out=cache / "tiny.json", lines=lines)
        (cache / "sweep_mod.log").write_text("\n".join(lines), encoding="utf-8")  # what the sweep told its reader
        (cache / "sweep_mod.times").write_text(f"{began} {time.time()}")
    finally:
        mp.undo()
        torch.set_num_threads(threads)
        torch.use_deterministic_algorithms(deterministic)
    return results, cache


def numbers(results: dict) -> dict:
    """The measured numbers of a results file, without timings and provenance."""
    keep = ("train_loss", "val_curve", "position_loss", "val_loss_128", "rope_scaling", "in_distribution_curve",
            "position_loss_before", "position_loss_after")
    strip = lambda u: {k: v for k, v in u.items() if k in keep}  # noqa: E731
    return {"runs": {m: [strip(u) for u in us] for m, us in results["runs"].items()},
            "extension": {v: [strip(u) for u in us] for v, us in results["extension"].items()}}


def test_a_sweep_computes_every_unit_once_in_order(tmp_path, monkeypatch):
    computed, lines = Computed(monkeypatch), []
    sweep(tmp_path, out=tmp_path / "r.json", lines=lines)
    assert computed.units == ALL_UNITS
    # the sweep says up front how many units it will compute and where it caches them, and at the end how many it did
    keys = sweep_mod.unit_keys(TINY, METHODS, VARIANTS)  # one folder per method and variant, each under its own key
    assert sorted(p.name for p in (tmp_path / TINY.preset).iterdir()) == sorted(set(keys.values())) and len(set(keys.values())) == 4
    for kind, name, seed in ALL_UNITS:
        assert sweep_mod.unit_path(tmp_path, TINY, keys[kind, name], kind, name, seed).is_file()
    assert f"{len(ALL_UNITS)} unit(s) to compute with 1 process(es)" in lines[0]
    assert lines[0].endswith(f"cache {tmp_path / TINY.preset}")
    assert lines[-2].startswith(f"computed {len(ALL_UNITS)} unit(s) in ") and lines[-1] == f"wrote {tmp_path / 'r.json'}"
    again, lines = Computed(monkeypatch), []
    assert sweep(tmp_path, out=tmp_path / "r.json", lines=lines) is not None
    assert again.units == []  # everything cached: nothing recomputed
    assert "; 0 unit(s) to compute" in lines[0] and not any(line.startswith("computed") for line in lines)


@pytest.mark.parametrize("stop_at", [1, 3, 5])
def test_a_stopped_sweep_resumes_with_exactly_the_missing_units(tmp_path, monkeypatch, whole, stop_at):
    Computed(monkeypatch, stop_at=stop_at)
    with pytest.raises(KeyboardInterrupt):
        sweep(tmp_path)
    resumed = Computed(monkeypatch)
    results = sweep(tmp_path, out=tmp_path / "r.json")
    assert resumed.units == ALL_UNITS[stop_at:]
    assert numbers(results) == numbers(whole[0])  # and the file is the one an uninterrupted sweep writes


def test_the_plan_names_the_cached_units_and_those_a_resumed_sweep_computes(tmp_path, monkeypatch):
    Computed(monkeypatch, stop_at=3)
    with pytest.raises(KeyboardInterrupt):
        sweep(tmp_path)
    p = plan.plan(TINY, SEEDS, METHODS, VARIANTS, tmp_path)
    assert p.cached == tuple(ALL_UNITS[:3]) and p.todo == tuple(ALL_UNITS[3:])
    assert p.cache == tmp_path / TINY.preset
    assert plan.describe(p).splitlines() == [
        f"plan for preset tiny: 3 of 8 unit(s) cached in {p.cache}, 5 to compute",
        "  nope: seed 1", "  extend pi: seeds 0–1", "  extend yarn: seeds 0–1"]
    assert plan.plan(TINY, SEEDS, METHODS, VARIANTS, tmp_path, compute_seeds=[0]).todo == (("extend", "pi", 0), ("extend", "yarn", 0))
    resumed = Computed(monkeypatch)
    sweep(tmp_path)
    assert resumed.units == list(p.todo)  # what the plan said would be computed, in that order
    assert plan.plan(TINY, SEEDS, METHODS, VARIANTS, tmp_path).todo == ()


def test_seed_spans_join_neighbours():
    assert plan.spans([20, 16, 17, 18]) == "16–18, 20"
    assert plan.spans([3]) == "3" and plan.spans([]) == "" and plan.spans([1, 3, 5]) == "1, 3, 5"


def test_a_lost_unit_is_computed_again_and_only_it(tmp_path, monkeypatch, whole):
    sweep(tmp_path, out=tmp_path / "r.json")
    keys = sweep_mod.unit_keys(TINY, METHODS, VARIANTS)
    key = keys["train", "rope"]  # the weights lie beside the seed's RoPE unit
    sweep_mod.unit_path(tmp_path, TINY, keys["extend", "yarn"], "extend", "yarn", 0).unlink()
    sweep_mod.weights_path(tmp_path, TINY, key, 0).unlink()  # the extension re-trains its base model if the weights are gone too
    computed = Computed(monkeypatch)
    results = sweep(tmp_path, out=tmp_path / "r.json")
    assert computed.units == [("extend", "yarn", 0)]
    assert numbers(results) == numbers(whole[0])
    # and the re-trained weights are cached again, the same tensors as the first time
    again = torch.load(sweep_mod.weights_path(tmp_path, TINY, key, 0), weights_only=True)
    first = torch.load(sweep_mod.weights_path(whole[1], TINY, key, 0), weights_only=True)
    assert again.keys() == first.keys() and all(torch.equal(again[k], first[k]) for k in first)


def test_split_seeds_compute_only_their_units_and_write_nothing(tmp_path, monkeypatch, whole):
    computed, lines = Computed(monkeypatch), []
    assert sweep(tmp_path, out=tmp_path / "r.json", compute_seeds=[1], lines=lines) is None
    assert computed.units == [u for u in ALL_UNITS if u[2] == 1]
    assert not (tmp_path / "r.json").exists()
    assert lines[-1] == "computed seeds [1]; run without --seed to write the results file"
    computed.units.clear()
    results = sweep(tmp_path, out=tmp_path / "r.json")
    assert computed.units == [u for u in ALL_UNITS if u[2] == 0]
    assert numbers(results) == numbers(whole[0])


def test_each_run_unit_is_what_training_and_evaluating_that_seed_gives(whole):
    results, _ = whole
    for method in METHODS:
        for seed, u in zip(SEEDS, results["runs"][method]):
            assert (u["method"], u["seed"]) == (method, seed)
            curve = []
            m, losses = train.train(TINY, method, seed, DS.train,
                                    on_checkpoint=lambda k, mm: curve.append(evaluate.in_distribution_loss(mm, DS.val, TINY)))
            pos = evaluate.position_losses(m, DS.val, TINY)
            np.testing.assert_allclose(u["train_loss"], losses, atol=2e-6)
            np.testing.assert_allclose(u["val_curve"], curve, atol=2e-6)
            np.testing.assert_allclose(u["position_loss"], pos, atol=2e-6)
            assert len(u["val_curve"]) == len(TINY.curve_steps()) and len(u["position_loss"]) == TINY.eval_len
            # the in-distribution loss: positions 0 … train_len−1 of the per-position loss, no more, no fewer
            assert u["val_loss_128"] == pytest.approx(pos[: TINY.train_len].mean(), abs=2e-6)
            assert u["val_loss_128"] == pytest.approx(u["val_curve"][-1], abs=2e-6)
            if method == "rope":
                assert sorted(u["rope_scaling"]) == ["ntk", "pi", "yarn"]
                for name, values in u["rope_scaling"].items():
                    want = evaluate.position_losses(m, DS.val, TINY, rotary=evaluate.rope_scaling(TINY, name))
                    np.testing.assert_allclose(values, want, atol=2e-6)
            else:
                assert "rope_scaling" not in u


def test_each_extension_unit_starts_from_its_seeds_rope_model(whole):
    results, cache = whole
    for variant in VARIANTS:
        for seed, u in zip(SEEDS, results["extension"][variant]):
            assert (u["variant"], u["seed"]) == (variant, seed)
            base, _ = train.train(TINY, "rope", seed, DS.train)
            from posenc.experiment import extend

            # the base model is the one the seed's RoPE unit cached (the extension reads it instead of training again)
            weights = sweep_mod.weights_path(cache, TINY, sweep_mod.unit_keys(TINY, ("rope",), ())["train", "rope"], seed)
            rope_unit = results["runs"]["rope"][SEEDS.index(seed)]
            assert weights.stat().st_mtime <= rope_unit["finished"] + 0.05, "the RoPE unit did not cache its weights"
            cached = torch.load(weights, map_location="cpu", weights_only=True)
            assert cached.keys() == base.state_dict().keys()
            for name, tensor in base.state_dict().items():
                assert torch.equal(cached[name], tensor), (seed, name)
            want = extend.extend(TINY, base.state_dict(), variant, seed, DS.train, DS.val)
            for field in ("train_loss", "in_distribution_curve", "position_loss_before", "position_loss_after"):
                np.testing.assert_allclose(u[field], want[field], atol=2e-6, err_msg=f"{variant} seed {seed} {field}")


def test_the_results_file_is_sealed_and_says_what_made_it(whole):
    results, cache = whole
    on_disk = json.loads((cache / "tiny.json").read_text())
    assert on_disk == results
    assert results["seal_sha256"] == provenance.seal(results)
    assert (results["preset"], results["config"]) == ("tiny", TINY.to_dict())
    assert (results["methods"], results["extensions"], results["seeds"]) == (list(METHODS), list(VARIANTS), list(SEEDS))
    assert results["schema"] == sweep_mod.SCHEMA and results["code"] == provenance.code_hash(TINY)
    assert list(results["runs"]) == list(METHODS) and list(results["extension"]) == list(VARIANTS)
    assert results["parameters"] == {"nope": 944, "rope": 944}
    data = results["data"]
    assert (data["train_tokens"], data["val_tokens"], data["vocab_size"]) == (400, 90, 16)
    assert (data["eval_windows"], data["ext_eval_windows"]) == (10, 8)
    units = [u for us in (*results["runs"].values(), *results["extension"].values()) for u in us]
    assert results["cpu_seconds"] == pytest.approx(sum(u["cpu_seconds"] for u in units), abs=0.11)
    assert results["wall_seconds"] == pytest.approx(max(u["finished"] for u in units) - min(u["started"] for u in units), abs=0.11)
    # compute time: every unit's training, evaluation and extension seconds
    spent = sum(u.get("train_seconds", 0) + u.get("eval_seconds", 0) + u.get("seconds", 0) for u in units)
    assert results["compute_seconds"] == pytest.approx(spent, abs=0.051)
    assert all(results[k] == round(results[k], 1) for k in ("compute_seconds", "cpu_seconds", "wall_seconds")), results
    assert not all(float(u["started"]).is_integer() for u in units)  # tenths, not whole seconds
    created = datetime.datetime.fromisoformat(results["created"])
    began, ended = map(float, (cache / "sweep_mod.times").read_text().split())
    assert created.utcoffset() == datetime.timedelta(0) and began - 1 <= created.timestamp() <= ended + 1
    assert results["command"] == provenance.command_line()
    # the file: one-space indents and characters as they are (readable in a diff), a final newline
    text = (cache / "tiny.json").read_text(encoding="utf-8")
    assert text == json.dumps(on_disk, ensure_ascii=False, indent=1) + "\n"
    began, ended = map(float, (cache / "sweep_mod.times").read_text().split())
    for u in units:  # clock times to a tenth of a second, within the sweep; a unit's end after its start
        assert all(u[k] == round(u[k], 1) for k in ("started", "finished", "cpu_seconds")), u
        assert began - 0.05 <= u["started"] <= u["finished"] <= ended + 0.05, (began, ended, u)
        # its CPU time, at most what its threads could spend while it ran
        assert 0 <= u["cpu_seconds"] <= (u["finished"] - u["started"]) * torch.get_num_threads() + 0.2, u
    # training, evaluation and extension times to a hundredth of a second, inside the unit's own start and end
    for u in (u for us in results["runs"].values() for u in us):
        assert all(u[k] == round(u[k], 2) and u[k] >= 0 for k in ("train_seconds", "eval_seconds")), u
        assert u["train_seconds"] + u["eval_seconds"] <= u["finished"] - u["started"] + 0.1, u
    for u in (u for us in results["extension"].values() for u in us):
        assert u["seconds"] == round(u["seconds"], 2) and 0 <= u["seconds"] <= u["finished"] - u["started"] + 0.1, u
    assert sum(u["train_seconds"] for us in results["runs"].values() for u in us) > 0  # measured, not rounded away
    assert sum(u["seconds"] for us in results["extension"].values() for u in us) > 0


def test_the_sweep_reports_each_unit_with_its_own_numbers(whole):
    """The line the sweep prints for each unit names it and quotes its result: a training unit's in-distribution
    loss, an extension unit's first and last in-distribution loss."""
    results, cache = whole
    log = (cache / "sweep_mod.log").read_text(encoding="utf-8")
    for method, us in results["runs"].items():
        for u in us:
            assert re.search(rf"^{method} seed {u['seed']}: val loss \(0–\d+\) {u['val_loss_128']:.3f},", log, re.M), (method, log)
    for variant, us in results["extension"].items():
        for u in us:
            curve = u["in_distribution_curve"]
            assert f"extend {variant} seed {u['seed']}: in-distribution {curve[0]:.3f} → {curve[-1]:.3f}," in log, (variant, log)


def test_the_cache_is_keyed_per_unit_by_config_and_code(tmp_path):
    """Each method and variant's units lie under their own key (provenance.unit_key: tests/test_experiment_provenance.py)."""
    keys = sweep_mod.unit_keys(TINY, ("nope", "rope"), ("pi",))
    assert keys == {(kind, name): provenance.unit_key(TINY, kind, name) for kind, name in keys}
    assert len(set(keys.values())) == 3
    assert sweep_mod.unit_keys(TINY.__class__(**{**TINY.to_dict(), "lr": 1e-3}), ("nope",), ())["train", "nope"] != keys["train", "nope"]
    key = keys["train", "rope"]
    assert sweep_mod.unit_path(tmp_path, TINY, key, "train", "rope", 3) == tmp_path / "tiny" / key / "rope-seed3.json"
    assert sweep_mod.unit_path(tmp_path, TINY, key, "extend", "rope", 3) == tmp_path / "tiny" / key / "extend-rope-seed3.json"
    assert sweep_mod.weights_path(tmp_path, TINY, key, 3) == tmp_path / "tiny" / key / "rope-seed3.pt"


def test_a_cache_entry_is_written_whole_or_not_at_all(tmp_path):
    path = tmp_path / "unit.json"

    def fails(f):
        f.write(b"{half")
        raise OSError("disk full")

    with pytest.raises(OSError):
        sweep_mod._write_atomically(path, fails)
    assert not path.exists()
    sweep_mod._write_atomically(path, lambda f: f.write(b"{}"))
    assert path.read_bytes() == b"{}"


def test_bad_sweeps_are_refused(tmp_path):
    for jobs in (0, True, 2.0):
        with pytest.raises(ValueError, match=f"^jobs must be a positive integer, got {re.escape(repr(jobs))}; use --jobs 2 on two cores$"):
            sweep(tmp_path, jobs=jobs)
    with pytest.raises(ValueError, match="^" + re.escape("the extension stage continues the RoPE model: include 'rope' in --methods, "
                                                         "or pass --extensions ''") + "$"):
        sweep(tmp_path, methods=("nope",))
    if not torch.cuda.is_available():  # the device asked for is the device set up, not quietly the CPU
        with pytest.raises(ValueError, match="--device cuda asked for CUDA"):
            sweep(tmp_path, device="cuda")
    assert not (tmp_path / TINY.preset).exists() or not any((tmp_path / TINY.preset).rglob("*.json"))


# --- worker processes (--jobs 2) -----------------------------------------------------------------------
# The workers are spawned: they import run afresh and load the committed corpus themselves (the tiny dataset
# patched in above does not reach them), so these sweeps run TINY on the real corpus, in one process for comparison.
PARALLEL = dict(seeds=(0,), methods=("nope", "learned"), variants=(), threads=1)  # the cheapest two units
TIMES = re.compile(r"\d+s\b")  # a unit's seconds differ between two sweeps, its numbers do not


def test_worker_processes_compute_what_one_process_computes(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sweep_mod, "_dataset", RUN_DATASET)
    lines = []
    one = sweep_mod.run(TINY, cache_dir=tmp_path / "one", out=tmp_path / "one.json", progress=False, log=lines.append, **PARALLEL)
    two = sweep_mod.run(TINY, jobs=2, cache_dir=tmp_path / "two", out=tmp_path / "two.json", progress=True, log=lines.append, **PARALLEL)
    assert numbers(two) == numbers(one)
    assert two["environment"]["jobs"] == 2 and two["environment"]["threads"] == 1
    # each unit's line, printed above the progress bar as its worker finishes it, is the line one process logs
    per_unit = lambda text: sorted(TIMES.sub("", l) for l in text if re.match(r"(extend )?\w+ seed \d+: ", l))  # noqa: E731
    out, err = capsys.readouterr()
    assert per_unit(out.splitlines()) == per_unit(lines) and len(per_unit(lines)) == 2
    steps = 2 * TINY.steps  # every step of every unit reached the bar from the workers
    assert f"{steps}/{steps}" in err.replace(" ", "")
    assert lines[-1] == f"wrote {tmp_path / 'two.json'}"


def test_a_unit_hands_its_device_and_progress_to_training_and_every_evaluation(monkeypatch, tmp_path):
    """run_unit and extend_unit pass the device they are given (here a torch.device, not the functions' default
    "cpu" string) to training, each evaluation and the extension, and report every step to on_step."""
    seen = []

    def spy(name, real):
        def wrapper(*args, **kw):
            seen.append((name, kw.get("device", next((a for a in args if isinstance(a, torch.device)), None))))
            return real(*args, **kw)
        monkeypatch.setattr(run, name, wrapper)

    for name in ("train", "in_distribution_loss", "position_losses", "extend"):
        spy(name, getattr(run, name))
    device, steps = torch.device("cpu"), []
    unit, state = run.run_unit(TINY, DS, "rope", 0, device, on_step=lambda step, loss: steps.append(step))
    assert {n for n, _ in seen} == {"train", "in_distribution_loss", "position_losses"}
    assert all(d is device for _, d in seen), seen
    assert sum(n == "position_losses" for n, _ in seen) == 1 + len(unit["rope_scaling"])  # plain, then each scaling
    assert len(steps) == TINY.steps
    seen.clear()
    steps.clear()
    run.extend_unit(TINY, DS, state, "pi", 0, device, on_step=lambda step, loss: steps.append(step))
    assert seen == [("extend", device)] and len(steps) == TINY.ext_steps


def test_an_extension_units_line_quotes_its_first_and_last_in_distribution_loss(monkeypatch, tmp_path):
    keys = {("train", "rope"): "r", ("extend", "pi"): "p"}
    sweep_mod.weights_path(tmp_path, TINY, "r", 0).parent.mkdir(parents=True)
    torch.save({}, sweep_mod.weights_path(tmp_path, TINY, "r", 0))
    fake = {"variant": "pi", "seed": 0, "in_distribution_curve": [1.0, 2.0, 3.0, 4.0], "seconds": 7.0}
    monkeypatch.setattr(sweep_mod, "extend_unit", lambda *a, **kw: dict(fake))
    assert sweep_mod.compute_unit(TINY, "extend", "pi", 0, tmp_path, keys, "cpu") == "extend pi seed 0: in-distribution 1.000 → 4.000, 7s"
    assert sweep_mod.unit_path(tmp_path, TINY, "p", "extend", "pi", 0).is_file()  # under the variant's own key


def test_a_sweep_shows_a_progress_bar_over_every_step_unless_told_not_to(tmp_path, capsys):
    lines = []
    sweep_mod.run(TINY, seeds=(0,), methods=("rope",), variants=("pi",), threads=torch.get_num_threads(), cache_dir=tmp_path,
            out=tmp_path / "r.json", log=lines.append)  # progress left at its default
    err = capsys.readouterr().err
    total = TINY.steps + TINY.ext_steps  # the training unit's steps and the extension's
    assert f"{total}/{total}" in err.replace(" ", "") and "step/s" in err, err[-300:]
    # the bar names the unit it is on: "rope seed 0", then "extend pi seed 0"
    assert "rope seed 0:" in err and "extend pi seed 0:" in err and "extend rope seed 0" not in err, err[-300:]
    # each redraw starts with that name (nothing before it) and ends with the latest loss, to three decimals
    assert re.search(r"(^|\r)rope seed 0:", err) and re.search(r"(^|\r)extend pi seed 0:", err), err[-300:]
    assert re.search(r"rope seed 0:.*, loss=\d\.\d{3}\]", err) and re.search(r"extend pi seed 0:.*, loss=\d\.\d{3}\]", err), err[-300:]


# --- the worker pool's handling, with a stand-in pool (no processes) -------------------------------------

class StandInPool:
    """Records how _run_parallel makes and stops its pool; a unit named "bogus" fails as a worker's error would."""

    made: list = []

    def __init__(self, jobs, mp_context=None, initializer=None, initargs=()):
        self.jobs, self.context, self.initializer, self.initargs = jobs, mp_context, initializer, initargs
        self.terminated, self.shutdowns, self.handler = [], [], None
        self._processes = {1: type("P", (), {"terminate": lambda p: self.terminated.append(1)})(),
                           2: type("P", (), {"terminate": lambda p: self.terminated.append(2)})()}
        StandInPool.made.append(self)

    def submit(self, fn, cfg, kind, name, seed, cache_dir, keys, device):
        self.handler = signal.getsignal(signal.SIGTERM)  # what SIGTERM does while the units run
        f = Future()
        if name == "bogus":
            f.set_exception(ValueError("unknown position method 'bogus'"))
        else:
            f.set_result(f"{name} seed {seed}: done")
        return f

    def shutdown(self, wait=True, cancel_futures=False):
        self.shutdowns.append((wait, cancel_futures))


@pytest.mark.parametrize("fails", [False, True])
def test_the_pool_is_spawned_with_the_jobs_asked_for_and_stopped_on_a_workers_error(monkeypatch, tmp_path, fails):
    StandInPool.made.clear()
    monkeypatch.setattr(sweep_mod, "ProcessPoolExecutor", StandInPool)
    before, said = signal.getsignal(signal.SIGTERM), []
    todo = [("train", "nope", 0), ("train", "bogus" if fails else "learned", 0)]
    if fails:
        with pytest.raises(ValueError, match="'bogus'"):
            sweep_mod._run_parallel(TINY, todo, 3, 1, "cpu", tmp_path, {}, None, said.append)
    else:
        sweep_mod._run_parallel(TINY, todo, 3, 1, "cpu", tmp_path, {}, None, said.append)
    pool, = StandInPool.made
    assert pool.jobs == 3 and pool.context.get_start_method() == "spawn"  # torch is not fork-safe once used
    assert pool.initializer is sweep_mod._worker_init and pool.initargs[:2] == (1, "cpu") and pool.initargs[3] == os.getpid()
    assert pool.handler is sweep_mod._interrupt  # SIGTERM stops the sweep like Ctrl-C while units run …
    assert signal.getsignal(signal.SIGTERM) is before  # … and is given back afterwards
    if fails:  # the workers are ended at once and the units not started are dropped
        assert sorted(pool.terminated) == [1, 2] and pool.shutdowns == [(False, True)]
    else:
        assert pool.terminated == [] and pool.shutdowns == [(True, False)]
        assert sorted(said) == ["learned seed 0: done", "nope seed 0: done"]


def test_a_worker_feeds_every_step_to_the_progress_queue_and_returns_its_units_line(tmp_path):
    steps = queue.SimpleQueue()
    sweep_mod._worker_init(1, "cpu", steps, os.getppid())  # here the test process is the worker; its parent stays
    key = "k"
    line = sweep_mod._worker(TINY, "train", "nope", 0, tmp_path, {("train", "nope"): key}, "cpu")
    assert line.startswith("nope seed 0: val loss") and torch.get_num_threads() == 1
    got = [steps.get_nowait() for _ in range(steps.qsize())]
    assert len(got) == TINY.steps and all(n == 1 and isinstance(loss, float) for n, loss in got)
    assert sweep_mod.unit_path(tmp_path, TINY, key, "train", "nope", 0).exists()


def test_a_termination_signal_stops_the_sweep_as_ctrl_c_does():
    with pytest.raises(KeyboardInterrupt, match="^stopped by signal 15; finished units stay cached, run again to resume$"):
        sweep_mod._interrupt(15, None)


def test_a_sweep_with_workers_asks_the_pool_for_its_jobs_and_writes_nothing_while_units_are_missing(monkeypatch, tmp_path):
    """run(jobs=3) makes a pool of three; units that no worker cached (the stand-in pool computes nothing) are
    reported missing and no results file is written."""
    StandInPool.made.clear()
    monkeypatch.setattr(sweep_mod, "ProcessPoolExecutor", StandInPool)
    lines = []
    assert sweep(tmp_path, out=tmp_path / "r.json", lines=lines, jobs=3) is None
    pool, = StandInPool.made
    assert pool.jobs == 3 and pool.initargs[1] == "cpu"
    assert lines[-1] == f"not writing results: {len(ALL_UNITS)} unit(s) still missing, e.g. {ALL_UNITS[:3]}"
    assert not (tmp_path / "r.json").exists()
    said = re.fullmatch(r"computed \d+ unit\(s\) in (\d+)s wall", lines[-2])
    assert said and int(said[1]) < 60, lines[-2]  # the sweep's own wall time


def test_a_pool_run_off_the_main_thread_leaves_the_signal_handlers_alone(monkeypatch, tmp_path):
    import threading

    monkeypatch.setattr(sweep_mod, "ProcessPoolExecutor", StandInPool)
    errors = []

    def work():
        try:
            sweep_mod._run_parallel(TINY, [("train", "nope", 0)], 1, 1, "cpu", tmp_path, {}, None, lambda line: None)
        except Exception as err:  # signal.signal raises ValueError off the main thread
            errors.append(err)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert errors == []


def test_results_go_to_the_presets_file_by_default_in_folders_made_as_needed(monkeypatch, tmp_path):
    monkeypatch.setattr(sweep_mod, "RESULTS_DIR", tmp_path / "results")  # results_path's folder, made by the run
    sweep_mod.run(TINY, seeds=(0,), methods=("nope",), variants=(), threads=torch.get_num_threads(), cache_dir=tmp_path / "c",
            progress=False, log=lambda *a: None)
    assert (tmp_path / "results" / f"{TINY.preset}.json").is_file()
    deep = tmp_path / "a" / "b" / "r.json"
    sweep_mod.run(TINY, seeds=(0,), methods=("nope",), variants=(), threads=torch.get_num_threads(), cache_dir=tmp_path / "c",
            out=deep, progress=False, log=lambda *a: None)
    assert deep.is_file()


def test_the_committed_replication_units_lie_under_their_units_keys():
    """posenc/experiment/results/replication-units/ holds each unit under its key for the full preset and this code: a key
    computed another way would not find those units and would start the replication over."""
    from posenc.experiment import frozen
    from posenc.experiment.config import PRESETS

    found = sorted(frozen.REPLICATION_UNITS.glob("full/*/*.json"))
    assert found
    encodings = provenance.encodings_sha256(PRESETS["full"])  # the same for every unit: computed once, as the sweep does
    keys = {}  # a unit's key does not depend on its seed: one per method or variant
    for path in found:
        kind, name = ("extend", path.name[len("extend-"):]) if path.name.startswith("extend-") else ("train", path.name)
        name = name.rsplit("-seed", 1)[0]
        if (kind, name) not in keys:
            keys[kind, name] = provenance.unit_key(PRESETS["full"], kind, name, encodings)
        assert path.parent.name == keys[kind, name], path


def test_a_worker_starts_a_daemon_watchdog_on_the_sweeps_pid_then_sets_up_its_threads_and_device(monkeypatch):
    # The watchdog (_exit_with_parent) ends a worker whose sweep was killed; as a daemon thread it never keeps a
    # finished worker alive. Its own behaviour is the next test's; here, that each worker starts it, as a daemon, with
    # the pid it is given, and then sets up torch with the sweep's thread count and device (setup refuses a bad device).
    import threading

    seen, started = [], threading.Event()
    monkeypatch.setattr(sweep_mod, "_exit_with_parent",
                        lambda parent: (seen.append((parent, threading.current_thread().daemon)), started.set()))
    sweep_mod._worker_init(1, "cpu", "the steps queue", 424242)
    assert started.wait(10) and seen == [(424242, True)]
    assert sweep_mod._STEPS == "the steps queue" and torch.get_num_threads() == 1
    with pytest.raises(ValueError, match="unsupported device 'meta'"):  # a device torch knows and the experiment does not
        sweep_mod._worker_init(1, "meta", "the steps queue", 424242)



def test_the_watchdog_polls_every_two_seconds_and_exits_1_once_its_parent_is_gone(monkeypatch):
    # The same behaviour as the next test's, in this process (mutation testing sees only what runs here): it sleeps
    # 2 s between looks, keeps going while the parent pid is the sweep's, and ends the process with status 1 once not.
    class Exited(Exception):
        pass

    parents, naps = iter([7, 7, 8]), []
    monkeypatch.setattr(sweep_mod.os, "getppid", lambda: next(parents))
    monkeypatch.setattr(sweep_mod.time, "sleep", naps.append)
    monkeypatch.setattr(sweep_mod.os, "_exit", lambda code: (_ for _ in ()).throw(Exited(code)))
    with pytest.raises(Exited) as exited:
        sweep_mod._exit_with_parent(7)
    assert exited.value.args == (1,) and naps == [2.0, 2.0, 2.0]

def _orphan(parent: int):
    """A spawned process's body: the watchdog on a pid that is not its parent's (as after the sweep was killed). It
    exits the process itself; a return or an exception would end here with another code."""
    try:
        sweep_mod._exit_with_parent(parent)
    except BaseException:  # noqa: BLE001  (any exception: the code says so)
        os._exit(3)
    os._exit(4)


def test_the_watchdog_ends_a_worker_whose_sweep_is_gone_with_status_1():
    import multiprocessing

    gone = 2**22 + 1  # a pid that is not this process's (pid_max is at most 2**22)
    proc = multiprocessing.get_context("spawn").Process(target=_orphan, args=(gone,))
    proc.start()
    proc.join(30)
    if proc.is_alive():
        proc.kill()
        proc.join()
        pytest.fail("the watchdog kept polling a pid that is not its parent's")
    assert proc.exitcode == 1, f"exit status {proc.exitcode} (3: the watchdog raised; 4: it returned)"


def test_a_results_files_times_add_up_its_units_to_a_tenth_of_a_second():
    # the tiny sweep's units take hundredths of a second, too short to show the sums and their rounding: made-up units
    trained = {"train_seconds": 12.34, "eval_seconds": 1.27, "cpu_seconds": 13.3, "started": 1000.0, "finished": 1014.1}
    extended = {"seconds": 3.33, "cpu_seconds": 3.4, "started": 1014.1, "finished": 1017.6}
    assert sweep_mod.times([trained, extended]) == {"compute_seconds": 16.9, "cpu_seconds": 16.7, "wall_seconds": 17.6}
    assert sweep_mod.times([dict(trained, cpu_seconds=0.12), dict(extended, cpu_seconds=0.13)])["cpu_seconds"] == 0.2  # 0.25 → 0.2, to even
    assert sweep_mod.times([trained, dict(extended, finished=1017.66)])["wall_seconds"] == 17.7


def test_a_units_cpu_time_is_its_process_time_to_a_tenth_of_a_second(tmp_path, monkeypatch):
    clock = iter([100.0, 102.46])  # process_time at the unit's start and end
    monkeypatch.setattr(sweep_mod.time, "process_time", lambda: next(clock))
    monkeypatch.setattr(sweep_mod, "_dataset", lambda cfg: DS)
    keys = sweep_mod.unit_keys(TINY, ["nope"], [])
    sweep_mod.compute_unit(TINY, "train", "nope", 0, tmp_path, keys, torch.device("cpu"))
    unit = json.loads(sweep_mod.unit_path(tmp_path, TINY, keys["train", "nope"], "train", "nope", 0).read_text())
    assert unit["cpu_seconds"] == 2.5


def test_the_results_file_keeps_non_ascii_characters_as_they_are(whole, tmp_path, monkeypatch):
    # The tiny file holds no character beyond ASCII, so a run whose command names a Chinese path stands in for one
    # that does: the file says 结果 (readable in a diff), not \u7ed3\u679c. Every unit is in the cache: no training.
    _, cache = whole
    monkeypatch.setattr(sweep_mod.provenance, "command_line", lambda: "python -m posenc.experiment run --out 结果.json")
    monkeypatch.setattr(sweep_mod, "_dataset", lambda cfg: DS)
    sweep(cache, out=tmp_path / "r.json")
    text = (tmp_path / "r.json").read_text(encoding="utf-8")
    assert "--out 结果.json" in text and "\\u" not in text



def test_a_training_units_times_are_its_clock_to_a_hundredth_of_a_second(monkeypatch):
    # run.py's own clock, stubbed (the tiny unit's evaluation can take under 5 ms, which rounds to 0): training from
    # the first reading to the second, evaluation from the second to the third.
    import types

    from posenc.experiment import run as run_mod

    readings = iter([10.0, 11.2345, 13.4567])
    monkeypatch.setattr(run_mod, "time", types.SimpleNamespace(perf_counter=lambda: next(readings)))
    unit, _ = run_mod.run_unit(TINY, DS, "nope", 0, torch.device("cpu"))
    assert (unit["train_seconds"], unit["eval_seconds"]) == (1.23, 2.22)
