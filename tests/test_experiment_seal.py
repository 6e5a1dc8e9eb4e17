"""posenc/experiment/verify.py's seal, completeness and self-consistency checks, and provenance.seal.

Each check is called on its own on an edited copy of the committed results file, so these tests say
whether a bad file is caught, whatever the code hash says (whether the file is up to date is
tests/test_experiment.py's provenance test).
"""

from __future__ import annotations

import copy
import json
import math
import re

import pytest

from posenc.experiment import config, provenance, sweep, verify

PATH = "full.json"


@pytest.fixture(scope="module")
def committed() -> dict:
    return json.loads(sweep.results_path("full").read_text())


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


# --- what a refusal says ---------------------------------------------------------------------------


def _rerun(results) -> str:
    """The command that remakes ``results``: its own preset and seed count."""
    return f"re-run `python -m posenc.experiment run --preset {results['preset']} --seeds {len(results['seeds'])}`"


@pytest.mark.parametrize("check, edit", [
    ("complete", lambda r: r.update(schema=1)),
    ("complete", lambda r: r.update(methods=r["methods"][1:])),
    ("complete", lambda r: r["runs"]["rope"].pop()),
    ("complete", lambda r: r["runs"]["alibi"][0]["position_loss"].pop()),
    ("complete", lambda r: r["runs"]["alibi"][0].update(val_loss_128=None)),
    ("complete", lambda r: r["extension"]["pi"][2]["train_loss"].pop()),
    ("consistent", lambda r: r["runs"]["nope"][3].update(val_loss_128=r["runs"]["nope"][3]["val_loss_128"] + 1)),
    ("consistent", lambda r: r["extension"]["rope"][6]["in_distribution_curve"].__setitem__(0, 9.0)),
], ids=["schema", "methods", "a seed's unit", "method array", "method scalar", "extension array", "curve", "extension start"])
def test_every_refusal_names_the_file_and_the_run_that_remakes_it(results, check, edit):
    fix = _rerun(results)
    edit(results)
    with pytest.raises(verify.StaleResults) as err:
        getattr(verify, f"check_{check}")(results, PATH)
    assert str(err.value).startswith(f"{PATH}: ") and str(err.value).endswith(f"; {fix}"), str(err.value)


@pytest.mark.parametrize("key", ["extensions", "extension"])
def test_a_file_without_the_extension_study_is_refused_not_a_crash(results, key):
    del results[key]
    with pytest.raises(verify.StaleResults, match="lessons need"):
        verify.check_complete(results, PATH)


def test_a_short_extension_list_is_quoted(results):
    results["extensions"] = results["extensions"][:-1]
    with pytest.raises(verify.StaleResults, match=re.escape(f"extensions {results['extensions']}, but lessons need")):
        verify.check_complete(results, PATH)


@pytest.mark.parametrize("value, said", [("1.0", "a str, not a list of"), ({"0": 1.0}, "a dict, not a list of")])
def test_a_wrong_type_is_named(results, value, said):
    results["runs"]["alibi"][4]["position_loss"] = value
    with pytest.raises(verify.StaleResults, match=f"position_loss has {said} values"):
        verify.check_complete(results, PATH)


def test_a_nested_field_under_a_list_is_missing_not_a_crash(results):
    results["runs"]["rope"][0]["rope_scaling"] = [1.0, 2.0]
    with pytest.raises(verify.StaleResults, match=r"rope seed 0 rope_scaling\.\w+ has none"):
        verify.check_complete(results, PATH)


@pytest.mark.parametrize("value", ["3.1", math.nan])
def test_a_bad_scalar_is_quoted(results, value):
    results["runs"]["learned"][2]["val_loss_128"] = value
    with pytest.raises(verify.StaleResults, match=re.escape(f"val_loss_128 is {value!r}, not a finite number")):
        verify.check_complete(results, PATH)


def test_a_consistency_refusal_quotes_both_numbers(results):
    u = results["runs"]["nope"][3]
    u["val_loss_128"] += 1
    with pytest.raises(verify.StaleResults, match=re.escape(f"ends at {u['val_curve'][-1]:.6f} but the in-distribution "
                                                            f"loss is {u['val_loss_128']:.6f}")):
        verify.check_consistent(results, PATH)
    results = copy.deepcopy(results)
    results["runs"]["nope"][3]["val_loss_128"] -= 1
    e = results["extension"]["rope"][6]
    e["in_distribution_curve"][0] = 9.0
    base = next(u for u in results["runs"]["rope"] if u["seed"] == e["seed"])["val_curve"][-1]
    with pytest.raises(verify.StaleResults, match=re.escape(f"(in-distribution 9.000000 vs {base:.6f})")):
        verify.check_consistent(results, PATH)


def test_verify_reads_the_full_results_by_default_and_names_the_file_it_refuses(results, tmp_path, monkeypatch):
    monkeypatch.setattr(verify, "results_path", lambda preset: {"full": tmp_path / "absent.json"}[preset])
    with pytest.raises(verify.StaleResults, match="absent.json does not exist"):
        verify.verify(rerun=False)
    results["runs"]["alibi"][0]["position_loss"].pop()
    results["seal_sha256"] = provenance.seal(results)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(results))
    with pytest.raises(verify.StaleResults) as err:
        verify.verify(path, rerun=False)
    assert str(err.value).startswith(f"{path}: "), str(err.value)
