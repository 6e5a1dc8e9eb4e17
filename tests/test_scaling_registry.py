"""posenc.scaling's registry and the lesson-5 helpers that moved into it (issue 17).

One registry (``SCALINGS``) and one reader of a model's ``scaling`` dict
(``scaling_arguments``) feed ``for_model``, ``yarn_pairs_for_model`` and
``llama3_bands_for_model``. References are independent of the code under test:
the raw YAML files, transformers' ``ROPE_INIT_FUNCTIONS``, and the formulas
written out term by term (YaRN paper γ(r), llama-models ``apply_scaling``).
"""

from __future__ import annotations

import inspect
import math
from pathlib import Path

import numpy as np
import pytest
import yaml

from posenc import configs, rope, scaling

ROOT = Path(__file__).resolve().parent.parent


def raw_fields(key: str) -> dict:
    """A model's fields straight from the YAML files (models.yaml and the files that add fields)."""
    out = {}
    for path in sorted((ROOT / "posenc" / "data").glob("models*.yaml")):
        entry = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get(key)
        if entry:
            out.update({k: v["value"] for k, v in entry["fields"].items()})
    return out


ROPE_MODELS = [k for k in configs.keys() if configs.load(k).position == "rope"]
SCALED = [k for k in ROPE_MODELS if configs.load(k).get("scaling") is not None]


@pytest.fixture(scope="module")
def hf_init():
    from transformers import modeling_rope_utils

    return modeling_rope_utils.ROPE_INIT_FUNCTIONS


# --- the registry ----------------------------------------------------------------------------------


def test_registry_covers_every_rope_type_models_yaml_accepts(hf_init):
    assert set(scaling.SCALINGS) == set(configs.SCALING_KEYS)
    assert set(scaling.SCALINGS) <= set(hf_init)  # the same names transformers dispatches on


@pytest.mark.parametrize("key", SCALED)
def test_scaling_arguments_read_the_yaml_values_and_fit_the_function(key):
    kind, kwargs = scaling.scaling_arguments(configs.load(key))
    raw = raw_fields(key)
    sc = raw["scaling"]
    assert kind == sc["rope_type"]
    inspect.signature(scaling.SCALINGS[kind]).bind(**kwargs)  # every argument is one the function takes
    assert kwargs["head_dim"] == raw["head_dim"] and kwargs["base"] == raw["rope_theta"]
    assert kwargs["rotary_fraction"] == raw.get("rotary_fraction", 1.0)
    assert kwargs["factor"] == sc["factor"]
    if kind in ("yarn", "llama3"):
        assert kwargs["original_context"] == sc["original_max_position_embeddings"]
    if kind == "yarn":
        assert kwargs["beta_fast"] == sc.get("beta_fast", 32) and kwargs["beta_slow"] == sc.get("beta_slow", 1)
        assert kwargs["truncate"] == sc.get("truncate", True)
        for k in ("mscale", "mscale_all_dim", "attention_factor"):
            assert kwargs[k] == sc.get(k)
    if kind == "llama3":
        assert (kwargs["low_freq_factor"], kwargs["high_freq_factor"]) == (sc["low_freq_factor"], sc["high_freq_factor"])


@pytest.mark.parametrize("key", SCALED)
def test_for_model_dispatches_to_the_registered_function(key, hf_init):
    cfg = configs.load(key)
    kind = cfg["scaling"]["rope_type"]
    theirs, att = hf_init[kind](__import__("transformers").configuration_utils.PreTrainedConfig(
        **configs.transformers_kwargs(cfg)), seq_len=None)
    ours, our_att = scaling.for_model(cfg)
    np.testing.assert_allclose(ours, theirs.double().numpy(), rtol=2e-6)
    assert our_att == pytest.approx(float(att), rel=1e-12)


