"""Lesson 6 figures: which dims of a head turn, which layers use RoPE, MLA's cache, how NoPE can count.

Each figure draws what one posenc function computes (issue 17), the same call the
numbers in posenc/quantities/lesson6.py make: hybrid.head_dims, hybrid.layer_pattern /
pattern_counts / pattern_period, mla.for_model, hybrid.causal_counter / counter_gap.
Phone layout (issue 18): at most 4.8 in wide, text at least 9 pt, panels stacked.
"""

from __future__ import annotations

import matplotlib.patches
import numpy as np

from figures_src import figure
from posenc import configs, hybrid, mla
from posenc import examples as ex
from posenc.quantities import text as num

FONT = 9  # _style.MIN_TEXT_PT: every text in these figures


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
    flag = "（含未核实的配置值）" if _unverified(key, ("head_dim", "rope_theta", "context", "rotary_fraction")) else ""
    return f"{_short(key)}：{d.width} 维里 {d.rotary} 维旋转{flag}"


def _partial_alt() -> str:
    parts = []
    for key in ex.PARTIAL_MODELS:
        d = hybrid.head_dims(configs.load(key))
        parts.append(f"{_dims_row(key)}，其中 {d.turning} 维在原生上下文内转得满一圈，{d.plain} 维不带位置")
    return (
        f"{len(ex.PARTIAL_MODELS)} 条上下排开的横条，每条是一个模型的一个注意力头的 q/k 维度，按维度编号从左到右排开，横条长度与维数成正比。"
        "深色段是旋转、而且在原生上下文内至少转满一圈的维度，浅色段是旋转但转不满一圈的维度，灰色段完全不旋转。" + "；".join(parts) + "。"
    )


@figure(
    "partial_rotary_dims",
    alt=_partial_alt,
    caption=(
        "每个注意力头的 q/k 维度按编号从左到右排开：partial_rotary_factor 决定前多少维旋转，"
        "其中又有多少维在原生上下文里至少转满一圈。标「未核实」的条用到了未核实的配置值。"
    ),
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
    ax.set_xlabel("维度编号", fontsize=FONT)
    ax.tick_params(labelsize=FONT)
    _strip_axes(ax)
    handles = [
        matplotlib.patches.Patch(facecolor=theme.series[0], edgecolor=theme.fg, label="旋转，上下文内转得满一圈"),
        matplotlib.patches.Patch(facecolor=theme.series[0], alpha=0.35, edgecolor=theme.fg, label="旋转，转不满一圈"),
        matplotlib.patches.Patch(facecolor=theme.muted, alpha=0.35, edgecolor=theme.fg, label="不旋转（不带位置）"),
    ]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(0, -0.28), ncols=1, fontsize=FONT, frameon=False)


# --- which layers use RoPE ----------------------------------------------------------------------------------

# layer_pattern's labels, as drawn: (legend text, colour index or None for muted, hatched?)
PATTERN_STYLE = {
    "rope_global": ("全局注意力 + RoPE", 0, False),
    "rope_local": ("滑动窗口（局部）+ RoPE", 2, False),
    "rope_chunked": ("分块注意力 + RoPE", 4, False),
    "nope_global": ("全局注意力，不加位置编码（NoPE）", 1, True),
    "linear": ("线性注意力（Gated DeltaNet、KDA），不加 RoPE", None, False),
    "mamba": ("Mamba 层（不是注意力），不加 RoPE", 3, False),
}
_SHORT = {"rope_global": "全局+RoPE", "rope_local": "局部+RoPE", "rope_chunked": "分块+RoPE",
          "nope_global": "全局 NoPE", "linear": "线性注意力", "mamba": "Mamba"}


def _pattern_title(key: str) -> str:
    """'Llama 4 Scout · 48 层：36 层分块+RoPE，12 层全局 NoPE' from pattern_counts (one period when the depth is not recorded)."""
    cfg = configs.load(key)
    if "layers" in cfg.fields:
        counts, head = hybrid.pattern_counts(cfg), f"{cfg['layers']} 层"
        if cfg.field("layers").tag == "U":
            head += "（未核实）"
    else:
        period = hybrid.pattern_period(cfg)
        counts, head = hybrid.pattern_counts(cfg, period), ("每一层" if period == 1 else f"每 {period} 层")
    parts = [f"{n} 层{' ' if _SHORT[k][0].isascii() else ''}{_SHORT[k]}" for k, n in counts.items() if n]
    body = "都是" + _SHORT[next(k for k, n in counts.items() if n)] if len(parts) == 1 and head == "每一层" else "，".join(parts)
    return f"{_short(key)} · {head}：{body}"


