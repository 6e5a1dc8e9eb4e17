"""posenc.dataflow: the data-flow panel's stages, shapes, parameter counts and position entries.

References: transformers' own GPT-2, Llama, Qwen3 and Qwen2.5-VL modules, built at full size on PyTorch's meta
device (no weights, no download) from the model data, parameter by parameter; the experiment's
PositionModel (posenc/experiment/model.py) for the project model, per method; and the numbers the
issue states (GPT-2's position table 1,024 × 768 = 786,432; Qwen3-8B's q projection 4,096 → 32 × 128
with every one of a head's 64 pairs rotated and no position parameters).
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
import torch

from posenc import configs, dataflow as df, relative
from posenc import examples as ex
from posenc.configs import Field, ModelConfig

STAGE_ORDER = ["ids", "embedding", "position", "qkv", "rope", "scores", "mask", "softmax", "output", "mlp", "logits"]


# --- the issue's examples ---------------------------------------------------------------------------------


def test_gpt2_position_table_is_1024_by_768():
    s = df.stage("gpt2", "position")
    assert [(p.name, p.factors, p.count) for p in s.parts] == [("位置表", (1024, 768), 786_432)]
    assert s.parameters == 786_432 and df.position_parameters(df.load("gpt2")) == 786_432
    assert [e.topic for e in s.entries] == ["learned"] and "1,024 行" in s.entries[0].text
    assert [df.shape_text(t.shape) for t in s.inputs] == ["N × 768", "N"]
    assert [df.shape_text(t.shape) for t in s.outputs] == ["N × 768"]
    # transformers' GPT-2 (its default config is GPT-2 small): wpe is n_positions × n_embd
    from transformers import GPT2Config, GPT2LMHeadModel

    with torch.device("meta"):
        ref = GPT2LMHeadModel(GPT2Config())
    assert tuple(ref.transformer.wpe.weight.shape) == s.parts[0].factors


def test_qwen3_8b_q_projection_and_rope():
    m = df.load("qwen3_8b")
    qkv = df.stage(m, "qkv")
    assert [df.shape_text(t.shape) for t in qkv.inputs] == ["N × 4,096"]
    assert [(t.name, df.shape_text(t.shape)) for t in qkv.outputs] == [("q", "N × 32 × 128"), ("k", "N × 8 × 128"), ("v", "N × 8 × 128")]
    wq = next(p for p in qkv.parts if p.name == "W_q")
    assert wq.factors == (4096, 32, 128) and wq.count == 4096 * 4096
    rope_stage = df.stage(m, "rope")
    assert [e.topic for e in rope_stage.entries] == ["rope", "rope_scaling"]
    assert "64 对全部" in rope_stage.entries[0].text and "1,000,000" in rope_stage.entries[0].text
    # the scaling by the name lesson 5 teaches, not the config's lower-case rope_type "yarn"
    assert "按 YaRN 缩放" in rope_stage.entries[1].text and "s = 4" in rope_stage.entries[1].text
    english = df.stage(df.load("qwen3_8b", "en"), "rope").entries[1].text
    assert "scaled by YaRN, s = 4" in english and "yarn" not in english
    assert rope_stage.parameters == 0 and rope_stage.repeat == 36
    assert df.position_parameters(m) == 0
    assert [s.key for s in df.stages(m) if s.entries] == ["rope"]  # position enters only there


# --- parameter counts against transformers' modules --------------------------------------------------------


def _gpt2_stage(name: str) -> str:
    rules = [(r"\.wte\.", "embedding"), (r"\.wpe\.", "position"), (r"\.ln_1\.|\.attn\.c_attn\.", "qkv"),
             (r"\.attn\.c_proj\.", "output"), (r"\.ln_2\.|\.mlp\.", "mlp"), (r"\.ln_f\.|^lm_head\.", "logits")]
    return next(stage for pattern, stage in rules if re.search(pattern, name))


def _llama_stage(name: str) -> str:
    rules = [(r"embed_tokens\.", "embedding"), (r"input_layernorm\.|self_attn\.[qkv]_proj\.|self_attn\.[qk]_norm\.", "qkv"),
             (r"self_attn\.o_proj\.", "output"), (r"post_attention_layernorm\.|\.mlp\.", "mlp"), (r"^model\.norm\.|^lm_head\.", "logits")]
    return next(stage for pattern, stage in rules if re.search(pattern, name))


def _qwen_vl_stage(name: str) -> str | None:
    """Qwen2.5-VL's decoder parameters by stage (its names carry model.language_model.); the vision encoder: None."""
    if name.startswith("model.visual."):
        return None
    return _llama_stage(name.replace("model.language_model.", "model.", 1))


