"""posenc.configs: the model data against the sources they cite, and every check on a bad entry, with its exact
message.

What the tests compare against, part by part:

- models.yaml against facts.md, and posenc.configs' checks on bad entries. The expected (value, tag) pairs below are
  copied from ../shared/facts/facts.md §1, not from models.yaml, so a mistyped value or an over-claimed tag fails
  here.
- models*.yaml checks at their boundaries: the smallest valid value of each checked field is accepted and the first
  invalid one is refused with the exact message (model, field, what it got, the fix). Entries are parsed directly
  (``configs._parse``), as a new model in the data file would be.
- The models added in models_*.yaml and posenc.configs' new checks (position kinds, added fields). Expected (value,
  tag) pairs are typed from the sources named in the data files (the official repository or file each cites), not
  read back from the YAML, so a mistyped value or an over-claimed tag fails here.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
import yaml

from expect import raises_exactly
from posenc import configs


# (model key, field, value, tag) as facts.md §1 states them.
FACTS = [
    ("gpt2", "context", 1024, "V"),
    ("gpt2", "hidden", 768, "V"),
    ("bert_base", "context", 512, "V"),
    ("llama2_7b", "context", 4096, "V"),
    ("llama2_7b", "rope_theta", 10_000, "V"),
    ("llama2_7b", "head_dim", 128, "V"),
    ("llama3_8b", "context", 8192, "V"),
    ("llama3_8b", "rope_theta", 500_000, "V"),
    ("llama31_8b", "max_position_embeddings", 131_072, "V"),
    ("llama31_8b", "rope_theta", 500_000, "V"),
    ("llama31_8b", "scaling", {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                               "original_max_position_embeddings": 8192}, "V"),
    ("mistral_7b_v01", "context", 8192, "V"),  # trained with 8k (transformers' Mistral doc)
    ("mistral_7b_v01", "max_position_embeddings", 32_768, "V3"),
    ("mistral_7b_v01", "rope_theta", 10_000, "V3"),
    ("mistral_7b_v01", "sliding_window", 4096, "V3"),
    ("qwen25_7b", "rope_theta", 1_000_000, "V3"),
    ("qwen25_7b", "context", 32_768, "V"),
    ("qwen25_7b", "scaling", {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32_768}, "V"),
    ("qwen3_8b", "head_dim", 128, "V3"),
    ("qwen3_8b", "rope_theta", 1_000_000, "V3"),
    ("qwen3_8b", "max_position_embeddings", 40_960, "V3"),
    ("qwen3_8b", "context", 32_768, "V"),
    ("qwen3_8b", "scaled_context", 131_072, "V"),
    ("qwen3_8b", "scaling", {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32_768}, "V"),
    ("qwen3_next_80b_a3b", "head_dim", 256, "V"),
    ("qwen3_next_80b_a3b", "rotary_fraction", 0.25, "V"),
    ("qwen3_next_80b_a3b", "full_attention_interval", 4, "V"),
    ("qwen3_next_80b_a3b", "layers", 48, "V"),
    ("qwen3_next_80b_a3b", "context", 262_144, "V3"),
    ("qwen3_next_80b_a3b", "rope_theta", 10_000_000, "U"),
    ("deepseek_v3", "head_dim", 64, "V"),
    ("deepseek_v3", "rope_theta", 10_000, "V"),
    ("deepseek_v3", "context", 4096, "V"),
    ("deepseek_v3", "max_position_embeddings", 163_840, "V3"),
    ("gemma3_27b", "head_dim", 128, "V"),
    ("gemma3_27b", "layers", 62, "V"),
    ("gemma3_27b", "rope_theta", 1_000_000, "V"),
    ("gemma3_27b", "local_rope_theta", 10_000, "V"),
    ("gemma3_27b", "sliding_window", 1024, "V"),
    ("gemma3_27b", "local_layers_per_global", 5, "V"),
    ("gemma3_27b", "scaling", {"rope_type": "linear", "factor": 8.0}, "V"),
    ("gemma3_27b", "context", 131_072, "U"),
    ("glm45", "rotary_fraction", 0.5, "V"),
    ("glm45", "context", 131_072, "V"),
    ("glm45", "rope_theta", 1_000_000, "U"),
    ("glm45", "head_dim", 128, "U"),
    ("gpt_oss", "head_dim", 64, "V"),
    ("gpt_oss", "rope_theta", 150_000, "V"),
    ("gpt_oss", "context", 4096, "V"),
    ("gpt_oss", "sliding_window", 128, "V"),
    ("gpt_oss", "scaling", {"rope_type": "yarn", "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0, "truncate": False,
                            "original_max_position_embeddings": 4096}, "V"),
    ("kimi_k2", "rope_theta", 50_000, "U"),
    ("kimi_k2", "head_dim", 64, "U"),
    ("kimi_k2", "scaling", {"rope_type": "yarn", "factor": 32.0, "original_max_position_embeddings": 4096,
                            "beta_fast": 1.0, "beta_slow": 1.0}, "U"),
]


@pytest.mark.parametrize("key, field, value, tag", FACTS)
def test_field_value_and_tag_match_facts(key, field, value, tag):
    f = configs.load(key).field(field)
    assert f.value == value
    assert f.tag == tag
    assert f.source.strip()


def test_deepseek_scaling_matches_the_official_model_args():
    # facts §1: ModelArgs rope_factor=40, original_seq_len=4096, beta_fast=32, beta_slow=1, mscale=1.;
    # HF config adds mscale_all_dim 1.0 ([V3]), so the dict as a whole is tagged V3.
    f = configs.load("deepseek_v3").field("scaling")
    assert f.value == {"rope_type": "yarn", "factor": 40.0, "original_max_position_embeddings": 4096,
                       "beta_fast": 32, "beta_slow": 1, "mscale": 1.0, "mscale_all_dim": 1.0}
    assert f.tag == "V3"


ROOT = Path(__file__).resolve().parent.parent
CFG_CALL = re.compile(r"""cfg\(\s*["']([A-Za-z0-9_]+)["']""")


def _quoted_models() -> set[str]:
    """Every model key a page quotes with {{ cfg("key", …) }}, in either language."""
    pages = (ROOT / "docs").rglob("*.md")
    return {m.group(1) for page in pages for m in CFG_CALL.finditer(page.read_text(encoding="utf-8"))}


def test_every_model_a_page_quotes_loads_from_its_file():
    # what the pages rely on: each quoted model is in the data files (a deleted or renamed entry fails here
    # with the page's key, before the build's macro error), and as a RoPE model the ones RoPE lessons quote
    quoted = _quoted_models()
    assert {"qwen3_8b", "deepseek_v3", "llama2_7b"} <= quoted  # the scan finds the macro calls at all
    missing = sorted(quoted - set(configs.keys()))
    assert not missing, f"pages quote models the data files lack: {missing}"
    assert configs.load("qwen3_8b").position == configs.load("llama2_7b").position == "rope"


@pytest.mark.parametrize("name", list(configs.MODEL_FILES))
def test_every_entry_of_a_models_file_loads(name):
    # every entry of the file is a model posenc serves, none dropped or shadowed, each of a kind the file holds
    raw = yaml.safe_load((configs.MODELS_FILE.parent / name).read_text(encoding="utf-8")) or {}
    assert raw, f"{name} is empty"
    for key in raw:
        assert configs.load(key).position in configs.MODEL_FILES[name], key
    assert sum(len(yaml.safe_load((configs.MODELS_FILE.parent / f).read_text(encoding="utf-8")) or {})
               for f in configs.MODEL_FILES) == len(configs.keys())


def test_every_rope_model_has_what_rope_needs():
    # the fields RoPE's math reads, of the right type: an even head width, a base > 1, a native context,
    # a rotary part of a positive even number of dimensions, and rope_parameters of a type transformers has
    rope = [configs.load(k) for k in configs.keys() if configs.load(k).position == "rope"]
    assert len(rope) >= 3
    for cfg in rope:
        d, theta, context = cfg["head_dim"], cfg["rope_theta"], cfg["context"]
        assert isinstance(d, int) and d > 0 and d % 2 == 0, cfg.key
        assert theta > 1 and isinstance(context, int) and context > 0, cfg.key
        rotary = int(d * cfg.get("rotary_fraction", 1))  # as transformers truncates partial_rotary_factor
        assert 0 < rotary <= d and rotary % 2 == 0, cfg.key
        params = configs.rope_parameters(cfg)
        assert params["rope_theta"] == theta and params["rope_type"] in ("default", *ROPE_TYPES), cfg.key


ROPE_TYPES = ("linear", "dynamic", "yarn", "llama3", "longrope")


def test_the_scaling_explorer_offers_exactly_its_list():
    # which models the widget offers is examples.SCALING_EXPLORER_MODELS, in its order; a RoPE model not
    # listed is not offered, and the model the widget starts on is listed
    from posenc import examples as ex

    listed = ex.SCALING_EXPLORER_MODELS
    assert [m["key"] for m in configs.browser_export(listed)["models"]] == list(listed)
    assert ex.WIDGET_DEFAULTS["scaling-explorer"]["model"] in listed
    assert [m["key"] for m in configs.browser_export(listed[1:])["models"]] == list(listed[1:])


def test_the_scaling_explorer_list_refuses_a_model_it_cannot_show():
    with pytest.raises(ValueError, match=r"^browser_export: model 'gpt2' is a learned model; .*remove it from the list$"):
        configs.browser_export(("qwen3_8b", "gpt2"))
    with pytest.raises(ValueError, match=r"^browser_export: qwen3_8b listed twice"):
        configs.browser_export(("qwen3_8b", "llama2_7b", "qwen3_8b"))
    with pytest.raises(configs.UnknownModel, match="unknown model 'qwen9'"):
        configs.browser_export(("qwen9",))


def test_partial_rotary_models_of_2021_to_2023_match_their_configs():
    # mesh-transformer-jax configs/6B_roto_256.json: d_model 4096, 16 heads, pe_rotary_dims 64; gpt-neox
    # configs/20B.yml: hidden 6144, 64 heads, rotary_pct 0.25; configs/pythia/6-9B.yml: 4096, 32 heads, 0.25
    for key, hidden, heads, rotary in (("gptj_6b", 4096, 16, 64), ("gpt_neox_20b", 6144, 64, 24), ("pythia_6_9b", 4096, 32, 32)):
        cfg = configs.load(key)
        assert (cfg["hidden"], cfg["heads"], cfg["head_dim"]) == (hidden, heads, hidden // heads), key
        assert int(cfg["head_dim"] * cfg["rotary_fraction"]) == rotary, key
        assert (cfg["rope_theta"], cfg["context"]) == (10_000, 2048), key
        assert all(f.tag == "V" for f in cfg.fields.values()), key


def test_scaled_context_is_factor_times_native_where_given():
    for key in configs.keys():
        cfg = configs.load(key)
        if cfg.get("scaled_context") is not None:
            sc = cfg["scaling"]
            assert cfg["scaled_context"] == sc["factor"] * sc["original_max_position_embeddings"] == sc["factor"] * cfg["context"], key


def test_rope_parameters_carry_partial_rotary_and_theta():
    assert configs.rope_parameters(configs.load("qwen3_next_80b_a3b")) == {
        "rope_type": "default", "rope_theta": 10_000_000, "partial_rotary_factor": 0.25}
    assert configs.rope_parameters(configs.load("gemma3_27b"), layer="local") == {
        "rope_type": "default", "rope_theta": 10_000}
    assert configs.rope_parameters(configs.load("gemma3_27b")) == {
        "rope_type": "linear", "factor": 8.0, "rope_theta": 1_000_000}
    kw = configs.transformers_kwargs(configs.load("qwen3_8b"))
    assert kw["max_position_embeddings"] == 131_072 and kw["head_dim"] == 128
    assert kw["rope_parameters"]["original_max_position_embeddings"] == 32_768


def test_rope_parameters_do_not_alias_the_loaded_config():
    cfg = configs.load("qwen3_8b")
    configs.rope_parameters(cfg)["factor"] = 99.0
    assert cfg["scaling"]["factor"] == 4.0


@pytest.mark.parametrize("call, match", [
    (lambda: configs.rope_parameters(configs.load("gpt2")), "not RoPE"),
    (lambda: configs.rope_parameters(configs.load("qwen3_8b"), layer="local"), "local_rope_theta"),
    (lambda: configs.rope_parameters(configs.load("qwen3_8b"), layer="middle"), "layer"),
])
def test_helpers_reject_bad_requests(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def rope_entry(**fields):
    """A valid RoPE entry (Qwen3-8B-like), with fields replaced or removed (value None)."""
    base = {
        "context": 32_768,
        "head_dim": 128,
        "rope_theta": 1_000_000,
        "scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32_768},
        "scaled_context": 131_072,
    }
    for k, v in fields.items():
        if v is None:
            base.pop(k)
        else:
            base[k] = v
    return {"name": "Test", "position": "rope",
            "fields": {k: {"value": copy.deepcopy(v), "source": "test", "tag": "U"} for k, v in base.items()}}


def test_valid_entry_parses():
    cfg = configs._parse("toy", rope_entry())
    assert cfg["scaled_context"] == 131_072


@pytest.mark.parametrize(
    "fields, names",
    [
        ({"rope_theta": None}, ["toy", "rope_theta"]),
        ({"head_dim": 100, "rotary_fraction": 0.25}, ["toy", "rotary_fraction", "even"]),  # 25 dims
        ({"head_dim": 127}, ["toy", "head_dim", "even"]),
        ({"rotary_fraction": 1.5}, ["toy", "rotary_fraction"]),
        ({"rope_theta": 1}, ["toy", "rope_theta", "greater than 1"]),
        ({"rope_theta": "1e6"}, ["toy", "rope_theta"]),
        ({"head_dim": 128.0}, ["toy", "head_dim", "integer"]),
        ({"scaled_context": 100_000}, ["toy", "scaled_context", "factor"]),
        ({"scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}},
         ["toy", "original_max_position_embeddings", "context"]),
        ({"scaling": {"rope_type": "yarn", "factor": 4.0}}, ["toy", "scaling", "original_max_position_embeddings"]),
        ({"scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32_768, "beta_fats": 32}},
         ["toy", "unknown", "beta_fats"]),
        ({"scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32_768,
                      "beta_fast": 1, "beta_slow": 32}}, ["toy", "beta_fast"]),
        ({"scaling": {"rope_type": "yarn", "factor": 0.5, "original_max_position_embeddings": 32_768},
          "scaled_context": None}, ["toy", "factor"]),
        ({"scaling": {"rope_type": "ntk", "factor": 4.0}}, ["toy", "rope_type"]),
        ({"scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 4.0, "high_freq_factor": 1.0,
                      "original_max_position_embeddings": 32_768}, "scaled_context": None}, ["toy", "high_freq_factor"]),
        ({"scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32_768,
                      "truncate": "no"}}, ["toy", "truncate"]),
        ({"scaling": None}, ["toy", "scaled_context", "no scaling"]),
        ({"scaling_opt_in": "yes"}, ["toy", "scaling_opt_in"]),
        ({"layers": 50, "full_attention_interval": 4}, ["toy", "layers", "full_attention_interval"]),
    ],
)
def test_inconsistent_entry_fails_naming_model_and_field(fields, names):
    with pytest.raises(ValueError) as err:
        configs._parse("toy", rope_entry(**fields))
    for name in names:
        assert name in str(err.value)


def test_llama3_factor_is_not_checked_as_a_context_ratio():
    # Llama 3.1: factor 8 over 8,192 serves 131,072 tokens; a llama3 scaled_context is not factor × original.
    cfg = configs._parse("toy", rope_entry(
        context=8192,
        scaling={"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                 "original_max_position_embeddings": 8192},
        scaled_context=131_072,
    ))
    assert cfg["scaled_context"] == 131_072


W = "models.yaml: toy"


YARN_32K = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32_768}


LONGROPE_32K = {"rope_type": "longrope", "factor": 4.0, "original_max_position_embeddings": 32_768,
                "short_factor": [1.0] * 64, "long_factor": [4.0] * 64}


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"rope_theta": None}, "models.yaml: model 'toy' (rope) lacks rope_theta; add them with source and tag"),
        ({"rope_theta": None, "head_dim": None}, "models.yaml: model 'toy' (rope) lacks head_dim, rope_theta; add them with source and tag"),
        ({"context": 0}, "models.yaml: toy.context must be a positive integer, got 0"),
        ({"context": 4096.0}, "models.yaml: toy.context must be a positive integer, got 4096.0"),
        ({"context": True}, "models.yaml: toy.context must be a positive integer, got True"),
        ({"hidden": -1}, "models.yaml: toy.hidden must be a positive integer, got -1"),
        ({"head_dim": 128.0}, f"{W}.head_dim must be a positive integer, got 128.0; write it without a decimal point"),
        ({"head_dim": 0}, f"{W}.head_dim must be a positive integer, got 0; write it without a decimal point"),
        ({"layers": True}, f"{W}.layers must be a positive integer, got True; write it without a decimal point"),
        ({"sliding_window": -4096}, f"{W}.sliding_window must be a positive integer, got -4096; write it without a decimal point"),
        ({"rope_theta": 1}, f"{W}.rope_theta must be a number greater than 1 (the RoPE base θ), got 1; check the config (RoFormer uses 10000)"),
        ({"rope_theta": "1e6"}, f"{W}.rope_theta must be a number greater than 1 (the RoPE base θ), got '1e6'; check the config (RoFormer uses 10000)"),
        ({"rope_theta": float("inf")}, f"{W}.rope_theta must be a number greater than 1 (the RoPE base θ), got inf; check the config (RoFormer uses 10000)"),
        ({"rope_theta": float("nan")}, f"{W}.rope_theta must be a number greater than 1 (the RoPE base θ), got nan; check the config (RoFormer uses 10000)"),
        ({"rope_theta": True}, f"{W}.rope_theta must be a number greater than 1 (the RoPE base θ), got True; check the config (RoFormer uses 10000)"),
        ({"local_rope_theta": 0.5}, f"{W}.local_rope_theta must be a number greater than 1 (the RoPE base θ), got 0.5; check the config (RoFormer uses 10000)"),
        ({"rotary_fraction": 1.5}, f"{W}.rotary_fraction must be in (0, 1] (transformers' partial_rotary_factor), got 1.5; omit the field for a full rotary head"),
        ({"rotary_fraction": 0}, f"{W}.rotary_fraction must be in (0, 1] (transformers' partial_rotary_factor), got 0; omit the field for a full rotary head"),
        ({"head_dim": 100, "rotary_fraction": 0.25},
         f"{W}: head_dim 100 × rotary_fraction 0.25 = 25 rotary dims, which is not a positive even number (RoPE turns dims in pairs); "
         f"fix head_dim or rotary_fraction"),
        ({"head_dim": 4, "rotary_fraction": 0.25},
         f"{W}: head_dim 4 × rotary_fraction 0.25 = 1 rotary dims, which is not a positive even number (RoPE turns dims in pairs); "
         f"fix head_dim or rotary_fraction"),
        ({"layers": 50, "full_attention_interval": 4},
         f"{W}: layers 50 is not a multiple of full_attention_interval 4; every interval-th layer is full attention, so fix one of them"),
        ({"scaling": None}, f"{W}.scaled_context is given but the model has no scaling dict; add scaling or remove scaled_context"),
        ({"scaling": None, "scaled_context": None, "scaling_opt_in": True},
         f"{W}.scaling_opt_in is given but the model has no scaling dict; add scaling or remove scaling_opt_in"),
        ({"scaling": {"rope_type": "ntk", "factor": 4.0}}, f"{W}.scaling must be a dict whose rope_type is one of linear, dynamic, yarn, llama3, longrope, got 'ntk'"),
        ({"scaling": "yarn"}, f"{W}.scaling must be a dict whose rope_type is one of linear, dynamic, yarn, llama3, longrope, got 'yarn'"),
        ({"scaling": {"rope_type": "yarn", "factor": 4.0}},
         f"{W}.scaling (yarn) lacks original_max_position_embeddings; add them (transformers' rope_parameters names)"),
        ({"scaling": {"rope_type": "llama3", "factor": 8.0}, "scaled_context": None},
         f"{W}.scaling (llama3) lacks high_freq_factor, low_freq_factor, original_max_position_embeddings; "
         f"add them (transformers' rope_parameters names)"),
        ({"scaling": {**YARN_32K, "beta_fats": 32, "alpha": 1}},
         f"{W}.scaling (yarn) has unknown keys alpha, beta_fats; allowed: attention_factor, beta_fast, beta_slow, factor, mscale, "
         f"mscale_all_dim, original_max_position_embeddings, truncate"),
        ({"scaling": {"rope_type": "linear", "factor": 4.0, "low_freq_factor": 1.0}, "scaled_context": None},
         f"{W}.scaling (linear) has unknown keys low_freq_factor; allowed: factor"),
        ({"scaling": {**YARN_32K, "factor": 0.5}, "scaled_context": None}, f"{W}.scaling.factor must be a number ≥ 1 (new context ÷ original), got 0.5"),
        ({"scaling": {**YARN_32K, "factor": "4"}, "scaled_context": None}, f"{W}.scaling.factor must be a number ≥ 1 (new context ÷ original), got '4'"),
        ({"scaling": {**YARN_32K, "original_max_position_embeddings": 32_768.0}},
         f"{W}.scaling.original_max_position_embeddings must be a positive integer, got 32768.0"),
        ({"scaling": {**YARN_32K, "original_max_position_embeddings": 0}},
         f"{W}.scaling.original_max_position_embeddings must be a positive integer, got 0"),
        ({"scaling": {**YARN_32K, "original_max_position_embeddings": 4096}},
         f"{W}: scaling.original_max_position_embeddings 4096 ≠ context 32768; context is the native (pre-training) length, so set one to the other"),
        ({"scaling": {**YARN_32K, "beta_fast": 0}}, f"{W}.scaling.beta_fast must be a positive number, got 0"),
        ({"scaling": {**YARN_32K, "mscale": "1"}}, f"{W}.scaling.mscale must be a positive number, got '1'"),
        ({"scaling": {**YARN_32K, "attention_factor": -1.0}}, f"{W}.scaling.attention_factor must be a positive number, got -1.0"),
        ({"scaling": {**YARN_32K, "truncate": "no"}}, f"{W}.scaling.truncate must be true or false, got 'no'"),
        ({"scaling": {**YARN_32K, "truncate": 0}}, f"{W}.scaling.truncate must be true or false, got 0"),
        ({"scaling": {**YARN_32K, "beta_fast": 1, "beta_slow": 32}},
         f"{W}.scaling: beta_fast 1 < beta_slow 32; beta_fast counts the rotations of the fast pairs and must be the larger (YaRN: 32 and 1)"),
        ({"scaling": {**YARN_32K, "beta_slow": 40}},
         f"{W}.scaling: beta_fast 32 < beta_slow 40; beta_fast counts the rotations of the fast pairs and must be the larger (YaRN: 32 and 1)"),
        ({"scaling": {**YARN_32K, "beta_fast": 0.5}},
         f"{W}.scaling: beta_fast 0.5 < beta_slow 1; beta_fast counts the rotations of the fast pairs and must be the larger (YaRN: 32 and 1)"),
        ({"scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 4.0, "high_freq_factor": 4.0,
                      "original_max_position_embeddings": 32_768}, "scaled_context": None},
         f"{W}.scaling: high_freq_factor 4.0 must exceed low_freq_factor 4.0 (Llama 3.1: 4 and 1)"),
        ({"scaled_context": 100_000},
         f"{W}: scaled_context 100000 ≠ scaling.factor 4.0 × 32768 = 131072 (the factor is new context ÷ original context); fix the factor or scaled_context"),
        ({"scaling": {"rope_type": "linear", "factor": 2.0}, "scaled_context": 32_768},
         f"{W}: scaled_context 32768 ≠ scaling.factor 2.0 × 32768 = 65536 (the factor is new context ÷ original context); fix the factor or scaled_context"),
        ({"scaling_opt_in": "yes"}, f"{W}.scaling_opt_in must be true or false, got 'yes'"),
        ({"scaling": {**LONGROPE_32K, "short_factor": [1.0] * 63}, "scaled_context": None},
         f"{W}.scaling.short_factor must be a list of 64 positive numbers, one per rotary pair (128 rotary dims); copy the config's list whole"),
        ({"scaling": {**LONGROPE_32K, "long_factor": [1.0] * 63 + [0.0]}, "scaled_context": None},
         f"{W}.scaling.long_factor must be a list of 64 positive numbers, one per rotary pair (128 rotary dims); copy the config's list whole"),
        ({"scaling": {k: v for k, v in LONGROPE_32K.items() if k != "factor"}, "scaled_context": None},
         f"{W}: a longrope scaling without factor needs max_position_embeddings (s = max_position_embeddings ÷ "
         f"original_max_position_embeddings, as transformers takes it)"),
    ],
)
def test_inconsistent_entry_message(fields, message):
    with raises_exactly(message):
        configs._parse("toy", rope_entry(**fields))


