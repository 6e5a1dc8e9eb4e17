"""Numbers the course-wide timeline quotes (posenc/data/timeline.yaml, rendered on the home page and in
every lesson by {{ timeline() }}), for the representative models of each generation.

Each is a member of a per-model family (the name ends in the model's key, posenc/data/models*.yaml),
so a lesson that teaches the same quantity quotes the same name:

    position_params_<model>      parameters the model's own position scheme adds (relative.model_position_parameters)
    alibi_reach_<model>          distance at which the flattest ALiBi head's bias alone cuts a weight by
                                 examples.ALIBI_FACTOR (relative.alibi_reach)
    alibi_far_weight_<model>     that head's bias factor on a key as far back as the model's training length

The timeline also quotes rope_query_share_<model>, rope_key_share_<model> and nope_layers_<model>;
lesson 6 teaches those and registers them (posenc/quantities/lesson6.py).
"""

from __future__ import annotations

from posenc import configs, relative
from posenc import examples as ex
from posenc.quantities import number

# --- relative-position bias: T5's learned buckets, ALiBi's fixed recency bias -----------------------

number("position_params_t5_base", ",", "T5-Base 的相对位置偏置参数（桶 × 头，每个栈一张表）")(
    lambda: relative.model_position_parameters(configs.load("t5_base")))


def _flattest_slope(key: str) -> float:
    """The smallest ALiBi slope of model ``key``: the head that looks furthest back."""
    return float(relative.alibi_slopes(configs.load(key)["heads"]).min())


@number("alibi_reach_mpt_7b", ",.0f", "MPT-7B 斜率最小的 ALiBi 头：偏置单独把权重压低 ALIBI_FACTOR 倍的距离（token）")
def _():
    return relative.alibi_reach(_flattest_slope("mpt_7b"), ex.ALIBI_FACTOR)


@number("alibi_reach_share", ".0%", "在那个距离上，偏置让权重只剩原来的多少（= 1 / ALIBI_FACTOR）")
def _():
    slope = _flattest_slope("mpt_7b")
    return float(relative.alibi_weight_ratio(slope, relative.alibi_reach(slope, ex.ALIBI_FACTOR)))


@number("alibi_far_weight_mpt_7b", ".3%", "MPT-7B 斜率最小的 ALiBi 头：在训练长度那么远处，偏置让权重只剩原来的多少")
def _():
    return float(relative.alibi_weight_ratio(_flattest_slope("mpt_7b"), configs.load("mpt_7b")["context"]))
