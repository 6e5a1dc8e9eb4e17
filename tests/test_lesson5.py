"""Lesson 5 (long context): the numbers and tables the page quotes, its snippet and every figure.

What the tests compare against, part by part:

- Lesson 5 (PI → NTK-aware → YaRN, Llama 3.1): the helpers, tables and numbers the page quotes. References are
  written independently of the code under test: the formulas term by term with ``math`` (Chen et al. 2023; YaRN Eq.
  16, Eq. 22 and its NTK-by-parts γ(r); llama-models ``apply_scaling``), explicit position-by-position angles
  instead of the ratio formula, and the raw YAML files instead of the loaders. Model constants come from
  posenc/data/models.yaml, read here directly.
- Lesson 5's figures show what posenc computes, in order, with their labels; and they fit a phone. Each figure is
  drawn as the build draws it (tests/figure_support.py) and its plotted data are compared with posenc's values for
  the same model: a reversed, truncated or mislabelled series fails. The phone rule: trimmed width ≤
  PHONE_MAX_WIDTH_IN, every text ≥ MIN_TEXT_PT, in both themes.
- Its reading time is computed by tools/build/reading_time.py, like every lesson's (tests/test_reading_time.py).
"""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path
import re
import sys

import matplotlib
import numpy as np
import pytest
import yaml

from figures_src import lesson5 as F
from posenc import configs, facts, scaling
from posenc import configs, long_context, rope, scaling
from posenc import examples as ex
from posenc import quantities as numbers
from posenc.quantities import lesson5 as L5
from posenc.quantities import value
from figure_support import all_lines, drawn, legend_labels, lines, registered, tick_labels
from yarn_by_hand import QWEN, correction_dim_by_hand, gamma_by_hand, omega_by_hand, yarn_by_hand


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


def test_every_paper_fact_of_lesson5_is_a_tagged_paper_or_doc_value_and_is_quoted():
    """PI, YaRN and Qwen3's documentation (some also quoted earlier, by lesson 3b, and kept in its facts file)."""
    md = LESSON.read_text(encoding="utf-8")
    quoted = set(re.findall(r'fact\("([a-z0-9_]+)"', md))
    table2 = {f"yarn_t2_{size}_ppl_{n}" for _, size in L5.YARN_TABLE2_ROWS for n in L5.YARN_TABLE2_LENGTHS}
    every = {}
    for path in sorted((ROOT / "posenc" / "data").glob("facts_*.yaml")):
        every.update(yaml.safe_load(path.read_text(encoding="utf-8")))
    papers = {n: e for n, e in every.items()
              if n.startswith(("pi_", "yarn_")) or n in ("qwen3_yarn_validated", "qwen3_transformers_caveat_version")}
    assert len(papers) == 36
    for name, entry in papers.items():
        assert entry["tag"] == "V" and entry["url"].startswith("https://"), name
        assert facts.get(name).value == entry["value"]
        assert name in quoted or name in table2, f"{name} is never quoted"


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