@pytest.mark.parametrize("call, match", [
    (lambda: scaling.scaling_arguments(configs.load("llama2_7b")), "no scaling"),
    (lambda: scaling.scaling_arguments(configs.load("gpt2")), "RoPE"),
    (lambda: scaling.yarn_pairs_for_model(configs.load("llama31_8b")), "llama3"),
    (lambda: scaling.llama3_bands_for_model(configs.load("qwen3_8b")), "yarn"),
    (lambda: scaling.methods_for(configs.load("gpt2")), "RoPE"),
    (lambda: scaling.yarn_paper_ramp([[1.0, 2.0]]), "rotations"),
    (lambda: scaling.angle_overshoot([1.0, -0.1], [1.0, 0.1], 4096, 4), "inv_freq"),
])
def test_bad_input_raises_value_error_naming_the_problem(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- YaRN with a model's own settings ----------------------------------------------------------------


def correction_dim_by_hand(r, d, theta, L):
    return d * math.log(L / (2 * math.pi * r)) / (2 * math.log(theta))


@pytest.mark.parametrize("key", [k for k in SCALED if configs.load(k)["scaling"]["rope_type"] == "yarn"])
def test_yarn_pairs_for_model_is_what_for_model_computes(key):
    cfg = configs.load(key)
    t = scaling.yarn_pairs_for_model(cfg)
    inv, att = scaling.for_model(cfg)
    np.testing.assert_array_equal(t.inv_freq, inv)
    assert t.attention_factor == att
    sc, raw = raw_fields(key)["scaling"], raw_fields(key)
    d = int(raw["head_dim"] * raw.get("rotary_fraction", 1.0))
    lo = correction_dim_by_hand(sc.get("beta_fast", 32), d, raw["rope_theta"], sc["original_max_position_embeddings"])
    hi = correction_dim_by_hand(sc.get("beta_slow", 1), d, raw["rope_theta"], sc["original_max_position_embeddings"])
    assert t.low_exact == pytest.approx(lo, rel=1e-12) and t.high_exact == pytest.approx(hi, rel=1e-12)
    if sc.get("truncate", True):
        assert (t.low, t.high) == (max(math.floor(lo), 0), min(math.ceil(hi), d - 1))
    else:  # gpt-oss: the reference code does not round (the old figure code did)
        assert (t.low, t.high) == pytest.approx((lo, hi), rel=1e-12)
    assert t.factor == sc["factor"]


def gamma_by_hand(r, alpha, beta):
    return 0.0 if r < alpha else 1.0 if r > beta else (r - alpha) / (beta - alpha)


def test_yarn_pairs_keep_their_own_betas_for_the_paper_ramp():
    t = scaling.yarn_pairs(64, 10_000, 4, 4096, beta_fast=16, beta_slow=2)
    assert (t.beta_fast, t.beta_slow) == (16, 2)
    expected = [1 - gamma_by_hand(4096 / (2 * math.pi * 10_000 ** (2 * j / 64)), 2, 16) for j in range(32)]
    np.testing.assert_allclose(t.paper_ramp, expected, atol=1e-15)
    gaps = np.abs(np.array(expected) - t.ramp)
    assert t.largest_ramp_gap() == int(np.argmax(gaps))


@pytest.mark.parametrize("r", [0.3, 1.0, 1.5, 16.0, 31.9, 32.0, 33.0])
def test_yarn_paper_ramp_is_one_minus_gamma(r):
    assert scaling.yarn_paper_ramp([r])[0] == pytest.approx(1 - gamma_by_hand(r, 1, 32), abs=1e-15)


# --- Llama 3's bands ----------------------------------------------------------------------------------


def bands_by_hand(d, theta, lf, hf, L):
    """llama-models apply_scaling: wavelen < L/hf keep; wavelen > L/lf divide; else smooth."""
    out = []
    for j in range(d // 2):
        lam = 2 * math.pi / theta ** (-2 * j / d)
        out.append("kept" if lam < L / hf else "scaled" if lam > L / lf else "smoothed")
    return out


def test_llama31_bands_match_apply_scaling():
    bands = scaling.llama3_bands_for_model(configs.load("llama31_8b"))
    assert list(bands) == bands_by_hand(128, 500_000, 1, 4, 8192)
    assert scaling.llama3_split(128, 500_000, 1, 4, 8192) == {
        "unchanged": list(bands).count("kept"), "scaled": list(bands).count("scaled"), "smoothed": list(bands).count("smoothed")}


def test_a_wavelength_exactly_at_either_edge_is_smoothed():
    # Pick high_freq_factor / low_freq_factor so that L/hf and L/lf hit two wavelengths exactly (in floats).
    d, theta, L = 16, 10_000.0, 8192
    lam = rope.wavelengths(rope.inverse_frequencies(d, theta))
    edges = [j for j in range(d // 2) if L / (L / lam[j]) == lam[j]]
    assert len(edges) >= 2
    j_hi, j_lo = edges[0], edges[-1]
    hf, lf = L / lam[j_hi], L / lam[j_lo]
    bands = scaling.llama3_bands(d, theta, lf, hf, L)
    assert bands[j_hi] == "smoothed" and bands[j_lo] == "smoothed"
    assert list(bands) == bands_by_hand(d, theta, lf, hf, L)
    split = scaling.llama3_split(d, theta, lf, hf, L)
    assert split["unchanged"] == j_hi and split["scaled"] == d // 2 - 1 - j_lo
    # at the edges the smooth weight is 1 (keep ω) and 0 (ω/s), so the frequencies do not jump
    inv, _ = scaling.llama3(d, theta, 8.0, lf, hf, L)
    omega = rope.inverse_frequencies(d, theta)
    assert inv[j_hi] == pytest.approx(omega[j_hi], rel=1e-12)
    assert inv[j_lo] == pytest.approx(omega[j_lo] / 8, rel=1e-12)


# --- methods side by side -----------------------------------------------------------------------------


def test_methods_for_follows_the_compared_methods_and_each_formula():
    m = scaling.methods_for(configs.load("qwen3_8b"))
    assert tuple(m) == scaling.COMPARED_METHODS
    d, theta, s = 128, 1e6, 4.0
    j = np.arange(d // 2)
    omega = theta ** (-2 * j / d)
    np.testing.assert_allclose(m["none"], omega, rtol=1e-12)
    np.testing.assert_allclose(m["linear"], omega / s, rtol=1e-12)
    np.testing.assert_allclose(m["ntk"], (theta * s ** (d / (d - 2))) ** (-2 * j / d), rtol=1e-12)


def test_methods_for_another_factor_uses_the_paper_defaults(hf_init):
    from transformers.configuration_utils import PreTrainedConfig

    m = scaling.methods_for(configs.load("qwen3_8b"), factor=8.0)
    kw = {"head_dim": 128, "hidden_size": 128, "num_attention_heads": 1, "max_position_embeddings": 8 * 32_768,
          "rope_parameters": {"rope_type": "yarn", "rope_theta": 1e6, "factor": 8.0,
                              "original_max_position_embeddings": 32_768}}
    theirs, _ = hf_init["yarn"](PreTrainedConfig(**kw), seq_len=None)
    np.testing.assert_allclose(m["yarn"], theirs.double().numpy(), rtol=2e-6)
    np.testing.assert_allclose(m["linear"], m["none"] / 8, rtol=1e-12)


def test_angle_overshoot_is_nan_for_pairs_that_turn_and_s_times_the_ratio_otherwise():
    omega = rope.inverse_frequencies(16, 10_000)
    scaled = omega / np.linspace(1, 3, 8)
    over = scaling.angle_overshoot(omega, scaled, 1000, 4)
    for j in range(8):
        lam = 2 * math.pi / omega[j]
        if lam <= 1000:
            assert math.isnan(over[j])
        else:
            assert over[j] == pytest.approx(4 * scaled[j] / omega[j], rel=1e-12)
    assert scaling.pairs_beyond_trained_angles(omega, scaled, 1000, 4) == int(np.sum(np.nan_to_num(over) > 1 + 1e-9))
