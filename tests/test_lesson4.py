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
from expect import raises_exactly

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


def reference_scores(text: str, start: int, method: str, d: int = ex.L4_DIM, seed: int = ex.L4_SEED,
                     base: float = DEFAULT_BASE) -> np.ndarray:
    """S[a, b] = q_a·k_b/√d, one token at a time, with the references above (rows = tokens, q = x W_q)."""
    head = attention.make_head(d, seed)
    e = attention.token_vectors(tokenize.token_ids(text), d, seed)
    qs, ks = [], []
    for t, row in enumerate(e):
        p = start + t
        if method == "input":
            x = row + vaswani_pe(p, d, base)
            qs.append(x @ head.w_q)
            ks.append(x @ head.w_k)
        elif method == "qk":
            qs.append(row @ head.w_q + vaswani_pe(p, d, base))
            ks.append(row @ head.w_k + vaswani_pe(p, d, base))
        else:
            qs.append(roformer_R(p, d, base) @ (row @ head.w_q))
            ks.append(roformer_R(p, d, base) @ (row @ head.w_k))
    return np.array([[q @ k / math.sqrt(d) for k in ks] for q in qs])


def hf_llama_permute(w: torch.Tensor, n_heads: int, dim1: int, dim2: int) -> torch.Tensor:
    """transformers' convert_llama_weights_to_hf.py "permute for sliced rotary" (applied to q_proj/k_proj)."""
    return w.view(n_heads, dim1 // n_heads // 2, 2, dim2).transpose(1, 2).reshape(dim1, dim2)


# --- the shift experiment --------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", shift.METHODS)
@pytest.mark.parametrize("start", [0, ex.SHIFT, 12_345])
def test_scores_match_the_papers_formulas(method, start):
    np.testing.assert_allclose(shift.scores(ex.SENTENCE, start, method, ex.L4_DIM, ex.L4_SEED), reference_scores(ex.SENTENCE, start, method), atol=1e-10)


@pytest.mark.parametrize("method", shift.METHODS)
def test_scores_use_the_given_width_seed_and_base(method):
    got = shift.scores("猫吃鱼了", 7, method, d=6, seed=3, base=50.0)
    np.testing.assert_allclose(got, reference_scores("猫吃鱼了", 7, method, d=6, seed=3, base=50.0), atol=1e-12)
    change = shift.shift_change("猫吃鱼了", 4, method, d=6, seed=3, base=50.0)
    want = np.abs(reference_scores("猫吃鱼了", 4, method, 6, 3, 50.0) - reference_scores("猫吃鱼了", 0, method, 6, 3, 50.0)).max()
    assert change == pytest.approx(want, abs=1e-12)


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
    # the data files read directly, not through configs: each model is a top-level key with a position
    import yaml
    from pathlib import Path

    kinds = {}
    for f in sorted((Path(__file__).resolve().parent.parent / "posenc" / "data").glob("models*.yaml")):
        for key, entry in (yaml.safe_load(f.read_text(encoding="utf-8")) or {}).items():
            if "position" in entry:
                kinds[key] = entry["position"]
    assert sorted(kinds) == sorted(configs.keys())
    assert numbers.value("l4_models_total") == len(kinds)
    assert numbers.value("l4_rope_models") == sum(kind == "rope" for kind in kinds.values())
    assert numbers.value("l4_mrope_models") == sum(kind == "mrope" for kind in kinds.values())
    # the models without RoPE: GPT-2 and BERT-base (learned tables), T5 (buckets), MPT, BLOOM, Baichuan (ALiBi)
    assert {k for k, kind in kinds.items() if kind not in ("rope", "mrope")} == {
        "gpt2", "bert_base", "t5_base", "mpt_7b", "bloom_176b", "baichuan_13b"}


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
    assert qwen3 in lesson4 and qwen3next in lesson4  # lesson 4's table of per-model counts
    # lesson 6's overview table gives Qwen3-8B's count; its Qwen3-Next row gives the RoPE shares of q and k
    # instead, and the count of pairs that do not turn is quoted in the note on the unverified θ
    assert qwen3 in lesson6 and f"{_count(256, 1e7, 262_144, 0.25)} 对转不满" in lesson6
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


# --- exact messages and edges ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: shift.scores(ex.SENTENCE, 0, "sinusoid", ex.L4_DIM, ex.L4_SEED),
         "method must be one of ('input', 'qk', 'rope'), got 'sinusoid'; 'input' adds sinusoids to the input, "
         "'qk' adds them after the projection, 'rope' rotates q and k"),
        (lambda: shift.scores(ex.SENTENCE, -1, "rope", ex.L4_DIM, ex.L4_SEED), "start must be a non-negative integer position, got -1; pass e.g. start=10"),
        (lambda: shift.scores(ex.SENTENCE, 1.0, "rope", ex.L4_DIM, ex.L4_SEED), "start must be a non-negative integer position, got 1.0; pass e.g. start=10"),
        (lambda: shift.scores(ex.SENTENCE, True, "rope", ex.L4_DIM, ex.L4_SEED), "start must be a non-negative integer position, got True; pass e.g. start=10"),
        (lambda: shift.scores("猫", 0, "rope", ex.L4_DIM, ex.L4_SEED), "text must be a string of at least two tokens, got '猫'; pass e.g. text='小明打了小王'"),
        (lambda: shift.scores(["猫", "鱼"], 0, "rope", ex.L4_DIM, ex.L4_SEED),
         "text must be a string of at least two tokens, got ['猫', '鱼']; pass e.g. text='小明打了小王'"),
        (lambda: shift.shift_change(ex.SENTENCE, 2.5, "rope", ex.L4_DIM, ex.L4_SEED), "shift must be a non-negative integer position, got 2.5; pass e.g. shift=10"),
        (lambda: shift.rotate_pair((1, 2, 3), 0.5), "v must be two finite numbers (one pair of dims), got (1, 2, 3); pass e.g. v=(1.0, 0.4)"),
        (lambda: shift.pair_scores((1, 2, 3), (1, 0), 0, 1, 1.0), "q must be two finite numbers (one pair of dims), got (1, 2, 3); pass e.g. q=(1.0, 0.4)"),
        (lambda: shift.pair_scores((1, 0), (np.nan, 0), 0, 1, 1.0), "k must be two finite numbers (one pair of dims), got (nan, 0); pass e.g. k=(1.0, 0.4)"),
        (lambda: shift.pair_scores((1, 0), (1, 0), -1, 1, 1.0), "m must be a non-negative integer position, got -1; pass e.g. m=10"),
        (lambda: shift.pair_scores((1, 0), (1, 0), 0, -1, 1.0), "n must be a non-negative integer position, got -1; pass e.g. n=10"),
        (lambda: shift.pair_scores((1, 0), (1, 0), 0, 1, -1.0),
         "omega must be a positive angular frequency (radians per token), got -1.0; take one from rope.inverse_frequencies()"),
        (lambda: shift.pair_scores((1, 0), (1, 0), 0, 1, 0.0),
         "omega must be a positive angular frequency (radians per token), got 0.0; take one from rope.inverse_frequencies()"),
        (lambda: shift.pair_scores((1, 0), (1, 0), 0, 1, True),
         "omega must be a positive angular frequency (radians per token), got True; take one from rope.inverse_frequencies()"),
        (lambda: shift.pair_scores((1, 0), (1, 0), 0, 1, float("inf")),
         "omega must be a positive angular frequency (radians per token), got inf; take one from rope.inverse_frequencies()"),
        (lambda: shift.pair_omega(8, 16), "index must be a pair index from 0 to 7, got 8"),
        (lambda: shift.pair_omega(-1, 16), "index must be a pair index from 0 to 7, got -1"),
        (lambda: shift.pair_omega(1.0, 16), "index must be a pair index from 0 to 7, got 1.0"),
        (lambda: shift.pair_omega(True, 16), "index must be a pair index from 0 to 7, got True"),
        (lambda: shift.convention_scores(ex.SENTENCE, d=ex.L4_DIM, seed=ex.L4_SEED, permute_weights=1), "permute_weights must be True or False, got 1"),
        (lambda: shift.same_vector_scores(0, 16), "max_distance must be a positive integer, got 0; pass e.g. max_distance=200"),
        (lambda: shift.same_vector_scores(5.0, 16), "max_distance must be a positive integer, got 5.0; pass e.g. max_distance=200"),
        (lambda: shift.same_vector_scores(True, 16), "max_distance must be a positive integer, got True; pass e.g. max_distance=200"),
    ],
)
def test_bad_input_messages_name_the_argument_and_the_fix(call, message):
    with raises_exactly(message):
        call()