def _hf_model(key: str):
    from transformers import (GPT2Config, GPT2LMHeadModel, LlamaConfig, LlamaForCausalLM, Qwen2_5_VLConfig,
                              Qwen2_5_VLForConditionalGeneration, Qwen3Config, Qwen3ForCausalLM)

    c = configs.load(key)
    common = dict(vocab_size=c["vocab_size"], tie_word_embeddings=c["tie_word_embeddings"])
    with torch.device("meta"):
        if key == "qwen25_vl_7b":
            # the whole vision-language model (its vision encoder at transformers' defaults), so that the output
            # layer and the tie are transformers' own; the biases, norms and feed-forward layer are fixed in its
            # code (no config switch), so a wrong block field in our data shows up as a different count
            text = dict(vocab_size=c["vocab_size"], hidden_size=c["hidden"], num_hidden_layers=c["layers"],
                        num_attention_heads=c["heads"], num_key_value_heads=c["kv_heads"], intermediate_size=c["intermediate_size"],
                        rope_parameters={"rope_type": "default", "rope_theta": c["rope_theta"], "mrope_section": c["mrope_section"]})
            cfg = Qwen2_5_VLConfig(text_config=text, tie_word_embeddings=c["tie_word_embeddings"])
            return Qwen2_5_VLForConditionalGeneration(cfg), _qwen_vl_stage
        if key == "gpt2":
            return GPT2LMHeadModel(GPT2Config(n_positions=c["context"], n_embd=c["hidden"], n_layer=c["layers"], n_head=c["heads"],
                                              n_inner=c["intermediate_size"], **common)), _gpt2_stage
        cls, cfg_cls = (LlamaForCausalLM, LlamaConfig) if key == "llama3_8b" else (Qwen3ForCausalLM, Qwen3Config)
        cfg = cfg_cls(hidden_size=c["hidden"], num_hidden_layers=c["layers"], num_attention_heads=c["heads"],
                      num_key_value_heads=c["kv_heads"], head_dim=c["head_dim"], intermediate_size=c["intermediate_size"],
                      attention_bias=c["attention_bias"], **common)
        return cls(cfg), _llama_stage


def test_the_panel_offers_an_mrope_model():
    assert "mrope" in {df.load(k).method for k in df.model_keys()}


@pytest.mark.parametrize("key", ["gpt2", "llama3_8b", "qwen3_8b", "qwen25_vl_7b"])
def test_stage_parameters_equal_transformers_modules(key):
    """Every parameter of transformers' model, assigned to a stage by its module name, sums to the panel's count."""
    model, stage_of = _hf_model(key)
    got = Counter()
    for name, p in model.named_parameters():  # a tied output layer is listed once, as the token table
        stage = stage_of(name)
        if stage is not None:  # None: Qwen2.5-VL's vision encoder, which the panel does not draw
            got[stage] += p.numel()
    want = {s.key: s.parameters for s in df.stages(key) if s.parameters}
    assert dict(got) == want
    assert sum(got.values()) == df.total_parameters(key)
    if key != "qwen25_vl_7b":
        assert sum(p.numel() for p in model.parameters()) == df.total_parameters(key)
    # shapes: one layer's projections
    layers = model.model.language_model.layers if key == "qwen25_vl_7b" else None if key == "gpt2" else model.model.layers
    attn = model.transformer.h[0].attn if key == "gpt2" else layers[0].self_attn
    qkv = df.stage(key, "qkv")
    q, k, v = (t.shape for t in qkv.outputs)
    if key == "gpt2":
        # GPT-2's Conv1D stores (in, out): one fused matrix for q, k and v
        assert tuple(attn.c_attn.weight.shape) == (configs.load(key)["hidden"], q[1] * q[2] + k[1] * k[2] + v[1] * v[2])
    else:
        assert tuple(attn.q_proj.weight.shape) == (q[1] * q[2], configs.load(key)["hidden"])
        assert tuple(attn.k_proj.weight.shape) == (k[1] * k[2], configs.load(key)["hidden"])
        assert (getattr(attn, "q_norm", None) is not None) == configs.load(key)["qk_norm"]


