"""Numbers from the training experiment (posenc/experiment/results/full.json) that lessons quote.

Every value is read from the committed results through ``posenc.experiment.claims``, or
computed from the model itself; none is typed in. A loss or a difference of losses is
quoted as its mean over seeds with the half-width of its 95% t interval, "4.85 ± 0.01"
(posenc.experiment.stats.Estimate; posenc.formatting prints it): the reader sees the
spread, not only the mean. Differences are paired per seed, as the claims compare them.
The model's width and training length are lesson 3's project_d_model and project_train_len.

Families of numbers (one per scaling or extension variant) are literal tables below, so every
name a page quotes can be found by searching for it. The per-method family follows the method
records of posenc/experiment/course.py instead (METHOD_LOSS_NAMES): search for its patterns,
``exp_in_dist_``, ``exp_beyond_``, ``exp_rise_``.
"""

from __future__ import annotations

from pathlib import Path

from ..experiment import course  # the records only: no torch
from ..formatting import count_words
from . import family, number


def _claims():
    from ..experiment import claims  # no torch: the site build stays light

    return claims


def _estimate(per_seed):
    from ..experiment.stats import Estimate

    return Estimate.of(per_seed)


def _spread(per_seed, *methods: str):
    """A mean ± interval, or the smallest–largest per-seed value where a method's seeds split into two
    groups (claims.TWO_GROUPS: unscaled sinusoidal), whose mean describes neither group."""
    from ..experiment.stats import SeedRange

    return SeedRange.of(per_seed) if set(methods) & set(_claims().TWO_GROUPS) else _estimate(per_seed)


# --- setting --------------------------------------------------------------------------------------


@number("exp_method_count", "", "实验里位置方案的个数，写成字（七 / seven）：posenc/experiment/course.py 的记录数")
def _():
    return count_words(len(course.METHOD_RECORDS))


@number("exp_attention_method_count", "", "实验里把位置放进注意力里的方案个数，写成字（course.py 的 attention 一族）")
def _():
    return count_words(len(course.in_family("attention")))


@number("exp_extension_count", "", "继续训练的做法个数，写成字（五 / five）：course.py 的 RoPE 频率变体")
def _():
    return count_words(len(course.VARIANT_RECORDS))


@number("exp_scaling_count", "", "推理时给 RoPE 换频率的做法个数（含不缩放），写成字")
def _():
    return count_words(len(course.ROPE_SCALING_LABELS))


@number("exp_params_m", ".1f", "实验模型参数量,以百万计(≈3.7M 里的 3.7)")
def _():
    return _claims().parameters("rope") / 1e6


@number("exp_learned_table_params", ",", "可学习位置表多出的参数(512 行 × d_model)")
def _():
    c = _claims()
    return c.parameters("learned") - c.parameters("rope")


@number("exp_layers", "", "实验模型层数")
def _():
    return _claims().config()["n_layers"]


@number("exp_heads", "", "实验模型每层的注意力头数")
def _():
    return _claims().config()["n_heads"]


@number("exp_steps", ",", "训练步数")
def _():
    return _claims().config()["steps"]


@number("exp_batch", "", "每步的序列条数(batch size)")
def _():
    return _claims().config()["batch_size"]


@number("exp_eval_len", "", "评估长度(token):训练长度的 4 倍")
def _():
    return _claims().config()["eval_len"]


@number("exp_seeds", "", "随机种子个数")
def _():
    return len(_claims().seeds())


@number("exp_vocab", ",", "字表大小(最常见的 2,047 个字 + 未知字)")
def _():
    return _claims().results()["data"]["vocab_size"]


@number("exp_corpus_records", ",", "清洗后语料的条数(fortunes-zh 的古诗词、论语、道德经、谚语)")
def _():
    return _claims().results()["data"]["records"]


@number("exp_train_tokens", ",", "训练集字数")
def _():
    return _claims().results()["data"]["train_tokens"]


@number("exp_unigram_loss", ".2f", "只按字频猜下一个字的 loss(基线,nats)")
def _():
    return _claims().unigram_loss()


@number("exp_train_last", "", "训练长度之内的最后一个位置(训练长度 − 1)")
def _():
    return _claims().config()["train_len"] - 1


@number("exp_eval_last", "", "评测序列的最后一个位置(评测长度 − 1)")
def _():
    return _claims().config()["eval_len"] - 1


