"""The one timeline (posenc/data/timeline.yaml → {{ timeline() }}): its texts are prose like a page, its
generations are counted without the start and the naive design, every lesson that shows a timeline
renders this one, and the story it tells about the relative-bias family and RoPE is the corrected one."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from macro_env import MacroEnv
from posenc import configs, hybrid, relative
from posenc import examples as ex
from posenc import quantities
from tools.build import course_macros as cm
from tools.guards import prose_lint

ROOT = Path(__file__).resolve().parent.parent
LESSONS = {"lesson1": "01-order-blind.md", "lesson2": "02-learned-table.md", "lesson3": "03-sinusoidal.md",
           "lesson4": "04-rope.md", "lesson5": "05-long-context.md", "lesson6": "06-partial-nope.md"}


def test_timeline_texts_lint_like_a_page():
    text = cm.yaml_prose(cm.TIMELINE.read_text(encoding="utf-8"), cm.TIMELINE_TEXT)
    findings = prose_lint.check(text, cm.TIMELINE)
    assert not findings, "\n".join(map(str, findings))
    assert text.count("num(") >= 20  # the texts really are read: they quote many numbers


def test_yaml_prose_keeps_text_fields_on_their_lines():
    src = "stages:\n  - key: a1\n    page: lessons/01-x.md\n    left: '还剩 42 个'\n    models:\n      - '模型 7 个'\n    here: [lesson1]\n"
    text = cm.yaml_prose(src, cm.TIMELINE_TEXT)
    assert [f.line for f in prose_lint.find_literals(text)] == [4, 6]


def test_only_generations_are_counted():
    stages = cm.load_timeline()
    assert [s.kind for s in stages[:2]] == ["start", "naive"]
    assert [s.label for s in stages[:2]] == ["起点", "朴素方案"]
    gens = [s for s in stages if s.kind == "generation"]
    assert [s.label for s in gens] == [f"第{c}代" for c in "一二三四五六"[:len(gens)]]
    assert [s.key for s in gens] == ["learned", "sinusoidal", "relative-bias", "rope", "scaling", "partial-nope"]
    assert all(s.year for s in gens) and all(s.who for s in gens)


def test_every_lesson_marks_its_own_stage():
    marked = {h for s in cm.load_timeline() for h in s.here}
    assert marked == set(LESSONS) | {"lesson3b"}
    for key, page in LESSONS.items():
        source = (ROOT / "docs" / "lessons" / page).read_text(encoding="utf-8")
        section = source[source.index("{ #timeline }"):].split("\n## ")[0]
        calls = re.findall(r"\{\{ timeline\((.*?)\) \}\}", section)
        assert calls == [f'"{key}"'], (page, calls)
        assert not re.search(r"^\s*(\d+\.|-) ", section, re.M), f"{page}: the timeline section lists stages of its own"
        md = MacroEnv(f"lessons/{page}").render(section)
        here = [line for line in md.splitlines() if cm.HERE_MARK in line]
        assert len(here) == 1, page  # one line, whatever the number of stages the lesson teaches
        mine = [s for s in cm.load_timeline() if key in s.here]
        assert mine and all(f"**{s.label}：{s.title}**" in here[0] for s in mine), page
    relative_bias = (ROOT / "docs" / "lessons" / "03b-relative-bias.md").read_text(encoding="utf-8")
    if "{ #timeline }" in relative_bias:  # the page is being written; once it has a timeline, it is this one
        assert '{{ timeline("lesson3b") }}' in relative_bias


def test_no_page_writes_its_own_timeline():
    for page in sorted((ROOT / "docs").rglob("*.md")):
        source = page.read_text(encoding="utf-8")
        assert 'class="pe-timeline"' not in source, f"{page.name}: render the timeline with {{{{ timeline(…) }}}}"
    home = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert "{{ timeline() }}" in home and "八代" not in home


def test_the_home_timeline_renders_every_stage_in_full_with_no_marker():
    md = MacroEnv("index.md").render("{{ timeline() }}")
    stages = cm.load_timeline()
    assert "{{" not in md and cm.HERE_MARK not in md
    assert md.count("    - 解决了：") == md.count("    - 卡在：") == len(stages)
    for n, s in enumerate(stages, 1):
        assert f"{n}. **{s.label}：{s.title}**" in md
    assert "](lessons/03b-relative-bias.md)" in md and "](lessons/04-rope.md#shift)" in md


def test_a_lesson_shows_one_line_linking_the_full_timeline():
    """The timeline is told in full once (home); a lesson shows the stage(s) it teaches in one
    line, numbered among all stages, with a link to the home page's timeline."""
    stages = cm.load_timeline()
    md = MacroEnv("lessons/04-rope.md").render('{{ timeline("lesson4") }}')
    lines = [line for line in md.splitlines() if line.strip()]
    assert lines[0] == '<div class="pe-timeline pe-timeline--line" markdown>' and lines[-1] == "</div>"
    (line,) = lines[1:-1]
    rope = next(n for n, s in enumerate(stages, 1) if s.key == "rope")
    generations = sum(s.kind == "generation" for s in stages)  # the other stops: the start and the naive design
    assert line.startswith(f"{cm.HERE_MARK}：第 {rope} 站（共 {len(stages)} 站：起点、朴素方案，再加 {generations} 代），"
                           "**第四代：RoPE 旋转位置编码**（2021）——")
    assert "](../index.md#timeline)" in line and "    - 解决了：" not in md and "    - 卡在：" not in md
    assert "{{" not in md and "转不满一圈" in line  # the stage's short text, its macros rendered
    two = MacroEnv("lessons/02-learned-table.md").render('{{ timeline("lesson2") }}')
    assert "第 2–3 站" in two and "**朴素方案：把编号直接加进向量**" in two and "**第一代：可学习的绝对位置表**（2017）" in two
    assert two.count(cm.HERE_MARK) == 1
    assert "](index.md#timeline)" not in MacroEnv("index.md").render("{{ timeline() }}")  # the home page is the full one
    with pytest.raises(ValueError, match="lesson keys there"):
        MacroEnv("lessons/04-rope.md").render('{{ timeline("lesson9") }}')
    with pytest.raises(TypeError):
        MacroEnv("lessons/06-partial-nope.md").render('{{ timeline("lesson6", full=True) }}')  # no second full timeline


