"""Each widget's default readouts against the numbers the lesson's prose quotes about it.

The prose around a widget ("试三件事": click this preset, you will see that number) prints numbers from
posenc's registry (posenc/quantities/, the num() macro). Here each widget is opened on its lesson page,
driven exactly as the prose says, and what it shows is compared with the registry's number as the page
prints it (quantities.text): the widget's full value must round to the printed one, or, for a readout
the prose writes the same way, the texts must be equal. A widget that counts something else than the
text, or starts somewhere else, fails here by the quantity's name.

Also: lesson 5 at 390 px, as loaded (nothing scrolled, no block rendered first), has no scroll region a
keyboard cannot reach (axe-core scrollable-region-focusable).
"""

from __future__ import annotations

import pytest

from posenc import quantities as q

from test_widgets import open_widget, parse_display, value

pytestmark = [pytest.mark.build, pytest.mark.browser]


def shown_value(el, out: str) -> float:
    return value(el.locator(f'[data-pe-out="{out}"]'))


def agrees(got: float, name: str) -> None:
    """The widget's value rounds to the prose's printed number for quantity ``name``."""
    printed = q.text(name, "zh")
    want, tol = parse_display(printed)
    assert abs(got - want) <= tol, f"the widget shows {got!r}, the prose prints {name} = {printed}"


def same_text(el, out: str, name: str) -> None:
    shown = el.locator(f'[data-pe-out="{out}"]').inner_text().strip()
    assert shown == q.text(name, "zh"), f"the widget shows {shown!r}, the prose prints {name} = {q.text(name, 'zh')!r}"


def preset(el, name: str) -> None:
    # by keyboard, as a reader without a mouse would: in the full run a mouse click on a preset was once lost to
    # a block above it still being laid out (the sin-clock's 1,024 read back as its start, 3), as lesson 4's shift
    # button was before
    el.locator(f'[data-preset="{int(q.value(name))}"]').press("Enter")


def fill(el, field: str, name: str) -> None:
    el.locator(f'[data-pe-input="{field}"]').fill(str(q.value(name)))


def select_number(el, field: str, name: str) -> None:
    """Choose the option of select ``field`` whose value is quantity ``name``'s number."""
    box = el.locator(f'[data-pe-input="{field}"]')
    options = box.locator("option").evaluate_all("els => els.map(e => e.value)")
    match = [o for o in options if float(o) == float(q.value(name))]
    assert match, f"the widget offers no {field} = {q.value(name)} ({name}); it offers {options}"
    box.select_option(match[0])


def test_lesson1_swap_widget_shows_the_texts_sentences_and_machine_epsilon(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "swap-attention")
    assert el.locator('[data-pe-out="sentence-a"]').inner_text() == q.text("l1_main_a", "zh")
    assert el.locator('[data-pe-out="sentence-b"]').inner_text() == q.text("l1_main_b", "zh")
    # 「看「差值（不加位置）」那一列：每个字最多差 2.2×10⁻¹⁶」: the widget names the same bound, written the same way
    same_text(el, "eps", "l1_float_eps")
    eps = shown_value(el, "eps")
    nopos = el.locator('[data-pe-diff^="nopos-"]').evaluate_all("els => els.map(e => Number(e.dataset.value))")
    assert nopos and max(nopos) <= eps, f"a difference without positions is above the machine epsilon: {max(nopos)}"
    assert shown_value(el, "max-nopos") <= eps
    agrees(shown_value(el, "max-pos"), "l1_main_diff_pos")
    sp.assert_clean()


def test_lesson2_content_position_widget_shows_the_texts_ratios(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "content-position")
    preset(el, "naive_probe_position")
    select_number(el, "rms", "l2_unit_rms")
    agrees(shown_value(el, "ratio"), "naive_ratio_unit")
    same_text(el, "ratio", "naive_ratio_unit")  # written as the prose writes it: 2.7%
    select_number(el, "rms", "embed_init_std")
    agrees(shown_value(el, "ratio"), "naive_ratio_init")
    same_text(el, "ratio", "naive_ratio_init")  # 0.054%, not 5.41e−2%
    preset(el, "gpt2_last_row")
    assert el.locator('[data-pe-out="has-row"]').get_attribute("data-value") == "1"
    preset(el, "gpt2_context")
    assert el.locator('[data-pe-out="has-row"]').get_attribute("data-value") == "0"
    sp.assert_clean()


def test_lesson3_sin_clock_widget_shows_the_texts_periods(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "sin-clock")
    periods = el.locator("[data-pe-period]").evaluate_all("els => els.map(e => Number(e.dataset.value))")
    agrees(periods[0], "sin_fastest_period")
    agrees(periods[-1], "sin_slowest_period")
    for name in ("gpt2_context", "sin_far_position"):
        preset(el, name)
        assert shown_value(el, "position") == q.value(name)
        assert int(el.locator('[data-pe-out="dims"]').inner_text()) == q.value("sin_demo_d")
        assert shown_value(el, "max-abs") <= 1
    el.locator('[data-pe-input="position"]').fill("1")
    fastest = float(el.locator('[data-pe-hand="0"]').get_attribute("data-value"))
    agrees(fastest * 180 / 3.141592653589793, "sin_fastest_step_deg")
    sp.assert_clean()


