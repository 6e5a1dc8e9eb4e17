"""Numbers quoted by lesson 2 (adding the raw index; learned position tables).

Lesson 3's module already registers the shared ones this lesson also quotes:
gpt2_context, gpt2_last_row, gpt2_hidden, gpt2_table_params, naive_probe_position,
naive_ratio_unit, naive_ratio_init, embed_init_std, sin_far_position, project_train_len, and the
lookup table's positions (lookup_first, lookup_second, gpt2_last_row, gpt2_context, sin_far_position).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from posenc import configs, learned, naive
from posenc import examples as ex
from posenc.formatting import PerLanguage
from posenc.quantities import family, number

GPT2 = "gpt2"
BERT = "bert_base"

# --- naive design ①: add the raw index --------------------------------------------------------


@number("l2_ratio_max_position", ",", "比例曲线画到的最大位置")
def _():
    return ex.RATIO_MAX_POSITION


@number("l2_ratio_unit_at_max", ".3%", "内容 RMS = 1 时，曲线最右端位置上内容占位置信号的比例")
def _():
    return naive.raw_index_content_ratio(ex.RATIO_MAX_POSITION, ex.UNIT_CONTENT_RMS)


@number("l2_ratio_init_at_max", ".4%", "按项目初始化尺度时，曲线最右端位置上内容占位置信号的比例")
def _():
    return naive.raw_index_content_ratio(ex.RATIO_MAX_POSITION, ex.PROJECT_EMBED_STD)


@number("l2_unit_rms", "g", "「训练得比较大」的词向量：每一维的均方根")
def _():
    return ex.UNIT_CONTENT_RMS


@number("l2_ratio_unit_p1", ".0%", "内容 RMS = 1 时，位置 1 上内容与位置信号之比")
def _():
    return naive.raw_index_content_ratio(1, ex.UNIT_CONTENT_RMS)


PAIRS = family(("l2_{}_a", "l2_{}_b"), {
    "step_near": ("l2_step_near_a", "l2_step_near_b"),
    "step_far": ("l2_step_far_a", "l2_step_far_b"),
    "rel_near": ("l2_rel_near_a", "l2_rel_near_b"),
    "rel_far": ("l2_rel_far_a", "l2_rel_far_b"),
})

for (_first, _second), _pair, _doc in zip(PAIRS.values(), (ex.STEP_NEAR, ex.STEP_FAR, ex.RELATION_NEAR, ex.RELATION_FAR),
                                          ("开头附近相邻的两个位置", "远处相邻的两个位置", "相隔同样距离的两组位置：前一组",
                                           "相隔同样距离的两组位置：后一组")):
    number(_first, "d", f"{_doc}（第一个）")(lambda p=_pair: p[0])
    number(_second, "d", f"{_doc}（第二个）")(lambda p=_pair: p[1])


# --- naive design ②: squeeze positions into [0, 1] --------------------------------------------


@number("l2_norm_short", "d", "归一化示例的短序列长度")
def _():
    return ex.NORMALISED_SHORT


@number("l2_norm_long", "d", "归一化示例的长序列长度")
def _():
    return ex.NORMALISED_LONG


@number("l2_norm_step_short", ".2f", "短序列里相邻两个 token 在 [0, 1] 上相隔多少")
def _():
    return naive.normalised_step(ex.NORMALISED_SHORT)


@number("l2_norm_step_long", ".2f", "长序列里相邻两个 token 在 [0, 1] 上相隔多少")
def _():
    return naive.normalised_step(ex.NORMALISED_LONG)


@number("l2_norm_gap_tokens_long", ".0f", "短序列里「相邻」的那段间隔，放到长序列里跨多少个 token")
def _():
    return naive.normalised_gap_in_tokens(naive.normalised_step(ex.NORMALISED_SHORT), ex.NORMALISED_LONG)


@number("l2_norm_step_ratio", ".0f", "两种长度下相邻 token 间隔之比")
def _():
    return naive.normalised_step(ex.NORMALISED_SHORT) / naive.normalised_step(ex.NORMALISED_LONG)


@number("l2_norm_probe", "d", "生成过程中跟踪的那个位置")
def _():
    return ex.NORMALISED_PROBE


@number("l2_norm_probe_before", ".2f", "跟踪位置在短序列里的归一化值")
def _():
    return naive.normalised_value(ex.NORMALISED_PROBE, ex.NORMALISED_SHORT)


@number("l2_norm_len_after", "d", "再生成一个 token 后的长度")
def _():
    return ex.NORMALISED_SHORT + 1


@number("l2_norm_probe_after", ".2f", "再生成一个 token 后，同一个位置的归一化值")
def _():
    return naive.normalised_value(ex.NORMALISED_PROBE, ex.NORMALISED_SHORT + 1)


@number("l2_norm_half", "g", "两种长度下都去查的那个归一化值（[0, 1] 的正中）")
def _():
    return ex.NORMALISED_HALF


@number("l2_norm_half_short", ".1f", "归一化值 0.5 在短序列里对应的位置")
def _():
    return naive.normalised_position(ex.NORMALISED_HALF, ex.NORMALISED_SHORT)


@number("l2_norm_half_long", ".0f", "归一化值 0.5 在长序列里对应的位置")
def _():
    return naive.normalised_position(ex.NORMALISED_HALF, ex.NORMALISED_LONG)


# --- learned tables -----------------------------------------------------------------------------


@number("bert_table_params", ",", "BERT-base 位置表的参数量")
def _():
    return learned.table_parameters(configs.load(BERT))


@number("bert_last_row", ",", "BERT-base 位置表最后一行的位置")
def _():
    return learned.last_row(configs.load(BERT))


def _probe_positions() -> dict[str, int]:
    cfg = configs.load(GPT2)
    last = learned.last_row(cfg)
    return {"p0": ex.LOOKUP_FIRST, "p1": ex.LOOKUP_SECOND, "last": last, "ctx": last + 1, "far": ex.FAR_POSITION}


def _mark(ok: bool) -> PerLanguage:
    return PerLanguage(zh="✓ 有", en="✓ yes") if ok else PerLanguage(zh="✗ 查无此行", en="✗ no such row")


ROWS = family(("l2_row_{}",), {
    "p0": "l2_row_p0",
    "p1": "l2_row_p1",
    "last": "l2_row_last",
    "ctx": "l2_row_ctx",
    "far": "l2_row_far",
})

for _key, (_row,) in ROWS.items():
    number(_row, "", f"GPT-2 位置表在该位置有没有行（{_key}）")(
        lambda k=_key: _mark(learned.has_row(configs.load(GPT2), _probe_positions()[k]))
    )


@number("l2_rows_missing_far", ",", "要让远位置也有行，表还得再加多少行（表尾之后到该位置，含）")
def _():
    return learned.rows_to_reach(configs.load(GPT2), ex.FAR_POSITION)


@lru_cache(maxsize=None)
def _touched():
    return learned.rows_with_gradient(configs.load(GPT2)["context"], ex.PROJECT_TRAIN_LEN)


@number("l2_rows_trained", ",", "只用训练长度的序列训练时，GPT-2 尺寸的位置表里拿到梯度的行数")
def _():
    return int(_touched().sum())


@number("l2_rows_trained_last", ",", "拿到梯度的最后一行的行号")
def _():
    return int(np.flatnonzero(_touched())[-1])


@number("l2_rows_untouched", ",", "同样的训练里一次梯度也没拿到的行数")
def _():
    return int((~_touched()).sum())


@number("l2_rows_untouched_share", ".0%", "一次梯度也没拿到的行占整张表的比例")
def _():
    t = _touched()
    return float((~t).sum() / t.size)


@number("l2_ratio_share", ".0%", "「内容跌到位置信号的百分之几」用的那个比例")
def _():
    return ex.RATIO_SHARE


@number("l2_one_percent_p", ",", "内容 RMS = 1 时，内容第一次降到位置信号 1% 以下（含）的位置")
def _():
    return naive.position_where_share_falls_to(ex.RATIO_SHARE, ex.UNIT_CONTENT_RMS)
