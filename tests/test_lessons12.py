"""Lessons 1 and 2: the posenc functions their pages and figures share, against torch and closed forms;
each of their figures drawn and compared with what posenc computes (the phone rule: tests/test_figure_phone.py)."""

from __future__ import annotations


import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from figure_support import all_lines, drawn, legend_labels, lines, tick_labels
from posenc import attention as at
from posenc import configs, learned, naive
from posenc import examples as ex
from posenc import quantities
from posenc import tokenize

LESSON12_FIGURES = ("l1_swap_outputs", "l1_permutation", "l1_causal", "l2_naive_ratio", "l2_normalised", "l2_table_rows")


# --- multi-head attention, LayerNorm, and which layers mix tokens --------------------------------------------


def _torch_mha(mh: at.MultiHead, x: np.ndarray, mask=None) -> np.ndarray:
    """The same layer as torch.nn.MultiheadAttention: in-projection = the heads' W stacked by columns."""
    d = mh.d
    layer = torch.nn.MultiheadAttention(d, len(mh.heads), bias=False, batch_first=True, dtype=torch.float64)
    w = {name: np.hstack([getattr(h, name) for h in mh.heads]) for name in ("w_q", "w_k", "w_v")}
    with torch.no_grad():
        layer.in_proj_weight.copy_(torch.tensor(np.vstack([w["w_q"].T, w["w_k"].T, w["w_v"].T])))
        layer.out_proj.weight.copy_(torch.tensor(mh.w_o.T))
        t = torch.tensor(x)[None]
        forbid = None if mask is None else torch.tensor(~mask)
        out, _ = layer(t, t, t, attn_mask=forbid, need_weights=False)
    return out[0].numpy()


@settings(max_examples=25, deadline=None, derandomize=True)
@given(n=st.integers(1, 7), heads=st.sampled_from([1, 2, 4]), seed=st.integers(0, 2**31), causal=st.booleans())
def test_multi_head_attention_matches_torch(n, heads, seed, causal):
    mh = at.make_multi_head(8, heads, seed)
    x = np.random.default_rng(seed).normal(size=(n, 8))
    mask = at.causal_mask(n) if causal else None
    np.testing.assert_allclose(at.multi_head_attend(x, mh, mask), _torch_mha(mh, x, mask), rtol=1e-10, atol=1e-12)


def test_multi_head_draws_documented_shapes_and_scale():
    mh = at.make_multi_head(256, 4, 0)
    assert len(mh.heads) == 4 and all(h.w_q.shape == (256, 64) for h in mh.heads) and mh.w_o.shape == (256, 256)
    assert abs(np.concatenate([h.w_k.ravel() for h in mh.heads]).std() * 16 - 1) < 0.05  # N(0, 1/d)
    np.testing.assert_array_equal(at.make_multi_head(8, 2, 7).w_o, at.make_multi_head(8, 2, 7).w_o)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(n=st.integers(2, 8), seed=st.integers(0, 2**31), data=st.data())
def test_multi_head_attention_is_permutation_equivariant(n, seed, data):
    mh = at.make_multi_head(8, 2, seed)
    x = np.random.default_rng(seed + 1).normal(size=(n, 8))
    perm = np.array(data.draw(st.permutations(range(n))))
    p = at.permutation_matrix(perm)
    np.testing.assert_allclose(at.multi_head_attend(p @ x, mh), p @ at.multi_head_attend(x, mh), atol=1e-12)


def test_layer_norm_matches_torch():
    x = np.random.default_rng(0).normal(size=(5, 8)) * 3 + 1
    ref = torch.nn.functional.layer_norm(torch.tensor(x), (8,), eps=1e-5).numpy()
    np.testing.assert_allclose(at.layer_norm(x), ref, rtol=1e-12, atol=1e-12)


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


def test_swap_experiment_is_the_lessons_computation():
    text, i, j = ex.SWAP_MAIN
    head = at.make_head(ex.ATTN_D, ex.ATTN_SEED)
    sw = at.swap_experiment(text, i, j, head, ex.ATTN_SEED)
    assert sw.swapped == text[:i] + text[j] + text[i + 1:j] + text[i] + text[j + 1:]
    np.testing.assert_array_equal(sw.before.out, at.attend(at.sentence_input(text, ex.ATTN_D, ex.ATTN_SEED), head).out)
    assert sw.moved < 1e-14 and sw.weights_error < 1e-14 and sw.out_error < 1e-14
    with_pos = at.swap_experiment(text, i, j, head, ex.ATTN_SEED, positions=True)
    assert with_pos.moved > 0.1 and with_pos.out_error > 0.1
    causal = at.swap_experiment(*ex.CAUSAL, head, ex.ATTN_SEED, causal=True)
    assert np.all(np.triu(causal.before.weights, 1) == 0)
    assert at.row_difference(causal.before.out, -1, other=causal.after.out) < 1e-14 < causal.moved
    assert at.row_difference(np.array([[1.0, 2.0], [1.5, 2.0]]), 0, 1) == 0.5


