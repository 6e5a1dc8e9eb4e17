"""The data-flow panel (docs/javascripts/widgets/dataflow.js) in Chromium, against posenc.dataflow.

For every model and every stage the panel's displayed shapes, parameter parts and counts are read
back and compared with posenc.dataflow computed here; the learned / this lesson / later state of each
stage on each page with posenc.dataflow.taught; keyboard use (the stages are one Tab stop), bad data,
a 390 px phone (folded to one line until tapped) and dark mode.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from posenc import dataflow as df
from posenc import examples as ex

pytestmark = [pytest.mark.build, pytest.mark.browser]

PAGES = {"all": "", "1": "lessons/01-order-blind/", "2": "lessons/02-learned-table/", "3": "lessons/03-sinusoidal/",
         "3b": "lessons/03b-relative-bias/", "4": "lessons/04-rope/", "5": "lessons/05-long-context/", "6": "lessons/06-partial-nope/",
         "6b": "lessons/06b-mrope/"}

READ_DETAIL = """el => {
  const d = el.querySelector('[data-pe-out=detail]');
  const shapes = side => [...d.querySelectorAll(`[data-pe-shape^="${side}-"]`)].map(e => e.textContent);
  return {
    name: d.querySelector('[data-pe-out=stage-name]').textContent,
    inputs: shapes('in'), outputs: shapes('out'),
    parts: [...d.querySelectorAll('[data-pe-part]')].map(e => [e.dataset.pePart, Number(e.querySelector('[data-pe-out=part]').dataset.value), e.textContent]),
    parameters: Number(d.querySelector('[data-pe-out=stage-parameters]').dataset.value),
    entries: [...d.querySelectorAll('[data-pe-entry]')].map(e => e.textContent),
  };
}"""


def without_links(data: dict) -> dict:
    """The panel's data, as JSON reads it back, without its fields' links to their sources (the build fills them in:
    tests/test_pre_build.py, tests/test_site_build.py)."""
    data = json.loads(json.dumps(data, ensure_ascii=False))
    return {**data, "models": [{**m, "fields": [f[:3] for f in m["fields"]]} for m in data["models"]]}


def open_panel(visit, site_dir, state: str, **options):
    page_file = site_dir / PAGES[state] / "index.html"
    assert 'data-pe-widget="dataflow"' in page_file.read_text(encoding="utf-8"), f"{PAGES[state] or 'home'} has no data-flow panel"
    sp = visit(PAGES[state], wait="domcontentloaded", **options)
    # widgets mount after the page's load event (docs/javascripts/widgets/index.js): on a busy machine that takes a while
    el = sp.mounted('[data-pe-widget="dataflow"]', timeout=30_000)
    return sp, el


def test_every_stage_of_every_model_shows_posenc_shapes_and_counts(visit, site_dir):
    sp, el = open_panel(visit, site_dir, "2")
    options = el.locator('[data-pe-input="model"] option').evaluate_all("els => els.map(e => e.value)")
    assert options == df.model_keys()
    for key in df.model_keys():
        el.locator('[data-pe-input="model"]').select_option(key)
        m = df.load(key)
        assert float(el.locator('[data-pe-out="total"]').get_attribute("data-value")) == df.total_parameters(m)
        assert float(el.locator('[data-pe-out="position-parameters"]').get_attribute("data-value")) == df.position_parameters(m)
        for s in df.stages(m):
            el.locator(f'[data-pe-stage="{s.key}"]').click()
            got = el.evaluate(READ_DETAIL)
            assert got["name"] == s.name
            assert got["inputs"] == [df.shape_text(t.shape) for t in s.inputs if t.shape], (key, s.key)
            assert got["outputs"] == [df.shape_text(t.shape) for t in s.outputs], (key, s.key)
            assert [(n, c) for n, c, _ in got["parts"]] == [(p.name, p.count) for p in s.parts], (key, s.key)
            for (_, _, text), p in zip(got["parts"], s.parts):  # the factors as posenc states them, e.g. 1,024 × 768
                assert " × ".join(f"{f:,}" for f in p.factors) in text, (text, p)
            assert got["parameters"] == s.parameters, (key, s.key)
            assert [any(e.text in t for t in got["entries"]) for e in s.entries] == [True] * len(s.entries), (got["entries"], s.entries)
        pos = el.locator("[data-pe-pos]").evaluate_all("els => els.map(e => e.closest('li').querySelector('[data-pe-stage]').dataset.peStage)")
        assert pos == [s.key for s in df.stages(m) if s.entries], key
    sp.assert_clean()


def test_the_issues_examples_on_screen(visit, site_dir):
    """GPT-2's position table 1,024 × 768 = 786,432; Qwen3-8B's q projection 4,096 → 32 × 128, all 64 pairs turned, no position parameters."""
    sp, el = open_panel(visit, site_dir, "2")
    el.locator('[data-pe-input="model"]').select_option("gpt2")
    el.locator('[data-pe-stage="position"]').click()
    detail = el.locator('[data-pe-out="detail"]')
    assert "1,024 × 768 = 786,432" in detail.inner_text()
    el.locator('[data-pe-input="model"]').select_option("qwen3_8b")
    el.locator('[data-pe-stage="qkv"]').click()
    text = detail.inner_text()
    assert "N × 4,096" in text and "q：N × 32 × 128" in text and "W_q：4,096 × 32 × 128 = 16,777,216" in text
    el.locator('[data-pe-stage="rope"]').click()
    assert "64 对全部" in detail.inner_text()
    assert el.locator('[data-pe-out="position-parameters"]').inner_text() == "0"
    sp.assert_clean()


@pytest.mark.parametrize("state", list(PAGES))
def test_each_page_shows_its_lessons_state_and_model(visit, site_dir, state):
    sp, el = open_panel(visit, site_dir, state)
    assert el.locator('[data-pe-input="model"]').input_value() == ex.DATAFLOW_START[state]
    m = df.load(ex.DATAFLOW_START[state])
    got = el.locator("[data-pe-stage]").evaluate_all("els => els.map(e => [e.dataset.peStage, e.dataset.state])")
    want = [[s.key, "new" if s.topic in df.new_in(state) else "learned" if df.active(s, state) else "later"] for s in df.stages(m)]
    assert got == want
    assert el.locator("[data-pe-stage]").first.evaluate("e => e.tagName") == "BUTTON"
    assert sum(1 for _, st in got if st == "later") == sum(1 for s in df.stages(m) if not df.active(s, state))
    figure = el.locator(".pe-figure img").first.get_attribute("src")
    assert figure.split("/")[-1].startswith(("dataflow_home." if state == "all" else f"dataflow_lesson{state}."))
    # the home page's reader has learned nothing yet: no stage there says 已学 (read of 472236d)
    metas = el.locator(".pe-flow__meta").all_text_contents()
    assert metas and all(("已学" in meta) == (state != "all" and st == "learned") for meta, (_, st) in zip(metas, got))
    sp.assert_clean()


@pytest.mark.parametrize("state", ["3b", "6b"])
def test_a_continued_lesson_is_named_as_its_page_names_itself(visit, site_dir, state):
    # the Chinese pages call lessons 3b and 6b 「第 3 课·续」「第 6 课·续」: the panel must not say 「第 6b 课」
    sp, el = open_panel(visit, site_dir, state)
    name = re.match(r"第 \d+ 课·续", sp.page.locator("article h1").first.inner_text()).group(0)
    text = el.text_content()
    assert f"学到{name}为止" in text
    assert f"第 {state} 课" not in text
    sp.assert_clean()


def test_keyboard_and_screen_reader(visit, site_dir):
    sp, el = open_panel(visit, site_dir, "4")
    page = sp.page
    button = el.locator('[data-pe-stage="rope"]')
    button.focus()
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-pressed", "true")
    assert el.locator('[data-pe-out="stage-name"]').inner_text() == df.stage(ex.DATAFLOW_START["4"], "rope").name
    page.keyboard.press("ArrowRight")  # the next stage
    assert page.evaluate("document.activeElement.dataset.peStage") == "scores"
    page.keyboard.press("Space")
    expect(el.locator('[data-pe-stage="scores"]')).to_have_attribute("aria-pressed", "true")
    expect(button).to_have_attribute("aria-pressed", "false")
    # the stages are one Tab stop: only the focused one is in the Tab order, Home/End and the arrows move
    stages = el.locator("[data-pe-stage]")
    keys = stages.evaluate_all("els => els.map(e => e.dataset.peStage)")
    assert stages.evaluate_all("els => els.filter(e => e.tabIndex === 0).map(e => e.dataset.peStage)") == ["scores"]
    page.keyboard.press("End")
    assert page.evaluate("document.activeElement.dataset.peStage") == keys[-1]
    page.keyboard.press("ArrowDown")  # stays on the last
    assert page.evaluate("document.activeElement.dataset.peStage") == keys[-1]
    page.keyboard.press("Home")
    assert page.evaluate("document.activeElement.dataset.peStage") == keys[0]
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.peStage") == keys[0]
    page.keyboard.press("Tab")  # leaves the group: the next stop is after the stages
    assert page.evaluate("document.activeElement.dataset.peStage") is None
    page.keyboard.press("Shift+Tab")  # back into the group, on the stage that had focus
    assert page.evaluate("document.activeElement.dataset.peStage") == keys[0]
    expect(el.locator('[data-pe-stage="scores"]')).to_have_attribute("aria-pressed", "true")  # moving chose nothing
    assert el.locator(".pe-live").get_attribute("role") == "group" and el.locator(".pe-live").get_attribute("aria-labelledby")
    assert el.locator('[data-pe-out="detail"]').get_attribute("aria-live") == "polite"
    assert el.locator("ol.pe-flow").get_attribute("aria-label")
    # each button's name says the stage, its lesson and whether position enters there
    name = button.evaluate("e => e.textContent")
    assert "旋转 q、k" in name and "第 4 课" in name and "位置从这里进入" in name
    sp.assert_clean()


def test_instant_navigation_remounts_the_panel_for_the_next_lesson(visit, site_dir):
    """Material swaps the page without a reload (document$): the next lesson's panel mounts once, in its own state."""
    sp, el = open_panel(visit, site_dir, "2")
    page = sp.page
    page.evaluate("window.__sameDocument = true")
    page.locator("a.md-footer__link--next").first.click()
    # navigation.tracking may already have put the section in view into the hash (#exercises …)
    page.wait_for_url(re.compile(re.escape(PAGES["3"]) + r"(#[\w-]*)?$"))
    panel = page.locator('[data-pe-widget="dataflow"]')
    # the URL changes before Material swaps the new content in: wait for the next lesson's own panel, not the old one
    sp.mounted('[data-pe-widget="dataflow"][data-lesson="3"]', timeout=30_000)
    assert page.evaluate("window.__sameDocument") is True, "the click reloaded the page: instant navigation is off"
    assert panel.count() == 1 and panel.first.get_attribute("data-lesson") == "3"
    assert panel.first.locator(".pe-live").count() == 1
    # the widgets' stylesheet, loaded with the first page's widgets (widgets/index.js), still applies
    assert panel.first.locator(".pe-live").evaluate("e => getComputedStyle(e).borderTopStyle") == "solid"
    assert panel.first.locator('[data-pe-input="model"]').input_value() == ex.DATAFLOW_START["3"]
    m = df.load(ex.DATAFLOW_START["3"])
    got = panel.first.locator("[data-pe-stage]").evaluate_all("els => els.map(e => e.dataset.state)")
    assert got == ["new" if s.topic in df.new_in("3") else "learned" if df.active(s, "3") else "later" for s in df.stages(m)]
    sp.assert_clean()


