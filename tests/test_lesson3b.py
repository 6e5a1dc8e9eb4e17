"""Lesson 3b (relative position as a bias on the attention score): every figure drawn and compared with an independent
computation.

What the tests compare against, part by part:

- Lesson 3b's figures show what posenc computes: each is drawn as the build draws it and its plotted data, ticks and
  legends are compared, in order, with an independent computation (closed forms, transformers' BLOOM slopes, lesson
  1's masked attention). The phone rule: tests/test_figure_phone.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from transformers.models.bloom.modeling_bloom import _get_alibi_slopes

from figures_src import lesson3b as relfig
from posenc import attention, configs, relative
from posenc import examples as ex
from figure_support import all_lines, drawn, legend_labels, lines, registered, tick_labels


# --- figures -------------------------------------------------------------------------------------------------------


FIGURES = ["alibi_slopes_weights", "t5_bucket_staircase", "alibi_sentence_weights", "alibi_reach_heads"]


def test_every_figure_of_the_lesson_has_a_content_test_here():
    assert registered("figures_src.lesson3b") == sorted(FIGURES)


def test_widget_aliases_are_the_examples():
    """tests/browser/test_widgets.py reads these to check the widgets start where the figures are drawn."""
    assert (relfig.ALIBI_HEADS, relfig.ALIBI_HEAD, relfig.ALIBI_DISTANCE, relfig.ALIBI_SPAN, relfig.ALIBI_FACTOR) == (
        ex.ALIBI_HEADS, ex.ALIBI_HEAD, ex.ALIBI_DISTANCE, ex.ALIBI_SPAN, ex.ALIBI_FACTOR)
    cfg = configs.load(ex.T5_MODEL)
    assert (relfig.T5_NUM_BUCKETS, relfig.T5_MAX_DISTANCE) == (cfg["relative_attention_num_buckets"], cfg["relative_attention_max_distance"])
    assert (relfig.T5_BIDIRECTIONAL, relfig.T5_DISTANCE) == (ex.T5_BIDIRECTIONAL, ex.T5_DISTANCE)


def paper_slopes(n: int) -> np.ndarray:
    """Press et al. §3 for a power of two: m_h = 2^(−8h/n), h = 1 … n."""
    return 2.0 ** (-8.0 * np.arange(1, n + 1) / n)


def test_alibi_slopes_weights():
    n, h, span, f = ex.ALIBI_HEADS, ex.ALIBI_HEAD, ex.ALIBI_SPAN, ex.ALIBI_FACTOR
    m = paper_slopes(n)
    with drawn("alibi_slopes_weights") as fig:
        top, bottom = fig.axes
        x, y = lines(top)["各个头"]
        np.testing.assert_array_equal(x, np.arange(1, n + 1))
        np.testing.assert_allclose(y, m, rtol=1e-15)
        np.testing.assert_allclose(lines(top)[f"第 {h} 个头"][1], [m[h - 1]], rtol=1e-15)
        assert tick_labels(top, "x") == [str(k) for k in range(1, n + 1)]
        curves = all_lines(bottom)
        others = [c for c in curves if len(c[0]) > 2][: n - 1]  # the faint curves, drawn first, in head order
        for (r, w), slope in zip(others, np.delete(m, h - 1)):
            np.testing.assert_allclose(w, np.exp(-slope * r), rtol=1e-12)
        assert len(others) == n - 1
        r, w = lines(bottom)[f"第 {h} 个头"]
        assert r[0] == 0 and r[-1] == span
        np.testing.assert_allclose(w, np.exp(-m[h - 1] * r), rtol=1e-12)
        flat = [c for c in curves if len(c[1]) == 2 and c[1][0] == c[1][1]]
        assert any(np.isclose(c[1][0], 1 / f) for c in flat), "the 1/f line"
        vertical = [c for c in curves if len(c[0]) == 2 and c[0][0] == c[0][1]]
        assert any(np.isclose(c[0][0], math.log(f) / m[h - 1]) for c in vertical), "the reach line of the chosen head"
        assert legend_labels(fig) == [f"第 {h} 个头", "其他头"]


def test_t5_bucket_staircase():
    nb, md = ex.t5_buckets()
    with drawn("t5_bucket_staircase") as fig:
        ax = fig.axes[0]
        steps = lines(ax)
        assert list(steps) == ["单向（解码器）", "双向（编码器）"]
        for label, bidirectional in (("单向（解码器）", False), ("双向（编码器）", True)):
            xs, ys = steps[label]
            starts, ends, buckets = xs[0::2] - 1, xs[1::2] - 1, ys[0::2]  # the x axis is distance + 1
            np.testing.assert_array_equal(ys[0::2], ys[1::2])  # flat steps
            np.testing.assert_array_equal(buckets, np.arange(len(buckets)))  # every bucket, in order
            assert starts[0] == 0 and ends[-1] == 2 * md
            np.testing.assert_array_equal(starts[1:], ends[:-1])  # no gap between steps
            # each step's first and last distance land in its bucket (T5's own rule), the next distance does not
            for first, end, b in zip(starts, ends, buckets):
                assert relative.t5_bucket(np.array(-int(first)), bidirectional, nb, md) == b
                assert relative.t5_bucket(np.array(-int(end) + 1), bidirectional, nb, md) == b
            assert relative.t5_bucket(np.array(-10 * md), bidirectional, nb, md) == buckets[-1]
        assert tick_labels(ax, "x") == ["0", "3", "15", "63", "255"]


def test_alibi_sentence_weights():
    n = len(ex.SENTENCE)
    x = attention.sentence_input(ex.SENTENCE, ex.ATTN_D, ex.ATTN_SEED)
    head = attention.make_head(ex.ATTN_D, ex.ATTN_SEED)
    plain = attention.attend(x, head, attention.causal_mask(n))  # lesson 1's causal head, no positions
    m = paper_slopes(ex.ALIBI_HEADS)[ex.ALIBI_SENTENCE_HEAD - 1]
    i, j = np.indices((n, n))
    with_alibi = attention.softmax(np.where(j <= i, plain.scores - m * (i - j), -np.inf))
    with drawn("alibi_sentence_weights") as fig:
        images = [a.get_images()[0] for a in fig.axes if a.get_images()]
        assert len(images) == 2
        for im, expected in zip(images, (plain.weights, with_alibi)):
            shown = np.asarray(im.get_array().filled(np.nan), float)
            lower = j <= i
            np.testing.assert_allclose(shown[lower], expected[lower], rtol=1e-12)
            assert np.all(np.isnan(shown[~lower])), "the masked corner is left blank"
        for ax in fig.axes[:2]:
            assert tick_labels(ax, "x") == [f"{c}\n{k}" for k, c in enumerate(ex.SENTENCE)]
            cells = [t.get_text() for t in ax.texts]
            assert len(cells) == n * (n + 1) // 2
        assert [t.get_text() for t in fig.axes[0].texts] == [f"{plain.weights[a, b]:.2f}" for a in range(n) for b in range(a + 1)]
        assert [t.get_text() for t in fig.axes[1].texts] == [f"{with_alibi[a, b]:.2f}" for a in range(n) for b in range(a + 1)]


@pytest.mark.parametrize("key", ex.REACH_MODELS)
def test_alibi_reach_heads(key):
    cfg = configs.load(key)
    n = cfg["heads"]
    reference = _get_alibi_slopes(n, torch.device("cpu")).double().numpy()  # BLOOM's own rule, float32 slopes
    reach = math.log(ex.ALIBI_FACTOR) / reference
    p = 2 ** int(math.log2(n))
    with drawn("alibi_reach_heads") as fig:
        ax = fig.axes[ex.REACH_MODELS.index(key)]
        assert ax.get_title() == f"{cfg.name}，{n} 个头"
        got = lines(ax)
        x, y = got["2 的幂规则"]
        np.testing.assert_array_equal(x, np.arange(1, p + 1))
        np.testing.assert_allclose(y, reach[:p], rtol=1e-6)
        if p != n:
            x, y = got["补上的头"]
            np.testing.assert_array_equal(x, np.arange(p + 1, n + 1))
            np.testing.assert_allclose(y, reach[p:], rtol=1e-6)
        else:
            assert "补上的头" not in got
        levels = {c[1][0] for c in all_lines(ax) if len(c[1]) == 2 and c[1][0] == c[1][1]}
        assert {ex.REACH_NEAR, ex.REACH_FAR, cfg["context"]} <= levels


# --- the page's numbers and its table of sign conventions -----------------------------------------------------------


def test_shaw_sentence_distances_are_m_minus_n_and_clipped_at_c():
    """The last character looks back at every character: m − n from len − 1 down to 0, then clip(·, c) (§3.2)."""
    from posenc import quantities

    n, c = len(ex.SENTENCE), ex.SHAW_SENTENCE_K
    distances = [n - 1 - j for j in range(n)]
    assert quantities.text("shaw_sentence_distances") == "、".join(map(str, distances))
    assert quantities.text("shaw_sentence_clipped") == "、".join(str(min(r, c)) for r in distances)
    assert quantities.text("shaw_sentence_clipped", "en") == ", ".join(str(min(r, c)) for r in distances)


def page_bucket(x: int, exact: int, max_distance: int) -> int:
    """The page's bucket(m − n) for a key m − n ≥ 0 tokens before the query, written from its formula: exact is
    D_exact, one direction has 2·D_exact buckets, D_max is max_distance."""
    if x < exact:
        return x
    return min(2 * exact - 1, exact + math.floor(exact * (math.log(x / exact) / math.log(max_distance / exact))))


@pytest.mark.parametrize("is_decoder", [True, False])
def test_sign_table_t5_row_transformers_buckets_by_key_minus_query(is_decoder):
    """The table's T5 row: transformers computes relative_position = memory − query (n − m), and for keys before the
    query the bucket is the page's bucket(m − n), over all the buckets in a decoder and half of them per direction
    in an encoder."""
    import inspect

    from transformers import T5Config
    from transformers.models.t5.modeling_t5 import T5Attention

    assert "relative_position = memory_position - context_position" in inspect.getsource(T5Attention.compute_bias)
    cfg = configs.load(ex.T5_MODEL)
    buckets, max_distance, length = cfg["relative_attention_num_buckets"], cfg["relative_attention_max_distance"], 300
    layer = T5Attention(T5Config(d_model=8, d_kv=4, num_heads=1, relative_attention_num_buckets=buckets,
                                 relative_attention_max_distance=max_distance, is_decoder=is_decoder),
                        has_relative_attention_bias=True)
    with torch.no_grad():
        layer.relative_attention_bias.weight.copy_(torch.arange(buckets, dtype=torch.float32)[:, None])  # bias = bucket
        got = layer.compute_bias(length, length, device="cpu")[0, 0].numpy()
    from posenc import quantities

    # the page's D_exact: half of one direction's buckets, all num_buckets in a decoder, half of them in an encoder
    exact = quantities.value("t5_dec_max_exact" if is_decoder else "t5_enc_max_exact")
    assert 2 * exact == (buckets if is_decoder else buckets // 2)
    for m in range(length):
        for n in range(m + 1):
            assert got[m, n] == page_bucket(m - n, exact, max_distance), (m, n)


def test_sign_table_bloom_row_is_slope_times_key_position():
    """The table's BLOOM row: every query's row gets a_h·n, the key's position times the slope (the softmax that makes it
    equal to −a_h·(m − n) is tests/test_relative.py's test_alibi_weights_equal_bloom_reference)."""
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor

    heads, length = ex.ALIBI_HEADS, 7
    alibi = build_alibi_tensor(torch.ones(1, length), heads, torch.float64)[:, 0, :].numpy()  # (heads, keys)
    a = paper_slopes(heads)
    np.testing.assert_allclose(alibi, a[:, None] * np.arange(length)[None, :], rtol=1e-6)  # the same row for every query


def test_t5_last_encoder_bucket_starts_where_the_pages_closed_form_says():
    """The T5 section's one line of arithmetic: ℓ(δ) reaches the last bucket number 2·D_exact − 1 at
    δ = D_exact·(D_max/D_exact)^((D_exact−1)/D_exact) (90.5 for T5-Base's encoder), so the last bucket starts at its
    ceiling; checked against transformers' buckets."""
    from transformers.models.t5.modeling_t5 import T5Attention

    from posenc import quantities

    cfg = configs.load(ex.T5_MODEL)
    buckets, max_distance = cfg["relative_attention_num_buckets"], cfg["relative_attention_max_distance"]
    edge = quantities.value("t5_enc_last_edge")
    first = math.ceil(edge)
    got = T5Attention._relative_position_bucket(torch.tensor([-(first - 1), -first, -max_distance]), bidirectional=True,
                                                num_buckets=buckets, max_distance=max_distance).tolist()
    assert got == [buckets // 2 - 2, buckets // 2 - 1, buckets // 2 - 1]
    assert quantities.value("t5_enc_last_from") == first < max_distance