def test_gpt2_total_equals_transformers_default_gpt2():
    """transformers' default GPT2Config is GPT-2 small: built from its own numbers, not ours, it has the panel's total."""
    from transformers import GPT2Config, GPT2LMHeadModel

    with torch.device("meta"):
        ref = GPT2LMHeadModel(GPT2Config())
    assert df.total_parameters("gpt2") == sum(p.numel() for p in ref.parameters()) == 124_439_808


# --- the project model against the experiment's PositionModel ----------------------------------------------


def _project_stage(name: str) -> str:
    rules = [(r"^tok_emb\.", "embedding"), (r"^pos_emb\.", "position"), (r"\.ln1\.|\.attn\.qkv\.", "qkv"),
             (r"\.attn\.proj\.", "output"), (r"\.ln2\.|\.mlp\.", "mlp"), (r"^ln_f\.", "logits")]
    return next(stage for pattern, stage in rules if re.search(pattern, name))


@pytest.mark.parametrize("method", ex.DATAFLOW_PROJECT_METHODS)
def test_project_model_equals_the_experiments_model(method):
    from posenc.experiment.config import PRESETS
    from posenc.experiment.model import PositionModel, rope_inverse_frequencies

    full = PRESETS["full"]  # what posenc.examples.PROJECT restates (tests/test_examples.py)
    model = PositionModel(full, method)
    got = Counter()
    for name, p in model.named_parameters():
        got[_project_stage(name)] += p.numel()
    key = f"project_{method}"
    assert dict(got) == {s.key: s.parameters for s in df.stages(key) if s.parameters}
    assert df.total_parameters(key) == sum(p.numel() for p in model.parameters())
    rope_stage = df.stage(key, "rope")
    if method in ("rope", "rope_partial"):
        pairs = len(rope_inverse_frequencies(full, method))  # the pairs the trained model turns
        text = rope_stage.entries[0].text
        assert re.search(rf"(前|的|这) {pairs} 对", text), text
        if method == "rope_partial":  # partial RoPE drops dims, not frequencies: the turned dims get the whole ladder
            assert f"只转前 {2 * pairs} 维" in text and f"θ^(−2i/{2 * pairs})" in text, text
        assert rope_stage.entries[0].topic == ("partial_rope" if method == "rope_partial" else "rope")
    else:
        assert rope_stage.entries == () and "不转" in rope_stage.note


# --- where position enters, per method ---------------------------------------------------------------------


@pytest.mark.parametrize("key, where", [
    ("project_learned", {"position": ["learned"]}),
    ("project_sinusoidal", {"position": ["sinusoidal"]}),
    ("project_alibi", {"scores": ["score_bias"]}),
    ("project_rope", {"rope": ["rope"]}),
    ("project_rope_partial", {"rope": ["partial_rope"]}),
    ("project_nope", {}),
    ("gpt2", {"position": ["learned"]}),
    ("llama3_8b", {"rope": ["rope"]}),
    ("qwen3_8b", {"rope": ["rope", "rope_scaling"]}),
    ("qwen25_vl_7b", {"ids": ["mrope"], "rope": ["mrope"]}),
])
def test_position_enters_where_the_method_puts_it(key, where):
    got = {s.key: [e.topic for e in s.entries] for s in df.stages(key) if s.entries}
    assert got == where
    note = df.method_note(df.load(key))
    assert (note is not None and note.topic == "nope") == key.endswith("nope")


