"""Lesson 3b figures: a bias on the attention score that depends on distance only (Shaw, T5's buckets, ALiBi).

Two figures are the static content of the page's widgets (alibi-bias, t5-buckets) and show each
widget's starting state; the example parameters come from posenc.examples, which the widget() macro
also writes into the page. The others draw the example sentence's attention with and without ALiBi,
and the reach of every head of two real ALiBi models.
Every number is computed by posenc.relative; the texts quote posenc.quantities. Every word these figures
draw, and their alt texts and captions, come from figures_src/labels/<lang>.yaml, section lesson3b.
"""

from __future__ import annotations

import numpy as np

from figures_src import cell_values, colorbar, figure, heatmap, language, num, texts
from posenc import configs, relative
from posenc import examples as ex
from posenc import tokenize
from posenc.quantities import value

T = texts(__name__)  # every word these figures draw: figures_src/labels/<lang>.yaml, section lesson3b


def _sentence() -> tuple:
    """The drawn language's example sentence (posenc.examples.texts) and its tokens: characters, or English words."""
    text = ex.texts(language()).sentence
    return text, tokenize.tokens(text)

# The widgets' starting values, read by tests/browser/test_widgets.py (keep these names).
ALIBI_HEADS, ALIBI_HEAD, ALIBI_DISTANCE, ALIBI_SPAN, ALIBI_FACTOR = (
    ex.ALIBI_HEADS, ex.ALIBI_HEAD, ex.ALIBI_DISTANCE, ex.ALIBI_SPAN, ex.ALIBI_FACTOR)
T5_NUM_BUCKETS, T5_MAX_DISTANCE = ex.t5_buckets()
T5_BIDIRECTIONAL, T5_DISTANCE = ex.T5_BIDIRECTIONAL, ex.T5_DISTANCE

WIDTH = 4.8  # _style.PHONE_MAX_WIDTH_IN: the widest a figure may be (390 px phones)

# The registered quantities the alt texts and captions quote; each fills the {field} of its own name.
QUOTED = (
    "alibi_demo_factor",
    "alibi_demo_head",
    "alibi_demo_heads",
    "alibi_demo_reach",
    "alibi_demo_reach_min",
    "alibi_demo_slope",
    "alibi_demo_slope_first",
    "alibi_demo_slope_last",
    "alibi_demo_span",
    "alibi_demo_weight_left",
    "alibi_extra_heads_bloom_176b",
    "alibi_power_heads_bloom_176b",
    "alibi_reach_far",
    "alibi_reach_max_mpt_7b",
    "alibi_reach_min_mpt_7b",
    "alibi_reach_near",
    "l1_d",
    "l1_main_len",
    "l1_seed",
    "l3b_last_first_alibi",
    "l3b_last_first_nope",
    "l3b_last_self_alibi",
    "l3b_last_self_nope",
    "l3b_sentence_slope",
    "t5_dec_exact_last",
    "t5_dec_last_bucket",
    "t5_dec_last_from",
    "t5_enc_exact_last",
    "t5_enc_last_bucket",
    "t5_enc_last_from",
    "t5_enc_max_exact",
    "t5_enc_one_side",
    "t5_enc_widest_first",
    "t5_enc_widest_last",
)


def _text(key: str, **values) -> str:
    """An alt text or caption from the label table, its fields filled: every quantity of QUOTED, the T5 and
    model settings, the example sentence, and ``values``."""
    mpt, bloom = configs.load("mpt_7b"), configs.load("bloom_176b")
    return T(key, **{n: num(n) for n in QUOTED}, num_buckets=T5_NUM_BUCKETS, max_distance=T5_MAX_DISTANCE,
             mpt_heads=mpt["heads"], bloom_heads=bloom["heads"], context=f"{mpt['context']:,}", sentence=tokenize.join(_sentence()[0]),
             **values)


# --- ALiBi: slopes and weight factors (the alibi-bias widget's fallback) --------------------------