@pytest.mark.parametrize(
    "raw, message",
    [
        ({"position": "rope", "fields": {}}, "models.yaml: model 'toy' lacks 'name'"),
        ({"name": "T", "fields": {}}, "models.yaml: model 'toy' lacks 'position'"),
        ({"name": "T", "position": "rope"}, "models.yaml: model 'toy' lacks 'fields'"),
        ({"name": "T", "position": "xpos", "fields": {}}, "models.yaml: model 'toy' has position 'xpos'; known: learned, rope, alibi, t5, mrope, nope"),
        ({"name": "T", "position": "alibi", "fields": {}}, "models.yaml: model 'toy' (alibi) lacks context, heads, layers; add them with source and tag"),
        ({"name": "T", "position": "learned", "fields": {"context": 1024}}, "models.yaml: toy.context needs value, source and tag"),
        ({"name": "T", "position": "learned", "fields": {"context": {"value": 1024, "source": "s"}}},
         "models.yaml: toy.context needs value, source and tag"),
        ({"name": "T", "position": "learned", "fields": {"context": {"value": 1024, "source": "s", "tag": "X"}}},
         "models.yaml: toy.context has tag 'X'; use one of V, V3, U"),
        ({"name": "T", "position": "learned", "fields": {"context": {"value": 1024, "source": "s", "tag": "V"}}},
         "models.yaml: model 'toy' (learned) lacks hidden; add them with source and tag"),
    ],
)
def test_malformed_entry_message(raw, message):
    with raises_exactly(message):
        configs._parse("toy", raw)


