"""posenc.hybrid.head_dims' guard: if a config's two readings of the rotary width drift apart, the error
names the model and both counts."""

from __future__ import annotations

import dataclasses
import re

import pytest

from posenc import configs, hybrid


def test_head_dims_reports_frequencies_and_mask_that_disagree():
    # An MLA model's mask marks its whole decoupled RoPE part (deepseek_v3: head_dim = d_R = 64 dims) as
    # rotary, while a rotary_fraction of 0.5 would give frequencies for only 32 of them (16 pairs). No
    # shipped config does this (configs.load checks them); the guard is for one that drifts.
    dsv3 = configs.load("deepseek_v3")
    assert dsv3["head_dim"] == 64
    drifted = dataclasses.replace(dsv3, fields=dict(dsv3.fields, rotary_fraction=configs.Field(0.5, "test", "U")))
    with pytest.raises(ValueError, match=re.escape(
            "model 'deepseek_v3': 32 rotary dims from its frequencies but 64 in its mask")):
        hybrid.head_dims(drifted)