def test_a_lesson_with_stages_far_apart_is_refused():
    with pytest.raises(ValueError, match=r"must be consecutive .* got stations \[2, 4\]"):
        cm._stations([2, 4])
    assert cm._stations([3]) == "第 3 站" and cm._stations([2, 3]) == "第 2–3 站"


def test_partial_rotary_is_dated_from_gpt_j():
    """Partial rotary is as old as RoPE's first large models, and came back in 2024–25 hybrids."""
    from posenc import configs, facts

    stage = next(s for s in cm.load_timeline() if s.key == "partial-nope")
    assert stage.year.startswith("2021")
    for call in ('cfg("gptj_6b", "head_dim")', 'num("rope_rotary_dim_gptj_6b")', 'cfg("gpt_neox_20b", "rotary_fraction"',
                 'fact("pythia_rotary_pct")'):
        assert call in stage.fixed, call
    # GPT-J rotates 64 of each head's 256 dimensions: the same quarter GPT-NeoX-20B and Pythia set with rotary_pct
    gptj, neox = configs.load("gptj_6b"), configs.load("gpt_neox_20b")
    assert quantities.value("rope_rotary_dim_gptj_6b") == 64 and gptj["head_dim"] == 256
    assert neox["rotary_fraction"] == 0.25 and "0.25" in facts.get("pythia_rotary_pct").value
    assert "2024–2025" in stage.fixed and "GPT-J-6B（2021）" in stage.fixed


