"""Argument checks shared by posenc's formulas.

Each check raises ValueError naming the argument, what it got, and the fix,
so a course author who passes a bad parameter learns what to change.
Nothing is silently clamped or rounded.
"""

from __future__ import annotations

import difflib
import numbers

import numpy as np


def even_dim(name: str, d) -> int:
    if isinstance(d, bool) or not isinstance(d, numbers.Integral):
        raise ValueError(f"{name} must be an integer number of dimensions, got {d!r}; pass e.g. {name}=16")
    if d <= 0 or d % 2:
        raise ValueError(
            f"{name} must be a positive even integer (dimensions come in sin/cos pairs), got {d}; "
            f"use {d + 1 if d > 0 else 2} or another even number"
        )
    return int(d)


def base(name: str, b) -> float:
    if isinstance(b, bool) or not isinstance(b, numbers.Real) or not np.isfinite(b):
        raise ValueError(f"{name} must be a finite real number, got {b!r}; the paper uses {name}=10000")
    if b <= 1:
        raise ValueError(
            f"{name} must be greater than 1 (otherwise frequencies do not decrease across pairs), got {b}; "
            f"the paper uses {name}=10000"
        )
    return float(b)


def positive(name: str, x) -> float:
    if isinstance(x, bool) or not isinstance(x, numbers.Real) or not np.isfinite(x) or x <= 0:
        raise ValueError(f"{name} must be a positive finite number, got {x!r}")
    return float(x)


def position(name: str, p) -> int:
    """A single token position: a non-negative integer."""
    if isinstance(p, bool) or not isinstance(p, (numbers.Integral, np.integer)):
        if isinstance(p, numbers.Real) and float(p).is_integer():
            raise ValueError(f"{name} must be an integer position, got the float {p!r}; pass int({p!r})")
        raise ValueError(f"{name} must be a non-negative integer position, got {p!r}")
    if p < 0:
        raise ValueError(f"{name} must be a non-negative integer position, got {p}; positions count from 0")
    return int(p)


def offset(name: str, k) -> int:
    """A signed integer distance between two positions."""
    if isinstance(k, bool) or not isinstance(k, (numbers.Integral, np.integer)):
        raise ValueError(f"{name} must be an integer distance between positions, got {k!r}")
    return int(k)


def positions(name: str, ps) -> np.ndarray:
    """A non-empty 1-D array of non-negative integer positions."""
    arr = np.asarray(ps)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D sequence of positions, got an array of shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty; pass at least one position, e.g. range(8)")
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or not np.all(arr == np.round(arr)):
            raise ValueError(f"{name} must hold integer positions, got non-integer values such as {arr[arr != np.round(arr)][:3]}")
        raise ValueError(f"{name} must have an integer dtype, got {arr.dtype}; pass np.arange(n) or a list of ints")
    if arr.dtype.kind not in "iu":
        raise ValueError(f"{name} must hold integer positions, got dtype {arr.dtype}")
    if np.any(arr < 0):
        raise ValueError(f"{name} must be non-negative (positions count from 0), got {int(arr.min())}")
    return arr.astype(np.int64)


def integer(name: str, n, minimum: int = 1, what: str | None = None, example=None) -> int:
    """An integer ≥ ``minimum``, given as a Python or numpy integer: a bool, or a float such as 4096.0, is refused,
    never rounded. ``what`` says what kind of integer (default "an integer ≥ minimum"), ``example`` a value to suggest."""
    if isinstance(n, bool) or not isinstance(n, (numbers.Integral, np.integer)) or n < minimum:
        hint = f"; pass e.g. {name}={example}" if example is not None else ""
        raise ValueError(f"{name} must be {what or f'an integer ≥ {minimum}'}, got {n!r}{hint}")
    return int(n)


def count(name: str, n) -> int:
    """A count of heads, ranks, dims or tokens: a positive integer."""
    return integer(name, n, 1, "a positive integer")


def tokens(name: str, length, example=32768) -> int:
    """A length in tokens (a context): a positive integer."""
    return integer(name, length, 1, "a positive integer number of tokens", example)


def dims(name: str, d, example) -> int:
    """A width in dimensions (a head, a model): a positive integer; ``even_dim`` when it must split into pairs."""
    return integer(name, d, 1, "a positive integer number of dimensions", example)


def did_you_mean(name: str, known) -> str:
    """' Did you mean 'a', 'b'?' for the (up to three) known names closest to a misspelt ``name``, else ''.

    The one suggestion every unknown-name error gives (numbers, facts, models, text examples)."""
    close = difflib.get_close_matches(name, list(known), n=3)
    return f" Did you mean {', '.join(map(repr, close))}?" if close else ""
