"""Numbers lesson 3b (relative position as a bias on the attention score) quotes.

Scopes: ``l3b_`` for the lesson's own demos (the naive per-distance table, the example
sentence, the parameter table), ``shaw_``, ``t5_`` and ``alibi_`` for
each scheme; a per-model number ends in the model's key (``alibi_slope_min_mpt_7b``).
Everything is computed by posenc.relative from posenc.examples and the model data files.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from posenc import configs, facts
from posenc import examples as ex
from posenc import relative as rel
from posenc import tokenize
from posenc.quantities import family, number

# --- the naive design: one learned number per distance ---------------------------------------------


def _pairs():
    return rel.causal_pairs_by_distance(ex.PROJECT_TRAIN_LEN)


@number("l3b_pairs_total", ",", "一条训练长度的因果序列里（查询, 键）对的总数 L(L+1)/2")
def _():
    return int(_pairs().sum())


@number("l3b_pairs_farthest", "d", "一条序列里相隔 L−1 的（查询, 键）对有几对")
def _():
    return int(_pairs()[-1])


@number("l3b_far_half_from", "d", "「远的一半距离」从这个距离算起（L/2）")
def _():
    return ex.PROJECT_TRAIN_LEN // 2


@number("l3b_far_half_share", ".0%", "一条序列里距离 ≥ L/2 的（查询, 键）对占全部的比例")
def _():
    p = _pairs()
    return p[ex.PROJECT_TRAIN_LEN // 2:].sum() / p.sum()


# --- Shaw et al.: clipped distances ------------------------------------------------------------------


@number("shaw_sentence_k", "d", "例句上演示截断时用的 k")
def _():
    return ex.SHAW_SENTENCE_K


@number("shaw_sentence_clipped", "d", "例句最后一个字看各个键时截断后的距离 clip(m − n, c)，从第一个字到它自己")
def _(lang):
    n = len(tokenize.tokens(ex.texts(lang).sentence))
    distance = -rel.relative_positions(n)[-1]  # m − n: relative_positions gives n − m (Shaw's j − i)
    return tuple(int(v) for v in rel.shaw_clipped(distance, ex.SHAW_SENTENCE_K))  # a list: each language joins it


@number("shaw_sentence_distances", "d", "例句最后一个字看各个键时的距离 m − n（未截断），从第一个字到它自己")
def _(lang):
    n = len(tokenize.tokens(ex.texts(lang).sentence))
    return tuple(int(v) for v in -rel.relative_positions(n)[-1])


@number("shaw_vectors_base", "d", "Shaw et al. base 模型每层、每个头的相对位置向量个数 2k + 1")
def _():
    return 2 * facts.get("shaw_k_base").value + 1


# --- T5's buckets (T5-Base) ------------------------------------------------------------------------


def _t5(bidirectional: bool):
    nb, md = ex.t5_buckets()
    return rel.t5_bucket_edges(bidirectional, nb, md)


def _t5_one_side(bidirectional: bool) -> int:
    nb, _ = ex.t5_buckets()
    return nb // 2 if bidirectional else nb


@number("t5_enc_one_side", "d", "T5 编码器（双向）每个方向的桶数")
def _():
    return _t5_one_side(True)


@number("t5_enc_exact_last", "d", "T5 编码器精确区的最后一个距离（max_exact − 1）")
def _():
    return _t5(True)[_t5_one_side(True) // 2 - 1][2]  # the last of the max_exact one-distance buckets


@number("t5_enc_max_exact", "d", "T5 编码器的 max_exact（每个方向桶数的一半）")
def _():
    return _t5_one_side(True) // 2


@number("t5_enc_first_log_last", "d", "T5 编码器第一个对数桶管到的最远距离")
def _():
    return _t5(True)[_t5_one_side(True) // 2][2]


@number("t5_enc_widest_first", "d", "T5 编码器倒数第二个桶（最宽的有界桶）的第一个距离")
def _():
    return _t5(True)[-2][1]


@number("t5_enc_widest_last", "d", "T5 编码器倒数第二个桶的最后一个距离")
def _():
    return _t5(True)[-2][2]


@number("t5_enc_widest_width", "d", "T5 编码器倒数第二个桶管的距离个数")
def _():
    _, first, last = _t5(True)[-2]
    return last - first + 1


@number("t5_enc_last_bucket", "d", "T5 编码器（键在前的一侧）最后一个桶的编号")
def _():
    return _t5(True)[-1][0]


@number("t5_enc_last_from", "d", "T5 编码器最后一个桶从这个距离起收下所有更远的距离")
def _():
    return _t5(True)[-1][1]


@number("t5_enc_last_edge", ".1f", "T5 编码器对数公式到达最后一个桶号 2·D_exact − 1 的距离 D_exact·(D_max/D_exact)^((D_exact−1)/D_exact)，未取整")
def _():
    nb, md = ex.t5_buckets()
    exact = _t5_one_side(True) // 2  # D_exact, the code's max_exact
    return exact * (md / exact) ** ((exact - 1) / exact)


@number("t5_enc_bucket_far", "d", "T5 编码器里相隔 FAR_POSITION（10 万）个 token 的键落进的桶")
def _():
    nb, md = ex.t5_buckets()
    return int(rel.t5_bucket(np.array(-ex.FAR_POSITION), True, nb, md))


@number("t5_dec_exact_last", "d", "T5 解码器（因果）精确区的最后一个距离")
def _():
    return _t5_one_side(False) // 2 - 1


@number("t5_dec_max_exact", "d", "T5 解码器的 max_exact（全部桶数的一半）")
def _():
    return _t5_one_side(False) // 2


@number("t5_dec_last_bucket", "d", "T5 解码器最后一个桶的编号")
def _():
    return _t5(False)[-1][0]


@number("t5_dec_last_from", "d", "T5 解码器最后一个桶从这个距离起")
def _():
    return _t5(False)[-1][1]


@number("t5_demo_distance", "d", "T5 查桶组件一开始查的距离（键在查询前面多少个 token）")
def _():
    return ex.T5_DISTANCE


@number("t5_demo_bucket", "d", "这个距离在 T5 编码器里落进的桶")
def _():
    nb, md = ex.t5_buckets()
    return int(rel.t5_bucket(np.array(-ex.T5_DISTANCE), ex.T5_BIDIRECTIONAL, nb, md))


@number("t5_params_per_stack_t5_base", ",", "T5-Base 一张相对位置偏置表的参数数（桶数 × 头数）")
def _():
    cfg = configs.load("t5_base")
    return rel.t5_parameters(cfg["relative_attention_num_buckets"], cfg["heads"], 1)


# --- ALiBi: slopes ---------------------------------------------------------------------------------


@number("alibi_demo_heads", "d", "ALiBi 演示的头数")
def _():
    return ex.ALIBI_HEADS


@number("alibi_demo_head", "d", "ALiBi 演示读出的那个头（从 1 数）")
def _():
    return ex.ALIBI_HEAD


@number("alibi_demo_slope_first", ".4g", "演示头数下第 1 个头的斜率")
def _():
    return rel.alibi_slopes(ex.ALIBI_HEADS)[0]


@number("alibi_demo_slope_last", ".4g", "演示头数下最后一个头的斜率")
def _():
    return rel.alibi_slopes(ex.ALIBI_HEADS)[-1]


@number("alibi_demo_ratio", ".4g", "演示头数下相邻两个头的斜率之比 2^(−8/n)")
def _():
    m = rel.alibi_slopes(ex.ALIBI_HEADS)
    return m[1] / m[0]


@number("alibi_demo_span", ",", "ALiBi 图和组件的距离轴画到多远")
def _():
    return ex.ALIBI_SPAN


@number("alibi_demo_weight_left", ".2f", "演示头数下斜率最小的头，到距离轴尽头还剩的权重因子")
def _():
    return float(rel.alibi_weight_ratio(rel.alibi_slopes(ex.ALIBI_HEADS).min(), ex.ALIBI_SPAN))


@number("alibi_demo_reach_min", ".1f", "演示头数下斜率最大的头的作用范围")
def _():
    return rel.alibi_reaches(ex.ALIBI_HEADS, ex.ALIBI_FACTOR).min()


@number("alibi_demo_slope", ".4g", "演示头的斜率 m")
def _():
    return rel.alibi_slopes(ex.ALIBI_HEADS)[ex.ALIBI_HEAD - 1]


@number("alibi_demo_distance", "d", "演示读出偏置的距离 r")
def _():
    return ex.ALIBI_DISTANCE


@number("alibi_demo_bias", ".2f", "演示头在距离 r 处的偏置 −m·r")
def _():
    return float(rel.alibi_bias(ex.ALIBI_HEADS, 1, ex.ALIBI_DISTANCE + 1)[ex.ALIBI_HEAD - 1, 0, ex.ALIBI_DISTANCE])


@number("alibi_demo_weight", ".3f", "演示头在距离 r 处的权重因子 exp(−m·r)")
def _():
    return float(rel.alibi_weight_ratio(rel.alibi_slopes(ex.ALIBI_HEADS)[ex.ALIBI_HEAD - 1], ex.ALIBI_DISTANCE))


@number("alibi_demo_factor", "d", "「作用范围」的倍数 f：偏置单独把权重压到 1/f 的距离")
def _():
    return ex.ALIBI_FACTOR


@number("alibi_demo_reach", ".1f", "演示头的作用范围 ln f / m（token）")
def _():
    return rel.alibi_reaches(ex.ALIBI_HEADS, ex.ALIBI_FACTOR)[ex.ALIBI_HEAD - 1]


ALIBI_SLOPES = family(("alibi_slope_first_{}", "alibi_slope_max_{}", "alibi_slope_min_{}", "alibi_power_heads_{}",
                       "alibi_extra_heads_{}"), {
    "mpt_7b": ("alibi_slope_first_mpt_7b", "alibi_slope_max_mpt_7b", "alibi_slope_min_mpt_7b", "alibi_power_heads_mpt_7b",
               "alibi_extra_heads_mpt_7b"),
    "bloom_176b": ("alibi_slope_first_bloom_176b", "alibi_slope_max_bloom_176b", "alibi_slope_min_bloom_176b",
                   "alibi_power_heads_bloom_176b", "alibi_extra_heads_bloom_176b"),
    "baichuan_13b": ("alibi_slope_first_baichuan_13b", "alibi_slope_max_baichuan_13b", "alibi_slope_min_baichuan_13b",
                     "alibi_power_heads_baichuan_13b", "alibi_extra_heads_baichuan_13b"),
}, members=ex.ALIBI_MODELS)


def register_alibi_family(key: str) -> None:
    """The slopes of ALiBi model ``key`` (models_relative.yaml): head 1, the largest, the smallest, and how many
    heads take the power-of-two sequence and how many the non-power-of-two rule adds."""
    cfg = configs.load(key)
    name, n = cfg.name, cfg["heads"]
    first, largest, smallest, power, extra = ALIBI_SLOPES[key]

    @number(first, ".4f", f"{name} 第 1 个头的斜率")
    def _():
        return rel.alibi_slopes(n)[0]

    @number(largest, ".4f", f"{name} 最大的斜率")
    def _():
        return rel.alibi_slopes(n).max()

    @number(smallest, ".6f", f"{name} 最小的斜率")
    def _():
        return rel.alibi_slopes(n).min()

    @number(power, "d", f"{name} 按 2 的幂规则取斜率的头数 2^⌊log₂ n⌋")
    def _():
        return int((~rel.alibi_extra_heads(n)).sum())

    @number(extra, "d", f"{name} 按非 2 的幂规则补上的头数")
    def _():
        return int(rel.alibi_extra_heads(n).sum())


for _key in ALIBI_SLOPES:
    register_alibi_family(_key)


REACH_COUNTS = family(("alibi_reach_min_{}", "alibi_reach_max_{}", "alibi_heads_reaching_context_{}", "alibi_heads_near_{}",
                       "alibi_heads_far_{}"), {
    "mpt_7b": ("alibi_reach_min_mpt_7b", "alibi_reach_max_mpt_7b", "alibi_heads_reaching_context_mpt_7b",
               "alibi_heads_near_mpt_7b", "alibi_heads_far_mpt_7b"),
    "bloom_176b": ("alibi_reach_min_bloom_176b", "alibi_reach_max_bloom_176b", "alibi_heads_reaching_context_bloom_176b",
                   "alibi_heads_near_bloom_176b", "alibi_heads_far_bloom_176b"),
}, members=ex.REACH_MODELS)


def register_reach_counts(key: str) -> None:
    """Each head's reach (ln f / m) for model ``key``: the shortest, the longest, how many heads look
    near (reach < REACH_NEAR) and far (reach > REACH_FAR), and how many reach the training length."""
    cfg = configs.load(key)
    name, n = cfg.name, cfg["heads"]
    shortest, longest, reaching, near, far = REACH_COUNTS[key]

    @number(shortest, ".1f", f"{name} 斜率最大的头的作用范围（token）")
    def _():
        return rel.alibi_reaches(n, ex.ALIBI_FACTOR).min()

    @number(longest, ",.0f", f"{name} 斜率最小的头的作用范围（token）")
    def _():
        return rel.alibi_reaches(n, ex.ALIBI_FACTOR).max()

    @number(reaching, "d", f"{name} 作用范围达到训练长度的头数")
    def _():
        return int((rel.alibi_reaches(n, ex.ALIBI_FACTOR) >= cfg["context"]).sum())

    @number(near, "d", f"{name} 作用范围不到 REACH_NEAR 个 token 的头数")
    def _():
        return int((rel.alibi_reaches(n, ex.ALIBI_FACTOR) < ex.REACH_NEAR).sum())

    @number(far, "d", f"{name} 作用范围超过 REACH_FAR 个 token 的头数")
    def _():
        return int((rel.alibi_reaches(n, ex.ALIBI_FACTOR) > ex.REACH_FAR).sum())


for _key in REACH_COUNTS:
    register_reach_counts(_key)


# What ALiBi costs far away, for MPT-7B's gentlest head (BLOOM's is the same slope, 1/256, and context).
COST_MODEL = "mpt_7b"
GAP_AT_CONTEXT, RATIO_AT_CONTEXT, FAR_HALF_SHARE = family(
    ("alibi_gap_at_context_{}", "alibi_ratio_at_context_{}", "alibi_far_half_share_{}"),
    {COST_MODEL: ("alibi_gap_at_context_mpt_7b", "alibi_ratio_at_context_mpt_7b", "alibi_far_half_share_mpt_7b")})[COST_MODEL]


def _gentlest():
    cfg = configs.load(COST_MODEL)
    return rel.alibi_slopes(cfg["heads"]).min(), cfg["context"]


@number(GAP_AT_CONTEXT, ".1f", "MPT-7B 最平缓的头：远在训练长度处的键要高出多少内容分才和眼前的键同权")
def _():
    m, L = _gentlest()
    return float(rel.alibi_score_gap(m, L))


@number(RATIO_AT_CONTEXT, ".2%", "MPT-7B 最平缓的头：偏置在训练长度处把权重压成原来的多少")
def _():
    m, L = _gentlest()
    return float(rel.alibi_weight_ratio(m, L))


@number(FAR_HALF_SHARE, ".1%", "MPT-7B 最平缓的头：内容分都一样时，后一半训练长度上的键总共分到多少注意力")
def _():
    m, L = _gentlest()
    return rel.alibi_mass_beyond(m, L // 2, L)


@number("alibi_reach_near", "d", "「看近」的界线：作用范围不到这么多 token")
def _():
    return ex.REACH_NEAR


@number("alibi_reach_far", "d", "「看远」的界线：作用范围超过这么多 token")
def _():
    return ex.REACH_FAR


@number("alibi_steepest_head_bloom_176b", "d", "BLOOM 斜率最大的头是第几个（从 1 数）")
def _():
    return int(np.argmax(rel.alibi_slopes(configs.load("bloom_176b")["heads"]))) + 1


@number("alibi_last_slope_bloom_176b", ".4f", "BLOOM 最后一个头（第 112 个）的斜率")
def _():
    return rel.alibi_slopes(configs.load("bloom_176b")["heads"])[-1]


@number("alibi_double_heads_bloom_176b", "d", "BLOOM 补上的头从几个头的那组斜率里取（2 × 2^⌊log₂ n⌋）")
def _():
    return 2 * int((~rel.alibi_extra_heads(configs.load("bloom_176b")["heads"])).sum())


@number("alibi_last_odd_bloom_176b", "d", "BLOOM 最后一个补上的头取的是那组斜率里的第几个")
def _():
    return 2 * int(rel.alibi_extra_heads(configs.load("bloom_176b")["heads"]).sum()) - 1


# --- the example sentence: bias, weights, and the shift -------------------------------------------


@lru_cache(maxsize=None)
def _sentence(lang: str):
    """Content scores of the ``lang`` edition's sentence, and its causal weights without and with ALiBi."""
    n = len(tokenize.tokens(ex.texts(lang).sentence))
    scores = rel.content_scores(ex.texts(lang).sentence, ex.ATTN_D, ex.ATTN_SEED)
    bias = rel.alibi_causal_bias_at(ex.ALIBI_HEADS, np.arange(n))[ex.ALIBI_SENTENCE_HEAD - 1]
    return scores, rel.biased_weights(scores, rel.causal_bias(n)), rel.biased_weights(scores, bias)


