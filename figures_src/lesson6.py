"""Lesson 6 figures: which dims turn (partial RoPE), which layers have RoPE, how NoPE can count."""

from __future__ import annotations

import matplotlib.patches
import numpy as np

from figures_src import figure
from posenc import configs, hybrid, rope
from posenc import examples as ex
from posenc.quantities import text as num



def _dims_summary(key: str) -> tuple[str, int, int, int, bool]:
    """(name, head width, rotary dims, dims whose pair turns at least once in the context, unverified input?)"""
    cfg = configs.load(key)
    mask = hybrid.model_rotary_mask(cfg)
    inv = rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"], cfg.get("rotary_fraction", 1.0))
    turning = 2 * (len(inv) - rope.pairs_not_completing_turn(inv, cfg["context"]))
    unverified = any(cfg.field(f).tag == "U" for f in ("head_dim", "rope_theta", "context") if f in cfg.fields)
    return cfg.name, int(mask.size), int(mask.sum()), turning, unverified


def _partial_alt() -> str:
    parts = []
    for key in ex.PARTIAL_MODELS:
        name, width, rot, turning, unverified = _dims_summary(key)
        parts.append(f"{name}：{width} 维里 {rot} 维旋转，其中 {turning} 维在原生上下文内转得满一圈，{width - rot} 维不带位置" + ("（输入含未核实的配置值）" if unverified else ""))
    return (
        f"{len(ex.PARTIAL_MODELS)} 条横条，每条是一个模型的一个注意力头的 q/k 维度，按维度编号从左到右排开，横条长度与维数成正比。"
        "深色段是旋转、而且在原生上下文内至少转满一圈的维度，浅色段是旋转但转不满一圈的维度，灰色段完全不旋转。" + "；".join(parts) + "。"
    )


@figure(
    "partial_rotary_dims",
    alt=_partial_alt,
    caption=lambda: (
        "每个注意力头的 q/k 维度按编号从左到右排开：哪些维度旋转（partial_rotary_factor 决定前多少维），"
        "其中哪些在原生上下文里至少转满一圈。DeepSeek-V3 的 RoPE 部分是单独拼上去的 "
        f"{num('rope_rotary_dim_deepseek_v3')} 维。标「未核实」的条用到了未核实的配置值。"
    ),
    size=(7.4, 3.0),
)
def partial_rotary_dims(fig, theme):
    ax = fig.add_subplot()
    widest = max(_dims_summary(k)[1] for k in ex.PARTIAL_MODELS)
    for row, key in enumerate(ex.PARTIAL_MODELS):
        name, width, rot, turning, unverified = _dims_summary(key)
        y = len(ex.PARTIAL_MODELS) - 1 - row
        segments = [(0, turning, theme.series[0], 1.0), (turning, rot - turning, theme.series[0], 0.35), (rot, width - rot, theme.muted, 0.35)]
        for x0, w, color, alpha in segments:
            if w > 0:
                ax.add_patch(matplotlib.patches.Rectangle((x0, y - 0.32), w, 0.64, facecolor=color, alpha=alpha, edgecolor=theme.fg, linewidth=0.5))
        label = f"{name.split(' (')[0]}" + ("（未核实）" if unverified else "")
        ax.text(-4, y, label, ha="right", va="center", fontsize=8, color=theme.fg)
        ax.text(width + 3, y, f"{rot}/{width} 维旋转", ha="left", va="center", fontsize=8, color=theme.fg)
    ax.set_xlim(0, widest * 1.22)
    ax.set_ylim(-0.7, len(ex.PARTIAL_MODELS) - 0.3)
    ax.set_yticks([])
    ax.set_xlabel("维度编号", fontsize=8)
    ax.tick_params(labelsize=7)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    handles = [
        matplotlib.patches.Patch(facecolor=theme.series[0], edgecolor=theme.fg, label="旋转，上下文内转得满一圈"),
        matplotlib.patches.Patch(facecolor=theme.series[0], alpha=0.35, edgecolor=theme.fg, label="旋转，转不满一圈"),
        matplotlib.patches.Patch(facecolor=theme.muted, alpha=0.35, edgecolor=theme.fg, label="不旋转（不带位置）"),
    ]
    fig.legend(handles=handles, loc="lower center", ncols=3, fontsize=8, bbox_to_anchor=(0.55, -0.06))
    fig.subplots_adjust(left=0.24, bottom=0.26)


_KIND_LABEL = {"global": "全注意力（全局）", "local": "滑动窗口注意力（局部）", "linear": "Gated DeltaNet（没有注意力，也没有 RoPE）"}


def _layers_alt() -> str:
    parts = []
    for key in ex.LAYER_MODELS:
        cfg = configs.load(key)
        kinds = hybrid.layer_kinds(cfg, ex.LAYERS_DRAWN)
        parts.append(f"{cfg.name.split(' (')[0]}：前 {ex.LAYERS_DRAWN} 层里 {kinds.count('global')} 层全注意力")
    return (
        f"{len(ex.LAYER_MODELS)} 行方格，每行是一个模型的前 {ex.LAYERS_DRAWN} 层，每格一层，颜色表示这一层是全注意力、滑动窗口注意力，还是不用注意力的 Gated DeltaNet。"
        + "；".join(parts)
        + "。Qwen3-8B 每层都是全注意力；Gemma 3 每 6 层里 5 层局部、1 层全局；gpt-oss 局部和全局交替；Qwen3-Next 每 4 层一层全注意力，其余是 Gated DeltaNet。"
    )