@number("exp_late_from", "", "「越过训练长度抬高多少」的参照段从哪个位置开始(训练长度的后半段)")
def _():
    return _claims().LATE_IN_DISTRIBUTION[0]


@number("exp_early_positions", "", "「最开头几个位置」:几乎没有上下文的前几个位置")
def _():
    return _claims().EARLY


@number("exp_partial_fraction", ".0%", "部分 RoPE 旋转每个头的多大比例的维度(transformers 的 partial_rotary_factor)")
def _():
    return _claims().config()["partial_rotary_fraction"]


def _config():
    """The committed results' configuration as the experiment's Config (its derived widths included)."""
    from ..experiment.config import Config

    return Config(**_claims().config())


@number("exp_head_dim", "", "实验模型一个注意力头的宽度 d_head(d_model ÷ 头数)")
def _():
    return _config().head_dim


@number("exp_partial_rotated_dims", "", "部分 RoPE 每个头旋转的维数 d_rot(transformers 的 int(d_head × partial_rotary_factor))")
def _():
    from ..rope import rotary_dim

    cfg = _config()
    return rotary_dim(cfg.head_dim, cfg.partial_rotary_fraction)


@number("exp_partial_unrotated_fraction", ".0%", "部分 RoPE 每个头不旋转的维度所占的比例(1 − partial_rotary_factor)")
def _():
    return 1 - _claims().config()["partial_rotary_fraction"]


# --- how sure a sentence is (posenc/experiment/stats.py) ---------------------------------------------


@number("exp_clearly", ".1f", "「明显」的门槛:每个种子两组之差的 95% 区间整个高于多少 nats(≈ 困惑度高 10%)")
def _():
    from ..experiment import stats

    return stats.CLEARLY


@number("exp_different", ".2f", "不带「明显」的「好于/低于/抬高」的门槛:区间整个高于多少 nats(≈ 困惑度高 2%)")
def _():
    from ..experiment import stats

    return stats.DIFFERENT


@number("exp_same", ".2f", "「几乎不变」:区间整个落在正负多少 nats 之内(≈ 困惑度差 5%);「略」和「分不出」也以它为界")
def _():
    from ..experiment import stats

    return stats.SAME


@number("exp_same_ppl", ".0%", "「几乎不变」的范围换成困惑度:e^0.05 − 1")
def _():
    import math

    from ..experiment import stats

    return math.expm1(stats.SAME)


def _position_gain() -> float:
    """The whole gain from a position signal in this experiment: NoPE − RoPE within the training length (mean over seeds)."""
    c = _claims()
    return float((c.in_distribution("nope", True) - c.in_distribution("rope", True)).mean())


@number("exp_position_gain", ".2f", "位置信息带来的全部收益:训练长度之内 NoPE − RoPE 的均值(nats),门槛的尺度")
def _():
    return _position_gain()


@number("exp_clearly_share", ".0%", "「明显」的门槛占位置信息全部收益(NoPE − RoPE)的比例")
def _():
    from ..experiment import stats

    return stats.CLEARLY / _position_gain()


@number("exp_same_share", ".0%", "「几乎不变」的范围占位置信息全部收益的比例")
def _():
    from ..experiment import stats

    return stats.SAME / _position_gain()


@number("exp_different_share", ".0%", "不带「明显」的比较的门槛占位置信息全部收益的比例")
def _():
    from ..experiment import stats

    return stats.DIFFERENT / _position_gain()


@number("exp_level", ".0%", "区间的置信水平(95%)")
def _():
    from ..experiment import stats

    return stats.LEVEL


@number("exp_quantile_level", ".1%", "双侧 95% 区间用的 t 分布分位数的水平(97.5%)")
def _():
    from ..experiment import stats

    return stats.QUANTILE


@number("exp_normal_quantile", ".2f", "正态分布的 97.5% 分位数(种子数很多时 t 分位数趋近它)")
def _():
    from scipy import stats as scipy_stats

    from ..experiment import stats

    return float(scipy_stats.norm.ppf(stats.QUANTILE))


@number("exp_clearly_ppl", ".1%", "「明显」的门槛换成困惑度:e^0.1 − 1")
def _():
    import math

    from ..experiment import stats

    return math.expm1(stats.CLEARLY)


@number("exp_different_ppl", ".0%", "不带「明显」的门槛换成困惑度:e^0.02 − 1")
def _():
    import math

    from ..experiment import stats

    return math.expm1(stats.DIFFERENT)