@number("l3b_sentence_head", "d", "例句用的是 ALiBi 演示里的第几个头")
def _():
    return ex.ALIBI_SENTENCE_HEAD


@number("l3b_sentence_slope", ".2f", "例句那个头的斜率")
def _():
    return rel.alibi_slopes(ex.ALIBI_HEADS)[ex.ALIBI_SENTENCE_HEAD - 1]


@number("l3b_sentence_bias_far", ".2f", "例句最后一个字看第一个字时的 ALiBi 偏置")
def _(lang):
    n = len(tokenize.tokens(ex.texts(lang).sentence))
    return float(rel.alibi_causal_bias_at(ex.ALIBI_HEADS, np.arange(n))[ex.ALIBI_SENTENCE_HEAD - 1, -1, 0])


@number("l3b_last_self_nope", ".2f", "不加位置时，例句最后一个字给自己的权重")
def _(lang):
    return _sentence(lang)[1][-1, -1]


@number("l3b_last_self_alibi", ".2f", "加上 ALiBi 后，例句最后一个字给自己的权重")
def _(lang):
    return _sentence(lang)[2][-1, -1]


@number("l3b_last_first_nope", ".2f", "不加位置时，例句最后一个字给第一个字的权重")
def _(lang):
    return _sentence(lang)[1][-1, 0]


