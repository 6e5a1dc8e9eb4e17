"""posenc/experiment/train.py: the learning-rate schedules, the optimiser, gradient clipping, what each step trains on.

The training loop is observed from outside: a spy on AdamW.step sees the learning rate and the
gradient each update uses, a forward pre-hook sees each batch. Expected batches and losses are
computed here from the seed, not read back from the code under test.
"""

from __future__ import annotations

import dataclasses
import math

import pytest
import torch
import torch.nn.functional as F
from experiment_tiny import TINY, tokens

from posenc.experiment import config, model, train

FULL = config.preset("full")
TRAIN = tokens(300)


# --- learning-rate schedules ---------------------------------------------------------------------


def test_warmup_is_linear_from_lr_over_warmup_to_lr():
    # nanoGPT: lr·(step + 1)/warmup for step < warmup.
    assert train.learning_rate(FULL, 0) == pytest.approx(FULL.lr / FULL.warmup_steps)
    assert train.learning_rate(FULL, 9) == pytest.approx(FULL.lr * 10 / FULL.warmup_steps)
    assert train.learning_rate(FULL, FULL.warmup_steps - 1) == pytest.approx(FULL.lr)


def test_cosine_decay_starts_at_the_end_of_warmup_and_ends_at_the_floor():
    lr, floor, w, n = FULL.lr, FULL.lr * FULL.min_lr_ratio, FULL.warmup_steps, FULL.steps
    assert train.learning_rate(FULL, w) == pytest.approx(lr)  # progress 0: cos 0 = 1, the peak
    assert train.learning_rate(FULL, (w + n) // 2) == pytest.approx((lr + floor) / 2)  # progress ½: halfway down
    quarter = w + (n - w) // 4  # progress ¼: cos(π/4) = √½
    assert train.learning_rate(FULL, quarter) == pytest.approx(floor + (lr - floor) * (1 + math.sqrt(0.5)) / 2)
    assert train.learning_rate(FULL, n) == pytest.approx(floor)  # progress 1: the floor
    last = 0.5 * (1 + math.cos(math.pi * (n - 1 - w) / (n - w)))
    assert train.learning_rate(FULL, n - 1) == pytest.approx(floor + (lr - floor) * last)


def test_schedule_rises_then_falls():
    rates = [train.learning_rate(FULL, k) for k in range(FULL.steps)]
    w = FULL.warmup_steps
    assert all(a < b for a, b in zip(rates[:w], rates[1:w]))
    assert all(a > b for a, b in zip(rates[w:], rates[w + 1 :]))
    assert max(rates) == pytest.approx(FULL.lr) and min(rates[w:]) > FULL.lr * FULL.min_lr_ratio


def test_schedule_with_no_or_one_decay_step():
    cfg = dataclasses.replace(TINY, steps=2, warmup_steps=2, curve_every=1)
    assert [train.learning_rate(cfg, k) for k in range(3)] == pytest.approx([cfg.lr / 2, cfg.lr, cfg.lr])
    one = dataclasses.replace(TINY, steps=3, warmup_steps=2, curve_every=1)  # one decay step: from the peak to the floor
    assert [train.learning_rate(one, k) for k in (2, 3)] == pytest.approx([one.lr, one.lr * one.min_lr_ratio])


def test_extension_schedule_warms_up_to_where_pretraining_ended_then_stays():
    end = FULL.lr * FULL.min_lr_ratio
    assert FULL.ext_lr == pytest.approx(end) == pytest.approx(train.learning_rate(FULL, FULL.steps))
    w = FULL.ext_warmup_steps
    assert train.extension_learning_rate(FULL, 0) == pytest.approx(end / w)
    assert train.extension_learning_rate(FULL, 4) == pytest.approx(end * 5 / w)
    assert train.extension_learning_rate(FULL, w - 1) == pytest.approx(end)
    assert all(train.extension_learning_rate(FULL, k) == pytest.approx(end) for k in range(w, FULL.ext_steps))


# --- optimiser ---------------------------------------------------------------------------------------


def test_weight_decay_only_on_the_blocks_weight_matrices():
    m = model.build(TINY, "learned", 0)
    opt = train.optimizer(m, TINY)
    decayed, plain = ({id(p) for p in g["params"]} for g in opt.param_groups)
    assert [g["weight_decay"] for g in opt.param_groups] == [TINY.weight_decay, 0.0]
    for name, p in m.named_parameters():
        want = name.startswith("blocks.") and name.endswith(("qkv.weight", "proj.weight", "up.weight", "down.weight"))
        assert (id(p) in decayed, id(p) in plain) == (want, not want), name
    assert all(g["betas"] == (0.9, 0.95) for g in opt.param_groups)
    assert isinstance(opt, torch.optim.AdamW)


@pytest.mark.filterwarnings("ignore:CUDA is not available")
def test_autocast_only_for_bf16():
    a = torch.ones(4, 4)
    with train.autocast(TINY, torch.device("cpu")):
        assert (a @ a).dtype == torch.float32
    bf16 = dataclasses.replace(TINY, precision="bf16")
    with train.autocast(bf16, torch.device("cpu")):
        assert (a @ a).dtype == torch.bfloat16
    # bf16 on a GPU too, where autocast's default would be float16 (the context is made, not entered, without a GPU)
    assert train.autocast(bf16, torch.device("cuda")).fast_dtype == torch.bfloat16


# --- the training loop ---------------------------------------------------------------------------


class StepSpy:
    """Records, at each AdamW step, the learning rate of every group and the total gradient norm."""

    def __init__(self, monkeypatch):
        self.lrs, self.norms = [], []
        real = torch.optim.AdamW.step
        spy = self

        def step(opt, *args, **kwargs):
            spy.lrs.append([g["lr"] for g in opt.param_groups])
            grads = [p.grad for g in opt.param_groups for p in g["params"] if p.grad is not None]
            spy.norms.append(torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads])).item())
            return real(opt, *args, **kwargs)

        monkeypatch.setattr(torch.optim.AdamW, "step", step)