def _t_quantile(results_path=None) -> float:
    """The factor of a 95% t interval over the seeds of a results file (default full.json): t(0.975, n − 1)."""
    from scipy import stats as scipy_stats

    from ..experiment import stats

    return float(scipy_stats.t.ppf(stats.QUANTILE, len(_claims().seeds(results_path)) - 1))


@number("exp_t_quantile", ".2f", "种子数为 n 时 95% t 区间用的系数 t(0.975, n − 1)")
def _():
    return _t_quantile()


# --- results per method: mean ± 95% interval over seeds ---------------------------------------------

# Three numbers per method, in the order of posenc/experiment/course.py's records (the results table's rows,
# {{ method_rows() }}): derived from the records, so a new method's record brings its numbers. Span "in" =
# positions 0–127, "beyond" = 128–511, "rise" = beyond minus 64–127.
SPANS = ("in", "beyond", "rise")
METHOD_LOSS_NAMES = family(("exp_in_dist_{}", "exp_beyond_{}", "exp_rise_{}"), None,
                           members=[m.key for m in course.METHOD_RECORDS])
# name: (method, span)
METHOD_LOSSES = {name: (method, span) for method, names in METHOD_LOSS_NAMES.items() for name, span in zip(names, SPANS)}
_SPAN_DOC = {"in": "训练长度之内(位置 0–127)的平均 loss", "beyond": "训练长度之外(位置 128–511)的平均 loss",
             "rise": "128–511 比 64–127 高出多少 loss"}


def _per_seed(source: str, key: str, path=None):
    """One value per seed of results file ``path`` (default the site's, results/full.json)."""
    c = _claims()
    return {
        "in": c.in_distribution, "beyond": c.beyond, "rise": c.rise,
        "scaled_in": c.scaling_in_distribution, "scaled_beyond": c.scaling_beyond, "scaled_rise": c.scaling_rise,
        "ext_start": lambda v, _, path: c.extension_curves(v, path)[:, 0],
        "ext_end": lambda v, _, path: c.extension_curves(v, path)[:, -1],
        "ext_new": lambda v, _, path: c.extension_new_range(v, "after", True, path), "ext_rise": c.extension_rise,
        "ext_gap": c.extension_gap, "early": c.early_excess,
    }[source](key, True, path=path)


for _name, (_method, _span) in METHOD_LOSSES.items():
    number(_name, "+.2f" if _span == "rise" else ".2f",
           f"{_method}:{_SPAN_DOC[_span]}(均值 ± 95% 区间半宽;种子分成两堆的方法:最小–最大)")(
        lambda m=_method, s=_span: _spread(_per_seed(s, m), m))


# name: ((source, a), (source, b)): the per-seed difference a − b, mean ± 95% interval (what a claim judges)
DIFFERENCES = {
    "exp_diff_sin_learned_in": (("in", "sinusoidal"), ("in", "learned")),
    "exp_diff_learned_nope_in": (("in", "learned"), ("in", "nope")),
    "exp_diff_learned_sin_scaled_in": (("in", "learned"), ("in", "sinusoidal_scaled")),
    "exp_diff_nope_sin_scaled_in": (("in", "nope"), ("in", "sinusoidal_scaled")),
    "exp_diff_sqrt_d_in": (("in", "sinusoidal"), ("in", "sinusoidal_scaled")),
    "exp_diff_sin_scaled_alibi_in": (("in", "sinusoidal_scaled"), ("in", "alibi")),
    "exp_diff_alibi_rope_in": (("in", "alibi"), ("in", "rope")),
    "exp_diff_sin_scaled_rope_in": (("in", "sinusoidal_scaled"), ("in", "rope")),
    "exp_diff_partial_rope_in": (("in", "rope_partial"), ("in", "rope")),
    "exp_diff_partial_alibi_in": (("in", "rope_partial"), ("in", "alibi")),
    "exp_diff_nope_rope_in": (("in", "nope"), ("in", "rope")),
    "exp_diff_rope_nope_beyond": (("beyond", "rope"), ("beyond", "nope")),
    "exp_diff_rope_alibi_beyond": (("beyond", "rope"), ("beyond", "alibi")),
    "exp_diff_nope_alibi_beyond": (("beyond", "nope"), ("beyond", "alibi")),
    "exp_diff_ntk_rope_in": (("scaled_in", "ntk"), ("in", "rope")),
    "exp_diff_rope_ntk_beyond": (("beyond", "rope"), ("scaled_beyond", "ntk")),
    "exp_diff_rope_yarn_beyond": (("beyond", "rope"), ("scaled_beyond", "yarn")),
    "exp_diff_nope_yarn_beyond": (("beyond", "nope"), ("scaled_beyond", "yarn")),
    "exp_diff_ext_rope_yarn_new": (("ext_new", "rope"), ("ext_new", "yarn")),
}