def test_accepted_edges_and_accessors():
    cfg = configs._parse("toy", rope_entry(rotary_fraction=1.0, head_dim=2, scaled_context=None,
                                      scaling={"rope_type": "llama3", "factor": 1.0, "low_freq_factor": 1.0,
                                               "high_freq_factor": 1.5, "original_max_position_embeddings": 32_768}))
    assert cfg["head_dim"] == 2 and cfg.get("rotary_fraction") == 1.0  # 2 rotary dims, factor exactly 1
    assert cfg.get("layers") is None and cfg.get("layers", 7) == 7
    assert cfg.field("head_dim") == configs.Field(2, "test", "U")
    with raises_exactly("model 'toy' has no field 'layers'; add it with source and tag to models.yaml"):
        cfg["layers"]
    learned = configs._parse("t", {"name": "T", "position": "learned", "fields": {
        "context": {"value": 1, "source": "s", "tag": "V"}, "hidden": {"value": 1, "source": "s", "tag": "V3"}}})
    assert (learned.key, learned.name, learned.position, learned["hidden"]) == ("t", "T", "learned", 1)
    opt_in = configs._parse("toy", rope_entry(scaling_opt_in=False, rope_theta=1.5))
    assert opt_in["scaling_opt_in"] is False and opt_in["rope_theta"] == 1.5


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: configs.rope_parameters(configs.load("gpt2")), "model 'gpt2' uses learned positions, not RoPE; pick a RoPE model such as 'qwen3_8b'"),
        (lambda: configs.rope_parameters(configs.load("qwen3_8b"), layer="local"),
         "model 'qwen3_8b' has no local_rope_theta; layer='local' is for models like 'gemma3_27b'"),
        (lambda: configs.rope_parameters(configs.load("qwen3_8b"), layer="middle"), "layer must be 'global' or 'local', got 'middle'"),
        (lambda: configs.transformers_kwargs(configs.load("gpt2")), "model 'gpt2' uses learned positions, not RoPE; pick a RoPE model such as 'qwen3_8b'"),
    ],
)
def test_helper_messages(call, message):
    with raises_exactly(message):
        call()


