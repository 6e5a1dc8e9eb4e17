"""Numbers quoted by lesson 3 (sinusoidal position encoding) and the home page timeline.

Two models appear side by side, and each name says which: the ``sin_`` demo at
d = examples.SIN_DIM (small enough to draw every pair), and ``project_`` numbers of the
model the training experiment trains (examples.PROJECT, the experiment's PRESETS["full"]).
"""

from __future__ import annotations

import numpy as np

from posenc import clock, configs, learned, naive, rope, shift, sinusoidal
from posenc import examples as ex
from posenc import tokenize
from posenc.formatting import PerLanguage
from posenc.quantities import number
from posenc.sinusoidal import DEFAULT_BASE, PAPER_DIM

GPT2 = "gpt2"


@number("sin_base", ",.0f", "公式里的底数 base")
def _():
    return DEFAULT_BASE


@number("sin_demo_d", "d", "演示用的维度 d")
def _():
    return ex.SIN_DIM


@number("sin_demo_pairs", "d", "演示维度下的频率对数 d/2")
def _():
    return len(sinusoidal.angular_frequencies(ex.SIN_DIM))


@number("sin_demo_last_pair", "d", "演示维度下最后一对的下标 i")
def _():
    return len(sinusoidal.angular_frequencies(ex.SIN_DIM)) - 1


@number("sin_paper_d", "d", "原论文 base 模型的 d_model")
def _():
    return PAPER_DIM


@number("sin_paper_pairs", "d", "原论文 d_model 下的对数")
def _():
    return len(sinusoidal.angular_frequencies(PAPER_DIM))


@number("sin_fastest_period", ".2f", "最快的频率对（第 0 对）转一圈的 token 数（2π）")
def _():
    return sinusoidal.periods(ex.SIN_DIM)[0]


@number("sin_second_period", ".2f", "第 1 对的周期")
def _():
    return sinusoidal.periods(ex.SIN_DIM)[1]


@number("sin_slowest_period", ",.0f", "演示维度下最慢一对转一圈的 token 数")
def _():
    return sinusoidal.periods(ex.SIN_DIM)[-1]


@number("sin_paper_slowest_period", ",.0f", "d=512 时最慢一对的周期（不是 10000·2π）")
def _():
    return sinusoidal.periods(PAPER_DIM)[-1]


@number("sin_paper_limit_period", ",.0f", "§3.5 所说的上限 base·2π")
def _():
    return sinusoidal.period_limit(DEFAULT_BASE)


@number("sin_period_ratio", ".2f", "相邻两对周期之比 base^(2/d)")
def _():
    return sinusoidal.period_ratio(ex.SIN_DIM)


@number("sin_far_position", ",", "演示的远位置")
def _():
    return ex.FAR_POSITION


@number("sin_far_max_abs", ".3f", "演示维度下，远位置 FAR_POSITION 的编码里绝对值最大的一个")
def _():
    return np.abs(sinusoidal.encode(ex.FAR_POSITION, ex.SIN_DIM)).max()


@number("sin_near_position", "d", "编码示例里最近的位置")
def _():
    return ex.NEAR_POSITION


@number("sin_shift", "d", "热力图里整句平移的距离")
def _():
    return ex.SHIFT


@number("sin_shift_max_diff", ".1e", "演示维度下，例句整句平移 SHIFT 前后两两点积 PE(a)·PE(b) 的最大差值")
def _(lang):
    return clock.dot_matrix_shift_change(len(tokenize.tokens(ex.texts(lang).sentence)), ex.SHIFT, ex.SIN_DIM)


@number("sin_far_shift_max_diff", ".1e", "演示维度下，例句从位置 0 整句挪到 FAR_POSITION 前后两两点积的最大差值（热力图填远位置时的读数）")
def _(lang):
    return clock.dot_matrix_shift_change(len(tokenize.tokens(ex.texts(lang).sentence)), ex.FAR_POSITION, ex.SIN_DIM)


@number("sin_self_dot", ".0f", "PE(p)·PE(p) = d/2")
def _():
    return sinusoidal.dot(0, 0, ex.SIN_DIM)