def expected_starts(seed: int, n_tokens: int, length: int, batch: int, steps: int) -> list[torch.Tensor]:
    """Window starts drawn from a generator seeded with ``seed`` alone, 0 … n − length − 1 (a target must follow)."""
    g = torch.Generator().manual_seed(seed)
    return [torch.randint(0, n_tokens - length, (batch,), generator=g) for _ in range(steps)]


def batch_loss(m, starts, length) -> tuple[float, float]:
    """(loss, gradient norm) of one batch, inputs tokens[s : s+L] and targets tokens[s+1 : s+L+1], computed here."""
    x = torch.stack([TRAIN[s : s + length] for s in starts.tolist()])
    y = torch.stack([TRAIN[s + 1 : s + length + 1] for s in starts.tolist()])
    m.zero_grad()
    loss = F.cross_entropy(m(x).reshape(-1, TINY.vocab_size), y.reshape(-1))
    loss.backward()
    norm = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(p.grad) for p in m.parameters() if p.grad is not None]))
    return loss.item(), norm.item()


def fit(cfg, steps=3, seed=0, **kw):
    m = model.build(cfg, "rope", 0)
    losses = train.fit(m, cfg, TRAIN, length=cfg.train_len, batch_size=cfg.batch_size, steps=steps,
                       lr_at=kw.pop("lr_at", lambda k: 0.01 * (k + 1)), seed=seed, **kw)
    return m, losses


def test_each_step_trains_on_the_seeds_windows():
    seen = []
    m = model.build(TINY, "rope", 0)
    m.register_forward_pre_hook(lambda mod, args: seen.append(args[0].clone()))
    train.fit(m, TINY, TRAIN, length=TINY.train_len, batch_size=TINY.batch_size, steps=3, lr_at=lambda k: 0.01, seed=11)
    starts = expected_starts(11, len(TRAIN), TINY.train_len, TINY.batch_size, 3)
    assert len(seen) == 3
    for x, s in zip(seen, starts):
        assert torch.equal(x, torch.stack([TRAIN[i : i + TINY.train_len] for i in s.tolist()]))