def test_unknown_model_suggests_the_closest_key():
    with pytest.raises(configs.UnknownModel) as err:
        configs.load("qwen3_8")
    msg = str(err.value)
    assert msg.startswith("unknown model 'qwen3_8'. Did you mean 'qwen3_8b'")
    assert msg.endswith("; add it to models.yaml.") and "Known: gpt2, " in msg
    with pytest.raises(configs.UnknownModel) as err:
        configs.load("zzzzzz")
    assert str(err.value).startswith("unknown model 'zzzzzz'. Known: gpt2, ")


def test_transformers_kwargs_pick_the_scaled_length():
    kw = configs.transformers_kwargs(configs.load("llama2_7b"))  # no scaling, no max_position_embeddings field
    assert kw == {"head_dim": 128, "hidden_size": 128, "num_attention_heads": 1, "max_position_embeddings": 4096,
                  "rope_parameters": {"rope_type": "default", "rope_theta": 10_000}}
    assert configs.transformers_kwargs(configs.load("deepseek_v3"))["max_position_embeddings"] == 163_840  # scaled_context
    # Llama 3.1 has no scaled_context: its config's max_position_embeddings (131,072), not the native 8,192
    assert configs.transformers_kwargs(configs.load("llama31_8b"))["max_position_embeddings"] == 131_072
    local = configs.transformers_kwargs(configs.load("gemma3_27b"), layer="local")
    assert local["rope_parameters"] == {"rope_type": "default", "rope_theta": 10_000}


