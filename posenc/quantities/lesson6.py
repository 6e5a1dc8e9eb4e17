"""Numbers lesson 6 quotes: partial RoPE, MLA's decoupled RoPE, layer patterns with NoPE layers, the NoPE counter.

Every quantity comes from one posenc function: ``hybrid.head_dims`` for a
head's dims, ``hybrid.pattern_counts`` / ``pattern_period`` / ``rope_dim_shares`` for
layers, ``mla.for_model`` / ``mla.absorption_demo`` for MLA, ``rope.self_scores`` for a
vector scored against itself, ``hybrid.causal_counter`` for NoPE. figures_src/lesson6.py
draws from the same functions.
"""

from __future__ import annotations


import numpy as np

from .. import configs, examples as ex, hybrid, mla, rope, scaling, tokenize
from . import family, number
from .lesson1 import tiny

QWEN3_NEXT = "qwen3_next_80b_a3b"


def _dims(key: str) -> hybrid.HeadDims:
    return hybrid.head_dims(configs.load(key))


# --- which dims of a head turn (partial RoPE) ------------------------------------------------------


@number("glm45_plain_dims", ",", "GLM-4.5 每个头不旋转、不带位置信号的维数")
def _():
    return _dims("glm45").plain


@number("qwen3next_plain_dims", ",", "Qwen3-Next-80B-A3B 每个头不旋转的维数")
def _():
    return _dims(QWEN3_NEXT).plain


@number("qwen3next_rotary_share", ".0%", "Qwen3-Next-80B-A3B 每个头中旋转维所占比例")
def _():
    d = _dims(QWEN3_NEXT)
    return d.rotary / d.width


@number("qwen3next_rotary_last_dim", "d", "Qwen3-Next 每个头里最后一个旋转的维度编号（从 0 数）")
def _():
    return _dims(QWEN3_NEXT).rotary - 1


@number("qwen3next_last_dim", "d", "Qwen3-Next 每个头最后一个维度的编号")
def _():
    return _dims(QWEN3_NEXT).width - 1


@number("glm45_rotary_last_dim", "d", "GLM-4.5 每个头里最后一个旋转的维度编号")
def _():
    return _dims("glm45").rotary - 1


@number("glm45_last_dim", "d", "GLM-4.5 每个头最后一个维度的编号")
def _():
    return _dims("glm45").width - 1


TURNING_DIMS = family(("turning_dims_{}", "turning_dims_share_{}"), {
    "qwen3_8b": ("turning_dims_qwen3_8b", "turning_dims_share_qwen3_8b"),
    QWEN3_NEXT: ("turning_dims_qwen3_next_80b_a3b", "turning_dims_share_qwen3_next_80b_a3b"),
    "glm45": ("turning_dims_glm45", "turning_dims_share_glm45"),
})

for (_key, (_dims_name, _share_name)), _label in zip(TURNING_DIMS.items(), ("Qwen3-8B", "Qwen3-Next", "GLM-4.5")):

    def _reg(key=_key, label=_label, dims_name=_dims_name, share_name=_share_name):
        @number(dims_name, "d", f"{label} 每个头里，在原生上下文内至少转满一圈的维数")
        def _():
            return _dims(key).turning

        @number(share_name, ".1%", f"{label} 每个头里，在原生上下文内至少转满一圈的维数占全部维数的比例")
        def _():
            d = _dims(key)
            return d.turning / d.width

    _reg()


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
    return _step(QWEN3_NEXT)


@number("wavelength_step_qwen3next_dims_at_qwen3_8b_base", ".3f",
        "Qwen3-Next 的旋转维数、但底数取 Qwen3-8B 的 θ 时，相邻两对周期之比：只看维数变少的效果")
def _():
    ours, base = configs.load(QWEN3_NEXT), configs.load("qwen3_8b")
    inv = rope.inverse_frequencies(ours["head_dim"], base["rope_theta"], ours["rotary_fraction"])
    lam = rope.wavelengths(inv)
    return float(lam[1] / lam[0])


@number("rope_pairs_not_turning_window_mistral_7b_v01", "d",
        "Mistral 7B (v0.1) 在滑动窗口之内转不满一圈的频率对数（每一层都是滑动窗口，分数里的距离不超过窗口）")
def _():
    cfg = configs.load("mistral_7b_v01")
    inv = rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"], cfg.get("rotary_fraction", 1.0))
    return rope.pairs_not_completing_turn(inv, cfg["sliding_window"])