def test_mrope_has_three_position_ids_and_splits_the_pairs():
    """Qwen2.5-VL-7B: the ids stage gives 3 × N, the rope stage names the split, and the panel says the vision encoder is left out."""
    vl = configs.load("qwen25_vl_7b")
    m = df.load("qwen25_vl_7b")
    assert m.method == "mrope"
    ids, rope_stage = df.stage(m, "ids"), df.stage(m, "rope")
    assert [df.shape_text(t.shape) for t in ids.outputs] == ["N", "3 × N"]
    assert [e.topic for e in ids.entries] == ["mrope"] and [e.topic for e in rope_stage.entries] == ["mrope"]
    assert str(vl["mrope_section"]) in rope_stage.entries[0].text and f"{vl['head_dim'] // 2} 对" in rope_stage.entries[0].text
    assert [t.shape for t in rope_stage.inputs] == [("N", vl["heads"], vl["head_dim"]), ("N", vl["kv_heads"], vl["head_dim"]), (3, "N")]
    assert "视觉编码器不在图里" in ids.note and m.name == f"{vl.name} 语言模型"  # the total counts the language model only
    assert df.position_parameters(m) == relative.model_position_parameters(vl) == 0


def test_qkv_only_biases_leave_the_output_projection_without_one(monkeypatch):
    """attention_bias "qkv" (Qwen2's choice): b_q, b_k, b_v in the qkv stage and no b_o; true gives all four."""
    vl = configs.load("qwen25_vl_7b")
    for bias, want_qkv, want_o in (("qkv", ["b_q", "b_k", "b_v"], []), (True, ["b_q", "b_k", "b_v"], ["b_o"]), (False, [], [])):
        fields = {**vl.fields, "attention_bias": Field(bias, "test", "U")}
        m = df.Model("vl", "vl", "mrope", ModelConfig("vl", "vl", "mrope", fields))
        assert [p.name for p in df.stage(m, "qkv").parts if p.name.startswith("b_")] == want_qkv
        assert [p.name for p in df.stage(m, "output").parts if p.name.startswith("b_")] == want_o
    bad = ModelConfig("vl", "vl", "mrope", {**vl.fields, "attention_bias": Field("qk", "test", "U")})
    monkeypatch.setattr(configs, "load", lambda key: bad)
    with pytest.raises(ValueError, match="attention_bias must be one of True, qkv, False, got 'qk'"):
        df.load.__wrapped__("vl")  # past the cache


# --- lessons ------------------------------------------------------------------------------------------------


def test_stage_order_and_lessons_as_the_issue_lists_them():
    assert list(df.STAGE_KEYS) == STAGE_ORDER
    assert df.taught("1") == {"ids", "embedding", "attention", "causal_mask", "block"}
    assert df.new_in("2") == {"learned"} and df.new_in("3") == {"sinusoidal"} and df.new_in("3b") == {"score_bias"}
    assert df.new_in("4") == {"rope"} and df.new_in("5") == {"rope_scaling"}
    assert df.new_in("6") == {"partial_rope", "nope"} and df.new_in("6b") == {"mrope"}
    assert df.LESSONS.index("6b") == df.LESSONS.index("6") + 1
    assert df.taught("all") == set(df.TOPICS) == df.taught("6b") and df.new_in("all") == set()
    for a, b in zip(df.LESSONS, df.LESSONS[1:]):
        assert df.taught(a) < df.taught(b) and df.taught(b) - df.taught(a) == df.new_in(b)
    gpt2 = df.stages("gpt2")
    assert [s.key for s in gpt2 if df.active(s, "1")] == ["ids", "embedding", "qkv", "scores", "mask", "softmax", "output", "mlp", "logits"]
    assert [s.key for s in gpt2 if not df.active(s, "3b")] == ["rope"]
    assert all(df.active(s, "4") for s in gpt2)