# Where a page says which side of 0 one of these intervals lies on (the results page's table of the three lowest), a
# results file that moves it fails the build, naming the pages to reword.
DIFFERENCE_SIDES = {"exp_diff_partial_alibi_in": ("contains 0", "docs/lessons/results*.md")}
_SIDES = {"contains 0": lambda e: e.contains_zero(), "below 0": lambda e: e.below(0.0)}


def _difference(name: str, a: tuple, b: tuple):
    est = _spread(_per_seed(*a) - _per_seed(*b), a[1], b[1])
    if name in DIFFERENCE_SIDES:
        side, pages = DIFFERENCE_SIDES[name]
        if not _SIDES[side](est):
            raise ValueError(f"{a[0]}({a[1]}) − {b[0]}({b[1]}) is {est}: the pages say its interval {side}; reword those "
                             f"sentences ({pages}) and DIFFERENCE_SIDES")
    return est


for _name, (_a, _b) in DIFFERENCES.items():
    number(_name, "+.3f", f"每个种子上 {_a[0]}({_a[1]}) − {_b[0]}({_b[1]}) 的均值 ± 95% 区间半宽(nats;种子分成两堆的方法:最小–最大)")(
        lambda name=_name, a=_a, b=_b: _difference(name, a, b))


# name: ((source, a), (source, b), digits, pages): the lower end of the 95 % interval of the per-seed a − b on seeds
# 0–15, printed to ``digits`` decimals. The pages say it lies above zero (resolved, if only just); a results file that
# moved it to zero or below fails the build, naming the pages to reword.
INTERVAL_LOWS = {
    "exp_partial_rope_in_interval_low": (("in", "rope_partial"), ("in", "rope"), 4, "docs/lessons/06-partial-nope*.md, results*.md"),
    "exp_alibi_rope_in_interval_low": (("in", "alibi"), ("in", "rope"), 3, "docs/lessons/04-rope*.md, results*.md"),
}


def _interval_low_above_zero(a: tuple, b: tuple, digits: int, pages: str) -> float:
    low = _estimate(_per_seed(*a) - _per_seed(*b)).low
    if round(low, digits) <= 0:
        raise ValueError(f"the interval of {a[0]}({a[1]}) − {b[0]}({b[1]}) now starts at {low:+.{digits + 1}f}: the pages "
                         f"say its lower end is above zero; reword those sentences ({pages})")
    return low


for _name, (_a, _b, _digits, _pages) in INTERVAL_LOWS.items():
    number(_name, f"+.{_digits}f", f"{_a[0]}({_a[1]}) − {_b[0]}({_b[1]}) 逐种子之差的 95% 区间下端:页面写它在零以上({_pages})")(
        lambda a=_a, b=_b, digits=_digits, pages=_pages: _interval_low_above_zero(a, b, digits, pages))


# name: (source, key) of one per-seed quantity, mean ± 95% interval
SINGLE_ESTIMATES = {
    "exp_early_sin_scaled": ("early", "sinusoidal_scaled"),
    "exp_early_nope": ("early", "nope"),
}

for _name, (_source, _key) in SINGLE_ESTIMATES.items():
    number(_name, "+.2f", f"{_source}({_key}) 的均值 ± 95% 区间半宽(nats)")(lambda s=_source, k=_key: _estimate(_per_seed(s, k)))


@number("exp_sin_stalled", "", "不乘 √d_model 的 sinusoidal 有几个种子停在字频基线附近")
def _():
    return len(_claims().stalled_seeds("sinusoidal"))


@number("exp_sin_escaped", "", "不乘 √d_model 的 sinusoidal 有几个种子学到了字频之外的东西(种子数 − 停住的)")
def _():
    c = _claims()
    return len(c.seeds()) - len(c.stalled_seeds("sinusoidal"))


@number("exp_stall_margin", ".2f", "「停在字频基线附近」的判定:训练长度内 loss 与基线相差不到多少 nats")
def _():
    return _claims().STALL


@number("exp_sin_best_seed", ".2f", "不乘 √d_model 的 sinusoidal 最好的那个种子在训练长度之内的 loss")
def _():
    return float(_claims().in_distribution("sinusoidal", per_seed=True).min())