# --- partial rotary in 2021–2023: GPT-J-6B, GPT-NeoX-20B, Pythia ----------------------------------------------

EARLY_PARTIAL = family(("rope_rotary_dim_{}", "rope_rotary_share_{}"), {
    "gptj_6b": ("rope_rotary_dim_gptj_6b", "rope_rotary_share_gptj_6b"),
    "gpt_neox_20b": ("rope_rotary_dim_gpt_neox_20b", "rope_rotary_share_gpt_neox_20b"),
    "pythia_6_9b": ("rope_rotary_dim_pythia_6_9b", "rope_rotary_share_pythia_6_9b"),
}, members=ex.EARLY_PARTIAL_MODELS)

for _key, (_rot, _share) in EARLY_PARTIAL.items():

    def _reg_early(key=_key, rot=_rot, share=_share):
        name = configs.load(key).name

        @number(rot, "d", f"{name} 每个头旋转的维数")
        def _():
            return _dims(key).rotary

        @number(share, ".0%", f"{name} 每个头里旋转维所占比例")
        def _():
            d = _dims(key)
            return d.rotary / d.width

    _reg_early()


# --- which frequencies the unturned dims give up: partial_rotary_factor against p-RoPE (Qwen3-Next) ----------


def _ladders() -> dict[str, np.ndarray]:
    """Qwen3-Next's head three ways: the whole head turned, transformers' partial_rotary_factor
    (the full ladder over the rotary dims) and p-RoPE keeping as many pairs (the full head's fastest)."""
    cfg = configs.load(ex.PROPE_MODEL)
    d, theta, frac = cfg["head_dim"], cfg["rope_theta"], cfg["rotary_fraction"]
    prope = hybrid.p_rope_frequencies(d, theta, frac)
    return {"full": rope.inverse_frequencies(d, theta), "partial": rope.inverse_frequencies(d, theta, frac),
            "prope": prope[prope > 0]}


def _slowest_period(kind: str) -> float:
    return float(rope.wavelengths(_ladders()[kind])[-1])


def _not_turning(kind: str) -> int:
    return rope.pairs_not_completing_turn(_ladders()[kind], configs.load(ex.PROPE_MODEL)["context"])


@number("qwen3next_pairs_full_head", "d", "Qwen3-Next 整个头都旋转时的频率对数（对照）")
def _():
    return len(_ladders()["full"])


@number("qwen3next_slowest_period_full_head", ",.0f", "Qwen3-Next 整个头都旋转时，最慢一对的周期（token；θ 未核实）")
def _():
    return _slowest_period("full")


@number("qwen3next_pairs_not_turning_full_head", "d", "Qwen3-Next 整个头都旋转时，原生上下文里转不满一圈的对数")
def _():
    return _not_turning("full")


@number("qwen3next_slowest_period_partial", ",.0f", "Qwen3-Next 实际的部分 RoPE（partial_rotary_factor）最慢一对的周期")
def _():
    return _slowest_period("partial")


@number("qwen3next_prope_pairs", "d", "同样转 1/4 的对、按 p-RoPE 留下的对数（整个头最快的那些）")
def _():
    return len(_ladders()["prope"])


@number("qwen3next_slowest_period_prope", ",.0f", "p-RoPE 留下的最慢一对的周期（token）")
def _():
    return _slowest_period("prope")


@number("qwen3next_prope_pairs_not_turning", "d", "p-RoPE 留下的对里，原生上下文里转不满一圈的对数")
def _():
    return _not_turning("prope")


# --- a vector scored against itself: Σ|q_i|² cos(kω_i), not Σcos(kω_i) -------------------------------------


def _self_q() -> np.ndarray:
    return np.random.default_rng(ex.SELF_SCORE_SEED).standard_normal(ex.SIN_DIM)


def _self_inv() -> np.ndarray:
    return rope.inverse_frequencies(ex.SIN_DIM, ex.DEFAULT_BASE)


def _self_curve() -> np.ndarray:
    return rope.self_scores(_self_q(), np.arange(ex.MAX_DISTANCE + 1), _self_inv())


@number("l6_self_energies", ".2f", "示例 q 各频率对的 |q_i|²（第 0 对到最后一对，两位小数）")
def _():
    return tuple(float(e) for e in rope.pair_energies(_self_q(), len(_self_inv())))


