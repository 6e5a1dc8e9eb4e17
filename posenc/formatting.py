"""How a value is printed in Chinese prose: one function, shared by computed numbers and reported facts.

    format_value(19869.18, ",.0f") → "19,869"      format_value(0.028284, ".1%") → "2.8%"
    format_value(-0.5, ".1f")      → "−0.5"        (a real minus sign, U+2212)

The format is a Python format spec. A value that rounds to zero prints without a sign
("+0.00" would read as a real sign), and a value that is not finite is an error, never
"nan" on a page.
"""

from __future__ import annotations

from typing import Any


def format_value(value: Any, fmt: str) -> str:
    """Format ``value`` with the spec ``fmt`` for Chinese prose (thousands separators, U+2212 minus)."""
    text = format(value, fmt)
    if text in ("nan", "inf", "-inf"):
        raise ValueError(f"refusing to print {text}: the number is not finite (format {fmt!r})")
    if text.lstrip("+-").strip("0.,%") == "" and text[:1] in "+-":
        # a value that rounds to zero prints as zero: "−0.00" would read as a real sign
        text = text[1:]
    return text.replace("-", "−") if isinstance(value, (int, float)) or hasattr(value, "dtype") else text
