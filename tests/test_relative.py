"""posenc.relative (Shaw et al.'s clipping, T5's buckets, ALiBi) against the authors' and transformers' code.

References, none of them computed by posenc:

* ALiBi slopes: ``get_slopes`` from the paper's repository (ofirpress/attention_with_linear_biases,
  commit 4b92f28, fairseq/models/transformer.py lines 742–752), written out below; and
  transformers' BLOOM ``_get_alibi_slopes``, run from the installed source text.
* T5 buckets: transformers' ``T5Attention._relative_position_bucket``, run from the installed
  source text (it follows Mesh TensorFlow's ``_relative_position_bucket``).
* Closed forms for the rest: clip(j − i, k) from Shaw et al. §3.3 Eq. 6, −m·(i − j) from
  Press et al. §3, and parameter counts from the shapes of the learned tables.

The transformers functions are exec'd from their source text (as tests/test_rope.py does):
importing ``transformers.models.t5.modeling_t5`` costs seconds and the functions use only
torch and math.
"""

from __future__ import annotations

import ast
import importlib.util
import math
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import example, given, settings
from hypothesis import strategies as st

from posenc import relative as R
from expect import raises_exactly

FAST = settings(max_examples=40, deadline=None)
U32 = 2.0**-24  # unit roundoff of float32 (half its machine epsilon)


# --- references ---------------------------------------------------------------------------------------


def press_get_slopes(n):
    """The authors' ALiBi slopes (attention_with_linear_biases, fairseq/models/transformer.py, get_slopes)."""

    def get_slopes_power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        ratio = start
        return [start * ratio**i for i in range(n)]

    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    closest_power_of_2 = 2 ** math.floor(math.log2(n))
    return get_slopes_power_of_2(closest_power_of_2) + press_get_slopes(2 * closest_power_of_2)[0::2][: n - closest_power_of_2]


@lru_cache(maxsize=None)
def transformers_source_function(relpath: str, name: str, cls: str | None = None):
    """Function ``name`` (a method of class ``cls`` if given) of an installed transformers file, exec'd from its text."""
    root = Path(importlib.util.find_spec("transformers").submodule_search_locations[0])
    path = root / relpath
    tree = ast.parse(path.read_text(encoding="utf-8"))
    body = tree.body
    if cls is not None:
        (klass,) = [n for n in body if isinstance(n, ast.ClassDef) and n.name == cls]
        body = klass.body
    (fn,) = [n for n in body if isinstance(n, ast.FunctionDef) and n.name == name]
    fn.decorator_list = []  # @staticmethod; the body is transformers' own
    namespace = {"torch": torch, "math": math}
    exec(compile(ast.Module(body=[fn], type_ignores=[]), str(path), "exec"), namespace)
    return namespace[name]


def t5_reference(relative, bidirectional=True, num_buckets=32, max_distance=128) -> np.ndarray:
    ref = transformers_source_function("models/t5/modeling_t5.py", "_relative_position_bucket", "T5Attention")
    rel = torch.as_tensor(np.asarray(relative, dtype=np.int64))
    return ref(rel, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance).numpy()


def bloom_slopes(n_heads: int) -> np.ndarray:
    ref = transformers_source_function("models/bloom/modeling_bloom.py", "_get_alibi_slopes")
    return ref(n_heads, torch.device("cpu")).double().numpy()


def t5_configs():
    """(num_buckets, bidirectional, max_distance) cases: T5's own and small ones that put every edge in reach."""
    return [(32, True, 128), (32, False, 128), (8, True, 20), (8, False, 20), (6, True, 5), (4, False, 3),
            (33, True, 128), (64, False, 1000), (320, True, 10**6)]