@number("l6_self_heaviest_pair", "d", "示例 q 里 |q_i|² 最大的那一对（从 0 数）")
def _():
    return int(np.argmax(rope.pair_energies(_self_q(), len(_self_inv()))))


@number("l6_self_score_start", ".2f", "示例 q 和距离 0 的自己的分数 |q|²")
def _():
    return float(_self_curve()[0])


@number("l6_self_score_min", ".2f", "示例 q 和 k 个位置之后的自己的分数，在 0 … MAX_DISTANCE 内的最小值")
def _():
    return float(_self_curve().min())


@number("l6_self_score_min_k", "d", "上面那个最小值出现的距离 k")
def _():
    return int(np.argmin(_self_curve()))


@number("l6_self_score_min_share", ".0%", "示例 q 的分数最小值占它起点 |q|² 的比例")
def _():
    curve = _self_curve()
    return float(curve.min() / curve[0])


@number("l6_sum_cos_min_share", ".1%", "第 3 课 Σcos(kω_i) 曲线的最小值占它起点 d/2 的比例（同样的 d、底数和距离范围）")
def _():
    unit = np.zeros(ex.SIN_DIM)
    unit[0::2] = 1.0  # every pair (1, 0): |q_i| = 1, so the self-score is Σcos(kω_i)
    curve = rope.self_scores(unit, np.arange(ex.MAX_DISTANCE + 1), _self_inv())
    return float(curve.min() / curve[0])


# --- MLA: DeepSeek-V3's decoupled RoPE ----------------------------------------------------------------------


def _cache() -> mla.CacheComparison:
    return mla.for_model(configs.load(ex.MLA_MODEL))


@number("deepseek_qk_head_dim", "d", "DeepSeek-V3 每个头的 q/k 维数：内容部分 + RoPE 部分")
def _():
    return _dims(ex.MLA_MODEL).width


@number("rope_query_share_deepseek_v3", ".1%", "DeepSeek-V3 全部层、全部头的 query 维度里带 RoPE 的比例")
def _():
    return hybrid.rope_dim_shares(configs.load(ex.MLA_MODEL)).query_share


@number("mla_cache_elements_deepseek_v3", ",", "DeepSeek-V3 每个 token 的 MLA 缓存元素数 (d_c + d_R)·l")
def _():
    return _cache().mla


@number("mha_cache_elements_deepseek_v3", ",", "同样 128 个头的多头注意力每个 token 缓存的元素数 n_h·(d_k + d_v)·l")
def _():
    return _cache().mha_full_keys


@number("mla_cache_kib_deepseek_v3", ".1f", "DeepSeek-V3 每个 token 的 MLA 缓存，bf16，KiB")
def _():
    return _cache().bytes("bf16")["mla"] / 1024


@number("mha_cache_kib_deepseek_v3", ",.0f", "同样的头做多头注意力，每个 token 的缓存，bf16，KiB")
def _():
    return _cache().bytes("bf16")["mha_full_keys"] / 1024


@number("mla_cache_ratio_deepseek_v3", ".0f", "多头注意力缓存是 MLA 缓存的多少倍（同样的头，k 为内容 + RoPE，v 为 v_head_dim）")
def _():
    cmp = _cache()
    return cmp.mha_full_keys / cmp.mla


# The everyday alternative to MLA is grouped-query attention, not full multi-head attention: the same key and value
# widths with only Llama 3 8B's number of key/value heads (DeepSeek-V2 Table 1 compares MLA with GQA as well).
GQA_COUNTERFACTUAL_MODEL = "llama3_8b"


def _gqa_cache() -> int:
    v3, gqa = configs.load(ex.MLA_MODEL), configs.load(GQA_COUNTERFACTUAL_MODEL)
    return mla.mha_cache_elements(gqa["kv_heads"], _dims(ex.MLA_MODEL).width, v3["layers"], value_head_dim=v3["v_head_dim"])


@number("gqa_cache_elements_deepseek_v3", ",", "DeepSeek-V3 的头宽和层数、换成 Llama 3 8B 那样的 KV 头数做 GQA，每个 token 缓存的元素数")
def _():
    return _gqa_cache()


@number("gqa_cache_ratio_deepseek_v3", ".1f", "上面那个 GQA 缓存是 MLA 缓存的多少倍")
def _():
    return _gqa_cache() / _cache().mla