@number("sin_rotation_max_err", ".1e", "用旋转矩阵 M_k 从 PE(p) 算 PE(p+k) 的最大误差（p = FAR_POSITION, k = SHIFT）")
def _():
    return clock.rotation_error(ex.FAR_POSITION, ex.SHIFT, ex.SIN_DIM)


@number("sin_max_distance", "d", "点积曲线画到的最大距离 k")
def _():
    return ex.MAX_DISTANCE


# --- the init-scale trap (§3.4's √d_model) ---------------------------------------------


@number("embed_init_std", ".2f", "项目里 token embedding 的初始化标准差")
def _():
    return ex.PROJECT_EMBED_STD


@number("sin_rms", ".2f", "sin/cos 分量的均方根 1/√2")
def _():
    return sinusoidal.SINUSOID_RMS


@number("sin_content_ratio", ".1%", "初始化时内容与正弦位置信号的尺度比")
def _():
    return sinusoidal.content_to_position_ratio(ex.PROJECT_EMBED_STD)


@number("project_d_model", "d", "项目小模型的 d_model")
def _():
    return ex.PROJECT_D_MODEL


@number("project_sqrt_d_model", ".0f", "√d_model：§3.4 在相加前给 embedding 乘的系数")
def _():
    return sinusoidal.embedding_scale(ex.PROJECT_D_MODEL)


@number("sin_content_ratio_scaled", ".0%", "乘以 √d_model 之后内容与位置信号的尺度比")
def _():
    return sinusoidal.content_to_position_ratio(ex.PROJECT_EMBED_STD * sinusoidal.embedding_scale(ex.PROJECT_D_MODEL))


@number("paper_sqrt_d_model", ".2f", "原论文 d_model = 512 时的 √d_model")
def _():
    return sinusoidal.embedding_scale(PAPER_DIM)


@number("project_train_len", "d", "项目实验的训练长度")
def _():
    return ex.PROJECT_TRAIN_LEN


# --- torch walk-through --------------------------------------------------------------------


@number("walkthrough_max_len", ",", "walk-through 里检查有界性的位置数")
def _():
    return ex.WALKTHROUGH_MAX_LEN


@number("walkthrough_d", "d", "walk-through 的维度")
def _():
    return ex.WALKTHROUGH_DIM


# --- what lesson 2 left: GPT-2's table and the naive index ---------------------------------


@number("gpt2_context", ",", "GPT-2 位置表的行数")
def _():
    return configs.load(GPT2)["context"]


@number("gpt2_last_row", ",", "GPT-2 位置表最后一行的位置")
def _():
    return configs.load(GPT2)["context"] - 1


@number("gpt2_hidden", ",", "GPT-2 位置向量的维度")
def _():
    return configs.load(GPT2)["hidden"]


@number("gpt2_table_params", ",", "GPT-2 位置表的参数量")
def _():
    return learned.table_parameters(configs.load(GPT2))


@number("naive_probe_position", "d", "朴素方案的观察位置")
def _():
    return ex.NAIVE_PROBE_POSITION


@number("naive_ratio_unit", ".1%", "内容 RMS = 1 时，观察位置上内容占位置信号的比例")
def _():
    return naive.raw_index_content_ratio(ex.NAIVE_PROBE_POSITION, 1.0)


@number("naive_ratio_init", ".3%", "按项目初始化尺度时，观察位置上内容占位置信号的比例")
def _():
    return naive.raw_index_content_ratio(ex.NAIVE_PROBE_POSITION, ex.PROJECT_EMBED_STD)


# --- the naive lookup table, probed at a few positions (lesson 3's opening table) ----------

def _lookup_mark(p: int) -> PerLanguage:
    if learned.has_row(configs.load(GPT2), p):
        return PerLanguage(zh="✓ 有这一行", en="✓ has this row")
    return PerLanguage(zh="✗ 查无此行", en="✗ no such row")


@number("lookup_first", ",", "查表示例的第一个位置")
def _():
    return ex.LOOKUP_FIRST


@number("lookup_second", ",", "查表示例的第二个位置")
def _():
    return ex.LOOKUP_SECOND


