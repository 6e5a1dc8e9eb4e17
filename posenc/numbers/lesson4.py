"""Numbers lesson 4 (RoPE) quotes; lesson 3's timeline quotes the qwen3_* / qwen3next_* ones.

A pair "does not complete a turn" when its wavelength λ_i = 2π/ω_i exceeds the
context L (posenc.rope.pairs_not_completing_turn). Per-model numbers use the
native context from models.yaml unless the name says otherwise.
"""

from __future__ import annotations

from .. import configs, rope
from . import number


def _inv_freq(key: str, base: float | None = None):
    cfg = configs.load(key)
    return rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"] if base is None else base, cfg.get("rotary_fraction", 1.0))


def _not_turning(key: str, context: int | None = None, base: float | None = None) -> int:
    cfg = configs.load(key)
    return rope.pairs_not_completing_turn(_inv_freq(key, base), cfg["context"] if context is None else context)


# --- the two models lesson 3's timeline quotes -------------------------------------------------------


@number("qwen3_pairs_not_turning", ",", "Qwen3-8B（head_dim 128，θ=1,000,000）在 32,768 个 token 内转不满一圈的频率对数")
def _():
    return _not_turning("qwen3_8b")


@number("qwen3_pairs_total", ",", "Qwen3-8B 每个头的 RoPE 频率对总数（head_dim/2）")
def _():
    return len(_inv_freq("qwen3_8b"))


@number("qwen3next_pairs_not_turning", ",", "Qwen3-Next-80B-A3B（旋转 64 维，θ=10,000,000）在 262,144 个 token 内转不满一圈的频率对数")
def _():
    return _not_turning("qwen3_next_80b_a3b")


@number("qwen3next_pairs_total", ",", "Qwen3-Next-80B-A3B 每个头的 RoPE 频率对总数（256 维 × 25% ÷ 2）")
def _():
    return len(_inv_freq("qwen3_next_80b_a3b"))


# --- Qwen3-8B in more detail ------------------------------------------------------------------------


@number("qwen3_first_not_turning_pair", ",", "Qwen3-8B 第一个在 32,768 个 token 内转不满一圈的频率对编号（从 0 数）")
def _():
    lam = rope.wavelengths(_inv_freq("qwen3_8b"))
    return int((lam > configs.load("qwen3_8b")["context"]).argmax())


@number("qwen3_wavelength_last_turning", ",.0f", "Qwen3-8B 最后一个能转满一圈的频率对的周期（token）")
def _():
    lam = rope.wavelengths(_inv_freq("qwen3_8b"))
    return float(lam[lam <= configs.load("qwen3_8b")["context"]].max())


@number("qwen3_wavelength_first_not_turning", ",.0f", "Qwen3-8B 第一个转不满一圈的频率对的周期（token）")
def _():
    lam = rope.wavelengths(_inv_freq("qwen3_8b"))
    return float(lam[lam > configs.load("qwen3_8b")["context"]].min())


@number("qwen3_slowest_wavelength", ",.0f", "Qwen3-8B 最慢一对转一圈要多少个 token")
def _():
    return float(rope.wavelengths(_inv_freq("qwen3_8b"))[-1])


@number("qwen3_pairs_not_turning_at_config_max", ",", "Qwen3-8B 按 config 的 max_position_embeddings（40,960）计算时转不满一圈的频率对数")
def _():
    return _not_turning("qwen3_8b", configs.load("qwen3_8b")["max_position_embeddings"])


@number("qwen3_pairs_not_turning_at_yarn_context", ",", "Qwen3-8B 在 YaRN 目标长度 131,072 内转不满一圈的频率对数（不缩放时）")
def _():
    return _not_turning("qwen3_8b", configs.load("qwen3_8b")["scaled_context"])


@number("qwen3next_pairs_not_turning_theta5e6", ",", "若 Qwen3-Next 的 θ 是 5,000,000（Qwen3-Coder-Next 的值），262,144 内转不满一圈的频率对数")
def _():
    return _not_turning("qwen3_next_80b_a3b", base=5_000_000)


@number("llama31_pairs_not_turning_128k", ",", "Llama 3.1 8B（θ=500,000，不计缩放）在 131,072 个 token 内转不满一圈的频率对数")
def _():
    return _not_turning("llama31_8b", configs.load("llama31_8b")["max_position_embeddings"])


# --- every RoPE model in models.yaml: rope_pairs_not_turning_<key>, rope_pairs_total_<key> -------------


def _register_model(key: str) -> None:
    name = configs.load(key).name

    @number(f"rope_pairs_not_turning_{key}", ",", f"{name} 在原生上下文长度内转不满一圈的 RoPE 频率对数")
    def _():
        return _not_turning(key)

    @number(f"rope_pairs_total_{key}", ",", f"{name} 每个头的 RoPE 频率对总数")
    def _():
        return len(_inv_freq(key))

    @number(f"rope_rotary_dim_{key}", ",", f"{name} 每个头参与旋转的维数")
    def _():
        cfg = configs.load(key)
        return rope.rotary_dim(cfg["head_dim"], cfg.get("rotary_fraction", 1.0))


for _key in configs.keys():
    if configs.load(_key).position == "rope":
        _register_model(_key)


# --- the small example of lesson 4 (same as lesson 3's 16-dim clock) -----------------------------------


@number("rope_demo_slowest_wavelength", ",.0f", "16 维、base 10,000 时最慢一对转一圈要多少个 token")
def _():
    return float(rope.wavelengths(rope.inverse_frequencies(16, 10_000))[-1])