# --- RoPE scaled at evaluation time (lesson 5): mean ± 95% interval over seeds ---------------------

SCALING_LOSSES = {
    "exp_in_dist_rope_pi": ("pi", "scaled_in"),
    "exp_in_dist_rope_ntk": ("ntk", "scaled_in"),
    "exp_in_dist_rope_yarn": ("yarn", "scaled_in"),
    "exp_beyond_rope_pi": ("pi", "scaled_beyond"),
    "exp_beyond_rope_ntk": ("ntk", "scaled_beyond"),
    "exp_beyond_rope_yarn": ("yarn", "scaled_beyond"),
    "exp_rise_rope_pi": ("pi", "scaled_rise"),
    "exp_rise_rope_ntk": ("ntk", "scaled_rise"),
    "exp_rise_rope_yarn": ("yarn", "scaled_rise"),
}

for _name, (_scaling, _source) in SCALING_LOSSES.items():
    number(_name, "+.2f" if _source == "scaled_rise" else ".2f", f"RoPE 推理时用 {_scaling} 缩放后:{_source}(均值 ± 95% 区间半宽)")(
        lambda k=_scaling, s=_source: _estimate(_per_seed(s, k)))


@number("exp_scaling_factor", "g", "推理时的缩放倍数 s = 评测长度 ÷ 训练长度")
def _():
    c = _claims().config()
    return c["eval_len"] / c["train_len"]


# --- YaRN at the experiment's scale (lesson 5): what the evaluation-time scaling changed ---------