@figure(
    "layer_patterns",
    alt=_layers_alt,
    caption=lambda: (
        f"{len(ex.LAYER_MODELS)} 个模型前 {ex.LAYERS_DRAWN} 层的层型（只画层的模式；Qwen3-Next 共 {num('qwen3next_layers')} 层）。"
        f"Gemma 3 的局部窗口 {configs.load('gemma3_27b')['sliding_window']:,} 个 token，gpt-oss 的窗口 {configs.load('gpt_oss')['sliding_window']:,} 个 token。"
    ),
    size=(7.4, 2.8),
)
def layer_patterns(fig, theme):
    ax = fig.add_subplot()
    colors = {"global": theme.series[0], "local": theme.series[2], "linear": theme.muted}
    for row, key in enumerate(ex.LAYER_MODELS):
        cfg = configs.load(key)
        kinds = hybrid.layer_kinds(cfg, ex.LAYERS_DRAWN)
        y = len(ex.LAYER_MODELS) - 1 - row
        for i, kind in enumerate(kinds):
            ax.add_patch(matplotlib.patches.Rectangle((i, y - 0.35), 0.85, 0.7, facecolor=colors[kind], edgecolor=theme.fg, linewidth=0.4,
                                                      alpha=1.0 if kind != "linear" else 0.5))
        ax.text(-0.5, y, cfg.name.split(" (")[0], ha="right", va="center", fontsize=8, color=theme.fg)
    ax.set_xlim(0, ex.LAYERS_DRAWN)
    ax.set_ylim(-0.7, len(ex.LAYER_MODELS) - 0.3)
    ax.set_yticks([])
    ax.set_xticks(np.arange(0, ex.LAYERS_DRAWN, 4) + 0.42, [str(i + 1) for i in range(0, ex.LAYERS_DRAWN, 4)], fontsize=7)
    ax.set_xlabel("第几层", fontsize=8)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    handles = [matplotlib.patches.Patch(facecolor=colors[k], alpha=1.0 if k != "linear" else 0.5, edgecolor=theme.fg, label=_KIND_LABEL[k]) for k in ("global", "local", "linear")]
    fig.legend(handles=handles, loc="lower center", ncols=3, fontsize=7.5, bbox_to_anchor=(0.55, -0.06))
    fig.subplots_adjust(left=0.2, bottom=0.3)




@figure(
    "nope_counter",
    alt=lambda: (
        f"左右两张图。左图是柱状图：句子「{ex.SENTENCE}」的 {num('l1_main_len')} 个 token 在一个没有位置编码、所有分数都相等的注意力头里，"
        f"从句首标记分到的份额。加了因果掩码时依次是 {num('nope_marker_0')}、{num('nope_marker_1')}、{num('nope_marker_2')}……到 {num('nope_marker_5')}，"
        f"正好是 1/(位置+1)；不加因果掩码时每个 token 都是 {num('nope_marker_bidirectional')}，分不出先后。"
        f"右图是对数坐标的曲线：相邻两个位置的份额差随位置变小，位置 {num('sin_near_position')} 时是 {num('nope_gap_near')}，"
        f"位置 {num('nope_gap_far_t')} 时只有 {num('nope_gap_far')}。"
    ),
    caption=lambda: (
        "左：没有位置编码时，因果注意力靠「前面有几个 token」分出位置；去掉因果掩码，这条线索也没了。"
        "右：这条线索越往后越细，相邻两个位置的差按 1/t² 缩小。"
    ),
    size=(7.4, 3.0),
)
def nope_counter(fig, theme):
    left, right = fig.subplots(1, 2)
    n = len(ex.SENTENCE)
    t = np.arange(n)
    causal = hybrid.causal_counter(n)
    bidir = hybrid.causal_counter(n, causal=False)
    left.bar(t - 0.2, causal, width=0.4, color=theme.series[0], label="因果掩码")
    left.bar(t + 0.2, bidir, width=0.4, color=theme.series[1], label="无掩码")
    left.set_xticks(t, [f"{c}\n{i}" for i, c in enumerate(ex.SENTENCE)], fontsize=8)
    left.set_ylabel("句首标记的份额", fontsize=8)
    left.legend(fontsize=8)
    left.grid(True, axis="y")
    ts = np.unique(np.logspace(0, np.log2(ex.COUNTER_CURVE_MAX), 200, base=2).astype(int))
    gaps = np.array([hybrid.counter_gap(int(x)) for x in ts])
    right.loglog(ts, gaps, color=theme.series[0])
    for x in (ex.NEAR_POSITION, configs.load(ex.COUNTER_FAR_MODEL)["context"]):
        g = hybrid.counter_gap(x)
        right.plot([x], [g], "o", color=theme.series[1], markersize=5)
        right.annotate(f"t = {x:,}\n{g:.2g}".replace("-", "−"), (x, g), textcoords="offset points", xytext=(6, 4), fontsize=7, color=theme.fg)
    right.set_xlabel("位置 t", fontsize=8)
    right.set_ylabel("位置 t 与 t+1 的份额差", fontsize=8)
    right.grid(True, which="major")
    right.tick_params(labelsize=7)
    fig.subplots_adjust(wspace=0.35)
