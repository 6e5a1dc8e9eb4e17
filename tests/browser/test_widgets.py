"""The in-page experiments (docs/javascripts/widgets/) in Chromium, against posenc.

Each widget is driven through its controls (fill, click, keyboard) on the built
lesson page, and every number it shows is read from its machine-readable copy
(``data-value``, full precision) and compared with posenc computed here for the
same inputs. Every widget module must be listed in LESSON and mounted on its page:
a missing mount point fails. Also: the JS unit tests (node --test tests/js/*.test.mjs), no
autoplay and reduced motion, bad input messages, what happens at the limits (no
silent no-op), slider and text ranges, focusable scroll boxes, Chinese/Latin
spacing, instant navigation, print and no-JavaScript fallbacks, a 360 px phone,
dark mode, the per-page JavaScript budget, no console error and no request that
leaves the site.
"""

from __future__ import annotations

import html
import json
import math
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import expect

from figures_src import lesson3b as relfig
from posenc import attention as at
from posenc import configs, dataflow, learned, naive, relative, rope, scaling, sinusoidal
from posenc import examples as ex
from posenc.formatting import format_value
from posenc.sinusoidal import DEFAULT_BASE

pytestmark = pytest.mark.long  # tests/conftest.py: started first among the files that read the site

ROOT = Path(__file__).resolve().parents[2]
WIDGETS = ROOT / "docs" / "javascripts" / "widgets"
MAX_INPUT = 1_000_000_000  # posenc-math.js MAX_INPUT: the largest number a reader may type

LESSON = {
    "swap-attention": "lessons/01-order-blind/",
    "sin-clock": "lessons/03-sinusoidal/",
    "sin-heatmap": "lessons/03-sinusoidal/",
    "sin-dot": "lessons/03-sinusoidal/",
    "rope-pair": "lessons/04-rope/",
    "scaling-explorer": "lessons/05-long-context/",
    "alibi-bias": "lessons/03b-relative-bias/",
    "t5-buckets": "lessons/03b-relative-bias/",
    "content-position": "lessons/02-learned-table/",
    "dataflow": "lessons/02-learned-table/",  # on every page: tests/browser/test_dataflow_panel.py tests each
}
# bytes of the site's own JavaScript per page: a 60 KiB budget, plus the data-flow panel every page now carries
# (≈8 KiB), plus the second language, ≈20 KiB on the heaviest page. Measured on lesson 3b (two
# wordy widgets and the panel): 72.9 KB before, 90.8 KB after: the string tables 11.4 KB (the page's language only:
# the shared one and those of the widgets it mounts), the language selector alternate.js 2.6 KB, the t() calls and
# language handling 3.8 KB. Widgets load after the page's load event, so this weight does not hold back the text.
# 92 -> 94 KiB (2026-12-06, 3b at 94.0 KB): a bad entry's message names the entry the result still shows, and the T5
# widget names all its inputs and says when an odd count leaves a bucket unused (newcomer read G, expert check R15).
JS_BUDGET = 94 * 1024
TOL = 1e-12


# --- helpers -------------------------------------------------------------------------------------


def _in_language(path: str, lang: str) -> str:
    """A page's site path in ``lang``: the Chinese at the root, the English under en/ (tools/build/i18n.py)."""
    return path if lang == "zh" else f"{lang}/{path}"


def has_mount(site_dir: Path, name: str, lang: str = "zh") -> bool:
    page = site_dir / _in_language(LESSON[name], lang) / "index.html"
    return page.is_file() and f'data-pe-widget="{name}"' in page.read_text(encoding="utf-8")


def _assert_mounted(site_dir: Path, name: str, lang: str = "zh") -> None:
    assert has_mount(site_dir, name, lang), (f'{_in_language(LESSON[name], lang)} has no mount point {{{{ widget("{name}", ...) }}}}: '
                                             "the widget is untested there")


# Every widget swaps its static figure for a live part of another height when it mounts, each on its own
# (docs/javascripts/widgets/index.js): a click aimed at one widget while a widget above it (the data-flow
# panel, which waits for its data) is still mounting can land where the target no longer is.
ALL_SETTLED = """() => [...document.querySelectorAll('[data-pe-widget]')]
  .every((e) => e.classList.contains('pe-widget--live') || e.classList.contains('pe-widget--failed'))"""


def _live(sp, name: str):
    """Widget ``name`` on the open page, once it and every other widget of the page have mounted."""
    el = sp.mounted(f'[data-pe-widget="{name}"]')
    sp.page.wait_for_function(ALL_SETTLED, timeout=10_000)
    return el


def open_widget(visit, site_dir: Path, name: str, lang: str = "zh", **context_options):
    """The lesson page in ``lang`` with widget ``name`` mounted: (SitePage, widget locator). A missing mount point fails."""
    _assert_mounted(site_dir, name, lang)
    sp = visit(_in_language(LESSON[name], lang), wait="domcontentloaded", **context_options)
    return sp, _live(sp, name)


def each_widget(visit, site_dir: Path):
    """(name, SitePage, widget locator) for every widget in LESSON, opening each lesson page once.

    For the checks that every widget must pass: the widgets of one page share its load.
    """
    by_page: dict[str, list[str]] = {}
    for name, path in LESSON.items():
        _assert_mounted(site_dir, name)
        by_page.setdefault(path, []).append(name)
    for path, names in by_page.items():
        sp = visit(path, wait="domcontentloaded")
        for name in names:
            yield name, sp, _live(sp, name)


@pytest.mark.build
def test_every_widget_is_listed_and_mounted(site_dir):
    """A widget module without a page (or a page that lost its widget) fails here, by name."""
    modules = sorted(p.stem for p in WIDGETS.glob("*.js") if not p.stem.startswith("_") and p.stem != "index")
    assert modules == sorted(LESSON), f"widget modules {modules} vs tested widgets {sorted(LESSON)}: add each new widget to LESSON and test it"
    missing = [f"{name} on {LESSON[name]}" for name in LESSON if not has_mount(site_dir, name)]
    assert not missing, f"no mount point for: {missing}"


def value(loc) -> float:
    raw = loc.get_attribute("data-value")
    assert raw not in (None, ""), f"no data-value on {loc}"
    v = float(raw)
    assert math.isfinite(v)
    return v


def values(loc) -> np.ndarray:
    raws = loc.evaluate_all("els => els.map(e => e.dataset.value)")
    assert raws and all(r not in (None, "") for r in raws), f"missing data-value in {raws}"
    return np.array([float(r) for r in raws])


SUPERSCRIPT_DIGITS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


def parse_display(text: str) -> tuple[float, float]:
    """The number a formatted text shows and how far from the full value it may be."""
    t = text.replace("\u2212", "-").replace(",", "").strip()
    if t.endswith("%"):  # a share shown in percent: the value is a fraction
        v, tol = parse_display(t[:-1])
        return v / 100, tol / 100
    if "×10" in t:  # the prose's notation for rounding-sized numbers, "2.2×10⁻¹⁶"
        mant, exp = t.split("×10")
        return parse_display(f"{mant}e{int(exp.translate(SUPERSCRIPT_DIGITS))}")
    if "e" in t:
        mant = t.split("e")[0]
        dec = len(mant.split(".")[1]) if "." in mant else 0
        v = float(t)
        return v, abs(v) * 0.5 * 10**-dec * 1.01 + 1e-300
    dec = len(t.split(".")[1]) if "." in t else 0
    return float(t), 0.5 * 10**-dec + 1e-9


def check_display(el):
    """Every shown number is finite, has a data-value, and its text rounds that value."""
    text = el.locator(".pe-live").inner_text()
    for bad in ("NaN", "Infinity", "undefined"):
        assert bad not in text, f"{bad} on screen: {text[:300]}"
    pairs = el.locator(".pe-live .pe-num").evaluate_all("els => els.map(e => [e.textContent, e.dataset.value])")
    assert pairs
    for shown, raw in pairs:
        assert raw, f"{shown!r} has no data-value"
        v = float(raw)
        assert math.isfinite(v)
        got, tol = parse_display(shown)
        assert abs(got - v) <= tol, f"shown {shown!r} but the value is {raw}"


# The end of every bad-entry message (strings/<lang>.js kept_last): what the result below was last computed from.
KEPT = [re.compile(r"（下面仍是上一次有效输入 (.+) 的结果。）$"),
        re.compile(r" \(What follows is still the result of the last valid input: (.+)\.\)$")]
# The T5 widget computes only when all its inputs fit together, so its messages name all of them (t5-buckets.js kept):
# a box's own entry is one item of that list, as the widget formats it.
T5_KEPT_ITEM = {"num-buckets": ("num_buckets = {}",), "max-distance": ("max_distance = {}",), "distance": ("距离 {}", "distance {}")}


def kept_entry(message: str) -> str:
    m = next((k.search(message) for k in KEPT if k.search(message)), None)
    assert m, f"no 'result of the last valid input' clause at the end of {message!r}"
    return m.group(1)


def bad_input(el, field: str, text: str, while_invalid=None) -> str:
    """Type ``text`` into the box ``field`` and return the message the widget shows for it: the widget's contract for
    bad input, checked on the way. The box's message appears and the box is marked invalid, and its end names the
    entry the result below still shows; ``while_invalid()``, if given, runs then; typing the good value back clears
    the message and the mark."""
    box = el.locator(f'[data-pe-input="{field}"]')
    good = box.input_value().strip()
    assert good, f"{field}: the box is empty before the bad entry"
    box.fill(text)
    err = el.locator(f'[data-pe-error="{field}"]')
    expect(err).to_be_visible()
    assert box.get_attribute("aria-invalid") == "true", f"{field}={text!r}: the box is not marked invalid"
    message = err.inner_text()
    named = kept_entry(message)
    if el.get_attribute("data-pe-widget") == "t5-buckets":
        shown = f"{int(good):,}".replace("-", "\u2212")
        assert any(item.format(shown) in named.split("、") + named.split(", ") for item in T5_KEPT_ITEM[field]), (
            f"{field}={text!r}: {named!r} does not list {field} = {shown}")
    else:
        assert named in (good, f"「{good}」", f"“{good}”"), f"{field}={text!r}: {message!r} names {named!r}, not {good!r}"
    if while_invalid is not None:
        while_invalid()
    box.fill(good)
    expect(err).to_be_hidden()
    assert box.get_attribute("aria-invalid") == "false"
    return message


def drive_bad_input(el, cases, shown) -> None:
    """Type each (field, bad text, expected message) into its box (``bad_input``): the message says what is wrong,
    and what ``shown(el)`` reads (the widget's last valid result) stays as it was while the input is bad: never a
    clamp or a half-computed result."""
    before = shown(el)
    for field, text, message in cases:
        def unchanged(field=field, text=text):
            assert shown(el) == before, f"{field}={text!r} changed the last valid result"

        got = bad_input(el, field, text, unchanged)
        assert message in got, f"{field}={text!r}: {got}"


# --- JS unit tests --------------------------------------------------------------------------------