@number("lookup_mark_first", "", "GPT-2 位置表里有没有第一个位置")
def _():
    return _lookup_mark(ex.LOOKUP_FIRST)


@number("lookup_mark_second", "", "GPT-2 位置表里有没有第二个位置")
def _():
    return _lookup_mark(ex.LOOKUP_SECOND)


@number("lookup_mark_last", "", "GPT-2 位置表里有没有最后一行的位置")
def _():
    return _lookup_mark(configs.load(GPT2)["context"] - 1)


@number("lookup_mark_context", "", "GPT-2 位置表里有没有位置 context（表长本身）")
def _():
    return _lookup_mark(configs.load(GPT2)["context"])


@number("lookup_mark_far", "", "GPT-2 位置表里有没有演示的远位置")
def _():
    return _lookup_mark(ex.FAR_POSITION)


# --- the formula's terms and the clock ------------------------------------------------------


@number("sin_omega_first", ".0f", "最快一对的角速度 ω_0（弧度/token）")
def _():
    return sinusoidal.angular_frequencies(ex.SIN_DIM)[0]


@number("sin_omega_last", ".6f", "演示维度下最慢一对的角速度（弧度/token）")
def _():
    return sinusoidal.angular_frequencies(ex.SIN_DIM)[-1]


@number("sin_fastest_step_deg", ".1f", "第 0 对每走一个 token 转过的角度（度）")
def _():
    return np.degrees(sinusoidal.angular_frequencies(ex.SIN_DIM)[0])


@number("sin_paper_slowest_shortfall", ".1%", "d=512 时最慢一对的周期比 §3.5 的上限 base·2π 短多少")
def _():
    return 1 - sinusoidal.periods(PAPER_DIM)[-1] / sinusoidal.period_limit(DEFAULT_BASE)


@number("sin_pe_norm", ".2f", "每个位置编码向量的长度 √(d/2)")
def _():
    return np.linalg.norm(sinusoidal.encode(ex.NEAR_POSITION, ex.SIN_DIM))


@number("sin_nearest_k", ",", "位置 0 … FAR 之间，编码最接近的两个位置相隔多少")
def _():
    return clock.nearest_neighbour(ex.FAR_POSITION + 1, ex.SIN_DIM)[0]


@number("sin_nearest_distance", ".2f", "位置 0 … FAR 之间，两个编码的最小欧氏距离")
def _():
    return clock.nearest_neighbour(ex.FAR_POSITION + 1, ex.SIN_DIM)[1]


# --- the project's model: how many of its pairs turn within the training length ---------------


@number("project_sin_pairs_total", "d", "项目模型的正弦位置编码有多少个频率对（d_model/2）")
def _():
    return len(sinusoidal.angular_frequencies(ex.PROJECT.d_model, ex.PROJECT.sin_base))


@number("project_sin_pairs_not_turning", "d", "项目模型的正弦位置编码里，在训练长度内一圈都没转满的频率对数")
def _():
    return clock.pairs_not_turning(ex.PROJECT.train_len, ex.PROJECT.d_model, ex.PROJECT.sin_base)


@number("project_sin_slowest_turn", ".2%", "项目模型的正弦位置编码里，最慢一对在训练长度内转过的圈数")
def _():
    return clock.turns_within(ex.PROJECT.train_len, ex.PROJECT.d_model, ex.PROJECT.sin_base)[-1]


@number("project_rope_head_dim", "d", "项目 RoPE 模型每个头的维数（d_model / n_heads）")
def _():
    return ex.PROJECT.head_dim


@number("project_rope_pairs_total", "d", "项目 RoPE 模型每个头的频率对数")
def _():
    return rope.spectrum(rope.inverse_frequencies(ex.PROJECT.head_dim, ex.PROJECT.rope_base), ex.PROJECT.train_len).pairs


@number("project_rope_pairs_not_turning", "d", "项目 RoPE 模型每个头在训练长度内一圈都没转满的频率对数")
def _():
    return rope.spectrum(rope.inverse_frequencies(ex.PROJECT.head_dim, ex.PROJECT.rope_base), ex.PROJECT.train_len).count_not_turning