def test_shift_edges():
    # pair 0 of a 16-dim head turns at ω = 1 (θ_1 = base⁰), pair 7 at base^(−14/16)
    assert shift.pair_omega(0, 16) == 1.0 and shift.pair_omega(7, 16) == pytest.approx(DEFAULT_BASE ** (-14 / 16), rel=1e-15)
    assert shift.pair_omega(1, d=4, base=100.0) == pytest.approx(0.1, rel=1e-15)
    np.testing.assert_allclose(shift.rotate_pair((1.0, 0.0), math.pi / 2), [0.0, 1.0], atol=1e-16)
    np.testing.assert_allclose(shift.rotate_pair([0.6, 0.9], 0.0), [0.6, 0.9], rtol=0)
    rope_score, added = shift.pair_scores((1.0, 0.0), (1.0, 0.0), 0, 0, 0.5)
    assert rope_score == 1.0 and added == pytest.approx(1.0 + 1.0, rel=1e-15)  # (1, 1)·(1, 1) at position 0
    # the head and the token vectors both come from the given width and seed
    head, e = shift.head_and_tokens("猫吃鱼", 6, 3)
    np.testing.assert_array_equal(head.w_q, attention.make_head(6, 3).w_q)
    np.testing.assert_array_equal(e, attention.token_vectors(tokenize.token_ids("猫吃鱼"), 6, 3))
    # start 0 and shift 0 are allowed; a zero shift changes nothing
    assert shift.shift_change("猫吃鱼", 0, "input", ex.L4_DIM, ex.L4_SEED) == 0.0
    np.testing.assert_allclose(shift.scores("猫吃鱼", 0, "rope", d=4, seed=0, base=50.0), reference_scores_base("猫吃鱼", 4, 50.0), atol=1e-12)
    a, b = shift.convention_scores("猫吃鱼", d=4, seed=0, base=50.0)
    np.testing.assert_allclose(a, b, atol=1e-12)
    np.testing.assert_allclose(a, reference_scores_base("猫吃鱼", 4, 50.0), atol=1e-12)
    assert shift.same_vector_scores(1, 16).shape == (2,) and shift.same_vector_scores(1, 16)[0] == pytest.approx(16 / 2, rel=1e-15)
    np.testing.assert_allclose(shift.same_vector_scores(np.int64(3), d=2, base=7.0), [math.cos(k) for k in range(4)], rtol=1e-12)