@figure(
    "alibi_slopes_weights",
    alt=lambda: _text("alt.alibi_slopes_weights"),
    caption=lambda: _text("caption.alibi_slopes_weights"),
    size=(WIDTH, 6.0),
)
def alibi_slopes_weights(fig, theme):
    slopes = relative.alibi_slopes(ALIBI_HEADS)
    reach = relative.alibi_reaches(ALIBI_HEADS, ALIBI_FACTOR)
    heads = np.arange(1, ALIBI_HEADS + 1)
    top, bottom = fig.subplots(2, 1, gridspec_kw={"height_ratios": [1, 1.4], "hspace": 0.55})
    chosen = ALIBI_HEAD - 1

    top.plot(heads, slopes, "o", color=theme.muted, markersize=6, label=T("each_head"))
    top.plot(heads[chosen], slopes[chosen], "o", color=theme.series[1], markersize=9, label=T("head_n", n=ALIBI_HEAD))
    top.set_yscale("log", base=2)
    top.set_xticks(heads)
    top.set_xlabel(T("head_axis"))
    top.set_ylabel(T("slope_axis"))
    top.grid(True, axis="y", linewidth=0.5)

    r = np.linspace(0, ALIBI_SPAN, 513)
    for i, m in enumerate(slopes):
        if i != chosen:
            bottom.plot(r, relative.alibi_weight_ratio(m, r), color=theme.muted, linewidth=0.9)
    bottom.plot(r, relative.alibi_weight_ratio(slopes[chosen], r), color=theme.series[1], linewidth=2.4, label=T("head_n", n=ALIBI_HEAD))
    bottom.axhline(1 / ALIBI_FACTOR, color=theme.fg, linewidth=0.9, linestyle="--")
    if reach[chosen] <= ALIBI_SPAN:
        bottom.axvline(reach[chosen], color=theme.series[1], linewidth=0.9, linestyle="--")
        bottom.annotate(T("tokens", n=num("alibi_demo_reach")), xy=(reach[chosen], 1 / ALIBI_FACTOR), xytext=(8, 14),
                        textcoords="offset points", color=theme.fg, fontsize=9)
    bottom.plot([], [], color=theme.muted, linewidth=0.9, label=T("other_heads"))
    bottom.set_xlim(0, ALIBI_SPAN)
    bottom.set_ylim(0, 1.02)
    bottom.set_xlabel(T("distance_back_axis"))
    bottom.set_ylabel(T("weight_factor_axis"))
    bottom.grid(True, linewidth=0.5)
    bottom.legend(loc="upper right", fontsize=9)


# --- T5's buckets (the t5-buckets widget's fallback) ----------------------------------------------


@figure(
    "t5_bucket_staircase",
    alt=lambda: _text("alt.t5_bucket_staircase"),
    caption=lambda: _text("caption.t5_bucket_staircase"),
    size=(WIDTH, 3.8),
)
def t5_bucket_staircase(fig, theme):
    ax = fig.add_subplot()
    far = 2 * T5_MAX_DISTANCE
    for bidirectional, color, width, label in ((False, theme.muted, 1.3, T("unidirectional")), (True, theme.series[0], 2.2, T("bidirectional"))):
        edges = relative.t5_bucket_edges(bidirectional, T5_NUM_BUCKETS, T5_MAX_DISTANCE)
        xs, ys = [], []
        for k, (b, first, last) in enumerate(edges):
            end = far if k == len(edges) - 1 else last + 1
            xs += [first + 1, end + 1]  # log axis: distance + 1, so distance 0 has a place
            ys += [b, b]
        ax.plot(xs, ys, color=color, linewidth=width, label=label, solid_joinstyle="miter")
    max_exact = value("t5_enc_max_exact")  # the encoder's: half of its buckets per direction
    for d, text in ((max_exact, "max_exact"), (T5_MAX_DISTANCE, "max_distance")):
        ax.axvline(d + 1, color=theme.fg, linewidth=0.8, linestyle="--")
        ax.annotate(text, xy=(d + 1, 0), xytext=(3, 3), textcoords="offset points", fontsize=9, color=theme.fg, rotation=90)
    ax.set_xscale("log")
    ticks = [2**k - 1 for k in range(0, int(np.log2(far)) + 1, 2)]  # 0, 3, 15, 63, 255: evenly spaced on the log axis
    ax.set_xticks([t + 1 for t in ticks])
    ax.set_xticklabels([str(t) for t in ticks])
    ax.minorticks_off()
    ax.set_xlim(1, far + 1)
    ax.set_xlabel(T("distance_log_axis"))
    ax.set_ylabel(T("bucket_axis"))
    ax.grid(True, linewidth=0.5)
    ax.legend(loc="upper left", fontsize=9)