# DeepSeek-V2's Table 1 counts a key as wide as a value (2·n_h·d_h·l, 2·n_g·d_h·l), as real GQA models such as
# Llama 3 8B have; the factors above use DeepSeek-V3's wider keys (content + RoPE), so the page gives both.
def _equal_width_caches() -> tuple[int, int]:
    v3, gqa = configs.load(ex.MLA_MODEL), configs.load(GQA_COUNTERFACTUAL_MODEL)
    width = v3["v_head_dim"]
    return (mla.mha_cache_elements(v3["heads"], width, v3["layers"]),
            mla.gqa_cache_elements(gqa["kv_heads"], width, v3["layers"]))


@number("gqa_cache_elements_deepseek_v3_equal_kv", ",", "同上的 GQA，但按 DeepSeek-V2 表 1 的约定 k 和 v 一样宽（v_head_dim），每个 token 缓存的元素数")
def _():
    return _equal_width_caches()[1]


@number("gqa_cache_ratio_deepseek_v3_equal_kv", ".1f", "k 和 v 一样宽时，GQA 缓存是 MLA 缓存的多少倍（DeepSeek-V2 表 1 的约定）")
def _():
    return _equal_width_caches()[1] / _cache().mla


@number("mha_cache_ratio_deepseek_v3_equal_kv", ".0f", "k 和 v 一样宽时，多头注意力缓存是 MLA 缓存的多少倍（DeepSeek-V2 表 1 的约定）")
def _():
    return _equal_width_caches()[0] / _cache().mla


def _demo() -> mla.AbsorptionDemo:
    return mla.absorption_demo(base=ex.DEFAULT_BASE, **ex.MLA_DEMO)


@number("mla_demo_head_dim", "d", "吸收演示里那个小注意力头的维数")
def _():
    return ex.MLA_DEMO["head_dim"]


@number("mla_demo_length", "d", "吸收演示里的 token 数")
def _():
    return ex.MLA_DEMO["length"]


@number("mla_gap_plain", "", "不加 RoPE 时，吸收前后的分数最大差（舍入误差）")
def _():
    return tiny(_demo().plain)


@number("mla_gap_rope_on_keys", ".1f", "RoPE 加在压缩后的 key 上时，固定的 W_UQᵀW_UK 算出的分数与真分数的最大差")
def _():
    return _demo().rope_on_keys


@number("mla_max_score", ".1f", "同一个例子里分数绝对值的最大值（作尺度参照）")
def _():
    return _demo().max_score


@number("mla_gap_decoupled", "", "解耦 RoPE 后，吸收前后的分数最大差（舍入误差）")
def _():
    return tiny(_demo().decoupled)


# --- layers: which ones have attention, and which of those turn q and k with RoPE ---------------------------


def _counts(key: str) -> dict[str, int]:
    return hybrid.pattern_counts(configs.load(key))


@number("qwen3next_layers", "d", "Qwen3-Next 的总层数")
def _():
    return sum(_counts(QWEN3_NEXT).values())


@number("qwen3next_deltanet_layers", ",", "Qwen3-Next-80B-A3B 中 Gated DeltaNet 层数（不用注意力、不用 RoPE）")
def _():
    return _counts(QWEN3_NEXT)["linear"]


@number("qwen3next_full_attention_share", ".0%", "Qwen3-Next 中全注意力层所占比例")
def _():
    counts = _counts(QWEN3_NEXT)
    return counts["rope_global"] / sum(counts.values())


@number("qwen3next_first_full_layer", "d", "Qwen3-Next 第一个全注意力层的编号（从 1 数）")
def _():
    return hybrid.layer_pattern(configs.load(QWEN3_NEXT)).index("rope_global") + 1


ROPE_LAYERS = family(("rope_layers_{}",), {
    QWEN3_NEXT: "rope_layers_qwen3_next_80b_a3b",
    "llama4_scout": "rope_layers_llama4_scout",
    "smollm3_3b": "rope_layers_smollm3_3b",
    "command_r7b": "rope_layers_command_r7b",
    "command_a": "rope_layers_command_a",
}, members=(QWEN3_NEXT, *ex.NOPE_LAYER_MODELS))
NOPE_LAYERS = family(("nope_layers_{}",), {
    "llama4_scout": "nope_layers_llama4_scout",
    "smollm3_3b": "nope_layers_smollm3_3b",
    "command_r7b": "nope_layers_command_r7b",
    "command_a": "nope_layers_command_a",
    "kimi_linear_48b": "nope_layers_kimi_linear_48b",
    "jamba_v01": "nope_layers_jamba_v01",
}, members=ex.NOPE_LAYER_MODELS + ex.NOPE_ONLY_MODELS)
# the layers of Kimi Linear and Jamba that are not softmax attention (KDA, Mamba)
OTHER_LAYERS = family(("nope_other_layers_{}",), {
    "kimi_linear_48b": "nope_other_layers_kimi_linear_48b",
    "jamba_v01": "nope_other_layers_jamba_v01",
}, members=ex.NOPE_ONLY_MODELS)