@number("l3b_last_first_alibi", ".2f", "加上 ALiBi 后，例句最后一个字给第一个字的权重")
def _(lang):
    return _sentence(lang)[2][-1, 0]


def _shifted(lang: str, bias_at):
    n = len(tokenize.tokens(ex.texts(lang).sentence))
    scores = rel.content_scores(ex.texts(lang).sentence, ex.ATTN_D, ex.ATTN_SEED)
    at = np.arange(n)
    return rel.score_change(scores + bias_at(at), scores + bias_at(at + ex.FAR_POSITION))


@number("l3b_shift_change_alibi", "g", "整句挪到位置 10 万起，加了 ALiBi（每个头）的分数最大变化")
def _(lang):
    return _shifted(lang, lambda at: rel.alibi_causal_bias_at(ex.ALIBI_HEADS, at))


@number("l3b_shift_change_t5", "g", "整句挪到位置 10 万起，加了 T5 偏置（随机表，T5-Base 的桶）的分数最大变化")
def _(lang):
    nb, md = ex.t5_buckets()
    table = np.random.default_rng(ex.T5_TABLE_SEED).standard_normal((nb, configs.load(ex.T5_MODEL)["heads"]))
    return _shifted(lang, lambda at: rel.t5_bias_at(table, at, ex.T5_BIDIRECTIONAL, md))


