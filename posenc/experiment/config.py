"""The experiment's settings: one frozen Config, two presets.

``full`` is lesson 3's setting: a ≈3.7M-parameter model, 400 steps of batch 16
at training length 128, evaluated per position on length-512 windows. ``quick``
tells the same story for a first look in a few minutes on two CPU cores: half
the width, half the batch, 300 steps. (Timings: see the package docstring.)
Every field lands in the results file, and ``verify`` refuses results whose
config differs from the preset here.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..demo import PROJECT_D_MODEL, PROJECT_EMBED_STD, PROJECT_TRAIN_LEN
from ..sinusoidal import DEFAULT_BASE

# Position methods, in the order pages list them.
METHODS = ("nope", "learned", "sinusoidal", "sinusoidal_scaled", "rope")
# Evaluation-time RoPE scalings applied to the trained RoPE model (no fine-tuning).
ROPE_SCALINGS = ("pi", "ntk", "yarn")
PRECISIONS = ("fp32", "bf16")


@dataclass(frozen=True)
class Config:
    preset: str
    # Model: 4 pre-LN blocks of width 256 ≈ 3.7M parameters with a 2,048-token vocabulary.
    d_model: int = PROJECT_D_MODEL
    n_layers: int = 4
    n_heads: int = 4  # head_dim 64: RoPE turns 32 pairs per head
    mlp_ratio: int = 4
    vocab_size: int = 2048  # 2,047 most frequent training characters + <unk>: ≈95% coverage
    embed_std: float = PROJECT_EMBED_STD
    sin_base: float = DEFAULT_BASE
    rope_base: float = DEFAULT_BASE
    # Data and optimisation.
    train_len: int = PROJECT_TRAIN_LEN
    eval_len: int = 512  # 4× the training length: positions 128–511 were never trained
    eval_stride: int = 128  # validation windows start every 128 tokens
    validation_every: int = 10  # every 10th record goes to validation
    steps: int = 400
    batch_size: int = 16
    lr: float = 3e-3
    warmup_steps: int = 40
    min_lr_ratio: float = 0.1  # cosine decay ends at 10% of lr
    weight_decay: float = 0.1  # on the blocks' weight matrices only (see train.py)
    grad_clip: float = 1.0
    # fp32: bf16 autocast is ≈2× faster only on CPUs with native bf16 (AVX512-BF16/AMX);
    # on AVX2-only CPUs it is emulated and far slower, and verify must re-run anywhere.
    precision: str = "fp32"

    def __post_init__(self):
        if self.d_model % self.n_heads or (self.d_model // self.n_heads) % 2:
            raise ValueError(
                f"d_model={self.d_model} must split into n_heads={self.n_heads} heads of even width "
                f"(RoPE rotates pairs); pick n_heads dividing d_model/2"
            )
        if self.precision not in PRECISIONS:
            raise ValueError(f"precision must be one of {PRECISIONS}, got {self.precision!r}")
        if self.eval_len < self.train_len:
            raise ValueError(f"eval_len={self.eval_len} must be at least train_len={self.train_len}")

    @property
    def head_dim(self) -> int:
        return self.d_model // self.n_heads

    @property
    def scaling_factor(self) -> float:
        """s = L_eval / L_train: how far PI, NTK-aware and YaRN stretch RoPE at evaluation."""
        return self.eval_len / self.train_len

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


PRESETS = {
    # Lesson 3's setting; the committed results (results/full.json) use it.
    "full": Config(preset="full"),
    # The same story for a first look, ≈5× cheaper: half the width, half the batch,
    # 300 steps, and half the evaluation windows (they start every 256 tokens).
    "quick": Config(preset="quick", d_model=128, batch_size=8, steps=300, eval_stride=256),
}


def preset(name: str) -> Config:
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; choose one of {sorted(PRESETS)}")
    return PRESETS[name]


def check_methods(methods) -> tuple[str, ...]:
    methods = tuple(methods)
    bad = [m for m in methods if m not in METHODS]
    if bad or not methods:
        raise ValueError(f"unknown position method(s) {bad or methods!r}; choose from {', '.join(METHODS)}")
    return methods
