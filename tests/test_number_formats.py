"""How the registry prints the numbers the prose quotes: checked without building the site.

Two kinds of expectation, neither taken from the format specs under test:

* spot values from facts.md (checked there with plain Python) as the page must show them;
* the course's conventions for every registered number: amounts of 1,000 or more are grouped
  with commas (CONTRIBUTING.md: "," → 786,432, ",.0f" → 19,869), a printed number reads back as the
  value rounded to the digits it shows, and a negative number uses the minus sign "−".

A format spec that loses its "," (19,869 printed as 19869) fails here in seconds instead of
only in the 25-second strict build.
"""

from __future__ import annotations

import numbers as pynumbers
import re

import pytest

from posenc import formatting
from posenc import quantities as numbers

# Registered numbers that are not amounts, and so are printed without grouping: token IDs
# (Unicode code points: names, like a room number) and values written into HTML attributes for
# the widgets, which read them with Number() (which rejects "10,000").
NOT_AMOUNTS = re.compile(r"^l1_(repeat_)?tid(_\d+)?$|_attr$")


def numeric(name: str) -> bool:
    v = numbers.value(name)
    return isinstance(v, pynumbers.Real) and not isinstance(v, bool)


# (name, text) from facts.md §2–§3 and lesson 2's table sizes.
@pytest.mark.parametrize(
    "name, text",
    [
        ("sin_slowest_period", "19,869"),  # facts §2(a): 2π·10000^(14/16) = 19,869.18
        ("sin_paper_slowest_period", "60,611"),  # facts: d = 512 gives 60,611
        ("qwen3_yarn_context", "131,072"),
        ("qwen3_wavelength_first_not_turning", "35,333"),
        ("ntk_example_base", "40,890"),
        ("deepseek_yarn_context", "163,840"),
    ],
)
def test_facts_print_as_the_page_must_show_them(name, text):
    assert numbers.text(name) == text


def test_amounts_of_a_thousand_or_more_are_grouped_with_commas():
    ungrouped = []
    for name in numbers.names():
        if not numeric(name) or NOT_AMOUNTS.search(name):
            continue
        v, text = numbers.value(name), numbers.text(name)
        if abs(v) < 1000 or "%" in text or "e" in text.lower() or "×" in text:
            continue
        integer_part = text.lstrip("+−").split(".")[0]
        if not re.fullmatch(r"\d{1,3}(,\d{3})+", integer_part):
            ungrouped.append(f"{name} = {v!r} prints as {text!r}")
    assert not ungrouped, "amounts of 1,000 or more need a ',' in their format spec:\n" + "\n".join(ungrouped)


def test_exempt_names_are_really_not_amounts():
    # the exemption must not hide an amount: each exempt number is a code point or an attribute value
    exempt = [n for n in numbers.names() if NOT_AMOUNTS.search(n)]
    assert exempt, "the exemption list is stale"
    for name in exempt:
        text = numbers.text(name)
        if "tid" in name:
            assert numbers.value(name) == ord(chr(numbers.value(name))) and text.isdigit(), name
        else:
            float(text.split(",")[0])  # an attribute value Number() can read (lists are "x,y")


def shown_decimals(fmt: str, value) -> int | None:
    """Digits after the point a fixed-point spec prints; None for specs without a fixed count ("g", "e", str)."""
    m = re.fullmatch(r"\+?,?(?:\.(\d+))?([fd%]?)", fmt)
    if m is None:
        return None
    precision, kind = m.group(1), m.group(2)
    if kind in ("f", "%"):
        return int(precision) if precision is not None else 6
    if precision is None and (kind == "d" or isinstance(value, int)):
        return 0  # "d", ",", "" on an int: every digit
    return None  # "," or "" on a float prints repr-like digits; ".3" is a general spec


def test_every_number_reads_back_as_its_value_rounded_to_the_digits_shown():
    wrong = []
    for name in numbers.names():
        if not numeric(name):
            continue
        num = numbers.get(name)
        decimals = shown_decimals(num.fmt, num.value)
        if decimals is None:
            continue
        text = num.text
        scale = 100 if text.endswith("%") else 1
        shown = float(text.rstrip("%").replace(",", "").replace("−", "-"))
        if abs(shown - num.value * scale) > 0.5 * 10.0**-decimals * (1 + 1e-9):
            wrong.append(f"{name} = {num.value!r} prints as {text!r} (format {num.fmt!r})")
    assert not wrong, "\n".join(wrong)


