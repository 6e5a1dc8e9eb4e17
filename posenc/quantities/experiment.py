"""Numbers from the training experiment (posenc/experiment/results/full.json) that lessons quote.

Every value is read from the committed results through ``posenc.experiment.claims``
(means over seeds), or computed from the model itself; none is typed in. The model's
width and training length are lesson 3's project_d_model and project_train_len
(posenc.examples reads them from the experiment's preset, which verify ties to the results).
"""

from __future__ import annotations

from . import number


def _claims():
    from ..experiment import claims  # no torch: the site build stays light

    return claims


# --- setting --------------------------------------------------------------------------------------


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


# --- results per method -------------------------------------------------------------------------

_METHODS = ("nope", "learned", "sinusoidal", "sinusoidal_scaled", "rope")


def _register_method(method: str) -> None:
    @number(f"exp_in_dist_{method}", ".2f", f"{method}:训练长度之内(位置 0–127)的平均 loss")
    def _in():
        return _claims().in_distribution(method)

    @number(f"exp_beyond_{method}", ".2f", f"{method}:训练长度之外(位置 128–511)的平均 loss")
    def _out():
        return _claims().beyond(method)

    @number(f"exp_rise_{method}", "+.2f", f"{method}:128–511 比 64–127 高出多少 loss")
    def _rise():
        return _claims().rise(method)


for _m in _METHODS:
    _register_method(_m)


@number("exp_sqrt_d_share", ".0%", "√d_model 补回了 sinusoidal 与 learned/RoPE 差距的几成")
def _():
    return _claims().sqrt_d_share()




def _register_scaling(name: str) -> None:
    @number(f"exp_beyond_rope_{name}", ".2f", f"RoPE 推理时用 {name} 缩放后,位置 128–511 的平均 loss")
    def _out():
        return _claims().scaling_beyond(name)

    @number(f"exp_in_dist_rope_{name}", ".2f", f"RoPE 推理时用 {name} 缩放后,位置 0–127 的平均 loss")
    def _in():
        return _claims().scaling_in_distribution(name)

    @number(f"exp_rise_rope_{name}", "+.2f", f"RoPE 推理时用 {name} 缩放后,128–511 比 64–127 高出多少 loss")
    def _rise():
        return _claims().scaling_rise(name)


for _s in ("pi", "ntk", "yarn"):
    _register_scaling(_s)


@number("exp_scaling_factor", "g", "推理时的缩放倍数 s = 评测长度 ÷ 训练长度")
def _():
    c = _claims().config()
    return c["eval_len"] / c["train_len"]


@number("exp_late_from", "", "「越过训练长度抬高多少」的参照段从哪个位置开始(训练长度的后半段)")
def _():
    return _claims().LATE_IN_DISTRIBUTION[0]


@number("exp_early_positions", "", "「最开头几个位置」:几乎没有上下文的前几个位置")
def _():
    return _claims().EARLY


@number("exp_train_last", "", "训练长度之内的最后一个位置(训练长度 − 1)")
def _():
    return _claims().config()["train_len"] - 1


@number("exp_eval_last", "", "评测序列的最后一个位置(评测长度 − 1)")
def _():
    return _claims().config()["eval_len"] - 1


@number("exp_sin_stalled", "", "不乘 √d_model 的 sinusoidal 有几个种子停在字频基线附近")
def _():
    return len(_claims().stalled_seeds("sinusoidal"))


@number("exp_stall_margin", ".2f", "「停在字频基线附近」的判定:训练长度内 loss 与基线相差不到多少 nats")
def _():
    return _claims().STALL


@number("exp_sin_seed_losses", "", "不乘 √d_model 的 sinusoidal 每个种子在训练长度之内的 loss(按种子顺序)")
def _():
    return " / ".join(f"{v:.2f}" for v in _claims().in_distribution("sinusoidal", per_seed=True))


@number("exp_clearly", ".1f", "「明显」的门槛:两组平均 loss 至少差多少 nats(≈ 困惑度高 10%)")
def _():
    return _claims().CLEARLY


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
