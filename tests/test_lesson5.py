"""Lesson 5 (PI → NTK-aware → YaRN, Llama 3.1): the helpers, tables and numbers the page quotes.

References are written independently of the code under test: the formulas
term by term with ``math`` (Chen et al. 2023; YaRN Eq. 16, Eq. 22 and its
NTK-by-parts γ(r); llama-models ``apply_scaling``), explicit position-by-position
angles instead of the ratio formula, and the raw YAML files instead of the
loaders. Model constants come from posenc/data/models.yaml, read here directly.
"""

from __future__ import annotations

import importlib.util
import math
import re
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

from posenc import configs, facts, scaling
from posenc import quantities as numbers
from posenc.quantities import lesson5 as L5

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "docs" / "lessons" / "05-long-context.md"
MODELS = yaml.safe_load((ROOT / "posenc" / "data" / "models.yaml").read_text(encoding="utf-8"))
FACTS = yaml.safe_load((ROOT / "posenc" / "data" / "facts_lesson5.yaml").read_text(encoding="utf-8"))


def field(model, name):
    return MODELS[model]["fields"][name]["value"]


def v(name):
    return numbers.value(name)


def t(name):
    return numbers.text(name)


# --- hand-written references ----------------------------------------------------------------------

QWEN = {"d": field("qwen3_8b", "head_dim"), "theta": float(field("qwen3_8b", "rope_theta")),
        "s": field("qwen3_8b", "scaling")["factor"], "L": field("qwen3_8b", "scaling")["original_max_position_embeddings"]}


def omega_by_hand(j, d, theta):
    return theta ** (-2 * j / d)


def correction_dim_by_hand(r, d, theta, L):
    """Pair index whose pair turns r times in L tokens: L / (2π θ^(2j/d)) = r solved for j."""
    return d * math.log(L / (2 * math.pi * r)) / (2 * math.log(theta))


def yarn_by_hand(d, theta, s, L, fast=32.0, slow=1.0, truncate=True):
    """(ω', ramp, low, high) pair by pair, from the YaRN reference code's description."""
    low, high = correction_dim_by_hand(fast, d, theta, L), correction_dim_by_hand(slow, d, theta, L)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, d - 1)
    out, ramps = [], []
    for j in range(d // 2):
        ramp = min(max((j - low) / (high - low), 0.0), 1.0)
        w = omega_by_hand(j, d, theta)
        out.append((1 - ramp) * w + ramp * w / s)
        ramps.append(ramp)
    return out, ramps, low, high


def gamma_by_hand(r, alpha=1.0, beta=32.0):
    """YaRN's NTK-by-parts γ(r): 0 below α, 1 above β, linear in r between."""
    if r < alpha:
        return 0.0
    if r > beta:
        return 1.0
    return (r - alpha) / (beta - alpha)


def max_angles(freq, n_positions):
    """The largest angle each pair reaches over positions 0 … n−1, position by position."""
    pos = np.arange(n_positions, dtype=np.float64)
    return np.array([np.max(pos * w) for w in freq])


def beyond_by_positions(omega, scaled, L, s):
    """Pairs with λ > L whose largest angle over s·L positions exceeds their largest angle over L positions."""
    before, after = max_angles(omega, L), max_angles(scaled, int(s * L))
    turning = np.array([2 * math.pi / w <= L for w in omega])
    # position L·s − 1 after PI is (L·s − 1)/s = L − 1/s: a fraction of a token past L − 1, not a new angle
    return int(np.sum(~turning & (after > before * (1 + 1e-3))))


# --- paper_interpolation_weight --------------------------------------------------------------------


@pytest.mark.parametrize("r", [0.01, 0.5, 1.0, 1.5, 8.03, 16.5, 31.9, 32.0, 40.0, 5215.0])
def test_paper_weight_is_one_minus_gamma(r):
    assert scaling.yarn_paper_ramp([r])[0] == pytest.approx(1 - gamma_by_hand(r), abs=1e-15)


def test_paper_weight_is_linear_in_r_and_the_code_ramp_linear_in_j():
    tbl = scaling.yarn_pairs(QWEN["d"], QWEN["theta"], QWEN["s"], QWEN["L"])
    w = scaling.yarn_paper_ramp(tbl.rotations)
    inside = (tbl.rotations > 1) & (tbl.rotations < 32)
    r = tbl.rotations[inside]
    # equal steps in r give equal steps in the paper's weight …
    np.testing.assert_allclose(np.diff(w[inside]) / np.diff(r), -1 / 31, rtol=1e-9)
    # … while the code's ramp takes equal steps per pair index, and r shrinks geometrically per pair
    ramp = tbl.ramp[(tbl.ramp > 0) & (tbl.ramp < 1)]
    np.testing.assert_allclose(np.diff(ramp), 1 / (tbl.high - tbl.low), rtol=1e-9)
    np.testing.assert_allclose(r[1:] / r[:-1], QWEN["theta"] ** (-2 / QWEN["d"]), rtol=1e-9)


def test_paper_and_code_agree_on_which_pairs_are_kept_and_which_interpolated():
    tbl = scaling.yarn_pairs(QWEN["d"], QWEN["theta"], QWEN["s"], QWEN["L"])
    w = scaling.yarn_paper_ramp(tbl.rotations)
    assert np.array_equal(w == 0, tbl.ramp == 0) and np.array_equal(w == 1, tbl.ramp == 1)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: scaling.yarn_paper_ramp([1.0, -2.0]), "rotations"),
        (lambda: scaling.yarn_paper_ramp([]), "rotations"),
        (lambda: scaling.yarn_paper_ramp([1.0], alpha=0), "alpha"),
        (lambda: scaling.yarn_paper_ramp([1.0], alpha=32, beta=1), "beta"),
        (lambda: scaling.angle_overshoot([1.0, 0.1], [1.0], 4096, 4), "omega and scaled"),
        (lambda: scaling.angle_overshoot([1.0, 0.1], [1.0, 0.1], 4096, 0.5), "factor"),
        (lambda: scaling.angle_overshoot([1.0, 0.1], [1.0, 0.1], 0, 4), "original_context"),
        (lambda: scaling.methods_for(configs.load("llama2_7b")), "factor"),
        (lambda: L5.yarn_table_markdown(scaling.yarn_pairs(64, 1e4, 4, 4096), [99]), "rows"),
    ],
)
def test_bad_input_raises_value_error_naming_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- methods_for and angle overshoot --------------------------------------------------------------


