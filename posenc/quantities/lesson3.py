"""Numbers quoted by lesson 3 (sinusoidal position encoding) and the home page timeline."""

from __future__ import annotations

import numpy as np

from posenc import clock, configs, learned, naive, sinusoidal
from posenc import examples as ex
from posenc.quantities import number
from posenc.sinusoidal import DEFAULT_BASE, PAPER_DIM

GPT2 = "gpt2"


@number("sin_base", ",.0f", "公式里的底数 base")
def _():
    return DEFAULT_BASE


@number("sin_demo_d", "d", "演示用的维度 d")
def _():
    return ex.SIN_DIM


@number("sin_demo_pairs", "d", "演示维度下的 sin/cos 对数（指针数）")
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


@number("sin_fastest_period", ".2f", "最快一根指针转一圈的 token 数（2π）")
def _():
    return sinusoidal.periods(ex.SIN_DIM)[0]


@number("sin_second_period", ".2f", "第二快一根指针的周期")
def _():
    return sinusoidal.periods(ex.SIN_DIM)[1]


@number("sin_slowest_period", ",.0f", "演示维度下最慢一根指针转一圈的 token 数")
def _():
    return sinusoidal.periods(ex.SIN_DIM)[-1]


@number("sin_paper_slowest_period", ",.0f", "d=512 时最慢一对的周期（不是 10000·2π）")
def _():
    return sinusoidal.periods(PAPER_DIM)[-1]


@number("sin_paper_limit_period", ",.0f", "§3.5 所说的上限 base·2π")
def _():
    return DEFAULT_BASE * 2 * np.pi


@number("sin_period_ratio", ".2f", "相邻两对周期之比 base^(2/d)")
def _():
    p = sinusoidal.periods(ex.SIN_DIM)
    return p[1] / p[0]


@number("sin_far_position", ",", "演示的远位置")
def _():
    return ex.FAR_POSITION


@number("sin_far_max_abs", ".3f", "位置 100,000 的 16 个数里绝对值最大的一个")
def _():
    return np.abs(sinusoidal.encode(ex.FAR_POSITION, ex.SIN_DIM)).max()


@number("sin_near_position", "d", "编码示例里最近的位置")
def _():
    return ex.NEAR_POSITION


@number("sin_shift", "d", "热力图里整句平移的距离")
def _():
    return ex.SHIFT


@number("sin_shift_max_diff", ".1e", "整句平移前后点积矩阵的最大差值")
def _():
    n = len(ex.SENTENCE)
    before = sinusoidal.dot_matrix(np.arange(n), ex.SIN_DIM)
    after = sinusoidal.dot_matrix(np.arange(n) + ex.SHIFT, ex.SIN_DIM)
    return np.abs(before - after).max()


@number("sin_self_dot", ".0f", "PE(p)·PE(p) = d/2")
def _():
    return sinusoidal.dot(0, 0, ex.SIN_DIM)


@number("sin_rotation_max_err", ".1e", "用旋转矩阵 M_k 从 PE(p) 算 PE(p+k) 的最大误差（p = 100,000, k = 10）")
def _():
    m = sinusoidal.shift_rotation(ex.SHIFT, ex.SIN_DIM)
    return np.abs(m @ sinusoidal.encode(ex.FAR_POSITION, ex.SIN_DIM) - sinusoidal.encode(ex.FAR_POSITION + ex.SHIFT, ex.SIN_DIM)).max()


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

def _lookup_mark(p: int) -> str:
    return "✓ 有这一行" if learned.has_row(configs.load(GPT2), p) else "✗ 查无此行"


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


@number("sin_fastest_step_deg", ".1f", "最快一根指针每走一个 token 转过的角度（度）")
def _():
    return np.degrees(sinusoidal.angular_frequencies(ex.SIN_DIM)[0])


@number("sin_paper_slowest_shortfall", ".1%", "d=512 时最慢一对的周期比 §3.5 的上限 base·2π 短多少")
def _():
    return 1 - sinusoidal.periods(PAPER_DIM)[-1] / (DEFAULT_BASE * 2 * np.pi)


@number("sin_pe_norm", ".2f", "每个位置编码向量的长度 √(d/2)")
def _():
    return np.linalg.norm(sinusoidal.encode(ex.NEAR_POSITION, ex.SIN_DIM))


@number("sin_nearest_k", ",", "位置 0 … FAR 之间，编码最接近的两个位置相隔多少")
def _():
    return clock.nearest_neighbour(ex.FAR_POSITION + 1, ex.SIN_DIM)[0]


@number("sin_nearest_distance", ".2f", "位置 0 … FAR 之间，两个编码的最小欧氏距离")
def _():
    return clock.nearest_neighbour(ex.FAR_POSITION + 1, ex.SIN_DIM)[1]