def test_losses_are_each_steps_batch_before_its_update():
    # three steps: a gradient left over from step k would first show in the loss of step k + 2
    m, losses = fit(TINY, steps=3, seed=5, lr_at=lambda k: 0.05)
    starts = expected_starts(5, len(TRAIN), TINY.train_len, TINY.batch_size, 3)
    again = model.build(TINY, "rope", 0)
    opt = train.optimizer(again, TINY)
    for k, s in enumerate(starts):
        for g in opt.param_groups:
            g["lr"] = 0.05
        loss, _ = batch_loss(again, s, TINY.train_len)
        torch.nn.utils.clip_grad_norm_(again.parameters(), TINY.grad_clip)
        opt.step()
        assert losses[k] == pytest.approx(loss, rel=1e-5), k
    assert len(losses) == 3


def test_every_step_uses_the_schedules_rate_in_every_group(monkeypatch):
    spy = StepSpy(monkeypatch)
    fit(TINY, steps=4, lr_at=lambda k: 0.001 * (k + 1) ** 2)
    assert spy.lrs == [[0.001 * (k + 1) ** 2] * 2 for k in range(4)]


def first_gradient_norm(seed=0) -> float:
    starts = expected_starts(seed, len(TRAIN), TINY.train_len, TINY.batch_size, 1)[0]
    return batch_loss(model.build(TINY, "rope", 0), starts, TINY.train_len)[1]


def test_gradient_above_the_limit_is_clipped_to_the_limit(monkeypatch):
    g0 = first_gradient_norm()
    cfg = dataclasses.replace(TINY, grad_clip=g0 / 4)  # the first batch's gradient is 4× the limit
    spy = StepSpy(monkeypatch)
    fit(cfg, steps=3)
    assert spy.norms[0] == pytest.approx(g0 / 4, rel=1e-4)
    assert all(n <= cfg.grad_clip * (1 + 1e-4) for n in spy.norms)


def test_gradient_below_the_limit_is_left_alone(monkeypatch):
    g0 = first_gradient_norm()
    cfg = dataclasses.replace(TINY, grad_clip=g0 * 4)
    spy = StepSpy(monkeypatch)
    fit(cfg, steps=1)
    assert spy.norms[0] == pytest.approx(g0, rel=1e-4)


def test_the_projects_limit_is_active_at_the_first_steps(monkeypatch):
    # At the full preset the first gradients are several times grad_clip = 1 (≈5.5), so clipping shapes training.
    assert FULL.grad_clip == 1.0
    big = dataclasses.replace(FULL, n_layers=1)
    m = model.build(big, "rope", 0)
    x = TRAIN[None, :128] % big.vocab_size
    loss = F.cross_entropy(m(x[:, :-1]).reshape(-1, big.vocab_size), x[:, 1:].reshape(-1))
    loss.backward()
    norm = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(p.grad) for p in m.parameters()]))
    assert norm > 2 * FULL.grad_clip


def test_checkpoints_come_every_k_steps_in_eval_mode():
    calls, modes, steps = [], [], []
    m, _ = fit(TINY, steps=7, every=3, on_checkpoint=lambda k, mod: (calls.append(k), modes.append(mod.training)),
               on_step=lambda k, loss: steps.append((k, loss)))
    assert calls == [3, 6] and modes == [False] * 2
    assert [k for k, _ in steps] == list(range(7)) and all(math.isfinite(v) for _, v in steps)
    assert not m.training  # fit leaves the model in eval mode