def max_exact_of(num_buckets, bidirectional):
    """T5: half of each direction's buckets are exact (transformers: ``max_exact = num_buckets // 2`` after halving)."""
    return (num_buckets // 2 if bidirectional else num_buckets) // 2


# --- relative positions and Shaw et al. ----------------------------------------------------------------


def test_relative_positions_are_key_minus_query():
    rel = R.relative_positions(3, 5)
    assert rel.shape == (3, 5)
    assert rel.tolist() == [[j - i for j in range(5)] for i in range(3)]
    assert R.relative_positions(4).tolist() == [[j - i for j in range(4)] for i in range(4)]


@given(rel=st.lists(st.integers(-10**6, 10**6), min_size=1, max_size=30), k=st.integers(1, 64))
@FAST
def test_shaw_clipping_is_eq6(rel, k):
    # Shaw et al. §3.3 Eq. 6: clip(x, k) = max(−k, min(k, x))
    got = R.shaw_clipped(np.array(rel), k)
    assert got.tolist() == [max(-k, min(k, x)) for x in rel]
    assert got.dtype == np.int64


def test_shaw_clipping_at_its_edges():
    k = 4
    assert R.shaw_clipped(np.array([-5, -4, -3, 0, 3, 4, 5]), k).tolist() == [-4, -4, -3, 0, 3, 4, 4]


def test_shaw_parameter_count_is_the_two_tables():
    # (2k + 1) vectors of width d_z for keys, as many for values, per layer (§3.3: shared by the heads)
    assert R.shaw_parameters(16, 64, 6) == 2 * (2 * 16 + 1) * 64 * 6
    assert R.shaw_parameters(16, 64, 6, values=False) == (2 * 16 + 1) * 64 * 6
    assert R.shaw_parameters(1, 1, 1) == 6


# --- T5 buckets against transformers ----------------------------------------------------------------------


@pytest.mark.parametrize("num_buckets, bidirectional, max_distance", t5_configs())
def test_t5_bucket_edges_match_transformers(num_buckets, bidirectional, max_distance):
    me = max_exact_of(num_buckets, bidirectional)
    edges = [0, 1, me - 1, me, me + 1, max_distance - 1, max_distance, max_distance + 1, 10**6, 2**40, 2**62]
    rel = np.array(sorted({s * e for e in edges for s in (1, -1) if e >= 0}))
    np.testing.assert_array_equal(R.t5_bucket(rel, bidirectional, num_buckets, max_distance),
                                  t5_reference(rel, bidirectional, num_buckets, max_distance))


@pytest.mark.parametrize("num_buckets, bidirectional, max_distance", t5_configs())
def test_t5_buckets_match_transformers_over_a_range(num_buckets, bidirectional, max_distance):
    rel = np.arange(-3 * max_distance - 50, 3 * max_distance + 51) if max_distance < 10**5 else np.arange(-20_000, 20_001)
    np.testing.assert_array_equal(R.t5_bucket(rel, bidirectional, num_buckets, max_distance),
                                  t5_reference(rel, bidirectional, num_buckets, max_distance))


@pytest.mark.parametrize("num_buckets, bidirectional, max_distance", t5_configs())
def test_t5_bucket_rules_at_each_edge(num_buckets, bidirectional, max_distance):
    """The rules of the docstring (and of Mesh TensorFlow's comments), checked edge by edge."""
    one_side = num_buckets // 2 if bidirectional else num_buckets
    me = max_exact_of(num_buckets, bidirectional)

    def b(r):
        return int(R.t5_bucket(np.array([r]), bidirectional, num_buckets, max_distance)[0])

    # keys before the query: one bucket per distance below max_exact …
    assert [b(-r) for r in range(me)] == list(range(me))
    # … then max_exact opens the logarithmic part (log(max_exact / max_exact) = 0) …
    assert b(-me) == me
    # … buckets never decrease with distance, and everything from max_distance on shares the last one
    before = R.t5_bucket(-np.arange(me, max_distance + 2), bidirectional, num_buckets, max_distance)
    assert np.all(np.diff(before) >= 0)
    assert b(-(max_distance - 1)) <= one_side - 1
    for r in (max_distance, max_distance + 1, 10**9, 2**62):
        assert b(-r) == one_side - 1
    # keys after the query: the other half when bidirectional, else the distance-0 bucket
    for r in (1, me - 1, me, max_distance - 1, max_distance, 10**9):
        if r < 1:
            continue
        assert b(r) == (one_side + b(-r) if bidirectional else 0)


def test_t5_default_buckets_as_the_paper_describes():
    # T5: 32 buckets, max distance 128, bidirectional: distances 0 … 7 exact, 128 and beyond in one bucket
    b = R.t5_bucket(-np.arange(0, 200), True, 32, 128)
    assert b[:8].tolist() == list(range(8)) and b[8] == 8
    # distance 16: 8 + ⌊ln(16/8) / ln(128/8) · 8⌋ = 8 + ⌊8/4⌋ = 10; 127: 8 + ⌊7.98⌋ = 15
    assert b[16] == 10 and b[127] == 15
    assert set(b[128:].tolist()) == {15}
    # keys after the query: the upper 16 buckets
    assert R.t5_bucket(np.array([1, 16, 127, 128, 5000]), True, 32, 128).tolist() == [17, 26, 31, 31, 31]


@given(
    nb=st.integers(2, 400),
    bidirectional=st.booleans(),
    extra=st.integers(1, 10_000),
    rel=st.lists(st.integers(-(2**62), 2**62) | st.integers(-300, 300), min_size=1, max_size=40),
)
@example(nb=32, bidirectional=True, extra=120, rel=[-7, -8, -127, -128, 7, 8, 127, 128])
@FAST
def test_t5_buckets_match_transformers_on_random_input(nb, bidirectional, extra, rel):
    me = max_exact_of(nb, bidirectional)
    if me < 1:
        with pytest.raises(ValueError, match="num_buckets"):
            R.t5_bucket(np.array(rel), bidirectional, nb, me + extra)
        return
    md = me + extra
    np.testing.assert_array_equal(R.t5_bucket(np.array(rel), bidirectional, nb, md), t5_reference(rel, bidirectional, nb, md))


def test_t5_bucket_edges_table_matches_brute_force():
    for nb, bi, md in t5_configs()[:6]:
        r = np.arange(md + 1)
        ref = t5_reference(-r, bi, nb, md)
        want = [(int(k), int(r[ref == k].min()), int(r[ref == k].max())) for k in np.unique(ref)]
        assert R.t5_bucket_edges(bi, nb, md) == want


def test_t5_bias_looks_up_the_table_by_bucket():
    rng = np.random.default_rng(0)
    table = rng.normal(size=(8, 3))  # (num_buckets, heads), like relative_attention_bias.weight
    bias = R.t5_bias(table, 5, 7, bidirectional=True, max_distance=20)
    assert bias.shape == (3, 5, 7)
    buckets = t5_reference(np.arange(7)[None, :] - np.arange(5)[:, None], True, 8, 20)
    for h in range(3):
        for i in range(5):
            for j in range(7):
                assert bias[h, i, j] == table[buckets[i, j], h]
    causal = R.t5_bias(table, 4, bidirectional=False, max_distance=20)
    assert np.all(causal[:, 0, 1:] == table[0][:, None])  # keys after the query share the distance-0 bucket


def test_t5_parameters_are_one_scalar_per_bucket_and_head_per_stack():
    # T5-base: 32 buckets × 12 heads in the encoder's and the decoder's table
    assert R.t5_parameters(32, 12) == 384
    assert R.t5_parameters(32, 12, stacks=2) == 768


# --- ALiBi slopes against the authors' code and BLOOM's ---------------------------------------------------


def test_alibi_slopes_of_the_papers_examples():
    # Press et al. §3: 8 heads 1/2, 1/4, …, 1/256; 16 heads start at 1/√2 with ratio 1/√2
    assert R.alibi_slopes(8).tolist() == [2.0**-k for k in range(1, 9)]
    # start·start^h rounds h + 1 times: relative error below (h + 2)·2⁻⁵³ ≤ 18·2⁻⁵³
    np.testing.assert_allclose(R.alibi_slopes(16), [2 ** (-k / 2) for k in range(1, 17)], rtol=18 * 2.0**-53)
    assert R.alibi_slopes(1).tolist() == [2.0**-8]


@pytest.mark.parametrize("n", list(range(1, 65)) + [80, 96, 112, 128, 255, 256, 1000])
def test_alibi_slopes_equal_the_authors_code_to_the_last_bit(n):
    got = R.alibi_slopes(n)
    assert got.dtype == np.float64 and got.shape == (n,)
    assert got.tolist() == press_get_slopes(n)


def bloom_bound(n_heads: int) -> np.ndarray:
    """Largest relative difference of BLOOM's float32 slopes from the exact ones, head by head.

    BLOOM rounds the base b = 2^(−8/n') to float32 (relative error ≤ u = 2⁻²⁴) and raises it to
    the integer power k in float32 with torch.pow: b₃₂^k = b^k (1 + δ)^k with |δ| ≤ u, and the
    power's own rounding adds at most one float32 ulp (≤ 2u relative). The extra heads use
    b' = 2^(−4/n') and odd powers. So |bloom − exact| ≤ exact · ((1 + u)^k (1 + 2u) − 1).
    posenc's float64 slopes are exact to ~k·2⁻⁵³, far inside this bound.
    """
    closest = 2 ** math.floor(math.log2(n_heads))
    k = list(range(1, closest + 1)) + list(range(1, 2 * (n_heads - closest), 2))
    return (1 + U32) ** np.array(k, dtype=np.float64) * (1 + 2 * U32) - 1


@given(n=st.integers(1, 1024))
@example(n=112)  # BLOOM-176B's head count
@FAST
def test_alibi_slopes_match_bloom_within_its_float32_error(n):
    ours, theirs = R.alibi_slopes(n), bloom_slopes(n)
    assert theirs.shape == ours.shape
    rel = np.abs(ours - theirs) / ours
    assert np.all(rel <= bloom_bound(n)), f"worst {rel.max():.3g} vs bound {bloom_bound(n)[np.argmax(rel)]:.3g}"
    assert ours.tolist() == press_get_slopes(n)


def test_alibi_slopes_for_non_powers_of_two_interleave_the_next_power():
    # 12 heads: the 8 slopes of 8 heads, then the odd-numbered slopes of 16 heads (2^(−1/2), 2^(−3/2), …)
    got = R.alibi_slopes(12)
    np.testing.assert_allclose(got[:8], [2.0**-k for k in range(1, 9)], rtol=0)
    np.testing.assert_allclose(got[8:], [2 ** (-k / 2) for k in (1, 3, 5, 7)], rtol=9 * 2.0**-53)


# --- ALiBi biases -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("n_heads, q, k", [(1, 1, 1), (3, 4, 4), (8, 5, 9), (12, 6, 6)])
def test_alibi_bias_is_minus_slope_times_distance(n_heads, q, k):
    m = press_get_slopes(n_heads)
    bias = R.alibi_bias(n_heads, q, None if q == k else k)
    assert bias.shape == (n_heads, q, k)
    for h in range(n_heads):
        for i in range(q):
            for j in range(k):
                assert bias[h, i, j] == -m[h] * abs(i - j)
    assert not np.any(np.signbit(bias[:, np.arange(min(q, k)), np.arange(min(q, k))]))  # +0.0 on the diagonal


def test_alibi_causal_bias_masks_the_future_and_matches_blooms_softmax():
    n_heads, T = 12, 7
    bias = R.alibi_causal_bias(n_heads, T)
    m = press_get_slopes(n_heads)
    for h in range(n_heads):
        for i in range(T):
            for j in range(T):
                assert bias[h, i, j] == (-m[h] * (i - j) if j <= i else -np.inf)
    # BLOOM adds +m·j to every row instead (softmax ignores a per-row constant): same attention weights
    scores = torch.randn(n_heads, T, T, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    future = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
    bloom = torch.tensor(bloom_slopes(n_heads))[:, None, None] * torch.arange(T, dtype=torch.float64)[None, None, :]
    want = torch.softmax((scores + bloom).masked_fill(future, -torch.inf), dim=-1).numpy()
    got = torch.softmax(scores + torch.from_numpy(bias), dim=-1).numpy()
    np.testing.assert_allclose(got, want, atol=1e-6)  # BLOOM's slopes are float32


@given(slope=st.floats(1e-4, 1.0), r=st.floats(0, 1e4), factor=st.floats(1.001, 1e6))
@FAST
def test_alibi_weight_ratio_and_reach_are_inverse(slope, r, factor):
    assert R.alibi_weight_ratio(slope, r) == pytest.approx(math.exp(-slope * r), rel=1e-12)
    reach = R.alibi_reach(slope, factor)
    assert reach == pytest.approx(math.log(factor) / slope, rel=1e-12)
    assert R.alibi_weight_ratio(slope, reach) == pytest.approx(1 / factor, rel=1e-9)


def test_alibi_weight_ratio_at_known_points():
    np.testing.assert_allclose(R.alibi_weight_ratio(0.5, [0, 2, 4]), [1.0, math.exp(-1), math.exp(-2)], rtol=1e-15)
    assert R.alibi_reach(2.0**-8, 10) == pytest.approx(256 * math.log(10), rel=1e-15)


# --- bad input ----------------------------------------------------------------------------------------------


REL_DTYPE = "relative positions must be integers (j − i), got dtype {}; build them with relative_positions()"


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: R.alibi_slopes(0), "n_heads must be an integer ≥ 1, got 0"),
        (lambda: R.alibi_slopes(-3), "n_heads must be an integer ≥ 1, got -3"),
        (lambda: R.alibi_slopes(2.0), "n_heads must be an integer ≥ 1, got 2.0"),
        (lambda: R.alibi_slopes(True), "n_heads must be an integer ≥ 1, got True"),
        (lambda: R.alibi_bias(0, 4), "n_heads must be an integer ≥ 1, got 0"),
        (lambda: R.alibi_bias(2, 4, 0), "key_len must be an integer ≥ 1, got 0"),
        (lambda: R.alibi_causal_bias(4, 0), "query_len must be an integer ≥ 1, got 0"),
        (lambda: R.relative_positions(0), "query_len must be an integer ≥ 1, got 0"),
        (lambda: R.relative_positions(3, 0), "key_len must be an integer ≥ 1, got 0"),
        (lambda: R.relative_positions(3, 2.0), "key_len must be an integer ≥ 1, got 2.0"),
        (lambda: R.t5_bucket(np.array([1]), num_buckets=-4), "num_buckets must be an integer ≥ 2, got -4"),
        (lambda: R.t5_bucket(np.array([1]), num_buckets=0), "num_buckets must be an integer ≥ 2, got 0"),
        (lambda: R.t5_bucket(np.array([1]), bidirectional=False, num_buckets=1), "num_buckets must be an integer ≥ 2, got 1"),
        (lambda: R.t5_bucket(np.array([1]), num_buckets=3), "num_buckets=3 leaves no exact bucket per direction; T5 uses 32"),
        (lambda: R.t5_bucket(np.array([1]), True, 32, 8),
         "max_distance=8 must exceed the exact range max_exact=8 (half of the per-direction buckets), or the logarithmic "
         "buckets have no room; T5 uses 128"),
        (lambda: R.t5_bucket(np.array([1]), False, 32, 16),
         "max_distance=16 must exceed the exact range max_exact=16 (half of the buckets), or the logarithmic buckets have no room; "
         "T5 uses 128"),
        (lambda: R.t5_bucket(np.array([1]), True, 32, 3),
         "max_distance=3 must exceed the exact range max_exact=8 (half of the per-direction buckets), or the logarithmic "
         "buckets have no room; T5 uses 128"),
        (lambda: R.t5_bucket(np.array([1]), True, 32, 0), "max_distance must be an integer ≥ 1, got 0"),
        (lambda: R.t5_bucket(np.array([1.5, 2.0]), True), REL_DTYPE.format("float64")),
        (lambda: R.t5_bucket(np.array([True]), True), REL_DTYPE.format("bool")),
        (lambda: R.t5_bucket(np.array([1]), bidirectional="yes"), "bidirectional must be True (encoder) or False (decoder), got 'yes'"),
        (lambda: R.t5_bucket(np.array([1]), bidirectional=1), "bidirectional must be True (encoder) or False (decoder), got 1"),
        (lambda: R.t5_bucket_edges(True, 32, 8),
         "max_distance=8 must exceed the exact range max_exact=8 (half of the per-direction buckets), or the logarithmic "
         "buckets have no room; T5 uses 128"),
        (lambda: R.t5_bias(np.zeros(4), 3), "table must have shape (num_buckets, heads), got (4,)"),
        (lambda: R.t5_bias(np.zeros((4, 2, 1)), 3), "table must have shape (num_buckets, heads), got (4, 2, 1)"),
        (lambda: R.t5_parameters(1, 12), "num_buckets must be an integer ≥ 2, got 1"),
        (lambda: R.t5_parameters(32, 0), "n_heads must be an integer ≥ 1, got 0"),
        (lambda: R.t5_parameters(32, 12, 0), "stacks must be an integer ≥ 1, got 0"),
        (lambda: R.shaw_clipped(np.array([0.5]), 4), REL_DTYPE.format("float64")),
        (lambda: R.shaw_clipped(np.array([1]), 0), "max_relative_position must be an integer ≥ 1, got 0"),
        (lambda: R.shaw_parameters(0, 64, 6), "max_relative_position must be an integer ≥ 1, got 0"),
        (lambda: R.shaw_parameters(4, 0, 6), "head_dim must be an integer ≥ 1, got 0"),
        (lambda: R.shaw_parameters(4, 64, 0), "n_layers must be an integer ≥ 1, got 0"),
        (lambda: R.alibi_weight_ratio(0.0, 3), "slope must be a positive finite number, got 0.0"),
        (lambda: R.alibi_weight_ratio(0.5, [1, -2, -1]), "distance must be ≥ 0 (tokens back from the query), got -2.0"),
        (lambda: R.alibi_reach(0.5, 1.0), "factor must be greater than 1 (how many times smaller the weight becomes), got 1.0"),
        (lambda: R.alibi_reach(0.5, 0.0), "factor must be a positive finite number, got 0.0"),
        (lambda: R.alibi_reach(-1.0, 10), "slope must be a positive finite number, got -1.0"),
    ],
)
def test_bad_input_raises_a_clear_value_error(call, message):
    with raises_exactly(message):
        call()


