"""posenc/experiment/extend.py: the extension stage continues the RoPE model with a variant's frequencies.

Observed from outside: a spy on the batch draw sees the generator, window length and batch size of
every step; a spy on AdamW.step sees each step's learning rate.
"""

from __future__ import annotations

import copy
import dataclasses
import time

import numpy as np
import pytest
import torch
from experiment_tiny import TINY, dataset

from posenc.experiment import data, evaluate, extend, model, scalings, train

DS = dataset()
# The extension stretches 4× (evaluation: 2×) with 3 windows a step (pre-training: 2), so that no two settings coincide.
CFG = dataclasses.replace(TINY, ext_len=32, ext_eval_len=32, ext_batch_size=3, ext_steps=4, ext_curve_every=2, ext_warmup_steps=2)


@pytest.fixture(scope="module")
def state():
    trained, _ = train.train(CFG, "rope", 3, DS.train)
    return copy.deepcopy(trained.state_dict())


class Draws:
    """Every batch draw: (the generator's seed, window length, batch size, starts)."""

    def __init__(self, monkeypatch):
        self.calls = []
        real = data.batch_starts

        def spy(n_tokens, length, batch_size, generator):
            if not any(c[4] is generator for c in self.calls):
                seed = generator.initial_seed()
            else:
                seed = next(c[0] for c in self.calls if c[4] is generator)
            starts = real(n_tokens, length, batch_size, generator)
            self.calls.append((seed, length, batch_size, starts, generator))
            return starts

        monkeypatch.setattr(data, "batch_starts", spy)


def base_model(state, variant):
    m = model.build(CFG, "rope", 3)
    m.load_state_dict(state)
    m.eval()
    return m, evaluate.rotary(scalings.extension(CFG, variant))


@pytest.mark.parametrize("variant", ["pi", "yarn"])
def test_before_is_the_pretrained_model_with_the_variants_frequencies(state, variant):
    t0 = time.perf_counter()
    out = extend.extend(CFG, copy.deepcopy(state), variant, 3, DS.train, DS.val)
    elapsed = time.perf_counter() - t0
    m, r = base_model(state, variant)
    np.testing.assert_allclose(out["position_loss_before"], evaluate.position_losses(m, DS.val, CFG, rotary=r, length=CFG.ext_eval_len),
                               rtol=1e-6)
    assert out["in_distribution_curve"][0] == pytest.approx(evaluate.in_distribution_loss(m, DS.val, CFG, rotary=r), rel=1e-6)
    assert len(out["position_loss_before"]) == len(out["position_loss_after"]) == CFG.ext_eval_len
    assert len(out["train_loss"]) == CFG.ext_steps and 0 <= out["seconds"] <= elapsed


def test_it_trains_ext_steps_of_ext_batch_windows_of_ext_len_at_the_extension_rate(state, monkeypatch):
    draws = Draws(monkeypatch)
    lrs = []
    real_step = torch.optim.AdamW.step

    def step(opt, *a, **kw):
        lrs.append(opt.param_groups[0]["lr"])
        return real_step(opt, *a, **kw)

    monkeypatch.setattr(torch.optim.AdamW, "step", step)
    extend.extend(CFG, copy.deepcopy(state), "ntk", 3, DS.train, DS.val)
    assert [(c[1], c[2]) for c in draws.calls] == [(CFG.ext_len, CFG.ext_batch_size)] * CFG.ext_steps
    assert lrs == pytest.approx([train.extension_learning_rate(CFG, k) for k in range(CFG.ext_steps)])


def test_after_and_the_curve_measure_the_model_the_variant_trained(state):
    out = extend.extend(CFG, copy.deepcopy(state), "abf", 3, DS.train, DS.val)
    m, r = base_model(state, "abf")
    m.rotary = r
    curve = [evaluate.in_distribution_loss(m, DS.val, CFG)]
    losses = train.fit(m, CFG, DS.train, length=CFG.ext_len, batch_size=CFG.ext_batch_size, steps=CFG.ext_steps,
                       lr_at=lambda k: train.extension_learning_rate(CFG, k), seed=3 + extend.DATA_SEED_OFFSET,
                       every=CFG.ext_curve_every, on_checkpoint=lambda k, mm: curve.append(evaluate.in_distribution_loss(mm, DS.val, CFG)))
    assert out["train_loss"] == pytest.approx(losses, rel=1e-6)
    assert out["in_distribution_curve"] == pytest.approx(curve, rel=1e-6)
    assert len(curve) == len(CFG.ext_curve_steps())
    np.testing.assert_allclose(out["position_loss_after"], evaluate.position_losses(m, DS.val, CFG, length=CFG.ext_eval_len), rtol=1e-6)
    assert not np.allclose(out["position_loss_after"], out["position_loss_before"])


def test_extension_batches_are_drawn_independently_of_pretrainings(state, monkeypatch):
    # Pre-training of seed s draws its windows from a generator seeded with s. The extension of any seed
    # must not replay one of those streams (its first windows would retrace pre-training's), and the
    # extensions of two seeds must not share one.
    draws = Draws(monkeypatch)
    seeds = [0, 1, 2, 3]
    for s in seeds:
        train.train(CFG, "rope", s, DS.train, steps=1)
    pre = {c[0] for c in draws.calls}
    draws.calls.clear()
    for s in seeds:
        extend.extend(CFG, copy.deepcopy(state), "rope", s, DS.train, DS.val)
    ext = [c[0] for c in draws.calls[:: CFG.ext_steps]]
    assert len(pre) == len(set(ext)) == len(seeds)
    assert not pre & set(ext)


def test_the_control_keeps_the_pretrained_frequencies(state):
    m, r = base_model(state, "rope")
    np.testing.assert_array_equal(r.inv_freq.numpy(), m.rotary.inv_freq.numpy())
    assert r.attention_factor == 1.0


def test_each_step_is_reported_with_its_loss(state):
    seen = []
    out = extend.extend(CFG, copy.deepcopy(state), "yarn", 3, DS.train, DS.val, on_step=lambda k, loss: seen.append((k, loss)))
    assert seen == list(enumerate(out["train_loss"]))


def test_every_measurement_runs_on_the_device_it_is_given(state, monkeypatch):
    # The meta device (shapes and devices, no values) stands in for a GPU: the loaded model must be moved there,
    # and each measurement (before, the curve's points, after) asked to run there. Training is stubbed: the meta
    # model cannot give a loss, and fit's own device handling has its tests.
    seen = []

    def measure(what):
        def spy(m, tokens, cfg, device="cpu", *args, **kw):
            seen.append((what, next(m.parameters()).device, torch.device(device)))
            return np.zeros(CFG.ext_eval_len) if what == "position" else 0.0
        return spy

    def fit(m, cfg, tokens, *, every, on_checkpoint, **kw):
        on_checkpoint(every, m)
        return []

    monkeypatch.setattr(extend, "position_losses", measure("position"))
    monkeypatch.setattr(extend, "in_distribution_loss", measure("in distribution"))
    monkeypatch.setattr(extend, "fit", fit)
    extend.extend(CFG, copy.deepcopy(state), "rope", 3, DS.train, DS.val, device="meta")
    meta = torch.device("meta")
    assert seen == [("position", meta, meta), ("in distribution", meta, meta), ("in distribution", meta, meta),
                    ("position", meta, meta)]