MOUNT = r"""async (attrs) => {
  const div = document.createElement('div');
  div.className = 'pe-widget';
  for (const [k, v] of Object.entries(attrs)) div.setAttribute(k, v);
  document.querySelector('article').append(div);
  const index = document.querySelector('script[src*="widgets/index.js"]').src;
  const mod = await import(index.replace(/index\.js$/, 'dataflow.js'));
  try { await mod.mount(div); return ['mounted', div.textContent]; } catch (err) { return [err.message, div.textContent]; }
}"""


def test_bad_data_gets_a_clear_message(visit, site_dir):
    sp, el = open_panel(visit, site_dir, "2")
    page = sp.page
    data = json.loads((site_dir / "assets" / "dataflow.json").read_text(encoding="utf-8"))
    assert without_links(data) == without_links(df.browser_export())  # the build wrote posenc's export
    ok = page.evaluate(MOUNT, {"data-lesson": "3", "data-model": "llama3_8b", "data-data": ""})
    assert ok[0] == "mounted"
    for attrs, message in (
        ({"data-lesson": "2", "data-model": "gpt3", "data-data": ""}, "数据里没有模型「gpt3」"),
        ({"data-lesson": "7", "data-model": "", "data-data": ""}, 'data-lesson="7"'),
        ({"data-lesson": "2", "data-model": ""}, "缺少 data-data"),
        ({"data-lesson": "2", "data-model": "", "data-data": "{not json"}, "没能读到它的数据"),
    ):
        error, shown = page.evaluate(MOUNT, attrs)
        assert error != "mounted" and message in shown, (attrs, shown)
    broken = json.loads(json.dumps(data))
    del broken["models"][0]["stages"]["rope"]
    error, shown = page.evaluate(MOUNT, {"data-lesson": "2", "data-model": "", "data-data": json.dumps(broken, ensure_ascii=False)})
    assert error != "mounted" and f"模型「{broken['models'][0]['key']}」的数据缺少环节 rope" in shown
    sp.assert_clean()


