"""posenc.rope_bounds: Liu et al.'s critical dimension and Men et al.'s B_{m,θ}, against the papers and by hand.

References: the formulas written out with ``math`` (Liu et al.'s README eq. 12–13; Men et al. Eq. 9–11), the
authors' worked value (Llama 2: d_extra = 92), explicit loops over pairs and distances, and the course's own count
of pairs that do not complete a turn (``rope.pairs_not_completing_turn``), which is Liu's d/2 − d_extra/2.
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
import numpy as np
import pytest

from expect import raises_exactly
from posenc import configs, rope, rope_bounds as rb


def b_by_hand(m, d, base):
    return sum(math.cos(m * base ** (-2 * i / d)) for i in range(d // 2))


def test_llama2_critical_dimension_is_the_authors_92():
    # OpenLMLab/scaling-rope README: "LLaMA2中前92维度都是感知了完整的位置信息"
    assert rb.critical_dimension(128, 10_000, 4096) == 92


@given(half=st.integers(2, 128), base=st.floats(100.0, 1e8), length=st.integers(8, 2_000_000))
@settings(max_examples=60, deadline=None)
def test_critical_dimension_counts_the_pairs_that_complete_a_turn(half, base, length):
    # eq. 12: d_extra/2 pairs have λ ≤ T; off the measure-zero case λ_i = T exactly, that is ⌈x⌉ pairs
    d = 2 * half
    x = half * math.log(length / (2 * math.pi)) / math.log(base)
    if abs(x - round(x)) < 1e-9:
        return
    turning = sum(2 * math.pi * base ** (2 * i / d) <= length for i in range(half))
    assert rb.critical_dimension(d, base, length) == 2 * turning
    inv = rope.inverse_frequencies(d, base)
    assert half - rb.critical_dimension(d, base, length) // 2 == rope.pairs_not_completing_turn(inv, length)


def test_critical_dimension_of_every_rope_model_is_the_course_count():
    for key in configs.keys():
        cfg = configs.load(key)
        if cfg.position != "rope":
            continue
        frac = cfg.get("rotary_fraction", 1.0)
        d = rope.rotary_dim(cfg["head_dim"], frac)
        inv = rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"], frac)
        extra = rb.critical_dimension(cfg["head_dim"], cfg["rope_theta"], cfg["context"], frac)
        assert d // 2 - extra // 2 == rope.pairs_not_completing_turn(inv, cfg["context"]), key


def test_critical_dimension_stays_within_the_head():
    assert rb.critical_dimension(128, 10_000, 6) == 0  # shorter than the fastest period 2π
    assert rb.critical_dimension(128, 10_000, 10**9) == 128


@pytest.mark.parametrize("m", [0, 1, 7, 1707, 4060, 27_115, 131_071])
def test_similarity_sum_is_eq9_term_by_term(m):
    for d, base in ((128, 1e4), (128, 1e6), (8, 50.0)):
        assert rb.similarity_sum([m], d, base)[0] == pytest.approx(b_by_hand(m, d, base), abs=1e-9)


def test_check_base_finds_the_first_negative_distance_and_the_minimum():
    d, base, L = 16, 100.0, 3000
    b = [b_by_hand(m, d, base) for m in range(L + 1)]
    first = next(m for m, v in enumerate(b) if v < 0)
    got = rb.check_base(d, base, L)
    assert (got.first_negative, got.at) == (first, int(np.argmin(b)))
    assert got.minimum == pytest.approx(min(b), abs=1e-12)
    assert not got.passes and got.supported_length == first - 1
    short = rb.check_base(d, base, first - 1)
    assert short.passes and short.supported_length == first - 1 and short.minimum >= 0


def test_the_chunks_join_without_a_gap():
    # a range longer than one block: the first negative and the minimum are found across block edges
    d, base, L = 128, 1e6, 40_000
    got = rb.check_base(d, base, L)
    m = np.arange(L + 1)
    b = np.cos(np.outer(m, rope.inverse_frequencies(d, base))).sum(axis=1)
    assert got.first_negative == int(np.flatnonzero(b < 0)[0]) and got.at == int(np.argmin(b))


def test_passing_bases_are_not_an_interval_at_32k():
    # research note: Men et al.'s Table 2 gives 6.4e5 for 32K; 6.3e5 passes and 6.4e5 fails
    assert rb.check_base(128, 6.3e5, 32_768).passes
    assert not rb.check_base(128, 6.4e5, 32_768).passes
    assert rb.lowest_passing_base(128, 32_768, [5e5, 6.3e5, 6.4e5]) == 6.3e5


@pytest.mark.parametrize("call, message", [
    (lambda: rb.critical_dimension(128, 1.0, 4096),
     "base must be greater than 1 (otherwise frequencies do not decrease across pairs), got 1.0; the paper uses base=10000"),
    (lambda: rb.check_base(128, 1e4, 0), "length must be a positive integer number of tokens, got 0; pass e.g. length=32768"),
    (lambda: rb.lowest_passing_base(128, 4096, [1e5, 1e4]),
     "bases must be a non-empty ascending 1-D grid of bases, got [100000.0, 10000.0]; e.g. np.geomspace(1e4, 1e7, 61)"),
])
def test_bad_input_message(call, message):
    with raises_exactly(message):
        call()