# --- the dot-product curve ------------------------------------------------------------------


@number("sin_dot_k1", ".2f", "相邻两个位置的编码点积")
def _():
    return sinusoidal.dot_closed_form(1, ex.SIN_DIM)


@number("sin_dot_first_rise_k", "d", "点积曲线第一次回升之前的距离 k")
def _():
    return clock.first_rise(ex.MAX_DISTANCE, ex.SIN_DIM)


@number("sin_dot_first_rise_k_next", "d", "点积曲线第一次回升之后的距离 k+1")
def _():
    return clock.first_rise(ex.MAX_DISTANCE, ex.SIN_DIM) + 1


@number("sin_dot_at_first_rise", ".3f", "回升前一点的点积")
def _():
    return clock.dot_curve(ex.MAX_DISTANCE, ex.SIN_DIM)[clock.first_rise(ex.MAX_DISTANCE, ex.SIN_DIM)]


@number("sin_dot_after_first_rise", ".3f", "回升后一点的点积")
def _():
    return clock.dot_curve(ex.MAX_DISTANCE, ex.SIN_DIM)[clock.first_rise(ex.MAX_DISTANCE, ex.SIN_DIM) + 1]


@number("sin_dot_min_k", "d", "画出的范围 k = 0 … MAX_DISTANCE 内点积最低的距离（只对这个范围成立）")
def _():
    return clock.lowest_dot(ex.MAX_DISTANCE, ex.SIN_DIM)[0]


@number("sin_dot_min", ".2f", "画出的范围 k = 0 … MAX_DISTANCE 内点积的最低值（只对这个范围成立）")
def _():
    return clock.lowest_dot(ex.MAX_DISTANCE, ex.SIN_DIM)[1]


def _below_plotted_min() -> tuple[int, float]:
    """Past the plotted range: the first distance whose dot product falls below the plotted minimum, and that dot product."""
    k = clock.first_dot_below(clock.lowest_dot(ex.MAX_DISTANCE, ex.SIN_DIM)[1], ex.SIN_DIM, limit=ex.FAR_POSITION)
    return k, clock.dot_curve(k, ex.SIN_DIM)[k]


@number("sin_dot_below_min_k", ",", "画出的范围之外，点积第一次低于范围内最低值的距离 k")
def _():
    return _below_plotted_min()[0]


@number("sin_dot_below_min", ".2f", "那个距离上的点积")
def _():
    return _below_plotted_min()[1]


@number("sin_dot_far_min_k", ",", "k = 0 … FAR_POSITION 内点积最低的距离")
def _():
    return clock.lowest_dot(ex.FAR_POSITION, ex.SIN_DIM)[0]


@number("sin_dot_far_min", ".2f", "k = 0 … FAR_POSITION 内点积的最低值")
def _():
    return clock.lowest_dot(ex.FAR_POSITION, ex.SIN_DIM)[1]


# --- the rotation block, shown with numbers for pair 0 and k = SHIFT -------------------------


@number("sin_block_angle", ".0f", "第 0 对在平移 SHIFT 个位置时转过的角度 k·ω_0（弧度）")
def _():
    return ex.SHIFT * sinusoidal.angular_frequencies(ex.SIN_DIM)[0]


@number("sin_block_cos", ".3f", "M_k 第 0 块的 cos(k·ω_0)")
def _():
    return sinusoidal.shift_rotation(ex.SHIFT, ex.SIN_DIM)[0, 0]


@number("sin_block_sin", ".3f", "M_k 第 0 块的 sin(k·ω_0)")
def _():
    return sinusoidal.shift_rotation(ex.SHIFT, ex.SIN_DIM)[0, 1]


# --- relative position: 小明 and 小王 in the demo sentence ------------------------------------

def _rel_positions(lang: str, start: int) -> tuple[int, int]:
    """Where REL_A and REL_B start in the ``lang`` edition's sentence, if it begins at position ``start``."""
    t = ex.texts(lang)
    toks = tokenize.tokens(t.sentence)
    out = []
    for name, word in (("rel_a", t.rel_a), ("rel_b", t.rel_b)):
        part = tokenize.tokens(word)
        at = [k for k in range(len(toks)) if toks[k:k + len(part)] == part]
        if not at:
            raise ValueError(f"posenc.examples.texts({lang!r}).sentence = {t.sentence!r} has no {word!r}; lesson 3's "
                             f"relative-position example needs its {name} in the sentence")
        out.append(start + at[0])
    return out[0], out[1]


