"""The registry of named quantities that lesson prose quotes.

A lesson never types a derived number. It writes ``{{ num("sin_slowest_period") }}``
and the build asks this registry, which computes the value from posenc and
formats it for Chinese prose (``posenc.formatting``). To add a quantity, write a
function in the module of the lesson that introduces it (``posenc/quantities/lesson3.py`` …)::

    @number("sin_slowest_period", ",.0f", "最慢一根指针转一圈要多少个 token")
    def _():
        return sinusoidal.periods(ex.SIN_DIM)[-1]

The function only calls posenc and reads ``posenc.examples``; the math lives in posenc.
A quantity computed from a text example takes the page's language, ``def _(lang)``, and reads that
edition's examples (``ex.texts(lang)``): each edition's page quotes the number of its own sentence
through the same name.
The format is a Python format spec: ",.0f" → 19,869 · ".1%" → 2.8% · ".2f" → 6.28 ·
"," → 786,432 · "" → str(value). Every module in this package is loaded
automatically, so a new lesson module needs no other registration.

Naming scheme (snake_case, one name per meaning):

    <scope>_<what>[_<qualifier>]

- scope is one of ``SCOPES`` below (tests/test_numbers.py fails on a name with another scope):
  where the quantity is introduced (``l1_`` … ``l6_``, ``sin_`` for lesson 3's demo), the training
  experiment (``exp_``), the exercises (``ex_``), the project's model (``project_``), a topic a later lesson
  reuses (``rope_``, ``yarn_``, ``alibi_`` …) or one model's single facts (``gpt2_``, ``qwen3_`` …). A new
  scope is added to ``SCOPES`` with what it holds;
- a quantity computed by one rule for several models ends in the model's key from
  ``posenc/data/models*.yaml``: ``rope_pairs_total_qwen3_8b``, ``rope_pairs_not_turning_llama2_7b``,
  ``rope_rotary_dim_glm45``. Do not register a second name (``qwen3_pairs``) for a member of such a
  family: quote the family name;
- every name is written out in full where it is registered, so a search for a name a page quotes finds
  its definition: a family is a literal table (``family``), never an f-string in a loop
  (tests/test_numbers.py checks both rules). The one exception is a family whose members are records
  declared elsewhere, which a new member must not have to repeat (the experiment's methods: a row per
  record of posenc/experiment/course.py): ``family`` derives its rows from the members, and a search for
  the name's pattern (``exp_in_dist_``) finds it;
- one meaning, one name: before adding a name, search this package for the same value
  and doc (``tests/test_numbers.py`` fails on a quantity no page quotes, so an unused
  duplicate cannot linger).

Registering a name twice is an error that names both places (file:line); the check does
not rely on function names, since every registered function is called ``_``.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .._check import did_you_mean
from ..formatting import format_value


# The scopes a name may start with (``<scope>_``), and what each holds.
SCOPES = {
    # where a quantity is introduced
    "l1": "lesson 1's demos: the seeded head, the swapped sentences, token and position IDs, padding",
    "l2": "lesson 2's demos: the raw index, the [0, 1] scale, GPT-2's table",
    "sin": "lesson 3's sinusoidal demo at examples.SIN_DIM, and the paper's own d_model",
    "l3b": "lesson 3b's own demos: the per-distance table, the example sentence, the parameter table, RoPE vs a bias",
    "l4": "lesson 4's shift experiments and worked examples",
    "l6": "lesson 6's own demos: a query scored against itself",
    "ex": "exercise answers",
    "exp": "the training experiment's results (posenc/quantities/experiment.py)",
    "project": "the project's own model, examples.PROJECT (the experiment's full preset)",
    # topics a later lesson reuses
    "rope": "RoPE's frequencies, pairs and layers, per model",
    "pi": "position interpolation",
    "ntk": "NTK-aware scaling",
    "yarn": "YaRN",
    "abf": "raising the base (ABF) in real training recipes",
    "ruler": "RULER: claimed window vs effective length",
    "longrope": "LongRoPE: per-pair rescale factors, short and long (Phi-3.5-mini)",
    "liu": "Liu et al. 2023's critical dimension, per model",
    "men": "Men et al. 2024's B_{m,θ} ≥ 0 test of a base at a length",
    "bf16": "RoPE's angles in bfloat16 and float32 at long context",
    "alibi": "ALiBi's slopes, reach and cost, per model",
    "t5": "T5's relative buckets",
    "shaw": "Shaw et al.'s clipped relative vectors",
    "nope": "NoPE: layers without positions, the causal counter",
    "mrope": "M-RoPE's axes and pairs, per model",
    "mla": "multi-head latent attention: cache sizes, the demo head",
    "mha": "multi-head attention's cache, beside MLA's",
    "gqa": "grouped-query attention's cache, beside MLA's (lesson 6's counterfactual with Llama 3 8B's KV heads)",
    "naive": "lesson 2's naive design (the raw index), quoted again in lesson 3",
    "lookup": "looking rows up in a position table (lessons 2 and 3)",
    "rel": "the example sentence's two names and their distance (lesson 3)",
    "walkthrough": "lesson 3's torch walk-through",
    "embed": "the project's token embedding at initialisation",
    "paper": "Vaswani et al.'s base model (d_model = 512)",
    "position": "parameters a model's position scheme adds, per model (the timeline)",
    "turning": "dims of a head that turn a full circle within the native context, per model",
    "wavelength": "ratio of neighbouring pairs' wavelengths, per model",
    "query": "query dims over all layers, per model",
    "key": "key dims over all layers, per model",
    # one model's single facts
    "gpt2": "GPT-2", "bert": "BERT", "llama31": "Llama 3.1", "llama4": "Llama 4", "qwen3": "Qwen3-8B",
    "qwen3next": "Qwen3-Next", "deepseek": "DeepSeek-V3", "gptoss": "gpt-oss", "gemma3": "Gemma 3", "glm45": "GLM-4.5",
}


class UnknownNumber(Exception):
    """Raised for a name that no module registered.

    Deliberately not a KeyError/AttributeError: Jinja swallows those and
    would turn a typo into an empty string.
    """


class DuplicateName(ValueError):
    """A name registered twice (a number, a fact or a figure); the message names both places."""


@dataclass(frozen=True)
class Number:
    name: str
    value: Any
    fmt: str
    doc: str

    @property
    def text(self) -> str:
        return format_value(self.value, self.fmt)

    def text_in(self, lang: str) -> str:
        """The value as prose in ``lang`` prints it (posenc.formatting: the same digits, a list joined as the
        language joins one, a PerLanguage value's words in that language)."""
        return format_value(self.value, self.fmt, lang)


@dataclass(frozen=True)
class _Entry:
    fn: Callable[..., Any]
    fmt: str
    doc: str
    where: str  # "posenc/quantities/lesson3.py:54": the registration statement
    per_language: bool  # the function takes the page's language (it computes from that edition's text examples)


_FUNCTIONS: dict[str, _Entry] = {}
_CACHE: dict[tuple[str, str | None], Number] = {}  # (name, language, or None for a number of both editions)
_TEXTS: dict[tuple[str, str], str] = {}  # (name, language) → printed text: an estimate's ± costs a t quantile
_LOADED = False
_ROOT = Path(__file__).resolve().parents[2]


def call_site(skip_file: str) -> str:
    """file:line of the module-level statement that is registering something.

    Walks out of ``skip_file`` (the registry itself) and any helper functions to the
    outermost frame of the calling module, so a name registered in a loop or by a helper
    points at the loop or the helper's call.
    """
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename == skip_file:
        frame = frame.f_back
    caller = frame
    module_file = caller.f_code.co_filename if caller is not None else "?"
    while frame is not None and frame.f_code.co_filename == module_file and frame.f_code.co_name != "<module>":
        frame = frame.f_back
    if frame is None or frame.f_code.co_filename != module_file:
        frame = caller
    path = Path(frame.f_code.co_filename)
    try:
        path = path.resolve().relative_to(_ROOT)
    except ValueError:
        pass
    return f"{path.as_posix()}:{frame.f_lineno}"


def number(name: str, fmt: str, doc: str):
    """Register the decorated function as the quantity ``name``: one of no argument, or of the page's
    language (a parameter named ``lang``) when it computes from an edition's text examples."""
    where = call_site(__file__)

    def register(fn: Callable[[], Any]):
        if name in _FUNCTIONS:
            raise DuplicateName(
                f"number {name!r} is registered twice: at {_FUNCTIONS[name].where} and at {where}; "
                f"keep one name per meaning (see posenc/quantities/__init__.py)"
            )
        try:
            format(1, fmt)  # fail at import on a malformed spec, not halfway through a build
        except ValueError as err:
            raise ValueError(f"number {name!r} ({where}): bad format spec {fmt!r} ({err}); see the module docstring") from None
        required = [p.name for p in inspect.signature(fn).parameters.values() if p.default is inspect.Parameter.empty]
        if required not in ([], ["lang"]):
            raise ValueError(f"number {name!r} ({where}): its function needs {', '.join(required)}; it needs no argument, "
                             "or only the page's language, named lang")
        _FUNCTIONS[name] = _Entry(fn, fmt, doc, where, required == ["lang"])
        return fn

    return register


# A name of a family derived from its members (``family`` without rows) → its pattern, written out where the
# family is declared (tests/test_numbers.py searches the registering file for it).
_PATTERNS: dict[str, str] = {}


def pattern(name: str) -> str | None:
    """The pattern a derived family's name was made from ("exp_in_dist_{}"), or None for a name written out."""
    return _PATTERNS.get(name)


def family(patterns: tuple[str, ...], rows: dict | None, members=None) -> dict:
    """A family of quantities computed by one rule for several members (models, positions, sides …), as a table.

    ``rows`` maps each member to its names, written out in full, so that a search for a name finds the line
    that defines it (a name built by an f-string in a loop is found by no search). Each name must be its
    pattern with the member put in for ``{}`` (a tuple member fills several): the naming scheme, checked.
    With ``members`` (an examples tuple, say), the rows must be exactly those members in that order, so a
    change to the examples fails at import, naming the rows to add or remove. Returns ``rows``, each row a
    tuple of names in the order of ``patterns``.

    ``rows=None`` derives the rows from ``members``: for records declared elsewhere that already say every
    member (the experiment's methods), so that a new member needs no row here. Its names are found by searching
    for their pattern; ``pattern(name)`` gives it.
    """
    where = call_site(__file__)
    if rows is None:
        if members is None:
            raise ValueError(f"{where}: the family {patterns[0]} has no rows and no members to derive them from")
        rows = {m: tuple(p.format(*m) if isinstance(m, tuple) else p.format(m) for p in patterns) for m in members}
        _PATTERNS.update((name, p) for names in rows.values() for name, p in zip(names, patterns))
    out = {}
    for member, names in rows.items():
        names = (names,) if isinstance(names, str) else tuple(names)
        expected = tuple(p.format(*member) if isinstance(member, tuple) else p.format(member) for p in patterns)
        if names != expected:
            raise ValueError(f"{where}: the row for {member!r} names {', '.join(names)}; by the patterns "
                             f"{', '.join(patterns)} it must name {', '.join(expected)}")
        out[member] = names
    if members is not None and list(rows) != list(members):
        missing = [m for m in members if m not in rows]
        extra = [m for m in rows if m not in members]
        raise ValueError(f"{where}: the family {patterns[0]} has rows for {list(rows)} but its members are {list(members)}"
                         + (f"; add rows for {missing}" if missing else "") + (f"; remove the rows for {extra}" if extra else "")
                         + ("" if missing or extra else "; put the rows in the members' order"))
    return out


def _load_all() -> None:
    global _LOADED
    if _LOADED:
        return
    for mod in pkgutil.iter_modules(__path__):
        before = set(_FUNCTIONS)
        try:
            importlib.import_module(f"{__name__}.{mod.name}")
        except BaseException:
            # Forget what a failed module registered before it failed (Python drops it from sys.modules):
            # the next call imports it again and must report the same error, not its names as registered twice.
            for name in set(_FUNCTIONS) - before:
                if _FUNCTIONS[name].fn.__module__ not in sys.modules:
                    del _FUNCTIONS[name]
            raise
    _LOADED = True


def names() -> list[str]:
    _load_all()
    return sorted(_FUNCTIONS)


def where(name: str) -> str:
    """file:line where ``name`` is registered."""
    _load_all()
    return _FUNCTIONS[name].where


def per_language(name: str) -> bool:
    """Whether ``name`` is computed from each edition's own text examples (its function takes ``lang``)."""
    _load_all()
    if name not in _FUNCTIONS:
        raise UnknownNumber(f"unknown number {name!r}.{did_you_mean(name, _FUNCTIONS)}")
    return _FUNCTIONS[name].per_language


def get(name: str, lang: str = "zh") -> Number:
    """Quantity ``name`` as the ``lang`` edition quotes it (the same for both, unless it is per_language)."""
    _load_all()
    if name not in _FUNCTIONS:
        hint = did_you_mean(name, _FUNCTIONS)
        raise UnknownNumber(
            f"unknown number {name!r}.{hint} Register it with @number({name!r}, fmt, doc) "
            f"in posenc/quantities/<lesson>.py."
        )
    entry = _FUNCTIONS[name]
    key = (name, lang if entry.per_language else None)
    if key not in _CACHE:
        value = entry.fn(lang) if entry.per_language else entry.fn()
        if hasattr(value, "item"):  # numpy scalar → Python scalar, so format specs behave
            value = value.item()
        _CACHE[key] = Number(name, value, entry.fmt, entry.doc)
    return _CACHE[key]


def value(name: str, lang: str = "zh") -> Any:
    return get(name, lang).value


def text(name: str, lang: str = "zh") -> str:
    key = (name, lang)
    if key not in _TEXTS:
        _TEXTS[key] = get(name, lang).text_in(lang)
    return _TEXTS[key]

