"""posenc/experiment/verify.py's seal, completeness and self-consistency checks, and provenance.seal.

Each check is called on its own on an edited copy of the committed results file, so these tests say
whether a bad file is caught, whatever the code hash says (whether the file is up to date is
tests/test_experiment.py's provenance test).
"""

from __future__ import annotations

import copy
import json
import math

import pytest

from posenc.experiment import config, provenance, run, verify

PATH = "full.json"


@pytest.fixture(scope="module")
def committed() -> dict:
    return json.loads(run.results_path("full").read_text())


@pytest.fixture
def results(committed) -> dict:
    return copy.deepcopy(committed)


# --- the seal --------------------------------------------------------------------------------------


def test_seal_covers_everything_but_itself_in_any_key_order(committed):
    body = {k: v for k, v in committed.items() if k != "seal_sha256"}
    assert provenance.seal(committed) == provenance.seal(body) == committed["seal_sha256"]
    assert provenance.seal(dict(reversed(list(body.items())))) == committed["seal_sha256"]
    edited = copy.deepcopy(body)
    edited["runs"]["rope"][3]["position_loss"][200] += 1e-6
    assert provenance.seal(edited) != committed["seal_sha256"]
    assert provenance.seal({**body, "note": "added"}) != committed["seal_sha256"]


def test_the_committed_file_passes_the_seal_completeness_and_consistency_checks(results):
    verify.check_seal(results, PATH)
    verify.check_complete(results, PATH)
    verify.check_consistent(results, PATH)


@pytest.mark.parametrize("edit", [
    lambda r: r.pop("seal_sha256"),
    lambda r: r.update(seal_sha256=None),
    lambda r: r.update(seal_sha256=""),
    lambda r: r.update(seal_sha256=r["seal_sha256"].upper()),
    lambda r: r["runs"]["alibi"][0]["position_loss"].__setitem__(0, 1.0),
    lambda r: r["extension"]["pi"][2]["train_loss"].append(1.0),
    lambda r: r.update(note="a key the run did not write"),
    lambda r: r["environment"].update(device="cpu"),
], ids=["seal removed", "seal null", "seal empty", "seal upper-case", "number edited", "value appended", "key added",
        "environment edited"])
def test_any_change_after_the_run_breaks_the_seal(results, edit):
    edit(results)
    with pytest.raises(verify.StaleResults, match="do not match the file's seal_sha256"):
        verify.check_seal(results, PATH)


def test_verify_checks_the_seal_before_anything_else(results, tmp_path):
    results.pop("seal_sha256")
    path = tmp_path / "full.json"
    path.write_text(json.dumps(results))
    with pytest.raises(verify.StaleResults, match="seal_sha256"):
        verify.verify(path, rerun=False)


# --- completeness ----------------------------------------------------------------------------------

FULL = config.preset("full")


def _unit(r, where):
    kind, name, seed = where
    return r["runs" if kind == "train" else "extension"][name][seed]


ARRAYS = [  # (unit, field, length the full preset needs)
    (("train", "nope", 0), "train_loss", FULL.steps),
    (("train", "learned", 5), "val_curve", len(FULL.curve_steps())),
    (("train", "sinusoidal", 15), "position_loss", FULL.eval_len),
    (("train", "rope", 1), "rope_scaling.yarn", FULL.eval_len),
    (("extend", "abf", 0), "train_loss", FULL.ext_steps),
    (("extend", "ntk", 7), "in_distribution_curve", len(FULL.ext_curve_steps())),
    (("extend", "rope", 2), "position_loss_before", FULL.ext_eval_len),
    (("extend", "yarn", 15), "position_loss_after", FULL.ext_eval_len),
]


def _array(r, where, field):
    u = _unit(r, where)
    for part in field.split("."):
        u = u[part]
    return u


def _label(where, field):
    return f"{where[1]} seed {where[2]} {field}"


@pytest.mark.parametrize("where, field, n", ARRAYS, ids=[f"{w[1]}-{f}" for w, f, _ in ARRAYS])
def test_the_committed_arrays_have_the_lengths_the_preset_needs(committed, where, field, n):
    assert len(_array(committed, where, field)) == n