def test_js_unit_tests():
    """node --test tests/js/*.test.mjs: posenc-math.js against posenc's own numbers. The files are named: from
    Node 22 on, an argument to --test is a file or a glob, and a bare folder finds nothing and fails."""
    node = shutil.which("node")
    assert node, "node is a setup requirement (the lock's Node, linked into .venv/bin by tools/scripts/install_venv.sh; make puts it on PATH); it runs tests/js/"
    files = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "tests" / "js").glob("*.test.mjs"))
    assert files, "no tests/js/*.test.mjs"
    proc = subprocess.run([node, "--test", *files], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"node --test {' '.join(files)} failed:\n{proc.stdout[-6000:]}\n{proc.stderr[-3000:]}"


# --- lesson 3 ------------------------------------------------------------------------------------------


@pytest.mark.build
@pytest.mark.browser
def test_sin_clock_numbers_match_posenc(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "sin-clock")
    page = sp.page
    pos = el.locator('[data-pe-input="position"]')
    assert pos.input_value() == str(ex.NEAR_POSITION)
    presets = [int(x) for x in el.locator("[data-preset]").evaluate_all("els => els.map(e => e.dataset.preset)")]
    assert presets == list(ex.encoding_positions())

    def check(p, d=ex.SIN_DIM, base=DEFAULT_BASE):
        assert value(el.locator('[data-pe-out="position"]')) == p
        pe = sinusoidal.encode(p, d, base)
        got = values(el.locator("[data-pe-dim]"))
        assert got.shape == (d,)
        np.testing.assert_allclose(got, pe, rtol=0, atol=1e-12 + p * 1e-15)
        assert np.all(np.abs(got) <= 1)
        np.testing.assert_allclose(values(el.locator("[data-pe-hand]")), sinusoidal.hand_angles(p, d, base), rtol=0, atol=1e-12 + p * 1e-15)
        np.testing.assert_allclose(values(el.locator("[data-pe-period]")), sinusoidal.periods(d, base), rtol=TOL)
        assert value(el.locator('[data-pe-out="max-abs"]')) == pytest.approx(np.abs(pe).max(), abs=1e-12)
        check_display(el)

    check(ex.NEAR_POSITION)
    # the presets by keyboard, as test_widgets_prose.preset does: in two loaded full runs a mouse click here was lost
    # (the box still read 3) though the page's widgets had mounted and its fonts had loaded
    el.locator('[data-preset="100000"]').press("Enter")
    assert pos.input_value() == "100000"
    check(100_000)
    el.locator('[data-preset="1024"]').press("Enter")
    check(1024)
    pos.fill("999999937")
    check(999_999_937)
    el.locator('[data-pe-input="d"]').fill("8")
    el.locator('[data-pe-input="base"]').fill("500")
    pos.fill("12345")
    check(12345, 8, 500.0)
    assert el.locator("[data-pe-hand]").count() == 4
    sp.assert_clean()


# The same bad inputs in each language (the widget's words: docs/javascripts/widgets/strings/<lang>.js).
BAD_CLOCK_INPUT = {
    "zh": [
        ("position", "", "请填写"),
        ("position", "abc", "不是数字"),
        ("position", "-5", "不能是负数"),
        ("position", "2000000000", "10⁹"),
        ("position", "2.5", "整数"),
        ("d", "15", "正偶数"),
        ("d", "0", "d"),
        ("base", "1", "大于 1"),
        ("base", "0.5", "大于 1"),
    ],
    "en": [
        ("position", "", "Enter position p."),
        ("position", "abc", "Position p must be a number"),
        ("position", "-5", "cannot be negative"),
        ("position", "2000000000", "10⁹"),
        ("position", "2.5", "whole number"),
        ("d", "15", "positive even number"),
        ("d", "0", "Dimension d"),
        ("base", "1", "greater than 1"),
        ("base", "0.5", "greater than 1"),
    ],
}
CJK_TEXT = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")


@pytest.mark.build
@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_sin_clock_bad_input_shows_message(visit, site_dir, lang):
    sp, el = open_widget(visit, site_dir, "sin-clock", lang)
    drive_bad_input(el, BAD_CLOCK_INPUT[lang], lambda el: values(el.locator("[data-pe-dim]")).tolist())
    check_display(el)
    if lang != "zh":  # a converted widget speaks only the page's language (its static figure is checked elsewhere)
        shown = el.locator(".pe-live").inner_text() + " ".join(
            el.locator(".pe-live [aria-label], .pe-live [title]").evaluate_all(
                "els => els.map(e => (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || ''))"))
        assert not CJK_TEXT.search(shown), f"Chinese in the English sin-clock: {CJK_TEXT.findall(shown)[:10]}"
    sp.assert_clean()


@pytest.mark.build
@pytest.mark.browser
def test_sin_clock_speed_menu_agrees_in_number_in_english(visit, site_dir):
    # the English review read "1 tokens a second" in this menu: a count agrees with its noun (format.js fillText)
    sp, el = open_widget(visit, site_dir, "sin-clock", "en")
    options = el.locator("select option").evaluate_all("os => os.map(o => [o.value, o.textContent])")
    speeds = {value: text for value, text in options}
    assert speeds["1"] == "1 token a second" and speeds["10"] == "10 tokens a second", options
    sp.assert_clean()


# The data-flow panel's refusals in each language: (mount attributes, or "broken" for data that lacks a
# stage, and the words the message must contain). tests/browser/test_dataflow_panel.py checks the rest.
BAD_DATAFLOW = {
    "zh": [
        ({"data-lesson": "2", "data-model": "gpt3", "data-data": ""}, "数据里没有模型「gpt3」"),
        ({"data-lesson": "7", "data-model": "", "data-data": ""}, 'data-lesson="7" 要是 1、2、3、3b、4、5、6、6b、all 之一'),
        ({"data-lesson": "2", "data-model": ""}, "缺少 data-data"),
        ({"data-lesson": "2", "data-model": "", "data-data": "{not json"}, "数据流面板没能读到它的数据"),
        ("broken", "的数据缺少环节 rope"),
    ],
    "en": [
        ({"data-lesson": "2", "data-model": "gpt3", "data-data": ""}, 'the data has no model "gpt3"'),
        ({"data-lesson": "7", "data-model": "", "data-data": ""}, 'data-lesson="7" must be one of 1, 2, 3, 3b, 4, 5, 6, 6b, all'),
        ({"data-lesson": "2", "data-model": ""}, "data-data is missing"),
        ({"data-lesson": "2", "data-model": "", "data-data": "{not json"}, "The data-flow panel could not read its data"),
        ("broken", "lacks the stages rope"),
    ],
}


def _open_dataflow(visit, site_dir: Path, lang: str):
    """The home page in ``lang`` with its data-flow panel mounted (the English lessons may not exist yet)."""
    path = "" if lang == "zh" else f"{lang}/"
    assert 'data-pe-widget="dataflow"' in (site_dir / path / "index.html").read_text(encoding="utf-8")
    sp = visit(path, wait="domcontentloaded")
    el = sp.mounted('[data-pe-widget="dataflow"]', timeout=30_000)
    assert sp.page.evaluate("document.documentElement.lang") == lang
    return sp, el


@pytest.mark.build
@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_dataflow_bad_input_shows_message(visit, site_dir, lang):
    from test_dataflow_panel import MOUNT, without_links

    sp, el = _open_dataflow(visit, site_dir, lang)
    # the data beside the page: assets/dataflow.json in Chinese, en/assets/dataflow.json in English
    data = sp.page.evaluate("() => fetch(new URL('assets/dataflow.json', location.href)).then(r => r.json())")
    assert without_links(data) == without_links(dataflow.browser_export(lang))
    assert sp.page.evaluate(MOUNT, {"data-lesson": "3", "data-model": "llama3_8b", "data-data": ""})[0] == "mounted"
    for attrs, message in BAD_DATAFLOW[lang]:
        if attrs == "broken":
            broken = json.loads(json.dumps(data))
            del broken["models"][0]["stages"]["rope"]
            attrs = {"data-lesson": "2", "data-model": "", "data-data": json.dumps(broken, ensure_ascii=False)}
        error, shown = sp.page.evaluate(MOUNT, attrs)
        assert error != "mounted" and message in shown, (attrs, shown)
        if lang != "zh":
            assert not CJK_TEXT.search(shown), f"Chinese in the English panel's message: {shown}"
    sp.assert_clean()


@pytest.mark.build
@pytest.mark.browser
def test_dataflow_on_an_english_page_shows_no_chinese(visit, site_dir):
    """Every model and every stage of the English panel: its words in English (the data fetched from en/), its
    numbers posenc's (the same as the Chinese panel's, tests/browser/test_dataflow_panel.py)."""
    sp, el = _open_dataflow(visit, site_dir, "en")

    def words() -> str:  # the text, hidden parts (the folded configuration) and accessible names included
        return el.locator(".pe-live").evaluate(
            "e => e.textContent + ' ' + [...e.querySelectorAll('[aria-label], [title]')].map(x => (x.getAttribute('aria-label') || '') + ' ' + (x.getAttribute('title') || '')).join(' ')")

    for key in dataflow.model_keys():
        el.locator('[data-pe-input="model"]').select_option(key)
        m = dataflow.load(key, "en")
        assert float(el.locator('[data-pe-out="total"]').get_attribute("data-value")) == dataflow.total_parameters(m)
        assert float(el.locator('[data-pe-out="position-parameters"]').get_attribute("data-value")) == dataflow.position_parameters(m)
        for s in dataflow.stages(m):
            el.locator(f'[data-pe-stage="{s.key}"]').click()
            assert el.locator('[data-pe-out="stage-name"]').inner_text() == s.name
            assert float(el.locator('[data-pe-out="stage-parameters"]').get_attribute("data-value")) == s.parameters
            shown = words()
            assert not CJK_TEXT.search(shown), f"Chinese in the English panel ({key}, {s.key}): {CJK_TEXT.findall(shown)[:10]}"
    assert "Data flow" in el.locator("[data-pe-toggle]").inner_text()
    sp.assert_clean()


@pytest.mark.build
@pytest.mark.browser
def test_sin_clock_never_autoplays_and_plays_on_request(visit, site_dir):
    for motion in ("reduce", "no-preference"):
        sp, el = open_widget(visit, site_dir, "sin-clock", reduced_motion=motion)
        page = sp.page
        assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches") == (motion == "reduce")
        start = value(el.locator('[data-pe-out="position"]'))
        page.wait_for_timeout(600)
        assert value(el.locator('[data-pe-out="position"]')) == start, f"the clock moved without being asked ({motion})"
        play = el.locator("[data-pe-play]")
        play.focus()
        page.keyboard.press("Enter")  # the keyboard starts it
        expect(play).to_have_attribute("aria-pressed", "true")
        page.wait_for_timeout(600)
        assert value(el.locator('[data-pe-out="position"]')) > start
        page.keyboard.press("Space")
        expect(play).to_have_attribute("aria-pressed", "false")
        stopped = value(el.locator('[data-pe-out="position"]'))
        page.wait_for_timeout(300)
        assert value(el.locator('[data-pe-out="position"]')) == stopped
        np.testing.assert_allclose(values(el.locator("[data-pe-dim]")), sinusoidal.encode(int(stopped), ex.SIN_DIM), atol=1e-12)
        sp.assert_clean()


@pytest.mark.build
@pytest.mark.browser
def test_sin_clock_plays_at_the_chosen_speed(visit, site_dir):
    """Playing moves the position by the chosen number of tokens a second, no faster: over a second of play at 10 a
    second it gains at least one position and at most ten per second that passed (a slow frame lowers the count,
    never raises it)."""
    sp, el = open_widget(visit, site_dir, "sin-clock", reduced_motion="no-preference")
    page, play = sp.page, el.locator("[data-pe-play]")
    el.locator('[data-pe-input="speed"]').select_option("10")
    start = value(el.locator('[data-pe-out="position"]'))
    began = time.monotonic()
    play.press("Enter")
    expect(play).to_have_attribute("aria-pressed", "true")
    page.wait_for_timeout(1000)
    expect(el.locator("[data-pe-status]")).to_be_hidden()  # playing has nothing to report
    play.press("Enter")
    expect(play).to_have_attribute("aria-pressed", "false")
    gained = value(el.locator('[data-pe-out="position"]')) - start
    assert 1 <= gained <= 10 * (time.monotonic() - began) + 1, gained
    sp.assert_clean()


# Every value the clock's position readout and its play button's aria-pressed take from now on, in the page.
RECORD_CHANGES = """() => {
  const widget = document.querySelector('[data-pe-widget=sin-clock]');
  const out = widget.querySelector('[data-pe-out="position"]'), play = widget.querySelector('[data-pe-play]');
  window.__peChanges = { positions: [], pressed: [] };
  new MutationObserver(() => window.__peChanges.positions.push(Number(out.dataset.value)))
    .observe(out, { attributes: true, attributeFilter: ['data-value'] });
  new MutationObserver(() => window.__peChanges.pressed.push(play.getAttribute('aria-pressed')))
    .observe(play, { attributes: true, attributeFilter: ['aria-pressed'] });
}"""


@pytest.mark.build
@pytest.mark.browser
def test_sin_clock_pauses_with_a_message_at_the_largest_position(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "sin-clock", reduced_motion="no-preference")
    page = sp.page
    status = el.locator("[data-pe-status]")
    play = el.locator("[data-pe-play]")
    el.locator('[data-pe-input="speed"]').select_option("1000")
    el.locator('[data-pe-input="position"]').fill(str(MAX_INPUT - 200))
    expect(status).to_be_hidden()
    page.evaluate(RECORD_CHANGES)
    play.click()
    expect(play).to_have_attribute("aria-pressed", "false", timeout=10_000)  # it stopped by itself
    shown = page.evaluate("window.__peChanges.positions")
    assert shown and max(shown) == MAX_INPUT, f"it showed {max(shown):,} on the way to {MAX_INPUT:,}"  # never beyond it
    expect(status).to_be_visible()
    assert "最大位置" in status.inner_text() and "播放停止" in status.inner_text(), status.inner_text()
    assert f"{MAX_INPUT:,}" in status.inner_text(), status.inner_text()  # the message names the largest position
    assert status.get_attribute("role") == "status"  # announced when it appears
    expect(status).to_have_css("font-weight", "700")  # widgets.css's .pe-status: set apart from the readout
    assert value(el.locator('[data-pe-out="position"]')) == MAX_INPUT
    assert el.locator('[data-pe-input="position"]').input_value() == str(MAX_INPUT)
    np.testing.assert_allclose(values(el.locator("[data-pe-dim]")), sinusoidal.encode(MAX_INPUT, ex.SIN_DIM), rtol=0, atol=1e-12 + MAX_INPUT * 1e-15)
    # pressing play again at the limit says so instead of doing nothing
    page.evaluate("document.querySelector('[data-pe-widget=sin-clock] [data-pe-status]').textContent = ''")
    page.evaluate(RECORD_CHANGES)
    play.focus()
    page.keyboard.press("Enter")
    expect(status).to_contain_text("最大位置")
    page.wait_for_timeout(300)  # frames in which a clock that had started would have run
    assert play.get_attribute("aria-pressed") == "false"
    assert page.evaluate("window.__peChanges.pressed") == [], "the clock started at the limit before it stopped"
    # typing the largest position itself keeps the message; a smaller one clears it
    el.locator('[data-pe-input="position"]').fill(str(MAX_INPUT))
    expect(el.locator('[data-pe-out="position"]')).to_have_attribute("data-value", str(MAX_INPUT))
    expect(status).to_contain_text("最大位置")
    el.locator('[data-pe-input="position"]').fill("5")
    expect(status).to_be_hidden()
    sp.assert_clean()


GRID = """el => [...el.querySelectorAll('.pe-encoding__item')].map(item => ({
  label: item.querySelector('.pe-encoding__dim').textContent,
  left: parseFloat(item.querySelector('.pe-gauge__mark').style.left),
  title: item.querySelector('.pe-gauge').getAttribute('title'),
  hidden: item.querySelector('.pe-gauge').getAttribute('aria-hidden'),
  ends: [...item.querySelector('.pe-gauge').children].filter(e => !e.querySelector('.pe-gauge__mark')).map(e => {
    const r = e.getBoundingClientRect(); return { text: e.textContent, left: r.left, right: r.right }; }),
  track: (r => [r.left, r.width, r.height])(item.querySelector('.pe-gauge__mark').parentElement.getBoundingClientRect()),
  mark: (r => r.left + r.width / 2)(item.querySelector('.pe-gauge__mark').getBoundingClientRect()),
}))"""


@pytest.mark.build
@pytest.mark.browser
def test_sin_clock_grid_names_each_dimension_and_its_gauge_and_playing_silences_the_readout(visit, site_dir):
    """Each number of the encoding is labelled with its index and function, j · sin(p·ω_{j/2}) or cos, its gauge's
    mark sits at (v + 1)/2 of the track, and the gauge's title gives that pair's ω; the sentence above says how many
    numbers there are. While the clock plays, its button reads pause and the readout stops announcing (aria-live off,
    a value a frame would flood a screen reader); paused, both come back."""
    sp, el = open_widget(visit, site_dir, "sin-clock", reduced_motion="no-preference")
    for d, p in [(None, None), (8, 12345)]:
        if d is not None:
            el.locator('[data-pe-input="d"]').fill(str(d))
            el.locator('[data-pe-input="position"]').fill(str(p))
        d = int(el.locator('[data-pe-input="d"]').input_value())
        p = int(value(el.locator('[data-pe-out="position"]')))
        base = float(el.locator('[data-pe-input="base"]').input_value().replace(",", ""))
        grid, pe = el.evaluate(GRID), sinusoidal.encode(p, d, base)
        omegas = sinusoidal.angular_frequencies(d, base)
        assert [g["label"] for g in grid] == [f"{j} · {'cos' if j % 2 else 'sin'}(p·ω{j // 2})" for j in range(d)]
        np.testing.assert_allclose([g["left"] for g in grid], (pe + 1) / 2 * 100, atol=1e-3)  # the style keeps 6 digits
        assert {g["hidden"] for g in grid} == {"true"}  # the number is read out; its gauge is for the eye
        for j, g in enumerate(grid):  # the gauge: −1, a track, 1; the mark drawn at (v + 1)/2 of the track's width
            (low, high), (left, width, height) = g["ends"], g["track"]
            assert (low["text"], high["text"]) == ("−1", "1") and low["right"] <= left and high["left"] >= left + width, (j, g)
            assert width > 20 and height > 0 and g["mark"] == pytest.approx(left + (pe[j] + 1) / 2 * width, abs=1), (j, g)
        for j, g in enumerate(grid):
            got = float(g["title"].split("ω = ")[1])
            assert got == pytest.approx(omegas[j // 2], rel=5e-4), (j, g["title"])
        assert el.locator('[data-pe-out="dims"]').inner_text() == str(d)
    assert el.locator(".pe-encoding > .pe-encoding__item").count() == d  # one grid (widgets.css lays it out) holds them
    play, live = el.locator("[data-pe-play]"), el.locator('.pe-readout > p[aria-live]')
    assert play.inner_text() == "▶ 播放" and live.get_attribute("aria-live") == "polite"
    assert play.get_attribute("aria-pressed") == "false"  # a toggle button that says it is off
    presets = el.locator(".pe-presets")
    assert presets.get_attribute("role") == "group" and presets.get_attribute("aria-label") == "预设位置"
    play.press("Enter")  # by keyboard, as the autoplay test does: a loaded run can lose a mouse click
    expect(play).to_have_text("■ 暂停")
    expect(live).to_have_attribute("aria-live", "off")
    play.press("Enter")
    expect(play).to_have_text("▶ 播放")
    expect(live).to_have_attribute("aria-live", "polite")
    sp.assert_clean()


FRAME_COST = r"""() => new Promise((done) => {
  const widget = document.querySelector('[data-pe-widget=sin-clock]');
  const first = widget.querySelector('[data-pe-dim="0"]');
  const costs = [];
  const orig = window.requestAnimationFrame.bind(window);
  // time the clock's own frame callbacks (those requested from _ui.js's animation loop)
  window.requestAnimationFrame = (cb) => {
    const mine = /widgets\/_ui\.js/.test(new Error().stack);
    return orig((t) => { const s = performance.now(); cb(t); if (mine) costs.push(performance.now() - s); });
  };
  widget.querySelector('[data-pe-play]').click();
  setTimeout(() => {
    widget.querySelector('[data-pe-play]').click();
    window.requestAnimationFrame = orig;
    costs.sort((a, b) => a - b);
    done({ frames: costs.length, median: costs[costs.length >> 1], p95: costs[Math.floor(costs.length * 0.95)],
           sameNode: first.isConnected && widget.querySelector('[data-pe-dim="0"]') === first });
  }, 3000);
})"""


@pytest.mark.build
@pytest.mark.browser
def test_sin_clock_updates_its_readout_in_place(visit, site_dir):
    """At d = 64 with 4× CPU throttling: the numbers are rewritten, not rebuilt, every frame; prints the frame cost."""
    sp, el = open_widget(visit, site_dir, "sin-clock", reduced_motion="no-preference")
    page = sp.page
    el.locator('[data-pe-input="d"]').fill("64")
    el.locator('[data-pe-input="speed"]').select_option("1000")
    assert el.locator("[data-pe-dim]").count() == 64
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    try:
        cost = page.evaluate(FRAME_COST)
    finally:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    print(f"sin-clock d=64, 4x CPU throttling: {cost['frames']} frames, step median {cost['median']:.1f} ms, p95 {cost['p95']:.1f} ms")
    stopped = int(value(el.locator('[data-pe-out="position"]')))
    assert cost["frames"] >= 1 and stopped > ex.NEAR_POSITION, (cost, stopped)  # it played (a loaded machine gives few frames)
    assert cost["sameNode"], "the readout was rebuilt while playing: the number elements must be updated in place"
    np.testing.assert_allclose(values(el.locator("[data-pe-dim]")), sinusoidal.encode(stopped, 64), rtol=0, atol=1e-12 + stopped * 1e-15)
    sp.assert_clean()


@pytest.mark.build
@pytest.mark.browser
def test_sin_heatmap_shift_leaves_values_and_colours(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "sin-heatmap")
    n = len(ex.SENTENCE)
    cells = el.locator("[data-pe-cell]")

    def matrix():
        return values(cells).reshape(n, n)

    def colours():
        return el.locator("td[data-a]").evaluate_all("els => els.map(e => e.style.background)")

    m0, c0 = matrix(), colours()
    np.testing.assert_allclose(m0, sinusoidal.dot_matrix(np.arange(n), ex.SIN_DIM), rtol=0, atol=TOL)
    el.locator("[data-pe-shift]").click()
    assert value(el.locator('[data-pe-out="start"]')) == ex.SHIFT
    m1 = matrix()
    np.testing.assert_allclose(m1, sinusoidal.dot_matrix(np.arange(n) + ex.SHIFT, ex.SIN_DIM), rtol=0, atol=TOL)
    np.testing.assert_allclose(m1, m0, rtol=0, atol=TOL)
    assert colours() == c0, "colours changed after the shift"
    shown = value(el.locator('[data-pe-out="max-diff"]'))
    assert shown == pytest.approx(np.abs(m1 - m0).max(), abs=1e-15)
    python_diff = np.abs(sinusoidal.dot_matrix(np.arange(n), ex.SIN_DIM) - sinusoidal.dot_matrix(np.arange(n) + ex.SHIFT, ex.SIN_DIM)).max()
    assert shown < 1e-12 and python_diff < 1e-12
    # far away, typed by hand
    el.locator('[data-pe-input="start"]').fill("100000")
    np.testing.assert_allclose(matrix(), sinusoidal.dot_matrix(np.arange(n) + 100_000, ex.SIN_DIM), rtol=0, atol=1e-9)
    assert colours() == c0
    assert "负数" in bad_input(el, "start", "-1", lambda: check_display(el))
    sp.assert_clean()


@pytest.mark.build
@pytest.mark.browser
def test_sin_heatmap_readout_says_what_the_table_is_compared_with_and_reset_goes_back_to_it(visit, site_dir):
    """At start 0 the table is the reference, and the readout says how to compare (not a difference of the table with
    itself); once moved, it gives the start and the largest difference; the reset button brings start, box and table
    back to position 0. A sentence longer than the table can show is refused with a message."""
    sp, el = open_widget(visit, site_dir, "sin-heatmap")
    n = len(el.get_attribute("data-sentence"))
    reference, compared = el.locator(".pe-readout > p").nth(0), el.locator(".pe-readout > p").nth(1)
    cells = el.locator("[data-pe-cell]")
    m0 = values(cells)
    expect(reference).to_be_visible()
    expect(compared).to_be_hidden()
    assert "0 开始" in reference.inner_text()
    assert el.locator(".pe-readout").get_attribute("aria-live") == "polite"  # a screen reader hears the new readout
    assert f"「{ex.SENTENCE}」" in el.locator(".pe-live__title").inner_text()  # the group's name says which sentence
    assert f"+{ex.SHIFT}" in el.locator("[data-pe-shift]").inner_text()
    tops = [el.locator(s).bounding_box()["y"] for s in ('[data-pe-input="start"]', "[data-pe-shift]", "[data-pe-reset]")]
    assert max(tops) - min(tops) < 40, f"the start box and the two buttons are not on one row: {tops}"
    el.locator("[data-pe-shift]").click()
    assert el.locator('[data-pe-input="start"]').input_value() == str(ex.SHIFT)  # the box follows the button
    expect(reference).to_be_hidden()
    expect(compared).to_be_visible()
    assert f"{n}×{n} = {n * n} 格" in compared.inner_text() and f"位置 {ex.SHIFT:,} 开始" in compared.inner_text()
    el.locator("[data-pe-reset]").click()
    assert value(el.locator('[data-pe-out="start"]')) == 0
    assert el.locator('[data-pe-input="start"]').input_value() == "0"
    np.testing.assert_array_equal(values(cells), m0)
    expect(reference).to_be_visible()
    expect(compared).to_be_hidden()
    assert sp.page.evaluate(MOUNT_BARE, ["sin-heatmap", {"data-sentence": "一二三四五六七八九十一二三四五六", "data-shift": "1",
                                                         "data-d": "16", "data-base": "10000", "data-start": "0"}])[0] == "mounted"
    long = "一二三四五六七八九十一二三四五六七"  # one character more than the table's 16 columns
    attrs = {f"data-{k}": v for k, v in (("sentence", long), ("shift", "1"), ("d", "16"), ("base", "10000"), ("start", "0"))}
    error, shown = sp.page.evaluate(MOUNT_BARE, ["sin-heatmap", attrs])
    assert error != "mounted" and f"有 {len(long)} 个字，这个演示最多 16 个" in shown, (error, shown)
    sp.assert_clean()


# Each page option of sin-heatmap that is readable but does not fit, and the words its message uses.
HEATMAP_BAD_OPTIONS = [("shift", "0", "最小是 1"), ("d", "15", "正偶数"), ("base", "1", "要大于 1"), ("start", "-1", "位置从 0 开始数")]


@pytest.mark.build
@pytest.mark.browser
def test_sin_heatmap_refuses_each_page_option_that_does_not_fit_and_reads_english_words(visit, site_dir):
    """Each number the page passes is checked for its own kind (a shift of at least 1, an even dimension, a base over
    1, a position of 0 or more), the message naming it. On an English page the sentence is its words, however the
    spaces fall: one row and one column per word."""
    sp, el = open_widget(visit, site_dir, "sin-heatmap")
    good = {"data-sentence": "猫吃鱼", "data-shift": "1", "data-d": "16", "data-base": "10000", "data-start": "0"}
    assert sp.page.evaluate(MOUNT_BARE, ["sin-heatmap", good])[0] == "mounted"
    for key, bad, words in HEATMAP_BAD_OPTIONS:
        error, shown = sp.page.evaluate(MOUNT_BARE, ["sin-heatmap", {**good, f"data-{key}": bad}])
        assert error != "mounted" and words in shown and f"data-{key}" in shown, (key, bad, shown)
    sp.assert_clean()
    sp, el = open_widget(visit, site_dir, "sin-heatmap", "en")
    sp.page.evaluate(MOUNT_BARE, ["sin-heatmap", {**good, "data-sentence": "  cats   eat fish "}])
    heads = sp.page.locator(".pe-widget").last.locator("thead th").evaluate_all("ths => ths.map(th => th.firstChild.textContent)")
    assert heads == ["cats", "eat", "fish"], heads
    sp.assert_clean()


@pytest.mark.build
@pytest.mark.browser
def test_sin_heatmap_and_rope_pair_shift_buttons_are_disabled_at_the_limit_with_a_reason(visit, site_dir):
    """sin-heatmap and rope-pair: a shift past 10⁹ is not a silent no-op; the button is off and says why."""
    for name, fields in (("sin-heatmap", ["start"]), ("rope-pair", ["m", "n"])):
        sp, el = open_widget(visit, site_dir, name)
        page = sp.page
        shift = el.locator("[data-pe-shift]")
        note = el.locator("[data-pe-limit]")
        expect(shift).to_be_enabled()
        expect(note).to_be_hidden()
        step = int(re.search(r"\+(\d+)", shift.inner_text()).group(1))
        for f in fields:
            el.locator(f'[data-pe-input="{f}"]').fill(str(MAX_INPUT - step - (1 if f == "m" else 0)))
        expect(shift).to_be_enabled()  # one more shift still fits
        shift.focus()
        page.keyboard.press("Enter")
        expect(shift).to_be_disabled()
        expect(note).to_be_visible()
        assert "10⁹" in note.inner_text() and "停用" in note.inner_text(), note.inner_text()
        assert f"+{step}" in note.inner_text() and f"{MAX_INPUT:,}" in note.inner_text(), note.inner_text()
        assert shift.get_attribute("aria-describedby") == note.get_attribute("id")
        # the keyboard user's focus moved to the reason, not to the page's top
        assert page.evaluate("document.activeElement.hasAttribute('data-pe-limit')")
        for k, f in enumerate(fields):
            el.locator(f'[data-pe-input="{f}"]').fill(str(3 + k))
        expect(shift).to_be_enabled()
        expect(note).to_be_hidden()
        check_display(el)
        sp.assert_clean()


@pytest.mark.build
@pytest.mark.browser
def test_sin_dot_curve_does_not_move(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "sin-dot")
    page = sp.page
    for p in (0, 300, 100_000):
        el.locator(f'[data-preset="{p}"]').click()
        el.locator('[data-pe-input="k"]').fill("10")
        assert value(el.locator('[data-pe-out="position"]')) == p
        assert value(el.locator('[data-pe-out="dot"]')) == pytest.approx(sinusoidal.dot(p, p + 10, ex.SIN_DIM), abs=1e-10)
        assert value(el.locator('[data-pe-out="closed"]')) == pytest.approx(sinusoidal.dot_closed_form(10, ex.SIN_DIM), abs=1e-12)
        # the curve from the encodings matches the closed form to rounding: exactly at p = 0 (the same sum), by a
        # rounding-sized difference, which the readout shows rather than a flat 0, at p = 100,000
        diff = value(el.locator('[data-pe-out="max-diff"]'))
        assert (diff == 0) if p == 0 else (0 < diff < 1e-9) if p == 100_000 else diff < 1e-9, (p, diff)
    check_display(el)
    slider = el.locator('[data-pe-input="k-slider"]')
    slider.focus()
    page.keyboard.press("ArrowRight")
    assert value(el.locator('[data-pe-out="k"]')) == 11
    assert el.locator('[data-pe-input="k"]').input_value() == "11"
    assert value(el.locator('[data-pe-out="dot"]')) == pytest.approx(sinusoidal.dot(100_000, 100_011, ex.SIN_DIM), abs=1e-10)
    assert "最大是" in bad_input(el, "k", "500")
    sp.assert_clean()



# sin-dot's own words (strings/<lang>/sin-dot.js) around its presets, plot and readout.
SIN_DOT_WORDS = {"zh": {"presets": "预设起点", "plot": "从 0 到 {max}", "curve": "δ = 0 … {max}"},
                 "en": {"presets": "Preset starts", "plot": "from 0 to {max}", "curve": "δ = 0 … {max}"}}


@pytest.mark.build
@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_sin_dot_presets_plot_and_readout_name_their_numbers(visit, site_dir, lang):
    """The presets are a named group with one button per page preset, labelled with its start; a preset writes its
    start into the box; the plot's text alternative and the readout's second sentence name the plot's last distance;
    the readout is announced (aria-live)."""
    words = SIN_DOT_WORDS[lang]
    sp, el = open_widget(visit, site_dir, "sin-dot", lang)
    k_max = int(el.get_attribute("data-max"))
    presets = [int(p) for p in el.get_attribute("data-presets").split(",")]
    group = el.locator(".pe-presets")
    assert group.get_attribute("role") == "group" and group.get_attribute("aria-label") == words["presets"]
    assert group.locator("button").all_inner_texts() == [f"{p:,}" for p in presets]
    for p in reversed(presets):
        group.locator(f'[data-preset="{p}"]').press("Enter")  # by keyboard: a loaded run can lose a mouse click
        assert el.locator('[data-pe-input="position"]').input_value() == str(p)
        assert value(el.locator('[data-pe-out="position"]')) == p
    assert words["plot"].format(max=k_max) in el.locator("svg.pe-plot").get_attribute("aria-label")
    readout = el.locator(".pe-readout")
    assert readout.locator("p").first.inner_text().startswith(f"p = {presets[0]:,}"), readout.inner_text()
    assert readout.get_attribute("aria-live") == "polite"
    assert words["curve"].format(max=f"{k_max:,}") in readout.locator("p").nth(1).inner_text()
    sp.assert_clean()


# The same bad inputs for sin-dot and sin-heatmap in each language, as for sin-clock above.
BAD_DOT_INPUT = {
    "zh": [
        ("position", "", "请填写"),
        ("position", "-5", "不能是负数"),
        ("position", "2.5", "整数"),
        ("k", "9999", "最大是"),
        ("k", "abc", "不是数字"),
        ("k", "2.5", "整数"),
        ("k", "-1", "不能是负数"),
    ],
    "en": [
        ("position", "", "Enter start p."),
        ("position", "-5", "cannot be negative"),
        ("position", "2.5", "whole number"),
        ("k", "9999", "at most"),
        ("k", "2.5", "whole number"),
        ("k", "-1", "cannot be negative"),
        ("k", "abc", "must be a number"),
    ],
}
BAD_HEATMAP_INPUT = {
    "zh": [
        ("start", "", "请填写"),
        ("start", "-1", "不能是负数"),
        ("start", "abc", "不是数字"),
        ("start", "2000000000", "10⁹"),
    ],
    "en": [
        ("start", "", "Enter position of the first token."),
        ("start", "-1", "cannot be negative"),
        ("start", "abc", "must be a number"),
        ("start", "2000000000", "10⁹"),
    ],
}


def assert_no_chinese_words(el, name: str, data: str = "") -> None:
    """A converted widget on an English page shows no Chinese word of its own (``data``, the page's example
    sentence passed in data-*, is the page's, not the widget's)."""
    shown = el.locator(".pe-live").inner_text() + " ".join(
        el.locator(".pe-live [aria-label], .pe-live [title]").evaluate_all(
            "els => els.map(e => (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || ''))"))
    for ch in set(data):
        shown = shown.replace(ch, "")
    assert not CJK_TEXT.search(shown), f"Chinese in the English {name}: {CJK_TEXT.findall(shown)[:10]}"


@pytest.mark.build
@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_sin_dot_bad_input_shows_message(visit, site_dir, lang):
    sp, el = open_widget(visit, site_dir, "sin-dot", lang)
    drive_bad_input(el, BAD_DOT_INPUT[lang], lambda el: values(el.locator('[data-pe-out="dot"], [data-pe-out="max-diff"]')).tolist())
    check_display(el)
    # typed a key at a time, 500 passes through 5 and 50, which the widget draws; 500 is past the plot's end, and the
    # message names 50, the entry the readout still shows (it recomputes on every key)
    box = el.locator('[data-pe-input="k"]')
    box.fill("")
    box.press_sequentially("500")
    expect(el.locator('[data-pe-error="k"]')).to_be_visible()
    assert kept_entry(el.locator('[data-pe-error="k"]').inner_text()) == "50"
    assert value(el.locator('[data-pe-out="k"]')) == 50
    box.fill(str(int(el.get_attribute("data-k"))))
    if lang != "zh":
        assert_no_chinese_words(el, "sin-dot")
    sp.assert_clean()


@pytest.mark.build
@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_sin_heatmap_bad_input_shows_message(visit, site_dir, lang):
    sp, el = open_widget(visit, site_dir, "sin-heatmap", lang)
    drive_bad_input(el, BAD_HEATMAP_INPUT[lang], lambda el: values(el.locator("[data-pe-cell]")).tolist())
    check_display(el)
    if lang != "zh":
        assert_no_chinese_words(el, "sin-heatmap", ex.SENTENCE)
    sp.assert_clean()


# --- lesson 1 ----------------------------------------------------------------------------------------------


@pytest.mark.build
@pytest.mark.browser
def test_swap_attention_matches_posenc_attention(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "swap-attention")
    live = el.locator(".pe-live")
    text, i, j = ex.SWAP_MAIN
    assert el.locator('[data-pe-input="sentence"]').input_value() == text
    assert el.locator('[data-pe-input="i"]').input_value() == str(i)
    assert json.loads(live.get_attribute("data-inputs"))["text"] == text
    assert el.locator('[data-pe-input="j"]').input_value() == str(j)

    given = el.get_attribute("data-head")
    if given:  # the build passed posenc's own weights and vectors: the page must use them as they are
        g = json.loads(given)
        ref = at.make_head(ex.ATTN_D, ex.ATTN_SEED)
        w = json.loads(live.get_attribute("data-weights"))
        for key in ("w_q", "w_k", "w_v"):
            np.testing.assert_array_equal(np.array(w[key]), getattr(ref, key))
        chars = sorted(g["vectors"])
        np.testing.assert_array_equal(np.array([g["vectors"][c] for c in chars]), at.token_vectors([ord(c) for c in chars], ex.ATTN_D, ex.ATTN_SEED))
        assert el.locator('[data-pe-out="source"]').get_attribute("data-exact") == "1"

    def check(mode):
        w = json.loads(live.get_attribute("data-weights"))
        data = json.loads(live.get_attribute("data-inputs"))
        head = at.Head(np.array(w["w_q"]), np.array(w["w_k"]), np.array(w["w_v"]), seed=ex.ATTN_SEED)
        perm = np.array(data["perm"])
        assert data["swapped"] == at.permute_text(data["text"], perm)
        n, d = len(data["text"]), head.d
        for m in ("nopos", "pos"):
            xa, xb = np.array(data[m]["a"]), np.array(data[m]["b"])
            np.testing.assert_array_equal(xb, xa[perm] if m == "nopos" else xb)  # same token, same vector
            if m == "pos":  # + PE(p) of lesson 3
                np.testing.assert_allclose(xa - np.array(data["nopos"]["a"]), sinusoidal.table(n, d), atol=1e-15)
        out = {m: (at.attend(np.array(data[m]["a"]), head).out, at.attend(np.array(data[m]["b"]), head).out) for m in ("nopos", "pos")}
        where = np.argsort(perm)  # row k of the sentence sits at row where[k] after the swap
        a, b = out[mode]
        for k in range(n):
            np.testing.assert_allclose(values(el.locator(f'[data-pe-vec^="a-{k}-"]')), a[k], atol=TOL)
            np.testing.assert_allclose(values(el.locator(f'[data-pe-vec^="b-{k}-"]')), b[where[k]], atol=TOL)
        nopos = values(el.locator('[data-pe-diff^="nopos-"]'))
        pos = values(el.locator('[data-pe-diff^="pos-"]'))
        want_pos = np.abs(out["pos"][1][where] - out["pos"][0]).max(axis=1)
        np.testing.assert_allclose(pos, want_pos, atol=TOL)
        assert nopos.max() < 1e-12, "without positions each character's output must not change"
        assert value(el.locator('[data-pe-out="max-nopos"]')) == pytest.approx(at.matched_difference(*out["nopos"], perm), abs=1e-12)
        assert value(el.locator('[data-pe-out="max-pos"]')) == pytest.approx(at.matched_difference(*out["pos"], perm), abs=TOL)
        assert value(el.locator('[data-pe-out="max-pos"]')) > 0.01
        check_display(el)

    check("nopos")
    el.locator('[data-pe-input="mode-pos"]').check()
    check("pos")
    el.locator('[data-preset="猫吃鱼"]').click()
    assert el.locator('[data-pe-out="sentence-b"]').inner_text() == "鱼吃猫"
    check("pos")
    assert "至少要两个字" in bad_input(el, "sentence", "猫")
    sp.assert_clean()


SWAP_TABLE = """el => ({
  caption: el.querySelector('table caption').textContent,
  cols: [...el.querySelectorAll('thead th')].map(th => [th.getAttribute('scope'), th.textContent]),
  rows: [...el.querySelectorAll('tbody tr')].map(tr => [tr.querySelector('th').getAttribute('scope'), tr.querySelector('th').textContent,
    ...[...tr.querySelectorAll('td')].map(td => td.dataset.label)]),
  breaks: [...el.querySelectorAll('tbody td.pe-vec')].map(td =>  // the index of the number that starts the second line
    [...td.querySelectorAll('[data-pe-vec]')].findIndex(n => n.previousSibling && n.previousSibling.nodeName === 'BR')),
})"""


@pytest.mark.build
@pytest.mark.browser
def test_swap_attention_pickers_rows_and_caption_follow_the_sentence(visit, site_dir):
    """The two pickers list every token as k：token; the sentence above the table names the positions swapped; each
    row's header is the token and where it moved (k→new k), scoped, and each cell carries its column's name for the
    phone's cards; a vector breaks onto a second line after its first half; the caption names d and the mode. A
    shorter sentence pulls the picks inside it (two picks that meet become its first and last token); a character
    the build gave no vector is drawn in the browser, and the note says so and which seed."""
    sp, el = open_widget(visit, site_dir, "swap-attention")
    d, seed = int(el.get_attribute("data-d")), el.get_attribute("data-seed")
    for sentence, i, j in [("小明打了小王", 0, 2), ("猫吃鱼", None, None)]:
        box = el.locator('[data-pe-input="sentence"]')
        box.fill(sentence)
        if i is not None:
            el.locator('[data-pe-input="i"]').select_option(str(i))
            el.locator('[data-pe-input="j"]').select_option(str(j))
        else:  # the picks were 0 and 2 of six characters: both still fit in three
            i, j = 0, 2
        chars = list(sentence)
        for picker in ("i", "j"):
            assert el.locator(f'[data-pe-input="{picker}"] option').all_inner_texts() == [f"{k}：{c}" for k, c in enumerate(chars)]
        perm = list(range(len(chars)))
        perm[i], perm[j] = j, i
        swapped = "".join(chars[k] for k in perm)
        said = el.locator(".pe-sentences").inner_text()
        assert said == f"原句「{sentence}」，交换位置 {i} 和 {j} 后是「{swapped}」。", said
        shown = el.evaluate(SWAP_TABLE)
        headers = [text for _, text in shown["cols"]]
        assert [scope for scope, _ in shown["cols"]] == ["col"] * 5
        assert shown["rows"] == [["row", f"{c} {k}→{perm.index(k)}", *headers[1:]] for k, c in enumerate(chars)]
        assert set(shown["breaks"]) == {math.ceil(d / 2)}, shown["breaks"]
        assert f"d_model = {d}" in shown["caption"] and "不加位置" in shown["caption"]
    el.locator('[data-pe-input="mode-pos"]').check()
    assert "加上位置向量" in el.evaluate(SWAP_TABLE)["caption"]
    el.locator('[data-pe-input="i"]').select_option("1")
    el.locator('[data-pe-input="j"]').select_option("2")
    el.locator('[data-pe-input="sentence"]').fill("猫吃")  # both picks become 1: they meet, so the first and the last
    assert (el.locator('[data-pe-input="i"]').input_value(), el.locator('[data-pe-input="j"]').input_value()) == ("0", "1")
    source = el.locator('[data-pe-out="source"]')
    assert source.get_attribute("data-exact") == "1" and f"种子 {seed}" in source.inner_text()
    el.locator('[data-pe-input="sentence"]').fill("狗咬人")  # characters the build gave no vectors
    assert source.get_attribute("data-exact") == "0" and "mulberry32" in source.inner_text() and f"种子 {seed}" in source.inner_text()
    assert value(el.locator('[data-pe-out="max-nopos"]')) < 1e-12 and value(el.locator('[data-pe-out="max-pos"]')) > 0.01
    sp.assert_clean()


# The same bad sentences in each language: a token is a character on the Chinese page, a word on the English one.
BAD_SWAP_INPUT = {
    "zh": [
        ("sentence", "猫", "至少要两个字"),
        ("sentence", "猫" * 13, "最多 12 个字"),
    ],
    "en": [
        ("sentence", "cat", "at least two words"),
        ("sentence", " ".join(["cat"] * 13), "at most 12 words"),
    ],
}


@pytest.mark.build
@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_swap_attention_bad_input_shows_message(visit, site_dir, lang):
    sp, el = open_widget(visit, site_dir, "swap-attention", lang)
    drive_bad_input(el, BAD_SWAP_INPUT[lang], lambda el: values(el.locator('[data-pe-diff^="pos-"]')).tolist())
    check_display(el)
    if lang != "zh":  # a converted widget speaks only the page's language
        shown = el.locator(".pe-live").inner_text() + " ".join(
            el.locator(".pe-live [aria-label], .pe-live [title]").evaluate_all(
                "els => els.map(e => (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || ''))"))
        assert not CJK_TEXT.search(shown), f"Chinese in the English swap-attention: {CJK_TEXT.findall(shown)[:10]}"
    sp.assert_clean()


@pytest.mark.build
@pytest.mark.browser
def test_swap_attention_in_english_computes_the_english_sentence(visit, site_dir):
    """The English page starts from the English edition's own sentence (posenc.examples.texts("en"), one word per
    token) and computes with posenc's vectors of its words, so its numbers are those the English prose quotes; a word
    of the reader's own is a token too, and without positions nothing moves."""
    from posenc import quantities

    sp, el = open_widget(visit, site_dir, "swap-attention", "en")
    live = el.locator(".pe-live")
    text, i, j = ex.texts("en").swap_main
    assert el.locator('[data-pe-input="sentence"]').input_value() == quantities.text("l1_main_a", "en")
    assert el.locator('[data-pe-out="sentence-b"]').inner_text() == quantities.text("l1_main_b", "en")
    data = json.loads(live.get_attribute("data-inputs"))
    assert data["tokens"] == list(text)
    assert el.locator('[data-pe-out="source"]').get_attribute("data-exact") == "1"
    head = at.make_head(ex.ATTN_D, ex.ATTN_SEED)
    assert value(el.locator('[data-pe-out="max-pos"]')) == pytest.approx(
        at.swap_experiment(text, i, j, head, ex.ATTN_SEED, True).moved, abs=TOL)
    el.locator(f'[data-preset="{quantities.text("l1_short_a", "en")}"]').click()
    assert el.locator('[data-pe-out="sentence-b"]').inner_text() == quantities.text("l1_short_b", "en")
    el.locator('[data-pe-input="sentence"]').fill("the dog bites the man")
    data = json.loads(live.get_attribute("data-inputs"))
    assert data["tokens"] == ["the", "dog", "bites", "the", "man"]
    assert value(el.locator('[data-pe-out="max-nopos"]')) < 1e-12
    assert value(el.locator('[data-pe-out="max-pos"]')) > 0.01
    check_display(el)
    sp.assert_clean()


# --- lesson 2 ----------------------------------------------------------------------------------------------


def check_content_position(el, p, rms):
    """The naive ratio σ/p (posenc.naive) and the lookup in GPT-2's table (posenc.learned) for position p."""
    gpt2 = configs.load("gpt2")
    assert value(el.locator('[data-pe-out="position"]')) == p
    if p >= 1:
        assert value(el.locator('[data-pe-out="ratio"]')) == naive.raw_index_content_ratio(p, rms)  # bit for bit
        assert value(el.locator('[data-pe-out="rms"]')) == rms
        cy = float(el.locator('[data-pe-out="point"]').get_attribute("cy"))
        assert math.isfinite(cy)
    else:
        assert el.locator('[data-pe-out="ratio"]').count() == 0 and "没有定义" in el.locator(".pe-readout").inner_text()
    assert value(el.locator('[data-pe-out="rows"]')) == gpt2["context"]
    assert value(el.locator('[data-pe-out="last-row"]')) == gpt2["context"] - 1
    assert value(el.locator('[data-pe-out="table-parameters"]')) == learned.table_parameters(gpt2)
    has = learned.has_row(gpt2, p)
    assert el.locator('[data-pe-out="has-row"]').get_attribute("data-value") == ("1" if has else "0")
    if not has:
        short = value(el.locator('[data-pe-out="rows-short"]'))
        # the smallest table that has row p: one with short more rows, and not one fewer
        bigger = lambda extra: learned.has_row(configs.ModelConfig("t", "t", "learned", {**gpt2.fields, "context": configs.Field(gpt2["context"] + extra, "", "U")}), p)
        assert bigger(int(short)) and not bigger(int(short) - 1)
    else:
        assert el.locator('[data-pe-out="rows-short"]').count() == 0
    check_display(el)


@pytest.mark.build
@pytest.mark.browser
def test_content_position_matches_posenc_naive_and_learned(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "content-position")
    page = sp.page
    box = el.locator('[data-pe-input="position"]')
    assert box.input_value() == str(ex.NAIVE_PROBE_POSITION)
    presets = [int(x) for x in el.locator("[data-preset]").evaluate_all("els => els.map(e => e.dataset.preset)")]
    gpt2 = configs.load("gpt2")["context"]
    assert presets == [ex.LOOKUP_FIRST, ex.NAIVE_PROBE_POSITION, gpt2 - 1, gpt2, ex.FAR_POSITION]
    sigmas = el.locator('[data-pe-input="rms"] option').evaluate_all("els => els.map(e => Number(e.value))")
    assert sigmas == [1.0, ex.PROJECT_EMBED_STD]
    check_content_position(el, ex.NAIVE_PROBE_POSITION, 1.0)
    for p in presets:
        el.locator(f'[data-preset="{p}"]').click()
        assert box.input_value() == str(p)
        check_content_position(el, p, 1.0)
    el.locator('[data-pe-input="rms"]').select_option(str(ex.PROJECT_EMBED_STD))
    for p in (1, 2, 37, gpt2 - 1, gpt2, gpt2 + 1, 999_999_999):
        box.fill(str(p))
        check_content_position(el, p, ex.PROJECT_EMBED_STD)
    # the keyboard: a preset button and Enter
    el.locator(f'[data-preset="{gpt2}"]').focus()
    page.keyboard.press("Enter")
    check_content_position(el, gpt2, ex.PROJECT_EMBED_STD)
    sp.assert_clean()


# content-position's own words (strings/<lang>/content-position.js) in its controls and readout.
CONTENT_POSITION_WORDS = {
    "zh": {"presets": "预设位置", "zero": "没有定义", "ratio": "：加进去的位置信号每一维都是 {p}，", "table": "位置表有 {rows} 行（0 … {last}），共 {rows} × {width} = ",
           "found": "✓ 查得到", "missing": "✗ 查无此行（torch 会抛 IndexError）：表至少要有 {need} 行，还差 {short} 行。"},
    "en": {"presets": "Preset positions", "zero": "undefined", "ratio": ": the position signal added to every dimension is {p}",
           "table": "The position table has {rows} rows (0 … {last}), holding {rows} × {width} = ", "found": "✓ found",
           "missing": "✗ no such row (torch would raise IndexError): the table would need at least {need} rows; it is {short} short."},
}


@pytest.mark.build
@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_content_position_readout_names_p_the_table_and_the_rows_it_lacks(visit, site_dir, lang):
    """The σ options read σ = the page's value; the presets are a named group; the readout is announced (aria-live),
    the plot an image with a name (role img); the readout repeats p as the signal added
    to every dimension (at 0: the ratio is undefined and no point is drawn), names the table's rows, last row and
    shape, and for a row the table lacks, the rows it would need and how many it is short."""
    words = CONTENT_POSITION_WORDS[lang]
    sp, el = open_widget(visit, site_dir, "content-position", lang)
    rows, width = int(el.get_attribute("data-rows")), int(el.get_attribute("data-width"))
    assert el.locator('[data-pe-input="rms"] option').all_inner_texts() == [f"σ = {r}" for r in el.get_attribute("data-rms").split(",")]
    group = el.locator(".pe-presets")
    assert group.get_attribute("role") == "group" and group.get_attribute("aria-label") == words["presets"]
    # a screen reader hears the readout change, and meets the plot as one image with its text alternative
    assert el.locator(".pe-readout").get_attribute("aria-live") == "polite"
    assert el.locator("svg.pe-plot").get_attribute("role") == "img" and el.locator("svg.pe-plot").get_attribute("aria-label")
    box = el.locator('[data-pe-input="position"]')
    for p in (0, 5, rows - 1, rows, 123_456):
        box.fill(str(p))
        naive_text, lookup = (el.locator(".pe-readout > p").nth(k).inner_text() for k in (0, 1))
        if p == 0:
            assert words["zero"] in naive_text and el.locator('[data-pe-out="point"]').count() == 0
        else:
            assert words["ratio"].format(p=f"{p:,}") in naive_text, naive_text
        assert words["table"].format(rows=f"{rows:,}", last=f"{rows - 1:,}", width=f"{width:,}") in lookup, lookup
        if p < rows:
            assert lookup.rstrip().endswith(words["found"] + ("。" if lang == "zh" else ".")), lookup
        else:
            assert words["missing"].format(need=f"{p + 1:,}", short=f"{p - rows + 1:,}") in lookup, lookup
    sp.assert_clean()


# The same bad inputs in each language (the widget's words: docs/javascripts/widgets/strings/<lang>.js).
BAD_CONTENT_POSITION = {
    "zh": [
        ("position", "", "请填写位置 p"),
        ("position", "-1", "不能是负数"),
        ("position", "2.5", "整数"),
        ("position", "abc", "不是数字"),
        ("position", "2000000000", "10⁹"),
    ],
    "en": [
        ("position", "", "Enter position p."),
        ("position", "-1", "cannot be negative"),
        ("position", "2.5", "whole number"),
        ("position", "abc", "Position p must be a number"),
        ("position", "2000000000", "10⁹"),
    ],
}


@pytest.mark.build
@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_content_position_bad_input_keeps_the_last_result(visit, site_dir, lang):
    sp, el = open_widget(visit, site_dir, "content-position", lang)
    drive_bad_input(el, BAD_CONTENT_POSITION[lang], lambda el: value(el.locator('[data-pe-out="ratio"]')))
    if lang != "zh":  # a converted widget speaks only the page's language: its readout at a row the table lacks too
        el.locator(f'[data-preset="{configs.load("gpt2")["context"]}"]').click()
        shown = el.locator(".pe-live").inner_text() + " ".join(
            el.locator(".pe-live [aria-label], .pe-live [title]").evaluate_all(
                "els => els.map(e => (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || ''))"))
        assert "no such row" in shown
        assert not CJK_TEXT.search(shown), f"Chinese in the English content-position: {CJK_TEXT.findall(shown)[:10]}"
    sp.assert_clean()


# --- lesson 4 ----------------------------------------------------------------------------------------------


# The same bad positions in each language (strings/<lang>.js); the table of scores stays as it was meanwhile.
BAD_ROPE_PAIR_INPUT = {
    "zh": [
        ("m", "", "请填写"),
        ("m", "abc", "不是数字"),
        ("n", "-5", "不能是负数"),
        ("n", "2000000000", "10⁹"),
        ("m", "2.5", "整数"),
    ],
    "en": [
        ("m", "", "Enter position m of q."),
        ("m", "abc", "Position m of q must be a number"),
        ("n", "-5", "cannot be negative"),
        ("n", "2000000000", "10⁹"),
        ("m", "2.5", "whole number"),
    ],
}


@pytest.mark.build
@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_rope_pair_bad_input_shows_message(visit, site_dir, lang):
    sp, el = open_widget(visit, site_dir, "rope-pair", lang)
    drive_bad_input(el, BAD_ROPE_PAIR_INPUT[lang], lambda el: values(el.locator("[data-pe-row] .pe-num")).tolist())
    check_display(el)
    if lang != "zh":  # a converted widget speaks only the page's language (its static figure is checked elsewhere)
        el.locator("[data-pe-shift]").click()  # the note after a shift, too
        shown = el.locator(".pe-live").inner_text() + " ".join(
            el.locator(".pe-live [aria-label], .pe-live [title]").evaluate_all(
                "els => els.map(e => (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || ''))"))
        assert not CJK_TEXT.search(shown), f"Chinese in the English rope-pair: {CJK_TEXT.findall(shown)[:10]}"
    sp.assert_clean()


@pytest.mark.build
@pytest.mark.browser
def test_rope_pair_shift_keeps_rope_score(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "rope-pair")
    q, k = np.array([1.0, 0.4]), np.array([0.6, 0.9])  # the widget's default pair vectors
    el.locator('[data-pe-input="pair"]').select_option("2")
    omega = rope.inverse_frequencies(ex.SIN_DIM, DEFAULT_BASE)[2:3]
    shift = el.locator("[data-pe-shift]")
    rows = el.locator("[data-pe-row]")
    # pressed by keyboard, as the sin-clock's presets are: a loaded run once lost a mouse click here (the count stayed 1)
    shift.press("Enter")
    expect(rows).to_have_count(2)  # each shift adds its row once the widget has redrawn: wait for it, then shift again
    shift.press("Enter")
    expect(rows).to_have_count(3)
    ropes, addeds = [], []
    for r in range(3):
        row = rows.nth(r)
        m, n = value(row.locator('[data-pe-col="m"]')), value(row.locator('[data-pe-col="n"]'))
        assert m - n == 4  # the default distance: q at 7, k at 3 (examples.PAIR_M, PAIR_N)
        want_rope = rope.rotate(q[None, :], [int(m)], omega)[0] @ rope.rotate(k[None, :], [int(n)], omega)[0]
        pe_m = sinusoidal.encode(int(m), ex.SIN_DIM)[4:6]
        pe_n = sinusoidal.encode(int(n), ex.SIN_DIM)[4:6]
        want_added = (q + pe_m) @ (k + pe_n)
        ropes.append(value(row.locator('[data-pe-col="rope"]')))
        addeds.append(value(row.locator('[data-pe-col="added"]')))
        assert ropes[-1] == pytest.approx(want_rope, abs=TOL)
        assert addeds[-1] == pytest.approx(want_added, abs=TOL)
    assert np.ptp(ropes) < 1e-12
    assert np.ptp(addeds) > 1e-3
    assert value(el.locator('[data-pe-out="rope-change"]')) < 1e-12
    assert "负数" in bad_input(el, "m", "-2", lambda: check_display(el))
    sp.assert_clean()


@pytest.mark.build
@pytest.mark.browser
def test_rope_pair_names_its_shift_stops_at_the_farther_position_and_reads_its_record(visit, site_dir):
    """The title names the page's shift; the shift button stops when the farther of q and k would pass 10⁹, whichever
    it is; after one shift the note gives each score's largest change from the first row, read off the record (whose
    columns are m, n and the two scores, in right-aligned numbers); the readout is announced; the drawing's two axes
    cross the circle's centre, drawn, and the drawing keeps to its column's middle at a bounded width."""
    sp, el = open_widget(visit, site_dir, "rope-pair", viewport={"width": 1280, "height": 900})
    step = int(el.get_attribute("data-shift"))
    assert el.locator(".pe-live__title").inner_text() == f"试一试：把 m 和 n 一起往后移 {step}，两种分数谁会变？"
    shift, m_box, n_box = el.locator("[data-pe-shift]"), el.locator('[data-pe-input="m"]'), el.locator('[data-pe-input="n"]')
    for far, near in ((m_box, n_box), (n_box, m_box)):
        near.fill("3")
        far.fill(str(MAX_INPUT - step + 1))
        expect(shift).to_be_disabled()  # the nearer one would still fit: the farther decides
        far.fill(str(MAX_INPUT - step))
        expect(shift).to_be_enabled()
    rows = el.locator("[data-pe-row]")
    # far out, where RoPE's rows differ by rounding (the largest change is not the first row's 0)
    m_box.fill("1000007")
    n_box.fill("1000003")
    expect(rows).to_have_count(1)
    for count in (2, 3):  # from the first shift on, the note reads the record
        shift.press("Enter")
        expect(rows).to_have_count(count)
        ropes, addeds = values(rows.locator('[data-pe-col="rope"]')), values(rows.locator('[data-pe-col="added"]'))
        assert value(el.locator('[data-pe-out="rope-change"]')) == np.abs(ropes - ropes[0]).max()
        assert value(el.locator('[data-pe-out="added-change"]')) == np.abs(addeds - addeds[0]).max()
    assert el.locator("thead th").all_inner_texts() == ["m", "n", "RoPE 分数", "正弦相加的分数"]
    assert rows.first.locator("td").nth(2).evaluate("td => getComputedStyle(td).textAlign") == "right"
    live = el.locator('.pe-readout [aria-live="polite"]')
    assert live.count() == 1 and live.locator('[data-pe-out="offset"]').count() == 1 and live.locator('[data-pe-out="rope-change"]').count() == 1
    radius = float(el.locator("circle.pe-pair__circle").get_attribute("r"))
    axes = el.locator("line.pe-pair__axis")
    ends = sorted(tuple(float(axis.get_attribute(a)) for a in ("x1", "y1", "x2", "y2")) for axis in axes.all())
    assert len(ends) == 2
    (hx1, hy1, hx2, hy2), (vx1, vy1, vx2, vy2) = ends  # the horizontal axis first (its x1, −95, is the smaller)
    assert vx1 == vx2 == 0 and vy1 < -radius and vy2 > radius, ends
    assert hy1 == hy2 == 0 and hx1 < -radius and hx2 > radius, ends
    assert "none" not in axes.evaluate_all("lines => lines.map(l => getComputedStyle(l).stroke)")
    drawing = el.locator("svg.pe-pair").bounding_box()
    column = el.bounding_box()
    assert drawing["width"] <= 0.6 * column["width"], (drawing, column)  # at most its max width, not the column's
    assert abs((drawing["x"] + drawing["width"] / 2) - (column["x"] + column["width"] / 2)) < 2, (drawing, column)
    sp.assert_clean()


@pytest.mark.build
@pytest.mark.browser
def test_rope_pair_history_keeps_the_last_six_shifts_and_an_edit_starts_it_again(visit, site_dir):
    """Before any shift the note says which button to press; after, it gives the largest change of each score from the
    first row (the added one's over every row kept). The record keeps the last six rows, oldest dropped; editing m,
    n or the pair starts it again from one row, and the readout's distance is m − n. The pair picker names each pair's
    ω; the record's columns are headers; the q and k labels sit just beyond their arrows' tips."""
    sp, el = open_widget(visit, site_dir, "rope-pair")
    shift_by = int(el.get_attribute("data-shift"))
    d, base = int(el.get_attribute("data-d")), float(el.get_attribute("data-base"))
    omegas = rope.inverse_frequencies(d, base)
    options = el.locator('[data-pe-input="pair"] option').all_inner_texts()
    assert len(options) == d // 2
    for i, (text, w) in enumerate(zip(options, omegas)):
        # four decimals down to 0.01 (at d = 16, pair 4's ω is 0.01 exactly), below it three significant digits
        mantissa, exponent = f"{w:.2e}".split("e")
        shown = f"{w:.4f}" if w >= 0.01 else f"{mantissa}e{int(exponent)}"
        assert text == f"第 {i} 对（ω = {shown}）", (text, w)
    note = el.locator(".pe-readout [aria-live] > p").nth(1)
    assert f"+{shift_by}" in note.inner_text()
    assert el.locator("table caption").count() == 1
    assert el.locator("thead th").evaluate_all("els => els.map(e => e.getAttribute('scope'))") == ["col"] * 4
    rows, button = el.locator("[data-pe-row]"), el.locator("[data-pe-shift]")
    m0 = int(el.get_attribute("data-m"))
    for pressed in range(1, 8):
        button.press("Enter")
        expect(rows).to_have_count(min(pressed + 1, 6))
    assert values(rows.locator('[data-pe-col="m"]')).tolist() == [m0 + shift_by * j for j in range(2, 8)]  # the oldest two dropped
    added = values(rows.locator('[data-pe-col="added"]'))
    assert value(el.locator('[data-pe-out="added-change"]')) == pytest.approx(np.abs(added - added[0]).max(), abs=1e-4)
    assert "RoPE" in note.inner_text() and "+" not in note.inner_text()
    el.locator('[data-pe-input="m"]').fill("50")
    expect(rows).to_have_count(1)
    n = int(el.locator('[data-pe-input="n"]').input_value())
    assert value(el.locator('[data-pe-out="offset"]')) == 50 - n
    assert f"+{shift_by}" in note.inner_text()  # a new record: the hint again
    button.press("Enter")
    expect(rows).to_have_count(2)
    el.locator('[data-pe-input="n"]').fill("20")  # n too starts the record again, and moves the distance
    expect(rows).to_have_count(1)
    assert value(el.locator('[data-pe-out="offset"]')) == 50 + shift_by - 20  # m moved with the shift
    radius = float(el.locator("circle.pe-pair__circle").get_attribute("r"))
    for name in ("q", "k"):
        arrow, label = el.locator(f"line.pe-pair__{name}"), el.locator("text.pe-pair__text", has_text=name)
        tip = np.array([float(arrow.get_attribute(a)) for a in ("x2", "y2")])
        spot = np.array([float(label.get_attribute(a)) for a in ("x", "y")]) + [4, -4]  # the label's box centre, near its anchor
        np.testing.assert_allclose(spot, 1.2 * tip, atol=0.01)
        assert np.linalg.norm(spot) > np.linalg.norm(tip) >= radius * 0.1
    sp.assert_clean()


# --- lesson 5 ----------------------------------------------------------------------------------------------


@pytest.mark.build
@pytest.mark.browser
def test_scaling_explorer_matches_posenc_scaling(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "scaling-explorer")
    cfg = configs.load("qwen3_8b")
    hd, theta, L = cfg["head_dim"], cfg["rope_theta"], cfg["context"]
    before = rope.inverse_frequencies(hd, theta)

    def check(method, factor, want_inv, want_att):
        el.locator('[data-pe-input="model"]').select_option("qwen3_8b")
        el.locator('[data-pe-input="method"]').select_option(method)
        el.locator('[data-pe-input="factor"]').fill(str(factor))
        np.testing.assert_allclose(values(el.locator('[data-pe-col="omega"]')), before, rtol=TOL)
        np.testing.assert_allclose(values(el.locator('[data-pe-col="omega-scaled"]')), want_inv, rtol=TOL)
        np.testing.assert_allclose(values(el.locator('[data-pe-col="lambda-scaled"]')), rope.wavelengths(want_inv), rtol=TOL)
        assert value(el.locator('[data-pe-out="attention-factor"]')) == pytest.approx(want_att, rel=TOL)
        assert value(el.locator('[data-pe-out="target"]')) == round(factor * L)
        assert value(el.locator('[data-pe-out="not-before"]')) == rope.pairs_not_completing_turn(before, L)
        over = scaling.angle_overshoot(before, want_inv, L, factor)
        assert value(el.locator('[data-pe-out="beyond"]')) == scaling.pairs_beyond_trained_angles(before, want_inv, L, factor)
        assert value(el.locator('[data-pe-out="max-overshoot"]')) == pytest.approx(np.nanmax(over), rel=TOL)
        shown = np.array([float(r) if r else np.nan for r in el.locator('[data-pe-col="overshoot"]').evaluate_all("els => els.map(e => e.dataset.value)")])
        np.testing.assert_array_equal(np.isnan(shown), np.isnan(over))
        np.testing.assert_allclose(shown[~np.isnan(over)], over[~np.isnan(over)], rtol=TOL)
        check_display(el)

    sc = cfg["scaling"]
    inv, att = scaling.yarn(hd, theta, 4.0, sc["original_max_position_embeddings"])
    check("yarn", 4, inv, att)
    low, high = scaling.yarn_correction_range(hd, theta, sc["original_max_position_embeddings"])
    assert (value(el.locator('[data-pe-out="yarn-low"]')), value(el.locator('[data-pe-out="yarn-high"]'))) == (low, high)
    # the band sentence says what the ramp does: pairs numbered up to low keep their frequency, pairs numbered
    # high or more are divided by s (transformers' ramp is 0 at low and 1 at high), those between are blended
    ratio = np.array(el.locator('[data-pe-col="ratio"]').evaluate_all("els => els.map(e => Number(e.dataset.value))"))
    assert len(ratio) == hd // 2
    np.testing.assert_allclose(ratio[: int(low) + 1], 1.0, rtol=TOL)
    np.testing.assert_allclose(ratio[int(high):], 4.0, rtol=TOL)
    assert 1.0 < ratio[int(low) + 1] and ratio[int(high) - 1] < 4.0
    band = el.locator('[data-pe-out="yarn-low"]').locator("xpath=..").inner_text()
    assert f"编号不超过 {int(low)} 的对保持原频率" in band and f"编号不小于 {int(high)} 的对除以 s" in band, band
    check("linear", 8, *scaling.linear(hd, theta, 8.0))
    check("ntk", 16, *scaling.ntk_aware(hd, theta, 16.0))
    # picking a model puts its own s in the box: a YaRN config's factor, but Llama 3.1's factor is not s (lesson 5):
    # its s is the length it was extended to over the length it was trained on
    llama = configs.load("llama31_8b")
    for key, s in (("qwen3_8b", sc["factor"]), ("llama31_8b", llama["max_position_embeddings"] / llama["context"])):
        el.locator('[data-pe-input="model"]').select_option(key)
        assert float(el.locator('[data-pe-input="factor"]').input_value()) == s, key
    assert llama["scaling"]["factor"] != llama["max_position_embeddings"] / llama["context"]
    assert "不小于 1" in bad_input(el, "factor", "0.5")
    # every model in the list is one of models.yaml's RoPE models, with its own numbers
    keys = el.locator('[data-pe-input="model"] option').evaluate_all("els => els.map(e => e.value)")
    assert keys == [k for k in configs.keys() if configs.load(k).position == "rope"]
    sp.assert_clean()


# Model configs made up to tell apart the rules for the factor a model starts at (the course's own models agree on
# several of them: a YaRN config's factor is its extended context over its original one), with the factor expected.
SCALING_START_FACTORS = [
    ({"scaling": {"rope_type": "yarn", "factor": 8}, "max_position_embeddings": 4096}, 8),  # PI and YaRN: the config's factor
    ({"scaling": {"rope_type": "linear", "factor": 2}, "max_position_embeddings": 4096}, 2),
    ({"scaling": {"rope_type": "llama3", "factor": 8}, "max_position_embeddings": 131072}, 32),  # another kind: the lengths' ratio
    ({"scaled_context": 32768, "max_position_embeddings": 16384}, 8),  # the extended context first
    ({"max_position_embeddings": 8192}, 2),
    ({"max_position_embeddings": 4096}, 4),  # not longer than trained: T5-style 4 (lesson 5's default)
    ({"max_position_embeddings": 2048}, 4),
    ({}, 4),
]
# the factor box once mounted; then once the model is picked in the list
FACTOR_SHOWN = "  return Number(div.querySelector('[data-pe-input=\"factor\"]').value);"
FACTOR_PICKED = ("  const select = div.querySelector('[data-pe-input=\"model\"]');\n"
                 "  select.value = 'made_up'; select.dispatchEvent(new Event('change'));\n" + FACTOR_SHOWN)


@pytest.mark.build
@pytest.mark.browser
def test_scaling_explorer_starts_a_model_at_its_own_factor(visit, site_dir):
    """With data-factor 0 (the model's own) a model starts at its config's factor where that is s (PI and YaRN), else at
    the length it was extended to (scaled_context, else max_position_embeddings) over the length it was trained on, and
    at 4 where neither is longer; picking a model in the list does the same."""
    sp, el = open_widget(visit, site_dir, "scaling-explorer")
    full = _macro_attributes("scaling-explorer")
    for extra, want in SCALING_START_FACTORS:
        model = {"key": "made_up", "name": "Made up", "context": 4096, "head_dim": 64, "rope_theta": 10000, **extra}
        other = {**model, "key": "other", "name": "Other", "max_position_embeddings": 40960}  # starts at 10
        attrs = {**full, "data-model": "made_up", "data-method": "linear", "data-factor": "0",
                 "data-models": json.dumps({"models": [other, model]})}
        assert sp.page.evaluate(_measured_bare(FACTOR_SHOWN), ["scaling-explorer", attrs]) == want, extra
        picked = sp.page.evaluate(_measured_bare(FACTOR_PICKED), ["scaling-explorer", {**attrs, "data-model": "other"}])
        assert picked == want, extra
    sp.assert_clean()


@pytest.mark.build
@pytest.mark.browser
def test_scaling_explorer_refuses_each_page_option_and_model_list_that_does_not_fit_in_its_own_words(visit, site_dir):
    """A method it does not know, a factor between 0 and 1, a model not in the list (the list named), a list with no
    usable RoPE model and a list that cannot be fetched each stop the widget with their own message; a factor of
    exactly 1 fits, and so does 0 (the model's own)."""
    sp, el = open_widget(visit, site_dir, "scaling-explorer")
    full = _macro_attributes("scaling-explorer")
    keys = [k for k in configs.keys() if configs.load(k).position == "rope"]
    no_theta = {"key": "x", "name": "X", "context": 4096, "head_dim": 64}
    for options, words in [
        ({"data-method": "bogus"}, 'data-method="bogus" 要是 yarn、linear、ntk 之一'),
        ({"data-factor": "0.5"}, "data-factor = 0.5 要是 0（用模型自己的倍数）或不小于 1"),
        ({"data-model": "qwen9"}, f'模型配置里没有 data-model="qwen9"，有的是 {"、".join(keys)}'),
        ({"data-model": "x", "data-models": json.dumps({"models": [no_theta]})}, "页内实验没能加载模型配置（models.json 里没有 RoPE 模型）"),
    ]:
        error, shown = sp.page.evaluate(MOUNT_BARE, ["scaling-explorer", {**full, **options}])
        assert error != "mounted" and words in shown, (options, shown)
    for factor in ("1", "0"):
        assert sp.page.evaluate(MOUNT_BARE, ["scaling-explorer", {**full, "data-factor": factor}])[0] == "mounted", factor
    sp.assert_clean()
    # the list fetched from the site (data-models empty) and not found there: the message says where and what came back
    sp.page.route("**/assets/models.json", lambda route: route.fulfill(status=404, body="missing"))
    error, shown = sp.page.evaluate(MOUNT_BARE, ["scaling-explorer", {**full, "data-models": ""}])
    assert error != "mounted" and re.search(r"页内实验没能加载模型配置（\S*/assets/models\.json → HTTP 404）", shown), shown
    sp.page.unroute("**/assets/models.json")
    assert all("404" in e for e in sp.console_errors), sp.console_errors  # the browser logs the 404 it was made to get, only that


def _omega_text(w: float) -> str:
    """A frequency as the scaling table prints it: four decimals from 0.01 up, below that three significant decimals in
    scientific notation ("1.234e−5"), a true minus sign."""
    if w >= 0.01:
        return format_value(w, ".4f")
    mantissa, exponent = f"{w:.3e}".split("e")
    return f"{mantissa}e{int(exponent)}".replace("-", "\u2212")


def _period_text(x: float) -> str:
    """A period (tokens per turn) as the scaling table prints it: two decimals below 100, whole tokens from 100 up."""
    return format_value(x, ",.2f" if x < 100 else ",.0f")


@pytest.mark.build
@pytest.mark.browser
def test_scaling_explorer_table_prints_each_frequency_and_period_to_its_own_precision(visit, site_dir):
    """Every frequency and period in the table, before and after, as text: ω with four decimals down to 0.01 and in
    scientific notation below it, λ with two decimals below 100 tokens and whole above; at a real model's settings and
    at a made-up one whose second frequency is exactly 0.01 (the boundary: four decimals)."""
    sp, el = open_widget(visit, site_dir, "scaling-explorer")
    texts = """el => Object.fromEntries(['omega', 'omega-scaled', 'lambda', 'lambda-scaled'].map(col =>
      [col, [...el.querySelectorAll(`[data-pe-col="${col}"]`)].map(e => [e.textContent, Number(e.dataset.value)])]))"""
    el.locator('[data-pe-input="model"]').select_option("qwen3_8b")
    el.locator('[data-pe-input="method"]').select_option("ntk")
    el.locator('[data-pe-input="factor"]').fill("4")
    shown = el.evaluate(texts)
    for col, fmt in (("omega", _omega_text), ("omega-scaled", _omega_text), ("lambda", _period_text), ("lambda-scaled", _period_text)):
        assert [t for t, _ in shown[col]] == [fmt(v) for _, v in shown[col]], col
    omegas = [v for _, v in shown["omega"]]
    lambdas = [v for _, v in shown["lambda"]]
    assert min(omegas) < 0.01 <= max(omegas) and min(lambdas) < 100 <= max(lambdas)  # both forms of each were seen
    full = _macro_attributes("scaling-explorer")
    model = {"key": "made_up", "name": "Made up", "context": 4096, "head_dim": 4, "rope_theta": 10000}  # ω = 1, 10000^(-1/2)
    cells = _measured_bare("  return [...div.querySelectorAll('[data-pe-col=\"omega\"]')].map(e => [e.textContent, Number(e.dataset.value)]);")
    made_up = sp.page.evaluate(cells, ["scaling-explorer", {**full, "data-model": "made_up", "data-factor": "2", "data-models": json.dumps({"models": [model]})}])
    assert made_up == [["1.0000", 1.0], ["0.0100", 0.01]], made_up
    sp.assert_clean()


# scaling-explorer's summary as its string tables word it (typed here), with posenc's numbers.
SCALING_SUMMARY = {
    "zh": ["{name}：RoPE 转 {dims} 维（{pairs} 对），θ = {theta}，训练长度 L = {L}；扩展到 s·L = {target}。",
           "扩展前，有 {not_before} 对在 L 内转不满一圈；扩展到 s·L 以后，其中 {beyond} 对越界（转到训练时没见过的角度），"
           "转到的最大角度最多是训练所见的 {worst} 倍。注意力系数（cos、sin 乘的数）= {attention}。",
           "YaRN 的过渡区间：编号不超过 {low} 的对保持原频率，编号不小于 {high} 的对除以 s，中间线性过渡。", "0"],
    "en": ["{name}: RoPE rotates {dims} dimensions ({pairs} pairs), θ = {theta}, training length L = {L}; extended to s·L = {target}.",
           "Before the extension, {not_before} pairs do not complete a turn within L; at s·L, {beyond} of them overshoot (reach angles "
           "training never showed them), the largest angle reached being at most {worst} times the largest seen in training. "
           "Attention factor (what cos and sin are multiplied by) = {attention}.",
           "YaRN's transition band: pairs numbered up to {low} keep their frequency, pairs numbered {high} or more are divided by s, "
           "and those in between blend linearly.", "none"],
}


@pytest.mark.build
@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_scaling_explorer_summary_says_each_number_in_its_place_word_for_word(visit, site_dir, lang):
    """The summary's sentences, whole, from posenc: the rotated dimensions and pairs, θ, L and s·L; how many pairs do not
    turn within L, how many of them overshoot at s·L ("none" in words), the largest overshoot and the attention factor;
    for YaRN only, the band's two ends (whole where the config truncates them, as Qwen3's does; to two decimals where it
    does not, as gpt-oss's). At YaRN, NTK-aware and PI settings, s = 1 included."""
    seen, beyond_none = set(), SCALING_SUMMARY[lang][3]
    sp, el = open_widget(visit, site_dir, "scaling-explorer", lang)
    for model, method, factor in (("qwen3_8b", "yarn", 4.0), ("qwen3_8b", "ntk", 16.0), ("qwen3_8b", "linear", 1.0), ("gpt_oss", "yarn", 32.0)):
        cfg = configs.load(model)
        hd, theta, L = cfg["head_dim"], cfg["rope_theta"], cfg["context"]
        before = rope.inverse_frequencies(hd, theta)
        el.locator('[data-pe-input="model"]').select_option(model)
        el.locator('[data-pe-input="method"]').select_option(method)
        el.locator('[data-pe-input="factor"]').fill(f"{factor:g}")
        if method == "yarn":  # the config's own β and truncation (the widget's YaRN takes them from the config)
            own = {k: v for k, v in cfg["scaling"].items() if k in ("beta_fast", "beta_slow", "truncate")}
            after, attention = scaling.yarn(hd, theta, factor, cfg["scaling"]["original_max_position_embeddings"], **own)
        else:
            after, attention = (scaling.ntk_aware if method == "ntk" else scaling.linear)(hd, theta, factor)
        target = round(factor * L)
        beyond = scaling.pairs_beyond_trained_angles(before, after, L, factor)
        seen.add("overshoot" if beyond else "none overshoots")
        numbers = {"name": el.locator('[data-pe-input="model"] option:checked').inner_text(), "dims": f"{2 * len(before):,}",
                   "pairs": f"{len(before):,}", "theta": f"{theta:,.0f}", "L": f"{L:,}", "target": f"{target:,}",
                   "not_before": f"{rope.pairs_not_completing_turn(before, L):,}", "beyond": f"{beyond:,}" if beyond else beyond_none,
                   "worst": f"{np.nanmax(scaling.angle_overshoot(before, after, L, factor)):,.2f}", "attention": f"{attention:.4f}"}
        want = [w.format(**numbers) for w in SCALING_SUMMARY[lang][:2]]
        if method == "yarn":
            low, high = scaling.yarn_correction_range(hd, theta, cfg["scaling"]["original_max_position_embeddings"], **own)
            ends = {k: f"{v:,.0f}" if float(v).is_integer() else f"{v:,.2f}" for k, v in (("low", low), ("high", high))}
            seen.add("fractional band" if not float(low).is_integer() else "whole band")
            want.append(SCALING_SUMMARY[lang][2].format(**ends))
        assert el.locator(".pe-readout p").all_text_contents() == want, (model, method, factor)
    assert seen == {"overshoot", "none overshoots", "whole band", "fractional band"}  # both forms of the count and of the band were seen
    sp.assert_clean()


SCALING_TABLE = """el => [...el.querySelectorAll('tbody tr')].map(r => [...r.cells].map(c => [c.className, c.textContent]))"""


@pytest.mark.build
@pytest.mark.browser
def test_scaling_explorer_summary_and_table_name_every_pair_of_a_partly_rotary_model_too(visit, site_dir):
    """The summary gives the rotated dimensions (twice the pairs: a quarter or half of the head for a partly rotary
    model), θ and L; the band sentence appears for YaRN only; with s = 1 no pair overshoots. The table numbers its
    pairs 0 … n − 1, gives each period before, says yes or no in words beside its class, and writes — for the pairs
    that turn within L (nothing to overshoot) and n× after the overshoot of the others; its columns are headers."""
    sp, el = open_widget(visit, site_dir, "scaling-explorer")
    assert el.locator("thead th").evaluate_all("els => els.map(e => e.getAttribute('scope'))") == ["col"] * 9
    for key, method, factor in [("qwen3_8b", "yarn", "4"), ("glm45", "ntk", "8"), ("gpt_neox_20b", "linear", "1")]:
        el.locator('[data-pe-input="model"]').select_option(key)
        el.locator('[data-pe-input="method"]').select_option(method)
        el.locator('[data-pe-input="factor"]').fill(factor)
        cfg = configs.load(key)
        fraction = cfg.get("rotary_fraction", 1.0)
        before = rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"], fraction)
        n = len(before)
        assert value(el.locator('[data-pe-out="rotary-dim"]')) == 2 * n == round(cfg["head_dim"] * fraction)
        assert value(el.locator('[data-pe-out="theta"]')) == cfg["rope_theta"]
        assert value(el.locator('[data-pe-out="context"]')) == cfg["context"]
        assert el.locator(".pe-readout > div > p").count() == (3 if method == "yarn" else 2), (key, method)
        beyond = el.locator('[data-pe-out="beyond"]')
        # no pair overshooting is said in a word ("none of them" in English), not a number: no .pe-num then
        assert ("pe-num" in (beyond.get_attribute("class") or "")) == (beyond.get_attribute("data-value") != "0"), (key, factor)
        if factor == "1":
            assert beyond.get_attribute("data-value") == "0"
        np.testing.assert_allclose(values(el.locator('[data-pe-col="lambda"]')), rope.wavelengths(before), rtol=TOL)
        rows = el.evaluate(SCALING_TABLE)
        assert [r[0][1] for r in rows] == [str(i) for i in range(n)]
        for r in rows:
            for cls, text in r[6:8]:
                assert (cls, text) in (("pe-yes", "是"), ("pe-no", "否")), r
            never_turned = r[6][0] == "pe-no"  # the overshoot column has a number exactly where L held no full turn
            assert (r[8][1] == "—") == (not never_turned) and (r[8][1].endswith("×") == never_turned), r
    sp.assert_clean()


# The same bad inputs in each language (strings/<lang>.js): the factor box, and the last valid table stays.
BAD_SCALING_INPUT = {
    "zh": [
        ("factor", "", "请填写"),
        ("factor", "abc", "不是数字"),
        ("factor", "0.5", "不小于 1"),
        ("factor", "-2", "不能是负数"),
        ("factor", "65", "最大是 64"),
    ],
    "en": [
        ("factor", "", "Enter extension factor s (PI's and YaRN's config factor)."),
        ("factor", "abc", "Extension factor s (PI's and YaRN's config factor) must be a number"),
        ("factor", "0.5", "must be at least 1"),
        ("factor", "-2", "cannot be negative"),
        ("factor", "65", "at most 64"),
    ],
}


@pytest.mark.build
@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_scaling_explorer_bad_input_shows_message(visit, site_dir, lang):
    sp, el = open_widget(visit, site_dir, "scaling-explorer", lang)
    drive_bad_input(el, BAD_SCALING_INPUT[lang], lambda el: values(el.locator('[data-pe-col="omega-scaled"]')).tolist())
    check_display(el)
    if lang != "zh":  # a converted widget speaks only the page's language
        el.locator("details").first.evaluate("d => d.open = true")
        shown = el.locator(".pe-live").inner_text() + " ".join(
            el.locator(".pe-live [aria-label], .pe-live [title], .pe-live option").evaluate_all(
                "els => els.map(e => (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || '') + ' ' + e.textContent)"))
        assert not CJK_TEXT.search(shown), f"Chinese in the English scaling-explorer: {CJK_TEXT.findall(shown)[:10]}"
    sp.assert_clean()


@pytest.mark.build
@pytest.mark.browser
def test_scaling_explorer_has_a_legend_and_reference_labels_that_never_overlap(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "scaling-explorer")
    legend = el.locator(".pe-legend")
    expect(legend).to_be_visible()
    assert all(word in legend.inner_text() for word in ("扩展前", "扩展后", "虚线")), legend.inner_text()
    slider = el.locator('[data-pe-input="factor-slider"]')
    for factor in ("1", "1.2", "1.5", "2", "3", "4", "8", "64"):
        el.locator('[data-pe-input="factor"]').fill(factor)
        boxes = el.locator("[data-pe-ref]").evaluate_all("els => els.map(e => { const b = e.getBBox(); return [b.x, b.y, b.width, b.height]; })")
        assert len(boxes) == (1 if factor == "1" else 2), (factor, boxes)
        if len(boxes) == 2:
            (x1, y1, w1, h1), (x2, y2, w2, h2) = boxes
            apart = x1 + w1 <= x2 or x2 + w2 <= x1 or y1 + h1 <= y2 or y2 + h2 <= y1
            assert apart, f"s = {factor}: the labels L and s·L overlap ({boxes})"
        # the slider follows the box (to the nearest whole step)
        assert float(slider.input_value()) == pytest.approx(round(float(factor)), abs=0.5)
    sp.assert_clean()


@pytest.mark.build
@pytest.mark.browser
def test_scaling_explorer_slider_sets_the_factor_and_the_legend_swatches_are_the_plots(visit, site_dir):
    """Moving the slider sets s everywhere: the box shows it and the summary's s·L follows. The legend's swatches are
    what the plot draws, hidden from a screen reader (the legend's words say it): the dot before in the colour of the
    points before, the dot after in the colour of the points after (a different one), the dashed swatch in the
    reference lines' colour, dashed. The summary is announced; the table's numbers are right-aligned."""
    sp, el = open_widget(visit, site_dir, "scaling-explorer")
    L = int(value(el.locator('[data-pe-out="context"]')))
    for factor in (8, 3, 64):
        el.locator('[data-pe-input="factor-slider"]').fill(str(factor))
        assert float(el.locator('[data-pe-input="factor"]').input_value()) == factor
        assert value(el.locator('[data-pe-out="target"]')) == factor * L
    swatches = el.evaluate("""el => {
      const css = (sel, prop) => getComputedStyle(el.querySelector(sel))[prop];
      return {before: css('.pe-legend li:nth-child(1) span', 'backgroundColor'), after: css('.pe-legend li:nth-child(2) span', 'backgroundColor'),
              points: css('circle.pe-plot__point:not(.pe-plot__point--after)', 'fill'), points_after: css('circle.pe-plot__point--after', 'fill'),
              ref: [css('.pe-legend li:nth-child(3) span', 'borderTopColor'), css('.pe-legend li:nth-child(3) span', 'borderTopStyle')],
              ref_line: css('line.pe-plot__ref', 'stroke'),
              hidden: [...el.querySelectorAll('.pe-legend li span')].map(s => s.getAttribute('aria-hidden'))};
    }""")
    assert swatches["before"] == swatches["points"] != swatches["after"] == swatches["points_after"], swatches
    assert swatches["ref"] == [swatches["ref_line"], "dashed"], swatches
    assert swatches["hidden"] == ["true"] * 3, swatches
    assert el.locator(".pe-live .pe-readout").get_attribute("aria-live") == "polite"  # a new s is announced with its numbers
    # the table's numbers right-aligned under their headers, the pair's number on the left (the widgets' results table)
    aligned = el.evaluate("el => [...el.querySelector('.pe-live table').tBodies[0].rows[0].cells].map(c => getComputedStyle(c).textAlign)")
    assert aligned[0] == "left" and set(aligned[1:]) == {"right"}, aligned
    sp.assert_clean()


# Boxes that a button, a preset or a slider also sets, each with an entry written otherwise than the widget writes its
# value (a leading zero) and the readout that shows the value read (None: the widget prints no such number).
TYPED_AS_IS = {
    "sin-clock": [("position", "0300", "position")],
    "sin-heatmap": [("start", "08", "start")],
    "sin-dot": [("position", "0300", "position"), ("k", "010", "k")],
    "content-position": [("position", "012", "position")],
    "alibi-bias": [("distance", "016", "distance")],
    "scaling-explorer": [("factor", "04", None)],
}


@pytest.mark.build
@pytest.mark.browser
@pytest.mark.parametrize("name", sorted(TYPED_AS_IS), ids=lambda n: n.replace("-", "_"))
def test_a_box_the_reader_types_in_keeps_their_text(visit, site_dir, name):
    """Only a button, a preset or a slider rewrites such a box: typed a key at a time, it keeps the reader's own text
    (a box rewritten on each key would turn 0300 into 300 and move the caret), while the widget takes the value."""
    sp, el = open_widget(visit, site_dir, name)
    for field, typed, out in TYPED_AS_IS[name]:
        box = el.locator(f'[data-pe-input="{field}"]')
        box.fill("")
        box.press_sequentially(typed)
        assert box.input_value() == typed, (name, field)
        expect(el.locator(f'[data-pe-error="{field}"]')).to_be_hidden()
        if out is not None:
            assert value(el.locator(f'[data-pe-out="{out}"]')) == int(typed), (name, field)
    sp.assert_clean()


# The phone keyboard each number box needs: a decimal point where decimals are accepted, a minus sign (the full
# keyboard: inputmode text, since a numeric keypad has none on iOS) where a negative number is, else digits only.
KEYBOARD = {
    "sin-clock": {"position": "numeric", "d": "numeric", "base": "decimal"},
    "sin-heatmap": {"start": "numeric"},
    "sin-dot": {"position": "numeric", "k": "numeric"},
    "rope-pair": {"m": "numeric", "n": "numeric"},
    "scaling-explorer": {"factor": "decimal"},
    "alibi-bias": {"heads": "numeric", "distance": "numeric"},
    "t5-buckets": {"num-buckets": "numeric", "max-distance": "numeric", "distance": "text"},
    "content-position": {"position": "numeric"},
    "swap-attention": {"sentence": None},  # words: the default keyboard
}
BOXES = """el => [...el.querySelectorAll('input[type="text"][data-pe-input]')].map(e => ({
  name: e.dataset.peInput, mode: e.getAttribute('inputmode'),
  label: (document.querySelector(`label[for="${e.id}"]`) || {}).textContent || '',
  described: (e.getAttribute('aria-describedby') || '').split(' ').filter(Boolean).map(id => {
    const d = document.getElementById(id);
    return d ? [d.className, d.getAttribute('aria-live') || ''] : ['missing ' + id, ''];
  }),
}))"""


def check_boxes(el, name: str) -> None:
    """Each text box has a visible label tied to it (label for=), is described by its own error line, which a screen
    reader hears when it changes (aria-live), and by its hint where it has one (t5-buckets' distance: what m − n
    means); a number box asks a phone for the keyboard its numbers need (KEYBOARD)."""
    boxes = el.evaluate(BOXES)
    assert {b["name"]: b["mode"] for b in boxes} == KEYBOARD[name], name
    for b in boxes:
        assert b["label"].strip(), (name, b)
        kinds = [cls for cls, _ in b["described"]]
        assert "pe-field__error" in kinds and all(k in ("pe-field__error", "pe-field__hint") for k in kinds), (name, b)
        assert all(live == "polite" for cls, live in b["described"] if cls == "pe-field__error"), (name, b)
    hinted = [b["name"] for b in boxes if any(cls == "pe-field__hint" for cls, _ in b["described"])]
    assert hinted == (["distance"] if name == "t5-buckets" else []), (name, hinted)


SLIDER_PAIRS = {"sin-dot": "k", "scaling-explorer": "factor", "alibi-bias": "distance"}
CJK_LATIN = re.compile(r"[\u3400-\u9fff][A-Za-z0-9]|[A-Za-z0-9][\u3400-\u9fff]")
# For the spacing check: bad entries whose messages put the reader's entry or a number beside Chinese words.
SPACING_BAD_INPUTS = {
    "sin-clock": [("base", ""), ("d", "15"), ("position", "-1")],
    "sin-heatmap": [("start", "")],
    "sin-dot": [("k", "9999"), ("position", "")],
    "rope-pair": [("m", "")],
    "scaling-explorer": [("factor", ""), ("factor", "0.5")],
    "alibi-bias": [("heads", ""), ("heads", "0"), ("distance", "2.5")],
    "t5-buckets": [("num-buckets", ""), ("num-buckets", "1"), ("max-distance", "3"), ("distance", "x")],
    "content-position": [("position", ""), ("position", "-1")],
}


def check_slider(sp, el, name: str, data: str) -> None:
    """A slider and its text box take the same range: both ends of the slider are accepted by the box, one step past
    either end is refused by it with a message, and the keyboard's End takes the slider to its top with the box."""
    box = el.locator(f'[data-pe-input="{SLIDER_PAIRS[name]}"]')
    assert data == f"{SLIDER_PAIRS[name]}-slider", (name, data)
    sl = el.locator(f'[data-pe-input="{data}"]')
    lo, hi, step = (float(sl.get_attribute(a)) for a in ("min", "max", "step"))
    err = el.locator(f'[data-pe-error="{SLIDER_PAIRS[name]}"]')
    for v in (lo, hi):
        box.fill(f"{v:g}")
        expect(err).to_be_hidden()
        assert float(sl.input_value()) == v
    for v in (lo - step, hi + step):
        message = bad_input(el, SLIDER_PAIRS[name], f"{v:g}")
        assert re.search("最小是|最大是|不能是负数|不小于", message), (name, v, message)
    box.fill(f"{lo:g}")
    sl.focus()
    sp.page.keyboard.press("End")
    assert float(box.input_value()) == hi


def check_spacing(el, name: str) -> None:
    """The widget's text, and each error message it can show, has a space between Chinese and Latin/digits."""
    texts = [el.locator(".pe-live").inner_text()]
    for field, text in SPACING_BAD_INPUTS.get(name, []):
        texts.append(bad_input(el, field, text))
    for t in texts:
        t = re.sub(r"「[^」]*」", "「」", t)  # the reader's own text is quoted as typed
        if name == "swap-attention":  # the sentence and its characters are the reader's too
            t = re.sub(r"[\u3400-\u9fff]+ ?\d+→\d+|\d+：[\u3400-\u9fff]", "", t)
        found = CJK_LATIN.findall(t)
        assert not found, f"{name}: no space in {found} of {t[:400]!r}"


@pytest.mark.build
@pytest.mark.browser
def test_every_widget_spaces_chinese_from_latin_labels_its_boxes_and_matches_its_sliders(visit, site_dir):
    """Three checks every widget must pass, on one load of each lesson page (each_widget): its text and messages set
    Chinese and Latin apart (check_spacing), its text boxes are labelled and described and bring the right phone
    keyboard (check_boxes), and its sliders and their text boxes take the same range (check_slider). The spacing is
    read first, on the widget as it mounted."""
    sliders, boxed = [], set()
    for name, sp, el in each_widget(visit, site_dir):
        check_spacing(el, name)
        if name in KEYBOARD:
            check_boxes(el, name)
            boxed.add(name)
        for data in el.locator('input[type="range"]').evaluate_all("els => els.map(e => e.dataset.peInput)"):
            sliders.append((name, data))
            check_slider(sp, el, name, data)
        sp.assert_clean()
    assert sorted(n for n, _ in sliders) == sorted(SLIDER_PAIRS), sliders
    assert boxed == set(KEYBOARD), boxed


# --- lesson 3b -------------------------------------------------------------------------------------------


def _page_options(el, names):
    return {n: el.get_attribute(f"data-{n}") for n in names}


@pytest.mark.build
@pytest.mark.browser
def test_relative_bias_page_passes_the_figures_example_values(visit, site_dir):
    """The widgets start where their static figures are drawn (figures_src/lesson3b.py)."""
    sp, el = open_widget(visit, site_dir, "alibi-bias")
    assert _page_options(el, ["heads", "head", "distance", "span", "factor"]) == {
        "heads": str(relfig.ALIBI_HEADS), "head": str(relfig.ALIBI_HEAD), "distance": str(relfig.ALIBI_DISTANCE),
        "span": str(relfig.ALIBI_SPAN), "factor": str(relfig.ALIBI_FACTOR),
    }
    t5 = sp.page.locator('[data-pe-widget="t5-buckets"]')
    assert _page_options(t5, ["num-buckets", "max-distance", "bidirectional", "distance"]) == {
        "num-buckets": str(relfig.T5_NUM_BUCKETS), "max-distance": str(relfig.T5_MAX_DISTANCE),
        "bidirectional": str(relfig.T5_BIDIRECTIONAL).lower(), "distance": str(relfig.T5_DISTANCE),
    }
    assert el.locator(".pe-figure img").first.get_attribute("src").split("/")[-1].startswith("alibi_slopes_weights.")
    assert t5.locator(".pe-figure img").first.get_attribute("src").split("/")[-1].startswith("t5_bucket_staircase.")
    sp.assert_clean()


def check_alibi(el, n, h, r, factor):
    slopes = relative.alibi_slopes(n)
    got = values(el.locator('[data-pe-col="slope"]'))
    assert got.shape == (n,)
    np.testing.assert_array_equal(got, slopes)  # bit for bit
    np.testing.assert_array_equal(values(el.locator('[data-pe-col="reach"]')), [relative.alibi_reach(m, factor) for m in slopes])
    rows = el.locator("[data-pe-row]").evaluate_all("els => els.map(e => Number(e.dataset.peRow))")
    assert rows == list(range(1, n + 1))
    m = slopes[h - 1]
    assert value(el.locator('[data-pe-out="head"]')) == h
    assert value(el.locator('[data-pe-out="slope"]')) == m
    assert value(el.locator('[data-pe-out="distance"]')) == r
    assert value(el.locator('[data-pe-out="bias"]')) == relative.alibi_bias(n, 1, r + 1)[h - 1, 0, r]  # −m·|i − j| at i = 0, j = r
    assert value(el.locator('[data-pe-out="weight"]')) == pytest.approx(float(relative.alibi_weight_ratio(m, r)), rel=1e-15)
    assert value(el.locator('[data-pe-out="reach"]')) == relative.alibi_reach(m, factor)
    check_display(el)


@pytest.mark.build
@pytest.mark.browser
def test_alibi_bias_matches_posenc_relative(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "alibi-bias")
    page = sp.page
    factor = float(el.get_attribute("data-factor"))
    n, h, r = (int(el.get_attribute(f"data-{k}")) for k in ("heads", "head", "distance"))
    assert el.locator('[data-pe-input="heads"]').input_value() == str(n)
    assert el.locator('[data-pe-input="head"]').input_value() == str(h)
    check_alibi(el, n, h, r, factor)
    assert "是 2 的幂" in el.locator('[data-pe-out="rule"]').inner_text()
    # heads that are not a power of two: 12, and BLOOM's 112
    for heads, head in ((12, 10), (112, 112), (1, 1), (1024, 700)):
        el.locator('[data-pe-input="heads"]').fill(str(heads))
        el.locator('[data-pe-input="head"]').select_option(str(head))
        check_alibi(el, heads, head, r, factor)
        rule = el.locator('[data-pe-out="rule"]').inner_text()
        assert ("不是 2 的幂" in rule) == (heads & (heads - 1) != 0), rule
    assert el.locator(".pe-plot__point--extra").count() == 0  # 1,024 is a power of two: no added heads
    el.locator('[data-pe-input="heads"]').fill("112")
    assert el.locator(".pe-plot__point--extra").count() == 112 - 64
    # fewer heads than the head shown: said, not silent
    el.locator('[data-pe-input="head"]').select_option("100")
    el.locator('[data-pe-input="heads"]').fill("12")
    expect(el.locator("[data-pe-status]")).to_contain_text("第 100 个头")
    check_alibi(el, 12, 12, r, factor)
    # the distance: the keyboard on the slider moves it, the box follows
    slider = el.locator('[data-pe-input="distance-slider"]')
    slider.focus()
    page.keyboard.press("ArrowRight")
    check_alibi(el, 12, 12, r + 1, factor)
    assert el.locator('[data-pe-input="distance"]').input_value() == str(r + 1)
    el.locator('[data-pe-input="distance"]').fill("0")
    check_alibi(el, 12, 12, 0, factor)
    assert value(el.locator('[data-pe-out="weight"]')) == 1.0
    sp.assert_clean()


BAD_ALIBI_INPUT = {
    "zh": [
        ("heads", "", "请填写头数 H"),
        ("heads", "0", "最小是 1"),
        ("heads", "-4", "不能是负数"),
        ("heads", "2.5", "整数"),
        ("heads", "abc", "不是数字"),
        ("heads", "5000", "最大是 1,024"),
        ("distance", "-1", "不能是负数"),
        ("distance", "1.5", "整数"),
        ("distance", "100000", "最大是"),
    ],
    "en": [
        ("heads", "", "Enter number of heads H."),
        ("heads", "0", "is at least 1"),
        ("heads", "-4", "cannot be negative"),
        ("heads", "2.5", "whole number"),
        ("heads", "abc", "must be a number"),
        ("heads", "5000", "is at most 1,024"),
        ("distance", "-1", "cannot be negative"),
        ("distance", "1.5", "whole number"),
        ("distance", "100000", "is at most"),
    ],
}


# alibi-bias' own words (strings/<lang>/alibi-bias.js) in its table, head picker, legend and notes.
ALIBI_WORDS = {
    "zh": {"caption": "{n} 个头的斜率；“压到 1/{f}”的距离", "extra": "；＊：H 不是 2 的幂时补上的头", "mark": "＊",
           "headers": ["头 h", "斜率 a_h", "1/a_h", "压到 1/{f} 的距离"], "option": "第 {h} 个头（a_h = ", "beyond": "（比图的横轴 {span} 还远）",
           "legend": ["所选的头", "其他头", "1/{f} 和它的距离"], "gone": "第 {h} 个头"},
    "en": {"caption": "Slopes for H = {n}; the distance to 1/{f}", "extra": "; *: a head added because H is not a power of 2", "mark": "*",
           "headers": ["head h", "slope a_h", "1/a_h", "distance to 1/{f}"], "option": "head {h} (a_h = ", "beyond": " (beyond the end of the plots' axis, {span})",
           "legend": ["the chosen head", "other heads", "1/{f} and its distance"], "gone": "Head {h} does not exist"},
}
ALIBI_TABLE = """el => ({
  caption: el.querySelector('table caption').textContent,
  cols: [...el.querySelectorAll('thead th')].map(th => [th.getAttribute('scope'), th.textContent]),
  rows: [...el.querySelectorAll('tbody th')].map(th => [th.getAttribute('scope'), th.textContent]),
  options: [...el.querySelectorAll('[data-pe-input="head"] option')].map(o => [o.value, o.textContent]),
})"""


@pytest.mark.build
@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_alibi_bias_table_picker_and_notes_say_which_heads_were_added_and_where_1_f_falls(visit, site_dir, lang):
    """The table's caption names H and f and, when H is not a power of 2, what the mark on the added heads means; its
    columns and each row's head are headers (scoped); the head picker lists every head with its slope; the legend
    names f; the readout says when the distance to 1/f lies beyond the plots' axis; picking a head clears the note
    that the head shown had gone."""
    words = ALIBI_WORDS[lang]
    sp, el = open_widget(visit, site_dir, "alibi-bias", lang)
    span, f = int(el.get_attribute("data-span")), el.get_attribute("data-factor")
    assert [li.strip() for li in el.locator(".pe-legend li").all_inner_texts()] == [w.format(f=f) for w in words["legend"]]
    for n in (8, 12, 1):
        el.locator('[data-pe-input="heads"]').fill(str(n))
        slopes = relative.alibi_slopes(n)
        p = 2 ** int(math.log2(n))
        shown = el.evaluate(ALIBI_TABLE)
        assert shown["caption"].startswith(words["caption"].format(n=n, f=f)) and (words["extra"] in shown["caption"]) == (n != p), shown["caption"]
        assert shown["cols"] == [["col", w.format(f=f)] for w in words["headers"]]
        assert shown["rows"] == [["row", f"{i + 1}{words['mark'] if i >= p else ''}"] for i in range(n)]
        assert [o[0] for o in shown["options"]] == [str(i + 1) for i in range(n)]
        for i, ((_, text), m) in enumerate(zip(shown["options"], slopes)):
            assert text.startswith(words["option"].format(h=i + 1)), text
            got, tol = parse_display(text[len(words["option"].format(h=i + 1)):].rstrip("）)"))
            assert abs(got - m) <= tol, (text, m)
        for h in (1, n):
            el.locator('[data-pe-input="head"]').select_option(str(h))
            reach = relative.alibi_reach(slopes[h - 1], float(f))
            readout = el.locator(".pe-readout").inner_text()
            assert (words["beyond"].format(span=f"{span:,}") in readout) == (reach > span), (n, h, reach, readout)
    el.locator('[data-pe-input="heads"]').fill("8")
    el.locator('[data-pe-input="head"]').select_option("8")
    el.locator('[data-pe-input="heads"]').fill("4")
    expect(el.locator("[data-pe-status]")).to_contain_text(words["gone"].format(h=8))
    el.locator('[data-pe-input="head"]').select_option("2")
    expect(el.locator("[data-pe-status]")).to_have_text("")
    sp.assert_clean()


def assert_no_chinese(el, name):
    """A converted widget on an English page shows no Chinese: its text, and its labels for screen readers."""
    shown = el.locator(".pe-live").inner_text() + " ".join(
        el.locator(".pe-live [aria-label], .pe-live [title]").evaluate_all(
            "els => els.map(e => (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || ''))"))
    assert not CJK_TEXT.search(shown), f"Chinese in the English {name}: {CJK_TEXT.findall(shown)[:10]}"


@pytest.mark.build
@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_alibi_bias_bad_input_shows_a_message_and_keeps_the_last_result(visit, site_dir, lang):
    sp, el = open_widget(visit, site_dir, "alibi-bias", lang)
    drive_bad_input(el, BAD_ALIBI_INPUT[lang],
                    lambda el: (values(el.locator('[data-pe-col="slope"]')).tolist(), value(el.locator('[data-pe-out="bias"]'))))
    check_display(el)
    if lang != "zh":
        el.locator('[data-pe-input="heads"]').fill("12")  # not a power of two: the added heads' mark and rule show
        assert_no_chinese(el, "alibi-bias")
    sp.assert_clean()


# The words of t5-buckets' readout for each region (strings/<lang>.js), in each language.
T5_REGION_WORDS = {
    "zh": {"after": "查询后面的键都进桶 0", "exact": "精确区", "last": "最后一个桶", "log": "对数区"},
    "en": {"after": "every key after the query goes into bucket 0", "exact": "Exact range", "last": "The last bucket", "log": "Logarithmic range"},
}


def check_t5(el, nb, md, bi, dist, lang="zh"):
    """The widget looked up the distance ``dist`` = m − n, as lesson 3b writes it (positive: the key is before the
    query); T5's code, and posenc.relative.t5_bucket after it, take the relative position n − m."""
    rel = -dist
    bucket = int(relative.t5_bucket(np.array(rel), bi, nb, md))
    assert value(el.locator('[data-pe-out="distance"]')) == dist
    assert value(el.locator('[data-pe-out="bucket"]')) == bucket
    edges = relative.t5_bucket_edges(bi, nb, md)
    firsts = values(el.locator('[data-pe-col="first"]'))
    lasts = values(el.locator('[data-pe-col="last"]'))
    widths = values(el.locator('[data-pe-col="width"]'))
    np.testing.assert_array_equal(firsts, [e[1] for e in edges])
    np.testing.assert_array_equal(lasts, [e[2] for e in edges[:-1]])  # the last bucket has no end
    np.testing.assert_array_equal(widths, [e[2] - e[1] + 1 for e in edges[:-1]])
    rows = el.locator("[data-pe-row]").evaluate_all("els => els.map(e => Number(e.dataset.peRow))")
    assert rows == [e[0] for e in edges]
    one_side = nb // 2 if bi else nb
    assert value(el.locator('[data-pe-out="one-side"]')) == one_side
    assert value(el.locator('[data-pe-out="exact-end"]')) == one_side // 2 - 1
    assert value(el.locator('[data-pe-out="last-first"]')) == edges[-1][1]
    # the looked-up bucket's own range of distances, on its side
    own = bucket - one_side if (bi and rel > 0) else bucket
    first, last = next((f, l) for b, f, l in edges if b == own)
    r = abs(rel) if bi or rel <= 0 else 0
    text = el.locator(".pe-readout").inner_text()
    words = T5_REGION_WORDS[lang]
    if rel > 0 and not bi:
        assert bucket == 0 and words["after"] in text, text
        return check_display(el)
    assert value(el.locator('[data-pe-out="bucket-first"]')) == first
    if r < one_side // 2:
        assert first == last == r and words["exact"] in text, text
    elif own == edges[-1][0]:
        assert first <= r and words["last"] in text, text
    else:
        assert value(el.locator('[data-pe-out="bucket-last"]')) == last
        assert first <= r <= last and words["log"] in text, text
    check_display(el)


@pytest.mark.build
@pytest.mark.browser
def test_t5_buckets_match_posenc_relative(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "t5-buckets")
    nb, md, dist = (int(el.get_attribute(f"data-{k}")) for k in ("num-buckets", "max-distance", "distance"))
    bi = el.get_attribute("data-bidirectional") == "true"
    assert el.locator(f'[data-pe-input="bidirectional-{str(bi).lower()}"]').is_checked()
    check_t5(el, nb, md, bi, dist)
    box = el.locator('[data-pe-input="distance"]')
    for r in (0, -1, 1, -7, 8, -8, -20, 127, 128, 129, -5000, 10**9):
        box.fill(str(r))
        check_t5(el, nb, md, bi, r)
    el.locator('[data-pe-input="bidirectional-false"]').check()
    for r in (20, -20, 15, 16, 128, 0):
        box.fill(str(r))
        check_t5(el, nb, md, False, r)
    # another setting, typed: one where a float64 logarithm would put r = 8, 16 and 64 in a lower bucket
    el.locator('[data-pe-input="num-buckets"]').fill("9")
    for r in (8, 16, 64, 65):
        box.fill(str(r))
        check_t5(el, 9, md, False, r)
    el.locator('[data-pe-input="bidirectional-true"]').check()
    el.locator('[data-pe-input="num-buckets"]').fill("64")
    el.locator('[data-pe-input="max-distance"]').fill("1000")
    box.fill("-300")
    check_t5(el, 64, 1000, True, -300)
    # an odd count, both ways: T5's code halves it rounding down (3 a side, one bucket never used), and the one exact
    # bucket is named as one, not as the range "0 … 0"
    el.locator('[data-pe-input="num-buckets"]').fill("7")
    box.fill("5")
    check_t5(el, 7, 1000, True, 5)
    summary = el.locator(".pe-readout").inner_text()
    # T5's code (bidirectional) halves 7 to 3 a side: buckets 0-2 and 3-5, so the last bucket, 6, is never used
    assert "7 是奇数" in summary and "最后一个桶 6 用不到" in summary and "精确桶只有桶 0，只管距离 0（" in summary, summary
    assert "0 … 0" not in summary and "为止" not in summary.split("精确桶只有桶 0")[1].split("；")[0], summary
    el.locator('[data-pe-input="num-buckets"]').fill("8")
    assert "奇数" not in el.locator(".pe-readout").inner_text()
    sp.assert_clean()


# t5-buckets' own words (strings/<lang>/t5-buckets.js) that a reader and a screen reader meet in its table and readout.
T5_WORDS = {
    "zh": {"title": "T5 的哪个桶", "legend": "方向", "radios": ["双向", "单向"], "headers": ["桶", "距离从", "到", "个数", "区"],
           "caption": "键在查询前面的一侧", "exact": "精确", "log": "对数", "farther": "更远", "other_half": "桶号加 {n}",
           "empty": "有 {n} 个桶一个距离也分不到", "kept": "num_buckets = {nb}、max_distance = {md}、{way}、距离 {rel}",
           "ways": ("双向", "单向"), "half": "（桶数的一半）", "per_side": "每个方向"},
    "en": {"title": "which of T5's buckets", "legend": "Direction", "radios": ["bidirectional", "unidirectional"],
           "headers": ["bucket", "from distance", "to", "count", "range"], "caption": "Keys before the query", "exact": "exact",
           "log": "logarithmic", "farther": "farther", "other_half": "add {n} to the bucket number",
           "empty": "Buckets that get no distance at all: {n}.", "kept": "num_buckets = {nb}, max_distance = {md}, {way}, distance {rel}",
           "ways": ("bidirectional", "unidirectional"), "half": "(half the buckets)", "per_side": "in each direction"},
}
T5_TABLE = """el => ({
  caption: el.querySelector('table caption').textContent,
  cols: [...el.querySelectorAll('thead th')].map(th => [th.getAttribute('scope'), th.textContent]),
  rows: [...el.querySelectorAll('tbody tr')].map(tr => [tr.querySelector('th').getAttribute('scope'),
    ...[...tr.children].map(c => c.textContent)]),
})"""


@pytest.mark.build
@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_t5_buckets_table_and_readout_say_each_buckets_range_in_words(visit, site_dir, lang):
    """The table names its columns and each row's bucket as headers (scoped for a screen reader), says in words which
    range each bucket is in (exact, logarithmic, and from where the last one holds everything farther: ∞ of them);
    the readout is announced (aria-live), says that a key after the query uses the other half of the buckets (only
    bidirectional), and says how many buckets get no distance when max_distance sits close to max_exact; a bad entry
    in the causal mode names that mode among the inputs kept."""
    words = T5_WORDS[lang]
    sp, el = open_widget(visit, site_dir, "t5-buckets", lang)
    assert words["title"] in el.locator(".pe-live__title").inner_text()
    assert el.locator("fieldset legend").inner_text() == words["legend"]
    assert [words["radios"][0] in t for t in el.locator("fieldset label").all_inner_texts()] == [True, False]
    assert [words["radios"][1] in t for t in el.locator("fieldset label").all_inner_texts()] == [False, True]
    assert el.locator(".pe-readout").get_attribute("aria-live") == "polite"
    box = el.locator('[data-pe-input="distance"]')
    for bi, nb, md in [("true", 32, 128), ("false", 20, 17), ("true", 32, 9)]:
        el.locator(f'[data-pe-input="bidirectional-{bi}"]').check()
        el.locator('[data-pe-input="num-buckets"]').fill(str(nb))
        el.locator('[data-pe-input="max-distance"]').fill(str(md))
        both = bi == "true"
        one_side = nb // 2 if both else nb
        max_exact = one_side // 2
        edges = relative.t5_bucket_edges(both, nb, md)
        shown = el.evaluate(T5_TABLE)
        assert words["caption"] in shown["caption"]
        assert shown["cols"] == [["col", w] for w in words["headers"]]
        want = [["row", f"{b:,}", f"{first:,}", f"{last:,}", f"{last - first + 1:,}", words["exact"] if b < max_exact else words["log"]]
                for b, first, last in edges[:-1]]
        b, first, _ = edges[-1]
        want.append(["row", f"{b:,}", f"{first:,}", words["farther"], "∞", f"≥ {first:,}"])
        assert shown["rows"] == want, (bi, nb, md)
        box.fill("-3")
        readout = el.locator(".pe-readout").inner_text()
        assert (words["other_half"].format(n=one_side) in readout) == both, readout
        box.fill("3")
        assert words["other_half"].format(n=one_side) not in el.locator(".pe-readout").inner_text()
        unused = one_side - len(edges)  # buckets of this side that no distance reaches
        assert (words["empty"].format(n=unused) in el.locator(".pe-readout").inner_text()) == (unused > 0), (bi, nb, md, unused)
    assert unused == 6  # the last setting leaves buckets empty: the sentence above was seen
    el.locator('[data-pe-input="max-distance"]').fill("20")
    el.locator('[data-pe-input="bidirectional-false"]').check()  # causal, 32 buckets: max_exact = 16 < 20 fits
    el.locator('[data-pe-input="max-distance"]').fill("16")  # max_exact = 16 leaves no logarithmic range
    message = el.locator('[data-pe-error="max-distance"]').inner_text()
    assert words["kept"].format(nb=32, md=20, way=words["ways"][1], rel=3) in message, message
    assert words["half"] in message and words["per_side"] not in message, message  # causal: one direction, all buckets
    el.locator('[data-pe-input="bidirectional-true"]').check()
    el.locator('[data-pe-input="max-distance"]').fill("8")  # bidirectional: 16 buckets a side, max_exact = 8
    assert words["per_side"] in el.locator('[data-pe-error="max-distance"]').inner_text()
    sp.assert_clean()


BAD_T5_INPUT = {
    "zh": [
        ("num-buckets", "", "请填写桶数 num_buckets"),
        ("num-buckets", "1", "最小是 2"),
        ("num-buckets", "0", "最小是 2"),
        ("num-buckets", "32.5", "整数"),
        ("num-buckets", "3", "精确桶"),  # bidirectional: one bucket per direction, none exact
        ("max-distance", "8", "max_exact = 8"),  # 32 buckets, bidirectional: max_exact = 8
        ("max-distance", "2", "max_exact"),
        ("max-distance", "128.5", "整数"),
        ("max-distance", "0", "最小是 1"),
        ("max-distance", "2000000", "最大是"),
        ("distance", "1.5", "整数"),
        ("distance", "", "请填写距离 m − n"),
    ],
    "en": [
        ("num-buckets", "", "Enter number of buckets num_buckets."),
        ("num-buckets", "1", "is at least 2"),
        ("num-buckets", "0", "is at least 2"),
        ("num-buckets", "32.5", "whole number"),
        ("num-buckets", "3", "no exact bucket in each direction"),
        ("max-distance", "8", "max_exact = 8"),
        ("max-distance", "2", "max_exact"),
        ("max-distance", "128.5", "whole number"),
        ("max-distance", "0", "is at least 1"),
        ("max-distance", "2000000", "is at most"),
        ("distance", "1.5", "whole number"),
        ("distance", "", "Enter distance m − n"),
    ],
}


@pytest.mark.build
@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_t5_buckets_bad_input_shows_a_message_never_a_clamp(visit, site_dir, lang):
    sp, el = open_widget(visit, site_dir, "t5-buckets", lang)
    drive_bad_input(el, BAD_T5_INPUT[lang],
                    lambda el: (values(el.locator('[data-pe-col="first"]')).tolist(), value(el.locator('[data-pe-out="bucket"]'))))
    # a reader's path: down from a valid 9 to 8 = max_exact; the box says why, the last valid result stays
    el.locator('[data-pe-input="max-distance"]').fill("9")
    expect(el.locator('[data-pe-error="max-distance"]')).to_be_hidden()
    nine = values(el.locator('[data-pe-col="first"]')).tolist()
    el.locator('[data-pe-input="max-distance"]').fill("8")
    expect(el.locator('[data-pe-error="max-distance"]')).to_contain_text("max_exact = 8")
    assert el.locator('[data-pe-input="max-distance"]').get_attribute("aria-invalid") == "true"
    assert values(el.locator('[data-pe-col="first"]')).tolist() == nine
    # switching to causal makes max_exact 16: a max_distance of 12 that fitted both ways no longer does
    el.locator('[data-pe-input="max-distance"]').fill("12")
    expect(el.locator('[data-pe-error="max-distance"]')).to_be_hidden()
    el.locator('[data-pe-input="bidirectional-false"]').check()
    expect(el.locator('[data-pe-error="max-distance"]')).to_contain_text("max_exact = 16")
    el.locator('[data-pe-input="bidirectional-true"]').check()
    expect(el.locator('[data-pe-error="max-distance"]')).to_be_hidden()
    check_t5(el, 32, 12, True, int(el.locator('[data-pe-input="distance"]').input_value()), lang)
    # typed a key at a time, 64 passes through 6, which fits max_distance 10 and is drawn; 64 does not fit: the message
    # names every input the result below was drawn from, 6 included, not only the box it sits on
    el.locator('[data-pe-input="max-distance"]').fill("10")
    nb_box = el.locator('[data-pe-input="num-buckets"]')
    nb_box.fill("")
    nb_box.press_sequentially("64")
    expect(el.locator('[data-pe-error="max-distance"]')).to_contain_text("num_buckets = 6")
    expect(el.locator('[data-pe-error="max-distance"]')).to_contain_text("max_distance = 10")
    assert value(el.locator('[data-pe-out="one-side"]')) == 3  # what is drawn is num_buckets = 6
    if lang != "zh":
        assert_no_chinese(el, "t5-buckets")
    sp.assert_clean()


# t5-buckets' lookup sentence as its string tables word it (typed here): the key's side, the bucket, and the range that
# bucket holds.
T5_LOOKUP = {
    "zh": {"sentence": "m − n = {d}：{side}，进桶 {b}。{where}{other}",
           "before": "键在查询前面 {r} 个 token", "self": "键就是查询自己", "after": "键在查询后面 {r} 个 token",
           "exact": "精确区：一个距离一个桶（这个桶只管距离 {first}）。",
           "log": "对数区：这个桶管距离 {first} … {last}，共 {n} 个距离共用一个数。",
           "last": "最后一个桶：距离 {first} 起，包括 max_distance = {md} 和更远的，都在这里，不再区分。",
           "causal": "单向模式下，查询后面的键都进桶 0，和距离 0 同桶（因果掩码反正会遮住它们）。",
           "other": "（查询后面的键用另一半桶：桶号加 {n}。）"},
    "en": {"sentence": "m − n = {d}: {side}; it goes into bucket {b}. {where}{other}",
           "before": "the key is before the query, at distance {r}", "self": "the key is the query itself",
           "after": "the key is after the query, at distance {r}",
           "exact": "Exact range: one bucket per distance (this bucket holds only distance {first}).",
           "log": "Logarithmic range: this bucket holds distances {first} … {last}, {n} in all, sharing one number.",
           "last": "The last bucket: from distance {first} on, max_distance = {md} and everything farther all land here, no longer told apart.",
           "causal": "In the unidirectional mode every key after the query goes into bucket 0, the bucket of distance 0 (the causal mask hides them anyway).",
           "other": " (Keys after the query use the other half of the buckets: add {n} to the bucket number.)"},
}


def _int_text(n: int) -> str:
    """A whole number as the widgets print it: format.js formatInt mirrors the prose's formatter (commas, a true minus)."""
    return format_value(int(n), ",")


@pytest.mark.build
@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_t5_buckets_lookup_says_the_side_the_bucket_and_its_range_word_for_word(visit, site_dir, lang):
    """The readout's first sentence, whole: which side of the query the key is on and how far (or that it is the query
    itself), the bucket posenc gives, and the distances that bucket holds: the one distance of an exact bucket, first …
    last and how many of a logarithmic one, where the last bucket starts; a key after the query takes the other half of
    the buckets (bidirectional) or bucket 0 (unidirectional). check_t5 reads the numbers; this reads the words around them."""
    words = T5_LOOKUP[lang]
    sp, el = open_widget(visit, site_dir, "t5-buckets", lang)
    box, regions = el.locator('[data-pe-input="distance"]'), set()
    for bi, nb, md, dist in [(True, 32, 128, 0), (True, 32, 128, 5), (True, 32, 128, -5), (True, 32, 128, 20), (True, 32, 128, -20),
                             (True, 32, 128, 1000), (True, 32, 128, -1000), (False, 32, 128, -3), (False, 32, 128, 100), (False, 20, 17, 9)]:
        el.locator(f'[data-pe-input="bidirectional-{str(bi).lower()}"]').check()
        el.locator('[data-pe-input="num-buckets"]').fill(str(nb))
        el.locator('[data-pe-input="max-distance"]').fill(str(md))
        box.fill(str(dist))
        one_side = nb // 2 if bi else nb
        bucket = int(relative.t5_bucket(np.array(-dist), bi, nb, md))  # posenc takes n − m
        edges = relative.t5_bucket_edges(bi, nb, md)
        if dist < 0 and not bi:
            region, where = "causal", words["causal"]
        else:
            own = bucket - one_side if dist < 0 else bucket  # the other half's bucket, on the keys-before side
            _, first, last = next(e for e in edges if e[0] == own)
            if abs(dist) < one_side // 2:
                region, where = "exact", words["exact"].format(first=_int_text(first))
            elif own == edges[-1][0]:
                region, where = "last", words["last"].format(first=_int_text(first), md=_int_text(md))
            else:
                region, where = "log", words["log"].format(first=_int_text(first), last=_int_text(last), n=_int_text(last - first + 1))
        side = words["before" if dist > 0 else "self" if dist == 0 else "after"].format(r=_int_text(abs(dist)))
        other = words["other"].format(n=_int_text(one_side)) if dist < 0 and bi else ""
        want = words["sentence"].format(d=_int_text(dist), side=side, b=_int_text(bucket), where=where, other=other)
        assert el.locator(".pe-readout p").first.text_content() == want, (bi, nb, md, dist)
        regions.add(region)
    assert regions == {"exact", "log", "last", "causal"}
    sp.assert_clean()


# t5-buckets' summary sentence as its string tables word it (typed here): how the buckets split, the exact range, the
# second-to-last bucket's width where it is logarithmic, where the last bucket starts, and the buckets left unused.
T5_SUMMARY = {
    "zh": {"bi": "双向：{nb} 个桶对半分，每个方向 {side}", "uni": "单向：{side}",
           "exact": " 个桶。精确桶 0 … {last} 各管一个距离，精确区到距离 {last} 为止（max_exact = {max_exact}）；",
           "exact_one": " 个桶。精确桶只有桶 0，只管距离 0（max_exact = 1）；",
           "widest": "对数桶越往后越宽，倒数第二个桶已经管 {n} 个距离；", "last": "最后一个桶从距离 {first} 起收下所有更远的距离。",
           "empty": "（有 {n} 个桶一个距离也分不到：max_distance 离 max_exact 太近，对数区太窄。）",
           "odd": "（{nb} 是奇数，对半分时向下取整：最后一个桶 {last} 用不到。）"},
    "en": {"bi": "Bidirectional: {nb} buckets split between the two directions, so each direction has {side}",
           "uni": "Unidirectional, one direction only: {side}",
           "exact": " buckets. The exact buckets 0 … {last} hold one distance each, so the exact range ends at distance {last} (max_exact = {max_exact}); ",
           "exact_one": " buckets. The only exact bucket is bucket 0, which holds distance 0 (max_exact = 1); ",
           "widest": "the logarithmic buckets widen as they go (distances in the second-to-last: {n}); ",
           "last": "the last bucket takes every distance from {first} on.",
           "empty": " (Buckets that get no distance at all: {n}. max_distance is too close to max_exact, so the logarithmic range is too narrow.)",
           "odd": " ({nb} is odd: the split rounds down, and the last bucket, {last}, is never used.)"},
}


@pytest.mark.build
@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_t5_buckets_summary_says_how_the_buckets_split_word_for_word(visit, site_dir, lang):
    """The readout's second sentence, whole, from posenc's bucket edges: the buckets of one direction (half of them,
    rounded down, bidirectional), the exact range and max_exact (one exact bucket named as one), the second-to-last
    bucket's width where it is a logarithmic one, the last bucket's first distance, how many buckets get no distance,
    and an odd count's unused bucket."""
    words = T5_SUMMARY[lang]
    sp, el = open_widget(visit, site_dir, "t5-buckets", lang)
    el.locator('[data-pe-input="distance"]').fill("3")
    seen = set()
    # (True, 4, 100): two buckets a side, the exact one and the last, so no logarithmic bucket comes before the last
    for bi, nb, md in [(True, 32, 128), (False, 32, 128), (True, 7, 1000), (True, 32, 9), (False, 4, 100), (True, 16, 20), (True, 4, 100)]:
        el.locator(f'[data-pe-input="bidirectional-{str(bi).lower()}"]').check()
        el.locator('[data-pe-input="max-distance"]').fill("1000")  # fits every count below, whatever came before
        el.locator('[data-pe-input="num-buckets"]').fill(str(nb))
        el.locator('[data-pe-input="max-distance"]').fill(str(md))
        one_side = nb // 2 if bi else nb
        max_exact = one_side // 2
        edges = relative.t5_bucket_edges(bi, nb, md)
        want = words["bi" if bi else "uni"].format(nb=_int_text(nb), side=_int_text(one_side))
        want += words["exact_one"] if max_exact == 1 else words["exact"].format(last=_int_text(max_exact - 1), max_exact=_int_text(max_exact))
        if edges[-2][0] >= max_exact:  # the bucket before the last is a logarithmic one
            want += words["widest"].format(n=_int_text(edges[-2][2] - edges[-2][1] + 1))
            seen.add("widest")
        else:
            seen.add("no widest")
        want += words["last"].format(first=_int_text(edges[-1][1]))
        if len(edges) < one_side:
            want += words["empty"].format(n=_int_text(one_side - len(edges)))
            seen.add("empty")
        if bi and nb % 2:
            want += words["odd"].format(nb=_int_text(nb), last=_int_text(nb - 1))
            seen.add("odd")
        seen.add("exact_one" if max_exact == 1 else "exact")
        assert el.locator(".pe-readout p").nth(1).text_content() == want, (bi, nb, md)
    assert seen == {"widest", "no widest", "empty", "odd", "exact_one", "exact"}
    sp.assert_clean()


# Page options that are whole numbers but do not fit, each with the reason the widget gives (zh string table): too few
# buckets, none of them exact, a max_distance not past the exact range (max_exact, half the buckets of one direction).
T5_PAGE_MISFITS = [
    ({"num-buckets": "1"}, "num_buckets 要是不小于 2 的整数，收到 1"),
    ({"num-buckets": "2"}, "num_buckets = 2 时每个方向一个精确桶也没有"),
    ({"num-buckets": "4", "max-distance": "1"}, "max_distance = 1 要大于精确区的长度 max_exact = 1（每个方向桶数的一半）"),
    ({"num-buckets": "2", "bidirectional": "false", "max-distance": "1"}, "max_distance = 1 要大于精确区的长度 max_exact = 1（桶数的一半）"),
    ({"max-distance": "0"}, "max_distance 要是不小于 1 的整数，收到 0"),
    ({"max-distance": "1", "bidirectional": "false"}, "max_distance = 1 要大于精确区的长度 max_exact = 16（桶数的一半）"),
]


@pytest.mark.build
@pytest.mark.browser
def test_t5_buckets_names_each_misfit_for_its_own_reason_on_the_field_at_fault(visit, site_dir):
    """A page option that does not fit stops the widget with its own reason (not another check's); a typed entry that
    does not fit shows its message on the field at fault and on no other; the fields are labelled; the table's numbers
    are right-aligned, the direction's radio buttons framed with a quiet caption, and the plot's caption upright and
    quiet, as in the other widgets."""
    sp, el = open_widget(visit, site_dir, "t5-buckets")
    full = _macro_attributes("t5-buckets")
    for options, reason in T5_PAGE_MISFITS:
        error, shown = sp.page.evaluate(MOUNT_BARE, ["t5-buckets", {**full, **{f"data-{k}": v for k, v in options.items()}}])
        assert error != "mounted" and reason in shown, (options, shown)
    assert [t.strip() for t in el.locator(".pe-field label").all_text_contents()] == ["桶数 num_buckets", "max_distance", "距离 m − n"]
    fields = ("num-buckets", "max-distance", "distance")

    def errors():
        return {f: el.locator(f'[data-pe-error="{f}"]').text_content() for f in fields}

    goods = {"num-buckets": "32", "max-distance": "128", "distance": "3"}
    for field in fields:  # an empty box, then a good entry in another: the widget reads all three, and draws nothing
        other = next(f for f in fields if f != field)
        el.locator(f'[data-pe-input="{field}"]').fill("")
        el.locator(f'[data-pe-input="{other}"]').fill(goods[other])
        shown = errors()
        # the box's own message ("fill in …"), still after the good entry elsewhere, and on no other box
        assert shown[field].startswith("请填写") and not any(shown[f] for f in fields if f != field), (field, other, shown)
        el.locator(f'[data-pe-input="{field}"]').fill(goods[field])
    el.locator('[data-pe-input="bidirectional-true"]').check()
    el.locator('[data-pe-input="num-buckets"]').fill("4")  # two a side, max_exact = 1: max_distance 128 fits
    assert not any(errors().values()), errors()
    el.locator('[data-pe-input="max-distance"]').fill("1")
    shown = errors()
    assert "max_distance = 1 要大于精确区的长度 max_exact = 1" in shown["max-distance"] and not shown["num-buckets"], shown
    el.locator('[data-pe-input="max-distance"]').fill("128.5")  # the box's own check, before the fit of the three
    assert "max_distance 要是整数，收到 128.5。" in errors()["max-distance"], errors()
    el.locator('[data-pe-input="max-distance"]').fill("128")
    style = el.evaluate("""el => {
      const css = (e) => getComputedStyle(e);
      const live = el.querySelector('.pe-live');  // not the static figure the widget replaces
      const table = live.querySelector('table'), row = table.tBodies[0].rows[0];
      const radios = live.querySelector('fieldset'), caption = live.querySelector('figure figcaption');
      return {first: css(row.cells[0]).textAlign, numbers: [...row.cells].slice(1, 4).map(c => css(c).textAlign),
              border: [css(radios).borderTopStyle, css(radios).borderTopWidth],
              legend: parseFloat(css(radios.querySelector('legend')).fontSize), label: parseFloat(css(radios.querySelector('label')).fontSize),
              caption: css(caption).fontStyle, colours: [css(caption).color, css(radios.querySelector('legend')).color, css(radios.querySelector('label')).color]};
    }""")
    assert style["first"] == "left" and style["numbers"] == ["right"] * 3, style
    assert style["border"] == ["solid", "1px"] and style["legend"] < style["label"], style
    caption, legend, label = style["colours"]  # a caption in the quieter colour of the legends, not the text's
    assert style["caption"] == "normal" and caption == legend != label, style
    sp.assert_clean()


MOUNT_BARE = r"""async ([name, attrs]) => {
  const div = document.createElement('div');
  div.className = 'pe-widget';
  for (const [k, v] of Object.entries(attrs)) div.setAttribute(k, v);
  document.querySelector('article').append(div);
  const index = document.querySelector('script[src*="widgets/index.js"]').src;
  const mod = await import(index.replace(/index\.js$/, `${name}.js`));
  try { await mod.mount(div); return ['mounted', div.textContent]; } catch (err) { return [err.message, div.textContent]; }
}"""


def _kebab(key: str) -> str:
    return "data-" + key.replace("_", "-")


# One page option per widget that is readable but does not fit, and what the message says.
BAD_PAGE_OPTION = {
    "sin-clock": ({"d": "15"}, "正偶数"),
    "sin-dot": ({"k": "500", "max": "200"}, "超过了 data-max"),
    "sin-heatmap": ({"shift": "0"}, "最小是 1"),
    "rope-pair": ({"pair": "99"}, "data-pair = 99"),
    "swap-attention": ({"swap_i": "2", "swap_j": "2"}, "要两个不同的位置"),
    "scaling-explorer": ({"model": "qwen9"}, '没有 data-model="qwen9"'),
    "alibi-bias": ({"head": "9", "heads": "8"}, "data-head ≤ data-heads"),
    "t5-buckets": ({"max_distance": "4"}, "max_exact = 8"),
    "content-position": ({"rms": "1,0"}, "data-rms"),
    "dataflow": ({"lesson": "7"}, 'data-lesson="7"'),
}


@pytest.mark.build
@pytest.mark.browser
def test_every_widget_needs_its_page_options(visit, site_dir):
    """No widget keeps a default of its own: without the page's data-* (posenc.examples.WIDGET_DEFAULTS, through the
    widget() macro) it shows what is missing, and a value that does not fit is named too; the static figure stays."""
    sp, el = open_widget(visit, site_dir, "alibi-bias")
    page = sp.page
    assert sorted(BAD_PAGE_OPTION) == sorted(ex.WIDGET_DEFAULTS) == sorted(LESSON)
    for name, defaults in ex.WIDGET_DEFAULTS.items():
        full = _macro_attributes(name)
        error, shown = page.evaluate(MOUNT_BARE, [name, {}])
        assert error != "mounted", f"{name} mounted without any page option"
        for key in defaults:
            assert f"缺少 {_kebab(key)}" in shown, (name, key, shown)
        first = next(iter(defaults))
        error, shown = page.evaluate(MOUNT_BARE, [name, {k: v for k, v in full.items() if k != _kebab(first)}])
        assert error != "mounted" and f"缺少 {_kebab(first)}" in shown, (name, shown)
        bad, message = BAD_PAGE_OPTION[name]
        error, shown = page.evaluate(MOUNT_BARE, [name, {**full, **{_kebab(k): v for k, v in bad.items()}}])
        assert error != "mounted" and message in shown, (name, shown)
        assert page.evaluate(MOUNT_BARE, [name, full])[0] == "mounted", name  # the macro's attributes are enough
    bad = page.evaluate(MOUNT_BARE, ["t5-buckets", {"data-num-buckets": "32", "data-max-distance": "128", "data-bidirectional": "yes", "data-distance": "1"}])
    assert bad[0] != "mounted" and "true 或 false" in bad[1], bad
    sp.assert_clean()


def _measured_bare(measure: str) -> str:
    """A page function that mounts widget ``name`` bare with ``attrs`` (as MOUNT_BARE), runs ``measure`` (JavaScript
    that reads the mounted ``div`` and returns what it found), then takes the widget out of the page."""
    return ("async ([name, attrs]) => {\n  const div = document.createElement('div');\n  div.className = 'pe-widget';\n"
            "  for (const [k, v] of Object.entries(attrs)) div.setAttribute(k, v);\n  document.querySelector('article').append(div);\n"
            "  const index = document.querySelector('script[src*=\"widgets/index.js\"]').src;\n"
            "  await (await import(index.replace(/index\\.js$/, `${name}.js`))).mount(div);\n"
            "  const found = (() => {\n" + measure + "\n  })();\n  div.remove();\n  return found;\n}")


def _macro_attributes(name: str) -> dict[str, str]:
    """The data-* options the widget() macro writes for widget ``name`` (posenc.examples.WIDGET_DEFAULTS)."""
    from tools.build import macros

    return {f"data-{k}": html.unescape(v) for k, v in re.findall(r' data-([a-z-]+)="([^"]*)"', macros.widget_attributes(name, {}))}


# For each widget that declares limits on its page options: options that are readable but past a limit, or not of
# their kind, and words its message must hold (the Chinese string table's, docs/javascripts/widgets/strings/zh.js). The
# limits are the widgets' own (data-d ≤ 64 where 32 clock faces or a 64-wide table must fit a phone; data-max ≤ 10,000
# where a curve is recomputed per k). content-position and sin-heatmap have tests of their own.
PAGE_OPTION_LIMITS = {
    "sin-dot": [("d", "15", "正偶数"), ("d", "4098", "最大是 4,096"), ("d", "16.5", "要是整数"), ("base", "1", "要大于 1"),
                ("base", "ten", "要是数"), ("max", "0", "最小是 1"), ("max", "10001", "最大是 10,000"),
                ("position", "-1", "位置从 0 开始数"), ("presets", "0,-5", "位置从 0 开始数"), ("presets", "0,x", "逗号隔开"),
                ("k", "-1", "不能是负数"), ("k", "10001", "最大是 10,000")],
    "sin-clock": [("d", "15", "正偶数"), ("d", "66", "最大是 64"), ("base", "0.5", "要大于 1"), ("position", "-3", "位置从 0 开始数"),
                  ("presets", "1,-2", "位置从 0 开始数")],
    "rope-pair": [("d", "7", "正偶数"), ("d", "4098", "最大是 4,096"), ("base", "1", "要大于 1"), ("pair", "-1", "不能是负数"),
                  ("m", "-1", "位置从 0 开始数"), ("n", "-2", "位置从 0 开始数"), ("shift", "0", "最小是 1"), ("q", "1,x", "逗号隔开"),
                  ("q", "1,0.4,2", "收到 3 个和 2 个"), ("k", "1", "收到 2 个和 1 个")],
    "scaling-explorer": [("factor", "-1", "不能是负数"), ("factor", "65", "最大是 64"), ("factor", "two", "要是数")],
    "swap-attention": [("d", "5", "正偶数"), ("d", "66", "最大是 64"), ("seed", "-1", "不能是负数"), ("seed", "1.5", "要是整数")],
}
# Options exactly at a limit, which fit (the limits are inclusive), and options that do not fit together.
PAGE_OPTIONS_AT_THE_LIMIT = {
    "sin-dot": [{"d": "4096"}, {"max": "10000", "k": "10000"}, {"max": "200", "k": "200"}, {"k": "0"}],
    "sin-clock": [{"d": "64"}],
    "rope-pair": [{"d": "4096"}, {"shift": "1"}, {"d": "16", "pair": "7"}],
    "scaling-explorer": [{"factor": "64"}],
    "swap-attention": [{"d": "64"}, {"seed": "0"}],
}
PAGE_OPTIONS_TOGETHER = {"sin-dot": [({"max": "200", "k": "201"}, "data-k = 201 超过了 data-max = 200")],
                         "rope-pair": [({"d": "16", "pair": "8"}, "d_rot = 16 只有 8 对（第 0 … 7 对），data-pair = 8")]}


@pytest.mark.build
@pytest.mark.browser
def test_every_widget_refuses_each_page_option_past_its_limit(visit, site_dir):
    """A page option past the widget's limit, or not of its kind, stops the widget with a message that names the
    option and says what fits; an option exactly at a limit fits; the page's own options mount it. Each widget is
    mounted bare, on one page."""
    sp, _ = open_widget(visit, site_dir, "alibi-bias")
    for name in sorted(PAGE_OPTION_LIMITS):
        good = _macro_attributes(name)
        assert sp.page.evaluate(MOUNT_BARE, [name, good])[0] == "mounted", name
        for key, bad, words in PAGE_OPTION_LIMITS[name]:
            assert f"data-{key}" in good, f"{name} has no data-{key}: update PAGE_OPTION_LIMITS"
            error, shown = sp.page.evaluate(MOUNT_BARE, [name, {**good, f"data-{key}": bad}])
            assert error != "mounted" and f"data-{key}" in shown and words in shown, (name, key, bad, shown)
        for edge in PAGE_OPTIONS_AT_THE_LIMIT[name]:
            error, shown = sp.page.evaluate(MOUNT_BARE, [name, {**good, **{f"data-{k}": v for k, v in edge.items()}}])
            assert error == "mounted", (name, edge, error, shown)
        for options, words in PAGE_OPTIONS_TOGETHER.get(name, []):
            error, shown = sp.page.evaluate(MOUNT_BARE, [name, {**good, **{f"data-{k}": v for k, v in options.items()}}])
            assert error != "mounted" and words in shown, (name, options, shown)
    sp.assert_clean()


# Each widget mounted bare (as MOUNT_BARE) with the page options its widget() macro writes; then, for every two of its
# visible controls that share a row, the space between them.
CONTROL_GAPS = _measured_bare(r"""  const controls = [...div.querySelectorAll('input, button, select')].filter((c) => c.getClientRects().length)
    .map((c) => [c.getAttribute('aria-label') || c.textContent.trim() || c.outerHTML.slice(0, 50), c.getBoundingClientRect()]);
  const pairs = [];
  controls.forEach(([a, ra], i) => controls.slice(i + 1).forEach(([b, rb]) => {
    if (Math.min(ra.bottom, rb.bottom) > Math.max(ra.top, rb.top)) pairs.push([a, b, Math.max(rb.left - ra.right, ra.left - rb.right)]);
  }));
  return pairs;""")
MIN_CONTROL_GAP_PX = 4


@pytest.mark.build
@pytest.mark.browser
def test_every_widget_keeps_its_controls_apart(visit, site_dir):
    """On a phone, no two of a widget's controls on one row touch: at least MIN_CONTROL_GAP_PX between them, so a thumb
    meant for one does not land on the next and two buttons do not read as one (.pe-controls, widgets.css, spaces the
    row of a widget's box and buttons; button groups have their own, smaller gap). Each widget is measured bare, with
    the options its widget() macro writes."""
    sp, _ = open_widget(visit, site_dir, "alibi-bias", viewport={"width": 390, "height": 844})
    measured = {}
    for name in ex.WIDGET_DEFAULTS:
        attrs = _macro_attributes(name)
        measured[name] = sp.page.evaluate(CONTROL_GAPS, [name, attrs])
    touching = [f"{name}: {a!r} and {b!r}, {gap:.1f} px apart" for name, pairs in measured.items() for a, b, gap in pairs
                if gap < MIN_CONTROL_GAP_PX]
    assert not touching, "controls on one row too close:\n  " + "\n  ".join(touching)
    assert sum(map(len, measured.values())) >= len(measured) // 2, f"few controls share a row: the measure may be broken ({measured})"
    sp.assert_clean()


# Each widget mounted bare with the page options its widget() macro writes: its fields, button groups and limited
# buttons outside a control row, and each button group's caption with its size and colour against the widget's text.
CONTROL_ROWS = _measured_bare(r"""  const text = getComputedStyle(div);
  const outside = [...div.querySelectorAll('.pe-field, .pe-presets, .pe-limited')].filter((c) => !c.parentElement.closest('.pe-controls'))
    .map((c) => `${c.className}: ${c.textContent.trim().slice(0, 30)}`);
  const captions = [...div.querySelectorAll('.pe-presets')].flatMap((g) => [...g.children].filter((c) => c.tagName !== 'BUTTON'))
    .map((c) => { const s = getComputedStyle(c);
      return [c.textContent.trim(), parseFloat(s.fontSize) < parseFloat(text.fontSize), s.color !== text.color]; });
  return [outside, captions];""")


@pytest.mark.build
@pytest.mark.browser
def test_every_widget_sets_its_fields_in_control_rows_and_captions_its_button_groups_quietly(visit, site_dir):
    """Every field (a labelled box or menu), every group of buttons and every button with a limit of a widget sits in a
    control row
    (.pe-controls, widgets.css: the row that wraps on a phone, spaces its controls, which
    test_every_widget_keeps_its_controls_apart measures, and lines up their baselines); and a button group's caption
    ("预设：") is written as a field's label is, smaller and lighter than the widget's text, so that it reads as a
    caption and not as one more value."""
    sp, _ = open_widget(visit, site_dir, "alibi-bias")
    outside, loud, counted = {}, {}, 0
    for name in ex.WIDGET_DEFAULTS:
        out, captions = sp.page.evaluate(CONTROL_ROWS, [name, _macro_attributes(name)])
        if out:
            outside[name] = out
        counted += len(captions)
        loud |= {f"{name}: {words!r}": (smaller, lighter) for words, smaller, lighter in captions if not (smaller and lighter)}
        assert all(words for words, _, _ in captions), f"{name}: a button group's caption without words"
    assert not outside, f"fields or button groups outside a control row: {outside}"
    assert not loud, f"captions not smaller (first) and lighter (second) than the widget's text: {loud}"
    assert counted >= 2, f"{counted} button group captions found: the measure may be broken"
    sp.assert_clean()


# Each widget mounted bare with the page options its widget() macro writes: how each of its drawings (svg) is exposed.
DRAWINGS = _measured_bare(r"""  const drawings = [...div.querySelectorAll('svg')].map((svg) => [svg.getAttribute('class'), svg.getAttribute('role'), svg.getAttribute('aria-label')]);
  return drawings;""")


@pytest.mark.build
@pytest.mark.browser
def test_every_widget_drawing_is_one_labelled_image(visit, site_dir):
    """To a screen reader each widget's drawing is one image with words for what it shows (role="img" and an
    aria-label), not a run of loose tick labels and numbers read out one by one."""
    sp, _ = open_widget(visit, site_dir, "alibi-bias")
    drawings = {}
    for name in ex.WIDGET_DEFAULTS:
        attrs = _macro_attributes(name)
        drawings[name] = sp.page.evaluate(DRAWINGS, [name, attrs])
    unlabelled = [f"{name}: svg.{cls} role={role!r} aria-label={label!r}" for name, found in drawings.items()
                  for cls, role, label in found if role != "img" or not (label or "").strip()]
    assert not unlabelled, "drawings a screen reader would read piece by piece:\n  " + "\n  ".join(unlabelled)
    assert sum(map(bool, drawings.values())) >= len(drawings) // 2, f"few widgets draw: the measure may be broken ({drawings})"
    sp.assert_clean()


def _variant_examples(replacements):
    """posenc/examples.py with some example values changed, run as a module of its own (the real one stays)."""
    import types

    source = (ROOT / "posenc" / "examples.py").read_text(encoding="utf-8")
    for old, new in replacements:
        assert source.count(old) == 1, f"posenc/examples.py no longer contains {old!r}: update this test"
        source = source.replace(old, new)
    mod = types.ModuleType("posenc._examples_variant")
    mod.__package__ = "posenc"
    sys.modules[mod.__name__] = mod  # a dataclass (examples.ProjectModel) looks its module up there
    try:
        exec(compile(source, "posenc/examples.py (variant)", "exec"), mod.__dict__)
    finally:
        del sys.modules[mod.__name__]
    return mod


@pytest.mark.build
@pytest.mark.browser
def test_a_changed_example_reaches_every_widget(visit, site_dir, monkeypatch):
    """Change example parameters in posenc/examples.py: the widget() macro writes the new values and every widget
    shows them (tests/test_guardrails.py shows the built pages carrying them)."""
    new_dim = ex.SIN_DIM - 4
    v = _variant_examples([
        (f"SIN_DIM = {ex.SIN_DIM} ", f"SIN_DIM = {new_dim} "),
        (f'SENTENCE = "{ex.SENTENCE}"', 'SENTENCE = "猫追着狗跑了"'),
        (f"SHIFT = {ex.SHIFT} ", "SHIFT = 7 "),
        (f"ATTN_D = {ex.ATTN_D} ", "ATTN_D = 6 "),
        (f"NAIVE_PROBE_POSITION = {ex.NAIVE_PROBE_POSITION} ", "NAIVE_PROBE_POSITION = 50 "),
        (f'SCALING_MODEL = "{ex.SCALING_MODEL}"', 'SCALING_MODEL = "llama3_8b"'),
        (f"ALIBI_HEADS = {ex.ALIBI_HEADS} ", "ALIBI_HEADS = 12 "),
        (f"T5_DISTANCE = {ex.T5_DISTANCE} ", "T5_DISTANCE = 30 "),
    ])
    monkeypatch.setattr(ex, "WIDGET_DEFAULTS", v.WIDGET_DEFAULTS)
    sp, el = open_widget(visit, site_dir, "alibi-bias")
    page = sp.page
    mounted = {}
    for name in v.WIDGET_DEFAULTS:
        attrs = _macro_attributes(name)
        attrs["id"] = f"variant-{name}"
        assert page.evaluate(MOUNT_BARE, [name, attrs])[0] == "mounted", name
        mounted[name] = page.locator(f"#variant-{name}")
    clock = mounted["sin-clock"]
    np.testing.assert_allclose(values(clock.locator("[data-pe-dim]")), sinusoidal.encode(ex.NEAR_POSITION, new_dim), atol=1e-12)
    heat = mounted["sin-heatmap"]
    n = len("猫追着狗跑了")
    np.testing.assert_allclose(values(heat.locator("[data-pe-cell]")).reshape(n, n), sinusoidal.dot_matrix(np.arange(n), new_dim), atol=TOL)
    assert "+7" in heat.locator("[data-pe-shift]").inner_text()
    dot = mounted["sin-dot"]
    assert value(dot.locator('[data-pe-out="closed"]')) == pytest.approx(sinusoidal.dot_closed_form(7, new_dim), abs=1e-12)  # DOT_K = SHIFT
    assert mounted["rope-pair"].locator('[data-pe-input="pair"] option').count() == new_dim // 2
    swap = mounted["swap-attention"]
    assert swap.locator('[data-pe-input="sentence"]').input_value() == "猫追着狗跑了"
    assert np.array(json.loads(swap.locator(".pe-live").get_attribute("data-weights"))["w_q"]).shape == (6, 6)
    assert mounted["content-position"].locator('[data-pe-input="position"]').input_value() == "50"
    assert value(mounted["content-position"].locator('[data-pe-out="ratio"]')) == naive.raw_index_content_ratio(50, 1.0)
    assert mounted["scaling-explorer"].locator('[data-pe-input="model"]').input_value() == "llama3_8b"
    assert values(mounted["alibi-bias"].locator('[data-pe-col="slope"]')).tolist() == relative.alibi_slopes(12).tolist()
    assert value(mounted["t5-buckets"].locator('[data-pe-out="distance"]')) == 30
    assert mounted["dataflow"].locator('[data-pe-input="model"]').input_value() == v.DATAFLOW_START["all"]
    sp.assert_clean()


# --- reader-grade behaviour across widgets ------------------------------------------------------------


def mounted_pages(site_dir):
    missing = [name for name in LESSON if not has_mount(site_dir, name)]
    assert not missing, f"widgets without a mount point on their page: {missing}"
    return sorted(set(LESSON.values()))


@pytest.mark.build
@pytest.mark.browser
def test_phone_dark_mode_print_labels_scroll_boxes_and_js_budget(visit, site_dir):
    """Each lesson page with widgets on a 360 px phone in dark mode, then printed."""
    scroll_boxes = 0
    for path in mounted_pages(site_dir):
        sp = visit(path, wait="domcontentloaded", viewport={"width": 360, "height": 740}, color_scheme="dark")
        page = sp.page
        n = page.locator(".pe-widget").count()
        expect(page.locator(".pe-widget--live")).to_have_count(n, timeout=10_000)
        live = page.locator(".pe-widget--live .pe-live")
        page.wait_for_load_state("load")
        widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1], f"{path}: horizontal page scroll on a 360 px phone ({widths})"
        for right in live.evaluate_all("els => els.map(e => e.getBoundingClientRect().right)"):
            assert right <= 360.5, f"{path}: a widget sticks out of a 360 px screen (right edge {right})"
        assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
        for fg in live.evaluate_all("els => els.map(e => getComputedStyle(e).color)"):
            assert _luminance(fg) > 0.5, f"{path}: widget text {fg} is not light on the dark scheme"
        problems = page.evaluate(
            """() => {
              const out = [];
              for (const w of document.querySelectorAll('.pe-live')) {
                for (const i of w.querySelectorAll('input, select')) {
                  if (i.type === 'radio') { if (!(i.closest('label') && i.closest('fieldset'))) out.push('radio without label/fieldset'); }
                  else if (!(i.labels && i.labels.length) && !i.getAttribute('aria-label')) out.push('unlabelled ' + i.outerHTML.slice(0, 80));
                }
                for (const b of w.querySelectorAll('button')) if (!b.textContent.trim()) out.push('button without text');
                if (!w.querySelector('[aria-live="polite"]')) out.push('no aria-live region');
                if (!w.getAttribute('aria-labelledby')) out.push('group without a label');
              }
              return out;
            }"""
        )
        assert not problems, f"{path}: {problems}"
        for box in page.locator(".pe-live .pe-scroll").all():  # a table or chart that may scroll sideways
            scroll_boxes += 1
            assert box.get_attribute("tabindex") == "0", f"{path}: a scroll box the keyboard cannot reach"
            assert box.get_attribute("role") == "region" and (box.get_attribute("aria-label") or "").strip(), (
                f"{path}: a scroll box without role=region and a name")
            box.evaluate("e => { const d = e.closest('details'); if (d) d.open = true; }")  # a folded table opens first
            box.focus()
            assert page.evaluate("document.activeElement.classList.contains('pe-scroll')")
        js = page.evaluate(
            r"""() => performance.getEntriesByType('resource')
                 .map(e => [new URL(e.name).pathname, e.decodedBodySize])
                 .filter(([p]) => p.endsWith('.js') && /(^|\/)javascripts\//.test(p) && !p.includes('/assets/javascripts/'))"""
        )
        total = sum(size for _, size in js)
        assert total < JS_BUDGET, f"{path}: {total} bytes of the site's own JavaScript (budget {JS_BUDGET}): {js}"
        print(f"{path}: site JavaScript {total} bytes {js}")
        # the static figure is hidden on screen while the widget is live, and comes back in print
        for w in page.locator(".pe-widget--live").all():
            assert w.locator(".pe-figure").count() == 1, f"{path}: a widget without its static figure (built with POSENC_SKIP_FIGURES=1?)"
            expect(w.locator(".pe-figure").first).to_be_hidden()
        page.emulate_media(media="print")
        for w in page.locator(".pe-widget--live").all():
            expect(w.locator(".pe-live")).to_be_hidden()
            expect(w.locator(".pe-figure").first).to_be_visible()
        sp.assert_clean()
    assert scroll_boxes >= 5  # heatmap, swap, rope-pair, scaling, alibi, t5


def _luminance(css: str) -> float:
    r, g, b = (int(x) for x in re.findall(r"\d+", css)[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


@pytest.mark.build
@pytest.mark.browser
def test_static_figure_without_javascript(visit, site_dir):
    for path in mounted_pages(site_dir):
        sp = visit(path, java_script_enabled=False)
        widgets = sp.page.locator(".pe-widget").all()
        assert widgets
        for w in widgets:
            assert w.locator(".pe-figure").count() == 1, f"{path}: a widget without its static figure (built with POSENC_SKIP_FIGURES=1?)"
            expect(w.locator(".pe-figure img").first).to_be_visible()
            assert w.locator(".pe-live").count() == 0
        sp.assert_clean()


@pytest.mark.build
@pytest.mark.browser
def test_widgets_index_mounts_the_widgets_when_their_stylesheet_fails_and_the_next_page_asks_again(visit, site_dir):
    """widgets/index.js: a widget waits for the widgets' stylesheet to load or to fail; when it fails (a flaky phone
    network), the page's widgets mount all the same, unstyled, and the next page instant navigation shows asks for the
    stylesheet again."""
    sp = visit(LESSON["sin-dot"], wait="load")
    page = sp.page
    sp.mounted('[data-pe-widget="sin-dot"]', timeout=30_000)
    failed = []
    page.route("**/stylesheets/widgets.css", lambda route: (failed.append(route.request.url), route.abort()))
    page.reload(wait_until="load")
    for name, path in LESSON.items():
        if path == LESSON["sin-dot"]:
            sp.mounted(f'[data-pe-widget="{name}"]', timeout=30_000)
    assert len(failed) == 1, f"the widgets' stylesheet was asked for {len(failed)} times"
    sheets = 'link[rel="stylesheet"][href$="stylesheets/widgets.css"]'
    assert page.locator(sheets).count() == 0, "the failed stylesheet's link stayed in the page"
    page.unroute("**/stylesheets/widgets.css")
    page.evaluate("window.__sameDocument = true")
    page.locator("a.md-footer__link--next").first.click()
    sp.mounted('[data-pe-widget="t5-buckets"]', timeout=30_000)  # lesson 3b's
    assert page.evaluate("window.__sameDocument") is True, "the click reloaded the page: instant navigation is off"
    assert page.evaluate(f"[...document.querySelectorAll('{sheets}')].map((l) => l.sheet !== null)") == [True]


@pytest.mark.build
@pytest.mark.browser
def test_widgets_index_keeps_a_failed_widgets_figure_and_mounts_the_others(visit, site_dir):
    """widgets/index.js: a widget whose module fails keeps its static figure (marked failed, the error logged with its
    name) and the page's other widgets mount all the same."""
    sp = visit(LESSON["sin-dot"], wait="load")
    page = sp.page
    sp.mounted('[data-pe-widget="sin-dot"]', timeout=30_000)
    # page routes take precedence over the context's and turn the HTTP cache off: the reload fetches the broken module
    page.route("**/javascripts/widgets/sin-dot.js", lambda route: route.fulfill(
        status=200, content_type="text/javascript", body="throw new Error('a broken widget module');"))
    page.reload(wait_until="load")
    others = [name for name, path in LESSON.items() if path == LESSON["sin-dot"] and name != "sin-dot"]
    assert others, "lesson 3 has other widgets to mount"
    for name in others:
        sp.mounted(f'[data-pe-widget="{name}"]', timeout=30_000)
    broken = page.locator('[data-pe-widget="sin-dot"]')
    expect(broken).to_have_class(re.compile(r"\bpe-widget--failed\b"), timeout=30_000)
    assert "pe-widget--live" not in broken.get_attribute("class") and broken.locator(".pe-live").count() == 0
    expect(broken.locator(".pe-figure img").first).to_be_visible()
    logged = [e for e in sp.console_errors if "widget sin-dot failed to mount" in e]
    assert logged, sp.console_errors
    sp.console_errors[:] = [e for e in sp.console_errors if e not in logged and "a broken widget module" not in e]
    sp.assert_clean()


# Records when the page's load event fires and when the first widget mounts, and holds the load event back with one
# image of its own (an image in the document before load delays the event), which the test then lets through.
WIDGET_TIMES = """(() => {
  window.__peTimes = {};
  addEventListener('load', () => { window.__peTimes.load = performance.now(); });
  document.addEventListener('DOMContentLoaded', () => {
    document.body.append(Object.assign(new Image(), {src: '/posenc/__held_image.gif', alt: ''}));
  });
  new MutationObserver(() => {
    if (window.__peTimes.live === undefined && document.querySelector('.pe-widget--live')) window.__peTimes.live = performance.now();
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ['class']});
})();"""
GIF = bytes.fromhex("47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b")


@pytest.mark.build
@pytest.mark.browser
def test_widgets_index_mounts_after_the_load_event_and_links_the_widget_styles_once(visit, site_dir):
    """widgets/index.js: no widget mounts before the page's load event (the text, formulas and figures come first on a
    slow phone), nor before the widgets' stylesheet has loaded; that stylesheet is linked once, by the widgets, and
    again (once) on the next page instant navigation shows, where each widget mounts once."""
    sp = visit(LESSON["sin-dot"], wait="load")
    page = sp.page
    # the first load's widgets mount and fetch their stylesheet first, so that every request held below is the reload's
    sp.mounted('[data-pe-widget="sin-dot"]', timeout=30_000)
    held_image, held_styles = [], []
    page.route("**/__held_image.gif", lambda route: held_image.append(route))
    page.route("**/stylesheets/widgets.css", lambda route: held_styles.append(route))
    page.add_init_script(WIDGET_TIMES)
    page.reload(wait_until="domcontentloaded")
    live = page.locator(".pe-widget--live")
    page.wait_for_timeout(1500)  # long enough for every widget module to load, were it not waiting
    assert page.evaluate("document.readyState") != "complete" and held_image, "the held image did not hold the load event"
    assert live.count() == 0, "a widget mounted before the page's load event"
    held_image.pop().fulfill(status=200, content_type="image/gif", body=GIF)
    page.wait_for_load_state("load")
    page.wait_for_timeout(1500)
    assert len(held_styles) == 1, f"the widgets' stylesheet was requested {len(held_styles)} times"
    assert live.count() == 0, "a widget mounted before the widgets' stylesheet had loaded"
    held_styles.pop().continue_()
    sp.mounted('[data-pe-widget="sin-dot"]', timeout=30_000)
    page.unroute("**/stylesheets/widgets.css")
    times = page.evaluate("window.__peTimes")
    assert times["live"] >= times["load"], times
    sheets = 'link[rel="stylesheet"][href$="stylesheets/widgets.css"]'
    assert page.locator(sheets).count() == 1
    page.evaluate("window.__sameDocument = true")
    page.locator("a.md-footer__link--next").first.click()
    sp.mounted('[data-pe-widget="t5-buckets"]', timeout=30_000)
    assert page.evaluate("window.__sameDocument") is True, "the click reloaded the page: instant navigation is off"
    assert page.locator(sheets).count() == 1
    assert page.locator(sheets).evaluate("l => l.sheet !== null")
    for name in ("t5-buckets", "alibi-bias"):  # the page's widgets mount one after another: wait for each, then count
        sp.mounted(f'[data-pe-widget="{name}"]', timeout=30_000)
        assert page.locator(f'[data-pe-widget="{name}"] .pe-live').count() == 1, name
    sp.assert_clean()


@pytest.mark.build
@pytest.mark.browser
def test_instant_navigation_remounts_and_stops_animation(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "sin-clock")
    page = sp.page
    el.locator("[data-pe-play]").click()
    page.wait_for_timeout(300)
    page.evaluate("window.__oldClock = document.querySelector('[data-pe-widget=sin-clock] [data-pe-out=position]')")
    # Material's instant navigation: follow an in-site link without a reload
    page.evaluate("window.__sameDocument = true")
    page.locator('a.md-footer__link--next, a.md-footer__link--prev').first.click()
    page.wait_for_function("() => !document.querySelector('[data-pe-widget=sin-clock]') || !window.__oldClock.isConnected")
    assert page.evaluate("window.__sameDocument") is True, "the click reloaded the page: instant navigation is off"
    a = page.evaluate("window.__oldClock.dataset.value")
    page.wait_for_timeout(500)
    assert page.evaluate("window.__oldClock.dataset.value") == a, "the clock kept running after its page was left"
    page.go_back()
    expect(page.locator('[data-pe-widget="sin-clock"].pe-widget--live')).to_be_attached(timeout=10_000)
    assert page.evaluate("window.__sameDocument") is True
    assert page.locator('[data-pe-widget="sin-clock"] .pe-live').count() == 1
    sp.assert_clean()