def reference_scores_base(text, d, base):
    """RoPE scores at start 0 with a given base, from RoFormer's block matrices (seed 0)."""
    head = attention.make_head(d, 0)
    e = attention.token_vectors(tokenize.token_ids(text), d, 0)
    qs = [roformer_R(t, d, base) @ (row @ head.w_q) for t, row in enumerate(e)]
    ks = [roformer_R(t, d, base) @ (row @ head.w_k) for t, row in enumerate(e)]
    return np.array([[q @ k / math.sqrt(d) for k in ks] for q in qs])


def half_layout_R(m: int, d: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """transformers' rotate_half layout: pair i is dims (i, i + d/2), each turned by m·θ_i (RoFormer's block)."""
    R, h = np.zeros((d, d)), d // 2
    for i in range(h):
        a = m * base ** (-2 * i / d)
        R[i, i], R[i, i + h], R[i + h, i], R[i + h, i + h] = math.cos(a), -math.sin(a), math.sin(a), math.cos(a)
    return R


def test_rope_scores_in_the_half_layout():
    head = attention.make_head(ex.L4_DIM, 0)
    e = attention.token_vectors(tokenize.token_ids("猫吃鱼"), ex.L4_DIM, 0)
    qs = [half_layout_R(5 + t, ex.L4_DIM) @ (row @ head.w_q) for t, row in enumerate(e)]
    ks = [half_layout_R(5 + t, ex.L4_DIM) @ (row @ head.w_k) for t, row in enumerate(e)]
    want = np.array([[q @ k / math.sqrt(ex.L4_DIM) for k in ks] for q in qs])
    np.testing.assert_allclose(shift.scores("猫吃鱼", 5, "rope", ex.L4_DIM, 0, convention="half"), want, atol=1e-12)
    assert np.abs(want - shift.scores("猫吃鱼", 5, "rope", ex.L4_DIM, 0)).max() > 0.01  # the layout matters for the same weights


def test_convention_scores_at_a_start_and_with_the_unpermuted_weights():
    # start 0 by default
    np.testing.assert_array_equal(shift.convention_scores("猫吃鱼", d=ex.L4_DIM, seed=0)[0],
                                  shift.convention_scores("猫吃鱼", start=0, d=ex.L4_DIM, seed=0)[0])
    with raises_exactly("start must be a non-negative integer position, got -1; pass e.g. start=10"):
        shift.convention_scores("猫吃鱼", start=-1, d=ex.L4_DIM, seed=0)
    a, b = shift.convention_scores("猫吃鱼", start=3, d=ex.L4_DIM, seed=2)
    np.testing.assert_allclose(a, reference_scores("猫吃鱼", 3, "rope", ex.L4_DIM, seed=2), atol=1e-12)
    np.testing.assert_allclose(b, a, atol=1e-12)
    _, wrong = shift.convention_scores("猫吃鱼", start=3, d=ex.L4_DIM, seed=2, permute_weights=False)
    head = attention.make_head(ex.L4_DIM, 2)
    e = attention.token_vectors(tokenize.token_ids("猫吃鱼"), ex.L4_DIM, 2)
    qs = [half_layout_R(3 + t, ex.L4_DIM) @ (row @ head.w_q) for t, row in enumerate(e)]
    ks = [half_layout_R(3 + t, ex.L4_DIM) @ (row @ head.w_k) for t, row in enumerate(e)]
    np.testing.assert_allclose(wrong, np.array([[q @ k / math.sqrt(ex.L4_DIM) for k in ks] for q in qs]), atol=1e-12)
