"""Lesson 6 figures: which dims of a head turn, which layers use RoPE, MLA's cache, how NoPE can count.

Each figure draws what one posenc function computes, the same call the
numbers in posenc/quantities/lesson6.py make: hybrid.head_dims, hybrid.layer_pattern /
pattern_counts / pattern_period, mla.for_model, hybrid.causal_counter / counter_gap.
Phone layout: at most 4.8 in wide, text at least 9 pt, panels stacked.
"""

from __future__ import annotations

import matplotlib.patches
import numpy as np

from figures_src import figure, language, num, texts
from posenc import configs, hybrid, mla, tokenize
from posenc import examples as ex

T = texts(__name__)  # every word these figures draw: figures_src/labels/<lang>.yaml, section lesson6
FONT = 9  # _style.MIN_TEXT_PT: every text in these figures

# Chinese sets a space before a Latin layer name only ("12 层全局 NoPE", "28 层 Mamba"), so its count fills
# {space}; English always has one.
FIELDS_MAY_DIFFER = ("count",)


def _short(key: str) -> str:
    return configs.load(key).name.split(" (")[0]


def _unverified(key: str, fields) -> bool:
    cfg = configs.load(key)
    return any(cfg.field(f).tag == "U" for f in fields if f in cfg.fields)


def _strip_axes(ax):
    ax.set_yticks([])
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)


# --- which dims of a head turn ------------------------------------------------------------------------------


def _dims_row(key: str) -> str:
    d = hybrid.head_dims(configs.load(key))
    flag = T("unverified_values") if _unverified(key, ("head_dim", "rope_theta", "context", "rotary_fraction")) else ""
    return T("dims_row", model=_short(key), width=d.width, rotary=d.rotary, flag=flag)


def _partial_alt() -> str:
    parts = []
    for key in ex.PARTIAL_MODELS:
        d = hybrid.head_dims(configs.load(key))
        parts.append(T("dims_row_alt", row=_dims_row(key), turning=d.turning, plain=d.plain))
    return T("alt.partial_rotary_dims", n=len(ex.PARTIAL_MODELS), rows=T("alt_join").join(parts))


@figure(
    "partial_rotary_dims",
    alt=_partial_alt,
    caption=lambda: T("caption.partial_rotary_dims"),
    size=(4.8, 3.3),
)
def partial_rotary_dims(fig, theme):
    ax = fig.add_subplot()
    rows = list(ex.PARTIAL_MODELS)
    widest = max(hybrid.head_dims(configs.load(k)).width for k in rows)
    for row, key in enumerate(rows):
        d = hybrid.head_dims(configs.load(key))
        y = -row * 1.3
        segments = [(0, d.turning, theme.series[0], 1.0), (d.turning, d.not_turning, theme.series[0], 0.35),
                    (d.rotary, d.plain, theme.muted, 0.35)]
        for x0, w, color, alpha in segments:
            if w > 0:
                ax.add_patch(matplotlib.patches.Rectangle((x0, y - 0.3), w, 0.6, facecolor=color, alpha=alpha,
                                                          edgecolor=theme.fg, linewidth=0.5))
        ax.text(0, y + 0.42, _dims_row(key), ha="left", va="bottom", fontsize=FONT, color=theme.fg)
    ax.set_xlim(0, widest)
    ax.set_ylim(-1.3 * (len(rows) - 1) - 0.45, 0.95)
    ax.set_xticks(np.arange(0, widest + 1, 64))
    ax.set_xlabel(T("dim_index"), fontsize=FONT)
    ax.tick_params(labelsize=FONT)
    _strip_axes(ax)
    handles = [
        matplotlib.patches.Patch(facecolor=theme.series[0], edgecolor=theme.fg, label=T("legend.turning")),
        matplotlib.patches.Patch(facecolor=theme.series[0], alpha=0.35, edgecolor=theme.fg, label=T("legend.not_turning")),
        matplotlib.patches.Patch(facecolor=theme.muted, alpha=0.35, edgecolor=theme.fg, label=T("legend.plain")),
    ]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(0, -0.28), ncols=1, fontsize=FONT, frameon=False)


# --- which layers use RoPE ----------------------------------------------------------------------------------

