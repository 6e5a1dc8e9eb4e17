"""Numbers quoted by lesson 1 (why attention cannot see word order)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from posenc import attention as at
from posenc import sinusoidal
from posenc import tokenize
from posenc import examples as ex
from posenc import position_ids as pid
from posenc.quantities import family, number

_SUP = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def tiny(value: float) -> str:
    """A float-rounding-sized value for prose: "0" when exactly zero, else "2.2×10⁻¹⁶"."""
    v = float(value)
    if not np.isfinite(v):
        raise ValueError(f"refusing to print {v}: the number is not finite")
    if v == 0:
        return "0"
    mantissa, exponent = f"{v:.1e}".split("e")
    return f"{mantissa.replace('-', '−')}×10{str(int(exponent)).translate(_SUP)}"


def words(text, sep: str = "") -> str:
    """An example text as prose quotes it: a tuple of words (the English edition's) joined with spaces, a
    Chinese str's characters joined with ``sep``."""
    return tokenize.join(text) if isinstance(text, tuple) else sep.join(text)


# --- the seeded head ----------------------------------------------------------------------


@number("l1_d", "d", "演示注意力的维度 d")
def _():
    return ex.ATTN_D


@number("l1_seed", "d", "演示注意力权重的随机种子")
def _():
    return ex.ATTN_SEED


@number("l1_second_seed", "d", "两层因果示例里第二层的随机种子")
def _():
    return ex.SECOND_LAYER_SEED


@number("l1_float_eps", "", "float64 的机器精度（1 与下一个可表示数之差）")
def _():
    return tiny(np.finfo(np.float64).eps)


# --- swapping two tokens ------------------------------------------------------------------


@lru_cache(maxsize=None)
def _swap(lang: str, which: str, positions: bool) -> at.Swap:
    t = ex.texts(lang)
    text, i, j = {"main": t.swap_main, "short": t.swap_short}[which]
    return at.swap_experiment(text, i, j, at.make_head(ex.ATTN_D, ex.ATTN_SEED), ex.ATTN_SEED, positions)


SWAPS = family(("l1_{}_a", "l1_{}_b", "l1_{}_diff_nopos", "l1_{}_diff_pos"), {
    "main": ("l1_main_a", "l1_main_b", "l1_main_diff_nopos", "l1_main_diff_pos"),
    "short": ("l1_short_a", "l1_short_b", "l1_short_diff_nopos", "l1_short_diff_pos"),
})


def _register_swap(which: str, label: str):
    text, swapped, diff_nopos, diff_pos = SWAPS[which]

    @number(text, "", f"{label}：原句")
    def _(lang):
        return words(_swap(lang, which, False).text)

    @number(swapped, "", f"{label}：交换两个字之后")
    def _(lang):
        return words(_swap(lang, which, False).swapped)

    @number(diff_nopos, "", f"{label}：无位置信息时，同一个字在两种顺序下输出的最大差值")
    def _(lang):
        return tiny(_swap(lang, which, False).moved)

    @number(diff_pos, ".2f", f"{label}：加上位置向量后，同一个字在两种顺序下输出的最大差值")
    def _(lang):
        return _swap(lang, which, True).moved


_register_swap("main", "主例句")
_register_swap("short", "短例句")


@number("l1_main_i", "d", "主例句里被交换的第一个位置")
def _(lang):
    return ex.texts(lang).swap_main[1]


@number("l1_main_j", "d", "主例句里被交换的第二个位置")
def _(lang):
    return ex.texts(lang).swap_main[2]


@number("l1_main_char_i", "", "主例句里被交换的第一个字")
def _(lang):
    return words(ex.texts(lang).swap_main[0][ex.texts(lang).swap_main[1]])


@number("l1_main_char_j", "", "主例句里被交换的第二个字")
def _(lang):
    return words(ex.texts(lang).swap_main[0][ex.texts(lang).swap_main[2]])


@number("l1_main_len", "d", "主例句的 token 数")
def _(lang):
    return len(ex.texts(lang).swap_main[0])


@number("l1_short_i", "d", "短例句里被交换的第一个位置")
def _(lang):
    return ex.texts(lang).swap_short[1]


@number("l1_short_j", "d", "短例句里被交换的第二个位置")
def _(lang):
    return ex.texts(lang).swap_short[2]


@number("l1_short_char_i", "", "短例句里被交换的第一个字")
def _(lang):
    return words(ex.texts(lang).swap_short[0][ex.texts(lang).swap_short[1]])


@number("l1_weights_equiv_err", "", "max |A(PX) − P·A(X)·Pᵀ|：注意力权重矩阵随排列移动的误差")
def _(lang):
    return tiny(_swap(lang, "main", False).weights_error)


@number("l1_out_equiv_err", "", "max |Out(PX) − P·Out(X)|：输出随排列移动的误差")
def _(lang):
    return tiny(_swap(lang, "main", False).out_error)


def _repeat(lang):
    """First character that occurs twice in the main sentence, and its two positions."""
    text = ex.texts(lang).swap_main[0]
    toks = tokenize.tokens(text)
    for k, tok in enumerate(toks):
        if tok in toks[k + 1:]:
            return tok, k, toks.index(tok, k + 1)
    raise ValueError(f"the main sentence {text!r} has no repeated character; lesson 1 needs one to show equal token IDs")


@number("l1_repeat_char", "", "主例句里出现两次的字")
def _(lang):
    return _repeat(lang)[0]


@number("l1_repeat_pos_a", "d", "重复的字第一次出现的位置")
def _(lang):
    return _repeat(lang)[1]


@number("l1_repeat_pos_b", "d", "重复的字第二次出现的位置")
def _(lang):
    return _repeat(lang)[2]


@number("l1_repeat_tid", "d", "重复的字的 token ID（两次相同）")
def _(lang):
    _tok, k, _later = _repeat(lang)
    return int(tokenize.token_ids(ex.texts(lang).swap_main[0])[k])


@number("l1_repeat_diff_nopos", "", "无位置信息时，同一句里两个相同的字输出的最大差值")
def _(lang):
    _c, k, later = _repeat(lang)
    return tiny(at.row_difference(_swap(lang, "main", False).before.out, k, later))


@number("l1_repeat_diff_pos", ".2f", "加上位置向量后，同一句里两个相同的字输出的最大差值")
def _(lang):
    _c, k, later = _repeat(lang)
    return at.row_difference(_swap(lang, "main", True).before.out, k, later)


# --- token IDs and position IDs of the main sentence (one number per table cell) -----------


# one row per token of the main sentence (examples.SWAP_MAIN's text)
ID_CELLS = family(("l1_char_{}", "l1_tid_{}", "l1_pid_{}"), {
    0: ("l1_char_0", "l1_tid_0", "l1_pid_0"),
    1: ("l1_char_1", "l1_tid_1", "l1_pid_1"),
    2: ("l1_char_2", "l1_tid_2", "l1_pid_2"),
    3: ("l1_char_3", "l1_tid_3", "l1_pid_3"),
    4: ("l1_char_4", "l1_tid_4", "l1_pid_4"),
    5: ("l1_char_5", "l1_tid_5", "l1_pid_5"),
}, members=range(len(ex.SWAP_MAIN[0])))  # the same count in every edition (tests/test_examples.py)

for _k, (_char, _tid, _pid) in ID_CELLS.items():
    number(_char, "", f"主例句第 {_k} 个 token")(lambda lang, k=_k: words(ex.texts(lang).swap_main[0][k]))
    number(_tid, "d", f"主例句第 {_k} 个 token 的 token ID（posenc.tokenize）")(lambda lang, k=_k: int(tokenize.token_ids(ex.texts(lang).swap_main[0])[k]))
    number(_pid, "d", f"主例句第 {_k} 个 token 的 position ID")(lambda k=_k: k)


# --- the causal mask ------------------------------------------------------------------------


@lru_cache(maxsize=None)
def _causal(lang) -> at.Swap:
    """One causal layer, no positions: the figure draws its weights, the prose quotes its outputs."""
    text, i, j = ex.texts(lang).causal
    return at.swap_experiment(text, i, j, at.make_head(ex.ATTN_D, ex.ATTN_SEED), ex.ATTN_SEED, causal=True)


@lru_cache(maxsize=None)
def _causal_two_layers(lang):
    """Two causal layers with residual connections (at.stack), no positions: outputs of both orders."""
    sw = _causal(lang)
    heads = [at.make_head(ex.ATTN_D, s) for s in (ex.ATTN_SEED, ex.SECOND_LAYER_SEED)]
    mask = at.causal_mask(len(sw.perm))
    run = [at.stack(at.sentence_input(t, ex.ATTN_D, ex.ATTN_SEED), heads, mask) for t in (sw.text, sw.swapped)]
    return tuple(run)


@number("l1_causal_a", "", "因果掩码示例：原句")
def _(lang):
    return words(_causal(lang).text)


@number("l1_causal_b", "", "因果掩码示例：交换之后")
def _(lang):
    return words(_causal(lang).swapped)


@number("l1_causal_last_char", "", "因果掩码示例的最后一个字")
def _(lang):
    return words(ex.texts(lang).causal[0][-1])


@number("l1_causal_len", "d", "因果掩码示例的 token 数（最后一个字能看到的 token 数）")
def _(lang):
    return len(_causal(lang).perm)


@number("l1_causal_last_diff_1", "", "一层因果注意力、无位置：最后一个字在两种顺序下输出的最大差值")
def _(lang):
    sw = _causal(lang)
    return tiny(at.row_difference(sw.before.out, -1, other=sw.after.out))


@number("l1_causal_moved_diff_1", ".2f", "一层因果注意力、无位置：被交换的字在两种顺序下输出的最大差值")
def _(lang):
    return _causal(lang).moved


@number("l1_causal_last_diff_2", ".2f", "两层因果注意力、无位置：最后一个字在两种顺序下输出的最大差值")
def _(lang):
    a, b = _causal_two_layers(lang)
    return at.row_difference(a, -1, other=b)


# --- multi-head attention mixes tokens, and is still permutation-equivariant -------------------


@lru_cache(maxsize=None)
def _multi_head():
    return at.make_multi_head(ex.ATTN_D, ex.MHA_HEADS, ex.ATTN_SEED)


def _mix_change(lang):
    """What changing token MIX_ROW of the main sentence into MIX_CHAR adds to its row."""
    t = ex.texts(lang)
    ids = [tokenize.token_ids(t.mix_token)[0], tokenize.token_ids(t.swap_main[0])[ex.MIX_ROW]]
    vecs = at.token_vectors(ids, ex.ATTN_D, ex.ATTN_SEED)
    return vecs[0] - vecs[1]


@number("l1_mha_heads", "d", "多头注意力示例的头数")
def _():
    return ex.MHA_HEADS


@number("l1_mha_head_dim", "d", "多头注意力示例里每个头的宽度 d / h")
def _():
    return _multi_head().heads[0].w_q.shape[1]


@number("l1_mha_equiv_err", "", "max |MHA(PX) − P·MHA(X)|：多头注意力的输出随排列移动的误差（主例句交换）")
def _(lang):
    text, i, j = ex.texts(lang).swap_main
    x = at.sentence_input(text, ex.ATTN_D, ex.ATTN_SEED)
    p = at.permutation_matrix(at.swap(len(x), i, j))
    return tiny(np.abs(at.multi_head_attend(p @ x, _multi_head()) - p @ at.multi_head_attend(x, _multi_head())).max())


@number("l1_mix_char_old", "", "改动的那个字（原来的）")
def _(lang):
    return words(ex.texts(lang).swap_main[0][ex.MIX_ROW])


@number("l1_mix_char_new", "", "改动的那个字（换成的）")
def _(lang):
    return words(ex.texts(lang).mix_token)


@number("l1_mix_mha", ".2f", "只改一个字：多头注意力之后，其他字的输出最多变了多少")
def _(lang):
    x = at.sentence_input(ex.texts(lang).swap_main[0], ex.ATTN_D, ex.ATTN_SEED)
    return at.others_moved(lambda h: at.multi_head_attend(h, _multi_head()), x, ex.MIX_ROW, _mix_change(lang))


@number("l1_mix_layernorm", "", "只改一个字：LayerNorm 之后，其他字的输出最多变了多少")
def _(lang):
    x = at.sentence_input(ex.texts(lang).swap_main[0], ex.ATTN_D, ex.ATTN_SEED)
    return tiny(at.others_moved(at.layer_norm, x, ex.MIX_ROW, _mix_change(lang)))


# --- padding and position IDs ---------------------------------------------------------------


@lru_cache(maxsize=None)
def _batch(lang: str, side: str):
    return pid.pad_batch(ex.texts(lang).batch, side)


def _short_row(lang: str, side: str):
    ids, mask = _batch(lang, side)
    return ids[0], mask[0]


@number("l1_batch_short", "", "批里的短句")
def _(lang):
    return words(ex.texts(lang).batch[0])


@number("l1_batch_long", "", "批里的长句")
def _(lang):
    return words(ex.texts(lang).batch[1])


@number("l1_batch_width", "d", "补齐后的长度")
def _(lang):
    return _batch(lang, "right")[0].shape[1]


@number("l1_pad_count", "d", "短句补了几个 padding")
def _(lang):
    return int((_batch(lang, "right")[1][0] == 0).sum())


@number("l1_pad_fill", "d", "padding 位置填的 position ID")
def _():
    return pid.DEFAULT_FILL


@number("l1_pad_id", "d", "padding 的 token ID")
def _():
    return tokenize.PAD_ID


PADDING_ROWS = family(("l1_{}_ids", "l1_{}_mask", "l1_{}_pos", "l1_{}_naive", "l1_{}_shift"), {
    "right": ("l1_right_ids", "l1_right_mask", "l1_right_pos", "l1_right_naive", "l1_right_shift"),
    "left": ("l1_left_ids", "l1_left_mask", "l1_left_pos", "l1_left_naive", "l1_left_shift"),
})

for (_side, (_ids, _mask, _pos, _naive, _shift)), _zh in zip(PADDING_ROWS.items(), ("右", "左")):
    number(_ids, "", f"{_zh}侧 padding：短句的 token ID 行")(lambda lang, s=_side: pid.format_row(_short_row(lang, s)[0]))
    number(_mask, "", f"{_zh}侧 padding：短句的 attention_mask 行")(lambda lang, s=_side: pid.format_row(_short_row(lang, s)[1]))
    number(_pos, "", f"{_zh}侧 padding：由 mask 算出的 position_ids")(lambda lang, s=_side: pid.format_row(pid.from_mask(_short_row(lang, s)[1])))
    number(_naive, "", f"{_zh}侧 padding：直接用 arange 得到的 position_ids")(lambda lang, s=_side: pid.format_row(pid.naive_position_ids(_short_row(lang, s)[1])))
    number(_shift, "d", f"{_zh}侧 padding：arange 把真实 token 推后的最大格数")(lambda lang, s=_side: int(pid.shift(_short_row(lang, s)[1]).max()))


@number("l1_long_pos", "", "长句（没有 padding）的 position_ids")
def _(lang):
    return pid.format_row(pid.from_mask(_batch(lang, "left")[1][1]))


@number("l1_kv_next_short", "d", "KV cache 续写：短句下一个 token 的正确位置")
def _(lang):
    return int(pid.next_position_ids(_batch(lang, "left")[1])[0, 0])


@number("l1_kv_next_long", "d", "KV cache 续写：长句下一个 token 的正确位置")
def _(lang):
    return int(pid.next_position_ids(_batch(lang, "left")[1])[1, 0])


@number("l1_kv_next_naive", "d", "KV cache 续写：按缓存长度当位置时，每一行拿到的位置")
def _(lang):
    return _batch(lang, "left")[1].shape[1]


@number("l1_kv_short_error", "d", "按缓存长度当位置时，短句的新 token 被推后了几格")
def _(lang):
    return _batch(lang, "left")[1].shape[1] - int(pid.next_position_ids(_batch(lang, "left")[1])[0, 0])


@lru_cache(maxsize=None)
def _leftpad_outputs(lang):
    """Short sentence alone vs inside the left-padded batch, with mask-derived and with arange positions."""
    head = at.make_head(ex.ATTN_D, ex.ATTN_SEED)
    ids, mask = _short_row(lang, "left")
    alone_ids = tokenize.token_ids(ex.texts(lang).batch[0])
    alone = at.attend_padded(alone_ids, np.ones_like(alone_ids), np.arange(alone_ids.size), head, ex.ATTN_SEED)
    right = at.attend_padded(ids, mask, pid.from_mask(mask), head, ex.ATTN_SEED)
    wrong = at.attend_padded(ids, mask, pid.naive_position_ids(mask), head, ex.ATTN_SEED)
    return alone, right, wrong


@number("l1_leftpad_ok_diff", "", "左 padding + 由 mask 算位置：短句输出与不补齐时的最大差值")
def _(lang):
    alone, right, _w = _leftpad_outputs(lang)
    return tiny(np.abs(alone - right).max())


@number("l1_leftpad_bug_diff", ".2f", "左 padding + arange 位置：短句输出与不补齐时的最大差值")
def _(lang):
    alone, _r, wrong = _leftpad_outputs(lang)
    return np.abs(alone - wrong).max()


# --- sequence packing (the optional deep dive after padding) ------------------------------------------


@lru_cache(maxsize=None)
def _packed(lang):
    return pid.pack(ex.texts(lang).packed)


@number("l1_pack_chars", "", "拼成一行的 token（每个字一格）")
def _(lang):
    return " ".join(tok for text in ex.texts(lang).packed for tok in tokenize.tokens(text))


@number("l1_pack_docs", "", "拼成一行后，每一格属于第几篇文档")
def _(lang):
    return pid.format_row(_packed(lang)[1])


@number("l1_pack_pos_running", "", "拼成一行后，沿整行接着数的 position ID")
def _(lang):
    return pid.format_row(pid.packed_position_ids(_packed(lang)[1], reset=False))


@number("l1_pack_pos_reset", "", "拼成一行后，每篇文档从 0 重新数的 position ID")
def _(lang):
    return pid.format_row(pid.packed_position_ids(_packed(lang)[1], reset=True))


@number("l1_pack_shift", "d", "拼接后位置接着数：第二篇文档的每个字被推后几格（= 第一篇的长度）")
def _(lang):
    doc = _packed(lang)[1]
    running, reset = pid.packed_position_ids(doc, reset=False), pid.packed_position_ids(doc, reset=True)
    return int((running - reset)[doc == 1].max())


@lru_cache(maxsize=None)
def _packed_gaps(lang) -> dict:
    """Per document, the largest difference between its outputs inside the packed row and its outputs alone.

    The demo head with lesson 1's added position vectors, causal attention; the row is run four ways: positions
    running on or reset per document, under the causal mask over the whole row or the document mask.
    Returns {(reset, document_mask): [gap of document 0, gap of document 1, …]}.
    """
    head = at.make_head(ex.ATTN_D, ex.ATTN_SEED)
    ids, doc = _packed(lang)
    tokens = at.token_vectors(ids, ex.ATTN_D, ex.ATTN_SEED)
    alone = []
    for text in ex.texts(lang).packed:
        t = tokenize.token_ids(text)
        x = at.token_vectors(t, ex.ATTN_D, ex.ATTN_SEED) + sinusoidal.table(np.arange(t.size), ex.ATTN_D)
        alone.append(at.attend(x, head, at.causal_mask(t.size)).out)
    gaps = {}
    for reset in (False, True):
        x = tokens + sinusoidal.table(pid.packed_position_ids(doc, reset=reset), ex.ATTN_D)
        for docmask in (False, True):
            out = at.attend(x, head, pid.document_mask(doc) if docmask else at.causal_mask(ids.size)).out
            gaps[reset, docmask] = [float(np.abs(out[doc == k] - a).max()) for k, a in enumerate(alone)]
    return gaps


@number("l1_pack_gap_causal_running", ".2f", "拼接训练，整行的因果掩码、位置接着数：第二篇文档的输出与它单独跑时的最大差值")
def _(lang):
    return _packed_gaps(lang)[False, False][1]


@number("l1_pack_gap_causal_reset", ".2f", "拼接训练，整行的因果掩码、每篇从 0 数：第二篇文档的输出与它单独跑时的最大差值")
def _(lang):
    return _packed_gaps(lang)[True, False][1]


@number("l1_pack_gap_doc_running", ".2f", "拼接训练，文档内掩码、位置接着数：第二篇文档的输出与它单独跑时的最大差值")
def _(lang):
    return _packed_gaps(lang)[False, True][1]


@number("l1_pack_gap_doc_reset", "", "拼接训练，文档内掩码、每篇从 0 数：第二篇文档的输出与它单独跑时的最大差值（舍入误差）")
def _(lang):
    return tiny(_packed_gaps(lang)[True, True][1])


@number("l1_pack_gap_first_doc", "", "拼接训练：第一篇文档的输出与它单独跑时的最大差值（四种做法里最大的）")
def _(lang):
    return tiny(max(g[0] for g in _packed_gaps(lang).values()))
