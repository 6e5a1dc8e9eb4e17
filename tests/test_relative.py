"""posenc.relative (Shaw et al.'s clipping, T5's buckets, ALiBi, the added parameters) against the authors' and
transformers' code, brute-force loops and closed forms; its inputs' edges and messages.

What the tests compare against, part by part:

- posenc.relative (Shaw et al.'s clipping, T5's buckets, ALiBi) against the authors' and transformers' code.
  References, none of them computed by posenc: * ALiBi slopes: ``get_slopes`` from the paper's repository
  (ofirpress/attention_with_linear_biases, commit 4b92f28, fairseq/models/transformer.py lines 742–752), written out
  below; and transformers' BLOOM ``_get_alibi_slopes``, run from the installed source text. * T5 buckets:
  transformers' ``T5Attention._relative_position_bucket``, run from the installed source text (it follows Mesh
  TensorFlow's ``_relative_position_bucket``). * Closed forms for the rest: clip(j − i, k) from Shaw et al. §3.3 Eq.
  6, −m·(i − j) from Press et al. §3, and parameter counts from the shapes of the learned tables. The transformers
  functions are exec'd from their source text (as tests/test_rope.py does): importing
  ``transformers.models.t5.modeling_t5`` costs seconds and the functions use only torch and math.
- posenc.relative at the edges of its input: the error each bad argument gets, the smallest accepted values, the
  defaults, and float32 input (computed in float64 like the rest of posenc). Expected values are derived by hand or
  from the models' published sizes, not from posenc: the exact error texts are the module's contract with a course
  author ("name the argument and the fix").
- posenc.relative's lesson-3b additions, each against an independent reference: transformers' BLOOM ALiBi tensor and
  T5 compute_bias, brute-force loops, closed forms.
- posenc.relative.added_parameters: what each position scheme adds, checked against transformers' modules.
"""

from __future__ import annotations

import ast
import dataclasses
from functools import lru_cache
import importlib.util
import math
import os
from pathlib import Path
import re

from hypothesis import example, given, settings
from hypothesis import given, settings
from hypothesis import strategies as st
import numpy as np
import pytest
import torch
import torch  # a hard dependency: a missing torch fails, never skips
from transformers import BloomConfig, GPT2Config, T5Config  # noqa: E402
from transformers import T5Config
from transformers.models.bloom.modeling_bloom import BloomModel  # noqa: E402
from transformers.models.bloom.modeling_bloom import build_alibi_tensor
from transformers.models.gpt2.modeling_gpt2 import GPT2Model  # noqa: E402
from transformers.models.t5.modeling_t5 import T5Attention
from transformers.models.t5.modeling_t5 import T5Model  # noqa: E402

from expect import raises_exactly
from posenc import attention, relative, rope
from posenc import configs, relative
from posenc import configs, rope
from posenc import relative as R


FAST = settings(max_examples=40, deadline=None)


U32 = 2.0**-24  # unit roundoff of float32 (half its machine epsilon)


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


# --- input edges and messages --------------------------------------------------------------------------------------


INV8 = rope.inverse_frequencies(8, 10_000)


Q8 = np.array([3.0, -1.0, 2.0, 5.0, 1.0, 4.0, -2.0, 7.0])


K8 = np.array([1.0, 2.0, -3.0, 1.0, 6.0, -1.0, 2.0, 3.0])


FIELD_ADVICE = "add it with source and tag to posenc/data/models*.yaml"


def without(key: str, field: str) -> configs.ModelConfig:
    """Model ``key`` with ``field`` removed (a model whose data file lacks it)."""
    cfg = configs.load(key)
    return dataclasses.replace(cfg, fields={n: f for n, f in cfg.fields.items() if n != field})