# layer_pattern's kinds, as drawn: (colour index or None for muted, hatched?); the legend text is T("kind.<kind>"),
# the short name in each row's title T("short.<kind>")
PATTERN_STYLE = {
    "rope_global": (0, False),
    "rope_local": (2, False),
    "rope_chunked": (4, False),
    "nope_global": (1, True),
    "linear": (None, False),
    "mamba": (3, False),
}


def _pattern_title(key: str) -> str:
    """'Llama 4 Scout · 48 层：36 层分块+RoPE，12 层全局 NoPE' from pattern_counts (one period when the depth is not recorded)."""
    cfg = configs.load(key)
    every_layer = False
    if "layers" in cfg.fields:
        counts, head = hybrid.pattern_counts(cfg), T("layers_total", n=cfg["layers"])
        if cfg.field("layers").tag == "U":
            head += T("unverified_count")
    else:
        period = hybrid.pattern_period(cfg)
        every_layer = period == 1
        counts, head = hybrid.pattern_counts(cfg, period), (T("every_layer") if every_layer else T("every_n_layers", n=period))
    short = {k: T(f"short.{k}") for k in counts}
    parts = [T("count", n=n, space=" " if short[k][0].isascii() else "", kind=short[k]) for k, n in counts.items() if n]
    body = (T("all_are", kind=short[next(k for k, n in counts.items() if n)]) if len(parts) == 1 and every_layer
            else T("parts_join").join(parts))
    return T("pattern_title", model=_short(key), head=head, body=body)


def _face(kind: str, theme) -> tuple[str, float]:
    idx, _hatch = PATTERN_STYLE[kind]
    return (theme.muted, 0.45) if idx is None else (theme.series[idx], 1.0)


def _layers_alt() -> str:
    rows = T("alt_join").join(_pattern_title(k) for k in ex.LAYER_MODELS)
    return T("alt.layer_patterns", n=len(ex.LAYER_MODELS), drawn=ex.LAYERS_DRAWN, rows=rows)


@figure(
    "layer_patterns",
    alt=_layers_alt,
    caption=lambda: T("caption.layer_patterns", n=len(ex.LAYER_MODELS), drawn=ex.LAYERS_DRAWN),
    size=(4.8, 8.2),
)
def layer_patterns(fig, theme):
    ax = fig.add_subplot()
    rows = list(ex.LAYER_MODELS)
    step = 1.25
    for row, key in enumerate(rows):
        pattern = hybrid.layer_pattern(configs.load(key), ex.LAYERS_DRAWN)
        y = -row * step
        for i, kind in enumerate(pattern):
            face, alpha = _face(kind, theme)
            hatched = PATTERN_STYLE[kind][1]
            ax.add_patch(matplotlib.patches.Rectangle(
                (i + 0.06, y - 0.3), 0.88, 0.6, facecolor=theme.panel if hatched else face, alpha=alpha,
                edgecolor=face if hatched else theme.fg, hatch="////" if hatched else None, linewidth=0.8 if hatched else 0.4))
        ax.text(0, y + 0.4, _pattern_title(key), ha="left", va="bottom", fontsize=FONT, color=theme.fg)
    ax.set_xlim(0, ex.LAYERS_DRAWN)
    ax.set_ylim(-step * (len(rows) - 1) - 0.45, 0.95)
    ticks = np.arange(0, ex.LAYERS_DRAWN, 4)
    ax.set_xticks(ticks + 0.5, [str(i + 1) for i in ticks])
    ax.tick_params(labelsize=FONT, length=0)
    ax.set_xlabel(T("layer_index"), fontsize=FONT)
    _strip_axes(ax)
    handles = []
    for kind, (_idx, hatched) in PATTERN_STYLE.items():
        face, alpha = _face(kind, theme)
        handles.append(matplotlib.patches.Patch(facecolor=theme.panel if hatched else face, alpha=alpha,
                                                edgecolor=face if hatched else theme.fg, hatch="////" if hatched else None,
                                                label=T(f"kind.{kind}")))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(0, -0.09), ncols=1, fontsize=FONT, frameon=False)


# --- MLA's cache ----------------------------------------------------------------------------------------------


_CACHE_NUMBER = {"mla": "mla_cache_kib_deepseek_v3", "mha_full_keys": "mha_cache_kib_deepseek_v3"}  # the prose's printed values


def _cache_kib() -> dict[str, float]:
    return {k: v / 1024 for k, v in mla.for_model(configs.load(ex.MLA_MODEL)).bytes("bf16").items()}