def test_the_story_of_the_relative_family_and_rope_is_the_corrected_one():
    """ALiBi is relative, adds no parameters and was built for extrapolation; its cost is a fixed recency bias;
    "adds no parameters" is therefore not what sets RoPE apart."""
    stages = {s.key: s for s in cm.load_timeline()}
    rel, rope = stages["relative-bias"], stages["rope"]
    assert "ALiBi" in rel.fixed and "一个参数也不加" in rel.fixed and "外推" in rel.fixed
    assert "近因偏好" in rel.left and "近因偏好" in rel.short
    assert "ALiBi 同样" in rope.fixed  # RoPE's "no parameters" is stated as shared, not as its advantage
    for s in stages.values():
        assert "为距离加项、加参数" not in s.fixed + s.left + s.short
    # the numbers behind it, from posenc and the configs
    assert relative.model_position_parameters(configs.load("mpt_7b")) == 0
    assert relative.model_position_parameters(configs.load("bloom_176b")) == 0
    assert quantities.value("position_params_t5_base") == 2 * 32 * 12  # two tables × 32 buckets × 12 heads
    flattest = 2.0 ** -8  # MPT-7B's 32 heads: slopes 2^(−8h/32), the last one 2^−8
    assert configs.load("mpt_7b")["heads"] == 32
    assert quantities.value("alibi_reach_mpt_7b") == pytest.approx(math.log(ex.ALIBI_FACTOR) / flattest)
    assert quantities.value("alibi_reach_share") == pytest.approx(1 / ex.ALIBI_FACTOR)
    assert quantities.value("alibi_far_weight_mpt_7b") == pytest.approx(math.exp(-flattest * configs.load("mpt_7b")["context"]))


def test_qwen3_next_rope_shares_are_counted_layer_by_layer():
    """Not 25% × 25%, but the real shares over Qwen3-Next's unequal layers."""
    cfg = configs.load("qwen3_next_80b_a3b")
    layers, every = cfg["layers"], cfg["full_attention_interval"]
    full, linear = layers // every, layers - layers // every
    lin = cfg["linear_num_key_heads"] * cfg["linear_key_head_dim"]
    rot = int(cfg["head_dim"] * cfg["rotary_fraction"])
    q_share = full * cfg["heads"] * rot / (full * cfg["heads"] * cfg["head_dim"] + linear * lin)
    k_share = full * cfg["kv_heads"] * rot / (full * cfg["kv_heads"] * cfg["head_dim"] + linear * lin)
    assert quantities.value("rope_query_share_qwen3_next_80b_a3b") == pytest.approx(q_share)
    assert quantities.value("rope_key_share_qwen3_next_80b_a3b") == pytest.approx(k_share)
    assert hybrid.rope_dim_shares(cfg).simple_product == pytest.approx(0.0625) != pytest.approx(q_share)
    stage = next(s for s in cm.load_timeline() if s.key == "partial-nope")
    assert any("rope_query_share_qwen3_next_80b_a3b" in m and "逐层累加" in m for m in stage.models)


def test_long_context_scaling_credits_superhot_and_code_llama_with_their_sources():
    """Position interpolation was published at the same time by kaiokendev (SuperHOT), as the PI paper itself
    says; Code Llama raised the base before Xiong et al. named the method ABF. Both credits quote a sourced fact."""
    from posenc import facts

    zh = next(s for s in cm.load_timeline() if s.key == "scaling")
    en = next(s for s in cm._stages_in("en") if s.key == "scaling")
    for who in (zh.who, en.who):
        assert "kaiokendev" in who and "SuperHOT" in who and "Rozière et al. 2023" in who and "Code Llama" in who
        assert 'fact("superhot_pi_concurrent")' in who and 'fact("codellama_base_after")' in who
        assert "Xiong et al. 2023" in who and "ABF" in who
    quote = facts.get("superhot_pi_concurrent")
    assert quote.value in facts.get("superhot_concurrent_with_pi").value and quote.url == "https://arxiv.org/abs/2306.15595"
    assert facts.get("codellama_base_after").value == 1_000_000
    home = MacroEnv("index.md").render("{{ timeline() }}")
    line = next(line for line in home.splitlines() if line.startswith("    - 出处：Chen et al. 2023"))
    assert "a concurrent blogpost (Super-HOT kaiokendev (2023))" in line and "1,000,000" in line and "{{" not in line
