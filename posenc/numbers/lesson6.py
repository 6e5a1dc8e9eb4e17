"""Numbers lesson 6 (partial RoPE, decoupled RoPE, local/global layers) quotes."""

from __future__ import annotations

from .. import configs, rope
from . import number


def _rotary_dim(key: str) -> int:
    cfg = configs.load(key)
    return rope.rotary_dim(cfg["head_dim"], cfg.get("rotary_fraction", 1.0))


# --- partial RoPE: GLM-4.5 (50%) and Qwen3-Next (25%) ---------------------------------------------------


@number("glm45_rotary_dims", ",", "GLM-4.5 每个头参与旋转的维数（128 × 0.5）")
def _():
    return _rotary_dim("glm45")


@number("glm45_plain_dims", ",", "GLM-4.5 每个头不旋转、不带位置信号的维数")
def _():
    return configs.load("glm45")["head_dim"] - _rotary_dim("glm45")


@number("qwen3next_rotary_dims", ",", "Qwen3-Next-80B-A3B 每个头参与旋转的维数（256 × 0.25）")
def _():
    return _rotary_dim("qwen3_next_80b_a3b")


@number("qwen3next_plain_dims", ",", "Qwen3-Next-80B-A3B 每个头不旋转的维数")
def _():
    return configs.load("qwen3_next_80b_a3b")["head_dim"] - _rotary_dim("qwen3_next_80b_a3b")


@number("qwen3next_rotary_share", ".0%", "Qwen3-Next-80B-A3B 每个头中旋转维所占比例")
def _():
    return _rotary_dim("qwen3_next_80b_a3b") / configs.load("qwen3_next_80b_a3b")["head_dim"]


@number("qwen3next_full_attention_layers", ",", "Qwen3-Next-80B-A3B 中（带 RoPE 的）全注意力层数：每 4 层一层")
def _():
    cfg = configs.load("qwen3_next_80b_a3b")
    return cfg["layers"] // cfg["full_attention_interval"]


@number("qwen3next_deltanet_layers", ",", "Qwen3-Next-80B-A3B 中 Gated DeltaNet 层数（不用注意力、不用 RoPE）")
def _():
    cfg = configs.load("qwen3_next_80b_a3b")
    return cfg["layers"] - cfg["layers"] // cfg["full_attention_interval"]


# --- decoupled RoPE: DeepSeek-V3 ---------------------------------------------------------------------


@number("deepseek_rope_dims", ",", "DeepSeek-V3 每个头单独带 RoPE 的维数（qk_rope_head_dim）")
def _():
    return _rotary_dim("deepseek_v3")


@number("deepseek_nope_dims", ",", "DeepSeek-V3 每个头不带位置的维数（qk_nope_head_dim）")
def _():
    return configs.load("deepseek_v3")["nope_head_dim"]


@number("deepseek_rope_share", ".1%", "DeepSeek-V3 的 query/key 中 RoPE 部分所占比例 64 ÷ (64 + 128)")
def _():
    cfg = configs.load("deepseek_v3")
    return _rotary_dim("deepseek_v3") / (_rotary_dim("deepseek_v3") + cfg["nope_head_dim"])


# --- local / global layers: Gemma 3 27B and gpt-oss ----------------------------------------------------


@number("gemma3_global_share", ".1%", "Gemma 3 27B 中全局层所占比例（5 层局部 : 1 层全局）")
def _():
    return 1 / (configs.load("gemma3_27b")["local_layers_per_global"] + 1)


@number("gemma3_local_pairs_not_turning_in_window", ",", "Gemma 3 27B 局部层（θ=10,000）在 1,024 个 token 的窗口内转不满一圈的频率对数")
def _():
    cfg = configs.load("gemma3_27b")
    inv = rope.inverse_frequencies(cfg["head_dim"], cfg["local_rope_theta"])
    return rope.pairs_not_completing_turn(inv, cfg["sliding_window"])


@number("gemma3_pairs_total", ",", "Gemma 3 27B 每个头的 RoPE 频率对总数")
def _():
    return _rotary_dim("gemma3_27b") // 2


@number("gptoss_full_attention_share", ".0%", "gpt-oss 中全注意力层所占比例（与 128 token 滑动窗口层交替）")
def _():
    return 1 / (configs.load("gpt_oss")["local_layers_per_global"] + 1)
