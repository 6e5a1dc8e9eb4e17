"""Lesson 4 (RoPE): the numbers the page quotes and every figure drawn and compared with what posenc computes.

What the tests compare against, part by part:

- Lesson 4: the shift experiment (posenc.shift) and the numbers the page quotes. References are written here from
  the papers, independently of posenc: the sinusoid from Vaswani et al. 2017 §3.5 written out with pos /
  10000^(2i/d), RoPE as RoFormer §3's block-diagonal R^d_{Θ,m} built with loops, the single-pair score from polar
  coordinates, and transformers' Llama weight converter's ``permute`` formula. Expected counts come from facts.md §2
  (checked there with plain Python).
- Lessons 3 and 4: every figure is drawn and what it plots is compared with what posenc computes for it. Each test
  reads the drawn Figure (tests/figure_support.py): plotted data in order, tick and legend labels, titles and the
  numbers printed on the figure. A reversed, truncated or shifted series, a mislabelled panel or a number that
  disagrees with the registered quantity fails here. The phone rule (figures_src/_style.py) is checked for every
  figure in tests/test_figure_phone.py and tests/test_figures.py.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from figure_support import all_lines, drawn, legend_labels, registered, tick_labels
from posenc import configs, rope, shift
from posenc import examples as ex
from posenc import quantities
from posenc import quantities as numbers


def test_the_pages_pair_example():
    # widget defaults: q = (1, 0.4) at m = 7, k = (0.6, 0.9) at n = 3 (distance m − n = 4), pair 0 of d = 16 → ω = 1
    q, k, w = np.array([1.0, 0.4]), np.array([0.6, 0.9]), 1.0
    polar = math.hypot(*q) * math.hypot(*k) * math.cos(4 * w + math.atan2(0.4, 1.0) - math.atan2(0.9, 0.6))
    assert (ex.PAIR_M, ex.PAIR_N, numbers.value("l4_pair_offset")) == (7, 3, 4)
    assert numbers.value("l4_pair_rope") == pytest.approx(polar, abs=1e-12)
    assert numbers.value("l4_pair_rope_shifted") == pytest.approx(polar, abs=1e-12)
    assert numbers.value("l4_pair_rope_formula") == pytest.approx(polar, abs=1e-12)
    added = (q + [math.sin(7), math.cos(7)]) @ (k + [math.sin(3), math.cos(3)])
    added_shifted = (q + [math.sin(17), math.cos(17)]) @ (k + [math.sin(13), math.cos(13)])
    assert numbers.value("l4_pair_added") == pytest.approx(added, abs=1e-12)
    assert numbers.value("l4_pair_added_shifted") == pytest.approx(added_shifted, abs=1e-12)
    assert abs(added - added_shifted) > 0.1


def test_lesson3s_shift_matrix_is_R_phi_with_the_pair_swapped():
    # Lesson 3 turns (sin, cos) by [[cos φ, sin φ], [−sin φ, cos φ]]; lesson 4's R(φ) turns (cos, sin).
    # Swapping both rows and columns of one gives the other, and both move the point p·ω to p·ω + φ.
    swap = np.array([[0.0, 1.0], [1.0, 0.0]])
    for phi, x in ((0.7, 1.3), (2.5, -0.4), (-1.1, 4.0)):
        lesson3 = np.array([[math.cos(phi), math.sin(phi)], [-math.sin(phi), math.cos(phi)]])
        r = np.array([[math.cos(phi), -math.sin(phi)], [math.sin(phi), math.cos(phi)]])
        np.testing.assert_allclose(swap @ lesson3 @ swap, r, atol=1e-15)
        np.testing.assert_allclose(lesson3 @ [math.sin(x), math.cos(x)], [math.sin(x + phi), math.cos(x + phi)], atol=1e-12)
        np.testing.assert_allclose(r @ [math.cos(x), math.sin(x)], [math.cos(x + phi), math.sin(x + phi)], atol=1e-12)
        np.testing.assert_allclose(shift.rotate_pair([math.cos(x), math.sin(x)], phi), r @ [math.cos(x), math.sin(x)], atol=1e-12)


def _count(head_dim, theta, L, fraction=1.0):
    d = int(head_dim * fraction)
    return sum(1 for i in range(d // 2) if 2 * math.pi * theta ** (2 * i / d) > L)


def test_the_headline_counts_are_those_of_facts_md():
    # facts.md §2 (b), (c) and "Other counts"
    assert (numbers.value("rope_pairs_not_turning_qwen3_8b"), numbers.value("rope_pairs_total_qwen3_8b")) == (24, 64)
    assert (numbers.value("rope_pairs_not_turning_qwen3_next_80b_a3b"), numbers.value("rope_pairs_total_qwen3_next_80b_a3b")) == (10, 32)
    assert numbers.value("qwen3next_pairs_not_turning_theta5e6") == 9
    assert numbers.value("rope_pairs_not_turning_llama2_7b") == 18
    assert numbers.value("qwen3next_first_not_turning_pair") == 22  # facts §2(c): i = 22..31


def _critical_dim(d, base, train_len):
    """Liu et al. 2023's critical dimension, eq. (13) of the authors' README: d_extra = 2⌈(d/2)·log_base(T/2π)⌉."""
    return 2 * math.ceil(d / 2 * math.log(train_len / (2 * math.pi)) / math.log(base))


@pytest.mark.parametrize("key, d, base, train_len", [
    ("llama2_7b", 128, 10_000, 4096), ("llama3_8b", 128, 500_000, 8192), ("qwen3_8b", 128, 1_000_000, 32_768)])
def test_pairs_not_turning_are_the_dims_past_liu_et_als_critical_dimension(key, d, base, train_len):
    # the count the lesson teaches is (d − d_extra)/2, Liu et al.'s critical dimension counted from the other end
    assert numbers.value(f"rope_pairs_not_turning_{key}") == (d - _critical_dim(d, base, train_len)) // 2


def test_liu_et_als_llama2_value_is_what_the_page_counts():
    from posenc import facts

    fact = facts.get("liu_llama2_critical_dim")
    assert fact.value == _critical_dim(128, 10_000, 4096) == 92
    assert 128 - fact.value == 2 * numbers.value("rope_pairs_not_turning_llama2_7b")
    assert fact.tag == "V"


def test_mistral_is_counted_within_its_window_not_its_position_limit():
    cfg = configs.load("mistral_7b_v01")
    window = cfg["sliding_window"]
    assert window == 4096 and cfg["context"] == 8192 and cfg["max_position_embeddings"] == 32_768  # trained with 8k; 32,768 is a position limit
    assert numbers.value("l4_mistral_window_pairs_not_turning") == _count(128, 10_000, window) == 18
    assert numbers.value("l4_mistral_window_pairs_not_turning") == numbers.value("rope_pairs_not_turning_llama2_7b")
    assert "mistral_7b_v01" not in ex.ROPE_TABLE_MODELS


def test_lesson_4s_table_holds_only_full_head_rope_at_a_native_context():
    # no rotated part of a head, no window, no context reached by scaling: lessons 5-6 teach those
    for key in ex.ROPE_TABLE_MODELS + ex.SPECTRUM_MODELS:
        cfg = configs.load(key)
        assert cfg.position == "rope" and cfg.get("rotary_fraction", 1.0) == 1.0, key
        assert "sliding_window" not in cfg.fields, key
        assert rope.rotary_dim(cfg["head_dim"], cfg.get("rotary_fraction", 1.0)) == cfg["head_dim"], key
        assert rope.model_spectrum(cfg).context == cfg["context"], key  # counted at the native context, unscaled


def test_llama2_first_slow_pair_by_loop():
    lam = [2 * math.pi * 10_000 ** (2 * i / 128) for i in range(64)]
    first = next(i for i, x in enumerate(lam) if x > 4096)
    assert numbers.value("l4_llama2_first_not_turning") == first
    assert numbers.value("l4_llama2_wavelength_first_not_turning") == pytest.approx(lam[first])
    assert _count(128, 10_000, 4096) == numbers.value("rope_pairs_not_turning_llama2_7b")


def test_turning_share_and_slowest_turns():
    assert numbers.value("turning_dims_share_qwen3_8b") == pytest.approx(40 / 64)
    assert numbers.value("qwen3_slowest_turns_in_context") == pytest.approx(32_768 / (2 * math.pi * 1e6 ** (126 / 128)))


def test_model_counts():
    # the data files read directly, not through configs: each model is a top-level key with a position
    import yaml
    from pathlib import Path

    kinds = {}
    for f in sorted((Path(__file__).resolve().parent.parent / "posenc" / "data").glob("models*.yaml")):
        for key, entry in (yaml.safe_load(f.read_text(encoding="utf-8")) or {}).items():
            if "position" in entry:
                kinds[key] = entry["position"]
    assert sorted(kinds) == sorted(configs.keys())
    assert numbers.value("l4_models_total") == len(kinds)
    assert numbers.value("l4_rope_models") == sum(kind == "rope" for kind in kinds.values())
    assert numbers.value("l4_mrope_models") == sum(kind == "mrope" for kind in kinds.values())
    assert numbers.value("l4_alibi_models") == sum(kind == "alibi" for kind in kinds.values()) == 3  # MPT, BLOOM, Baichuan
    # the models without RoPE: GPT-2 and BERT-base (learned tables), T5 (buckets), MPT, BLOOM, Baichuan (ALiBi),
    # Kimi Linear and Jamba (no positional encoding in any attention layer)
    assert {k for k, kind in kinds.items() if kind not in ("rope", "mrope")} == {
        "gpt2", "bert_base", "t5_base", "mpt_7b", "bloom_176b", "baichuan_13b", "kimi_linear_48b", "jamba_v01"}


def test_spectrum_alt_text_quotes_the_counts():
    from figures_src import build

    alt = build.load_all()["rope_spectrum"].alt_text()
    assert f"64 对里 {_count(128, 1e6, 32_768)} 对" in alt
    assert f"64 对里 {_count(128, 1e4, 4096)} 对" in alt and f"64 对里 {_count(128, 5e5, 8192)} 对" in alt
    en = build.load_all()["rope_spectrum"].alt_text("en")  # the English alt text quotes the same counts
    assert f"{_count(128, 1e6, 32_768)} of 64 pairs" in en and "context line 32,768" in en
    assert f"{_count(128, 1e4, 4096)} of 64 pairs" in en and f"{_count(128, 5e5, 8192)} of 64 pairs" in en


def _page_text(site_dir, page: str) -> str:
    import html
    import re

    raw = (site_dir / page / "index.html").read_text(encoding="utf-8")
    article = raw[raw.find("<article"):raw.find("</article>")]
    return html.unescape(re.sub(r"<[^>]+>", "", article))


@pytest.mark.build
def test_built_pages_show_the_computed_counts(site_dir):
    from site_support import ROOT

    qwen3 = f"{_count(128, 1e6, 32_768)} / {128 // 2}"
    qwen3next = f"{_count(256, 1e7, 262_144, 0.25)} / {int(256 * 0.25) // 2}"
    assert (qwen3, qwen3next) == ("24 / 64", "10 / 32")
    lesson4 = _page_text(site_dir, "lessons/04-rope")
    lesson6 = _page_text(site_dir, "lessons/06-partial-nope")
    assert qwen3 in lesson4  # lesson 4's table of per-model counts
    # Qwen3-Next (a rotated part of the head, lesson 6) is out of the table, in the folded note on its sources
    assert qwen3next not in lesson4 and f"{_count(256, 1e7, 262_144, 0.25)} 对转不满" in lesson4
    # lesson 6's overview table gives Qwen3-8B's count; its Qwen3-Next row gives the RoPE shares of q and k
    # instead, and the count of pairs that do not turn is quoted in the note on the unverified θ
    assert qwen3 in lesson6 and f"{_count(256, 1e7, 262_144, 0.25)} 对转不满" in lesson6
    md4 = (ROOT / "docs/lessons/04-rope.md").read_text(encoding="utf-8")
    assert "24 / 64" not in md4 and "10 / 32" not in md4, "the counts must come from macros"
    # the shift experiment's RoPE row is rounding-sized, the added rows are not
    assert "×10⁻¹" in lesson4
    raw = (site_dir / "lessons/04-rope/index.html").read_text(encoding="utf-8")
    assert 'data-pe-widget="rope-pair"' in raw and 'data-q="1,0.4"' in raw and 'data-shift="10"' in raw
    assert 'data-m="7"' in raw and 'data-n="3"' in raw  # the query after the key: distance m − n = 4
    # the RoPE-vs-ALiBi history, dated, and Mistral's training length
    for text in ("v2.4.0（2023 年 12 月 22 日）", "2024 年 8 月", "PyTorch 2.5（2024 年 10 月）", "2023 年 2 月", "8k"):
        assert text in lesson4, text
    assert "原生上下文 32,768" not in lesson4
    home = _page_text(site_dir, "")
    assert "位置编码的演进" in home and "786,432" in home and "24 对" in home
    home_raw = (site_dir / "index.html").read_text(encoding="utf-8")
    for lesson in ("01-order-blind", "02-learned-table", "03-sinusoidal", "04-rope", "05-long-context", "06-partial-nope"):
        assert f"lessons/{lesson}/" in home_raw, lesson


# --- figures -------------------------------------------------------------------------------------------------------


def number_in(label: str) -> float:
    """The first number printed in a label ("周期 19,869" → 19869.0, "转 213.0°" → 213.0, "−0.22" → −0.22)."""
    m = re.search(r"[−-]?\d[\d,]*(?:\.\d+)?", label)
    assert m, f"no number in {label!r}"
    return float(m.group(0).replace(",", "").replace("−", "-"))


def printed(label: str, value: float) -> bool:
    """Whether ``label`` prints ``value`` to the precision it shows."""
    text = re.search(r"[−-]?\d[\d,]*(?:\.(\d+))?", label)
    decimals = len(text.group(1) or "")
    return abs(number_in(label) - value) <= 0.5 * 10 ** -decimals + 1e-12


def test_rope_pair_turn_draws_rotated_and_added_vectors():
    q, k = np.asarray(ex.PAIR_Q), np.asarray(ex.PAIR_K)
    w = shift.pair_omega(ex.PAIR_INDEX, ex.L4_DIM)
    moves = ((ex.PAIR_M, ex.PAIR_N), (ex.PAIR_M + ex.SHIFT, ex.PAIR_N + ex.SHIFT))
    rotated = [v for m, n in moves for v in (shift.rotate_pair(q, m * w), shift.rotate_pair(k, n * w))]
    added = [v for m, n in moves for v in (shift.add_pair(q, m, w), shift.add_pair(k, n, w))]
    with drawn("rope_pair_turn") as fig:
        top, bottom = fig.axes
        for ax, expected in ((top, rotated), (bottom, added)):
            tips = [np.asarray(a.xy) for a in ax.texts if hasattr(a, "xy")]
            np.testing.assert_allclose(tips, expected, atol=1e-12)
        rope0, rope1 = [shift.pair_scores(q, k, m, n, w)[0] for m, n in moves]
        add0, add1 = [shift.pair_scores(q, k, m, n, w)[1] for m, n in moves]
        for title, (a, b), names in ((top.get_title(), (rope0, rope1), ("l4_pair_rope", "l4_pair_rope_shifted")),
                                     (bottom.get_title(), (add0, add1), ("l4_pair_added", "l4_pair_added_shifted"))):
            shown = title.split("分数")[1].split("→")
            assert printed(shown[0], a) and printed(shown[1], b), title
            assert [s.strip() for s in shown] == [quantities.text(n) for n in names]


def test_rope_shift_scores_are_the_score_changes_of_each_method():
    with drawn("rope_shift_scores") as fig:
        maps = [ax for ax in fig.axes if ax.get_images() and ax.get_title()]
        assert len(maps) == len(shift.METHODS)
        for ax, method, name in zip(maps, shift.METHODS, ("l4_shift_input_max_diff", "l4_shift_qk_max_diff", "l4_shift_rope_max_diff")):
            expected = shift.score_changes(ex.SENTENCE, ex.SHIFT, method, ex.L4_DIM, ex.L4_SEED)
            np.testing.assert_allclose(np.asarray(ax.get_images()[0].get_array()), expected, atol=1e-12)
            assert tick_labels(ax, "x") == list(ex.SENTENCE) == tick_labels(ax, "y")
            title = ax.get_title()
            value = quantities.text(name)
            assert (value in title) if "×10" not in value else (value.split("×")[0] in title and "10^{" in title), (title, value)


def test_rope_conventions_cells_colours_and_links_follow_the_permutation():
    d = ex.CONVENTION_DIM
    perm = rope.convention_permutation(d)
    with drawn("rope_conventions") as fig:
        [ax] = fig.axes
        cells = [t for t in ax.texts if t.get_text().isdigit()]
        assert [int(t.get_text()) for t in cells] == list(range(d)) + [int(j) for j in perm]
        colours = [p.get_facecolor() for p in ax.patches]
        for convention, row in (("interleaved", colours[:d]), ("half", colours[d:])):
            owner = rope.pair_of_dim(d, convention)
            for a in range(d):
                for b in range(d):
                    assert (row[a] == row[b]) == (owner[a] == owner[b]), (convention, a, b)
        links = all_lines(ax)
        np.testing.assert_allclose([x - 0.45 for x, _ in links], [(s, j) for j, s in enumerate(perm)], atol=1e-12)


def test_rope_spectrum_panels_are_each_models_wavelengths_and_context():
    with drawn("rope_spectrum") as fig:
        panels = [ax for ax in fig.axes if ax.collections]
        assert len(panels) == len(ex.SPECTRUM_MODELS)
        for ax, key in zip(panels, ex.SPECTRUM_MODELS):
            cfg = configs.load(key)
            sp = rope.model_spectrum(cfg)
            idx = np.arange(sp.pairs)
            turning, not_turning = (np.asarray(c.get_offsets()) for c in ax.collections)
            np.testing.assert_allclose(turning, np.c_[idx[~sp.not_turning], sp.wavelengths[~sp.not_turning]])
            np.testing.assert_allclose(not_turning, np.c_[idx[sp.not_turning], sp.wavelengths[sp.not_turning]])
            [context_line] = [ln for ln in ax.get_lines() if ln.get_linestyle() == "--"]
            assert np.asarray(context_line.get_ydata(), float)[0] == sp.context == cfg["context"]
            title = ax.get_title(loc="left")
            assert title.startswith(cfg.name.split(" (")[0]) and f"{sp.count_not_turning}/{sp.pairs}" in title
            assert ("未核实" in title) == (cfg.field("rope_theta").tag == "U")
        assert legend_labels(fig) == ["转得满一圈", "转不满一圈"]


def test_rope_vs_alibi_by_distance():
    from figure_support import lines

    d, span = ex.SIN_DIM, ex.WHY_ROPE_SPAN
    inv = rope.inverse_frequencies(d, 10_000)
    q = np.random.default_rng(ex.WHY_ROPE_SEED).standard_normal(d)
    pair_norm2 = q[0::2] ** 2 + q[1::2] ** 2
    r = np.arange(span + 1)
    a = 2.0 ** (-8 * ex.ALIBI_HEAD / ex.ALIBI_HEADS)  # Press et al.'s slope for head h of a power-of-two head count
    with drawn("rope_vs_alibi_by_distance") as fig:
        top, bottom = fig.axes
        for label, delta, name in zip(("键内容甲", "键内容乙"), ex.WHY_ROPE_PREFERRED, ("l4_why_rope_peak_a", "l4_why_rope_peak_b")):
            # RoPE: Σ_i |q_i|² cos((δ − r)·ω_i), the closed form for a key that is q turned by δ
            x, y = lines(bottom)[label]
            np.testing.assert_array_equal(x, r)
            np.testing.assert_allclose(y, (pair_norm2[None] * np.cos((delta - r)[:, None] * inv[None])).sum(1), atol=1e-10)
            assert int(np.argmax(y)) == delta == numbers.value(name)
            # ALiBi: the same content score at every distance, minus a·(m − n)
            x, y = lines(top)[label]
            np.testing.assert_array_equal(x, r)
            k = rope.rotate(q[None], [delta], inv)[0]
            np.testing.assert_allclose(y, q @ k - a * r, atol=1e-10)
            assert int(np.argmax(y)) == 0 == numbers.value("l4_why_alibi_peak")
        assert legend_labels(fig) == ["键内容甲", "键内容乙"] * 2


FIGURES = ('rope_pair_turn', 'rope_shift_scores', 'rope_conventions', 'rope_spectrum', 'rope_vs_alibi_by_distance')  # each has its content test above


def test_every_figure_of_the_lesson_has_a_content_test_here():
    assert registered("figures_src.lesson4") == sorted(FIGURES)
