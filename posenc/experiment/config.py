"""The experiment's settings: one frozen Config, two presets.

``full`` is the lessons' setting: a ≈3.7M-parameter model, 400 steps of batch 16
at training length 128, evaluated per position on length-512 windows, then the
RoPE model extended to length 512 by a short continued training. ``quick``
tells the same story for a first look in a few minutes on two CPU cores.
(Timings: see the package docstring.) Every field lands in the results file,
and ``verify`` refuses results whose config differs from the preset here.

This is also the one home of the project model's parameters (width, init
scale, training length): lessons quote them from here through posenc.examples.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..sinusoidal import DEFAULT_BASE

# Position methods, in the order pages list them.
METHODS = ("nope", "learned", "sinusoidal", "sinusoidal_scaled", "alibi", "rope", "rope_partial")
# Evaluation-time RoPE scalings applied to the trained RoPE model (no fine-tuning).
ROPE_SCALINGS = ("pi", "ntk", "yarn")
# Context extension by continued training of the RoPE model at ext_len: the plain
# frequencies (control), PI, NTK-aware, YaRN, and a raised base (ABF).
EXTENSIONS = ("rope", "pi", "ntk", "yarn", "abf")
PRECISIONS = ("fp32", "bf16")


@dataclass(frozen=True)
class Config:
    preset: str
    # Model: 4 pre-LN blocks of width 256 ≈ 3.7M parameters with a 2,048-token vocabulary.
    d_model: int = 256
    n_layers: int = 4
    n_heads: int = 4  # head_dim 64: RoPE turns 32 pairs per head; ALiBi slopes 1/4, 1/16, 1/64, 1/256
    mlp_ratio: int = 4
    vocab_size: int = 2048  # 2,047 most frequent training characters + <unk>: ≈95% coverage
    embed_std: float = 0.02  # N(0, 0.02²) token embedding, as GPT-2 and nanoGPT
    sin_base: float = DEFAULT_BASE
    rope_base: float = DEFAULT_BASE
    # rope_partial turns the first 25% of each head's dims (16 of 64: 8 pairs), as
    # transformers' partial_rotary_factor does (Qwen3-Next uses 0.25); the rest carry no position.
    partial_rotary_fraction: float = 0.25
    # Data and optimisation.
    train_len: int = 128
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
    # Learning curve: validation loss at positions 0–127 after every curve_every steps.
    curve_every: int = 25
    # Context extension (extend.py): continue training the RoPE model at ext_len for
    # ext_steps steps of ext_batch_size windows (4 × 512 = 16 × 128: the same tokens per
    # step as pre-training), at the learning rate pre-training ended with (lr · min_lr_ratio)
    # after ext_warmup_steps of linear warm-up (Adam's moments start from zero again).
    ext_len: int = 512
    ext_batch_size: int = 4
    ext_steps: int = 100
    ext_warmup_steps: int = 10
    ext_curve_every: int = 10  # in-distribution loss (positions 0–127) every 10 steps
    ext_eval_len: int = 1024  # per-position loss before and after, to twice the new length
    # ABF's new base, by Code Llama's rule: it raised θ 100× (10,000 → 1,000,000) to train
    # a 4× longer context (4,096 → 16,384; Rozière et al. 2023 §2.4). Ours is also 4× (128 → 512).
    abf_base: float = 1_000_000.0
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
        if not self.train_len < self.ext_len <= self.ext_eval_len:
            raise ValueError(
                f"need train_len < ext_len ≤ ext_eval_len, got {self.train_len}, {self.ext_len}, {self.ext_eval_len}: "
                f"the extension trains longer than pre-training and evaluates at least that far"
            )
        for name in ("curve_every", "ext_curve_every"):
            every, total = getattr(self, name), self.steps if name == "curve_every" else self.ext_steps
            if every < 1 or total % every:
                raise ValueError(f"{name}={every} must be a positive divisor of the step count {total}, so the curve ends at the last step")
        if self.abf_base <= self.rope_base:
            raise ValueError(f"abf_base={self.abf_base} must exceed rope_base={self.rope_base}: ABF raises the base")

    @property
    def head_dim(self) -> int:
        return self.d_model // self.n_heads

    @property
    def scaling_factor(self) -> float:
        """s = L_eval / L_train: how far PI, NTK-aware and YaRN stretch RoPE at evaluation."""
        return self.eval_len / self.train_len

    @property
    def ext_factor(self) -> float:
        """s = ext_len / train_len: the stretch the extension stage trains for."""
        return self.ext_len / self.train_len

    @property
    def ext_lr(self) -> float:
        """The extension's learning rate: where pre-training's cosine schedule ended."""
        return self.lr * self.min_lr_ratio

    def curve_steps(self) -> list[int]:
        """Steps after which the learning curve is measured: curve_every, 2·curve_every, …, steps."""
        return list(range(self.curve_every, self.steps + 1, self.curve_every))

    def ext_curve_steps(self) -> list[int]:
        """Extension steps at which its in-distribution loss is measured: 0 (before), …, ext_steps."""
        return list(range(0, self.ext_steps + 1, self.ext_curve_every))

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


PRESETS = {
    # Lesson 3's setting; the committed results (results/full.json) use it.
    "full": Config(preset="full"),
    # The same story for a first look, ≈5× cheaper: half the width, half the batch,
    # 250 steps, a 30-step extension, and half the evaluation windows (they start every 256 tokens).
    "quick": Config(preset="quick", d_model=128, batch_size=8, steps=250, eval_stride=256, ext_batch_size=2, ext_steps=30),
}


def preset(name: str) -> Config:
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; choose one of {sorted(PRESETS)}")
    return PRESETS[name]


def check_extensions(variants) -> tuple[str, ...]:
    variants = tuple(variants)
    bad = [v for v in variants if v not in EXTENSIONS]
    if bad:
        raise ValueError(f"unknown extension variant(s) {bad!r}; choose from {', '.join(EXTENSIONS)}")
    return variants


def check_methods(methods) -> tuple[str, ...]:
    methods = tuple(methods)
    bad = [m for m in methods if m not in METHODS]
    if bad or not methods:
        raise ValueError(f"unknown position method(s) {bad or methods!r}; choose from {', '.join(METHODS)}")
    return methods