# --- parameters each scheme adds ----------------------------------------------------------------


SCHEME_PARAMETERS = family(("l3b_params_{}_{}",), {
    ("sinusoidal", "gpt2"): "l3b_params_sinusoidal_gpt2",
    ("shaw", "gpt2"): "l3b_params_shaw_gpt2",
    ("t5", "gpt2"): "l3b_params_t5_gpt2",
    ("alibi", "gpt2"): "l3b_params_alibi_gpt2",
    ("rope", "gpt2"): "l3b_params_rope_gpt2",
}, members=[(scheme, ex.PARAMETER_MODEL) for scheme in ("sinusoidal", "shaw", "t5", "alibi", "rope")])
(SHAW_PER_HEAD,) = family(("l3b_params_shaw_per_head_{}",), {ex.PARAMETER_MODEL: "l3b_params_shaw_per_head_gpt2"})[ex.PARAMETER_MODEL]
MODEL_PARAMETERS = family(("l3b_model_params_{}",), {
    "t5_base": "l3b_model_params_t5_base",
}, members=("t5_base",))


def register_parameter_row(scheme: str, name: str) -> None:
    cfg = configs.load(ex.PARAMETER_MODEL)
    k = facts.get("shaw_k_base").value if scheme == "shaw" else None

    @number(name, ",", f"{scheme} 加到 {cfg.name} 这样大小的模型上要学的参数")
    def _():
        return rel.added_parameters(scheme, cfg, max_relative_position=k)