def test_per_layer_stages_repeat_once_per_layer():
    for key in df.model_keys():
        L = df.load(key)["layers"]
        assert [s.repeat for s in df.stages(key)] == [1, 1, 1, L, L, L, L, L, L, L, 1]


# --- bad input ------------------------------------------------------------------------------------------------


def test_bad_input_is_named():
    with pytest.raises(configs.UnknownModel, match="Did you mean 'gpt2'"):
        df.load("gpt3")
    with pytest.raises(ValueError, match="project_rope_partial"):
        df.load("project_rope_half")
    with pytest.raises(ValueError, match="t5 positions"):
        df.load("t5_base")
    with pytest.raises(ValueError, match="no 'vocab_size'.*entry in posenc/data/models"):
        df.load("bloom_176b")
    with pytest.raises(ValueError, match="state must be a lesson"):
        df.taught("7")
    with pytest.raises(ValueError, match="unknown stage 'attention'"):
        df.stage("gpt2", "attention")


# --- the browser's copy ---------------------------------------------------------------------------------------


def test_browser_export_is_plain_json_and_complete():
    data = json.loads(json.dumps(df.browser_export(), ensure_ascii=False))
    assert data["lessons"] == list(df.LESSONS)
    assert [s[0] for s in data["stages"]] == STAGE_ORDER
    keys = [m["key"] for m in data["models"]]
    assert keys == df.model_keys() and set(data["start"].values()) <= set(keys)
    names = [m["name"] for m in data["models"]]
    assert len(set(names)) == len(names), f"the model picker shows two models under one name: {names}"
    assert data["models"][keys.index("project_rope_partial")]["name"] == "本课程的小模型 · 部分 RoPE"
    # the summary names the method the lesson teaches: partial RoPE for a model that turns part of each head
    method_names = {m["key"]: m["method_name"] for m in data["models"]}
    assert (method_names["project_rope_partial"], method_names["project_rope"], method_names["qwen3_8b"]) == (
        "部分 RoPE", "RoPE", "RoPE")
    assert set(data["start"]) == set(df.STATES)
    gpt2 = data["models"][keys.index("gpt2")]
    assert gpt2["stages"]["position"]["parts"] == [["位置表", [1024, 768], 786_432]]
    assert gpt2["total"] == df.total_parameters("gpt2") and gpt2["position_parameters"] == 786_432
    assert ["上下文长度", 1024, "V", None] in gpt2["fields"]
    qwen = data["models"][keys.index("qwen3_8b")]
    assert qwen["stages"]["qkv"]["outputs"][0] == ["q", ["N", 32, 128]]
    assert ["词表大小", 151936, "V3", None] in qwen["fields"]
    # the course's own models carry no tag: their numbers are the project's (docs/index.md, 核实标记)
    own = data["models"][keys.index("project_rope")]
    assert own["fields"] and all(tag is None and link is None for _, _, tag, link in own["fields"])


# --- the static fallback figures ----------------------------------------------------------------------------


def _by_gid(fig):
    from figure_support import texts

    return {t.get_gid(): t for t in texts(fig) if t.get_gid()}


