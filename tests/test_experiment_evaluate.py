"""posenc/experiment/evaluate.py: per-position loss and the in-distribution loss, on a model with known answers.

The model is a bigram table: its log-probability of the next token depends on the current token
only, so the loss at each position of each window is read off the table, and the expected averages
(which windows, how many, which positions) are computed here by plain loops.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch
from experiment_tiny import TINY, tokens

from posenc.experiment import evaluate, model, scalings

V = TINY.vocab_size
VAL = tokens(90, seed=1)  # 10 windows of 16 + 1 at stride 8 (more than one EVAL_BATCH of 8), 8 windows of 32 + 1


class Bigram(torch.nn.Module):
    """logits[b, t] = log p(· | x[b, t]) from a fixed random table; remembers what it was called with."""

    def __init__(self):
        super().__init__()
        raw = torch.randn(V, V, generator=torch.Generator().manual_seed(0), dtype=torch.float64) * 2
        self.logp = torch.log_softmax(raw, dim=-1)
        self.calls = []

    def forward(self, x, rotary=None):
        self.calls.append((tuple(x.shape), rotary))
        return self.logp[x].float()


def expected(window: int, length: int, stride: int = TINY.eval_stride, val=VAL) -> np.ndarray:
    """Mean over the windows starting at 0, stride, … (each window plus its last target inside the text) of the loss at positions 0 … length−1."""
    logp = Bigram().logp.numpy()
    v = val.tolist()
    starts = [s for s in range(0, len(v), stride) if s + window + 1 <= len(v)]
    per_window = [[-logp[v[s + t], v[s + t + 1]] for t in range(length)] for s in starts]
    return np.mean(per_window, axis=0)


def test_loss_at_each_position_is_the_mean_over_every_window():
    got = evaluate.position_losses(Bigram(), VAL, TINY)
    assert got.shape == (TINY.eval_len,)
    np.testing.assert_allclose(got, expected(16, 16), rtol=1e-6)


def test_the_result_does_not_depend_on_the_evaluation_batch(monkeypatch):
    monkeypatch.setattr(evaluate, "EVAL_BATCH", 3)
    m = Bigram()
    np.testing.assert_allclose(evaluate.position_losses(m, VAL, TINY), expected(16, 16), rtol=1e-6)
    assert [shape for shape, _ in m.calls] == [(3, 16), (3, 16), (3, 16), (1, 16)]  # 10 windows, each once


def test_longer_evaluation_uses_the_windows_that_fit():
    got = evaluate.position_losses(Bigram(), VAL, TINY, length=32)
    np.testing.assert_allclose(got, expected(32, 32), rtol=1e-6)  # 8 windows


def test_first_positions_of_the_long_windows_are_measured_on_those_windows():
    # length < window_len: the first 8 positions of the same 10 windows of 16, not the 11 windows of 8 that fit.
    got = evaluate.position_losses(Bigram(), VAL, TINY, length=8, window_len=16)
    np.testing.assert_allclose(got, expected(16, 8), rtol=1e-6)
    assert not np.allclose(got, expected(8, 8), rtol=1e-4)


def test_learning_curve_point_is_the_first_train_len_positions_of_the_per_position_loss():
    m = Bigram()
    full = evaluate.position_losses(m, VAL, TINY)
    point = evaluate.in_distribution_loss(m, VAL, TINY)
    assert point == pytest.approx(full[: TINY.train_len].mean(), rel=1e-9)
    assert point == pytest.approx(expected(16, 8).mean(), rel=1e-6)
    assert m.calls[-1][0][1] == TINY.train_len  # only the first train_len tokens are run: 4× cheaper


def test_the_rotary_override_reaches_the_model():
    m, r = Bigram(), model.RotaryScaling([1.0, 0.1], 1.2)
    evaluate.position_losses(m, VAL, TINY, rotary=r)
    evaluate.in_distribution_loss(m, VAL, TINY, rotary=r)
    assert all(rotary is r for _, rotary in m.calls)


def test_a_real_model_matches_its_own_forward_pass_window_by_window():
    cfg = dataclasses.replace(TINY, eval_stride=16)
    m = model.build(cfg, "rope", 0).eval()
    starts = [0, 16, 32, 48, 64]  # 64 + 16 + 1 = 81 ≤ 90
    with torch.no_grad():
        per_window = [torch.nn.functional.cross_entropy(m(VAL[None, s : s + 16])[0], VAL[s + 1 : s + 17], reduction="none")
                      for s in starts]
    np.testing.assert_allclose(evaluate.position_losses(m, VAL, cfg), torch.stack(per_window).mean(0).numpy(), rtol=1e-5)


@pytest.mark.parametrize("name", ["pi", "ntk", "yarn"])
def test_evaluation_time_scaling_is_scalings_table_at_eval_len(name):
    cfg = dataclasses.replace(TINY, ext_len=32)  # s = 2 at evaluation, 4 for the extension: tell them apart
    r = evaluate.rope_scaling(cfg, name)
    inv, factor = scalings.frequencies(cfg, name, 2.0)
    np.testing.assert_allclose(r.inv_freq.numpy(), inv, rtol=1e-6)
    assert r.attention_factor == pytest.approx(factor)
    assert (r.attention_factor != 1.0) == (name == "yarn")