def _exp_yarn():
    from .. import scaling

    c = _claims().config()
    return scaling.yarn_pairs(c["d_model"] // c["n_heads"], c["rope_base"], c["eval_len"] / c["train_len"], c["train_len"])


@number("exp_rope_pairs", "", "实验模型每个头的 RoPE 频率对数(head_dim / 2)")
def _():
    return len(_exp_yarn().pair)


@number("exp_fastest_turns", ".1f", "最快的第 0 对在训练长度之内转几圈")
def _():
    return float(_exp_yarn().rotations[0])


@number("exp_yarn_beta_fast", "g", "YaRN 的 β_fast:在原上下文里至少转这么多圈的对才原样保留")
def _():
    from ..scaling import YARN_BETA_FAST

    return YARN_BETA_FAST


@number("exp_yarn_kept", "", "实验的 YaRN 缩放里原样保留的频率对数")
def _():
    return _exp_yarn().kept


@number("exp_yarn_blended", "", "实验的 YaRN 缩放里落在过渡段(部分放慢)的频率对数")
def _():
    return _exp_yarn().blended


@number("exp_yarn_interpolated", "", "实验的 YaRN 缩放里整体除以 s 的频率对数")
def _():
    return _exp_yarn().interpolated


@number("exp_yarn_qk_factor", ".2f", "YaRN 给 q、k 各乘的系数 0.1 ln s + 1(s = 4)")
def _():
    return _exp_yarn().attention_factor


@number("exp_yarn_score_factor", ".2f", "q、k 各乘系数后,注意力分数被放大的倍数(系数的平方)")
def _():
    return _exp_yarn().attention_factor ** 2


# --- the learning curves (lesson 3) ----------------------------------------------------------------


@number("exp_curve_every", "", "学习曲线每隔多少步测一次验证 loss")
def _():
    return _claims().config()["curve_every"]


@number("exp_half_way", "", "训练到一半的步数(学习曲线上那一点)")
def _():
    return _claims().half_way()


@number("exp_half_way_sinusoidal", ".2f", "不乘 √d_model 的 sinusoidal 训练到一半时的验证 loss(位置 0–127;均值 ± 95% 区间半宽)")
def _():
    c = _claims()
    return _estimate(c.curve_at("sinusoidal", c.half_way(), per_seed=True))


# --- extending the context by continued training (lesson 5) -----------------------------------------


@number("exp_ext_len", "", "继续训练时的新长度(token)")
def _():
    return _claims().config()["ext_len"]


@number("exp_ext_factor", "g", "新长度是训练长度的几倍(PI、NTK-aware、YaRN 用的 s)")
def _():
    c = _claims().config()
    return c["ext_len"] / c["train_len"]


@number("exp_ext_steps", "", "继续训练的步数")
def _():
    return _claims().config()["ext_steps"]


@number("exp_ext_batch", "", "继续训练每步的序列条数(×新长度 = 预训练每步的 token 数)")
def _():
    return _claims().config()["ext_batch_size"]


@number("exp_ext_warmup", "", "继续训练的学习率预热步数")
def _():
    return _claims().config()["ext_warmup_steps"]


@number("exp_ext_lr", "g", "继续训练的学习率(预训练余弦调度结束时的值)")
def _():
    c = _claims().config()
    return c["lr"] * c["min_lr_ratio"]


@number("exp_ext_curve_every", "", "继续训练时每隔多少步测一次训练长度之内的 loss")
def _():
    return _claims().config()["ext_curve_every"]


@number("exp_ext_eval_len", ",", "继续训练前后逐位置评测的长度(新长度的 2 倍)")
def _():
    return _claims().config()["ext_eval_len"]


@number("exp_ext_eval_last", ",", "继续训练后评测序列的最后一个位置")
def _():
    return _claims().config()["ext_eval_len"] - 1


@number("exp_ext_last", "", "新长度之内的最后一个位置")
def _():
    return _claims().config()["ext_len"] - 1


@number("exp_ext_late_from", "", "「越过新长度抬高多少」的参照段从哪个位置开始(新长度的后半段)")
def _():
    return _claims().config()["ext_len"] // 2


@number("exp_abf_base", ",", "实验里 ABF 的新底数(Code Llama 的 ×100 规则)")
def _():
    return int(_claims().config()["abf_base"])


@number("exp_rope_base", ",", "实验模型预训练时 RoPE 的底数 θ")
def _():
    return int(_claims().config()["rope_base"])


@number("exp_recovered", ".2f", "数「第几步回到预训练水平」时的判定:训练长度之内的 loss 与预训练结束时相差不到多少 nats")
def _():
    return _claims().RECOVERED


@number("exp_pretrained_in", ".2f", "预训练结束时 RoPE 模型训练长度之内(位置 0–127)的 loss(均值 ± 95% 区间半宽),继续训练要回到的水平")
def _():
    return _estimate(_claims().pretrained_in_distribution(per_seed=True))


# name: (variant, source); ext_start / ext_end: positions 0–127 before and after the continued training,
# ext_new: 128 to the new length after it, ext_rise: past the new length minus its late half, after it
EXTENSION_LOSSES = {
    "exp_ext_start_rope": ("rope", "ext_start"),
    "exp_ext_start_pi": ("pi", "ext_start"),
    "exp_ext_start_ntk": ("ntk", "ext_start"),
    "exp_ext_start_yarn": ("yarn", "ext_start"),
    "exp_ext_start_abf": ("abf", "ext_start"),
    "exp_ext_end_rope": ("rope", "ext_end"),
    "exp_ext_end_pi": ("pi", "ext_end"),
    "exp_ext_end_ntk": ("ntk", "ext_end"),
    "exp_ext_end_yarn": ("yarn", "ext_end"),
    "exp_ext_end_abf": ("abf", "ext_end"),
    "exp_ext_new_rope": ("rope", "ext_new"),
    "exp_ext_new_pi": ("pi", "ext_new"),
    "exp_ext_new_ntk": ("ntk", "ext_new"),
    "exp_ext_new_yarn": ("yarn", "ext_new"),
    "exp_ext_new_abf": ("abf", "ext_new"),
    "exp_ext_rise_rope": ("rope", "ext_rise"),
    "exp_ext_rise_pi": ("pi", "ext_rise"),
    "exp_ext_rise_ntk": ("ntk", "ext_rise"),
    "exp_ext_rise_yarn": ("yarn", "ext_rise"),
    "exp_ext_rise_abf": ("abf", "ext_rise"),
    "exp_ext_gap_pi": ("pi", "ext_gap"),
}

for _name, (_variant, _source) in EXTENSION_LOSSES.items():
    number(_name, "+.2f" if _source in ("ext_rise", "ext_gap") else ".2f", f"{_variant}:{_source}(均值 ± 95% 区间半宽)")(
        lambda v=_variant, s=_source: _estimate(_per_seed(s, v)))


def _steps_text(steps: list) -> str:
    """The seeds' recovery steps as a range ("20–30"), over the seeds that recovered."""
    done = [x for x in steps if x is not None]
    if not done:
        raise ValueError(f"no seed recovered ({steps}); the sentence quoting this range needs rewording")
    lo, hi = min(done), max(done)
    return f"{lo}" if lo == hi else f"{lo}–{hi}"


# name: variant; the steps from which the in-distribution loss stays within RECOVERED of pre-training (range over seeds)
RECOVERY_STEPS = {
    "exp_ext_recover_rope": "rope",
    "exp_ext_recover_ntk": "ntk",
    "exp_ext_recover_yarn": "yarn",
    "exp_ext_recover_abf": "abf",
}

for _name, _variant in RECOVERY_STEPS.items():
    number(_name, "", f"{_variant}:训练长度之内的 loss 从第几步起回到并保持在预训练水平附近(回到了的种子的范围)")(
        lambda v=_variant: _steps_text(_claims().steps_to_recover(v)))


@number("exp_ext_recovered_seeds_abf", "", "ABF:继续训练结束时回到预训练水平附近的种子数")
def _():
    return sum(x is not None for x in _claims().steps_to_recover("abf"))


@number("exp_ext_recover_diff_abf_yarn", "+.0f", "每个种子上 ABF 比 YaRN 晚几步回到预训练水平(没回到的种子按最后一步再加一个测量间隔算;均值 ± 95% 区间半宽)")
def _():
    import numpy as np

    c = _claims()
    return _estimate(np.array(c.recovery_steps("abf")) - np.array(c.recovery_steps("yarn")))


# --- sizes in perplexity and counts of seeds, for the small differences the pages discuss --------------

# name: ((source, a), (source, b)): e^(mean of a − b) − 1, how much higher a's perplexity is
PERPLEXITY_GAPS = {
    "exp_ppl_alibi_rope_in": (("in", "alibi"), ("in", "rope")),
    "exp_ppl_partial_rope_in": (("in", "rope_partial"), ("in", "rope")),
    "exp_ppl_learned_nope_in": (("in", "learned"), ("in", "nope")),
    "exp_ppl_learned_sin_scaled_in": (("in", "learned"), ("in", "sinusoidal_scaled")),
}

for _name, ((_sa, _ka), (_sb, _kb)) in PERPLEXITY_GAPS.items():
    number(_name, ".1%", f"{_sa}({_ka}) 比 {_sb}({_kb}) 的困惑度高多少:e^(每个种子之差的均值) − 1")(
        lambda sa=_sa, ka=_ka, sb=_sb, kb=_kb: __import__("math").expm1(float((_per_seed(sa, ka) - _per_seed(sb, kb)).mean())))

# name: ((source, a), (source, b)): on how many seeds a > b
SEEDS_ABOVE = {
    "exp_seeds_alibi_above_rope_in": (("in", "alibi"), ("in", "rope")),
}

def _seeds_above(a: tuple, b: tuple, path=None) -> int:
    """On how many seeds of results file ``path`` a > b."""
    return int(((_per_seed(*a, path) - _per_seed(*b, path)) > 0).sum())


for _name, (_a, _b) in SEEDS_ABOVE.items():
    number(_name, "", f"在几个种子上 {_a[0]}({_a[1]}) 高于 {_b[0]}({_b[1]})")(lambda a=_a, b=_b: _seeds_above(a, b))


# --- the record and the pre-registration (posenc/experiment/frozen.py) ------------------------------------


def _frozen():
    from ..experiment import frozen

    return frozen


@number("exp_record_results_at", "", "种子 0–15 的结果文件提交的时间(git)")
def _():
    return _frozen().RECORD["results"][1]


@number("exp_record_margins_at", "", "stats.py 连同门槛第一次提交的时间(git)")
def _():
    return _frozen().RECORD["margins"][1]


@number("exp_record_margins_after_min", "", "门槛比 16 个种子的结果晚提交几分钟")
def _():
    from datetime import datetime

    f = _frozen()
    at = [datetime.strptime(f.RECORD[k][1], "%Y-%m-%d %H:%M UTC") for k in ("results", "margins")]
    return int((at[1] - at[0]).total_seconds() // 60)


@number("exp_record_two_groups_at", "", "「种子分两堆、逐种子判」的规则提交的时间(git)")
def _():
    return _frozen().RECORD["two_groups"][1]


@number("exp_freeze_date", "", "句子集合冻结(预注册)的日期")
def _():
    return _frozen().load()["date"]


@number("exp_freeze_claims", "", "冻结的句子数")
def _():
    return len(_frozen().load()["claim_set"]["claims"])


@number("exp_seed_range", "", "本站结果用的种子(编号范围,results/full.json)")
def _():
    return _frozen().seed_span(_claims().seeds())


@number("exp_replication_seeds", "", "复现用的新种子(编号范围)")
def _():
    r = _frozen().load()["replication"]
    return _frozen().seed_span(range(r["first_seed"], r["first_seed"] + r["seeds"]))


# --- the replication's numbers where a page states them (results/replication.json) ----------------------------------


def _replication_per_seed(source: str, key: str):
    return _per_seed(source, key, _frozen().REPLICATION_FILE)


@number("exp_rep_seed_count", "", "复现用了几个新种子")
def _():
    return len(_claims().seeds(_frozen().REPLICATION_FILE))


def _recorded_on(path, device: str) -> dict:
    """A results file's record, refused where it was not made on ``device`` (the reproduce list quotes its times as
    what that device takes)."""
    record = _claims().results(path)
    made_on = record["environment"]["device"]
    if not made_on.startswith(device):
        raise ValueError(f"{Path(path).name} was made on {made_on!r}, but the results page quotes its times as a {device} run's: "
                         "reword the reproduce list on the results page (docs/lessons/results*.md) or quote another file")
    return record


@number("exp_cpu_minutes_per_seed", ".0f", "复现在 CPU 上每个种子用的 CPU 时间(分钟,results/replication.json 记录的 cpu_seconds)")
def _():
    record = _recorded_on(_frozen().REPLICATION_FILE, "cpu")
    return record["cpu_seconds"] / len(record["seeds"]) / 60


@number("exp_gpu_minutes", ".0f", "本站结果在一块 GPU 上跑完全部种子的墙钟时间(分钟,results/full.json 记录的 wall_seconds)")
def _():
    return _recorded_on(_claims().RESULTS_FILE, "cuda")["wall_seconds"] / 60


@number("exp_gpu_jobs", "", "本站结果在 GPU 上同时训练的单元数(results/full.json 记录的 --jobs)")
def _():
    return _recorded_on(_claims().RESULTS_FILE, "cuda")["environment"]["jobs"]


@number("exp_rep_t_quantile", ".2f", "复现的种子数为 n 时 95% t 区间用的系数 t(0.975, n − 1)")
def _():
    return _t_quantile(_frozen().REPLICATION_FILE)


# name: ((source, a), (source, b), what the pages say of its interval on the replication seeds): the per-seed a − b
# there, mean ± 95% interval. The pages' words depend on the side of 0 the interval lies on, so a changed replication
# file that moves it fails the build, naming the pages to reword.
REPLICATION_DIFFERENCES = {
    "exp_rep_diff_alibi_rope_in": (("in", "alibi"), ("in", "rope"), "contains 0"),  # lesson 4, the results page
    "exp_rep_diff_partial_rope_in": (("in", "rope_partial"), ("in", "rope"), "contains 0"),  # the results page
    "exp_rep_diff_partial_alibi_in": (("in", "rope_partial"), ("in", "alibi"), "below 0"),  # the results page
}


def _replication_difference(a: tuple, b: tuple, side: str):
    est = _estimate(_replication_per_seed(*a) - _replication_per_seed(*b))
    if not _SIDES[side](est):
        raise ValueError(
            f"on the replication seeds {a[0]}({a[1]}) − {b[0]}({b[1]}) is {est}: the pages say its interval {side}; "
            "reword those sentences (docs/lessons/04-rope*.md, results*.md) and REPLICATION_DIFFERENCES")
    return est


for _name, (_a, _b, _side) in REPLICATION_DIFFERENCES.items():
    number(_name, "+.3f", f"复现种子上 {_a[0]}({_a[1]}) − {_b[0]}({_b[1]}) 的均值 ± 95% 区间半宽(页面说它的区间{_side})")(
        lambda a=_a, b=_b, side=_side: _replication_difference(a, b, side))


# name: ((source, a), (source, b)): on how many replication seeds a > b
REPLICATION_SEEDS_ABOVE = {
    "exp_rep_seeds_alibi_above_rope_in": (("in", "alibi"), ("in", "rope")),
    "exp_rep_seeds_alibi_above_partial_in": (("in", "alibi"), ("in", "rope_partial")),
}

for _name, (_a, _b) in REPLICATION_SEEDS_ABOVE.items():
    number(_name, "", f"复现种子里有几个 {_a[0]}({_a[1]}) 高于 {_b[0]}({_b[1]})")(
        lambda a=_a, b=_b: _seeds_above(a, b, _frozen().REPLICATION_FILE))