for (_scheme, _model), (_name,) in SCHEME_PARAMETERS.items():
    register_parameter_row(_scheme, _name)


@number(SHAW_PER_HEAD, ",", "Shaw 的向量若像论文 base 模型那样每个头各一套（乘以头数）")
def _():
    cfg = configs.load(ex.PARAMETER_MODEL)
    return rel.added_parameters("shaw", cfg, max_relative_position=facts.get("shaw_k_base").value) * cfg["heads"]


def register_model_parameters(key: str, name: str) -> None:
    @number(name, ",", f"{configs.load(key).name} 自己的位置方案要学的参数")
    def _():
        return rel.model_position_parameters(configs.load(key))


for _key, (_name,) in MODEL_PARAMETERS.items():
    register_model_parameters(_key, _name)


# The ALiBi models together: the page says how many position parameters the three have between them (each
# counted from its configuration), not "0, 0 and 0".
@number("l3b_alibi_models_params_total", ",", "MPT-7B、BLOOM、Baichuan-13B（都是 ALiBi）自己的位置方案要学的参数，三个加起来")
def _():
    return sum(rel.model_position_parameters(configs.load(key)) for key in ex.ALIBI_MODELS)


# --- exercises ------------------------------------------------------------------------------------


def _baichuan():
    n = configs.load("baichuan_13b")["heads"]
    return rel.alibi_slopes(n), rel.alibi_extra_heads(n)


