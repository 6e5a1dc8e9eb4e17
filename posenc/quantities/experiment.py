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


# --- results per method -------------------------------------------------------------------------

_METHODS = ("nope", "learned", "sinusoidal", "sinusoidal_scaled", "alibi", "rope", "rope_partial")


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


@number("exp_partial_fraction", ".0%", "部分 RoPE 旋转每个头的多大比例的维度(transformers 的 partial_rotary_factor)")
def _():
    return _claims().config()["partial_rotary_fraction"]


# --- the learning curves (lesson 3) ----------------------------------------------------------------


@number("exp_curve_every", "", "学习曲线每隔多少步测一次验证 loss")
def _():
    return _claims().config()["curve_every"]


@number("exp_half_way", "", "训练到一半的步数(学习曲线上那一点)")
def _():
    return _claims().half_way()


@number("exp_half_way_sinusoidal", ".2f", "不乘 √d_model 的 sinusoidal 训练到一半时的验证 loss(位置 0–127,种子平均)")
def _():
    c = _claims()
    return c.curve_at("sinusoidal", c.half_way())


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


@number("exp_recovered", ".2f", "「回到预训练水平」的判定:训练长度之内的 loss 与预训练结束时相差不到多少 nats")
def _():
    return _claims().RECOVERED


@number("exp_pretrained_in", ".2f", "预训练结束时 RoPE 模型训练长度之内(位置 0–127)的 loss(种子平均),继续训练要回到的水平")
def _():
    return _claims().pretrained_in_distribution()


def _steps_text(steps: list) -> str:
    """The seeds' recovery steps as a range ("20–30"), over the seeds that recovered."""
    done = [x for x in steps if x is not None]
    if not done:
        raise ValueError(f"no seed recovered ({steps}); the sentence quoting this range needs rewording")
    lo, hi = min(done), max(done)
    return f"{lo}" if lo == hi else f"{lo}–{hi}"


def _register_extension(variant: str) -> None:
    @number(f"exp_ext_start_{variant}", ".2f", f"{variant}:换上新频率、继续训练之前,训练长度之内的 loss")
    def _start():
        return float(_claims().extension_curves(variant)[:, 0].mean())

    @number(f"exp_ext_end_{variant}", ".2f", f"{variant}:继续训练结束时,训练长度之内的 loss")
    def _end():
        return float(_claims().extension_curves(variant)[:, -1].mean())

    @number(f"exp_ext_new_{variant}", ".2f", f"{variant}:继续训练之后,位置 128 到新长度之内的平均 loss")
    def _new():
        return _claims().extension_new_range(variant, "after")

    @number(f"exp_ext_rise_{variant}", "+.2f", f"{variant}:继续训练之后,越过新长度比新长度后半段高出多少 loss")
    def _rise():
        return _claims().extension_rise(variant)


for _v in ("rope", "pi", "ntk", "yarn", "abf"):
    _register_extension(_v)


for _v in ("rope", "ntk", "yarn", "abf"):
    number(f"exp_ext_recover_{_v}", "", f"{_v}:训练长度之内的 loss 从第几步起回到并保持在预训练水平附近(回到了的种子的范围)")(
        lambda v=_v: _steps_text(_claims().steps_to_recover(v)))


@number("exp_ext_recovered_seeds_abf", "", "ABF:继续训练结束时回到预训练水平附近的种子数")
def _():
    return sum(x is not None for x in _claims().steps_to_recover("abf"))


@number("exp_ext_end_abf_worst", ".3f", "ABF:继续训练结束时训练长度之内 loss 最高的那个种子,比它自己预训练结束时高多少")
def _():
    c = _claims()
    return float((c.extension_curves("abf")[:, -1] - c.pretrained_in_distribution(per_seed=True)).max())