for _key, (_name,) in ROPE_LAYERS.items():

    def _reg_layers(key=_key, name=_name):
        @number(name, "d", f"{key} 里用 RoPE 的注意力层数")
        def _():
            counts = _counts(key)
            return counts["rope_global"] + counts["rope_local"] + counts["rope_chunked"]

    _reg_layers()

for _key, (_name,) in NOPE_LAYERS.items():

    def _reg_nope(key=_key, name=_name):
        @number(name, "d", f"{key} 里不加位置编码（NoPE）的全局注意力层数")
        def _():
            return _counts(key)["nope_global"]

    _reg_nope()

for _key, (_name,) in OTHER_LAYERS.items():

    def _reg_other(key=_key, name=_name):
        @number(name, "d", f"{key} 里不是 softmax 注意力的层数（线性注意力或 Mamba）")
        def _():
            counts = _counts(key)
            return counts["linear"] + counts["mamba"]

    _reg_other()


@number("nope_layer_period", "d", "Llama 4、SmolLM3、Command 的层模式周期：每这么多层一层 NoPE")
def _():
    periods = {hybrid.pattern_period(configs.load(k)) for k in ex.NOPE_LAYER_MODELS}
    if len(periods) != 1:
        raise ValueError(f"the NoPE-layer models no longer share one period ({periods}); the lesson's sentence needs rewording")
    return periods.pop()


@number("gemma3_period", "d", "Gemma 3 的层模式周期（5 层局部 + 1 层全局）")
def _():
    return hybrid.pattern_period(configs.load("gemma3_27b"))


# Over the whole model, not one period: 62 layers is not a multiple of 6, so the share is 10/62, not 1/6.
@number("gemma3_global_share", ".1%", "Gemma 3 27B 全部层里全局层所占比例（5 层局部 : 1 层全局，共 62 层）")
def _():
    counts = hybrid.pattern_counts(configs.load("gemma3_27b"))
    return counts["rope_global"] / sum(counts.values())


@number("gptoss_full_attention_share", ".0%", "gpt-oss 中全注意力层所占比例（与 128 token 滑动窗口层交替）")
def _():
    cfg = configs.load("gpt_oss")
    counts = hybrid.pattern_counts(cfg, hybrid.pattern_period(cfg))
    return counts["rope_global"] / sum(counts.values())


@number("gemma3_local_pairs_not_turning_in_window", ",", "Gemma 3 27B 局部层（θ=10,000）在 1,024 个 token 的窗口内转不满一圈的频率对数")
def _():
    cfg = configs.load("gemma3_27b")
    inv = rope.inverse_frequencies(cfg["head_dim"], cfg["local_rope_theta"])
    return rope.pairs_not_completing_turn(inv, cfg["sliding_window"])


@number("gemma3_local_turning_pairs_in_window", "d", "Gemma 3 局部层在窗口内至少转满一圈的频率对数")
def _():
    cfg = configs.load("gemma3_27b")
    inv = rope.inverse_frequencies(cfg["head_dim"], cfg["local_rope_theta"])
    return len(inv) - rope.pairs_not_completing_turn(inv, cfg["sliding_window"])


@number("rope_pairs_total_gemma3_27b", ",", "Gemma 3 27B 每个头的 RoPE 频率对总数")
def _():
    return _dims("gemma3_27b").rotary // 2


@number("gemma3_global_pairs_not_turning_scaled", ",", "Gemma 3 全局层（θ=1,000,000，线性缩放 ×8）在 131,072 内转不满一圈的频率对数")
def _():
    cfg = configs.load("gemma3_27b")
    inv, _att = scaling.linear(cfg["head_dim"], cfg["rope_theta"], cfg["scaling"]["factor"])
    return rope.pairs_not_completing_turn(inv, cfg["context"])