def page_text_with_math(page: str) -> str:
    """The page's text, each formula KaTeX set at build time (tools/build/katex_render.py) written as \\(its MathML
    text\\), tokens spaced: \\(high\\) for $\\text{high}$ (the build ships no TeX source inside the MathML)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(page, "html.parser")
    for formula in soup.select("span.katex"):
        formula.replace_with(f"\\({formula.math.get_text(' ', strip=True)}\\)")
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
    text = page_text_with_math(page)
    assert "low = 23, high = 40" in text  # the snippet's real output
    # formulas are set by KaTeX at build time: $i_{fast}$ (the code's low) is a formula, the computed edge printed after
    # it; KaTeX sets each letter of the subscript apart
    assert re.search(r"取整得\s*\\\(i\s*f\s*a\s*s\s*t\\\)\s*=\s*23", text)
    assert re.search(r"\\\(i\s*s\s*l\s*o\s*w\\\)\s*=\s*40", text)
    assert 'data-pe-widget="scaling-explorer"' in page
    assert "项目实测：不微调，直接缩放" in text


# --- the ABF count, SmolLM3's two sources, LongRoPE, Liu and Men, bf16 -------------------------------------


def test_abf_count_is_computed_over_recipes_only():
    # Llama 3 was pre-trained with θ = 500,000 from the start (its Table 3): not a row, not in the count
    rows = table_rows(t("abf_cases_table"))
    assert [r[0] for r in rows] == ["Code Llama", "Qwen3 长上下文阶段", "SmolLM3 第一段", "SmolLM3 第二段"]
    assert v("abf_cases_count") == len(rows)
    d = 128
    cases = [(1e4, 4096, 1e6, 16_384), (1e4, 4096, 1e6, 32_768), (5e4, 4096, 2e6, 32_768), (2e6, 32_768, 5e6, 65_536)]
    fewer = sum(turned_by_hand(d, b1, l1) >= turned_by_hand(d, b2, l2) for b1, l1, b2, l2 in cases)
    assert v("abf_cases_fewer_turned") == fewer == 3
    assert FACTS["llama3_table3_theta"]["value"] == field("llama3_8b", "rope_theta")


def turned_by_hand(d, theta, L):
    return sum(2 * math.pi * theta ** (2 * i / d) <= L for i in range(d // 2))


def test_smollm3_rows_by_config_and_by_blog():
    assert (FACTS["smollm3_32k_theta"]["value"], FACTS["smollm3_blog_32k_theta"]["value"]) == (2_000_000, 1_500_000)
    for which, theta in (("config", 2_000_000), ("blog", 1_500_000)):
        assert v(f"abf_smollm3_turned_{which}") == turned_by_hand(128, theta, 32_768)
        assert v(f"abf_smollm3_share_{which}") == pytest.approx(32_768 / (2 * math.pi * theta ** (126 / 128)), rel=1e-12)
        assert v(f"abf_smollm3_ntk_{which}") == pytest.approx((theta / 50_000) ** (126 / 128), rel=1e-12)
    assert v("abf_smollm3_turned_before") == turned_by_hand(128, 50_000, 4096)


PHI = MODELS["phi35_mini"]["fields"]


def test_longrope_numbers_against_transformers():
    from transformers import modeling_rope_utils
    from transformers.configuration_utils import PreTrainedConfig

    sc = PHI["scaling"]["value"]
    cfg = PreTrainedConfig(hidden_size=PHI["hidden"]["value"], num_attention_heads=PHI["heads"]["value"],
                           max_position_embeddings=PHI["max_position_embeddings"]["value"],
                           original_max_position_embeddings=PHI["context"]["value"],
                           rope_parameters={"rope_type": "longrope", "rope_theta": PHI["rope_theta"]["value"],
                                            "original_max_position_embeddings": PHI["context"]["value"],
                                            "short_factor": sc["short_factor"], "long_factor": sc["long_factor"]})
    init = modeling_rope_utils.ROPE_INIT_FUNCTIONS["longrope"]
    short, att = init(cfg, seq_len=None)
    long_, att_long = init(cfg, seq_len=PHI["max_position_embeddings"]["value"])
    short, long_ = short.double().numpy(), long_.double().numpy()
    L = PHI["context"]["value"]
    omega = np.array([omega_by_hand(j, 96, 10_000.0) for j in range(48)])
    assert v("longrope_phi35_pairs") == len(short) == 48
    assert t("longrope_phi35_attention_factor") == f"{att:.4f}" == f"{math.sqrt(1 + math.log(32) / math.log(4096)):.4f}"
    assert att_long == att  # the factor does not depend on the length
    assert t("longrope_phi35_logit_scale") == f"{att ** 2:.4f}"
    assert t("longrope_phi35_yarn_factor") == f"{0.1 * math.log(32) + 1:.4f}"
    never = lambda freq, n: sum(2 * math.pi / w > n for w in freq)  # noqa: E731
    assert v("longrope_phi35_not_turning") == never(omega, L)
    assert v("longrope_phi35_not_turning_short") == never(short, L)
    # the long set reaches no angle past what training showed: s·ω'/ω ≤ 1 for every pair that never turned
    over = [32 * long_[j] / omega[j] for j in range(48) if 2 * math.pi / omega[j] > L]
    assert v("longrope_phi35_beyond_long") == sum(o > 1 + 1e-6 for o in over) == 0
    lf, sf = sc["long_factor"], sc["short_factor"]
    assert t("longrope_phi35_long_min") == f"{min(lf):.2f}" and t("longrope_phi35_long_max") == f"{max(lf):.2f}"
    assert t("longrope_phi35_short_max") == f"{max(sf):.2f}"
    assert v("longrope_phi35_long_above_s") == sum(f > 32 for f in lf)
    assert v("longrope_phi35_first_above_s") == next(j for j, f in enumerate(lf) if f > 32)


def b_by_hand(m, d, base):
    return sum(math.cos(m * base ** (-2 * i / d)) for i in range(d // 2))


def test_men_and_liu_table_rows():
    rows = table_rows(t("men_bounds_table"))
    configs_ = [("Llama 2 7B", 1e4, 4096, "men_t2_4k"), ("Llama 3 8B", 5e5, 8192, "men_t2_8k"),
                ("Qwen3-8B", 1e6, 32_768, "men_t2_32k"), ("Code Llama", 1e6, 16_384, "men_t2_16k"),
                ("SmolLM3 第二段", 5e6, 65_536, "men_t2_64k")]
    assert [r[0] for r in rows] == [c[0] for c in configs_]
    for row, (_, base, L, fact_name) in zip(rows, configs_):
        extra = 2 * math.ceil(64 * math.log(L / (2 * math.pi)) / math.log(base))  # Liu's README eq. 13
        assert int(row[3]) == extra and int(row[4]) == 64 - extra // 2 == 64 - turned_by_hand(128, base, L)
        assert row[7] == f"{FACTS[fact_name]['value']:,}"
    # B by hand at the distances the page names
    assert b_by_hand(v("men_first_negative_qwen3_8b"), 128, 1e6) < 0 <= b_by_hand(v("men_first_negative_qwen3_8b") - 1, 128, 1e6)
    assert b_by_hand(v("men_first_negative_llama2_7b"), 128, 1e4) < 0
    assert rows[2][6] == t("men_first_negative_qwen3_8b") and rows[1][6] == "—"
    assert v("men_table_base_32k_minimum") < 0 <= v("men_neighbour_base_32k_minimum")
    assert v("men_neighbour_base_32k") < FACTS["men_t2_32k"]["value"]
    assert (v("liu_d_extra_llama2_7b"), v("liu_d_extra_qwen3_8b")) == (92, 80)  # 92: the authors' README


def test_bf16_numbers_against_torch():
    import torch

    omega = torch.tensor([omega_by_hand(j, 128, 1e6) for j in range(64)], dtype=torch.float64)
    for where, p in (("train_end", 32_767), ("yarn_end", 131_071)):
        assert v(f"bf16_position_{where}") == p
        exact = p * omega
        bf = (torch.tensor(float(p)).to(torch.bfloat16) * omega.to(torch.bfloat16)).double()
        f32 = (torch.tensor(float(p)) * omega.float()).double()
        err_bf, err_32 = (bf - exact).abs(), (f32 - exact).abs()
        assert t(f"bf16_angle_error_{where}") == f"{float(err_bf.max()):.1f}"
        assert v(f"bf16_pairs_beyond_pi_{where}") == int((err_bf > math.pi).sum())
        assert t(f"bf16_fp32_error_{where}") == f"{float(err_32.max()):.4f}"
    assert v("bf16_rounded_train_end") == int(torch.tensor(32_767.0).to(torch.bfloat16).item())
    assert (v("bf16_spacing_train_end"), v("bf16_spacing_yarn_end"), v("bf16_exact_integers")) == (128, 512, 256)
    assert 0 < v("bf16_cos_sin_cast_error") <= 2 ** -9


# --- figures -------------------------------------------------------------------------------------------------------


FIGURES = ("scaling_wavelengths_qwen3", "scaling_slowdown_per_pair", "yarn_ramp_paper_vs_code",
           "scaling_angle_overshoot", "abf_wavelengths_codellama", "ruler_window_vs_effective")


QWEN_CFG = configs.load(ex.SCALING_MODEL)


S = QWEN_CFG["scaling"]["factor"]


L = QWEN_CFG["scaling"]["original_max_position_embeddings"]


LABELS = ["不缩放", "PI（位置插值）", "NTK-aware", "YaRN"]


def methods():
    return scaling.methods_for(QWEN_CFG)


def hlines(ax) -> list[float]:
    """y of every horizontal rule (axhline: two points with equal y spanning the axes)."""
    return [float(y[0]) for x, y in all_lines(ax) if len(y) == 2 and y[0] == y[1] and tuple(x) == (0.0, 1.0)]


def vlines(ax) -> list[float]:
    return [float(x[0]) for x, y in all_lines(ax) if len(x) == 2 and x[0] == x[1] and tuple(y) == (0.0, 1.0)]


def test_scaling_wavelengths_qwen3():
    m = methods()
    with drawn("scaling_wavelengths_qwen3") as fig:
        ax = fig.axes[0]
        got = lines(ax)
        assert list(got) == LABELS
        for label, method in zip(LABELS, scaling.COMPARED_METHODS):
            x, y = got[label]
            np.testing.assert_array_equal(x, np.arange(len(m[method])))
            np.testing.assert_allclose(y, rope.wavelengths(m[method]), rtol=1e-12)
        assert sorted(hlines(ax)) == [L, S * L]
        t = scaling.yarn_pairs_for_model(QWEN_CFG)
        span = [p for p in ax.patches if p.get_label() == "YaRN 过渡区间"][0]
        x0, x1 = span.get_x(), span.get_x() + span.get_width()
        assert (x0, x1) == (t.low, t.high) == (value("qwen3_yarn_low"), value("qwen3_yarn_high"))
        assert ax.get_yscale() == "log" and "token" in ax.get_ylabel()
        assert "YaRN 过渡区间" in legend_labels(fig)
        label_texts = [x.get_text() for x in ax.texts]
        assert label_texts == [f"训练长度 {L:,}", f"扩展后 {int(S * L):,}"]


def test_scaling_slowdown_per_pair():
    m = methods()
    with drawn("scaling_slowdown_per_pair") as fig:
        top, bottom = fig.axes
        assert top.get_position().y0 > bottom.get_position().y1  # Qwen3 on top, stacked
        got = lines(top)
        assert list(got) == LABELS[1:]
        for label, method in zip(LABELS[1:], scaling.COMPARED_METHODS[1:]):
            np.testing.assert_allclose(got[label][1], m["none"] / m[method], rtol=1e-12)
        llama = configs.load("llama31_8b")
        omega = rope.inverse_frequencies(llama["head_dim"], llama["rope_theta"])
        (x, y), = all_lines(bottom)
        np.testing.assert_array_equal(x, np.arange(len(omega)))
        np.testing.assert_allclose(y, omega / scaling.for_model(llama)[0], rtol=1e-12)
        assert [t.get_text() for t in bottom.texts] == ["不变", "平滑", f"除以 {llama['scaling']['factor']:g}"]
        xs = [t.get_position()[0] for t in bottom.texts]
        assert xs == sorted(xs)
        first, last = value("llama31_smooth_first"), value("llama31_smooth_last")
        span = bottom.patches[0]
        assert (span.get_x(), span.get_x() + span.get_width()) == (first - 0.5, last + 0.5)
        assert [top.get_title(), bottom.get_title()] == ["Qwen3-8B", "Llama 3.1 8B"]


def test_yarn_ramp_paper_vs_code():
    t = scaling.yarn_pairs_for_model(QWEN_CFG)
    with drawn("yarn_ramp_paper_vs_code") as fig:
        ax, top = fig.axes
        (code_label, (xc, yc)), (paper_label, (xp, yp)) = lines(ax).items()
        assert "代码" in code_label and "论文" in paper_label
        np.testing.assert_array_equal(xc, np.arange(len(t.pair)))
        np.testing.assert_allclose(yc, t.ramp, atol=0)
        gamma = [0.0 if r < 1 else 1.0 if r > 32 else (r - 1) / 31 for r in t.rotations]
        np.testing.assert_allclose(yp, 1 - np.array(gamma), atol=1e-15)
        assert vlines(ax) == pytest.approx([value("qwen3_yarn_low_exact"), value("qwen3_yarn_high_exact")])
        # the top axis: turns r = 32, 16, …, 1 at the pair index where a pair turns r times in L
        assert tick_labels(top, "x") == ["32", "16", "8", "4", "2", "1"]
        d, theta = QWEN_CFG["head_dim"], QWEN_CFG["rope_theta"]
        expected = [d * math.log(L / (2 * math.pi * r)) / (2 * math.log(theta)) for r in (32, 16, 8, 4, 2, 1)]
        np.testing.assert_allclose(top.get_xticks(), expected, rtol=1e-12)
        arrow = [c for c in ax.texts if isinstance(c, matplotlib.text.Annotation)][0]
        gap = value("qwen3_ramp_gap_pair")
        assert arrow.xy == (gap, t.ramp[gap]) and arrow.xyann == (gap, t.paper_ramp[gap])


def test_scaling_angle_overshoot():
    m = methods()
    never = [j for j in range(len(m["none"])) if 2 * math.pi / m["none"][j] > L]
    with drawn("scaling_angle_overshoot") as fig:
        ax = fig.axes[0]
        got = lines(ax)
        assert list(got) == LABELS
        for label, method in zip(LABELS, scaling.COMPARED_METHODS):
            x, y = got[label]
            np.testing.assert_array_equal(x, never)
            np.testing.assert_allclose(y, S * m[method][never] / m["none"][never], rtol=1e-12)
        assert hlines(ax) == [1.0]
        assert got["NTK-aware"][1][0] == pytest.approx(value("ntk_qwen3_max_overshoot"), rel=1e-12)


def test_abf_wavelengths_codellama():
    case = long_context.base_raise("codellama")
    with drawn("abf_wavelengths_codellama") as fig:
        ax = fig.axes[0]
        got = lines(ax)
        assert list(got) == [f"θ = {case.base:,.0f}", f"θ = {case.new_base:,.0f}"] == ["θ = 10,000", "θ = 1,000,000"]
        i = np.arange(case.head_dim // 2)
        for (x, y), theta in zip(got.values(), (case.base, case.new_base)):
            np.testing.assert_array_equal(x, i)
            np.testing.assert_allclose(y, 2 * np.pi * theta ** (2 * i / case.head_dim), rtol=1e-12)
        assert hlines(ax) == [case.length, case.new_length, case.far] == [4096, 16_384, 100_000]
        assert [t.get_text() for t in ax.texts] == ["原训练长度 4,096", "新训练长度 16,384", "自报可用到 100,000"]
        assert ax.get_yscale() == "log"


def test_ruler_window_vs_effective():
    rows = long_context.ruler_rows()
    with drawn("ruler_window_vs_effective") as fig:
        ax = fig.axes[0]
        got = lines(ax)
        assert list(got) == ["声称长度", "有效长度"]
        (xc, yc), (xe, ye) = got.values()
        assert list(yc) == sorted(yc, reverse=True) and list(ye) == list(yc)  # first row on top
        np.testing.assert_array_equal(xc, [long_context.window_tokens(r.claimed) for r in rows])
        np.testing.assert_array_equal(xe, [long_context.window_tokens(r.effective) for r in rows])
        words = [t.get_text() for t in ax.texts]
        assert words[0::2] == [r.model for r in rows]
        assert words[1::2] == ["25%", "50%", "50%", "50%", "16%", "1.6%", "25%"]
        assert tick_labels(ax, "x") == ["4K", "16K", "64K", "256K", "1M"]
        assert ax.get_xscale() == "log"


def test_every_figure_of_the_lesson_has_a_content_test_here():
    assert registered(F.__name__) == sorted(FIGURES)