def test_checkpoint_sees_the_model_after_exactly_k_updates():
    seen = {}
    m, _ = fit(TINY, steps=4, every=2, on_checkpoint=lambda k, mod: seen.setdefault(k, [p.detach().clone() for p in mod.parameters()]))
    shorter, _ = fit(TINY, steps=2)
    assert all(torch.equal(a, b) for a, b in zip(seen[2], shorter.parameters()))
    assert all(torch.equal(a, b) for a, b in zip(seen[4], m.parameters()))


def test_train_builds_from_the_seed_and_runs_the_configs_schedule(monkeypatch):
    spy = StepSpy(monkeypatch)
    curve, steps = [], []
    m, losses = train.train(TINY, "learned", 2, TRAIN, on_checkpoint=lambda k, mod: curve.append(k),
                            on_step=lambda k, loss: steps.append((k, loss)))
    assert m.method == "learned" and len(losses) == TINY.steps
    assert curve == TINY.curve_steps()
    assert steps == list(enumerate(losses))
    assert [lrs[0] for lrs in spy.lrs] == pytest.approx([train.learning_rate(TINY, k) for k in range(TINY.steps)])
    assert losses[0] == pytest.approx(batch_loss(model.build(TINY, "learned", 2),
                                                 expected_starts(2, len(TRAIN), TINY.train_len, TINY.batch_size, 1)[0],
                                                 TINY.train_len)[0], rel=1e-6)
    _, fewer = train.train(TINY, "learned", 2, TRAIN, steps=2)
    assert fewer == losses[:2]


def test_train_puts_the_model_on_the_device_it_is_given():
    # On the meta device (shapes, no values) training gets as far as reading the first loss, which a
    # meta tensor cannot give; a model left on the CPU would train on the CPU instead.
    with pytest.raises((RuntimeError, NotImplementedError)) as err:
        train.train(TINY, "rope", 0, TRAIN, device="meta")
    assert any(text in str(err.value) for text in ("cannot be called on meta tensors", "Cannot copy out of meta tensor"))


def test_fit_moves_the_tokens_to_the_models_device():
    # CPU tokens, a model on the meta device: the batches must follow the model (to the first loss read-out).
    m = model.build(TINY, "rope", 0).to("meta")
    with pytest.raises((RuntimeError, NotImplementedError)) as err:
        train.fit(m, TINY, TRAIN, length=TINY.train_len, batch_size=2, steps=1, lr_at=lambda k: 1e-3, seed=0)
    assert any(text in str(err.value) for text in ("cannot be called on meta tensors", "Cannot copy out of meta tensor")), err.value



def test_fit_moves_each_batchs_offsets_to_the_models_device(monkeypatch):
    # The window offsets are drawn on the CPU (the data generator's device) and moved to the model's device before the
    # windows are cut: left on the CPU, a GPU run's indexing of the CUDA tokens failed (the fix of 4ff1035).
    from posenc.experiment import data as data_mod

    moved, draw = [], data_mod.batch_starts

    class Offsets:  # the drawn offsets, noting where fit moves them
        def __init__(self, starts):
            self.starts = starts

        def to(self, device):
            moved.append(device)
            return self.starts.to(device)

    monkeypatch.setattr(data_mod, "batch_starts", lambda *a: Offsets(draw(*a)))
    m = model.build(TINY, "rope", 0)
    train.fit(m, TINY, TRAIN, length=TINY.train_len, batch_size=2, steps=2, lr_at=lambda k: 1e-3, seed=0)
    assert moved == [torch.device("cpu")] * 2

def test_bf16_training_runs_under_autocast(monkeypatch):
    dtypes = []
    m = model.build(TINY, "rope", 0)
    m.register_forward_hook(lambda mod, args, out: dtypes.append(out.dtype))
    losses = train.fit(m, dataclasses.replace(TINY, precision="bf16"), TRAIN, length=TINY.train_len, batch_size=2,
                       steps=1, lr_at=lambda k: 1e-3, seed=0)
    assert dtypes == [torch.bfloat16] and math.isfinite(losses[0])