def test_accepted_edges():
    assert R.relative_positions(1).tolist() == [[0]] and R.relative_positions(np.int64(2), np.int64(1)).tolist() == [[0], [-1]]
    assert R.t5_bucket(np.array([-3, 0, 3], dtype=np.int32), False, 2, 2).tolist() == [1, 0, 0]  # 2 causal buckets: 1 exact
    assert R.t5_bucket([[-1, 1]]).shape == (1, 2) and R.t5_bucket(np.array([], dtype=int)).tolist() == []
    assert R.t5_bucket(np.array([3], dtype=np.uint8), True, 4, 2).tolist() == t5_reference([3], True, 4, 2).tolist() == [3]
    assert R.shaw_clipped([[-2, 2]], 1).tolist() == [[-1, 1]]
    assert R.alibi_weight_ratio(1.0, 0).tolist() == 1.0
    assert R.alibi_reach(1.0, 1.0000001) == pytest.approx(1e-7, rel=1e-6)


def test_t5_bias_defaults_are_t5s_and_the_bias_is_float():
    table = np.arange(32, dtype=np.int64)[:, None] * np.array([[1, -1]])  # (32 buckets, 2 heads), integers
    bias = R.t5_bias(table, 1, 92)  # distances 0 … 91 back from the query: 91 is the first of bucket 15 at max_distance 128
    assert bias.dtype == np.float64
    np.testing.assert_array_equal(bias, R.t5_bias(table, 1, 92, bidirectional=True, max_distance=128))
    want = t5_reference(np.arange(92)[None, :], True, 32, 128)  # keys after the query: the upper 16 buckets
    np.testing.assert_array_equal(bias[0], want)
    np.testing.assert_array_equal(bias[1], -want)
    assert bias[0, 0, 91] == 16 + 15 and R.t5_bias(table, 1, 92, max_distance=129)[0, 0, 91] == 16 + 14


def test_t5_bucket_edges_default_to_t5s_settings():
    assert R.t5_bucket_edges() == R.t5_bucket_edges(True, 32, 128)
    r = np.arange(129)
    ref = t5_reference(-r, True, 32, 128)
    assert R.t5_bucket_edges() == [(int(k), int(r[ref == k].min()), int(r[ref == k].max())) for k in np.unique(ref)]
    assert R.t5_bucket_edges()[-1] == (15, 91, 128) and R.t5_bucket_edges()[:2] == [(0, 0, 0), (1, 1, 1)]