@pytest.mark.parametrize("call, match", [
    (lambda: at.make_multi_head(8, 3, 0), "n_heads"),
    (lambda: at.make_multi_head(8, 0, 0), "n_heads"),
    (lambda: at.multi_head_attend(np.ones((2, 8)), at.make_head(8, 0)), "MultiHead"),
    (lambda: at.others_moved(at.layer_norm, np.ones((2, 4)), 2, np.ones(4)), "row"),
    (lambda: at.others_moved(at.layer_norm, np.ones((2, 4)), 0, np.ones(3)), "change"),
    (lambda: at.layer_norm(np.ones((2, 4)), eps=0), "eps"),
    (lambda: at.swap_experiment("猫吃鱼", 0, 2, at.make_head(8, 0), 0, causal="yes"), "causal"),
    (lambda: at.row_difference(np.ones((2, 2)), 0), "exactly one"),
    (lambda: naive.position_where_share_falls_to(0, 1.0), "share"),
    (lambda: naive.normalised_position(1.5, 6), "value"),
    (lambda: learned.rows_to_reach(configs.load("gpt2"), -1), "p"),
])
def test_bad_input_names_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- lesson 2's closed forms --------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, derandomize=True)
@given(share=st.floats(1e-4, 1.0), rms=st.floats(1e-3, 10.0))
def test_position_where_share_falls_to_is_the_first_such_position(share, rms):
    p = naive.position_where_share_falls_to(share, rms)
    assert naive.raw_index_content_ratio(p, rms) <= share
    assert p == 1 or naive.raw_index_content_ratio(p - 1, rms) > share


def test_lesson2_numbers_follow_the_closed_forms():
    assert naive.position_where_share_falls_to(0.01, 1.0) == 100  # 1/p ≤ 1% first at p = 100
    assert naive.normalised_position(0.5, 6) == pytest.approx(2.5) and naive.normalised_position(0.5, 101) == pytest.approx(50)
    for length in (2, 6, 101):
        for p in range(length):
            assert naive.normalised_position(naive.normalised_value(p, length), length) == pytest.approx(p)
    gpt2 = configs.load("gpt2")
    last = learned.last_row(gpt2)
    assert learned.has_row(gpt2, last) and not learned.has_row(gpt2, last + 1)
    assert learned.rows_to_reach(gpt2, last) == 0 and learned.rows_to_reach(gpt2, last + 1) == 1
    assert learned.rows_to_reach(gpt2, ex.FAR_POSITION) == ex.FAR_POSITION - last
    assert quantities.text("l2_one_percent_p") == "100" and quantities.text("l2_rows_missing_far") == f"{ex.FAR_POSITION - last:,}"


# --- figures: what each one plots is what posenc computes -------------------------------------------------------


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


def test_l2_naive_ratio_draws_both_curves_and_the_probe():
    ps = np.arange(1, ex.RATIO_MAX_POSITION + 1)
    scales = ((ex.UNIT_CONTENT_RMS, f"内容均方根 = {quantities.text('l2_unit_rms')}"),
              (ex.PROJECT_EMBED_STD, f"内容按初始化 std = {quantities.text('embed_init_std')}"))
    with drawn("l2_naive_ratio") as fig:
        ax = fig.axes[0]
        curves = lines(ax)
        assert list(curves) == [label for _, label in scales] == legend_labels(fig)
        for rms, label in scales:
            x, y = curves[label]
            np.testing.assert_array_equal(x, ps)
            np.testing.assert_allclose(y, naive.raw_index_content_ratios(ps, rms) * 100, rtol=1e-15)
        probes = [(x, y) for x, y in all_lines(ax) if x.size == 1]
        expect = [naive.raw_index_content_ratio(ex.NAIVE_PROBE_POSITION, rms) * 100 for rms, _ in scales]
        assert [(float(x[0]), float(y[0])) for x, y in probes] == [(ex.NAIVE_PROBE_POSITION, e) for e in expect]
        notes = [t.get_text() for t in ax.texts]
        assert notes == [f"p = {ex.NAIVE_PROBE_POSITION}：{quantities.text(n)}" for n in ("naive_ratio_unit", "naive_ratio_init")]


def test_l2_normalised_draws_the_three_scales():
    lengths = (ex.NORMALISED_SHORT, ex.NORMALISED_SHORT + 1, ex.NORMALISED_LONG)
    with drawn("l2_normalised") as fig:
        ax = fig.axes[0]
        drawn_lines = [(x, y) for x, y in all_lines(ax)]
        rows = [(x, y) for x, y in drawn_lines if x.size > 1]
        assert len(rows) == 3
        for (x, y), length, level in zip(rows, lengths, (2, 1, 0)):
            np.testing.assert_allclose(x, naive.normalised_index(length), rtol=1e-15)
            assert np.all(y == level)
        probes = [float(x[0]) for x, _ in drawn_lines if x.size == 1]
        assert probes == [naive.normalised_value(ex.NORMALISED_PROBE, n) for n in lengths[:2]]
        labels = [t.get_text() for t in ax.texts]
        for n in lengths:
            assert any(lbl.startswith(f"{n} 个 token") for lbl in labels), n


def test_l2_table_rows_draws_trained_untouched_and_missing_rows():
    gpt2 = configs.load("gpt2")
    rows = learned.last_row(gpt2) + 1
    trained = int(learned.rows_with_gradient(rows, ex.PROJECT_TRAIN_LEN).sum())
    with drawn("l2_table_rows") as fig:
        ax = fig.axes[0]
        spans = [tuple(np.round(c.get_paths()[0].get_extents().intervalx, 9)) for c in ax.collections]
        assert spans[:2] == [(0, trained), (trained, rows)] and spans[2][0] == rows
        assert tick_labels(ax, "x") == ["0", quantities.text("l2_rows_trained"), quantities.text("gpt2_context")]


def test_every_figure_of_lessons_1_and_2_has_its_test_here():
    from figures_src.build import load_all

    mine = {n for n, spec in load_all().items() if spec.module in ("figures_src.lesson1", "figures_src.lesson2")}
    assert mine == set(LESSON12_FIGURES)
