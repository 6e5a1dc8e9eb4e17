"""Lesson 4: the shift experiment (posenc.shift) and the numbers the page quotes.

References are written here from the papers, independently of posenc: the
sinusoid from Vaswani et al. 2017 §3.5 written out with pos / 10000^(2i/d), RoPE as
RoFormer §3's block-diagonal R^d_{Θ,m} built with loops, the single-pair score from
polar coordinates, and transformers' Llama weight converter's ``permute`` formula.
Expected counts come from facts.md §2 (checked there with plain Python).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import attention, configs, rope, shift, tokenize
from posenc import examples as ex
from posenc import quantities as numbers
from posenc.sinusoidal import DEFAULT_BASE

FAST = settings(max_examples=25, deadline=None)


# --- independent references -----------------------------------------------------------------------------------


def vaswani_pe(pos: int, d: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """§3.5: PE(pos, 2i) = sin(pos / base^(2i/d)), PE(pos, 2i+1) = cos(pos / base^(2i/d))."""
    out = np.zeros(d)
    for i in range(d // 2):
        out[2 * i] = math.sin(pos / base ** (2 * i / d))
        out[2 * i + 1] = math.cos(pos / base ** (2 * i / d))
    return out


def roformer_R(m: int, d: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """RoFormer §3: block-diagonal R^d_{Θ,m}, θ_i = base^(−2(i−1)/d), i = 1 … d/2, blocks [[cos, −sin], [sin, cos]]."""
    R = np.zeros((d, d))
    for i in range(1, d // 2 + 1):
        a = m * base ** (-2 * (i - 1) / d)
        j = 2 * (i - 1)
        R[j, j], R[j, j + 1], R[j + 1, j], R[j + 1, j + 1] = math.cos(a), -math.sin(a), math.sin(a), math.cos(a)
    return R


def reference_scores(text: str, start: int, method: str, d: int = ex.L4_DIM, seed: int = ex.L4_SEED) -> np.ndarray:
    """S[a, b] = q_a·k_b/√d, one token at a time, with the references above (rows = tokens, q = x W_q)."""
    head = attention.make_head(d, seed)
    e = attention.token_vectors(tokenize.token_ids(text), d, seed)
    qs, ks = [], []
    for t, row in enumerate(e):
        p = start + t
        if method == "input":
            x = row + vaswani_pe(p, d)
            qs.append(x @ head.w_q)
            ks.append(x @ head.w_k)
        elif method == "qk":
            qs.append(row @ head.w_q + vaswani_pe(p, d))
            ks.append(row @ head.w_k + vaswani_pe(p, d))
        else:
            qs.append(roformer_R(p, d) @ (row @ head.w_q))
            ks.append(roformer_R(p, d) @ (row @ head.w_k))
    return np.array([[q @ k / math.sqrt(d) for k in ks] for q in qs])


def hf_llama_permute(w: torch.Tensor, n_heads: int, dim1: int, dim2: int) -> torch.Tensor:
    """transformers' convert_llama_weights_to_hf.py "permute for sliced rotary" (applied to q_proj/k_proj)."""
    return w.view(n_heads, dim1 // n_heads // 2, 2, dim2).transpose(1, 2).reshape(dim1, dim2)


# --- the shift experiment --------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", shift.METHODS)
@pytest.mark.parametrize("start", [0, ex.SHIFT, 12_345])
def test_scores_match_the_papers_formulas(method, start):
    np.testing.assert_allclose(shift.scores(ex.SENTENCE, start, method, ex.L4_DIM, ex.L4_SEED), reference_scores(ex.SENTENCE, start, method), atol=1e-10)


def test_shifting_the_sentence_moves_added_scores_but_not_rope_scores():
    # the page's claim, against the references: added positions change the scores, RoPE's do not
    before = {m: reference_scores(ex.SENTENCE, 0, m) for m in shift.METHODS}
    after = {m: reference_scores(ex.SENTENCE, ex.SHIFT, m) for m in shift.METHODS}
    for m in ("input", "qk"):
        change = np.abs(after[m] - before[m]).max()
        assert change > 0.1 * np.abs(before[m]).max(), m
        assert shift.shift_change(ex.SENTENCE, ex.SHIFT, m, ex.L4_DIM, ex.L4_SEED) == pytest.approx(change, abs=1e-10)
    assert np.abs(after["rope"] - before["rope"]).max() < 1e-12
    assert shift.shift_change(ex.SENTENCE, ex.SHIFT, "rope", ex.L4_DIM, ex.L4_SEED) < 1e-12


@given(
    text=st.sampled_from(["小明打了小王", "猫吃鱼", "鱼吃猫了吗"]),
    s=st.integers(0, 50_000),
    seed=st.integers(0, 2**16),
    d=st.sampled_from([2, 8, 16, 32]),
)
@FAST
def test_rope_scores_depend_only_on_the_offset(text, s, seed, d):
    shifted = shift.scores(text, s, "rope", d=d, seed=seed)
    np.testing.assert_allclose(shifted, shift.scores(text, 0, "rope", d=d, seed=seed), atol=1e-9)
    # RoFormer §3: q_mᵀ k_n = aᵀ R_{n−m} b with a, b the projected (unrotated) query and key
    head, e = shift.head_and_tokens(text, d, seed)
    a, b = 0, len(e) - 1
    want = (e[a] @ head.w_q) @ roformer_R(b - a, d) @ (e[b] @ head.w_k) / math.sqrt(d)
    assert shifted[a, b] == pytest.approx(want, abs=1e-9)


# --- one pair ---------------------------------------------------------------------------------------------------


@given(m=st.integers(0, 10_000), n=st.integers(0, 10_000), s=st.integers(0, 10_000), pair=st.integers(0, ex.SIN_DIM // 2 - 1))
@FAST
def test_pair_score_is_the_polar_formula(m, n, s, pair):
    q, k = np.array(ex.PAIR_Q), np.array(ex.PAIR_K)
    w = DEFAULT_BASE ** (-2 * pair / ex.SIN_DIM)
    polar = math.hypot(*q) * math.hypot(*k) * math.cos(math.atan2(k[1], k[0]) - math.atan2(q[1], q[0]) + (n - m) * w)
    rope_score, added = shift.pair_scores(q, k, m, n, shift.pair_omega(pair, ex.L4_DIM))
    assert rope_score == pytest.approx(polar, abs=1e-9)
    pe = lambda p: np.array([math.sin(p * w), math.cos(p * w)])  # noqa: E731  (lesson 3's pair i)
    assert added == pytest.approx((q + pe(m)) @ (k + pe(n)), abs=1e-9)
    assert shift.pair_scores(q, k, m + s, n + s, shift.pair_omega(pair, ex.L4_DIM))[0] == pytest.approx(rope_score, abs=1e-8)


def test_the_pages_pair_example():
    # widget defaults: q = (1, 0.4), k = (0.6, 0.9), m = 3, n = 7, pair 0 of d = 16 → ω = 1
    q, k, w = np.array([1.0, 0.4]), np.array([0.6, 0.9]), 1.0
    polar = math.hypot(*q) * math.hypot(*k) * math.cos(math.atan2(0.9, 0.6) - math.atan2(0.4, 1.0) + 4 * w)
    assert numbers.value("l4_pair_rope") == pytest.approx(polar, abs=1e-12)
    assert numbers.value("l4_pair_rope_shifted") == pytest.approx(polar, abs=1e-12)
    added = (q + [math.sin(3), math.cos(3)]) @ (k + [math.sin(7), math.cos(7)])
    added_shifted = (q + [math.sin(13), math.cos(13)]) @ (k + [math.sin(17), math.cos(17)])
    assert numbers.value("l4_pair_added") == pytest.approx(added, abs=1e-12)
    assert numbers.value("l4_pair_added_shifted") == pytest.approx(added_shifted, abs=1e-12)
    assert abs(added - added_shifted) > 0.1


# --- the two layouts --------------------------------------------------------------------------------------------


def test_convention_scores_agree_only_with_the_permuted_weights():
    a, b = shift.convention_scores(ex.SENTENCE, start=7, d=ex.L4_DIM, seed=ex.L4_SEED)
    np.testing.assert_allclose(a, b, atol=1e-12)
    a, b = shift.convention_scores(ex.SENTENCE, start=7, d=ex.L4_DIM, seed=ex.L4_SEED, permute_weights=False)
    assert np.abs(a - b).max() > 0.1


@pytest.mark.parametrize("n_heads, head_dim", [(1, 8), (2, 8), (4, 16)])
def test_transformers_llama_permute_is_the_convention_permutation(n_heads, head_dim):
    dim = n_heads * head_dim
    w = torch.randn(dim, dim, generator=torch.Generator().manual_seed(0), dtype=torch.float64)  # (out, in) as nn.Linear
    converted = hf_llama_permute(w, n_heads, dim, dim).numpy()
    perm = rope.convention_permutation(head_dim)
    want = np.concatenate([w.numpy()[h * head_dim:(h + 1) * head_dim][perm] for h in range(n_heads)])
    np.testing.assert_array_equal(converted, want)
    # and the converted weights in rotate_half code give interleaved code's scores, head by head
    x = np.random.default_rng(1).standard_normal((5, dim))
    pos = np.arange(5) + 100
    inv = rope.inverse_frequencies(head_dim, DEFAULT_BASE)
    for h in range(n_heads):
        rows = slice(h * head_dim, (h + 1) * head_dim)
        q_int = rope.rotate(x @ w.numpy()[rows].T, pos, inv, "interleaved")
        q_half = rope.rotate(x @ converted[rows].T, pos, inv, "half")
        np.testing.assert_allclose(q_half @ q_half.T, q_int @ q_int.T, atol=1e-10)


# --- RoPE of equal vectors is lesson 3's curve --------------------------------------------------------------------


def test_same_vector_scores_are_the_sum_of_cosines():
    curve = shift.same_vector_scores(ex.MAX_DISTANCE, ex.L4_DIM)
    for k in (0, 1, 3, 4, 91, ex.MAX_DISTANCE):
        want = sum(math.cos(k * DEFAULT_BASE ** (-2 * i / ex.SIN_DIM)) for i in range(ex.SIN_DIM // 2))
        assert curve[k] == pytest.approx(want, abs=1e-12)
    assert np.any(np.diff(curve) > 0), "the curve must rise somewhere (it is not a monotone decay)"


# --- numbers the page quotes ------------------------------------------------------------------------------------


def _count(head_dim, theta, L, fraction=1.0):
    d = int(head_dim * fraction)
    return sum(1 for i in range(d // 2) if 2 * math.pi * theta ** (2 * i / d) > L)


def test_the_headline_counts_are_those_of_facts_md():
    # facts.md §2 (b), (c) and "Other counts"
    assert (numbers.value("rope_pairs_not_turning_qwen3_8b"), numbers.value("rope_pairs_total_qwen3_8b")) == (24, 64)
    assert (numbers.value("rope_pairs_not_turning_qwen3_next_80b_a3b"), numbers.value("rope_pairs_total_qwen3_next_80b_a3b")) == (10, 32)
    assert numbers.value("qwen3next_pairs_not_turning_theta5e6") == 9
    assert numbers.value("rope_pairs_not_turning_llama2_7b") == 18
    assert numbers.value("qwen3next_first_not_turning_pair") == 22  # facts §2(c): i = 22..31


def test_llama2_first_slow_pair_by_loop():
    lam = [2 * math.pi * 10_000 ** (2 * i / 128) for i in range(64)]
    first = next(i for i, x in enumerate(lam) if x > 4096)
    assert numbers.value("l4_llama2_first_not_turning") == first
    assert numbers.value("l4_llama2_wavelength_first_not_turning") == pytest.approx(lam[first])
    assert _count(128, 10_000, 4096) == numbers.value("rope_pairs_not_turning_llama2_7b")


def test_turning_share_and_slowest_turns():
    assert numbers.value("turning_dims_share_qwen3_8b") == pytest.approx(40 / 64)
    assert numbers.value("qwen3_slowest_turns_in_context") == pytest.approx(32_768 / (2 * math.pi * 1e6 ** (126 / 128)))


def test_model_counts():
    keys = configs.keys()
    assert numbers.value("l4_models_total") == len(keys)
    assert numbers.value("l4_rope_models") == len(keys) - 2  # GPT-2 and BERT-base use learned tables
    assert {configs.load(k).position for k in keys} == {"rope", "learned"}


def test_spectrum_alt_text_quotes_the_counts():
    from figures_src import build

    alt = build.load_all()["rope_spectrum"].alt_text()
    assert f"64 对里 {_count(128, 1e6, 32_768)} 对" in alt
    assert f"32 对里 {_count(256, 1e7, 262_144, 0.25)} 对" in alt
    assert "未核实" in alt


# --- bad input ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, word",
    [
        (lambda: shift.scores(ex.SENTENCE, 0, "sinusoid", ex.L4_DIM, ex.L4_SEED), "method"),
        (lambda: shift.scores(ex.SENTENCE, -1, "rope", ex.L4_DIM, ex.L4_SEED), "start"),
        (lambda: shift.scores("猫", 0, "rope", ex.L4_DIM, ex.L4_SEED), "text"),
        (lambda: shift.shift_change(ex.SENTENCE, 2.5, "rope", ex.L4_DIM, ex.L4_SEED), "shift"),
        (lambda: shift.pair_scores((1, 2, 3), (1, 0), 0, 1, 1.0), "q"),
        (lambda: shift.pair_scores((1, 0), (1, 0), 0, 1, -1.0), "omega"),
        (lambda: shift.pair_omega(99, ex.L4_DIM), "index"),
        (lambda: shift.convention_scores(ex.SENTENCE, d=ex.L4_DIM, seed=ex.L4_SEED, permute_weights="yes"), "permute_weights"),
        (lambda: shift.same_vector_scores(0, ex.L4_DIM), "max_distance"),
    ],
)
def test_bad_input_names_the_argument(call, word):
    with pytest.raises(ValueError, match=word):
        call()


# --- the built pages (lessons 4, 6 and the home page timeline) ---------------------------------------------------


def _page_text(site_dir, page: str) -> str:
    import html
    import re

    raw = (site_dir / page / "index.html").read_text(encoding="utf-8")
    article = raw[raw.find("<article"):raw.find("</article>")]
    return html.unescape(re.sub(r"<[^>]+>", "", article))


@pytest.mark.build
def test_built_pages_show_the_computed_counts(site_dir):
    from site_support import ROOT

    qwen3 = f"{_count(128, 1e6, 32_768)} / {128 // 2}"
    qwen3next = f"{_count(256, 1e7, 262_144, 0.25)} / {int(256 * 0.25) // 2}"
    assert (qwen3, qwen3next) == ("24 / 64", "10 / 32")
    lesson4 = _page_text(site_dir, "lessons/04-rope")
    lesson6 = _page_text(site_dir, "lessons/06-partial-nope")
    for text in (lesson4, lesson6):
        assert qwen3 in text and qwen3next in text
    md4 = (ROOT / "docs/lessons/04-rope.md").read_text(encoding="utf-8")
    assert "24 / 64" not in md4 and "10 / 32" not in md4, "the counts must come from macros"
    # the shift experiment's RoPE row is rounding-sized, the added rows are not
    assert "×10⁻¹" in lesson4
    raw = (site_dir / "lessons/04-rope/index.html").read_text(encoding="utf-8")
    assert 'data-pe-widget="rope-pair"' in raw and 'data-q="1,0.4"' in raw and 'data-shift="10"' in raw
    home = _page_text(site_dir, "")
    assert "位置编码的演进" in home and "786,432" in home and "24 对" in home
    home_raw = (site_dir / "index.html").read_text(encoding="utf-8")
    for lesson in ("01-order-blind", "02-learned-table", "03-sinusoidal", "04-rope", "05-long-context", "06-partial-nope"):
        assert f"lessons/{lesson}/" in home_raw, lesson
