"""Lesson 3's position part of the "input" score under a shift, with a non-default base: built here from
Vaswani et al. 2017 §3.5's sin/cos formula, so the base must reach both sides of the comparison."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from posenc import attention, shift, tokenize


def _pe(p: int, d: int, base: float) -> np.ndarray:
    """PE(p)[2i] = sin(p / base^(2i/d)), PE(p)[2i+1] = cos(p / base^(2i/d)) (§3.5, lesson 3's layout)."""
    angles = [p / base ** (2 * i / d) for i in range(d // 2)]
    return np.array([f(a) for a in angles for f in (math.sin, math.cos)])


def _position_part(text: str, start: int, d: int, seed: int, base: float) -> np.ndarray:
    head = attention.make_head(d, seed)
    pe = np.array([_pe(start + t, d, base) for t in range(len(tokenize.tokens(text)))])
    return (pe @ head.w_q) @ (pe @ head.w_k).T / math.sqrt(d)


@pytest.mark.parametrize("base", [20.0, 500.0])
def test_position_part_shift_change_uses_the_given_base_on_both_sides(base):
    text, s, d, seed = "猫吃鱼了吗", 3, 8, 5
    expected = np.abs(_position_part(text, s, d, seed, base) - _position_part(text, 0, d, seed, base)).max()
    got = shift.position_part_shift_change(text, s, d, seed, base=base)
    assert got == pytest.approx(expected, rel=1e-10, abs=1e-12)
    # the base matters: with the paper's 10000 the number is another one
    assert abs(got - shift.position_part_shift_change(text, s, d, seed)) > 1e-3


def test_position_part_shift_change_of_no_shift_is_zero():
    assert shift.position_part_shift_change("猫吃鱼", 0, 8, 5, base=20.0) == 0.0


@pytest.mark.parametrize("call, message", [
    (lambda: shift.position_part_shift_change("猫吃鱼", -1, 8, 5), "shift must be a non-negative integer position, got -1; pass e.g. shift=10"),
    (lambda: shift.position_part_shift_change("猫吃鱼", 2.0, 8, 5), "shift must be a non-negative integer position, got 2.0; pass e.g. shift=10"),
    (lambda: shift.position_part_scores("猫吃鱼", -2, 8, 5), "start must be a non-negative integer position, got -2; pass e.g. start=10"),
])
def test_bad_shift_names_the_argument(call, message):
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        call()