# --- the example sentence with and without ALiBi ----------------------------------------------------


def _sentence_weights():
    text, tokens = _sentence()
    n = len(tokens)
    scores = relative.content_scores(text, ex.ATTN_D, ex.ATTN_SEED)
    bias = relative.alibi_causal_bias_at(ex.ALIBI_HEADS, np.arange(n))[ex.ALIBI_SENTENCE_HEAD - 1]
    return relative.biased_weights(scores, relative.causal_bias(n)), relative.biased_weights(scores, bias)


@figure(
    "alibi_sentence_weights",
    alt=lambda: _text("alt.alibi_sentence_weights"),
    caption=lambda: _text("caption.alibi_sentence_weights"),
    size=(WIDTH, 7.4),
)
def alibi_sentence_weights(fig, theme):
    chars = _sentence()[1]
    n = len(chars)
    causal = np.tril(np.ones((n, n), dtype=bool))
    axes = fig.subplots(2, 1, gridspec_kw={"hspace": 0.45})
    titles = (T("causal_only"), T("with_alibi", slope=num("l3b_sentence_slope")))
    keys = [T("tick_key", token=c, position=j) for j, c in enumerate(chars)]
    queries = [T("tick_query", token=c, position=j) for j, c in enumerate(chars)]
    for ax, weights, title in zip(axes, _sentence_weights(), titles):
        shown = np.where(causal, weights, np.nan)
        im = heatmap(ax, shown, theme, 0, 1, keys, queries)
        ax.tick_params(length=0)
        cell_values(ax, {(i, j): f"{weights[i, j]:.2f}" for i in range(n) for j in range(i + 1)},
                    lambda i, j, weights=weights: weights[i, j] < 0.6, 9)
        ax.set_title(title, fontsize=10)
        ax.set_ylabel(T("query_axis"))
    axes[-1].set_xlabel(T("key_axis"))
    colorbar(fig, im, axes, T("weight_bar"), shrink=0.6, pad=0.03)


# --- every head's reach in two real ALiBi models ----------------------------------------------------


@figure(
    "alibi_reach_heads",
    alt=lambda: _text("alt.alibi_reach_heads"),
    caption=lambda: _text("caption.alibi_reach_heads"),
    size=(WIDTH, 6.4),
)
def alibi_reach_heads(fig, theme):
    axes = fig.subplots(len(ex.REACH_MODELS), 1, gridspec_kw={"hspace": 0.6})
    for ax, key in zip(axes, ex.REACH_MODELS):
        cfg = configs.load(key)
        n = cfg["heads"]
        reach = relative.alibi_reaches(n, ex.ALIBI_FACTOR)
        extra = relative.alibi_extra_heads(n)
        heads = np.arange(1, n + 1)
        ax.plot(heads[~extra], reach[~extra], "o", color=theme.series[0], markersize=4, label=T("power_rule"))
        if extra.any():
            ax.plot(heads[extra], reach[extra], "o", markerfacecolor="none", color=theme.series[1], markersize=4, label=T("added_heads"))
        for level in (ex.REACH_NEAR, ex.REACH_FAR):
            ax.axhline(level, color=theme.muted, linewidth=0.9, linestyle="--")
        ax.axhline(cfg["context"], color=theme.fg, linewidth=1.1, linestyle="--")
        ax.annotate(T("train_length", n=f"{cfg['context']:,}"), xy=(1, cfg["context"]), xytext=(0, -12), textcoords="offset points",
                    fontsize=9, color=theme.fg)
        ax.set_yscale("log")
        ax.set_ylim(1, cfg["context"] * 2)
        ax.set_xlim(0, n + 1)
        ax.set_title(T("model_heads", model=cfg.name, n=n), fontsize=10)
        ax.set_xlabel(T("head_axis"))
        ax.set_ylabel(T("reach_axis"))
        ax.grid(True, axis="y", linewidth=0.5)
        ax.legend(loc="upper left", bbox_to_anchor=(0.0, 0.86), fontsize=9)  # under the label, where no head reaches