@number("gemma3_scale_factor", "g", "Gemma 3 全局层的线性缩放倍数")
def _():
    return configs.load("gemma3_27b")["scaling"]["factor"]


# --- Qwen3-Next: the real share of q/k dims with RoPE, against the simple product --------------------------


def _shares() -> hybrid.RopeShares:
    return hybrid.rope_dim_shares(configs.load(QWEN3_NEXT))


@number("qwen3next_rope_layer_dim_share", ".2%", "Qwen3-Next：带 RoPE 的层所占比例 × 这些层每个头旋转维所占比例（简单乘积，不是真实占比）")
def _():
    return _shares().simple_product


@number("rope_query_share_qwen3_next_80b_a3b", ".0%", "Qwen3-Next 全部层、全部头的 query 维度里带 RoPE 的比例")
def _():
    return _shares().query_share


@number("rope_key_share_qwen3_next_80b_a3b", ".2%", "Qwen3-Next 全部层、全部头的 key 维度里带 RoPE 的比例")
def _():
    return _shares().key_share


@number("query_dims_qwen3_next_80b_a3b", ",", "Qwen3-Next 每个 token 在全部层里的 query 维数之和")
def _():
    return _shares().query_dims


@number("query_rope_dims_qwen3_next_80b_a3b", ",", "其中 RoPE 转的维数")
def _():
    return _shares().query_rope


@number("key_dims_qwen3_next_80b_a3b", ",", "Qwen3-Next 每个 token 在全部层里的 key 维数之和")
def _():
    return _shares().key_dims


@number("key_rope_dims_qwen3_next_80b_a3b", ",", "其中 RoPE 转的维数")
def _():
    return _shares().key_rope


@number("qwen3next_linear_qk_dims", ",", "Qwen3-Next 每个 Gated DeltaNet 层的 q（也是 k）维数：linear_num_key_heads × linear_key_head_dim")
def _():
    cfg = configs.load(QWEN3_NEXT)
    return cfg["linear_num_key_heads"] * cfg["linear_key_head_dim"]


# --- Llama 4: the query scale of its NoPE layers ------------------------------------------------------------


def _llama4_scale(position: int) -> float:
    cfg = configs.load("llama4_scout")
    return float(hybrid.llama4_attn_scale([position], cfg["floor_scale"], cfg["attn_scale"])[0])


def _llama4_onset() -> int:
    """The first position whose scale exceeds 1: ⌊(p + 1)/floor_scale⌋ first reaches 1 at p = floor_scale − 1."""
    onset = int(configs.load("llama4_scout")["floor_scale"]) - 1
    if not (_llama4_scale(onset - 1) == 1.0 < _llama4_scale(onset)):
        raise ValueError("posenc.hybrid.llama4_attn_scale no longer starts above 1 at floor_scale − 1")
    return onset


@number("llama4_scale_onset", ",", "Llama 4 NoPE 层的 query 缩放从这个位置起大于 1")
def _():
    return _llama4_onset()


@number("llama4_scale_at_onset", ".3f", "该位置的缩放倍数 1 + attn_scale·ln 2")
def _():
    return _llama4_scale(_llama4_onset())


@number("llama4_far_position", ",", "Llama 4 Scout 宣称的 10M 上下文里第一千万个 token 的位置（0 起算）")
def _():
    return ex.LLAMA4_FAR_POSITION


@number("llama4_scale_far", ".2f", "那个位置上 NoPE 层的 query 缩放倍数")
def _():
    return _llama4_scale(ex.LLAMA4_FAR_POSITION)


# --- NoPE: a causal head counts its predecessors ----------------------------------------------------------------

def _counter(lang: str):
    return hybrid.causal_counter(len(tokenize.tokens(ex.texts(lang).sentence)))


# one row per token of the example sentence
MARKERS = family(("nope_marker_{}", "nope_recovered_{}"), {
    0: ("nope_marker_0", "nope_recovered_0"),
    1: ("nope_marker_1", "nope_recovered_1"),
    2: ("nope_marker_2", "nope_recovered_2"),
    3: ("nope_marker_3", "nope_recovered_3"),
    4: ("nope_marker_4", "nope_recovered_4"),
    5: ("nope_marker_5", "nope_recovered_5"),
}, members=range(len(ex.SENTENCE)))  # the same count in every edition (tests/test_examples.py)