@number("ex_baichuan_head", "d", "练习：Baichuan-13B 第二个补上的头是第几个（从 1 数）")
def _():
    _, extra = _baichuan()
    return int(np.argmax(extra)) + 2


@number("ex_baichuan_head_slope", ".4f", "练习：这个头的斜率")
def _():
    s, extra = _baichuan()
    return s[int(np.argmax(extra)) + 1]


@number("ex_baichuan_above", "d", "练习：按斜率排，它紧挨着的前一个头（斜率比它大的里面最小的）是第几个")
def _():
    s, extra = _baichuan()
    i = int(np.argmax(extra)) + 1
    return int(np.argmin(np.where(s > s[i], s, np.inf))) + 1


@number("ex_baichuan_above_slope", ".4f", "练习：那个头的斜率")
def _():
    s, extra = _baichuan()
    i = int(np.argmax(extra)) + 1
    return s[int(np.argmin(np.where(s > s[i], s, np.inf)))]


@number("ex_baichuan_below", "d", "练习：紧挨着的后一个头（斜率比它小的里面最大的）是第几个")
def _():
    s, extra = _baichuan()
    i = int(np.argmax(extra)) + 1
    return int(np.argmax(np.where(s < s[i], s, -np.inf))) + 1


@number("ex_baichuan_below_slope", ".4f", "练习：那个头的斜率")
def _():
    s, extra = _baichuan()
    i = int(np.argmax(extra)) + 1
    return s[int(np.argmax(np.where(s < s[i], s, -np.inf)))]


def _ex_t5():
    nb, md = ex.t5_buckets()
    rel_pos = np.array(-ex.EX_T5_DISTANCE)
    dec = int(rel.t5_bucket(rel_pos, False, nb, md))
    edge = next(e for e in rel.t5_bucket_edges(False, nb, md) if e[0] == dec)
    return dec, edge, int(rel.t5_bucket(rel_pos, True, nb, md))


@number("ex_t5_distance", "d", "练习：T5 里查的距离（键在查询前面多少个 token）")
def _():
    return ex.EX_T5_DISTANCE


@number("ex_t5_bucket", "d", "练习：这个距离在 T5 解码器里的桶")
def _():
    return _ex_t5()[0]


@number("ex_t5_bucket_first", "d", "练习：这个桶的第一个距离")
def _():
    return _ex_t5()[1][1]


@number("ex_t5_bucket_last", "d", "练习：这个桶的最后一个距离")
def _():
    return _ex_t5()[1][2]


@number("ex_t5_bucket_width", "d", "练习：这个桶管几个距离")
def _():
    _, (_, first, last), _ = _ex_t5()
    return last - first + 1


@number("ex_t5_bucket_enc", "d", "练习：同一个距离在 T5 编码器（键在前）里的桶")
def _():
    return _ex_t5()[2]