def test_keys_keep_the_files_order_and_browser_export_carries_values_and_tags():
    keys = configs.keys()
    assert keys[:2] == ["gpt2", "bert_base"] and len(keys) == len(set(keys))
    export = configs.browser_export(("llama2_7b", "qwen3_8b"))
    assert export["source"] == "models.yaml"
    assert [m["key"] for m in export["models"]] == ["llama2_7b", "qwen3_8b"]
    qwen = next(m for m in export["models"] if m["key"] == "qwen3_8b")
    cfg = configs.load("qwen3_8b")
    assert qwen["name"] == cfg.name and qwen["head_dim"] == 128 and qwen["tags"]["head_dim"] == "V3"
    assert set(qwen) == {"key", "name", "tags", *cfg.fields} and set(qwen["tags"]) == set(cfg.fields)


def test_unknown_model_suggests_at_most_three_names():
    # "llama3_7b" is close to four keys; the message offers the three closest
    with pytest.raises(configs.UnknownModel) as err:
        configs.load("llama3_7b")
    assert str(err.value).startswith("unknown model 'llama3_7b'. Did you mean 'llama3_8b', 'llama2_7b', 'llama31_8b'? Known: ")


# --- boundaries ----------------------------------------------------------------------------------------------------


YARN = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}


LLAMA3 = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
          "original_max_position_embeddings": 4096}