@number("rel_a_pos", "d", "例句里「小明」（英文版：dog）的位置")
def _(lang):
    return _rel_positions(lang, 0)[0]


@number("rel_b_pos", "d", "例句里「小王」的位置")
def _(lang):
    return _rel_positions(lang, 0)[1]


@number("rel_a_pos_shifted", "d", "句首多一个 token 后「小明」的位置")
def _(lang):
    return _rel_positions(lang, 1)[0]


@number("rel_b_pos_shifted", "d", "句首多一个 token 后「小王」的位置")
def _(lang):
    return _rel_positions(lang, 1)[1]


@number("rel_gap", "d", "「小明」和「小王」相隔的 token 数")
def _(lang):
    a, b = _rel_positions(lang, 0)
    return b - a


# --- after a query/key projection the shift invariance is gone ------------------------------
# The position part of the score, (PE(a) W_q)·(PE(b) W_k)/√d, with a seeded head (posenc.shift).
# Lesson 4's table uses the same head construction for the whole score (content and position).


@number("sin_projection_seed", "d", "第 3 课证据二里随机注意力头 W_q、W_k 的种子")
def _():
    return ex.PROJECTION_SEED


@number("sin_pos_score_shift_change", ".2f",
        "位置部分的分数 (PE(a)W_q)·(PE(b)W_k)/√d：例句整句平移 SHIFT 后的最大变化（d = SIN_DIM，种子 PROJECTION_SEED）")
def _(lang):
    return shift.position_part_shift_change(ex.texts(lang).sentence, ex.SHIFT, ex.SIN_DIM, ex.PROJECTION_SEED)


@number("sin_pos_score_max_abs", ".2f", "平移前位置部分分数的最大绝对值（尺度参照，同上设定）")
def _(lang):
    return float(np.abs(shift.position_part_scores(ex.texts(lang).sentence, 0, ex.SIN_DIM, ex.PROJECTION_SEED)).max())


# --- exercises ------------------------------------------------------------------------------


@number("ex_dot_k", ",", "练习：位置 NEAR 和位置 GPT-2 context 相隔多少")
def _():
    return configs.load(GPT2)["context"] - ex.NEAR_POSITION


@number("ex_dot_value", ".3f", "练习：Σcos(kω_i)，k 为上面的距离")
def _():
    return sinusoidal.dot_closed_form(configs.load(GPT2)["context"] - ex.NEAR_POSITION, ex.SIN_DIM)


@number("ex_dot_angle", ".0f", "练习：这两个位置编码之间的夹角（度）")
def _():
    far = configs.load(GPT2)["context"]
    a, b = sinusoidal.encode(ex.NEAR_POSITION, ex.SIN_DIM), sinusoidal.encode(far, ex.SIN_DIM)
    return float(np.degrees(np.arccos(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))))


@number("ex_dot_check_diff", ".1e", "练习：直接算两个 SIN_DIM 维向量的点积与 Σcos 的差")
def _():
    far = configs.load(GPT2)["context"]
    direct = sinusoidal.dot(ex.NEAR_POSITION, far, ex.SIN_DIM)
    return abs(direct - sinusoidal.dot_closed_form(far - ex.NEAR_POSITION, ex.SIN_DIM))


@number("ex_paper_scaled_ratio", ".0%", "练习：d_model=512 时乘 √d_model 后内容与位置信号的尺度比")
def _():
    return sinusoidal.content_to_position_ratio(ex.PROJECT_EMBED_STD * sinusoidal.embedding_scale(PAPER_DIM))


@number("sin_block_neg_sin", ".3f", "M_k 第 0 块左下角的 −sin(k·ω_0)")
def _():
    return sinusoidal.shift_rotation(ex.SHIFT, ex.SIN_DIM)[1, 0]