def _face(kind: str, theme) -> tuple[str, float]:
    _label, idx, _hatch = PATTERN_STYLE[kind]
    return (theme.muted, 0.45) if idx is None else (theme.series[idx], 1.0)


def _layers_alt() -> str:
    rows = "；".join(_pattern_title(k) for k in ex.LAYER_MODELS)
    return (
        f"{len(ex.LAYER_MODELS)} 行方格上下排开，每行是一个模型的前 {ex.LAYERS_DRAWN} 层，每格一层，颜色表示这一层是带 RoPE 的全局注意力、"
        "带 RoPE 的滑动窗口注意力、带 RoPE 的分块注意力、不加位置编码的全局注意力（斜线格）、没有 softmax 的线性注意力，"
        "还是不是注意力的 Mamba 层。"
        f"每行上方写着整个模型的层数统计：{rows}。"
    )


@figure(
    "layer_patterns",
    alt=_layers_alt,
    caption=lambda: (
        f"{len(ex.LAYER_MODELS)} 个模型前 {ex.LAYERS_DRAWN} 层的层型，每行上方是按配置数出的全模型统计。"
        f"斜线格是不加位置编码的全局注意力层。Command A 的模式与 Command R7B 相同，共 {num('rope_layers_command_a')} 层局部 + "
        f"{num('nope_layers_command_a')} 层全局 NoPE（层数未核实）。"
    ),
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
            hatched = PATTERN_STYLE[kind][2]
            ax.add_patch(matplotlib.patches.Rectangle(
                (i + 0.06, y - 0.3), 0.88, 0.6, facecolor=theme.panel if hatched else face, alpha=alpha,
                edgecolor=face if hatched else theme.fg, hatch="////" if hatched else None, linewidth=0.8 if hatched else 0.4))
        ax.text(0, y + 0.4, _pattern_title(key), ha="left", va="bottom", fontsize=FONT, color=theme.fg)
    ax.set_xlim(0, ex.LAYERS_DRAWN)
    ax.set_ylim(-step * (len(rows) - 1) - 0.45, 0.95)
    ticks = np.arange(0, ex.LAYERS_DRAWN, 4)
    ax.set_xticks(ticks + 0.5, [str(i + 1) for i in ticks])
    ax.tick_params(labelsize=FONT, length=0)
    ax.set_xlabel("第几层", fontsize=FONT)
    _strip_axes(ax)
    handles = []
    for kind, (label, _idx, hatched) in PATTERN_STYLE.items():
        face, alpha = _face(kind, theme)
        handles.append(matplotlib.patches.Patch(facecolor=theme.panel if hatched else face, alpha=alpha,
                                                edgecolor=face if hatched else theme.fg, hatch="////" if hatched else None,
                                                label=label))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(0, -0.09), ncols=1, fontsize=FONT, frameon=False)


# --- MLA's cache ----------------------------------------------------------------------------------------------


_CACHE_NUMBER = {"mla": "mla_cache_kib_deepseek_v3", "mha_full_keys": "mha_cache_kib_deepseek_v3"}  # the prose's printed values


def _cache_kib() -> dict[str, float]:
    return {k: v / 1024 for k, v in mla.for_model(configs.load(ex.MLA_MODEL)).bytes("bf16").items()}


def _cache_labels() -> dict[str, str]:
    cfg = configs.load(ex.MLA_MODEL)
    return {
        "mla": f"MLA：每层缓存 c_KV（{cfg['kv_lora_rank']} 维）+ 共用的 k_R（{cfg['head_dim']} 维）",
        "mha_full_keys": f"多头注意力：{cfg['heads']} 个头，每头缓存 k（{cfg['nope_head_dim'] + cfg['head_dim']} 维）和 v（{cfg['v_head_dim']} 维）",
    }