def test_methods_for_qwen3_follow_each_formula():
    d, theta, s, L = QWEN["d"], QWEN["theta"], QWEN["s"], QWEN["L"]
    m = scaling.methods_for(configs.load("qwen3_8b"))
    new_base = theta * s ** (d / (d - 2))
    yarn, _, _, _ = yarn_by_hand(d, theta, s, L)
    for j in range(d // 2):
        w = omega_by_hand(j, d, theta)
        assert m["none"][j] == pytest.approx(w, rel=1e-12)
        assert m["linear"][j] == pytest.approx(w / s, rel=1e-12)
        assert m["ntk"][j] == pytest.approx(new_base ** (-2 * j / d), rel=1e-12)
        assert m["yarn"][j] == pytest.approx(yarn[j], rel=1e-12)


def test_overshoot_counts_match_explicit_positions():
    d, s, L = QWEN["d"], QWEN["s"], QWEN["L"]
    m = scaling.methods_for(configs.load("qwen3_8b"))
    expected = {k: beyond_by_positions(m["none"], m[k], L, s) for k in ("none", "linear", "ntk", "yarn")}
    assert expected["none"] == v("qwen3_extrapolate_beyond_pairs") == v("rope_pairs_not_turning_qwen3_8b")
    assert expected["linear"] == v("pi_qwen3_beyond_pairs") == 0
    assert expected["yarn"] == v("qwen3_yarn_beyond_pairs") == 0
    assert expected["ntk"] == v("ntk_qwen3_beyond_pairs")
    assert 0 < expected["ntk"] < expected["none"]


def test_ntk_overshoot_is_largest_at_the_first_never_turning_pair():
    d, s, L = QWEN["d"], QWEN["s"], QWEN["L"]
    first = next(j for j in range(d // 2) if 2 * math.pi / omega_by_hand(j, d, QWEN["theta"]) > L)
    assert v("ntk_qwen3_max_overshoot_pair") == first == v("qwen3_first_not_turning_pair")
    # overshoot s·ω'/ω = s · s^(−2j/(d−2)) for NTK-aware
    assert v("ntk_qwen3_max_overshoot") == pytest.approx(s ** (1 - 2 * first / (d - 2)), rel=1e-12)
    m = scaling.methods_for(configs.load("qwen3_8b"))
    by_positions = max_angles(m["ntk"], int(s * L))[first] / max_angles(m["none"], L)[first]
    assert t("ntk_qwen3_max_overshoot") == f"{by_positions:.2f}"
    assert v("qwen3_extrapolate_overshoot") == s


# --- the YaRN pair table -----------------------------------------------------------------------------


def parse_cell(cell: str) -> float:
    cell = cell.strip()
    sup = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")
    if "×10" in cell:
        mant, exp = cell.split("×10")
        return float(mant) * 10 ** int(exp.translate(sup))
    return float(cell.replace(",", ""))


def table_rows(md: str) -> list[list[str]]:
    lines = [ln for ln in md.splitlines() if ln.startswith("|")]
    return [[c.strip() for c in ln.strip("|").split("|")] for ln in lines[2:]]


def test_full_yarn_table_matches_the_formulas_row_by_row():
    d, theta, s, L = QWEN["d"], QWEN["theta"], QWEN["s"], QWEN["L"]
    freq, ramps, low, high = yarn_by_hand(d, theta, s, L)
    rows = table_rows(t("qwen3_yarn_table_full"))
    assert [int(r[0]) for r in rows] == list(range(d // 2))
    for j, (_, lam, r, paper, ramp, band, ratio, final) in enumerate(rows):
        lam_ref = 2 * math.pi / omega_by_hand(j, d, theta)
        assert parse_cell(lam) == pytest.approx(lam_ref, rel=5e-3, abs=5e-3)
        assert parse_cell(r) == pytest.approx(L / lam_ref, rel=5e-3, abs=5e-4)
        assert parse_cell(paper) == pytest.approx(1 - gamma_by_hand(L / lam_ref), abs=5e-4)
        assert parse_cell(ramp) == pytest.approx(ramps[j], abs=5e-4)
        assert band == ("保持原频率" if ramps[j] == 0 else f"除以 {s:g}" if ramps[j] == 1 else "过渡")
        assert parse_cell(ratio) == pytest.approx(freq[j] / omega_by_hand(j, d, theta), abs=5e-4)
        assert parse_cell(final) == pytest.approx(freq[j], rel=5e-3)


def test_short_yarn_table_is_a_subset_showing_the_edges_and_the_largest_gap():
    full = {r[0]: r for r in table_rows(t("qwen3_yarn_table_full"))}
    short = table_rows(t("qwen3_yarn_table"))
    idx = [int(r[0]) for r in short]
    assert idx == sorted(set(idx)) and len(idx) < len(full)
    for r in short:
        assert r == full[r[0]]
    must = {0, v("qwen3_yarn_low"), v("qwen3_yarn_low") + 1, v("qwen3_yarn_high") - 1, v("qwen3_yarn_high"),
            v("qwen3_ramp_gap_pair"), QWEN["d"] // 2 - 1}
    assert must <= set(idx)


def test_yarn_bounds_and_bands_for_qwen3():
    d, theta, L = QWEN["d"], QWEN["theta"], QWEN["L"]
    lo, hi = correction_dim_by_hand(32, d, theta, L), correction_dim_by_hand(1, d, theta, L)
    assert t("qwen3_yarn_low_exact") == f"{lo:.2f}" and t("qwen3_yarn_high_exact") == f"{hi:.2f}"
    assert (v("qwen3_yarn_low"), v("qwen3_yarn_high")) == (math.floor(lo), math.ceil(hi)) == (23, 40)
    _, ramps, _, _ = yarn_by_hand(d, theta, QWEN["s"], L)
    assert (v("qwen3_yarn_kept"), v("qwen3_yarn_blended"), v("qwen3_yarn_interpolated")) == (
        ramps.count(0.0), sum(0 < r < 1 for r in ramps), ramps.count(1.0))
    # the interpolated pairs are exactly the pairs that never complete a turn in L (lesson 4's count)
    never = [j for j in range(d // 2) if 2 * math.pi / omega_by_hand(j, d, theta) > L]
    assert [j for j, r in enumerate(ramps) if r == 1.0] == never
    assert v("qwen3_yarn_interpolated") == v("rope_pairs_not_turning_qwen3_8b") == len(never)
    assert t("qwen3_pair0_turns") == f"{L / (2 * math.pi):,.0f}"


def test_ramp_gap_numbers():
    d, theta, s, L = QWEN["d"], QWEN["theta"], QWEN["s"], QWEN["L"]
    _, ramps, _, _ = yarn_by_hand(d, theta, s, L)
    gaps = [abs((1 - gamma_by_hand(L * omega_by_hand(j, d, theta) / (2 * math.pi))) - ramps[j]) for j in range(d // 2)]
    j = int(np.argmax(gaps))
    assert v("qwen3_ramp_gap_pair") == j
    assert t("qwen3_ramp_gap") == f"{gaps[j]:.2f}"
    assert t("qwen3_ramp_gap_code") == f"{ramps[j]:.2f}"
    assert v("qwen3_ramp_gap") > 0.3  # the two curves really differ, not by rounding


# --- numbers the page quotes ---------------------------------------------------------------------------


def test_qwen3_headline_numbers():
    assert t("qwen3_yarn_context") == f"{field('qwen3_8b', 'context') * 4:,}" == "131,072"
    assert t("qwen3_yarn_attention_factor") == f"{0.1 * math.log(4) + 1:.4f}" == "1.1386"
    assert t("qwen3_yarn_logit_scale") == f"{(0.1 * math.log(4) + 1) ** 2:.4f}"
    assert t("qwen3_config_max_positions_ratio") == f"{field('qwen3_8b', 'max_position_embeddings') / field('qwen3_8b', 'context'):g}"


def test_pi_numbers():
    assert t("pi_qwen3_step_before") == f"{180 / math.pi:.1f}"
    assert t("pi_qwen3_step_after") == f"{180 / math.pi / QWEN['s']:.1f}"


def test_ntk_numbers():
    d, theta, s = QWEN["d"], QWEN["theta"], QWEN["s"]
    assert t("ntk_qwen3_base") == f"{theta * s ** (d / (d - 2)):,.0f}"
    assert t("ntk_qwen3_exponent") == f"{d / (d - 2):.4f}"
    assert t("ntk_qwen3_mid_slowdown") == f"{s ** (2 * (d // 4) / (d - 2)):.2f}"
    assert v("ntk_qwen3_slowest_slowdown") == s and v("ntk_qwen3_fastest_slowdown") == 1
    assert t("ntk_example_naive_slowdown") == f"{4 ** (126 / 128):.3f}"
    # the worked example is Llama 2's base and head width, as the page says
    assert (v("ntk_example_theta"), v("ntk_example_dim")) == (field("llama2_7b", "rope_theta"), field("llama2_7b", "head_dim"))


def test_code_constants_and_example_agree_with_the_paper():
    assert v("yarn_beta_slow") == FACTS["yarn_paper_alpha"]["value"]
    assert v("yarn_beta_fast") == FACTS["yarn_paper_beta"]["value"]
    assert t("yarn_temperature_s8") == f"{FACTS['yarn_paper_temperature_s8']['value']:.3f}"
    assert v("yarn_temperature_example_s") == 8


def test_deepseek_and_gptoss_numbers():
    sc = field("deepseek_v3", "scaling")
    _, ramps, low, high = yarn_by_hand(field("deepseek_v3", "head_dim"), 10_000.0, sc["factor"], sc["original_max_position_embeddings"])
    assert (low, high) == (10, 23)
    assert (v("deepseek_yarn_kept"), v("deepseek_yarn_blended"), v("deepseek_yarn_interpolated")) == (
        ramps.count(0.0), sum(0 < r < 1 for r in ramps), ramps.count(1.0))
    assert t("deepseek_mscale") == f"{0.1 * math.log(40) + 1:.4f}"
    assert t("deepseek_softmax_scale_multiplier") == f"{(0.1 * math.log(40) + 1) ** 2:.3f}"
    g = field("gpt_oss", "scaling")
    lo = correction_dim_by_hand(32, 64, 150_000.0, g["original_max_position_embeddings"])
    hi = correction_dim_by_hand(1, 64, 150_000.0, g["original_max_position_embeddings"])
    assert (v("gptoss_low_if_truncated"), v("gptoss_high_if_truncated")) == (math.floor(lo), math.ceil(hi))
    j = v("gptoss_ex_pair")
    assert lo < j < hi
    assert t("gptoss_ex_ramp") == f"{(j - lo) / (hi - lo):.3f}"
    assert t("gptoss_ex_ramp_truncated") == f"{(j - math.floor(lo)) / (math.ceil(hi) - math.floor(lo)):.3f}"


def test_llama31_numbers():
    sc = field("llama31_8b", "scaling")
    L, lf, hf = sc["original_max_position_embeddings"], sc["low_freq_factor"], sc["high_freq_factor"]
    lam = [2 * math.pi * 500_000 ** (2 * j / 128) for j in range(64)]
    smooth = [j for j, x in enumerate(lam) if L / hf <= x <= L / lf]
    assert (v("llama31_smooth_first"), v("llama31_smooth_last")) == (smooth[0], smooth[-1])
    assert len(smooth) == v("llama31_smoothed")
    # the page's point: Llama 3's smoothing is YaRN's γ(r) with α = low_freq_factor, β = high_freq_factor,
    # so every frequency posenc computes is (1 − γ)·ω/s + γ·ω with γ written from the paper
    inv, _ = scaling.llama3(128, 500_000.0, sc["factor"], lf, hf, L)
    for j in range(64):
        w, g = omega_by_hand(j, 128, 500_000.0), gamma_by_hand(L / lam[j], lf, hf)
        assert inv[j] == pytest.approx((1 - g) * w / sc["factor"] + g * w, rel=1e-12), j
    assert v("llama31_factor_times_original") == sc["factor"] * L != field("llama31_8b", "max_position_embeddings")


def test_yarn_table2_cells_are_the_facts():
    rows = table_rows(t("yarn_table2"))
    head = [ln for ln in t("yarn_table2").splitlines()][0]
    assert [c.strip() for c in head.strip("|").split("|")][1:] == list(L5.YARN_TABLE2_LENGTHS)
    for (label, size), row in zip(L5.YARN_TABLE2_ROWS, rows):
        assert row[0] == label
        for length, cell in zip(L5.YARN_TABLE2_LENGTHS, row[1:]):
            assert float(cell) == FACTS[f"yarn_t2_{size}_ppl_{length}"]["value"]


def test_every_lesson5_fact_is_a_tagged_paper_or_doc_value_and_is_quoted():
    md = LESSON.read_text(encoding="utf-8")
    quoted = set(re.findall(r'fact\("([a-z0-9_]+)"', md))
    table2 = {f"yarn_t2_{size}_ppl_{n}" for _, size in L5.YARN_TABLE2_ROWS for n in L5.YARN_TABLE2_LENGTHS}
    for name, entry in FACTS.items():
        assert entry["tag"] == "V" and entry["url"].startswith("https://"), name
        assert facts.get(name).value == entry["value"]
        assert name in quoted or name in table2, f"{name} is never quoted"


# --- the walk-through snippet ---------------------------------------------------------------------------


def test_torch_snippet_matches_the_hand_reference():
    path = ROOT / "docs" / "snippets" / "lesson5_yarn_torch.py"
    spec = importlib.util.spec_from_file_location("lesson5_yarn_torch", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules.pop("lesson5_yarn_torch", None)
    spec.loader.exec_module(mod)
    inv, att, low, high = mod.yarn_inv_freq()
    ref, _, ref_low, ref_high = yarn_by_hand(QWEN["d"], QWEN["theta"], QWEN["s"], QWEN["L"])
    assert (low, high) == (ref_low, ref_high)
    np.testing.assert_allclose(inv.numpy(), ref, rtol=1e-12)
    assert att == pytest.approx(0.1 * math.log(QWEN["s"]) + 1, rel=1e-15)


# --- the built page --------------------------------------------------------------------------------------


def page_text_with_tex(page: str) -> str:
    """The page's text, each formula KaTeX set at build time (tools/katex_render.py) written back as \\(TeX\\)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(page, "html.parser")
    for formula in soup.select("span.katex"):
        formula.replace_with(f"\\({formula.annotation.get_text()}\\)")
    return soup.get_text()


@pytest.mark.build
def test_page_shows_the_computed_headline_numbers_it_does_not_type(site_dir):
    page = (site_dir / "lessons" / "05-long-context" / "index.html").read_text(encoding="utf-8")
    md = LESSON.read_text(encoding="utf-8")
    context = f"{field('qwen3_8b', 'context') * 4:,}"
    factor = f"{0.1 * math.log(4) + 1:.4f}"
    for value in (context, factor, "163,840", "1.874"):
        assert value in page, f"{value} missing from the built lesson 5"
        assert value not in md, f"{value} is typed in the Markdown; it must come from a macro"
    text = page_text_with_tex(page)
    assert "low = 23, high = 40" in text  # the snippet's real output
    assert re.search(r"取整得\s*\\\(\\text\{low\}\\\)\s*=\s*23", text) and re.search(r"\\\(\\text\{high\}\\\)\s*=\s*40", text)
    assert 'data-pe-widget="scaling-explorer"' in page
    assert "项目实测：不微调，直接缩放" in text
