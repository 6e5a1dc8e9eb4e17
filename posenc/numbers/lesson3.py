"""Numbers quoted by lesson 3 (sinusoidal position encoding) and the home page timeline."""

from __future__ import annotations

import numpy as np

from posenc import configs, demo, learned, naive, sinusoidal
from posenc.numbers import number
from posenc.sinusoidal import DEFAULT_BASE, DEMO_DIM, PAPER_DIM

GPT2 = "gpt2"


@number("sin_base", ",.0f", "公式里的底数 base")
def _():
    return DEFAULT_BASE


@number("sin_demo_d", "d", "演示用的维度 d")
def _():
    return DEMO_DIM


@number("sin_demo_pairs", "d", "演示维度下的 sin/cos 对数（指针数）")
def _():
    return len(sinusoidal.angular_frequencies(DEMO_DIM))


@number("sin_demo_last_pair", "d", "演示维度下最后一对的下标 i")
def _():
    return len(sinusoidal.angular_frequencies(DEMO_DIM)) - 1


@number("sin_paper_d", "d", "原论文 base 模型的 d_model")
def _():
    return PAPER_DIM


@number("sin_paper_pairs", "d", "原论文 d_model 下的对数")
def _():
    return len(sinusoidal.angular_frequencies(PAPER_DIM))


@number("sin_fastest_period", ".2f", "最快一根指针转一圈的 token 数（2π）")
def _():
    return sinusoidal.periods(DEMO_DIM)[0]


@number("sin_second_period", ".2f", "第二快一根指针的周期")
def _():
    return sinusoidal.periods(DEMO_DIM)[1]


@number("sin_slowest_period", ",.0f", "演示维度下最慢一根指针转一圈的 token 数")
def _():
    return sinusoidal.periods(DEMO_DIM)[-1]


@number("sin_paper_slowest_period", ",.0f", "d=512 时最慢一对的周期（不是 10000·2π）")
def _():
    return sinusoidal.periods(PAPER_DIM)[-1]


@number("sin_paper_limit_period", ",.0f", "§3.5 所说的上限 base·2π")
def _():
    return DEFAULT_BASE * 2 * np.pi


@number("sin_period_ratio", ".2f", "相邻两对周期之比 base^(2/d)")
def _():
    p = sinusoidal.periods(DEMO_DIM)
    return p[1] / p[0]


@number("sin_far_position", ",", "演示的远位置")
def _():
    return demo.FAR_POSITION


@number("sin_far_max_abs", ".3f", "位置 100,000 的 16 个数里绝对值最大的一个")
def _():
    return np.abs(sinusoidal.encode(demo.FAR_POSITION, DEMO_DIM)).max()


@number("sin_near_position", "d", "编码示例里最近的位置")
def _():
    return demo.NEAR_POSITION


@number("sin_shift", "d", "热力图里整句平移的距离")
def _():
    return demo.SHIFT


@number("sin_sentence_len", "d", "热力图例句的 token 数（字符数）")
def _():
    return len(demo.SENTENCE)


@number("sin_shift_max_diff", ".1e", "整句平移前后点积矩阵的最大差值")
def _():
    n = len(demo.SENTENCE)
    before = sinusoidal.dot_matrix(np.arange(n), DEMO_DIM)
    after = sinusoidal.dot_matrix(np.arange(n) + demo.SHIFT, DEMO_DIM)
    return np.abs(before - after).max()


@number("sin_self_dot", ".0f", "PE(p)·PE(p) = d/2")
def _():
    return sinusoidal.dot(0, 0, DEMO_DIM)


@number("sin_rotation_max_err", ".1e", "用旋转矩阵 M_k 从 PE(p) 算 PE(p+k) 的最大误差（p = 100,000, k = 10）")
def _():
    m = sinusoidal.shift_rotation(demo.SHIFT, DEMO_DIM)
    return np.abs(m @ sinusoidal.encode(demo.FAR_POSITION, DEMO_DIM) - sinusoidal.encode(demo.FAR_POSITION + demo.SHIFT, DEMO_DIM)).max()


@number("sin_max_distance", "d", "点积曲线画到的最大距离 k")
def _():
    return demo.MAX_DISTANCE


# --- the init-scale trap (§3.4's √d_model) ---------------------------------------------


@number("embed_init_std", ".2f", "项目里 token embedding 的初始化标准差")
def _():
    return demo.PROJECT_EMBED_STD


@number("sin_rms", ".2f", "sin/cos 分量的均方根 1/√2")
def _():
    return sinusoidal.SINUSOID_RMS


@number("sin_content_ratio", ".1%", "初始化时内容与正弦位置信号的尺度比")
def _():
    return sinusoidal.content_to_position_ratio(demo.PROJECT_EMBED_STD)


@number("project_d_model", "d", "项目小模型的 d_model")
def _():
    return demo.PROJECT_D_MODEL


@number("project_sqrt_d_model", ".0f", "√d_model：§3.4 在相加前给 embedding 乘的系数")
def _():
    return sinusoidal.embedding_scale(demo.PROJECT_D_MODEL)


@number("sin_content_ratio_scaled", ".0%", "乘以 √d_model 之后内容与位置信号的尺度比")
def _():
    return sinusoidal.content_to_position_ratio(demo.PROJECT_EMBED_STD * sinusoidal.embedding_scale(demo.PROJECT_D_MODEL))


@number("paper_sqrt_d_model", ".2f", "原论文 d_model = 512 时的 √d_model")
def _():
    return sinusoidal.embedding_scale(PAPER_DIM)


@number("project_train_len", "d", "项目实验的训练长度")
def _():
    return demo.PROJECT_TRAIN_LEN


# --- torch walk-through --------------------------------------------------------------------


@number("walkthrough_max_len", ",", "walk-through 里检查有界性的位置数")
def _():
    return demo.WALKTHROUGH_MAX_LEN


@number("walkthrough_d", "d", "walk-through 的维度")
def _():
    return demo.WALKTHROUGH_DIM


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
    return demo.NAIVE_PROBE_POSITION


@number("naive_ratio_unit", ".1%", "内容 RMS = 1 时，观察位置上内容占位置信号的比例")
def _():
    return naive.raw_index_content_ratio(demo.NAIVE_PROBE_POSITION, 1.0)


@number("naive_ratio_init", ".3%", "按项目初始化尺度时，观察位置上内容占位置信号的比例")
def _():
    return naive.raw_index_content_ratio(demo.NAIVE_PROBE_POSITION, demo.PROJECT_EMBED_STD)