def test_negative_numbers_use_the_minus_sign_and_zero_has_no_sign():
    for name in numbers.names():
        if not numeric(name):
            continue
        text = numbers.text(name)
        assert "-" not in text, f"{name} prints {text!r}: use '−' (U+2212), as format_value does"
        if text.startswith("−"):
            assert numbers.value(name) < 0, name
        if re.fullmatch(r"[+−]?0(\.0*)?%?", text):
            assert text[0] not in "+−", f"{name} prints {text!r}: a number shown as zero has no sign"


# --- a mean over seeds with its interval ------------------------------------------------------------


@pytest.mark.parametrize("values, fmt, text", [
    ([5.0, 5.1, 5.2], ".2f", "5.10 ± 0.25"),  # t(0.975, 2) = 4.303 (a printed table) · 0.1 / √3 = 0.248
    ([5.911, 5.913, 5.909, 5.912], ".2f", "5.911 ± 0.003"),  # the half-width keeps one significant digit
    ([-0.010, -0.012, -0.011], "+.2f", "−0.011 ± 0.002"),  # minus sign, and no sign on the half-width
])
def test_an_estimate_prints_its_mean_and_half_width(values, fmt, text):
    from posenc.experiment.stats import Estimate
    from posenc.formatting import format_value

    assert format_value(Estimate.of(values), fmt) == text


@pytest.mark.parametrize("values, fmt, text", [
    ([0.539, 0.786, 0.7], "+.3f", "0.539–0.786"),  # no plus sign: "+0.539–+0.786" would read as arithmetic
    ([-0.004, 0.31], "+.2f", "−0.004 至 0.310"),  # an end that would round to zero gets its digit: "0.00" hid a minus
    ([0.0, 0.31], "+.2f", "0.00–0.31"),  # an end that is zero stays as it is
    ([-0.2, 0.31], "+.2f", "−0.20 至 0.31"),  # a negative end: joined by a word, "−0.20–0.31" reads as a subtraction
    ([-0.31, -0.2], "+.2f", "−0.31 至 −0.20"),
])
def test_a_seed_range_prints_its_smallest_and_largest(values, fmt, text):
    from posenc.experiment.stats import SeedRange
    from posenc.formatting import format_value

    assert format_value(SeedRange.of(values), fmt) == text


def test_an_estimate_needs_a_fixed_point_format():
    from posenc.experiment.stats import Estimate
    from posenc.formatting import format_value

    with pytest.raises(ValueError, match="fixed-point"):
        format_value(Estimate.of([1.0, 2.0]), ",")


def test_every_quoted_loss_of_the_experiment_carries_its_spread():
    # Issue: every loss the prose quotes carries its spread over seeds: a mean ± its interval, or, for a method
    # whose seeds split into two groups (claims.TWO_GROUPS: unscaled sinusoidal), the smallest–largest seed.
    from posenc.experiment.claims import TWO_GROUPS
    from posenc.quantities.experiment import DIFFERENCES, METHOD_LOSSES

    losses = [n for n in numbers.names() if re.match(r"exp_(in_dist|beyond|rise|diff|ext_(start|end|new|rise|gap))_", n)]
    two_groups = {n for n, (method, _) in METHOD_LOSSES.items() if method in TWO_GROUPS}
    two_groups |= {n for n, ((_, a), (_, b)) in DIFFERENCES.items() if {a, b} & set(TWO_GROUPS)}
    assert two_groups and two_groups <= set(losses)
    spread = re.compile(r"^(\d+\.\d+–\d+\.\d+|−?\d+\.\d+ 至 −?\d+\.\d+)$")  # "0.539–0.786", "−0.004 至 0.312"
    wrong = [n for n in losses if not (spread.match(numbers.text(n)) if n in two_groups else " ± " in numbers.text(n))]
    assert losses and not wrong, {n: numbers.text(n) for n in wrong}


@pytest.mark.parametrize("value, text, expected", [(1, "1", "1 token"), (5, "5", "5 tokens"), (1024, "1,024", "1,024 tokens"), (0, "0", "no tokens")])
def test_an_english_count_agrees_with_its_noun(value, text, expected):
    assert formatting.with_noun(text, value, "token", "en") == expected


@pytest.mark.parametrize("value, lang", [(1, "zh"), (1.5, "en"), (True, "en"), ("1", "en")])
def test_a_noun_needs_an_english_page_and_a_whole_count(value, lang):
    with pytest.raises(ValueError):
        formatting.with_noun("1", value, "token", lang)