ROPE = {"context": 4096, "head_dim": 128, "rope_theta": 10_000}


T5 = {"heads": 12, "layers": 12, "relative_attention_num_buckets": 32, "relative_attention_max_distance": 128}


MROPE = {"context": 32_768, "head_dim": 128, "rope_theta": 1_000_000, "mrope_section": [16, 24, 24], "spatial_merge_size": 2}


NOPE = {"layers": 8, "other_layers": "mamba", "no_position_in_attention": True}


def entry(position: str, **fields):
    return {"name": "Toy", "position": position,
            "fields": {k: {"value": copy.deepcopy(v), "source": "test", "tag": "U"} for k, v in fields.items()}}


def parse(position: str, **fields) -> configs.ModelConfig:
    return configs._parse("toy", entry(position, **fields))


@pytest.mark.parametrize("position, fields", [
    # a count of 1 is a positive integer: one head, one KV head (multi-query attention), every layer full attention
    ("rope", {**ROPE, "heads": 1, "kv_heads": 1}),
    ("rope", {**ROPE, "layers": 36, "full_attention_interval": 1}),
    ("rope", {**ROPE, "layers": 48, "full_attention_interval": 4}),
    # grouped-query attention: 32 query heads share 8 KV heads; Gated DeltaNet: 16 key heads, 32 value heads
    ("rope", {**ROPE, "heads": 32, "kv_heads": 8, "linear_num_key_heads": 16, "linear_num_value_heads": 32}),
    # a one-token native context scaled by YaRN: the original length 1 is valid
    ("rope", {**ROPE, "context": 1, "scaling": {**YARN, "original_max_position_embeddings": 1}, "scaled_context": 4}),
    # YaRN without scaled_context, with DeepSeek-V3's mscale 1 and the paper's beta_slow 1
    ("rope", {**ROPE, "scaling": {**YARN, "mscale": 1.0, "mscale_all_dim": 1.0, "beta_slow": 1}}),
    # beta_fast equal to beta_slow (the default 32), and a beta_fast of 1.5 above the default beta_slow 1
    ("rope", {**ROPE, "scaling": {**YARN, "beta_slow": 32}}),
    ("rope", {**ROPE, "scaling": {**YARN, "beta_fast": 1.5}}),
    # T5: 4 buckets leave 1 exact bucket per direction, so a max distance of 2 is valid; one bias table
    ("t5", {**T5, "relative_attention_num_buckets": 4, "relative_attention_max_distance": 2, "bias_tables": 1}),
    # M-RoPE: a base just above 1, a section of one pair, interleaved sections (Qwen3-VL)
    ("mrope", {**MROPE, "rope_theta": 2}),
    ("mrope", {**MROPE, "mrope_section": [1, 31, 32], "mrope_interleaved": True}),
])
def test_smallest_valid_values_are_accepted(position, fields):
    cfg = parse(position, **fields)
    assert {name: cfg[name] for name in fields} == fields


@pytest.mark.parametrize("position, fields, message", [
    ("rope", {**ROPE, "heads": 0}, f"{W}.heads must be a positive integer, got 0; write it without a decimal point"),
    ("rope", {**ROPE, "sliding_window": 0}, f"{W}.sliding_window must be a positive integer, got 0; write it without a decimal point"),
    ("rope", {**ROPE, "scaling": {**YARN, "beta_slow": 0}}, f"{W}.scaling.beta_slow must be a positive number, got 0"),
    ("rope", {**ROPE, "scaling": {**YARN, "mscale_all_dim": 0}}, f"{W}.scaling.mscale_all_dim must be a positive number, got 0"),
    ("rope", {**ROPE, "scaling": {**LLAMA3, "low_freq_factor": 0}}, f"{W}.scaling.low_freq_factor must be a positive number, got 0"),
    ("rope", {**ROPE, "scaling": {**LLAMA3, "high_freq_factor": -1}}, f"{W}.scaling.high_freq_factor must be a positive number, got -1"),
    # beta_fast defaults to 32 (YaRN), so a beta_slow of 33 alone is already too large
    ("rope", {**ROPE, "scaling": {**YARN, "beta_slow": 33}},
     f"{W}.scaling: beta_fast 32 < beta_slow 33; beta_fast counts the rotations of the fast pairs and must be the larger (YaRN: 32 and 1)"),
    # 6 buckets: 3 per direction, 1 of them exact (6 // 2 // 2)
    ("t5", {**T5, "relative_attention_num_buckets": 6, "relative_attention_max_distance": 1},
     f"{W}: relative_attention_max_distance 1 must exceed the exact range 1 of 6 buckets (T5: 32 buckets, 128)"),
    ("mrope", {**MROPE, "head_dim": 127}, f"{W}.head_dim must be a positive even integer, got 127"),
    ("mrope", {**MROPE, "mrope_section": [0, 32, 32]},
     f"{W}.mrope_section must be three positive integers (temporal, height, width pairs), got [0, 32, 32]; Qwen2-VL uses [16, 24, 24]"),
    ("mrope", {**MROPE, "mrope_section": [16, 24, 16]},
     f"{W}: mrope_section [16, 24, 16] sums to 56 pairs but head_dim 128 has 64; every rotary pair belongs to one section"),
])
def test_first_invalid_values_are_refused_by_exact_message(position, fields, message):
    with raises_exactly(message):
        parse(position, **fields)


def test_fields_that_are_not_a_mapping_are_refused():
    with raises_exactly("models.yaml: model 'toy' has fields that are not a mapping of name → {value, source, tag}"):
        configs._parse("toy", {"name": "Toy", "position": "learned", "fields": [1024, 768]})


# --- the newer models and position kinds ---------------------------------------------------------------------------