def with_value(key: str, field: str, value) -> configs.ModelConfig:
    """Model ``key`` with ``field`` set to ``value`` (same source and tag)."""
    cfg = configs.load(key)
    return dataclasses.replace(cfg, fields={**cfg.fields, field: dataclasses.replace(cfg.fields[field], value=value)})


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: R.alibi_extra_heads(0), "n_heads must be an integer ≥ 1, got 0"),
        (lambda: R.causal_bias(0), "length must be an integer ≥ 1, got 0"),
        (lambda: R.alibi_mass_beyond(0.0, 1, 10), "slope must be a positive finite number, got 0.0"),
        (lambda: R.alibi_mass_beyond(0.5, 1, 0), "length must be an integer ≥ 1, got 0"),
        (lambda: R.alibi_mass_beyond(0.5, -1, 10), "distance must be an integer ≥ 0, got -1"),
        # 5 keys are 0 … 4 tokens back
        (lambda: R.alibi_mass_beyond(0.5, 6, 5), "distance=6 lies beyond the 5 keys (distances 0 … 4); pass distance ≤ length"),
        (lambda: R.rope_scores_by_distance(Q8, K8, INV8, -1), "max_distance must be an integer ≥ 0, got -1"),
        (lambda: R.rope_scores_by_distance(Q8, K8, INV8, 3, start=-1),
         "start must be a non-negative integer position, got -1; positions count from 0"),
        (lambda: R.rope_key_preferring(np.ones((2, 8)), 1, INV8), "q must be one query vector (1-D), got shape (2, 8)"),
        (lambda: R.rope_key_preferring(Q8, -2, INV8), "distance must be a non-negative integer position, got -2; positions count from 0"),
        (lambda: R.alibi_scores_by_distance(Q8, K8, 0.25, -1), "max_distance must be an integer ≥ 0, got -1"),
        (lambda: R.score_change([1.0, -np.inf], [1.0, 0.0]),
         "before and after mask different keys (−∞ in different places); compare scores with the same mask"),
        # a NaN (or +∞) on either side is an error, not only when both sides have one
        (lambda: R.score_change([np.nan, 0.0], [1.0, 0.0]), "scores must be finite where unmasked (only −∞ may mark a masked key)"),
        (lambda: R.score_change([1.0, 0.0], [1.0, np.inf]), "scores must be finite where unmasked (only −∞ may mark a masked key)"),
        # a bias of another shape is an error even where numpy would broadcast it
        (lambda: R.biased_weights(np.zeros((3, 3)), np.zeros((1, 3))),
         "bias must have shape (3, 3) or (heads, 3, 3) to match scores, got (1, 3)"),
        (lambda: R.biased_weights(np.full((2, 2), np.inf), np.zeros((2, 2))),
         "scores must be finite; put −∞ for masked keys in the bias, not in the scores"),
        (lambda: R.alibi_score_gap(0.0, 3), "slope must be a positive finite number, got 0.0"),
        (lambda: R.alibi_score_gap(0.5, [1, -2]), "distance must be ≥ 0 (tokens back from the query), got -2.0"),
        (lambda: R.causal_pairs_by_distance(0), "length must be an integer ≥ 1, got 0"),
        (lambda: R.relative_positions_at([0, -1]), "query_positions must be non-negative (positions count from 0), got -1"),
        (lambda: R.relative_positions_at([0, 1], [2, -1]), "key_positions must be non-negative (positions count from 0), got -1"),
        (lambda: R.t5_bias_at(np.zeros(4), [0, 1]), "table must have shape (num_buckets, heads), got (4,)"),
        # which scheme, which model, which field: each error says what to pass or add
        (lambda: R.added_parameters("xpos", configs.load("gpt2")),
         "scheme must be one of learned, sinusoidal, rope, alibi, t5, shaw, nope, got 'xpos'"),
        (lambda: R.added_parameters("shaw", configs.load("gpt2")),
         "shaw needs max_relative_position (the clipping distance k); pass e.g. max_relative_position=16"),
        (lambda: R.added_parameters("rope", "gpt2"),
         "cfg must be a model from posenc.configs.load(), got str; e.g. configs.load('gpt2')"),
        (lambda: R.model_position_parameters(None),
         "cfg must be a model from posenc.configs.load(), got NoneType; e.g. configs.load('gpt2')"),
        (lambda: R.added_parameters("learned", configs.load("t5_base")),
         f"model 't5_base' has no 'context' field (the table has one row per position); {FIELD_ADVICE}"),
        (lambda: R.added_parameters("learned", configs.load("llama2_7b")),
         f"model 'llama2_7b' has no 'hidden' field (each row is hidden wide); {FIELD_ADVICE}"),
        (lambda: R.added_parameters("t5", configs.load("llama2_7b")),
         f"model 'llama2_7b' has no 'heads' field (T5 learns one scalar per bucket and head); {FIELD_ADVICE}"),
        (lambda: R.added_parameters("shaw", configs.load("llama2_7b"), max_relative_position=8),
         f"model 'llama2_7b' has no 'layers' field (Shaw's vectors are per layer); {FIELD_ADVICE}"),
        # Shaw's head width for a model with no head_dim field: hidden ÷ heads, and each must be there
        (lambda: R.added_parameters("shaw", configs.load("bert_base"), max_relative_position=4),
         f"model 'bert_base' has no 'heads' field (head width = hidden ÷ heads); {FIELD_ADVICE}"),
        (lambda: R.added_parameters("shaw", without("mpt_7b", "hidden"), max_relative_position=4),
         f"model 'mpt_7b' has no 'hidden' field (head width = hidden ÷ heads); {FIELD_ADVICE}"),
        (lambda: R.added_parameters("shaw", without("mpt_7b", "heads"), max_relative_position=4),
         f"model 'mpt_7b' has no 'heads' field (head width = hidden ÷ heads); {FIELD_ADVICE}"),
        (lambda: R.added_parameters("shaw", with_value("mpt_7b", "hidden", 4100), max_relative_position=4),
         "model 'mpt_7b': hidden 4100 is not a multiple of heads 32; add head_dim"),
    ],
)
def test_bad_input_gets_an_error_naming_the_argument_and_the_fix(call, message):
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        call()


