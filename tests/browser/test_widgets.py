"""The in-page experiments (docs/javascripts/widgets/) in Chromium, against posenc.

Each widget is driven through its controls (fill, click, keyboard) on the built
lesson page, and every number it shows is read from its machine-readable copy
(``data-value``, full precision) and compared with posenc computed here for the
same inputs. A widget whose lesson has no mount point yet is skipped, saying so.
Also: the JS unit tests (node --test tests/js/), no autoplay and reduced motion,
bad input messages, instant navigation, print and no-JavaScript fallbacks, a
360 px phone, dark mode, the per-page JavaScript budget, no console error and
no request that leaves the site.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import expect

from posenc import attention as at
from posenc import configs, rope, scaling, sinusoidal
from posenc import examples as ex
from posenc.sinusoidal import DEFAULT_BASE

ROOT = Path(__file__).resolve().parents[2]

LESSON = {
    "swap-attention": "lessons/01-order-blind/",
    "sin-clock": "lessons/03-sinusoidal/",
    "sin-heatmap": "lessons/03-sinusoidal/",
    "sin-dot": "lessons/03-sinusoidal/",
    "rope-pair": "lessons/04-rope/",
    "scaling-explorer": "lessons/05-long-context/",
}
JS_BUDGET = 60 * 1024  # bytes of the site's own JavaScript per page (issue 5)
TOL = 1e-12


# --- helpers -------------------------------------------------------------------------------------


def has_mount(site_dir: Path, name: str) -> bool:
    page = site_dir / LESSON[name] / "index.html"
    return page.is_file() and f'data-pe-widget="{name}"' in page.read_text(encoding="utf-8")


def open_widget(visit, site_dir: Path, name: str, **context_options):
    """The lesson page with widget ``name`` mounted: (SitePage, widget locator). Skips if no mount point."""
    if not has_mount(site_dir, name):
        pytest.skip(f'{LESSON[name]} has no mount point {{{{ widget("{name}", ...) }}}} yet')
    sp = visit(LESSON[name], wait="domcontentloaded", **context_options)
    el = sp.page.locator(f'[data-pe-widget="{name}"]').first
    expect(el).to_have_class(re.compile(r"\bpe-widget--live\b"), timeout=10_000)
    return sp, el


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


def parse_display(text: str) -> tuple[float, float]:
    """The number a formatted text shows and how far from the full value it may be."""
    t = text.replace("\u2212", "-").replace(",", "").strip()
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


def error_text(el, name: str) -> str:
    return el.locator(f'[data-pe-error="{name}"]').inner_text()


# --- JS unit tests --------------------------------------------------------------------------------


def test_js_unit_tests():
    """node --test tests/js/: posenc-math.js against posenc's own numbers."""
    node = shutil.which("node")
    assert node, "node is a setup requirement (tools/setup_system.sh installs nodejs); it runs tests/js/"
    proc = subprocess.run([node, "--test", "tests/js/"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"node --test tests/js/ failed:\n{proc.stdout[-6000:]}\n{proc.stderr[-3000:]}"


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
    el.locator('[data-preset="100000"]').click()
    assert pos.input_value() == "100000"
    check(100_000)
    el.locator('[data-preset="1024"]').click()
    check(1024)
    pos.fill("999999937")
    check(999_999_937)
    el.locator('[data-pe-input="d"]').fill("8")
    el.locator('[data-pe-input="base"]').fill("500")
    pos.fill("12345")
    check(12345, 8, 500.0)
    assert el.locator("[data-pe-hand]").count() == 4
    sp.assert_clean()


BAD_CLOCK_INPUT = [
    ("position", "", "请填写"),
    ("position", "abc", "不是数字"),
    ("position", "-5", "不能是负数"),
    ("position", "2000000000", "10⁹"),
    ("position", "2.5", "整数"),
    ("d", "15", "正偶数"),
    ("d", "0", "d"),
    ("base", "1", "大于 1"),
    ("base", "0.5", "大于 1"),
]


@pytest.mark.build
@pytest.mark.browser
def test_sin_clock_bad_input_shows_message(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "sin-clock")
    before = values(el.locator("[data-pe-dim]"))
    for field, text, message in BAD_CLOCK_INPUT:
        box = el.locator(f'[data-pe-input="{field}"]')
        good = box.input_value()
        box.fill(text)
        err = el.locator(f'[data-pe-error="{field}"]')
        expect(err).to_be_visible()
        assert message in err.inner_text(), f"{field}={text!r}: {err.inner_text()}"
        assert box.get_attribute("aria-invalid") == "true"
        np.testing.assert_array_equal(values(el.locator("[data-pe-dim]")), before)  # the last valid result stays
        box.fill(good)
        expect(err).to_be_hidden()
        assert box.get_attribute("aria-invalid") == "false"
    check_display(el)
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
    el.locator('[data-pe-input="start"]').fill("-1")
    assert "负数" in error_text(el, "start")
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
        assert value(el.locator('[data-pe-out="max-diff"]')) < 1e-9
    check_display(el)
    slider = el.locator('[data-pe-input="k-slider"]')
    slider.focus()
    page.keyboard.press("ArrowRight")
    assert value(el.locator('[data-pe-out="k"]')) == 11
    assert el.locator('[data-pe-input="k"]').input_value() == "11"
    assert value(el.locator('[data-pe-out="dot"]')) == pytest.approx(sinusoidal.dot(100_000, 100_011, ex.SIN_DIM), abs=1e-10)
    el.locator('[data-pe-input="k"]').fill("500")
    assert "最大是" in error_text(el, "k")
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
    el.locator('[data-pe-input="sentence"]').fill("猫")
    assert "至少要两个字" in error_text(el, "sentence")
    sp.assert_clean()


# --- lesson 4 ----------------------------------------------------------------------------------------------


@pytest.mark.build
@pytest.mark.browser
def test_rope_pair_shift_keeps_rope_score(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "rope-pair")
    q, k = np.array([1.0, 0.4]), np.array([0.6, 0.9])  # the widget's default pair vectors
    el.locator('[data-pe-input="pair"]').select_option("2")
    omega = rope.inverse_frequencies(ex.SIN_DIM, DEFAULT_BASE)[2:3]
    shift = el.locator("[data-pe-shift]")
    shift.click()
    shift.click()
    rows = el.locator("[data-pe-row]")
    assert rows.count() == 3
    ropes, addeds = [], []
    for r in range(3):
        row = rows.nth(r)
        m, n = value(row.locator('[data-pe-col="m"]')), value(row.locator('[data-pe-col="n"]'))
        assert n - m == 4
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
    el.locator('[data-pe-input="m"]').fill("-2")
    assert "负数" in error_text(el, "m")
    check_display(el)
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
        assert value(el.locator('[data-pe-out="not-after"]')) == rope.pairs_not_completing_turn(want_inv, round(factor * L))
        check_display(el)

    sc = cfg["scaling"]
    inv, att = scaling.yarn(hd, theta, 4.0, sc["original_max_position_embeddings"])
    check("yarn", 4, inv, att)
    low, high = scaling.yarn_correction_range(hd, theta, sc["original_max_position_embeddings"])
    assert (value(el.locator('[data-pe-out="yarn-low"]')), value(el.locator('[data-pe-out="yarn-high"]'))) == (low, high)
    check("linear", 8, *scaling.linear(hd, theta, 8.0))
    check("ntk", 16, *scaling.ntk_aware(hd, theta, 16.0))
    el.locator('[data-pe-input="factor"]').fill("0.5")
    assert "不小于 1" in error_text(el, "factor")
    # every model in the list is one of models.yaml's RoPE models, with its own numbers
    keys = el.locator('[data-pe-input="model"] option').evaluate_all("els => els.map(e => e.value)")
    assert keys == [k for k in configs.keys() if configs.load(k).position == "rope"]
    sp.assert_clean()


# --- reader-grade behaviour across widgets ------------------------------------------------------------


def mounted_pages(site_dir):
    pages = sorted({LESSON[n] for n in LESSON if has_mount(site_dir, n)})
    if not pages:
        pytest.skip("no lesson has a widget mount point yet")
    return pages


@pytest.mark.build
@pytest.mark.browser
def test_phone_dark_mode_print_labels_and_js_budget(visit, site_dir):
    """Each lesson page with widgets on a 360 px phone in dark mode, then printed."""
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
            if w.locator(".pe-figure").count():
                expect(w.locator(".pe-figure").first).to_be_hidden()
        page.emulate_media(media="print")
        for w in page.locator(".pe-widget--live").all():
            expect(w.locator(".pe-live")).to_be_hidden()
            if w.locator(".pe-figure").count():
                expect(w.locator(".pe-figure").first).to_be_visible()
        sp.assert_clean()


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
            if w.locator(".pe-figure").count():
                expect(w.locator(".pe-figure img").first).to_be_visible()
            assert w.locator(".pe-live").count() == 0
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
    page.wait_for_function("!document.querySelector('[data-pe-widget=sin-clock]') || !window.__oldClock.isConnected")
    assert page.evaluate("window.__sameDocument") is True, "the click reloaded the page: instant navigation is off"
    a = page.evaluate("window.__oldClock.dataset.value")
    page.wait_for_timeout(500)
    assert page.evaluate("window.__oldClock.dataset.value") == a, "the clock kept running after its page was left"
    page.go_back()
    expect(page.locator('[data-pe-widget="sin-clock"].pe-widget--live')).to_be_attached(timeout=10_000)
    assert page.evaluate("window.__sameDocument") is True
    assert page.locator('[data-pe-widget="sin-clock"] .pe-live').count() == 1
    sp.assert_clean()
