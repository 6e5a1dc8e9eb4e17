"""The claims' helpers and words (posenc/experiment/claims.py, stats.py): each check breaks on each side of its
comparison, counts are counts, and a sentence's words agree with the interval it is judged by."""

from __future__ import annotations

import copy
import json
import re

import numpy as np
import pytest

from posenc.experiment import claims, provenance, stats


@pytest.fixture(scope="module")
def committed() -> dict:
    return json.loads(claims.RESULTS_FILE.read_text())


def sealed(tmp_path, results: dict):
    results["seal_sha256"] = provenance.seal(results)
    path = tmp_path / "fake.json"
    path.write_text(json.dumps(results))
    return path


# --- each check breaks on each side of its comparison -----------------------------------------------

SIDES = [(name, i, side) for name, c in claims.CLAIMS.items() for i, check in enumerate(c.checks)
         for side in ("a", "b") if getattr(check, side) != claims.ZERO]


def test_no_check_compares_a_quantity_with_itself():
    for name, c in claims.CLAIMS.items():
        for check in c.checks:
            assert check.a != check.b, f"{name}: {check}"
    with pytest.raises(ValueError, match="compares .* with itself"):
        claims.Check("more", ("in", "rope"), ("in", "rope"))


@pytest.mark.parametrize("name, index, side", SIDES, ids=lambda v: str(v))
def test_each_check_breaks_when_either_side_moves(name, index, side, monkeypatch):
    # Move one side of one comparison far against the sentence's direction (side a down, side b up): every
    # word then fails. A comparison of a quantity with itself would move both sides and still hold.
    claim = claims.CLAIMS[name]
    assert all(o.ok for o in claim.outcomes()), f"{name} must hold on the committed results for this test to mean anything"
    target = getattr(claim.checks[index], side)
    shift = -1e4 if side == "a" else 1e4  # nats or steps: beyond any margin
    real = claims._value

    def moved(s, path):
        value = real(s, path)
        return value + shift if s == target else value

    monkeypatch.setattr(claims, "_value", moved)
    outcomes = claim.outcomes()
    assert not outcomes[index].ok, f"{name}: {claim.checks[index]} still holds with its side {side} = {target} moved by {shift}"
    assert not claims.evaluate(name)[0]


# --- counts -----------------------------------------------------------------------------------------------


def _in_mean(unit) -> float:
    return float(np.mean(unit["position_loss"][:128]))


def _set_in(unit, target: float) -> None:
    delta = target - _in_mean(unit)
    unit["position_loss"][:128] = [v + delta for v in unit["position_loss"][:128]]


@pytest.mark.parametrize("stalled, holds", [("half", False), ("half+1", True)])
def test_most_seeds_means_more_than_half(committed, tmp_path, stalled, holds):
    # "多数种子" (most seeds): exactly half is not most.
    fake = copy.deepcopy(committed)
    n = len(fake["seeds"])
    k = n // 2 + (1 if stalled == "half+1" else 0)
    u = fake["data"]["unigram_loss"]
    for i, unit in enumerate(fake["runs"]["sinusoidal"]):
        _set_in(unit, u + 0.01 if i < k else u - 0.3)
    path = sealed(tmp_path, fake)
    assert len(claims.stalled_seeds("sinusoidal", path)) == k
    ok, detail = claims.evaluate("sin_stalls_on_most_seeds", path)
    assert ok is holds and f"> 0 on {k} of {n}" in detail
    assert stats.satisfies("most_seeds", stats.SeedRange.of([1.0, -1.0])) is False
    assert stats.satisfies("most_seeds", stats.SeedRange.of([1.0, 1.0, -1.0])) is True


def _set_curves(results: dict, variant: str, rows) -> None:
    target = [u["val_curve"][-1] for u in results["runs"]["rope"]]  # what pre-training reached, per seed
    for unit, t in zip(results["extension"][variant], target):
        unit["in_distribution_curve"] = [t + d for d in rows]


def test_recovery_is_the_first_measured_step_back_within_tolerance(committed, tmp_path):
    # Curve points every ext_curve_every steps from 0; above the target by more than RECOVERED at points 0–3,
    # within it from point 4 on: recovered at the step of point 4, not of point 3 (one point early).
    fake = copy.deepcopy(committed)
    steps = list(range(0, fake["config"]["ext_steps"] + 1, fake["config"]["ext_curve_every"]))
    far, near = 3 * claims.RECOVERED, claims.RECOVERED / 2
    _set_curves(fake, "abf", [far if i < 4 else near for i in range(len(steps))])
    # a jump back up at point 6 (Adam restarting) counts: recovered from point 7 on
    _set_curves(fake, "ntk", [far if i < 2 or i == 6 else 0.0 for i in range(len(steps))])
    # still above at the last point: never recovered, counted one interval past the end
    _set_curves(fake, "yarn", [far] * len(steps))
    path = sealed(tmp_path, fake)
    n = len(fake["seeds"])
    assert claims.steps_to_recover("abf", path=path) == [steps[4]] * n
    assert claims.steps_to_recover("ntk", path=path) == [steps[7]] * n
    assert claims.steps_to_recover("yarn", path=path) == [None] * n
    assert claims.recovery_steps("yarn", path=path) == [steps[-1] + fake["config"]["ext_curve_every"]] * n


def test_a_sentence_counts_the_seeds_from_the_results(committed):
    # Counted here from the raw file, not through claims.py.
    rope = [_in_mean(u) for u in committed["runs"]["rope"]]
    alibi = [_in_mean(u) for u in committed["runs"]["alibi"]]
    n, k = len(rope), sum(a > r for a, r in zip(alibi, rope))
    expected_zh = f"全部 {n} 个种子" if k == n else f"{n} 个种子里的 {k} 个"
    expected_en = f"all {n} seeds" if k == n else f"{k} of {n} seeds"
    assert expected_zh in claims.check("rope_a_little_below_alibi")
    assert expected_en in claims.check("rope_a_little_below_alibi", lang="en")
    assert "{" not in claims.check("top_three_close_rope_a_little_lowest") + claims.check("ext_pi_worst_in_new_range", lang="en")


