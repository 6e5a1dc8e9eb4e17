"""The data-flow panel's static figures, one per page state: what readers without JavaScript see.

Each figure is the ``dataflow`` widget's starting state on its page (posenc.examples.DATAFLOW_START):
the stages of posenc.dataflow top to bottom, learned (solid), this lesson's (thick) or still to come
(dashed), each with its output shapes and parameter count for that page's model, and ◆ where the
model's position method enters. A column, so it stays readable on a phone.
"""

from __future__ import annotations

from matplotlib.patches import FancyBboxPatch

from figures_src import figure
from posenc import dataflow as df
from posenc import examples as ex
from posenc.formatting import format_value

WIDTH = 4.6  # inches: with the 0.1 in padding savefig adds on each side, _style.PHONE_MAX_WIDTH_IN
ROW = 0.62  # inches per stage
HEAD = 0.55  # inches above the first stage for the legend
BOX_W = 1.4
TEXT_PT = 9


def figure_name(state: str) -> str:
    return "dataflow_home" if state == "all" else f"dataflow_lesson{state}"


def _where(state: str) -> str:
    return "首页" if state == "all" else f"第 {state} 课"


def stage_state(stage: df.Stage, state: str) -> str:
    """learned, new (taught in this lesson) or later, as the widget marks it."""
    if stage.topic in df.new_in(state):
        return "new"
    return "learned" if df.active(stage, state) else "later"


def params_text(stage: df.Stage) -> str:
    if stage.repeat > 1 and stage.parameters:
        return f"参数 每层 {format_value(stage.per_copy, ',')} × {stage.repeat} 层"
    return f"参数 {format_value(stage.parameters, ',')}"


def outputs_text(stage: df.Stage) -> str:
    return "，".join(f"{t.name} [{df.shape_text(t.shape)}]" for t in stage.outputs)


def marker_text(stage: df.Stage) -> str:
    """◆ and the topics that enter here (greyed in the figure while their lesson is still to come)."""
    names = "、".join(dict.fromkeys(df.TOPICS[e.topic][1] for e in stage.entries))
    return f"◆ 位置从这里进入：{names}"


def _alt(state: str) -> str:
    m = df.load(ex.DATAFLOW_START[state])
    stages = df.stages(m)
    learned = "、".join(s.name for s in stages if stage_state(s, state) != "later")
    later = "、".join(s.name for s in stages if stage_state(s, state) == "later")
    enters = [f"「{s.name}」（{e.text}）" for s in stages for e in s.entries]
    note = df.method_note(m)
    where = "；".join(enters) if enters else note.text
    head = f"{_where(state)}的数据流图，模型是 {m.name}：从上到下 {len(stages)} 个环节，" \
           f"每个环节写着输出的形状和参数个数，T 是序列长度。"
    known = f"已经学过的环节（实线框）：{learned}。" + (f"还没学的环节（虚线框）：{later}。" if later else "")
    return f"{head}{known}位置从哪里进入：{where}。整个模型 {format_value(df.total_parameters(m), ',')} 个参数。"


def _caption(state: str) -> str:
    m = df.load(ex.DATAFLOW_START[state])
    thick = "粗框是本课新学的，" if state != "all" else ""
    return (f"数据流（{m.name}）：实线框是学过的环节，{thick}虚线框是后面的课才讲的；"
            f"浅色底的环节在每一层各做一遍；◆ 标出位置从哪里进入。")


def draw_state(fig, theme, state: str) -> None:
    m = df.load(ex.DATAFLOW_START[state])
    stages = df.stages(m)
    height = HEAD + ROW * len(stages)
    ax = fig.add_axes([0, 0, 1, 1])
    ax.set_xlim(0, WIDTH)
    ax.set_ylim(height, 0)  # top to bottom, in inches
    ax.axis("off")
    ax.text(0, 0.18, f"{m.name}（T = 序列长度）", fontsize=TEXT_PT, fontweight="bold", va="center", color=theme.fg, gid="title")
    ax.text(0, 0.42, "实线：学过 · 粗框：本课 · 虚线：后面的课 · 浅底：每层一遍" if state != "all" else "实线：各课讲的环节 · 浅底：每层一遍",
            fontsize=TEXT_PT, va="center", color=theme.muted, gid="legend")
    for i, s in enumerate(stages):
        top = HEAD + i * ROW
        st = stage_state(s, state)
        colour = theme.muted if st == "later" else theme.fg
        box = FancyBboxPatch((0.02, top + 0.06), BOX_W, ROW - 0.16, boxstyle="round,pad=0,rounding_size=0.06",
                             facecolor=theme.panel if s.repeat > 1 else "none",
                             edgecolor=theme.series[1] if st == "new" else colour,
                             linewidth=2.2 if st == "new" else 1.0, linestyle="--" if st == "later" else "-", gid=f"box:{s.key}:{st}")
        ax.add_patch(box)
        mid = top + 0.06 + (ROW - 0.16) / 2
        ax.text(0.1, mid - 0.1, s.name, fontsize=TEXT_PT, fontweight="bold", va="center", color=colour, gid=f"name:{s.key}")
        meta = f"第 {s.lesson} 课" + (f" · 每层 ×{s.repeat}" if s.repeat > 1 else "")
        ax.text(0.1, mid + 0.11, meta, fontsize=TEXT_PT, va="center", color=theme.muted, gid=f"meta:{s.key}")
        x = BOX_W + 0.12
        ax.text(x, top + 0.16, outputs_text(s), fontsize=TEXT_PT, va="center", color=colour, gid=f"shape:{s.key}")
        ax.text(x, top + 0.34, params_text(s), fontsize=TEXT_PT, va="center", color=colour, gid=f"params:{s.key}")
        if s.entries:
            taught = all(e.topic in df.taught(state) for e in s.entries)
            ax.text(x, top + 0.52, marker_text(s), fontsize=TEXT_PT, va="center",
                    color=theme.series[0] if taught else theme.muted, fontweight="bold" if taught else "normal", gid=f"pos:{s.key}")
        if i:
            ax.annotate("", xy=(0.3, top + 0.06), xytext=(0.3, top - 0.1),
                        arrowprops={"arrowstyle": "-|>", "color": theme.muted, "lw": 0.9})


def _register(state: str) -> None:
    n = len(df.STAGES)

    @figure(figure_name(state), alt=lambda: _alt(state), caption=lambda: _caption(state), size=(WIDTH, HEAD + ROW * n))
    def draw(fig, theme):
        draw_state(fig, theme, state)


for _state in df.STATES:
    _register(_state)