@pytest.mark.parametrize("state", df.STATES)
def test_fallback_figure_draws_posenc_stages_in_order(state):
    """Names top to bottom, each stage's shapes and parameters, its frame (learned / new / later) and ◆ where position enters."""
    from figure_support import drawn, texts

    from figures_src import _style, dataflow as figs

    m = df.load(ex.DATAFLOW_START[state])
    stages = df.stages(m)
    with drawn(figs.figure_name(state)) as fig:
        names = sorted((t for t in texts(fig) if (t.get_gid() or "").startswith("name:")), key=lambda t: t.get_position()[1])
        assert [t.get_text() for t in names] == [s.name for s in stages]  # the y axis points down: top first
        got = _by_gid(fig)
        for s in stages:
            shapes = "，".join(f"{t.name} [{' × '.join('N' if d == 'N' else f'{d:,}' for d in t.shape)}]" for t in s.outputs)
            assert got[f"shape:{s.key}"].get_text() == shapes
            per_layer = s.repeat > 1 and s.parameters
            want = f"参数 每层 {s.parameters // s.repeat:,} × {m['layers']} 层" if per_layer else f"参数 {s.parameters:,}"
            assert got[f"params:{s.key}"].get_text() == want
            assert (f"pos:{s.key}" in got) == bool(s.entries)
        frames = {p.get_gid().split(":")[1]: p.get_gid().split(":")[2] for p in fig.axes[0].patches if (p.get_gid() or "").startswith("box:")}
        want_frames = {s.key: ("new" if s.topic in df.new_in(state) else "learned" if s.topic in df.taught(state) else "later") for s in stages}
        assert frames == want_frames
        for p in fig.axes[0].patches:
            if (p.get_gid() or "").endswith(":later"):
                assert p.get_linestyle() in ("--", "dashed"), p.get_gid()
        # phone rule: at most 4.8 in wide, every text at least 9 pt
        assert fig.get_size_inches()[0] <= _style.PHONE_MAX_WIDTH_IN
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        assert fig.get_tightbbox(FigureCanvasAgg(fig).get_renderer()).width <= _style.PHONE_MAX_WIDTH_IN + 1e-6
        assert min(t.get_fontsize() for t in texts(fig)) >= _style.MIN_TEXT_PT


def test_lesson2_figure_shows_gpt2s_table_and_greys_rope():
    from figure_support import drawn

    from figures_src import dataflow as figs

    assert ex.DATAFLOW_START["2"] == "gpt2"
    with drawn(figs.figure_name("2")) as fig:
        got = _by_gid(fig)
        assert got["params:position"].get_text() == "参数 786,432"
        assert got["shape:position"].get_text() == "x [N × 768]"
        assert "可学习位置表" in got["pos:position"].get_text()
        boxes = {p.get_gid() for p in fig.axes[0].patches if p.get_gid()}
        assert {"box:position:new", "box:rope:later", "box:qkv:learned"} <= boxes


@pytest.mark.parametrize("state", df.STATES)
def test_fallback_figure_alt_text_is_chinese_and_names_the_model_and_the_entry(state):
    from figures_src.build import load_all

    from figures_src import dataflow as figs

    spec = load_all()[figs.figure_name(state)]
    alt = spec.alt_text()
    m = df.load(ex.DATAFLOW_START[state])
    assert m.name in alt and f"{df.total_parameters(m):,}" in alt
    assert len(re.findall(r"[\u4e00-\u9fff]", alt)) > len(alt) / 3  # Chinese
    assert not re.search(r"[\u4e00-\u9fff][A-Za-z0-9]|[A-Za-z0-9][\u4e00-\u9fff]", alt), alt  # set apart from Latin
    for s in df.stages(m):
        for e in s.entries:
            assert e.text in alt
    if not any(s.entries for s in df.stages(m)):
        assert df.method_note(m).text in alt