def test_lesson3_sin_heatmap_widget_shows_the_texts_numbers(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "sin-heatmap")
    agrees(value(el.locator('[data-pe-cell="0,0"]')), "sin_self_dot")
    el.locator("[data-pe-shift]").press("Enter")  # by keyboard, like preset()
    got = shown_value(el, "max-diff")
    printed = q.value("sin_shift_max_diff")
    assert got <= 10 * printed, f"after a shift the widget's difference {got} is not of the order the text prints ({printed})"
    fill(el, "start", "sin_far_position")
    assert shown_value(el, "start") == q.value("sin_far_position")
    # 「读数里的最大差值长到 2.2e-12 上下」: the browser rounds in its own order, so the same order of magnitude
    got, printed = shown_value(el, "max-diff"), q.value("sin_far_shift_max_diff")
    assert printed / 10 <= got <= 10 * printed, f"at the far start the widget's difference {got} is not of the order the text prints ({printed})"
    agrees(value(el.locator('[data-pe-cell="0,0"]')), "sin_self_dot")
    sp.assert_clean()


def test_lesson3_sin_dot_widget_shows_the_texts_dot_products(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "sin-dot")
    assert el.locator('[data-pe-input="k-slider"]').get_attribute("max") == str(q.value("sin_max_distance"))
    for k, dot in [("sin_dot_first_rise_k", "sin_dot_at_first_rise"), ("sin_dot_first_rise_k_next", "sin_dot_after_first_rise"),
                   ("sin_dot_min_k", "sin_dot_min")]:
        fill(el, "k", k)
        agrees(shown_value(el, "dot"), dot)
    sp.assert_clean()


def test_lesson3b_t5_widget_starts_where_the_text_says(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "t5-buckets")
    # 「组件一开始查的是键在查询前面 20 个 token，落在桶 10」: the distance m − n = 20, as the lesson writes it
    assert shown_value(el, "distance") == q.value("t5_demo_distance")
    assert el.locator(".pe-readout").inner_text().startswith("m − n = ")
    agrees(shown_value(el, "bucket"), "t5_demo_bucket")
    sp.assert_clean()


def test_lesson3b_alibi_widget_starts_where_the_text_says(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "alibi-bias")
    assert el.locator('[data-pe-input="heads"]').input_value() == str(q.value("alibi_demo_heads"))
    agrees(shown_value(el, "head"), "alibi_demo_head")
    agrees(shown_value(el, "slope"), "alibi_demo_slope")
    agrees(shown_value(el, "distance"), "alibi_demo_distance")
    agrees(shown_value(el, "bias"), "alibi_demo_bias")
    agrees(shown_value(el, "weight"), "alibi_demo_weight")
    agrees(shown_value(el, "reach"), "alibi_demo_reach")
    assert el.get_attribute("data-factor") == str(q.value("alibi_demo_factor"))
    sp.assert_clean()


def test_lesson4_rope_pair_widget_starts_with_the_texts_worked_example(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "rope-pair")
    assert el.locator('[data-pe-input="pair"]').input_value() == "0"  # 「取第 0 个频率对」
    agrees(float(el.locator('[data-pe-input="m"]').input_value()), "l4_pair_m")
    agrees(float(el.locator('[data-pe-input="n"]').input_value()), "l4_pair_n")
    agrees(shown_value(el, "offset"), "l4_pair_offset")
    agrees(shown_value(el, "rope"), "l4_pair_rope")
    agrees(shown_value(el, "added"), "l4_pair_added")
    # 「都往后移 10」, by keyboard: a click aims at where the button was drawn, and on a loaded machine a block
    # above it could still be laid out (content-visibility) between Playwright's aim and its click (one run in six)
    el.locator("[data-pe-shift]").press("Enter")
    agrees(float(el.locator('[data-pe-input="m"]').input_value()), "l4_pair_m_shifted")
    agrees(float(el.locator('[data-pe-input="n"]').input_value()), "l4_pair_n_shifted")
    agrees(shown_value(el, "rope"), "l4_pair_rope_shifted")
    agrees(shown_value(el, "added"), "l4_pair_added_shifted")
    sp.assert_clean()


def test_lesson5_scaling_widget_counts_the_texts_overshooting_pairs(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "scaling-explorer")
    agrees(shown_value(el, "not-before"), "rope_pairs_not_turning_qwen3_8b")
    agrees(float(el.locator('[data-pe-input="factor"]').input_value()), "qwen3_yarn_factor")
    # YaRN, the widget's first method: its ramp and the pairs that still overshoot
    agrees(shown_value(el, "yarn-low"), "qwen3_yarn_low")
    agrees(shown_value(el, "yarn-high"), "qwen3_yarn_high")
    agrees(shown_value(el, "beyond"), "qwen3_yarn_beyond_pairs")
    # 「换成「NTK-aware」…那 23 对越界」
    el.locator('[data-pe-input="method"]').select_option("ntk")
    agrees(shown_value(el, "beyond"), "ntk_qwen3_beyond_pairs")
    agrees(shown_value(el, "max-overshoot"), "ntk_qwen3_max_overshoot")
    el.locator('[data-pe-input="method"]').select_option("linear")
    agrees(shown_value(el, "beyond"), "pi_qwen3_beyond_pairs")
    sp.assert_clean()


def test_lesson5_has_no_unfocusable_scroll_region_on_a_phone_as_loaded(visit, site_dir):
    from axe_playwright_python.sync_playwright import Axe

    from page_checks import PHONE

    sp, el = open_widget(visit, site_dir, "scaling-explorer", viewport=PHONE)
    sp.page.wait_for_function("() => document.documentElement.dataset.peScrollers === 'checked'", timeout=20_000)
    # Twice: axe's first pass lays out blocks the browser had skipped (content-visibility), which is what
    # a second pass, or any script that measures the page, then finds: it found four tables on lesson 5.
    found = []
    for _ in range(2):
        result = Axe().run(sp.page, options={"runOnly": ["scrollable-region-focusable"]})
        found += [(n["target"], n["html"][:120]) for v in result.response["violations"] for n in v["nodes"]]
    assert not found, f"scroll regions a keyboard cannot reach: {found}"
    sp.assert_clean()