def test_every_sentence_says_on_how_many_seeds():
    for name, c in claims.CLAIMS.items():
        for template in (c.text["zh"], c.text["en"], claims.template(name, "en")):  # the English as frozen and as printed
            fields = set(re.findall(r"\{(seeds\d*)\}", template))
            assert fields, f"{name}: the sentence does not say on how many seeds ({template!r})"
            assert "seeds" in fields or fields == {f"seeds{i}" for i in range(1, len(c.checks) + 1)}, (
                f"{name}: per-comparison counts must cover all {len(c.checks)} comparisons: {sorted(fields)}")


# --- a sentence's words agree with its intervals -------------------------------------------------------

# The words a sentence uses for each stats.WORDS entry (Chinese, English); a check's word must be on the page.
MARKERS = {
    "clearly": ("明显", "clearly"),
    "a_little": ("一点", "a little"),
    "slightly": ("略", "slightly"),
    "within": ("几乎不变", "barely changing"),
    "cannot_tell": ("分不出", "cannot be told apart"),
}
# Words that leave the sign open (or call the outcome chance): only for an interval that contains 0.
SIGN_OPEN = {
    "zh": ("分不出", "看不出", "分不清", "说不准", "运气", "谁更好"),
    "en": ("cannot tell", "cannot be told apart", "can't tell", "indistinguishable", "luck", "no clear difference", "no difference"),
}


@pytest.mark.parametrize("name", list(claims.CLAIMS))
def test_sentence_words_match_the_intervals(name):
    claim = claims.CLAIMS[name]
    outcomes = claim.outcomes()
    open_intervals = [o for o in outcomes if o.span.low <= 0 <= o.span.high]
    for lang, template in (("zh", claim.text["zh"]), ("en", claim.text["en"]), ("en", claims.template(name, "en"))):
        text = template.lower()
        said_open = sum(text.count(w) for w in SIGN_OPEN[lang])
        assert said_open <= len([o for o in open_intervals if o.check.word == "cannot_tell"]), (
            f"{name} ({lang}): calls a difference undecided, but only {len(open_intervals)} of its intervals contain 0: "
            + "; ".join(str(o) for o in outcomes))
        for o in outcomes:
            marker = MARKERS.get(o.check.word)
            if marker:
                assert marker[0 if lang == "zh" else 1] in text, f"{name} ({lang}): word {o.check.word!r} not said"
        # naming the margin ("不到「明显」的门槛", "short of the ‘clearly’ threshold") is not claiming it
        named = text.replace("「明显」", "").replace("clearly margin", "").replace("‘clearly’ threshold", "").replace("{clearly}", "")
        if MARKERS["clearly"][0 if lang == "zh" else 1] in named:
            assert any(o.check.word == "clearly" for o in outcomes), f"{name} ({lang}): says clearly without a clearly check"
    for o in outcomes:
        if not (o.span.low <= 0 <= o.span.high):
            assert o.check.word not in stats.SIGN_OPEN, f"{name}: {o} excludes 0 but is worded as undecided"


def test_words_are_conditions_on_the_whole_interval():
    e = stats.Estimate.of([0.02, 0.03, 0.025, 0.028])  # resolved, small
    assert stats.satisfies("a_little", e) and stats.satisfies("slightly", e) and stats.satisfies("more", e) is False
    assert not stats.satisfies("cannot_tell", e) and stats.satisfies("within", e)
    open_ = stats.Estimate.of([-0.01, 0.02, 0.0, 0.01])
    assert stats.satisfies("cannot_tell", open_) and stats.satisfies("within", open_)
    assert not stats.satisfies("a_little", open_) and not stats.satisfies("slightly", open_)
    big = stats.Estimate.of([0.3, 0.31, 0.29])
    assert stats.satisfies("clearly", big) and not stats.satisfies("a_little", big) and not stats.satisfies("within", big)
    with pytest.raises(ValueError, match="unknown word"):
        stats.satisfies("best", big)


def test_a_claim_has_a_sentence_in_each_course_language_and_in_no_other():
    real = claims.CLAIMS["nope_beats_unigram"]
    claims.check_languages({"x": real})
    with pytest.raises(ValueError, match=r"^claim 'x' \(posenc/experiment/claims.py\): no sentence in en: add it to its text$"):
        claims.check_languages({"x": claims.Claim({"zh": real.text["zh"]}, real.checks)})
    with pytest.raises(ValueError, match=r"claim 'x' .*: a sentence in fr, which is not a course language \(zh, en\)$"):
        claims.check_languages({"x": claims.Claim({**real.text, "fr": "…"}, real.checks)})


def test_a_results_file_other_than_the_sites_may_lack_a_method_and_says_so_when_one_is_read(tmp_path):
    # The replication was run before a method added later; its frozen claims never read that method. The site's own
    # results must hold every method (the pages name them all); another file fails only where a claim reads one.
    results = json.loads(claims.RESULTS_FILE.read_text())
    del results["runs"]["learned"]
    results["seal_sha256"] = provenance.seal(results)
    path = tmp_path / "without-learned.json"
    path.write_text(json.dumps(results))
    assert claims.in_distribution("rope", per_seed=True, path=path).shape == (len(results["seeds"]),)
    with pytest.raises(claims.ClaimFailed, match=f"{path} has no 'learned'"):
        claims.in_distribution("learned", path=path)