def test_max_distance_zero_is_the_key_at_the_query():
    # r = 0 only: the key at the query's own position, nothing turned relative to it, no bias
    np.testing.assert_allclose(R.rope_scores_by_distance(Q8, K8, INV8, 0), [Q8 @ K8], rtol=1e-15)
    assert R.alibi_scores_by_distance(Q8, K8, 0.25, 0).tolist() == [Q8 @ K8]


def test_rope_scores_default_to_the_key_at_position_zero():
    # The scores do not depend on start except in the last bits; the default is start = 0 (the docstring's).
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal(8), rng.standard_normal(8)
    assert np.array_equal(R.rope_scores_by_distance(q, k, INV8, 5), R.rope_scores_by_distance(q, k, INV8, 5, start=0))


def test_alibi_scores_of_float32_content_are_computed_in_float64():
    # (1 + 2⁻¹²)² = 1 + 2⁻¹¹ + 2⁻²⁴: float64 keeps the last term, a float32 product would round it away
    q = np.array([1 + 2.0**-12], dtype=np.float32)
    assert R.alibi_scores_by_distance(q, q, 0.5, 2).tolist() == [1 + 2.0**-11 + 2.0**-24, 0.5 + 2.0**-11 + 2.0**-24,
                                                                 2.0**-11 + 2.0**-24]


def test_score_change_of_float32_scores_is_computed_in_float64():
    # 1 − (−2⁻³⁰) = 1 + 2⁻³⁰, which float32 rounds to 1
    before, after = np.float32([1.0, -np.inf]), np.float32([-(2.0**-30), -np.inf])
    assert R.score_change(before, after) == 1 + 2.0**-30


def test_score_change_with_every_key_masked_is_zero():
    # nothing both sides can see moved: no change, not an error
    assert R.score_change([-np.inf, -np.inf], [-np.inf, -np.inf]) == 0.0


