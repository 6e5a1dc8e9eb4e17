"""How a value is printed in Chinese prose: one function, shared by computed numbers and reported facts.

    format_value(19869.18, ",.0f") → "19,869"      format_value(0.028284, ".1%") → "2.8%"
    format_value(-0.5, ".1f")      → "−0.5"        (a real minus sign, U+2212)

The format is a Python format spec. A value that rounds to zero prints without a sign
("+0.00" would read as a real sign), and a value that is not finite is an error, never
"nan" on a page.
"""

from __future__ import annotations

import math
import re
from typing import Any


def format_value(value: Any, fmt: str) -> str:
    """Format ``value`` with the spec ``fmt`` for Chinese prose (thousands separators, U+2212 minus).

    A value with a ``mean`` and a ``half_width`` (an estimate over seeds, posenc.experiment.stats)
    prints as "4.85 ± 0.02": the mean, then the half-width unsigned, both with ``fmt``'s decimals or
    more, as many as the half-width needs to show one significant digit ("5.911 ± 0.002", never
    "5.91 ± 0.00", which would claim no spread at all). A value with a ``smallest`` and a ``largest``
    (the per-seed range of a method whose seeds split into two groups, stats.SeedRange) prints as
    "0.54–0.79": no plus sign (a negative end keeps its minus), so the dash cannot read as a minus.
    """
    if hasattr(value, "smallest") and hasattr(value, "largest"):
        fmt = fmt.replace("+", "")
        return f"{format_value(value.smallest, fmt)}–{format_value(value.largest, fmt)}"
    if hasattr(value, "mean") and hasattr(value, "half_width"):
        fmt = _decimals_for(fmt, value.half_width)
        return f"{format_value(value.mean, fmt)} ± {format_value(value.half_width, fmt.replace('+', ''))}"
    text = format(value, fmt)
    if text in ("nan", "inf", "-inf"):
        raise ValueError(f"refusing to print {text}: the number is not finite (format {fmt!r})")
    if text.lstrip("+-").strip("0.,%") == "" and text[:1] in "+-":
        # a value that rounds to zero prints as zero: "−0.00" would read as a real sign
        text = text[1:]
    return text.replace("-", "−") if isinstance(value, (int, float)) or hasattr(value, "dtype") else text


def _decimals_for(fmt: str, half_width: float) -> str:
    """``fmt`` ("+.2f") with enough decimals that ``half_width`` keeps one significant digit."""
    match = re.fullmatch(r"([+]?)\.(\d+)f", fmt)
    if match is None:
        raise ValueError(f"an estimate over seeds needs a fixed-point format such as '.2f', got {fmt!r}")
    sign, decimals = match.group(1), int(match.group(2))
    if half_width > 0:
        decimals = max(decimals, -math.floor(math.log10(half_width)))
    return f"{sign}.{decimals}f"