@pytest.mark.parametrize("state", df.STATES)
def test_fallback_figure_alt_text_sorts_the_stages_as_the_boxes_do(state):
    """Solid (learned before), thick (this lesson) and dashed (later): the alt text lists each stage in its own
    sentence, as the caption and the widget (已学 / 本课) name them; on the home page, every stage is one to learn. A newcomer read the lesson's own stages
    under 「已经学过的环节」 (read of d111ff1)."""
    from figures_src.build import load_all

    from figures_src import dataflow as figs

    spec = load_all()[figs.figure_name(state)]
    alt, caption = spec.alt_text(), spec.caption_text("zh")
    kinds = ("已经学过的环节（实线框）", "本课新学的环节（粗框）", "还没学的环节（虚线框）", "整门课依次讲到的环节（实线框）")
    sentences = {kind: re.search(rf"{kind}：([^。]*)。", alt) for kind in kinds}
    stages = df.stages(df.load(ex.DATAFLOW_START[state]))
    thick = any(s.topic in df.new_in(state) for s in stages)
    assert bool(sentences["本课新学的环节（粗框）"]) == thick == ("粗框" in caption), (alt, caption)
    listed = {kind: set(m.group(1).split("；")) if m else set() for kind, m in sentences.items()}
    for stage in stages:
        # the home page shows the whole course to a reader who has learned nothing yet (read of 472236d: every
        # stage was called learned there)
        where = ("整门课依次讲到的环节（实线框）" if state == "all"
                 else "本课新学的环节（粗框）" if stage.topic in df.new_in(state)
                 else "已经学过的环节（实线框）" if df.active(stage, state) else "还没学的环节（虚线框）")
        assert [k for k, names in listed.items() if stage.name in names] == [where], (stage.name, alt)


# --- the words, in each language ----------------------------------------------------------------------------

CJK = re.compile(r"[\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def _fields(text: str) -> set[str]:
    import string

    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_language_has_the_same_words_with_the_same_fields():
    zh, en = df.words("zh"), df.words("en")
    assert set(zh) == set(en), sorted(set(zh) ^ set(en))
    assert [k for k in zh if _fields(zh[k]) != _fields(en[k])] == []
    assert [k for k, text in en.items() if CJK.search(text)] == []
    # every topic, stage and position method is named, every listed field labelled
    needed = ({f"topic.{t}" for t in df.TOPICS} | {f"stage.{k}" for k in df.STAGE_KEYS} | {f"method.{m}" for m in df.METHODS}
              | {f"project_model.{m}" for m in df.PROJECT_METHODS} | {f"field.{f}" for f in df.FIELDS}
              | {f"scaling.{kind}" for kind in configs.SCALING_KEYS})
    assert needed <= set(zh), sorted(needed - set(zh))
    with pytest.raises(KeyError, match=r"posenc/data/dataflow.en.yaml has no 'stage.nowhere'"):
        df.say("en", "stage.nowhere")
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        df.load("gpt2", "fr")


def test_the_english_export_has_the_same_numbers_and_no_chinese():
    zh, en = df.browser_export("zh"), df.browser_export("en")
    text = json.dumps(en, ensure_ascii=False)
    assert not CJK.search(text), CJK.findall(text)[:10]

    def strip(value):  # every text out, every number and key in
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items()}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return "" if isinstance(value, str) else value

    # model keys, shapes ("N"), tags and topics are the same strings in both: compare them too
    assert [m["key"] for m in en["models"]] == [m["key"] for m in zh["models"]]
    assert strip(en) == strip(zh)
    for m_en, m_zh in zip(en["models"], zh["models"]):
        assert [f[2] for f in m_en["fields"]] == [f[2] for f in m_zh["fields"]]
        for key, s in m_en["stages"].items():
            z = m_zh["stages"][key]
            assert [t[1] for t in s["inputs"] + s["outputs"]] == [t[1] for t in z["inputs"] + z["outputs"]]
            assert [e[0] for e in s["entries"]] == [e[0] for e in z["entries"]]
            # the numbers a sentence quotes: the same digits in both languages
            for e_en, e_zh in zip(s["entries"], z["entries"]):
                assert Counter(re.findall(r"[\d,.]+\d", e_en[1])) == Counter(re.findall(r"[\d,.]+\d", e_zh[1])), (e_en, e_zh)
    gpt2 = en["models"][[m["key"] for m in en["models"]].index("gpt2")]
    assert gpt2["stages"]["position"]["parts"] == [["position table", [1024, 768], 786_432]]
    assert "1,024 rows" in gpt2["stages"]["position"]["entries"][0][1]
    assert ["context length", 1024, "V", None] in gpt2["fields"]
    assert en["stages"][4][:2] == ["rope", "rotate q, k"]
