"""The registry of named numbers that lesson prose quotes.

A lesson never types a derived number. It writes ``{{ num("sin_slowest_period") }}``
and the build asks this registry, which computes the value from posenc and
formats it for Chinese prose. To add a number, write a function in the module
of the lesson that uses it (``posenc/numbers/lesson3.py`` …)::

    @number("sin_slowest_period", ",.0f", "最慢一根指针转一圈要多少个 token")
    def _():
        return periods(DEMO_DIM)[-1]

The format is a Python format spec: ",.0f" → 19,869 · ".1%" → 2.8% · ".2f" → 6.28 ·
"," → 786,432 · "" → str(value). Every module in this package is loaded
automatically, so a new lesson module needs no other registration.
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
from dataclasses import dataclass
from typing import Any, Callable


class UnknownNumber(Exception):
    """Raised for a name that no module registered.

    Deliberately not a KeyError/AttributeError: Jinja swallows those and
    would turn a typo into an empty string.
    """


@dataclass(frozen=True)
class Number:
    name: str
    value: Any
    fmt: str
    doc: str

    @property
    def text(self) -> str:
        return format_value(self.value, self.fmt)


def format_value(value: Any, fmt: str) -> str:
    """Format for Chinese prose: thousands separators and ASCII digits as in the course text."""
    text = format(value, fmt)
    if text in ("nan", "inf", "-inf"):
        raise ValueError(f"refusing to print {text}: the number is not finite (format {fmt!r})")
    if text.lstrip("+-").strip("0.,%") == "" and text[:1] in "+-":
        # a value that rounds to zero prints as zero: "−0.00" would read as a real sign
        text = text[1:]
    return text.replace("-", "−") if isinstance(value, (int, float)) or hasattr(value, "dtype") else text


_FUNCTIONS: dict[str, tuple[Callable[[], Any], str, str]] = {}
_CACHE: dict[str, Number] = {}
_LOADED = False


def number(name: str, fmt: str, doc: str):
    """Register the decorated zero-argument function as the number ``name``."""

    def register(fn: Callable[[], Any]):
        if name in _FUNCTIONS and _FUNCTIONS[name][0].__qualname__ != fn.__qualname__:
            raise ValueError(f"number {name!r} is registered twice ({_FUNCTIONS[name][0].__module__} and {fn.__module__}); rename one")
        try:
            format(1, fmt)  # fail at import on a malformed spec, not halfway through a build
        except ValueError as err:
            raise ValueError(f"number {name!r}: bad format spec {fmt!r} ({err}); see the module docstring") from None
        _FUNCTIONS[name] = (fn, fmt, doc)
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


def get(name: str) -> Number:
    _load_all()
    if name not in _FUNCTIONS:
        close = difflib.get_close_matches(name, _FUNCTIONS, n=3)
        hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
        raise UnknownNumber(
            f"unknown number {name!r}.{hint} Register it with @number({name!r}, fmt, doc) "
            f"in posenc/numbers/<lesson>.py."
        )
    if name not in _CACHE:
        fn, fmt, doc = _FUNCTIONS[name]
        value = fn()
        if hasattr(value, "item"):  # numpy scalar → Python scalar, so format specs behave
            value = value.item()
        _CACHE[name] = Number(name, value, fmt, doc)
    return _CACHE[name]


def value(name: str) -> Any:
    return get(name).value


def text(name: str) -> str:
    return get(name).text


def clear_cache() -> None:
    """Forget computed values (tests that change a default call this)."""
    _CACHE.clear()