for _t, (_marker, _recovered) in MARKERS.items():

    def _reg_marker(t=_t, marker=_marker, recovered=_recovered):
        @number(marker, ".3f", f"因果、无位置编码、分数全相等时，位置 {t} 的 token 从句首标记拿到的份额 1/(t+1)")
        def _(lang):
            return float(_counter(lang)[t])

        @number(recovered, ".0f", f"由份额反推出的位置 1/份额 − 1（位置 {t}）")
        def _(lang):
            return hybrid.counter_position(float(_counter(lang)[t]))

    _reg_marker()


@number("nope_marker_bidirectional", ".3f", "不加因果掩码时，每个 token 拿到的份额（都是 1/n）")
def _(lang):
    out = hybrid.causal_counter(len(tokenize.tokens(ex.texts(lang).sentence)), causal=False)
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


# --- exercises ------------------------------------------------------------------------------------------------


def _layer_numbers(model: str, kind: str, n_layers: int | None = None) -> tuple[int, ...]:
    """The layers of ``kind`` in the model's layer pattern (its first ``n_layers``), numbered from 1 as a reader counts."""
    pattern = hybrid.layer_pattern(configs.load(model), n_layers)
    return tuple(i + 1 for i, k in enumerate(pattern) if k == kind)


@number("ex_gemma_layers", "d", "练习：Gemma 3 的前多少层")
def _():
    return ex.EX_GEMMA_LAYERS


@number("ex_gemma_globals", "d", "练习：Gemma 3 前 ex_gemma_layers 层里的全局层数")
def _():
    return hybrid.pattern_counts(configs.load("gemma3_27b"), ex.EX_GEMMA_LAYERS)["rope_global"]


@number("ex_gemma_global_layers", "d", "练习：这些全局层的编号（从 1 数）")
def _():
    return _layer_numbers("gemma3_27b", "rope_global", ex.EX_GEMMA_LAYERS)


@number("ex_nope_t", "d", "练习：计数示例里问的位置")
def _():
    return ex.EX_NOPE_T


@number("ex_nope_marker", ".3f", "练习：该位置从句首标记拿到的份额")
def _():
    return float(hybrid.causal_counter(ex.EX_NOPE_T + 1)[ex.EX_NOPE_T])


@number("ex_nope_gap", ".4f", "练习：该位置与下一个位置的份额差")
def _():
    return hybrid.counter_gap(ex.EX_NOPE_T)


@number("ex_kimi_mla_layer_numbers", "d", "练习：Kimi Linear 48B 里 MLA（全注意力、不加位置编码）层的编号（从 1 数）")
def _():
    return _layer_numbers("kimi_linear_48b", "nope_global")


def _neox(kind: str) -> np.ndarray:
    cfg = configs.load(ex.EX_PROPE_MODEL)
    d, theta, frac = cfg["head_dim"], cfg["rope_theta"], cfg["rotary_fraction"]
    if kind == "partial":
        return rope.inverse_frequencies(d, theta, frac)
    inv = hybrid.p_rope_frequencies(d, theta, frac)
    return inv[inv > 0]


@number("ex_neox_slowest_period_partial", ",.0f", "练习：GPT-NeoX-20B 自己的部分 RoPE（指数用旋转维数）最慢一对的周期")
def _():
    return float(rope.wavelengths(_neox("partial"))[-1])


@number("ex_neox_slowest_period_prope", ",.1f", "练习：GPT-NeoX-20B 的头改用 p-RoPE、留下同样多的对时，最慢一对的周期")
def _():
    return float(rope.wavelengths(_neox("prope"))[-1])


@number("ex_neox_pairs_not_turning_partial", "d", "练习：GPT-NeoX-20B 的部分 RoPE 在 2,048 的上下文里转不满一圈的对数")
def _():
    return rope.pairs_not_completing_turn(_neox("partial"), configs.load(ex.EX_PROPE_MODEL)["context"])


@number("ex_neox_pairs_not_turning_prope", "d", "练习：改用 p-RoPE 时在同样上下文里转不满一圈的对数")
def _():
    return rope.pairs_not_completing_turn(_neox("prope"), configs.load(ex.EX_PROPE_MODEL)["context"])


@number("ex_neox_pairs", "d", "练习：GPT-NeoX-20B 每个头旋转的对数")
def _():
    return len(_neox("partial"))


@number("ex_smollm3_nope_layer_numbers", "d", "练习：SmolLM3 里不加 RoPE 的层编号（从 1 数）")
def _():
    return _layer_numbers("smollm3_3b", "nope_global")