@figure(
    "mla_cache",
    alt=lambda: (
        f"两条横条，比较 DeepSeek-V3 每个 token 在全部 {configs.load(ex.MLA_MODEL)['layers']} 层里要缓存多少（bf16）。"
        f"上面一条是 MLA，缓存压缩后的 c_KV 和共用的 RoPE 键 k_R，共 {num('mla_cache_kib_deepseek_v3')} KiB，短得几乎看不见；"
        f"下面一条是同样的头做普通多头注意力，每个头缓存完整的 k 和 v，共 {num('mha_cache_kib_deepseek_v3')} KiB，"
        f"是前者的 {num('mla_cache_ratio_deepseek_v3')} 倍。"
    ),
    caption=lambda: (
        f"DeepSeek-V3 每个 token 的 KV 缓存（全部 {configs.load(ex.MLA_MODEL)['layers']} 层，bf16）。"
        "多头注意力一条是「同样的头、不做压缩」的对照，不是任何一个真实模型。"
    ),
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
    ax.set_xlabel("每个 token 的缓存（KiB）", fontsize=FONT)
    ax.tick_params(labelsize=FONT)
    _strip_axes(ax)


# --- NoPE: the causal counter -----------------------------------------------------------------------------------


@figure(
    "nope_counter",
    alt=lambda: (
        f"上下两张图。上图是柱状图：句子「{ex.SENTENCE}」的 {num('l1_main_len')} 个 token 在一个没有位置编码、所有分数都相等的注意力头里，"
        f"从句首标记分到的份额。加了因果掩码时依次是 {num('nope_marker_0')}、{num('nope_marker_1')}、{num('nope_marker_2')}……到 {num('nope_marker_5')}，"
        f"正好是 1/(位置+1)；不加因果掩码时每个 token 都是 {num('nope_marker_bidirectional')}，分不出先后。"
        f"下图是对数坐标的曲线：相邻两个位置的份额差随位置变小，位置 {num('sin_near_position')} 时是 {num('nope_gap_near')}，"
        f"位置 {num('nope_gap_far_t')} 时只有 {num('nope_gap_far')}。"
    ),
    caption=(
        "上：没有位置编码时，因果注意力靠「前面有几个 token」分出位置；去掉因果掩码，这条线索也没了。"
        "下：这条线索越往后越细，相邻两个位置的差按 1/p² 缩小。"
    ),
    size=(4.8, 6.0),
)
def nope_counter(fig, theme):
    top, bottom = fig.subplots(2, 1)
    n = len(ex.SENTENCE)
    t = np.arange(n)
    causal = hybrid.causal_counter(n)
    bidir = hybrid.causal_counter(n, causal=False)
    top.bar(t - 0.2, causal, width=0.4, color=theme.series[0], label="因果掩码")
    top.bar(t + 0.2, bidir, width=0.4, color=theme.series[1], label="无掩码")
    top.set_xticks(t, [f"{c}\n{i}" for i, c in enumerate(ex.SENTENCE)])
    top.set_ylabel("句首标记的份额", fontsize=FONT)
    top.legend(fontsize=FONT)
    top.grid(True, axis="y")
    top.tick_params(labelsize=FONT)
    ts = np.unique(np.logspace(0, np.log2(ex.COUNTER_CURVE_MAX), 200, base=2).astype(int))
    gaps = np.array([hybrid.counter_gap(int(x)) for x in ts])
    bottom.loglog(ts, gaps, color=theme.series[0], label="相邻份额差")
    for x in (ex.NEAR_POSITION, configs.load(ex.COUNTER_FAR_MODEL)["context"]):
        g = hybrid.counter_gap(x)
        bottom.plot([x], [g], "o", color=theme.series[1], markersize=5)
        bottom.annotate(f"p = {x:,}\n{g:.2g}".replace("-", "−"), (x, g), textcoords="offset points", xytext=(6, 4),
                        fontsize=FONT, color=theme.fg)
    bottom.set_xlabel("位置 p", fontsize=FONT)
    bottom.set_ylabel("位置 p 与 p+1 的份额差", fontsize=FONT)
    bottom.grid(True, which="major")
    bottom.tick_params(labelsize=FONT)
    fig.subplots_adjust(hspace=0.45)
