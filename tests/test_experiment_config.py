"""posenc/experiment/config.py: the settings' derived values and the settings it refuses."""

from __future__ import annotations

import dataclasses

import pytest
from experiment_tiny import TINY

from posenc.experiment import config

FULL = config.preset("full")


def test_derived_values_of_the_full_preset():
    assert FULL.head_dim == 64
    assert FULL.scaling_factor == 4.0 and FULL.ext_factor == 4.0
    assert FULL.ext_lr == pytest.approx(3e-4)
    assert FULL.curve_steps() == [25 * k for k in range(1, 17)]
    assert FULL.ext_curve_steps() == [10 * k for k in range(11)]
    assert FULL.to_dict()["steps"] == 400 and FULL.to_dict()["preset"] == "full"


def test_the_quick_preset_and_unknown_names():
    quick = config.preset("quick")
    assert (quick.d_model, quick.batch_size, quick.steps, quick.eval_stride, quick.ext_steps) == (128, 8, 250, 256, 30)
    with pytest.raises(ValueError, match="unknown preset 'huge'; choose one of \\['full', 'quick'\\]"):
        config.preset("huge")


@pytest.mark.parametrize("change, message", [
    (dict(d_model=10, n_heads=4), "d_model=10 must split into n_heads=4 heads of even width"),
    (dict(d_model=12, n_heads=4), "d_model=12 must split into n_heads=4 heads of even width"),
    (dict(precision="fp16"), "precision must be one of"),
    (dict(eval_len=7), "eval_len=7 must be at least train_len=8"),
    (dict(ext_len=8), "need train_len < ext_len ≤ ext_eval_len, got 8, 8, 32"),
    (dict(ext_len=64), "need train_len < ext_len ≤ ext_eval_len, got 8, 64, 32"),
    (dict(curve_every=3), "curve_every=3 must be a positive divisor of the step count 4"),
    (dict(curve_every=0), "curve_every=0 must be a positive divisor"),
    (dict(ext_curve_every=3), "ext_curve_every=3 must be a positive divisor of the step count 2"),
    (dict(abf_base=10_000.0), "abf_base=10000.0 must exceed rope_base=10000.0"),
])
def test_inconsistent_settings_are_refused_with_the_reason(change, message):
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(TINY, **change)


@pytest.mark.parametrize("change", [dict(eval_len=8), dict(ext_len=32), dict(curve_every=4), dict(curve_every=1),
                                    dict(ext_curve_every=2), dict(abf_base=10_001.0), dict(precision="bf16")])
def test_settings_at_the_edge_are_accepted(change):
    dataclasses.replace(TINY, **change)


def test_method_and_extension_lists_are_checked():
    assert config.check_methods(["rope", "nope"]) == ("rope", "nope")
    assert config.check_extensions(iter(["pi"])) == ("pi",)
    assert config.check_extensions([]) == ()
    with pytest.raises(ValueError, match="unknown position method\\(s\\) \\['fire'\\]; choose from nope, learned"):
        config.check_methods(["rope", "fire"])
    with pytest.raises(ValueError, match="unknown position method\\(s\\) \\(\\); choose from"):
        config.check_methods([])
    with pytest.raises(ValueError, match="unknown extension variant\\(s\\) \\['longrope'\\]; choose from rope, pi"):
        config.check_extensions(["pi", "longrope"])
