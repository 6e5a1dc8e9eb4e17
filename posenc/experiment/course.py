"""The experiment as the course shows it: each position method and each RoPE frequency variant declared once, as a record.

config.py holds the keys the code trains (METHODS, EXTENSIONS, ROPE_SCALINGS), in the order pages list them.
The records here add what pages, figures and tests need to show them:

- a method: its display name in each language, its name in the results page's table where that differs
  (Markdown: a term taught after the figures that draw it, or math), its colour (an index into the figure
  theme's series), whether its line is dashed, its family (where the position enters: ``none``, ``input`` or
  ``attention``), the lesson page that teaches it (the results table's "lesson" column), and whether the
  extension study continues it;
- a variant of RoPE's frequencies: its name as a continued-training extension and, for the ones also applied at
  evaluation time, as a scaling; its colour and line style.

Labels and colours in the figures, the curves' names, the counts the prose states
(``{{ num("exp_method_count") }}``), the results table's rows (``{{ method_rows() }}``: tools/build/course_macros.py)
and the names of the three numbers each row quotes (posenc/quantities/experiment.py), and the tests'
parametrisation derive from these records. A record that lacks a field, or names one the schema does not have,
fails at import, naming the record and the field.

Kept out of config.py, whose code is hashed into the results: renaming a label or recolouring a line must not
make a run of hours stale.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path

from ..formatting import LANGUAGES, check_language
from .config import EXTENSIONS, METHODS, ROPE_SCALINGS

# Seeds of the committed results/full.json that the pages quote (`make experiment-full`); a repair hint
# for a missing or unreadable file re-runs this many.
PAGE_SEEDS = 16

FAMILIES = {
    "none": "no position signal: the baseline every lesson's figures may draw",
    "input": "a position vector added to the token embedding",
    "attention": "position enters the attention scores (a bias, or a rotation of q and k)",
}
LESSON_PAGES = ("02-learned-table.md", "03-sinusoidal.md", "03b-relative-bias.md", "04-rope.md", "05-long-context.md",
                "06-partial-nope.md")


@dataclass(frozen=True)
class Method:
    key: str  # as in config.METHODS
    name: dict  # language → display name
    table_name: dict | None  # language → its name in the results table (Markdown); None: the display name
    colour: int  # index into figures_src/_style.py's theme.series
    dashed: bool  # drawn dashed (a control that shares another method's colour)
    family: str  # one of FAMILIES
    lesson: str  # the lesson page (and section) that teaches it, relative to docs/lessons/
    extension: bool  # the extension study continues this method's trained model

    def label(self, lang: str = "zh") -> str:
        return self.name[check_language(lang)]

    def table_label(self, lang: str = "zh") -> str:
        """Its name in the results table, as Markdown."""
        return (self.table_name or self.name)[check_language(lang)]

    @property
    def lesson_page(self) -> str:
        return self.lesson.partition("#")[0]


@dataclass(frozen=True)
class Variant:
    key: str  # as in config.EXTENSIONS
    extension_name: dict  # language → its name as a continued-training extension
    scaling_name: dict | None  # language → its name as an evaluation-time scaling; None if it is not one
    colour: int  # index into theme.series: the same change has the same colour in both studies
    style: object  # matplotlib line style, the same in both studies

    def label(self, kind: str, lang: str = "zh") -> str:
        """Its name as ``kind`` "extension" or "scaling"."""
        names = {"extension": self.extension_name, "scaling": self.scaling_name}[kind]
        if names is None:
            raise ValueError(f"variant {self.key!r} is not applied at evaluation time; it has no scaling name")
        return names[check_language(lang)]


_METHOD_RECORDS = (
    # No position encoding is called by what it is rather than NoPE, a name lesson 6 teaches: its line
    # appears in figures from lesson 3 on. It takes the neutral black/white; RoPE's two variants are far
    # apart (blue, orange) so exp_partial_rope reads in both themes; the √d control shares plain
    # sinusoidal's colour, dashed. The results table, read after lesson 6, calls the baseline by its term too, and
    # writes √d_model as the pages' math.
    dict(key="nope", name=dict(zh="不加位置编码", en="no positional encoding"),
         table_name=dict(zh="NoPE（不加位置编码）", en="NoPE (no positional encoding)"),
         colour=6, dashed=False, family="none", lesson="06-partial-nope.md#nope", extension=False),
    dict(key="learned", name=dict(zh="可学习位置表", en="learned position embedding"), table_name=None,
         colour=1, dashed=False, family="input", lesson="02-learned-table.md", extension=False),
    dict(key="sinusoidal", name=dict(zh="sinusoidal", en="sinusoidal"), table_name=None,
         colour=2, dashed=False, family="input", lesson="03-sinusoidal.md", extension=False),
    dict(key="sinusoidal_scaled", name=dict(zh="sinusoidal × √d_model", en="sinusoidal × √d_model"),
         table_name=dict(zh=r"sinusoidal × $\sqrt{d_{model}}$", en=r"sinusoidal × $\sqrt{d_{model}}$"),
         colour=2, dashed=True, family="input", lesson="03-sinusoidal.md#scale-trap", extension=False),
    dict(key="alibi", name=dict(zh="ALiBi", en="ALiBi"), table_name=None,
         colour=3, dashed=False, family="attention", lesson="03b-relative-bias.md#alibi", extension=False),
    dict(key="rope", name=dict(zh="RoPE", en="RoPE"), table_name=None,
         colour=0, dashed=False, family="attention", lesson="04-rope.md", extension=True),
    dict(key="rope_partial", name=dict(zh="部分 RoPE", en="partial RoPE"), table_name=None,
         colour=4, dashed=False, family="attention", lesson="06-partial-nope.md#partial", extension=False),
)

_VARIANT_RECORDS = (
    # Plain RoPE keeps its method colour; the same change has the same colour and dash in both studies.
    dict(key="rope", extension_name=dict(zh="RoPE（频率不变，直接续训）", en="RoPE unchanged + training"),
         scaling_name=dict(zh="RoPE（不缩放）", en="RoPE (not scaled)"), colour=0, style="-"),
    dict(key="pi", extension_name=dict(zh="PI + 续训", en="PI + training"),
         scaling_name=dict(zh="位置插值（PI）", en="position interpolation (PI)"), colour=1, style=(0, (1, 1.5))),
    dict(key="ntk", extension_name=dict(zh="NTK-aware + 续训", en="NTK-aware + training"),
         scaling_name=dict(zh="NTK-aware", en="NTK-aware"), colour=2, style="-."),
    dict(key="yarn", extension_name=dict(zh="YaRN + 续训", en="YaRN + training"),
         scaling_name=dict(zh="YaRN", en="YaRN"), colour=3, style="--"),
    dict(key="abf", extension_name=dict(zh="ABF（调大 base）+ 续训", en="ABF (larger base) + training"),
         scaling_name=None, colour=4, style=(0, (6, 1.5, 1, 1.5, 1, 1.5))),
)

_HERE = Path(__file__).name


def _names_ok(value) -> bool:
    return isinstance(value, dict) and set(value) == set(LANGUAGES) and all(isinstance(v, str) and v for v in value.values())


_CHECKS = {
    "key": (lambda v: isinstance(v, str) and v, "a non-empty string"),
    "name": (_names_ok, f"a name in each language ({', '.join(LANGUAGES)})"),
    "extension_name": (_names_ok, f"a name in each language ({', '.join(LANGUAGES)})"),
    "scaling_name": (lambda v: v is None or _names_ok(v), f"None or a name in each language ({', '.join(LANGUAGES)})"),
    "table_name": (lambda v: v is None or _names_ok(v), f"None or a name in each language ({', '.join(LANGUAGES)})"),
    # theme.series has seven colours (figures_src/_style.py; tests/test_figures_experiment.py holds the two together)
    "colour": (lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 7, "an index 0–6 into theme.series"),
    "dashed": (lambda v: isinstance(v, bool), "True or False"),
    "family": (lambda v: v in FAMILIES, f"one of {', '.join(FAMILIES)}"),
    "lesson": (lambda v: isinstance(v, str) and v.partition("#")[0] in LESSON_PAGES, f"a page of {', '.join(LESSON_PAGES)}"),
    "extension": (lambda v: isinstance(v, bool), "True or False"),
    "style": (lambda v: isinstance(v, (str, tuple)), "a matplotlib line style"),
}


def records(cls, raw, keys, what: str) -> tuple:
    """``raw`` (dicts) as ``cls`` records, checked: every field present and valid, one record per key of ``keys``, in order."""
    names = [f.name for f in fields(cls)]
    out = []
    for i, r in enumerate(raw):
        label = f"{_HERE}: {what} record {r.get('key', f'#{i + 1}')!r}"
        missing = [n for n in names if n not in r]
        if missing:
            raise ValueError(f"{label} lacks the field {missing[0]!r}; every {what} record has {', '.join(names)}")
        unknown = [n for n in r if n not in names]
        if unknown:
            raise ValueError(f"{label} has the field {unknown[0]!r}, which a {what} record does not have "
                             f"({', '.join(names)}); add it to {cls.__name__} or remove it")
        for n in names:
            ok, want = _CHECKS[n]
            if not ok(r[n]):
                raise ValueError(f"{label}: field {n!r} is {r[n]!r}; it must be {want}")
        out.append(cls(**r))
    got = [r.key for r in out]
    if got != list(keys):
        missing = [k for k in keys if k not in got]
        extra = [k for k in got if k not in keys]
        raise ValueError(f"{_HERE}: the {what} records are {got}, config.py trains {list(keys)}"
                         + (f"; add records for {missing}" if missing else "") + (f"; remove {extra}" if extra else "")
                         + ("" if missing or extra else "; put them in config.py's order"))
    return tuple(out)


METHOD_RECORDS: tuple[Method, ...] = records(Method, _METHOD_RECORDS, METHODS, "method")
VARIANT_RECORDS: tuple[Variant, ...] = records(Variant, _VARIANT_RECORDS, EXTENSIONS, "variant")
_BY_KEY = {m.key: m for m in METHOD_RECORDS}
_VARIANT_BY_KEY = {v.key: v for v in VARIANT_RECORDS}

if [v.key for v in VARIANT_RECORDS if v.scaling_name is not None] != ["rope", *ROPE_SCALINGS]:
    raise ValueError(f"{_HERE}: the variants with a scaling name must be rope (unscaled) and config.ROPE_SCALINGS {ROPE_SCALINGS}")
if [m.key for m in METHOD_RECORDS if m.extension] != ["rope"]:
    raise ValueError(f"{_HERE}: the extension study continues the RoPE model (run.py): only rope has extension=True")


def method(key: str) -> Method:
    if key not in _BY_KEY:
        raise ValueError(f"unknown position method {key!r}; the experiment's methods are {', '.join(_BY_KEY)}")
    return _BY_KEY[key]


def variant(key: str) -> Variant:
    if key not in _VARIANT_BY_KEY:
        raise ValueError(f"unknown RoPE variant {key!r}; the experiment's variants are {', '.join(_VARIANT_BY_KEY)}")
    return _VARIANT_BY_KEY[key]


def in_family(family: str) -> tuple[str, ...]:
    """The keys of the methods of ``family``, in config order."""
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}; choose one of {', '.join(FAMILIES)}")
    return tuple(m.key for m in METHOD_RECORDS if m.family == family)


def taught_by(page: str) -> tuple[str, ...]:
    """Methods a figure of lesson ``page`` (e.g. "03b-relative-bias.md") may draw: those taught there or
    earlier, and the baseline without a position signal."""
    if page not in LESSON_PAGES:
        raise ValueError(f"unknown lesson page {page!r}; choose one of {', '.join(LESSON_PAGES)}")
    return tuple(m.key for m in METHOD_RECORDS if m.family == "none" or m.lesson_page <= page)


# The Chinese display names (posenc.experiment.figures' curve labels).
METHOD_LABELS = {m.key: m.label("zh") for m in METHOD_RECORDS}
ROPE_SCALING_LABELS = {v.key: v.label("scaling", "zh") for v in VARIANT_RECORDS if v.scaling_name is not None}
EXTENSION_LABELS = {v.key: v.label("extension", "zh") for v in VARIANT_RECORDS}
