"""Numbers lesson 6 (partial RoPE, decoupled RoPE, local/global layers) quotes."""

from __future__ import annotations

from .. import configs, examples as ex, hybrid, rope, scaling
from . import number
from .lesson1 import tiny


def _rotary_dim(key: str) -> int:
    cfg = configs.load(key)
    return rope.rotary_dim(cfg["head_dim"], cfg.get("rotary_fraction", 1.0))


# --- partial RoPE: GLM-4.5 (50%) and Qwen3-Next (25%) ---------------------------------------------------


# GLM-4.5's and Qwen3-Next's rotary widths are lesson 4's rope_rotary_dim_glm45 / _qwen3_next_80b_a3b.


@number("glm45_plain_dims", ",", "GLM-4.5 每个头不旋转、不带位置信号的维数")
def _():
    return configs.load("glm45")["head_dim"] - _rotary_dim("glm45")


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


# DeepSeek-V3's RoPE part is lesson 4's rope_rotary_dim_deepseek_v3 (qk_rope_head_dim).


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


@number("rope_pairs_total_gemma3_27b", ",", "Gemma 3 27B 每个头的 RoPE 频率对总数")
def _():
    return _rotary_dim("gemma3_27b") // 2


@number("gptoss_full_attention_share", ".0%", "gpt-oss 中全注意力层所占比例（与 128 token 滑动窗口层交替）")
def _():
    return 1 / (configs.load("gpt_oss")["local_layers_per_global"] + 1)


# --- which dims turn, and how many of them turn at least once within the context ---------------------------


def _turning_dims(key: str) -> int:
    """Dims of one head whose pair completes at least one turn within the native context."""
    cfg = configs.load(key)
    inv = rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"], cfg.get("rotary_fraction", 1.0))
    return 2 * (len(inv) - rope.pairs_not_completing_turn(inv, cfg["context"]))


def _head_width(key: str) -> int:
    return int(hybrid.model_rotary_mask(configs.load(key)).size)


@number("qwen3next_rotary_last_dim", "d", "Qwen3-Next 每个头里最后一个旋转的维度编号（从 0 数）")
def _():
    return int(hybrid.model_rotary_mask(configs.load("qwen3_next_80b_a3b")).nonzero()[0].max())


@number("qwen3next_last_dim", "d", "Qwen3-Next 每个头最后一个维度的编号")
def _():
    return _head_width("qwen3_next_80b_a3b") - 1


@number("glm45_rotary_last_dim", "d", "GLM-4.5 每个头里最后一个旋转的维度编号")
def _():
    return int(hybrid.model_rotary_mask(configs.load("glm45")).nonzero()[0].max())


@number("glm45_last_dim", "d", "GLM-4.5 每个头最后一个维度的编号")
def _():
    return _head_width("glm45") - 1


for _key, _label in (("qwen3_8b", "Qwen3-8B"), ("qwen3_next_80b_a3b", "Qwen3-Next"), ("glm45", "GLM-4.5")):

    def _reg(key=_key, label=_label):
        @number(f"turning_dims_{key}", "d", f"{label} 每个头里，在原生上下文内至少转满一圈的维数")
        def _():
            return _turning_dims(key)

        @number(f"turning_dims_share_{key}", ".1%", f"{label} 每个头里，在原生上下文内至少转满一圈的维数占全部维数的比例")
        def _():
            return _turning_dims(key) / _head_width(key)

    _reg()


# --- layers: which ones have attention with RoPE --------------------------------------------------------------


@number("qwen3next_layers", "d", "Qwen3-Next 的总层数")
def _():
    return len(hybrid.layer_kinds(configs.load("qwen3_next_80b_a3b")))


@number("qwen3next_full_attention_share", ".0%", "Qwen3-Next 中全注意力层所占比例")
def _():
    kinds = hybrid.layer_kinds(configs.load("qwen3_next_80b_a3b"))
    return kinds.count("global") / len(kinds)


@number("qwen3next_first_full_layer", "d", "Qwen3-Next 第一个全注意力层的编号（从 1 数）")
def _():
    return hybrid.layer_kinds(configs.load("qwen3_next_80b_a3b")).index("global") + 1


@number("gemma3_period", "d", "Gemma 3 的层模式周期（5 层局部 + 1 层全局）")
def _():
    return configs.load("gemma3_27b")["local_layers_per_global"] + 1


@number("gemma3_local_turning_pairs_in_window", "d", "Gemma 3 局部层在窗口内至少转满一圈的频率对数")
def _():
    cfg = configs.load("gemma3_27b")
    inv = rope.inverse_frequencies(cfg["head_dim"], cfg["local_rope_theta"])
    return len(inv) - rope.pairs_not_completing_turn(inv, cfg["sliding_window"])