FACTS_LATER = [
    # relative family
    ("t5_base", "heads", 12, "V"), ("t5_base", "layers", 12, "V"), ("t5_base", "hidden", 768, "V"),
    ("t5_base", "relative_attention_num_buckets", 32, "V"), ("t5_base", "relative_attention_max_distance", 128, "V"),
    ("t5_base", "bias_tables", 2, "V"), ("t5_base", "bias_layer_index", 0, "V"),
    ("mpt_7b", "heads", 32, "V"), ("mpt_7b", "layers", 32, "V"), ("mpt_7b", "context", 2048, "V"),
    ("mpt_7b", "alibi_bias_max", 8, "U"),
    ("bloom_176b", "heads", 112, "V"), ("bloom_176b", "layers", 70, "V"), ("bloom_176b", "hidden", 14336, "V"),
    ("bloom_176b", "context", 2048, "V"),
    ("baichuan_13b", "heads", 40, "V"), ("baichuan_13b", "layers", 40, "V"), ("baichuan_13b", "context", 4096, "V"),
    # NoPE layers in production
    ("llama4_scout", "nope_layer_interval", 4, "V3"), ("llama4_scout", "attention_chunk_size", 8192, "V3"),
    ("llama4_scout", "floor_scale", 8192, "V3"), ("llama4_scout", "attn_scale", 0.1, "V3"),
    ("llama4_scout", "layers", 48, "V3"), ("llama4_scout", "heads", 40, "V3"), ("llama4_scout", "rope_theta", 500_000, "V3"),
    ("smollm3_3b", "nope_layer_interval", 4, "V"), ("smollm3_3b", "layers", 36, "V"), ("smollm3_3b", "context", 65_536, "V"),
    ("smollm3_3b", "rope_theta", 5_000_000, "V"), ("smollm3_3b", "kv_heads", 4, "V"),
    ("command_r7b", "local_layers_per_global", 3, "V"), ("command_r7b", "nope_on_full_attention", True, "V"),
    ("command_r7b", "sliding_window", 4096, "V"), ("command_r7b", "layers", 32, "U"),
    ("command_a", "layers", 64, "U"), ("command_a", "local_layers_per_global", 3, "U"),
    # added fields
    ("qwen3_next_80b_a3b", "linear_num_key_heads", 16, "V3"), ("qwen3_next_80b_a3b", "linear_num_value_heads", 32, "V3"),
    ("qwen3_next_80b_a3b", "linear_key_head_dim", 128, "V3"), ("qwen3_next_80b_a3b", "linear_value_head_dim", 128, "V3"),
    ("qwen3_next_80b_a3b", "heads", 16, "V"), ("qwen3_next_80b_a3b", "kv_heads", 2, "V"),
    ("deepseek_v3", "kv_lora_rank", 512, "V"), ("deepseek_v3", "q_lora_rank", 1536, "V"), ("deepseek_v3", "v_head_dim", 128, "V"),
    ("deepseek_v3", "heads", 128, "V"), ("deepseek_v3", "layers", 61, "V"),
    ("gpt2", "vocab_size", 50257, "V"), ("gpt2", "layers", 12, "V"), ("gpt2", "heads", 12, "V"), ("gpt2", "intermediate_size", 3072, "V"),
    ("llama3_8b", "vocab_size", 128256, "V"), ("llama3_8b", "kv_heads", 8, "V"), ("llama3_8b", "intermediate_size", 14336, "V"),
    ("qwen3_8b", "vocab_size", 151936, "V3"), ("qwen3_8b", "layers", 36, "V"), ("qwen3_8b", "intermediate_size", 12288, "V3"),
    # M-RoPE
    ("qwen25_vl_7b", "mrope_section", [16, 24, 24], "V"), ("qwen25_vl_7b", "context", 32_768, "V"),
    ("qwen2_vl_7b", "spatial_merge_size", 2, "V"), ("qwen2_vl_7b", "image_token_id", 151655, "V"),
    ("qwen2_vl_7b", "vision_start_token_id", 151652, "V"), ("qwen2_vl_7b", "mrope_section", [16, 24, 24], "U"),
    ("qwen3_vl_235b_a22b", "mrope_section", [24, 20, 20], "V"), ("qwen3_vl_235b_a22b", "mrope_interleaved", True, "V"),
]


@pytest.mark.parametrize("key, field, value, tag", FACTS_LATER)
def test_new_field_value_and_tag(key, field, value, tag):
    f = configs.load(key).field(field)
    assert f.value == value
    assert f.tag == tag
    assert f.source.strip()


