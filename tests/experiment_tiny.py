"""A tiny experiment for the behaviour tests of posenc/experiment/ (tests/test_experiment_*.py).

A width-8, two-head, one-layer model on a 16-character vocabulary runs in milliseconds, so
the tests can train, evaluate, extend and sweep it whole and compare with answers worked out
by hand or by an independent float64 computation.
"""

from __future__ import annotations

import dataclasses

import torch

from posenc.experiment import config, data

# head_dim 4: RoPE turns 2 pairs per head, rope_partial 1 (half the dims). Lengths: train 8, evaluate 16, extend to 16, evaluate that to 32.
TINY = dataclasses.replace(
    config.preset("full"), preset="tiny", d_model=8, n_layers=1, n_heads=2, vocab_size=16,
    partial_rotary_fraction=0.5, train_len=8, eval_len=16, eval_stride=8, steps=4, batch_size=2, warmup_steps=2, curve_every=2,
    ext_len=16, ext_eval_len=32, ext_batch_size=2, ext_steps=2, ext_warmup_steps=1, ext_curve_every=1,
)


def tokens(n: int, seed: int = 0, vocab: int = 16) -> torch.Tensor:
    """n random token ids in 1 … vocab−1 (no <unk>)."""
    return torch.randint(1, vocab, (n,), generator=torch.Generator().manual_seed(seed))


def dataset(n_train: int = 400, n_val: int = 90, seed: int = 0) -> data.Dataset:
    """A random-token dataset for TINY: 90 validation tokens give 10 windows of 16 + 1 at stride 8, 8 of 32 + 1."""
    vocab = (data.UNK, *(chr(0x4E00 + i) for i in range(TINY.vocab_size - 1)))
    return data.Dataset(vocab, tokens(n_train, seed), tokens(n_val, seed + 1))