@pytest.mark.parametrize("where, field, n", ARRAYS, ids=[f"{w[1]}-{f}" for w, f, _ in ARRAYS])
@pytest.mark.parametrize("change, got", [
    (lambda a: a.append(a[-1]), lambda n: f"{n + 1} values"),
    (lambda a: a.pop(), lambda n: f"{n - 1} values"),
    (lambda a: a.__setitem__(len(a) // 2, math.nan), lambda n: f"{n} values"),
    (lambda a: a.__setitem__(0, math.inf), lambda n: f"{n} values"),
], ids=["one too many", "one too few", "nan", "inf"])
def test_every_array_must_have_exactly_its_length_all_finite(results, where, field, n, change, got):
    change(_array(results, where, field))
    with pytest.raises(verify.StaleResults, match=f"{_label(where, field)} has {got(n)} \\(want {n}, all finite\\)"):
        verify.check_complete(results, PATH)


@pytest.mark.parametrize("value", ["1.0", None, 3.5, {"0": 1.0}, [None] * 512, ["2.0"] * 512],
                         ids=["string", "null", "number", "object", "nulls", "strings"])
def test_an_array_of_the_wrong_type_is_refused_by_name(results, value):
    results["runs"]["alibi"][4]["position_loss"] = value
    with pytest.raises(verify.StaleResults, match="alibi seed 4 position_loss"):
        verify.check_complete(results, PATH)


def test_a_missing_field_is_refused(results):
    del results["runs"]["rope"][0]["rope_scaling"]["ntk"]
    with pytest.raises(verify.StaleResults, match="rope seed 0 rope_scaling.ntk has none"):
        verify.check_complete(results, PATH)


@pytest.mark.parametrize("value", [math.nan, math.inf, None, "3.1"])
def test_the_in_distribution_loss_must_be_a_finite_number(results, value):
    results["runs"]["learned"][2]["val_loss_128"] = value
    with pytest.raises(verify.StaleResults, match="learned seed 2 val_loss_128"):
        verify.check_complete(results, PATH)


@pytest.mark.parametrize("edit, message", [
    (lambda r: r["runs"]["rope"].pop(), "methods rope has seeds"),
    (lambda r: r["runs"]["rope"].append(copy.deepcopy(r["runs"]["rope"][0])), "methods rope has seeds"),
    (lambda r: r["extension"]["pi"].reverse(), "extensions pi has seeds"),
    (lambda r: r["runs"].pop("alibi"), "lessons need"),
    (lambda r: r["runs"].update(fire=r["runs"]["nope"]), "lessons need"),
    (lambda r: r.update(runs=dict(reversed(list(r["runs"].items())))), "lessons need"),
    (lambda r: r["extension"].pop("abf"), "lessons need"),
    (lambda r: r.update(extensions=r["extensions"][:-1]), "lessons need"),
    (lambda r: r.update(methods=r["methods"][1:]), "lessons need"),
    (lambda r: r.update(schema=1), "schema 1, this code writes"),
    (lambda r: r.update(preset="huge"), "preset 'huge' is not one of"),
], ids=["seed missing", "seed extra", "seeds out of order", "method missing", "method extra", "methods reordered",
        "variant missing", "extensions list short", "methods list short", "old schema", "unknown preset"])
def test_every_method_variant_and_seed_must_be_there(results, edit, message):
    edit(results)
    with pytest.raises(verify.StaleResults, match=message):
        verify.check_complete(results, PATH)


@pytest.mark.parametrize("seeds", [[0, 0], [], [0, 1.5], [0, "1"]], ids=["repeated", "none", "fraction", "string"])
def test_seeds_must_be_distinct_integers(results, seeds):
    results["seeds"] = seeds
    for units in (*results["runs"].values(), *results["extension"].values()):
        units[:] = [dict(units[0], seed=s) for s in seeds]
    with pytest.raises(verify.StaleResults, match="seeds"):
        verify.check_complete(results, PATH)


# --- self-consistency ------------------------------------------------------------------------------


@pytest.mark.parametrize("edit, message", [
    (lambda r: r["runs"]["nope"][3].update(val_loss_128=r["runs"]["nope"][3]["val_loss_128"] + 2e-4),
     "nope seed 3: learning curve ends at"),
    (lambda r: r["runs"]["nope"][3].update(val_loss_128=math.nan), "nope seed 3: learning curve ends at"),
    (lambda r: r["runs"]["rope"][5]["val_curve"].__setitem__(-1, math.nan), "rope seed 5: learning curve ends at"),
    (lambda r: r["extension"]["rope"][6]["in_distribution_curve"].__setitem__(0, math.nan),
     "extension of seed 6 does not start from that seed's RoPE model"),
    (lambda r: r["extension"]["rope"][6]["in_distribution_curve"].__setitem__(
        0, r["extension"]["rope"][6]["in_distribution_curve"][0] - 2e-4),
     "extension of seed 6 does not start from that seed's RoPE model"),
], ids=["curve off the per-position loss", "nan in-distribution", "nan curve end", "nan extension start",
        "extension off its base"])
def test_curves_and_extensions_must_agree_with_the_per_position_loss(results, edit, message):
    edit(results)
    with pytest.raises(verify.StaleResults, match=message):
        verify.check_consistent(results, PATH)


def test_consistency_allows_float_summation_order(results):
    u = results["runs"]["nope"][3]
    u["val_loss_128"] = u["val_curve"][-1] + 0.5 * verify.CONSISTENCY_TOLERANCE
    verify.check_consistent(results, PATH)