def test_phone_folded_then_unfolded(visit, site_dir):
    """At 390 px the panel starts as one line naming the lesson's stage (the stage it opens on); a tap unfolds
    it, a second folds it; at 1280 px it starts unfolded."""
    sp, el = open_panel(visit, site_dir, "4", viewport={"width": 390, "height": 844})
    toggle = el.locator("[data-pe-toggle]")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    assert el.locator(".pe-flow__body").is_hidden() and el.locator("[data-pe-stage]").first.is_hidden()
    height = toggle.evaluate("e => e.getBoundingClientRect().height")
    line = toggle.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)")
    assert 24 <= height < 2 * line, f"the folded panel should be one line (and a thumb-sized target): {height} px, line {line} px"
    assert df.stage(ex.DATAFLOW_START["4"], "rope").name in toggle.inner_text()
    assert toggle.get_attribute("aria-controls") == el.locator(".pe-flow__body").get_attribute("id")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(el.locator('[data-pe-stage="rope"]')).to_be_visible()
    expect(el.locator('[data-pe-stage="rope"]')).to_have_attribute("aria-pressed", "true")
    toggle.focus()
    sp.page.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    sp.assert_clean()
    sp, el = open_panel(visit, site_dir, "4", viewport={"width": 1280, "height": 900})
    expect(el.locator("[data-pe-toggle]")).to_have_attribute("aria-expanded", "true")
    expect(el.locator('[data-pe-stage="rope"]')).to_be_visible()
    sp.assert_clean()


