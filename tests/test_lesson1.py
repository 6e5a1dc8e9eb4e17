"""Lesson 1 (attention cannot see word order): the numbers the page quotes and every figure, drawn and compared with
what posenc computes (the phone rule: tests/test_figure_phone.py).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from figure_support import drawn, registered, tick_labels
from posenc import attention as at
from posenc import examples as ex
from posenc import quantities
from posenc import sinusoidal, tokenize


def test_tiny_values_are_printed_as_powers_of_ten():
    from posenc.quantities.lesson1 import tiny

    assert tiny(0.0) == "0"
    assert tiny(2.220446049250313e-16) == "2.2×10⁻¹⁶"
    assert tiny(1.5e3) == "1.5×10³"
    with pytest.raises(ValueError, match="not finite"):
        tiny(float("nan"))


def test_fnv1a_word_ids_match_the_published_test_vectors():
    """posenc.tokenize.word_id is 32-bit FNV-1a (the swap widget's hashWord): the reference values of its authors'
    test suite (http://www.isthe.com/chongo/src/fnv/test_fnv.c), for ASCII words whose UTF-16 units are their bytes."""
    assert tokenize.word_id("a") == 0xE40C292C
    assert tokenize.word_id("foobar") == 0xBF9CF968
    assert list(tokenize.token_ids(("a", "foobar", "a"))) == [0xE40C292C, 0xBF9CF968, 0xE40C292C]
    assert tokenize.tokens(("cats", "eat")) == ["cats", "eat"] and list(tokenize.token_ids("猫")) == [ord("猫")]
    with pytest.raises(ValueError, match="without spaces"):
        tokenize.tokens(("the dog", "bit"))


def test_each_edition_quotes_the_numbers_of_its_own_sentence():
    """The English page's lesson 1 numbers are computed from the English sentence (one token per word), through the
    same names as the Chinese page's: recomputed here from the sentence itself, not read from the registry."""
    en, zh = ex.texts("en"), ex.texts("zh")
    text, i, j = en.swap_main
    assert quantities.text("l1_main_a", "en") == " ".join(text) and quantities.text("l1_main_a", "zh") == zh.swap_main[0]
    swapped = list(text)
    swapped[i], swapped[j] = text[j], text[i]
    assert quantities.text("l1_main_b", "en") == " ".join(swapped)
    head = at.make_head(ex.ATTN_D, ex.ATTN_SEED)
    for positions in (False, True):  # the same head on the English sentence: each token's output, matched by token
        x_a = at.token_vectors(tokenize.token_ids(text), ex.ATTN_D, ex.ATTN_SEED)
        x_b = at.token_vectors(tokenize.token_ids(tuple(swapped)), ex.ATTN_D, ex.ATTN_SEED)
        if positions:
            x_a, x_b = x_a + sinusoidal.table(np.arange(len(text)), ex.ATTN_D), x_b + sinusoidal.table(np.arange(len(text)), ex.ATTN_D)
        perm = list(range(len(text)))
        perm[i], perm[j] = j, i
        moved = float(np.abs(at.attend(x_b, head).out - at.attend(x_a, head).out[perm]).max())
        if positions:
            assert quantities.value("l1_main_diff_pos", "en") == pytest.approx(moved, abs=1e-12)
            assert abs(quantities.value("l1_main_diff_pos", "en") - quantities.value("l1_main_diff_pos", "zh")) > 0.01
        else:
            from posenc.quantities.lesson1 import tiny

            assert moved < 1e-15 and quantities.text("l1_main_diff_nopos", "en") == tiny(moved)
            # the pages put the difference on the scale of float64's machine epsilon; it is within it: this sentence's, and the printed
            # value of each edition's own sentence, read back from its "2.2×10⁻¹⁶" form
            assert moved <= np.finfo(np.float64).eps
            for lang in ("en", "zh"):
                printed = quantities.text("l1_main_diff_nopos", lang)
                mantissa, power = printed.split("×10") if printed != "0" else ("0", "⁰")
                power = int(power.translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")))
                assert float(mantissa) * 10.0**power <= np.finfo(np.float64).eps, lang
    # the table of token IDs: the English words' hashes; "the" twice, with one ID and two positions
    assert [quantities.value(f"l1_tid_{k}", "en") for k in range(len(text))] == [tokenize.word_id(w) for w in text]
    assert [quantities.text(f"l1_char_{k}", "en") for k in range(len(text))] == list(text)
    assert quantities.text("l1_repeat_char", "en") == "the" and quantities.value("l1_repeat_pos_b", "en") == text.index("the", 1)
    assert quantities.text("l1_causal_last_char", "en") == en.causal[0][-1]
    # a number about the seeded head alone is the same on both pages
    assert not quantities.per_language("l1_d") and quantities.per_language("l1_main_diff_pos")


FIGURES = ("l1_swap_outputs", "l1_permutation", "l1_causal")  # each has its content test below


def test_attention_mixes_tokens_and_layer_norm_does_not():
    x = np.random.default_rng(3).normal(size=(5, 8))
    change = np.random.default_rng(4).normal(size=8)
    mh = at.make_multi_head(8, 2, 5)
    assert at.others_moved(at.layer_norm, x, 2, change) == 0.0
    assert at.others_moved(lambda h: at.multi_head_attend(h, mh), x, 2, change) > 0.01
    assert at.others_moved(lambda h: h * 2.0, x, 0, np.zeros(8)) == 0.0
    # the lesson's numbers are these functions on the lesson's example
    sent = at.sentence_input(ex.SWAP_MAIN[0], ex.ATTN_D, ex.ATTN_SEED)
    vec = at.token_vectors(tokenize.token_ids(ex.MIX_CHAR + ex.SWAP_MAIN[0][ex.MIX_ROW]), ex.ATTN_D, ex.ATTN_SEED)
    moved = at.others_moved(lambda h: at.multi_head_attend(h, at.make_multi_head(ex.ATTN_D, ex.MHA_HEADS, ex.ATTN_SEED)),
                            sent, ex.MIX_ROW, vec[0] - vec[1])
    assert quantities.text("l1_mix_mha") == format(moved, ".2f") and moved > 0.01
    assert quantities.text("l1_mix_layernorm") == "0"


def _image_axes(fig):
    return [ax for ax in fig.axes if ax.get_images()]


def _labels(text):
    return [f"{ch} {k}" for k, ch in enumerate(text)]


def test_l1_swap_outputs_draws_the_four_outputs_in_order():
    head = at.make_head(ex.ATTN_D, ex.ATTN_SEED)
    expected = []
    for positions in (False, True):
        sw = at.swap_experiment(*ex.SWAP_MAIN, head, ex.ATTN_SEED, positions)
        expected += [(sw.text, sw.before.out), (sw.swapped, sw.after.out)]
    with drawn("l1_swap_outputs") as fig:
        axes = _image_axes(fig)
        assert len(axes) == 4
        for ax, (sentence, out) in zip(axes, expected):
            np.testing.assert_array_equal(np.asarray(ax.get_images()[0].get_array()), out)
            assert tick_labels(ax, "y") == _labels(sentence)
            assert tick_labels(ax, "x") == [str(k) for k in range(ex.ATTN_D)]
            assert sentence in ax.get_title()
        assert [("加位置向量" in ax.get_title()) for ax in axes] == [False, False, True, True]


def test_l1_permutation_draws_p_and_both_weight_matrices():
    sw = at.swap_experiment(*ex.SWAP_MAIN, at.make_head(ex.ATTN_D, ex.ATTN_SEED), ex.ATTN_SEED)
    rows, cols = np.nonzero(at.permutation_matrix(sw.perm))
    with drawn("l1_permutation") as fig:
        p_ax = fig.axes[0]
        np.testing.assert_array_equal(p_ax.collections[0].get_offsets(), np.column_stack([cols, rows]))
        assert tick_labels(p_ax, "x") == _labels(sw.text) and tick_labels(p_ax, "y") == _labels(sw.swapped)
        images = _image_axes(fig)
        for ax, sentence, res in zip(images, (sw.text, sw.swapped), (sw.before, sw.after)):
            np.testing.assert_array_equal(np.asarray(ax.get_images()[0].get_array()), res.weights)
            assert tick_labels(ax, "x") == list(sentence) == tick_labels(ax, "y")
        assert len(images) == 2


def test_l1_causal_draws_the_masked_weights_of_both_orders():
    sw = at.swap_experiment(*ex.CAUSAL, at.make_head(ex.ATTN_D, ex.ATTN_SEED), ex.ATTN_SEED, causal=True)
    mask = at.causal_mask(len(sw.perm))
    with drawn("l1_causal") as fig:
        images = _image_axes(fig)
        assert len(images) == 2
        for ax, sentence, res in zip(images, (sw.text, sw.swapped), (sw.before, sw.after)):
            shown = ax.get_images()[0].get_array()
            np.testing.assert_array_equal(np.ma.getmaskarray(shown), ~mask)
            np.testing.assert_array_equal(shown.data[mask], res.weights[mask])
            assert tick_labels(ax, "y") == _labels(sentence) and sentence in ax.get_title()


def test_every_figure_of_the_lesson_has_a_content_test_here():
    assert registered("figures_src.lesson1") == sorted(FIGURES)


def test_packing_numbers_by_hand_and_with_torch_attention():
    """The packing deep dive: the rows counted by hand, and the four gaps recomputed with torch's attention."""
    import torch

    from posenc import sinusoidal

    assert ex.PACKED == ("猫吃鱼", "小明打了小王")  # the counts below are written for this pair
    assert quantities.text("l1_pack_chars") == "猫 吃 鱼 小 明 打 了 小 王"
    assert quantities.text("l1_pack_docs") == "0 0 0 1 1 1 1 1 1"
    assert quantities.text("l1_pack_pos_running") == "0 1 2 3 4 5 6 7 8"
    assert quantities.text("l1_pack_pos_reset") == "0 1 2 0 1 2 3 4 5"

    head = at.make_head(ex.ATTN_D, ex.ATTN_SEED)
    w = [torch.tensor(m) for m in (head.w_q, head.w_k, head.w_v)]

    def run(ids, positions, allowed):
        x = torch.tensor(at.token_vectors(np.array(ids), ex.ATTN_D, ex.ATTN_SEED)
                         + sinusoidal.table(np.array(positions), ex.ATTN_D))
        q, k, v = (x @ m for m in w)
        return torch.nn.functional.scaled_dot_product_attention(q[None], k[None], v[None], attn_mask=torch.tensor(allowed)[None])[0].numpy()

    first, second = (tokenize.token_ids(t).tolist() for t in ex.PACKED)
    ids, n1, n = first + second, len(first), len(first) + len(second)
    causal = np.tril(np.ones((n, n), dtype=bool))
    same_doc = np.zeros((n, n), dtype=bool)
    same_doc[:n1, :n1] = same_doc[n1:, n1:] = True
    running, reset = list(range(n)), list(range(n1)) + list(range(n - n1))
    alone = run(second, list(range(len(second))), np.tril(np.ones((len(second),) * 2, dtype=bool)))
    first_alone = run(first, list(range(n1)), np.tril(np.ones((n1, n1), dtype=bool)))
    for name, positions, allowed in [("causal_running", running, causal), ("causal_reset", reset, causal),
                                     ("doc_running", running, causal & same_doc), ("doc_reset", reset, causal & same_doc)]:
        out = run(ids, positions, allowed)
        gap = np.abs(out[n1:] - alone).max()
        if name == "doc_reset":  # the document mask and reset positions: only rounding is left
            assert gap < 1e-12 and _rounding(quantities.text(f"l1_pack_gap_{name}"))
        else:
            assert gap > 0.1 and quantities.value(f"l1_pack_gap_{name}") == pytest.approx(gap, abs=1e-9)
        assert np.abs(out[:n1] - first_alone).max() < 1e-12  # the first document: the same outputs every way
    assert _rounding(quantities.text("l1_pack_gap_first_doc"))


def _rounding(text: str) -> bool:
    """A printed value that says 'rounding only' (tiny()): exactly 0, or between 10⁻¹⁹ and 10⁻¹⁰."""
    return text == "0" or re.fullmatch(r"\d\.\d×10⁻¹[⁰¹²³⁴⁵⁶⁷⁸⁹]", text) is not None
