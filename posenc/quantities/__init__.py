"""The registry of named quantities that lesson prose quotes.

A lesson never types a derived number. It writes ``{{ num("sin_slowest_period") }}``
and the build asks this registry, which computes the value from posenc and
formats it for Chinese prose (``posenc.formatting``). To add a quantity, write a
function in the module of the lesson that introduces it (``posenc/quantities/lesson3.py`` …)::

    @number("sin_slowest_period", ",.0f", "最慢一根指针转一圈要多少个 token")
    def _():
        return sinusoidal.periods(ex.SIN_DIM)[-1]

The function only calls posenc and reads ``posenc.examples``; the math lives in posenc.
The format is a Python format spec: ",.0f" → 19,869 · ".1%" → 2.8% · ".2f" → 6.28 ·
"," → 786,432 · "" → str(value). Every module in this package is loaded
automatically, so a new lesson module needs no other registration.

Naming scheme (snake_case, one name per meaning):

    <scope>_<what>[_<qualifier>]

- scope is where the quantity is introduced: ``l1_`` ``l2_`` (lessons 1 and 2), ``sin_``
  (lesson 3), ``l4_`` (lesson 4's own experiments), ``exp_`` (the training experiment's
  results), ``ex_`` (exercise answers), or the topic a later lesson reuses (``rope_``,
  ``yarn_``, ``ntk_``, ``pi_``, ``nope_``, ``project_`` for the project's own model,
  ``gpt2_`` … for one model's single facts);
- a quantity computed by one rule for several models ends in the model's key from
  ``posenc/data/models*.yaml``: ``rope_pairs_total_qwen3_8b``,
  ``rope_pairs_not_turning_llama2_7b``, ``rope_rotary_dim_glm45``. Do not register a
  second name (``qwen3_pairs``) for a member of such a family: quote the family name;
- one meaning, one name: before adding a name, search this package for the same value
  and doc (``tests/test_numbers.py`` fails on a quantity no page quotes, so an unused
  duplicate cannot linger).

Registering a name twice is an error that names both places (file:line); the check does
not rely on function names, since every registered function is called ``_``.
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..formatting import format_value


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


@dataclass(frozen=True)
class _Entry:
    fn: Callable[[], Any]
    fmt: str
    doc: str
    where: str  # "posenc/quantities/lesson3.py:54": the registration statement


_FUNCTIONS: dict[str, _Entry] = {}
_CACHE: dict[str, Number] = {}
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
    """Register the decorated zero-argument function as the quantity ``name``."""
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
        _FUNCTIONS[name] = _Entry(fn, fmt, doc, where)
        return fn

    return register


def _load_all() -> None:
    global _LOADED
    if _LOADED:
        return
    for mod in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{mod.name}")
    _LOADED = True


def names() -> list[str]:
    _load_all()
    return sorted(_FUNCTIONS)


def where(name: str) -> str:
    """file:line where ``name`` is registered."""
    _load_all()
    return _FUNCTIONS[name].where


def get(name: str) -> Number:
    _load_all()
    if name not in _FUNCTIONS:
        close = difflib.get_close_matches(name, _FUNCTIONS, n=3)
        hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
        raise UnknownNumber(
            f"unknown number {name!r}.{hint} Register it with @number({name!r}, fmt, doc) "
            f"in posenc/quantities/<lesson>.py."
        )
    if name not in _CACHE:
        entry = _FUNCTIONS[name]
        value = entry.fn()
        if hasattr(value, "item"):  # numpy scalar → Python scalar, so format specs behave
            value = value.item()
        _CACHE[name] = Number(name, value, entry.fmt, entry.doc)
    return _CACHE[name]


def value(name: str) -> Any:
    return get(name).value


def text(name: str) -> str:
    return get(name).text


def clear_cache() -> None:
    """Forget computed values (tests that change an example call this)."""
    _CACHE.clear()