@number("gemma3_global_pairs_not_turning_scaled", ",", "Gemma 3 全局层（θ=1,000,000，线性缩放 ×8）在 131,072 内转不满一圈的频率对数")
def _():
    cfg = configs.load("gemma3_27b")
    inv, _att = scaling.linear(cfg["head_dim"], cfg["rope_theta"], cfg["scaling"]["factor"])
    return rope.pairs_not_completing_turn(inv, cfg["context"])


@number("gemma3_scale_factor", "g", "Gemma 3 全局层的线性缩放倍数")
def _():
    return configs.load("gemma3_27b")["scaling"]["factor"]


# --- NoPE: a causal head counts its predecessors ----------------------------------------------------------------

def _counter():
    return hybrid.causal_counter(len(ex.SENTENCE))


for _t in range(len(ex.SENTENCE)):

    def _reg_marker(t=_t):
        @number(f"nope_marker_{t}", ".3f", f"因果、无位置编码、分数全相等时，位置 {t} 的 token 从句首标记拿到的份额 1/(t+1)")
        def _():
            return float(_counter()[t])

        @number(f"nope_recovered_{t}", ".0f", f"由份额反推出的位置 1/份额 − 1（位置 {t}）")
        def _():
            return hybrid.counter_position(float(_counter()[t]))

    _reg_marker()


@number("nope_marker_bidirectional", ".3f", "不加因果掩码时，每个 token 拿到的份额（都是 1/n）")
def _():
    out = hybrid.causal_counter(len(ex.SENTENCE), causal=False)
    if abs(out.max() - out.min()) > 1e-12:
        raise ValueError("the bidirectional counter should give every token the same share; posenc.hybrid.causal_counter changed")
    return float(out[0])


@number("nope_gap_near", ".3f", "近位置 t 与 t+1 的份额差")
def _():
    return hybrid.counter_gap(ex.NEAR_POSITION)


@number("nope_gap_far_t", ",", "比较相邻份额的远位置（Qwen3-8B 的原生上下文）")
def _():
    return _far()


@number("nope_gap_far", "", "远位置 t 与 t+1 的份额差")
def _():
    return tiny(hybrid.counter_gap(_far()))


def _far() -> int:
    return configs.load(ex.COUNTER_FAR_MODEL)["context"]


# --- how coarse the spectrum of a partial head is ------------------------------------------------------------


def _step(key: str) -> float:
    """Ratio of neighbouring wavelengths λ_{i+1}/λ_i = θ^(2/d_rot) (the spectrum is geometric)."""
    cfg = configs.load(key)
    lam = rope.wavelengths(rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"], cfg.get("rotary_fraction", 1.0)))
    return float(lam[1] / lam[0])


@number("wavelength_step_qwen3_8b", ".3f", "Qwen3-8B 相邻两对周期之比 θ^(2/d)")
def _():
    return _step("qwen3_8b")


@number("wavelength_step_qwen3next", ".3f", "Qwen3-Next 相邻两对周期之比 θ^(2/d_rot)（θ 未核实）")
def _():
    return _step("qwen3_next_80b_a3b")


@number("qwen3next_rope_layer_dim_share", ".2%", "Qwen3-Next 全部层 × 每个头的维度里，带 RoPE 的比例（全注意力层占比 × 旋转维占比）")
def _():
    cfg = configs.load("qwen3_next_80b_a3b")
    kinds = hybrid.layer_kinds(cfg)
    return kinds.count("global") / len(kinds) * hybrid.model_rotary_mask(cfg).mean()


# --- exercises ------------------------------------------------------------------------------------------------

@number("ex_gemma_layers", "d", "练习：Gemma 3 的前多少层")
def _():
    return ex.EX_GEMMA_LAYERS


@number("ex_gemma_globals", "d", "练习：Gemma 3 前 ex_gemma_layers 层里的全局层数")
def _():
    return hybrid.layer_kinds(configs.load("gemma3_27b"), ex.EX_GEMMA_LAYERS).count("global")


@number("ex_gemma_global_layers", "", "练习：这些全局层的编号（从 1 数）")
def _():
    kinds = hybrid.layer_kinds(configs.load("gemma3_27b"), ex.EX_GEMMA_LAYERS)
    return "、".join(str(i + 1) for i, k in enumerate(kinds) if k == "global")


@number("ex_nope_t", "d", "练习：计数示例里问的位置")
def _():
    return ex.EX_NOPE_T


@number("ex_nope_marker", ".3f", "练习：该位置从句首标记拿到的份额")
def _():
    return float(hybrid.causal_counter(ex.EX_NOPE_T + 1)[ex.EX_NOPE_T])


@number("ex_nope_gap", ".4f", "练习：该位置与下一个位置的份额差")
def _():
    return hybrid.counter_gap(ex.EX_NOPE_T)