def test_t5_bucket_edges_default_to_32_buckets_when_causal():
    # Causal T5 with 32 buckets (Raffel et al. §2.1; transformers' default): 16 exact buckets for distances
    # 0 … 15, then 16 logarithmic buckets up to max_distance 128: bucket b ≥ 16 starts at the smallest r with
    # ⌊ln(r/16)/ln(128/16) · 16⌋ = b − 16, i.e. r ≥ 16 · 8^((b−16)/16). The edges follow from that closed form.
    edges = R.t5_bucket_edges(bidirectional=False)
    assert edges[:16] == [(b, b, b) for b in range(16)]
    starts = [next(r for r in range(16, 129) if 16 + int(np.log(r / 16) / np.log(8) * 16) >= b) for b in range(16, 32)]
    assert [first for _, first, _ in edges[16:]] == starts
    assert edges[-1] == (31, starts[-1], 128) and len(edges) == 32


@pytest.mark.parametrize("key, width", [("mpt_7b", 4096 // 32), ("bloom_176b", 14336 // 112), ("baichuan_13b", 5120 // 40)])
def test_shaw_head_width_is_hidden_over_heads_without_head_dim(key, width):
    # MPT-7B d_model 4096 / 32 heads, BLOOM 14336 / 112, Baichuan-13B 5120 / 40: 128-wide heads
    cfg = configs.load(key)
    k = 16
    assert R.added_parameters("shaw", cfg, max_relative_position=k) == (2 * k + 1) * width * 2 * cfg["layers"]


def test_shaw_head_width_of_an_mla_model_is_not_its_rotary_part():
    # DeepSeek-V3's head_dim field is qk_rope_head_dim (64), only the rotary slice of each 192-wide key head
    # (128 unrotated + 64 rotated; models.yaml): Shaw's per-head vectors cannot be that narrow.
    cfg = configs.load("deepseek_v3")
    assert cfg["head_dim"] == 64 and cfg["nope_head_dim"] == 128
    assert R.added_parameters("shaw", cfg, max_relative_position=16) != (2 * 16 + 1) * 64 * 2 * cfg["layers"]


def test_t5_parameters_read_the_models_bucket_count_and_tables():
    # T5-Base: 32 buckets × 12 heads, one table in the encoder and one in the decoder (bias_tables 2)
    t5 = configs.load("t5_base")
    assert R.added_parameters("t5", t5) == 32 * 12 * 2
    assert R.added_parameters("t5", with_value("t5_base", "relative_attention_num_buckets", 64)) == 64 * 12 * 2
    assert R.added_parameters("t5", with_value("t5_base", "bias_tables", 1)) == 32 * 12 * 1
    # explicit arguments win over the model's fields
    assert R.added_parameters("t5", t5, num_buckets=8, stacks=3) == 8 * 12 * 3
    # a model with neither field: T5's 32 buckets, one table
    assert R.added_parameters("t5", configs.load("llama3_8b")) == 32 * 32 * 1


def test_t5_bias_at_defaults_to_t5s_bidirectional_buckets_up_to_128():
    # Keys 91 tokens before and after the query. T5 (32 buckets, bidirectional, max_distance 128): 16 buckets per
    # direction, 8 exact; r = 91 lands in 8 + ⌊ln(91/8) / ln(128/8) · 8⌋ = 8 + ⌊7.02⌋ = 15 (with max_distance 129:
    # ⌊6.996⌋ = 6, bucket 14), and keys after the query take the upper 16 buckets: 16 + 15 = 31.
    table = np.arange(32)[:, None] * np.array([[1, 10]])  # integer table: bucket b, head h → b·(1, 10)
    bias = R.t5_bias_at(table, [0, 91])
    assert bias.dtype == np.float64
    np.testing.assert_array_equal(bias[0], [[0.0, 31.0], [15.0, 0.0]])
    np.testing.assert_array_equal(bias[1], [[0.0, 310.0], [150.0, 0.0]])


# --- positions, biases and weights at any start --------------------------------------------------------------------


SETTINGS = settings(max_examples=60, deadline=None, derandomize=os.environ.get("CI") == "true")


def loop_relative(qpos, kpos):
    return np.array([[kj - qi for kj in kpos] for qi in qpos])


@SETTINGS
@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=12), st.lists(st.integers(0, 10_000), min_size=1, max_size=12))
def test_relative_positions_at_is_key_minus_query(qpos, kpos):
    np.testing.assert_array_equal(relative.relative_positions_at(qpos, kpos), loop_relative(qpos, kpos))
    np.testing.assert_array_equal(relative.relative_positions_at(qpos), loop_relative(qpos, qpos))


@pytest.mark.parametrize("n", [1, 5, 16])
@pytest.mark.parametrize("start", [0, 3, 100_000])
def test_a_shifted_sentence_has_the_same_relative_positions(n, start):
    np.testing.assert_array_equal(relative.relative_positions_at(start + np.arange(n)), relative.relative_positions(n))


@pytest.mark.parametrize("bad, match", [([[0, 1]], "1-D"), ([-1, 0], "non-negative"), ([0.0, 1.0], "integer"), ([], "empty")])
def test_relative_positions_at_rejects_bad_positions(bad, match):
    with pytest.raises(ValueError, match=match):
        relative.relative_positions_at(bad)


@pytest.mark.parametrize("heads", [1, 8, 12, 112])
def test_alibi_bias_at_positions_zero_on_is_the_plain_causal_bias(heads):
    at = relative.alibi_causal_bias_at(heads, np.arange(9))
    plain = relative.alibi_causal_bias(heads, 9)
    np.testing.assert_array_equal(at, plain)
    assert not np.any(np.signbit(at) & (at == 0))  # +0.0 on the diagonal, as alibi_causal_bias


@pytest.mark.parametrize("heads", [8, 12, 112])
@pytest.mark.parametrize("start", [1, 10, 65_536])
def test_alibi_bias_does_not_move_with_the_sentence(heads, start):
    n = 7
    np.testing.assert_array_equal(relative.alibi_causal_bias_at(heads, np.arange(n) + start), relative.alibi_causal_bias_at(heads, np.arange(n)))


@pytest.mark.parametrize("heads", [8, 12, 40, 112])
def test_alibi_weights_equal_bloom_reference(heads):
    """BLOOM adds m_h·j to every query's row (softmax is shift-invariant within a row); with the causal
    mask that gives the same weights as Press et al.'s −m_h·(i − j)."""
    n = 11
    rng = np.random.default_rng(heads)
    scores = rng.standard_normal((n, n))
    ours = relative.biased_weights(scores, relative.alibi_causal_bias_at(heads, np.arange(n)))
    bloom = build_alibi_tensor(torch.ones(1, n), heads, torch.float64)[:, 0, :].numpy()  # (heads, keys): m_h·j
    causal = np.tril(np.ones((n, n), dtype=bool))
    logits = torch.tensor(np.where(causal, scores[None] + bloom[:, None, :], -np.inf))
    # BLOOM computes its slopes in float32 (_get_alibi_slopes), so the weights agree to float32 precision
    np.testing.assert_allclose(ours, torch.softmax(logits, dim=-1).numpy(), rtol=0, atol=1e-6)


@pytest.mark.parametrize("bidirectional", [True, False])
@pytest.mark.parametrize("n, buckets, max_distance", [(40, 32, 128), (300, 32, 128), (50, 8, 20)])
def test_t5_bias_at_matches_transformers_compute_bias(bidirectional, n, buckets, max_distance):
    heads = 3
    cfg = T5Config(d_model=16, d_kv=4, num_heads=heads, relative_attention_num_buckets=buckets,
                   relative_attention_max_distance=max_distance, is_decoder=not bidirectional)
    layer = T5Attention(cfg, has_relative_attention_bias=True)
    table = np.random.default_rng(n).standard_normal((buckets, heads)).astype(np.float32).astype(np.float64)  # the layer stores float32
    with torch.no_grad():
        layer.relative_attention_bias.weight.copy_(torch.tensor(table))
        ref = layer.compute_bias(n, n, device="cpu")[0].double().numpy()
    for start in (0, 17):
        got = relative.t5_bias_at(table, np.arange(n) + start, bidirectional, max_distance)
        np.testing.assert_array_equal(got, ref)


def test_biased_weights_is_softmax_of_the_sum():
    rng = np.random.default_rng(0)
    s = rng.standard_normal((5, 5))
    b = relative.alibi_causal_bias(4, 5)
    w = relative.biased_weights(s, b)
    ref = torch.softmax(torch.tensor(s[None] + b), dim=-1).numpy()
    np.testing.assert_allclose(w, ref, rtol=0, atol=1e-15)
    np.testing.assert_allclose(w.sum(-1), 1.0)
    assert np.all(w[:, np.triu_indices(5, 1)[0], np.triu_indices(5, 1)[1]] == 0)  # masked keys get no weight


@pytest.mark.parametrize("scores, bias, match", [
    (np.zeros((3, 4)), np.zeros((3, 4)), "square"),
    (np.zeros((3, 3)), np.zeros((2, 3, 4)), "shape"),
    (np.full((2, 2), np.inf), np.zeros((2, 2)), "finite"),
])
def test_biased_weights_rejects_mismatched_input(scores, bias, match):
    with pytest.raises(ValueError, match=match):
        relative.biased_weights(scores, bias)


@SETTINGS
@given(st.integers(1, 60))
def test_causal_pairs_by_distance_counts_every_pair(length):
    rel = relative.relative_positions(length)
    counts = [int(np.sum(rel == -r)) for r in range(length)]  # key r tokens before the query
    np.testing.assert_array_equal(relative.causal_pairs_by_distance(length), counts)
    assert relative.causal_pairs_by_distance(length).sum() == length * (length + 1) // 2


def test_extra_heads_are_the_ones_the_non_power_of_two_rule_adds():
    for n in (1, 2, 8, 32, 64):
        assert not relative.alibi_extra_heads(n).any()
    for n in (12, 40, 112):
        extra = relative.alibi_extra_heads(n)
        p = 2 ** int(math.log2(n))
        assert extra.sum() == n - p and not extra[:p].any()
        slopes = relative.alibi_slopes(n)
        np.testing.assert_array_equal(slopes[~extra], relative.alibi_slopes(p))
        np.testing.assert_array_equal(slopes[extra], relative.alibi_slopes(2 * p)[0::2][: n - p])


@pytest.mark.parametrize("heads", [8, 32, 112])
def test_reaches_cut_each_heads_weight_by_the_factor(heads):
    reach = relative.alibi_reaches(heads, 10)
    slopes = relative.alibi_slopes(heads)
    assert reach.shape == (heads,)
    np.testing.assert_allclose(np.exp(-slopes * reach), 0.1, rtol=1e-12)


@SETTINGS
@given(st.floats(1e-4, 2.0), st.integers(0, 5000))
def test_score_gap_undoes_the_weight_ratio(slope, r):
    np.testing.assert_allclose(np.exp(-relative.alibi_score_gap(slope, r)), relative.alibi_weight_ratio(slope, r), rtol=1e-12)


@pytest.mark.parametrize("slope, distance, length", [(0.5, 3, 10), (2 ** -8, 100, 2048), (2 ** -8, 2048, 2048), (1.0, 0, 7)])
def test_mass_beyond_is_the_softmax_of_the_bias_alone(slope, distance, length):
    r = np.arange(length)
    w = attention.softmax(-slope * r)  # one query, equal content scores: only the bias differs
    assert relative.alibi_mass_beyond(slope, distance, length) == pytest.approx(w[r >= distance].sum(), rel=1e-12, abs=1e-300)


def test_mass_beyond_tends_to_the_weight_ratio_for_a_long_context():
    assert relative.alibi_mass_beyond(2 ** -8, 2048, 10 ** 9) == pytest.approx(math.exp(-8), rel=1e-12)


def test_mass_beyond_rejects_a_distance_past_the_keys():
    with pytest.raises(ValueError, match="distance"):
        relative.alibi_mass_beyond(0.5, 11, 10)
    with pytest.raises(ValueError, match="slope"):
        relative.alibi_mass_beyond(0.0, 1, 10)


def test_rope_scores_by_distance_closed_form_and_start():
    d, delta = 16, 6
    inv = rope.inverse_frequencies(d, 10_000)
    q = np.random.default_rng(3).standard_normal(d)
    k = rope.rotate(q[None], [delta], inv)[0]  # the key content is the query turned by delta
    got = relative.rope_scores_by_distance(q, k, inv, 200)
    pair_norm2 = q[0::2] ** 2 + q[1::2] ** 2
    r = np.arange(201)
    closed = (pair_norm2[None, :] * np.cos((delta - r)[:, None] * inv[None, :])).sum(1)  # Σ|q_i|² cos((δ − r)ω_i)
    np.testing.assert_allclose(got, closed, atol=1e-12)
    assert int(np.argmax(got)) == delta
    np.testing.assert_allclose(relative.rope_scores_by_distance(q, k, inv, 200, start=5000), got, atol=1e-9)


def test_rope_scores_by_distance_rejects_mismatched_vectors():
    inv = rope.inverse_frequencies(8, 10_000)
    with pytest.raises(ValueError, match="same width"):
        relative.rope_scores_by_distance(np.ones(8), np.ones(6), inv, 5)


@pytest.mark.parametrize("delta", [0, 3, 12, 150])
def test_the_preferring_key_peaks_at_its_distance(delta):
    inv = rope.inverse_frequencies(16, 10_000)
    q = np.random.default_rng(delta).standard_normal(16)
    k = relative.rope_key_preferring(q, delta, inv)
    scores = relative.rope_scores_by_distance(q, k, inv, 300)
    assert int(np.argmax(scores)) == delta
    assert scores[delta] == pytest.approx(q @ q, rel=1e-12)  # every pair lined up: Σ|q_i|²


def test_alibi_scores_by_distance_are_content_minus_a_line():
    rng = np.random.default_rng(1)
    q, k = rng.standard_normal(8), rng.standard_normal(8)
    s = relative.alibi_scores_by_distance(q, k, 0.25, 40)
    np.testing.assert_allclose(s, q @ k - 0.25 * np.arange(41), rtol=0, atol=1e-12)
    assert int(np.argmax(s)) == 0
    with pytest.raises(ValueError, match="same width"):
        relative.alibi_scores_by_distance(q, k[:4], 0.25, 4)


def test_score_change_ignores_masked_keys_and_rejects_a_moved_mask():
    a = np.array([[1.0, -np.inf], [0.5, 2.0]])
    b = np.array([[1.25, -np.inf], [0.5, 1.0]])
    assert relative.score_change(a, b) == 1.0
    with pytest.raises(ValueError, match="mask different keys"):
        relative.score_change(a, np.array([[1.0, 0.0], [0.5, 2.0]]))
    with pytest.raises(ValueError, match="same shape"):
        relative.score_change(a, a[:1])


def test_causal_bias_is_the_causal_mask():
    np.testing.assert_array_equal(np.isfinite(relative.causal_bias(6)), attention.causal_mask(6))
    assert np.all(relative.causal_bias(6)[attention.causal_mask(6)] == 0)


def test_content_scores_are_lesson_one_heads_unmasked_scores():
    text, d, seed = "小明打了小王", 8, 7
    x = attention.sentence_input(text, d, seed)
    head = attention.make_head(d, seed)
    q, k = x @ head.w_q, x @ head.w_k
    np.testing.assert_allclose(relative.content_scores(text, d, seed), q @ k.T / np.sqrt(d), rtol=0, atol=1e-12)
    # causal attention with the zero bias is lesson 1's masked attention
    np.testing.assert_allclose(relative.biased_weights(relative.content_scores(text, d, seed), relative.causal_bias(6)),
                               attention.attend(x, head, attention.causal_mask(6)).weights, rtol=0, atol=1e-15)


# --- the parameters each scheme adds -------------------------------------------------------------------------------


def params_named(model, word: str) -> int:
    return sum(p.numel() for name, p in model.named_parameters() if word in name)


def test_gpt2_table_matches_transformers_wpe():
    cfg = configs.load("gpt2")
    with torch.device("meta"):
        model = GPT2Model(GPT2Config(n_positions=cfg["context"], n_embd=cfg["hidden"], n_layer=1, n_head=cfg["heads"]))
    assert relative.model_position_parameters(cfg) == model.wpe.weight.numel() == 786_432  # facts.md §2 (d)


def test_t5_tables_match_transformers():
    cfg = configs.load("t5_base")
    ref = T5Config(d_model=cfg["hidden"], d_kv=cfg["head_dim"], d_ff=cfg["intermediate_size"], num_layers=cfg["layers"],
                   num_heads=cfg["heads"], relative_attention_num_buckets=cfg["relative_attention_num_buckets"],
                   relative_attention_max_distance=cfg["relative_attention_max_distance"])
    with torch.device("meta"):
        model = T5Model(ref)
    # one table in layer 0 of the encoder and one in layer 0 of the decoder (cross-attention has none)
    assert relative.model_position_parameters(cfg) == params_named(model, "relative_attention_bias") == 32 * 12 * 2
    assert relative.added_parameters("t5", cfg, stacks=1) == 32 * 12


def test_alibi_adds_nothing_in_transformers_either():
    cfg = configs.load("bloom_176b")
    with torch.device("meta"):
        model = BloomModel(BloomConfig(hidden_size=64, n_head=cfg["heads"] // 14, n_layer=1))
    assert params_named(model, "position") == params_named(model, "alibi") == 0  # ALiBi is a buffer-free bias
    assert relative.model_position_parameters(cfg) == 0


@pytest.mark.parametrize("key", ["qwen3_8b", "llama4_scout", "mpt_7b", "baichuan_13b", "qwen25_vl_7b"])
def test_fixed_schemes_add_nothing(key):
    assert relative.model_position_parameters(configs.load(key)) == 0


def test_each_scheme_on_one_model():
    gpt2 = configs.load("gpt2")  # context 1024, hidden 768, 12 layers of 12 heads of 64 dims
    assert relative.added_parameters("learned", gpt2) == 1024 * 768
    for scheme in ("sinusoidal", "rope", "alibi", "nope"):
        assert relative.added_parameters(scheme, gpt2) == 0
    assert relative.added_parameters("t5", gpt2) == 32 * 12
    assert relative.added_parameters("shaw", gpt2, max_relative_position=16) == (2 * 16 + 1) * 64 * 2 * 12


@pytest.mark.parametrize("call, match", [
    (lambda: relative.added_parameters("xpos", configs.load("gpt2")), "scheme"),
    (lambda: relative.added_parameters("shaw", configs.load("gpt2")), "max_relative_position"),
    (lambda: relative.added_parameters("learned", configs.load("t5_base")), "context"),
    (lambda: relative.added_parameters("t5", configs.load("qwen3_next_80b_a3b"), num_buckets=1), "num_buckets"),
    (lambda: relative.added_parameters("shaw", configs.load("llama2_7b"), max_relative_position=8), "layers"),
    (lambda: relative.model_position_parameters("gpt2"), "posenc.configs"),
])
def test_bad_input_raises_clear_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()