@number("sin_slowest_turn_train", ".2%", "训练长度内最慢一根指针转过的圈数（比例）")
def _():
    return clock.turns_within(ex.PROJECT_TRAIN_LEN, ex.SIN_DIM)[-1]


@number("sin_pairs_full_turn_train", "d", "训练长度内至少转满一圈的指针数")
def _():
    return int(np.sum(clock.turns_within(ex.PROJECT_TRAIN_LEN, ex.SIN_DIM) >= 1))


@number("sin_pairs_partial_turn_train", "d", "训练长度内一圈都没转满的指针数")
def _():
    return int(np.sum(clock.turns_within(ex.PROJECT_TRAIN_LEN, ex.SIN_DIM) < 1))


# --- the dot-product curve ------------------------------------------------------------------


def _dot_curve() -> np.ndarray:
    return np.array([sinusoidal.dot_closed_form(k, ex.SIN_DIM) for k in range(ex.MAX_DISTANCE + 1)])


def _first_rise() -> int:
    curve = _dot_curve()
    rises = np.nonzero(np.diff(curve) > 0)[0]
    if rises.size == 0:
        raise ValueError("the dot-product curve never rises within MAX_DISTANCE; raise ex.MAX_DISTANCE")
    return int(rises[0])


@number("sin_dot_k1", ".2f", "相邻两个位置的编码点积")
def _():
    return sinusoidal.dot_closed_form(1, ex.SIN_DIM)


@number("sin_dot_first_rise_k", "d", "点积曲线第一次回升之前的距离 k")
def _():
    return _first_rise()


@number("sin_dot_first_rise_k_next", "d", "点积曲线第一次回升之后的距离 k+1")
def _():
    return _first_rise() + 1


@number("sin_dot_at_first_rise", ".3f", "回升前一点的点积")
def _():
    return _dot_curve()[_first_rise()]


@number("sin_dot_after_first_rise", ".3f", "回升后一点的点积")
def _():
    return _dot_curve()[_first_rise() + 1]


@number("sin_dot_min_k", "d", "0 … MAX_DISTANCE 内点积最小的距离")
def _():
    return int(np.argmin(_dot_curve()))


@number("sin_dot_min", ".2f", "0 … MAX_DISTANCE 内点积的最小值")
def _():
    return _dot_curve().min()


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

def _rel_positions(start: int) -> tuple[int, int]:
    for word in (ex.REL_A, ex.REL_B):
        if word not in ex.SENTENCE:
            raise ValueError(f"posenc.examples.SENTENCE = {ex.SENTENCE!r} has no {word!r}; lesson 3's relative-position example needs both REL_A = {ex.REL_A!r} and REL_B = {ex.REL_B!r}")
    return start + ex.SENTENCE.index(ex.REL_A), start + ex.SENTENCE.index(ex.REL_B)


@number("rel_a_pos", "d", "例句里「小明」的位置")
def _():
    return _rel_positions(0)[0]


@number("rel_b_pos", "d", "例句里「小王」的位置")
def _():
    return _rel_positions(0)[1]


@number("rel_a_pos_shifted", "d", "句首多一个 token 后「小明」的位置")
def _():
    return _rel_positions(1)[0]


@number("rel_b_pos_shifted", "d", "句首多一个 token 后「小王」的位置")
def _():
    return _rel_positions(1)[1]


@number("rel_gap", "d", "「小明」和「小王」相隔的 token 数")
def _():
    a, b = _rel_positions(0)
    return b - a


# --- after a query/key projection the shift invariance is gone ------------------------------

def _projected_scores(start: int) -> np.ndarray:
    w_q, w_k = clock.random_projections(ex.SIN_DIM, ex.PROJECTION_SEED)
    return clock.position_scores(np.arange(len(ex.SENTENCE)) + start, w_q, w_k)


@number("proj_shift_max_diff", ".2f", "经过随机 W_q、W_k 之后，整句平移前后位置打分的最大差值")
def _():
    return np.abs(_projected_scores(0) - _projected_scores(ex.SHIFT)).max()


@number("proj_score_max_abs", ".2f", "平移前位置打分的最大绝对值（作尺度参照）")
def _():
    return np.abs(_projected_scores(0)).max()


# --- exercises ------------------------------------------------------------------------------


@number("ex_dot_k", ",", "练习：位置 NEAR 和位置 GPT-2 context 相隔多少")
def _():
    return configs.load(GPT2)["context"] - ex.NEAR_POSITION


@number("ex_dot_value", ".3f", "练习：Σcos(kω_i)，k 为上面的距离")
def _():
    return sinusoidal.dot_closed_form(configs.load(GPT2)["context"] - ex.NEAR_POSITION, ex.SIN_DIM)


@number("ex_dot_check_diff", ".1e", "练习：直接算两个 16 维向量的点积与 Σcos 的差")
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