def test_phone_column_and_dark_mode(visit, site_dir):
    for state in ("all", "5"):
        sp, el = open_panel(visit, site_dir, state, viewport={"width": 390, "height": 800}, color_scheme="dark")
        page = sp.page
        page.wait_for_load_state("load")
        el.locator("[data-pe-toggle]").click()  # folded on a phone
        lefts = el.locator("li.pe-flow__item").evaluate_all("els => els.map(e => Math.round(e.getBoundingClientRect().left))")
        assert len(set(lefts)) == 1, f"the stages should stack in one column on a phone: {lefts}"
        widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1], widths
        right = el.locator(".pe-live").evaluate("e => e.getBoundingClientRect().right")
        assert right <= 390.5
        assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
        for colour in el.locator(".pe-flow__name").evaluate_all("els => els.map(e => getComputedStyle(e).color)"):
            r, g, b = (int(x) for x in re.findall(r"\d+", colour)[:3])
            assert (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255 > 0.45, colour
        sp.assert_clean()
    sp, el = open_panel(visit, site_dir, "all", viewport={"width": 1280, "height": 900})
    tops = el.locator("li.pe-flow__item").evaluate_all("els => els.map(e => Math.round(e.getBoundingClientRect().top))")
    assert len(set(tops)) < len(tops), "on a wide screen the stages sit in rows"
    sp.assert_clean()


STATE_WORDS = {"learned": "已学", "new": "本课", "later": "还没学"}
READ_STAGES = """el => [...el.querySelectorAll('[data-pe-stage]')].map(b => ({
  key: b.dataset.peStage, meta: b.querySelector('.pe-flow__meta').textContent,
  pos: b.querySelector('.pe-flow__pos') && [b.querySelector('.pe-flow__pos').dataset.pePos, b.querySelector('.pe-flow__pos').textContent],
}))"""


def test_the_where_list_stage_labels_and_details_say_what_each_stage_holds(visit, site_dir):
    """On lesson 4's page, for a model with position entering twice in one stage (lessons 4 and 5), one with none
    (NoPE), one whose bias was taught before (ALiBi) and one whose rotation is taught later (partial RoPE): the summary lists where position enters, each line with its lesson, or that it is
    taught later (NoPE: the model's own note); each stage button names its lesson, its state and, for a stage done in
    every layer, ×layers; the ◆ mark says when its lesson is still to come; a stage's detail splits its parameters
    per layer and gives its note; the configuration lists each field with its check mark in words."""
    sp, el = open_panel(visit, site_dir, "4")
    data = json.loads((site_dir / "assets" / "dataflow.json").read_text(encoding="utf-8"))  # what the panel reads
    lessons, here = data["lessons"], data["lessons"].index("4")
    names = {key: name for key, name, *_ in data["stages"]}
    lesson_of = lambda topic: data["topics"][topic][0]  # noqa: E731
    lesson_name = lambda n: f"第 {n[:-1]} 课·续" if n.endswith("b") else f"第 {n} 课"  # noqa: E731

    def state(topic):
        at = lessons.index(lesson_of(topic))
        return "learned" if at < here else "new" if at == here else "later"

    def said(topic):  # how a line names its lesson: "（第 5 课）", or "（第 5 课讲，还没学到）" while it is to come
        return f"（{lesson_name(lesson_of(topic))}讲，还没学到）" if state(topic) == "later" else f"（{lesson_name(lesson_of(topic))}）"

    for key in ("qwen3_8b", "project_nope", "project_alibi", "project_rope_partial"):
        el.locator('[data-pe-input="model"]').select_option(key)
        m = next(model for model in data["models"] if model["key"] == key)
        entries = [(k, topic, text) for k, *_ in data["stages"] for topic, text in m["stages"][k]["entries"]]
        lines = el.locator('[data-pe-out="summary"] li').evaluate_all("els => els.map(e => [e.dataset.state, e.textContent])")
        if entries:
            assert lines == [[state(topic), f"{names[k]}：{text}{said(topic)}"] for k, topic, text in entries], key
        else:
            topic, text = m["note"]
            assert lines == [[state(topic), f"{text}{said(topic)}"]], key
        for shown, (k, _, topic, per_layer) in zip(el.evaluate(READ_STAGES), data["stages"]):
            assert shown["meta"] == f"{lesson_name(lesson_of(topic))} · {STATE_WORDS[state(topic)]}" + (f" · 每层 ×{m['layers']}" if per_layer else ""), shown
            own = m["stages"][k]["entries"]
            if not own:
                assert shown["pos"] is None, shown
            else:
                later = all(state(t) == "later" for t, _ in own)
                assert shown["pos"] == ["later" if later else "", "◆ 位置从这里进入" + (f"（{lesson_name(lesson_of(own[0][0]))}讲）" if later else "")], shown
    el.locator('[data-pe-input="model"]').select_option("qwen3_8b")
    m = next(model for model in data["models"] if model["key"] == "qwen3_8b")
    for k in ("qkv", "ids"):
        el.locator(f'[data-pe-stage="{k}"]').press("Enter")
        s = m["stages"][k]
        detail = el.locator('[data-pe-out="detail"]').inner_text()
        each = f"每层 {s['parameters'] // s['repeat']:,} 个，共 {s['repeat']} 层，"
        assert (each in detail) == (s["repeat"] > 1), (k, detail)
        if s.get("note"):
            assert el.locator('[data-pe-out="detail"] .pe-note').inner_text() == s["note"]
    fields = el.locator("details ul li").all_text_contents()
    tags = {"V": "已核实", "V3": "副本核实", "U": "未核实"}
    want = [f"{label}：{value:,} {tags[tag]}" if isinstance(value, int) else f"{label}：{value} {tags[tag]}" for label, value, tag, _ in m["fields"]]
    assert fields == want
    # each tag is a link to its field's entry on the references page, named for a screen reader as the text's tags
    # are, with its field
    links = el.locator("details ul li .pe-tag")
    assert links.evaluate_all("tags => tags.map(a => [a.localName, a.href, a.getAttribute('aria-label')])") == [
        ["a", f"{sp.base_url}/references/#{link.partition('#')[2]}", f"{tags[tag]}：查看出处（{label}）"] for label, _, tag, link in m["fields"]]
    # the course's own model: its numbers are the project's, which carry no tag (docs/index.md)
    el.locator('[data-pe-input="model"]').select_option("project_rope")
    own = next(model for model in data["models"] if model["key"] == "project_rope")
    assert el.locator("details ul li").all_text_contents() == [f"{label}：{value:,.0f} " for label, value, *_ in own["fields"]]
    assert el.locator("details ul li .pe-tag").count() == 0
    sp.assert_clean()


def opening_stage(data: dict, page: str, model: str) -> str:
    """The stage a panel opens on: the first that the page's lesson adds, else the first where the model's position
    enters (in a lesson taught by then), else the first (lesson 4's rule, written out here from the lessons' order)."""
    lessons = data["lessons"]
    taught = lambda topic: page == "all" or lessons.index(data["topics"][topic][0]) <= lessons.index(page)  # noqa: E731
    m = next(x for x in data["models"] if x["key"] == model)
    new = [key for key, _, topic, _ in data["stages"] if page != "all" and data["topics"][topic][0] == page]
    entered = [key for key, *_ in data["stages"] if any(taught(t) for t, _ in m["stages"][key]["entries"])]
    return (new or entered or [data["stages"][0][0]])[0]


def test_the_panel_opens_on_its_pages_stage_and_folds_with_the_width_until_the_reader_chooses(visit, site_dir):
    """A lesson's panel opens on the first stage that lesson adds; where the lesson adds none (the home page, lesson
    3b), on the first stage where its model's position enters; with neither (NoPE on lesson 5), on the first stage.
    Narrowed to a phone's width the open panel folds, and widened it opens again, until the reader has used its
    button: from then on their choice stays."""
    data = df.browser_export()
    sp, el = open_panel(visit, site_dir, "all", viewport={"width": 1280, "height": 900})
    assert opening_stage(data, "all", ex.DATAFLOW_START["all"]) == "position"  # by its model's entry: the rule's second case
    expect(el.locator('[data-pe-stage="position"]')).to_have_attribute("aria-pressed", "true")
    assert "一个 token 序列怎样走到 logits" in el.locator("[data-pe-toggle]").inner_text()
    # nothing new on lesson 5's page and nothing entering for NoPE: the first stage
    assert opening_stage(data, "5", "project_nope") == data["stages"][0][0]
    first = sp.page.evaluate(r"""async () => {
      const div = document.createElement('div');
      for (const [k, v] of Object.entries({'data-lesson': '5', 'data-model': 'project_nope', 'data-data': ''})) div.setAttribute(k, v);
      document.querySelector('article').append(div);
      const index = document.querySelector('script[src*="widgets/index.js"]').src;
      await (await import(index.replace(/index\.js$/, 'dataflow.js'))).mount(div);
      return div.querySelector('[data-pe-stage][aria-pressed=true]').dataset.peStage;
    }""")
    assert first == data["stages"][0][0]
    toggle, page = el.locator("[data-pe-toggle]"), sp.page
    expect(toggle).to_have_attribute("aria-expanded", "true")
    page.set_viewport_size({"width": 390, "height": 844})
    expect(toggle).to_have_attribute("aria-expanded", "false")
    page.set_viewport_size({"width": 1280, "height": 900})
    expect(toggle).to_have_attribute("aria-expanded", "true")
    toggle.press("Enter")  # the reader folds it on a wide screen: it stays folded whatever the width does
    expect(toggle).to_have_attribute("aria-expanded", "false")
    page.set_viewport_size({"width": 390, "height": 844})
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_timeout(200)
    expect(toggle).to_have_attribute("aria-expanded", "false")
    sp.assert_clean()
    sp, el = open_panel(visit, site_dir, "3b")
    want = opening_stage(data, "3b", ex.DATAFLOW_START["3b"])
    assert want == "scores" != data["stages"][0][0]
    expect(el.locator(f'[data-pe-stage="{want}"]')).to_have_attribute("aria-pressed", "true")
    sp.assert_clean()