def test_llama3_intermediate_size_follows_the_official_rule():
    # llama-models FeedForward: hidden = int(2 · 4·dim / 3), × ffn_dim_multiplier, rounded up to multiple_of
    dim, mult, multiple_of = 4096, 1.3, 1024
    hidden = int(mult * int(2 * 4 * dim / 3))
    assert configs.load("llama3_8b")["intermediate_size"] == multiple_of * ((hidden + multiple_of - 1) // multiple_of)


def test_every_data_flow_model_has_the_panel_fields():
    for key in ("gpt2", "llama3_8b", "qwen3_8b"):
        cfg = configs.load(key)
        for name in ("vocab_size", "hidden", "layers", "heads", "kv_heads", "head_dim", "intermediate_size", "context"):
            assert name in cfg.fields, (key, name)
        assert cfg["heads"] * cfg["head_dim"] == cfg["hidden"]


def test_position_kinds_of_the_new_models():
    kinds = {k: configs.load(k).position for k in configs.keys()}
    assert {k for k, v in kinds.items() if v == "alibi"} == {"mpt_7b", "bloom_176b", "baichuan_13b"}
    assert {k for k, v in kinds.items() if v == "t5"} == {"t5_base"}
    assert {k for k, v in kinds.items() if v == "mrope"} == {"qwen2_vl_7b", "qwen25_vl_7b", "qwen3_vl_235b_a22b"}
    assert {k for k, v in kinds.items() if v == "nope"} == {"kimi_linear_48b", "jamba_v01"}


ALIBI = dict(context=2048, heads=32, layers=32)


def test_valid_new_kinds_parse():
    assert configs._parse("toy", entry("alibi", **ALIBI))["heads"] == 32
    assert configs._parse("toy", entry("t5", **T5))["relative_attention_num_buckets"] == 32
    assert configs._parse("toy", entry("mrope", **MROPE))["mrope_section"] == [16, 24, 24]
    assert configs._parse("toy", entry("rope", **ROPE, layers=36, nope_layer_interval=4))["nope_layer_interval"] == 4
    assert configs._parse("toy", entry("nope", **NOPE, full_attention_layers=[4, 8]))["full_attention_layers"] == [4, 8]
    assert configs._parse("toy", entry("nope", **NOPE, attention_layer_period=8, attention_layer_offset=4))["layers"] == 8


@pytest.mark.parametrize("position, fields, names", [
    ("alibi", {**ALIBI, "heads": None}, ["toy", "heads"]),
    ("alibi", {**ALIBI, "heads": 32.0}, ["toy", "heads", "integer"]),
    ("t5", {**T5, "relative_attention_max_distance": 8}, ["toy", "relative_attention_max_distance"]),
    ("t5", {**T5, "relative_attention_num_buckets": 2}, ["toy", "relative_attention_max_distance"]),
    ("t5", {**T5, "bias_tables": 0}, ["toy", "bias_tables"]),
    ("mrope", {**MROPE, "mrope_section": [16, 24, 16]}, ["toy", "mrope_section", "sums"]),
    ("mrope", {**MROPE, "mrope_section": [16, 48]}, ["toy", "mrope_section"]),
    ("mrope", {**MROPE, "head_dim": 127}, ["toy", "head_dim"]),
    ("mrope", {**MROPE, "mrope_interleaved": "yes"}, ["toy", "mrope_interleaved"]),
    ("mrope", {**MROPE, "rope_theta": 1}, ["toy", "rope_theta"]),
    ("rope", {**ROPE, "heads": 32, "kv_heads": 5}, ["toy", "kv_heads"]),
    ("rope", {**ROPE, "linear_num_key_heads": 16, "linear_num_value_heads": 24}, ["toy", "linear_num_value_heads"]),
    ("rope", {**ROPE, "nope_on_full_attention": True}, ["toy", "local_layers_per_global"]),
    ("rope", {**ROPE, "nope_on_full_attention": "yes", "local_layers_per_global": 3}, ["toy", "nope_on_full_attention"]),
    ("rope", {**ROPE, "attention_chunk_size": 8192}, ["toy", "nope_layer_interval"]),
    ("rope", {**ROPE, "nope_layer_interval": 4, "full_attention_interval": 4}, ["toy", "nope_layer_interval"]),
    ("rope", {**ROPE, "kv_lora_rank": -512}, ["toy", "kv_lora_rank"]),
    ("nope", {**NOPE}, ["toy", "full_attention_layers", "attention_layer_period"]),
    ("nope", {**NOPE, "full_attention_layers": [4], "attention_layer_period": 8, "attention_layer_offset": 4},
     ["toy", "one way"]),
    ("nope", {**NOPE, "full_attention_layers": [8, 4]}, ["toy", "full_attention_layers", "increasing"]),
    ("nope", {**NOPE, "full_attention_layers": [4, 9]}, ["toy", "full_attention_layers", "layers 8"]),
    ("nope", {**NOPE, "full_attention_layers": [0, 4]}, ["toy", "full_attention_layers"]),
    ("nope", {**NOPE, "attention_layer_period": 8, "attention_layer_offset": 8}, ["toy", "attention_layer_offset"]),
    ("nope", {**NOPE, "attention_layer_period": 8}, ["toy", "attention_layer_offset"]),
    ("nope", {**NOPE, "other_layers": "rnn", "full_attention_layers": [4]}, ["toy", "other_layers", "mamba"]),
    ("nope", {**NOPE, "no_position_in_attention": False, "full_attention_layers": [4]},
     ["toy", "no_position_in_attention", "rope model"]),
    ("nope", {**NOPE, "no_position_in_attention": None, "full_attention_layers": [4]}, ["toy", "no_position_in_attention"]),
])
def test_bad_entries_fail_naming_model_and_field(position, fields, names):
    fields = {k: v for k, v in fields.items() if v is not None}
    with pytest.raises(ValueError) as err:
        configs._parse("toy", entry(position, **fields))
    for name in names:
        assert name in str(err.value)


def write(tmp_path, name, data):
    (tmp_path / name).write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """Point posenc.configs at a scratch data folder: one RoPE model in models.yaml, the other files empty."""
    write(tmp_path, "models.yaml", {"toy": entry("rope", **ROPE)})
    for name in configs.MODEL_FILES:
        if name != "models.yaml":
            write(tmp_path, name, {})
    monkeypatch.setattr(configs, "MODELS_FILE", tmp_path / "models.yaml")
    configs._all.cache_clear()
    yield tmp_path
    configs._all.cache_clear()


def test_the_files_hold_one_kind_of_position_signal_each():
    assert configs.MODEL_FILES == {"models.yaml": ("learned", "rope", "nope"), "models_relative.yaml": ("alibi", "t5"),
                                   "models_vl.yaml": ("mrope",)}
    data = configs.MODELS_FILE.parent
    for name, kinds in configs.MODEL_FILES.items():
        raw = yaml.safe_load((data / name).read_text(encoding="utf-8"))
        assert raw and {e["position"] for e in raw.values()} <= set(kinds), name
    assert sorted(p.name for p in data.glob("models*.yaml")) == sorted(configs.MODEL_FILES)


@pytest.mark.parametrize("files, message", [
    ({"models_vl.yaml": {"toy": entry("rope", **ROPE)}},
     "model 'toy' is defined twice, in models.yaml and models_vl.yaml; keep one entry with all its fields"),
    ({"models_vl.yaml": {"other": entry("rope", **ROPE)}},
     "models_vl.yaml: model 'other' (rope) belongs in models.yaml, the file of rope models"),
    ({"models_more.yaml": {"other": entry("rope", **ROPE)}},
     "models_more.yaml: not a models file posenc reads; put each model in the file of its position kind "
     "(models.yaml: learned/rope/nope, models_relative.yaml: alibi/t5, models_vl.yaml: mrope), or add the file to "
     "posenc.configs.MODEL_FILES"),
])
def test_a_model_outside_its_file_or_defined_twice_fails_naming_the_files(data_dir, files, message):
    for name, data in files.items():
        write(data_dir, name, data)
    with pytest.raises(ValueError) as err:
        configs.keys()
    assert str(err.value) == message


def test_the_scratch_folder_loads_its_one_model(data_dir):
    cfg = configs.load("toy")
    assert configs.keys() == ["toy"] and cfg["head_dim"] == 128
