"""The data-flow panel's static figures, one per page state: what readers without JavaScript see.

Each figure is the ``dataflow`` widget's starting state on its page (posenc.examples.DATAFLOW_START):
the stages of posenc.dataflow top to bottom, learned (solid), this lesson's (thick) or still to come
(dashed), each with its output shapes and parameter count for that page's model, and ◆ where the
model's position method enters. A column, so it stays readable on a phone.
"""

from __future__ import annotations

from matplotlib.patches import FancyBboxPatch

from figures_src import figure, language, texts
from posenc import dataflow as df
from posenc import examples as ex
from posenc.formatting import format_value

# This module's words: figures_src/labels/<lang>.yaml, section dataflow. The stage, topic, tensor and model
# names are posenc.dataflow's, in the language being drawn (posenc/data/dataflow.yaml, dataflow.en.yaml),
# the same words the widget shows.
T = texts(__name__)

WIDTH = 4.6  # inches: with the 0.1 in padding savefig adds on each side, _style.PHONE_MAX_WIDTH_IN
ROW = 0.62  # inches per stage
HEAD = 0.55  # inches above the first stage for the legend
BOX_W = 1.4
TEXT_PT = 9


def figure_name(state: str) -> str:
    return "dataflow_home" if state == "all" else f"dataflow_lesson{state}"


def _lesson(n: str) -> str:
    """A lesson's name as its page writes it: "6b" is "lesson 6, continued" on a Chinese page (the widget's lessonName)."""
    return T("lesson_sequel", n=n[:-1]) if n.endswith("b") else T("lesson", n=n)


def _where(state: str) -> str:
    return T("home") if state == "all" else _lesson(state)


def _fmt(value) -> str:
    return format_value(value, ",", language())


def _model(state: str) -> df.Model:
    """The page's model (the widget's starting one), its words in the language being drawn."""
    return df.load(ex.DATAFLOW_START[state], language())


def _topic_name(topic: str) -> str:
    return df.topic_name(topic, language())


def stage_state(stage: df.Stage, state: str) -> str:
    """learned, new (taught in this lesson) or later, as the widget marks it."""
    if stage.topic in df.new_in(state):
        return "new"
    return "learned" if df.active(stage, state) else "later"


def params_text(stage: df.Stage) -> str:
    if stage.repeat > 1 and stage.parameters:
        return T("params_per_layer", per_layer=_fmt(stage.per_copy), layers=stage.repeat)
    return T("params", n=_fmt(stage.parameters))


def outputs_text(stage: df.Stage) -> str:
    return T("list_join").join(f"{t.name} [{df.shape_text(t.shape)}]" for t in stage.outputs)


def marker_text(stage: df.Stage) -> str:
    """◆ and the topics that enter here (greyed in the figure while their lesson is still to come)."""
    names = T("name_join").join(dict.fromkeys(_topic_name(e.topic) for e in stage.entries))
    return T("enters_here", names=names)


def _where_position_enters(m: df.Model, stages) -> str:
    """The alt text's account of where position enters: each entry's own sentence from posenc.dataflow."""
    enters = [T("enters_item", stage=s.name, text=e.text) for s in stages for e in s.entries]
    note = df.method_note(m)
    return T("enters_join").join(enters) if enters else T("enters_nowhere", text=note.text if note else "")


def _alt(state: str) -> str:
    m = _model(state)
    stages = df.stages(m)
    def named(kind: str) -> str:
        return T("stage_join").join(s.name for s in stages if stage_state(s, state) == kind)  # a name may hold 、

    learned, new, later = named("learned"), named("new"), named("later")
    return T("alt", where=_where(state), model=m.name, n=len(stages),
             learned=(T("alt_map", stages=learned) if state == "all" else T("alt_learned", learned=learned)) if learned else "", new=T("alt_new", new=new) if new else "",
             later=T("alt_later", later=later) if later else "", enters=_where_position_enters(m, stages),
             total=_fmt(df.total_parameters(m)), length=df.LENGTH)


def _caption(state: str) -> str:
    m = _model(state)
    # "thick: new in this lesson" only where a box is thick: lessons 3 to 6b change what happens inside a
    # stage taught before (a newcomer read the promise of a thick box that none of the boxes kept)
    thick = any(stage_state(s, state) == "new" for s in df.stages(m))
    if state == "all":  # the home page: nothing is learned yet, every box is a stage the course teaches
        return T("caption_map", model=m.name)
    return T("caption", model=m.name, thick=T("caption_thick") if thick else "")


def draw_state(fig, theme, state: str) -> None:
    m = _model(state)
    stages = df.stages(m)
    height = HEAD + ROW * len(stages)
    ax = fig.add_axes([0, 0, 1, 1])
    ax.set_xlim(0, WIDTH)
    ax.set_ylim(height, 0)  # top to bottom, in inches
    ax.axis("off")
    ax.text(0, 0.18, T("title", model=m.name), fontsize=TEXT_PT, fontweight="bold", va="center", color=theme.fg, gid="title")
    ax.text(0, 0.42, T("legend_lesson") if state != "all" else T("legend_home"),
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
        meta = _lesson(s.lesson) + (T("per_layer", n=s.repeat) if s.repeat > 1 else "")
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
