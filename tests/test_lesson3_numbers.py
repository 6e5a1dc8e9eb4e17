"""Lesson 3: posenc.clock, the torch walk-through snippets, and the numbers the page quotes.

References are written independently of the code under test: the §3.5 formula
term by term with math.sin/math.cos, brute-force pairwise loops, and closed
forms derived on paper (Vaswani et al. 2017 §3.4–§3.5).
"""

from __future__ import annotations

import importlib.util
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

from posenc import clock
from posenc import examples as ex
from posenc import quantities as numbers
from posenc import sinusoidal as S
from expect import raises_exactly

ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = ROOT / "docs" / "snippets"


def pe_loop(p, d, base=10_000.0):
    """PE(p) written out from §3.5: sin on even dims, cos on odd dims, ω_i = base^(−2i/d)."""
    return np.array([(math.sin if j % 2 == 0 else math.cos)(p / base ** (2 * (j // 2) / d)) for j in range(d)])


# --- posenc.clock ---------------------------------------------------------------------------


@pytest.mark.parametrize("d, base", [(8, 10_000.0), (16, 10_000.0), (4, 7.0)])
def test_nearest_neighbour_matches_brute_force_over_all_pairs(d, base):
    n = 400
    pe = np.array([pe_loop(p, d, base) for p in range(n)])
    best = (None, math.inf)
    for a in range(n):
        dist = np.sqrt(((pe[a + 1 :] - pe[a]) ** 2).sum(axis=1))
        if dist.size and dist.min() < best[1]:
            best = (int(np.argmin(dist)) + 1, float(dist.min()))
    k, dist = clock.nearest_neighbour(n, d, base)
    assert dist == pytest.approx(best[1], abs=1e-9)
    # the same distance may occur at several k only by coincidence; check the reported k attains it
    assert np.linalg.norm(pe_loop(k, d, base) - pe_loop(0, d, base)) == pytest.approx(best[1], abs=1e-9)


@pytest.mark.parametrize("p, k", [(0, 1), (3, 1021), (100_000, 10), (77, 0), (500, -37), (37, -37)])
def test_shift_distance_is_the_distance_of_the_two_encodings(p, k):
    q = p + k
    assert q >= 0  # every case is a pair of real positions
    direct = np.linalg.norm(pe_loop(q, 16) - pe_loop(p, 16))
    assert clock.shift_distance(k, 16) == pytest.approx(direct, abs=1e-9)


def test_turns_within_counts_turns_hand_by_hand():
    length, d = 128, 16
    expected = [length * (10_000.0 ** (-2 * i / d)) / (2 * math.pi) for i in range(d // 2)]
    np.testing.assert_allclose(clock.turns_within(length, d), expected, rtol=1e-12)
    # after exactly one period of pair i, that pair's (sin, cos) is back where it started
    lam = 2 * math.pi * 10_000.0 ** (2 * 1 / d)
    assert clock.turns_within(int(round(lam)), d)[1] == pytest.approx(round(lam) / lam)


def test_position_scores_with_identity_are_the_dot_products_and_shift_invariant():
    d, n = 16, 6
    eye = np.eye(d)
    scores = clock.position_scores(np.arange(n), eye, eye)
    loop = np.array([[pe_loop(a, d) @ pe_loop(b, d) for b in range(n)] for a in range(n)])
    np.testing.assert_allclose(scores, loop, atol=1e-12)
    np.testing.assert_allclose(clock.position_scores(np.arange(n) + 1000, eye, eye), loop, atol=1e-9)


def test_projection_that_commutes_with_the_rotation_keeps_shift_invariance():
    # W_qᵀ W_k made of 2×2 blocks [[a, b], [−b, a]] commutes with every M_s (a scaled rotation per pair)
    d, n = 8, 5
    rng = np.random.default_rng(1)
    blocks = np.zeros((d, d))
    for i in range(0, d, 2):
        a, b = rng.normal(size=2)
        blocks[i : i + 2, i : i + 2] = [[a, b], [-b, a]]
    w_q, w_k = np.eye(d), blocks
    before = clock.position_scores(np.arange(n), w_q, w_k)
    after = clock.position_scores(np.arange(n) + 321, w_q, w_k)
    np.testing.assert_allclose(before, after, atol=1e-9)


def test_random_projections_are_independent_n_0_1_over_d():
    # entries N(0, 1/d): with n = d² draws per matrix the sample mean has standard error σ/√n and the
    # sample std σ/√(2n); allow six standard errors (a false alarm once in 10⁸ seeds). d = 256 makes
    # that 2 % of σ, so a wrong scale (1/d, 1, √(2/d)) or a shared matrix fails.
    d = 256
    sigma, n = 1 / math.sqrt(d), d * d
    for seed in (0, 3):
        w_q, w_k = clock.random_projections(d, seed=seed)
        assert w_q.shape == w_k.shape == (d, d)
        for w in (w_q, w_k):
            assert abs(w.mean()) < 6 * sigma / math.sqrt(n)
            assert abs(w.std() - sigma) < 6 * sigma / math.sqrt(2 * n)
        assert abs(np.corrcoef(w_q.ravel(), w_k.ravel())[0, 1]) < 6 / math.sqrt(n)
    a, b = clock.random_projections(8, seed=5), clock.random_projections(8, seed=5)
    assert np.array_equal(a[0], b[0]) and not np.array_equal(a[0], clock.random_projections(8, seed=6)[0])


def test_random_projections_break_shift_invariance():
    d, n = 16, 6
    w_q, w_k = clock.random_projections(d, seed=3)
    before = clock.position_scores(np.arange(n), w_q, w_k)
    after = clock.position_scores(np.arange(n) + 10, w_q, w_k)
    loop = np.array([[(w_q @ pe_loop(a, d)) @ (w_k @ pe_loop(b, d)) for b in range(n)] for a in range(n)])
    np.testing.assert_allclose(before, loop, atol=1e-12)
    assert np.abs(before - after).max() > 0.1


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: clock.nearest_neighbour(1, 16), ["n", "at least 2"]),
        (lambda: clock.nearest_neighbour(10.0, 16), ["n", "integer"]),
        (lambda: clock.nearest_neighbour(10, 15), ["d", "even"]),
        (lambda: clock.turns_within(0, 16), ["length", "positive"]),
        (lambda: clock.shift_distance(0.5, 16), ["k", "integer"]),
        (lambda: clock.random_projections(16, seed=1.5), ["seed", "integer"]),
        (lambda: clock.position_scores(range(3), np.eye(4), np.eye(6)), ["w_q", "w_k", "same shape"]),
    ],
)
def test_bad_input_raises_a_message_naming_the_argument(call, words):
    with pytest.raises(ValueError) as err:
        call()
    for w in words:
        assert w in str(err.value)


# --- the torch walk-through snippets ----------------------------------------------------------


def _load_snippet(name):
    spec = importlib.util.spec_from_file_location(name, SNIPPETS / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # the printing part sits under __main__ and does not run here
    return mod


def _run_snippet(name):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, str(SNIPPETS / f"{name}.py")], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("max_len, d", [(10, 8), (200, 16), (ex.WALKTHROUGH_MAX_LEN, ex.WALKTHROUGH_DIM)])
def test_snippet_torch_table_equals_posenc_table(max_len, d):
    mod = _load_snippet("lesson3_table")
    t = mod.sinusoidal_table(max_len, d).double().numpy()
    # float32: the angle p·ω is rounded to about p·6e-8 radians, so allow that much (p < 5,000 → < 1e-3)
    np.testing.assert_allclose(t, S.table(max_len, d), atol=1e-3)
    m = min(max_len, 50)
    np.testing.assert_allclose(t[:m], S.table(m, d), atol=1e-5)
    np.testing.assert_allclose(t[7], pe_loop(7, d), atol=1e-6)


def test_cat_fish_snippet_shows_same_rows_without_positions_and_different_with():
    lines = _run_snippet("lesson3_cat_fish").strip().splitlines()
    assert len(lines) == 2
    no_pos, with_pos = lines
    assert "差值: 0.0 " in no_pos and no_pos.endswith("True")
    diff = float(with_pos.split("差值:")[1].split("|")[0])
    assert diff > 0.1 and with_pos.endswith("False")


def test_bounded_snippet_reports_the_tables_true_extremes_and_length():
    out = _run_snippet("lesson3_bounded").splitlines()
    d = ex.WALKTHROUGH_DIM
    assert len(out) == 3
    for line, max_len in zip(out[:2], (10, ex.WALKTHROUGH_MAX_LEN)):
        assert f"{max_len:,}" in line
        ref = np.array([pe_loop(p, d) for p in range(max_len)])
        # printed to 4 decimals from a float32 table: angles p·ω carry up to 2·2⁻²⁴·p of rounding
        tol = 5e-5 + 2 * 2.0**-24 * max_len
        lo = float(line.split("最小值")[1].split()[0])
        hi = float(line.split("最大值")[1].split()[0])
        assert abs(lo - ref.min()) <= tol and abs(hi - ref.max()) <= tol, line
        shortest, longest = (float(x) for x in line.split("向量长度")[1].split("~"))
        # every PE(p) has length √(d/2): sin² + cos² = 1 in each of the d/2 pairs
        assert shortest == longest == pytest.approx(math.sqrt(d / 2), abs=5e-5)
    assert f"{math.sqrt(d / 2):.4f}" in out[-1]


# --- numbers the page quotes, against independent references ---------------------------------


def v(name):
    return numbers.value(name)


def test_lookup_marks_follow_the_gpt2_config_file():
    raw = yaml.safe_load((ROOT / "posenc" / "data" / "models.yaml").read_text(encoding="utf-8"))
    rows = raw["gpt2"]["fields"]["context"]["value"]
    for name, p in [("first", 0), ("second", 1), ("last", rows - 1), ("context", rows), ("far", ex.FAR_POSITION)]:
        assert v(f"lookup_mark_{name}").startswith("✓" if p < rows else "✗"), name


def test_nearest_pair_in_the_far_range_is_adjacent_positions():
    # brute force on a range that fits in memory; the closed form covers the rest
    n = 2_000
    pe = S.table(n, ex.SIN_DIM)
    sq = (pe**2).sum(1)
    dist2 = sq[:, None] + sq[None, :] - 2 * pe @ pe.T
    np.fill_diagonal(dist2, np.inf)
    a, b = np.unravel_index(np.argmin(dist2), dist2.shape)
    assert abs(a - b) == v("sin_nearest_k") == 1
    assert math.sqrt(dist2[a, b]) == pytest.approx(v("sin_nearest_distance"), abs=1e-9)
    assert v("sin_nearest_distance") == pytest.approx(np.linalg.norm(pe_loop(1, 16) - pe_loop(0, 16)))


def test_dot_curve_numbers_match_a_direct_loop():
    dots = [pe_loop(50, 16) @ pe_loop(50 + k, 16) for k in range(ex.MAX_DISTANCE + 1)]
    first_rise = next(k for k in range(len(dots) - 1) if dots[k + 1] > dots[k])
    assert v("sin_dot_first_rise_k") == first_rise
    assert v("sin_dot_at_first_rise") == pytest.approx(dots[first_rise], abs=1e-9)
    assert v("sin_dot_after_first_rise") > v("sin_dot_at_first_rise")
    assert v("sin_dot_min_k") == int(np.argmin(dots))
    assert v("sin_dot_k1") == pytest.approx(dots[1], abs=1e-9)


def test_exercise_dot_product_matches_the_two_vectors():
    far = yaml.safe_load((ROOT / "posenc" / "data" / "models.yaml").read_text(encoding="utf-8"))["gpt2"]["fields"]["context"]["value"]
    direct = pe_loop(ex.NEAR_POSITION, 16) @ pe_loop(far, 16)
    assert v("ex_dot_k") == far - ex.NEAR_POSITION
    assert v("ex_dot_value") == pytest.approx(direct, abs=1e-9)
    # every sinusoidal vector has squared length d/2 (one sin² + cos² per pair), so cos θ = dot / (d/2)
    assert v("ex_dot_angle") == pytest.approx(math.degrees(math.acos(direct / 8)), abs=1e-9)
    assert 90 < v("ex_dot_angle") < 110  # the lesson: slightly more than a right angle, far from opposite


def test_init_scale_numbers_follow_from_the_definitions():
    rms = 1 / math.sqrt(2)
    assert v("ex_paper_scaled_ratio") == pytest.approx(ex.PROJECT_EMBED_STD * math.sqrt(S.PAPER_DIM) / rms)
    assert v("sin_paper_slowest_shortfall") == pytest.approx(1 - 10_000 ** (-2 / S.PAPER_DIM))


def test_clock_numbers():
    assert v("sin_fastest_step_deg") == pytest.approx(180 / math.pi)
    assert v("sin_pe_norm") == pytest.approx(math.sqrt(ex.SIN_DIM / 2))
    lams = [2 * math.pi * 10_000 ** (2 * i / ex.PROJECT_D_MODEL) for i in range(ex.PROJECT_D_MODEL // 2)]
    full = sum(1 for lam in lams if lam <= ex.PROJECT_TRAIN_LEN)
    assert v("project_sin_pairs_total") == len(lams)
    assert v("project_sin_pairs_not_turning") == len(lams) - full
    assert v("project_sin_slowest_turn") == pytest.approx(ex.PROJECT_TRAIN_LEN / lams[-1])


def test_rotation_block_numbers_turn_pair_zero_forward():
    theta = ex.SHIFT * 1.0  # ω_0 = 1
    c, s = v("sin_block_cos"), v("sin_block_sin")
    p = 12
    x = np.array([math.sin(p), math.cos(p)])
    turned = np.array([[c, s], [-s, c]]) @ x
    np.testing.assert_allclose(turned, [math.sin(p + theta), math.cos(p + theta)], atol=1e-12)


def test_relative_example_gap_survives_a_shift():
    assert v("rel_b_pos") - v("rel_a_pos") == v("rel_b_pos_shifted") - v("rel_a_pos_shifted") == v("rel_gap")
    assert ex.SENTENCE[v("rel_a_pos") : v("rel_a_pos") + 2] == "小明"
    assert ex.SENTENCE[v("rel_b_pos") : v("rel_b_pos") + 2] == "小王"


def test_projection_breaks_what_the_bare_dot_product_keeps():
    assert v("sin_shift_max_diff") < 1e-9
    assert v("sin_pos_score_shift_change") > 0.1 * v("sin_pos_score_max_abs")


# --- posenc.clock: exact messages and edges ---------------------------------------------------------------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: clock.nearest_neighbour(1, 16), "n must be an integer of at least 2 (a nearest pair needs two positions), got 1; pass e.g. n=1024"),
        (lambda: clock.nearest_neighbour(10.0, 16), "n must be an integer of at least 2 (a nearest pair needs two positions), got 10.0; pass e.g. n=1024"),
        (lambda: clock.nearest_neighbour(True, 16), "n must be an integer of at least 2 (a nearest pair needs two positions), got True; pass e.g. n=1024"),
        (lambda: clock.turns_within(0, 16), "length must be a positive integer number of tokens, got 0; pass e.g. length=128"),
        (lambda: clock.turns_within(128.0, 16), "length must be a positive integer number of tokens, got 128.0; pass e.g. length=128"),
        (lambda: clock.turns_within(True, 16), "length must be a positive integer number of tokens, got True; pass e.g. length=128"),
        (lambda: clock.shift_distance(0.5, 16), "k must be an integer distance between positions, got 0.5"),
        (lambda: clock.random_projections(16, seed=1.5), "seed must be an integer, got 1.5; pass e.g. seed=0"),
        (lambda: clock.random_projections(16, seed=True), "seed must be an integer, got True; pass e.g. seed=0"),
        (lambda: clock.random_projections(15, 0), "d must be a positive even integer (dimensions come in sin/cos pairs), got 15; use 16 or another even number"),
        (lambda: clock.position_scores(range(3), np.eye(4), np.eye(6)),
         "w_q and w_k must be square matrices of the same shape, got (4, 4) and (6, 6); build them with random_projections(d)"),
        (lambda: clock.position_scores(range(3), np.ones((4, 2)), np.ones((4, 2))),
         "w_q and w_k must be square matrices of the same shape, got (4, 2) and (4, 2); build them with random_projections(d)"),
        (lambda: clock.position_scores(range(3), np.ones(4), np.ones(4)),
         "w_q and w_k must be square matrices of the same shape, got (4,) and (4,); build them with random_projections(d)"),
    ],
)
def test_clock_bad_input_messages(call, message):
    with raises_exactly(message):
        call()


def test_clock_edges():
    assert clock.shift_distance(0, 16) == 0.0  # rounding below zero is clamped, not a NaN
    assert clock.shift_distance(5, 4, base=3.0) == pytest.approx(np.linalg.norm(pe_loop(5, 4, 3.0) - pe_loop(0, 4, 3.0)), abs=1e-12)
    k, dist = clock.nearest_neighbour(2, 16)
    assert (k, type(k)) == (1, int) and dist == pytest.approx(np.linalg.norm(pe_loop(1, 16) - pe_loop(0, 16)), abs=1e-12)
    # d = 2: a single pair at ω = 1, so the closest positions are 44 apart (44 − 7·2π ≈ 0.018 rad)
    k, dist = clock.nearest_neighbour(50, 2)
    assert k == 44 and dist == pytest.approx(2 * abs(math.sin(44 / 2)), abs=1e-12)
    assert clock.turns_within(np.int64(2), 2).tolist() == pytest.approx([2 / (2 * math.pi)], rel=1e-15)
    assert clock.turns_within(1, 2).tolist() == pytest.approx([1 / (2 * math.pi)], rel=1e-15)  # one token is a window
    np.testing.assert_allclose(clock.turns_within(100, 4, base=4.0), [100 / (2 * math.pi), 100 / (4 * math.pi)], rtol=1e-15)
    np.testing.assert_array_equal(clock.random_projections(4, np.int64(2))[1], clock.random_projections(4, 2)[1])
    s = clock.position_scores([0, 3], np.eye(4), np.eye(4), base=9.0)
    assert s[0, 1] == pytest.approx(pe_loop(0, 4, 9.0) @ pe_loop(3, 4, 9.0), abs=1e-12)