def _cache_labels() -> dict[str, str]:
    cfg = configs.load(ex.MLA_MODEL)
    return {
        "mla": T("cache.mla", latent=cfg["kv_lora_rank"], rope=cfg["head_dim"]),
        "mha_full_keys": T("cache.mha_full_keys", heads=cfg["heads"], k=cfg["nope_head_dim"] + cfg["head_dim"], v=cfg["v_head_dim"]),
    }


@figure(
    "mla_cache",
    alt=lambda: T("alt.mla_cache", layers=configs.load(ex.MLA_MODEL)["layers"], mla=num("mla_cache_kib_deepseek_v3"),
                  mha=num("mha_cache_kib_deepseek_v3"), ratio=num("mla_cache_ratio_deepseek_v3")),
    caption=lambda: T("caption.mla_cache", layers=configs.load(ex.MLA_MODEL)["layers"]),
    size=(4.8, 2.4),
)
def mla_cache(fig, theme):
    ax = fig.add_subplot()
    kib, labels = _cache_kib(), _cache_labels()
    order = ["mla", "mha_full_keys"]
    for row, key in enumerate(order):
        y = -row * 1.4
        ax.barh([y], [kib[key]], height=0.55, color=theme.series[row])
        ax.text(0, y + 0.4, labels[key], ha="left", va="bottom", fontsize=FONT, color=theme.fg)
        ax.text(kib[key], y, f" {num(_CACHE_NUMBER[key])} KiB", ha="left", va="center", fontsize=FONT, color=theme.fg)
    ax.set_xlim(0, max(kib.values()) * 1.3)
    ax.set_ylim(-1.4 * (len(order) - 1) - 0.45, 1.0)
    ax.set_xlabel(T("cache_axis"), fontsize=FONT)
    ax.tick_params(labelsize=FONT)
    _strip_axes(ax)


# --- NoPE: the causal counter -----------------------------------------------------------------------------------


def _tokens() -> list[str]:
    """The drawn language's example sentence as tokens (posenc.examples.texts): characters, or English words."""
    return tokenize.tokens(ex.texts(language()).sentence)


@figure(
    "nope_counter",
    alt=lambda: T("alt.nope_counter", sentence=num("l1_main_a"), **{n: num(n) for n in (
        "l1_main_len", "nope_marker_0", "nope_marker_1", "nope_marker_2", "nope_marker_5", "nope_marker_bidirectional",
        "sin_near_position", "nope_gap_near", "nope_gap_far_t", "nope_gap_far")}),
    caption=lambda: T("caption.nope_counter"),
    size=(4.8, 6.0),
)
def nope_counter(fig, theme):
    top, bottom = fig.subplots(2, 1)
    n = len(_tokens())
    t = np.arange(n)
    causal = hybrid.causal_counter(n)
    bidir = hybrid.causal_counter(n, causal=False)
    top.bar(t - 0.2, causal, width=0.4, color=theme.series[0], label=T("causal_mask"))
    top.bar(t + 0.2, bidir, width=0.4, color=theme.series[1], label=T("no_mask"))
    top.set_xticks(t, [T("token_tick", token=c, i=i) for i, c in enumerate(_tokens())])
    top.set_ylabel(T("marker_share"), fontsize=FONT)
    top.legend(fontsize=FONT)
    top.grid(True, axis="y")
    top.tick_params(labelsize=FONT)
    ts = np.unique(np.logspace(0, np.log2(ex.COUNTER_CURVE_MAX), 200, base=2).astype(int))
    gaps = np.array([hybrid.counter_gap(int(x)) for x in ts])
    bottom.loglog(ts, gaps, color=theme.series[0], label=T("gap_curve"))
    for x in (ex.NEAR_POSITION, configs.load(ex.COUNTER_FAR_MODEL)["context"]):
        g = hybrid.counter_gap(x)
        bottom.plot([x], [g], "o", color=theme.series[1], markersize=5)
        bottom.annotate(f"p = {x:,}\n{g:.2g}".replace("-", "−"), (x, g), textcoords="offset points", xytext=(6, 4),
                        fontsize=FONT, color=theme.fg)
    bottom.set_xlabel(T("position_p"), fontsize=FONT)
    bottom.set_ylabel(T("gap_axis"), fontsize=FONT)
    bottom.grid(True, which="major")
    bottom.tick_params(labelsize=FONT)
    fig.subplots_adjust(hspace=0.45)
