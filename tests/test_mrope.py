"""posenc.mrope against transformers' Qwen2-VL / Qwen3-VL reference code, built locally (no hub download)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import configs, mrope, rope

import torch  # a hard dependency: a missing torch fails, never skips
from transformers import Qwen2VLConfig  # noqa: E402
from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLModel, Qwen2VLRotaryEmbedding  # noqa: E402
from transformers.models.qwen3_vl.configuration_qwen3_vl import Qwen3VLTextConfig  # noqa: E402
from transformers.models.qwen3_vl.modeling_qwen3_vl import Qwen3VLTextRotaryEmbedding  # noqa: E402

FAST = settings(max_examples=30, deadline=None)

# Token ids of the Qwen2-VL family (posenc/data/models_vl.yaml, from QwenLM's rope2d.py).
VL = configs.load("qwen2_vl_7b")
IMAGE, START, END = VL["image_token_id"], VL["vision_start_token_id"], VL["vision_start_token_id"] + 1


@pytest.fixture(scope="module")
def tiny_qwen2_vl():
    """A Qwen2-VL model with tiny sizes but the real token ids and merge size; built on CPU, no download."""
    cfg = Qwen2VLConfig(
        text_config=dict(vocab_size=VL["image_token_id"] + 10, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                         num_attention_heads=2, num_key_value_heads=1,
                         rope_parameters={"rope_type": "default", "rope_theta": 10_000.0, "mrope_section": [1, 1, 2]}),
        vision_config=dict(depth=1, embed_dim=16, hidden_size=16, num_heads=2, mlp_ratio=2,
                           spatial_merge_size=VL["spatial_merge_size"]),
        image_token_id=IMAGE, vision_start_token_id=START, vision_end_token_id=END,
    )
    torch.manual_seed(0)
    return Qwen2VLModel(cfg).eval()


def transformers_ids(model, segments):
    """Build input_ids the way the processor does (text ids, vision_start, image pads, vision_end) and ask get_rope_index."""
    ids, grids = [], []
    rng = np.random.default_rng(0)
    for seg in segments:
        if isinstance(seg, mrope.Text):
            ids += rng.integers(10, 1000, seg.length).tolist()
        else:
            grids.append([seg.t, seg.h, seg.w])
            ids += [IMAGE] * mrope.image_tokens(seg, VL["spatial_merge_size"])
    input_ids = torch.tensor([ids])
    mm_types = (input_ids == IMAGE).int()  # 1 = image token, 0 = text (vision_start/end count as text)
    grid = torch.tensor(grids) if grids else None
    pos, delta = model.get_rope_index(input_ids, mm_types, image_grid_thw=grid)
    return pos[:, 0].numpy(), int(delta[0, 0])


def with_markers(segments):
    """Wrap each image in vision_start / vision_end text tokens, as the chat template does."""
    out = []
    for seg in segments:
        if isinstance(seg, mrope.Image):
            out += [mrope.Text(1), seg, mrope.Text(1)]
        else:
            out.append(seg)
    return out


def test_text_image_text_matches_transformers(tiny_qwen2_vl):
    segs = with_markers([mrope.Text(3), mrope.Image(1, 4, 6), mrope.Text(2)])
    ours = mrope.position_ids(segs, VL["spatial_merge_size"])
    theirs, delta = transformers_ids(tiny_qwen2_vl, segs)
    np.testing.assert_array_equal(ours, theirs)
    assert mrope.rope_delta(ours) == delta


def test_worked_example_by_hand():
    # 3 text tokens, a 4 × 6-patch image (2 × 3 tokens after 2 × 2 merging), 2 text tokens.
    ids = mrope.position_ids([mrope.Text(3), mrope.Image(1, 4, 6), mrope.Text(2)], 2)
    np.testing.assert_array_equal(ids, [
        [0, 1, 2, 3, 3, 3, 3, 3, 3, 6, 7],
        [0, 1, 2, 3, 3, 3, 4, 4, 4, 6, 7],
        [0, 1, 2, 3, 4, 5, 3, 4, 5, 6, 7],
    ])
    assert mrope.rope_delta(ids) == 8 - 11


segments_strategy = st.lists(
    st.one_of(
        st.builds(mrope.Text, st.integers(1, 5)),
        st.builds(lambda h, w: mrope.Image(1, 2 * h, 2 * w), st.integers(1, 4), st.integers(1, 4)),
    ),
    min_size=1, max_size=5,
).filter(lambda segs: any(isinstance(s, mrope.Image) for s in segs))


@FAST
@given(segments_strategy)
def test_random_sequences_match_transformers(tiny_qwen2_vl, segs):
    segs = with_markers(segs)
    ours = mrope.position_ids(segs, VL["spatial_merge_size"])
    theirs, delta = transformers_ids(tiny_qwen2_vl, segs)
    np.testing.assert_array_equal(ours, theirs)
    assert mrope.rope_delta(ours) == delta


def test_text_only_is_plain_rope():
    ids = mrope.position_ids([mrope.Text(7)])
    np.testing.assert_array_equal(ids, np.tile(np.arange(7), (3, 1)))
    assert mrope.rope_delta(ids) == 0


# --- which pair follows which axis -----------------------------------------------------------------


def reference_axes(embedding_cls, config, pairs):
    """Feed IDs 1, 2, 3 on the T, H, W rows with ω = 1 for every pair; the angle of pair j names its axis."""
    emb = embedding_cls(config)
    emb.inv_freq = torch.ones(pairs)
    emb.attention_scaling = 1.0
    pos = torch.tensor([1, 2, 3]).view(3, 1, 1)  # (3 axes, batch 1, 1 token)
    cos, sin = emb(torch.zeros(1, dtype=torch.float32), pos)
    ang = torch.atan2(sin[0, 0, :pairs], cos[0, 0, :pairs]).numpy()
    return np.rint(ang).astype(int) - 1


@pytest.mark.parametrize("section", [[16, 24, 24], [2, 3, 3], [1, 1, 1], [5, 1, 2]])
def test_contiguous_sections_match_qwen2_vl(section):
    pairs = sum(section)
    cfg = Qwen2VLConfig(text_config=dict(hidden_size=2 * pairs, num_attention_heads=1, num_hidden_layers=1,
                                         rope_parameters={"rope_type": "default", "rope_theta": 10_000.0,
                                                          "mrope_section": section})).text_config
    np.testing.assert_array_equal(mrope.pair_axes(section), reference_axes(Qwen2VLRotaryEmbedding, cfg, pairs))


@pytest.mark.parametrize("section", [[24, 20, 20], [2, 1, 1], [4, 3, 3], [3, 2, 1]])
def test_interleaved_sections_match_qwen3_vl(section):
    pairs = sum(section)
    cfg = Qwen3VLTextConfig(hidden_size=2 * pairs, head_dim=2 * pairs, num_attention_heads=1, num_hidden_layers=1,
                            rope_parameters={"rope_type": "default", "rope_theta": 10_000.0, "mrope_section": section,
                                             "mrope_interleaved": True})
    np.testing.assert_array_equal(mrope.pair_axes(section, interleaved=True),
                                  reference_axes(Qwen3VLTextRotaryEmbedding, cfg, pairs))


def test_angles_match_qwen2_vl_cos_sin():
    section = [16, 24, 24]
    head_dim, theta = 2 * sum(section), 1_000_000.0
    cfg = Qwen2VLConfig(text_config=dict(hidden_size=head_dim, num_attention_heads=1, num_hidden_layers=1,
                                         rope_parameters={"rope_type": "default", "rope_theta": theta,
                                                          "mrope_section": section})).text_config
    ids = mrope.position_ids([mrope.Text(2), mrope.Image(1, 6, 4), mrope.Text(3)])
    ours = mrope.angles(ids, rope.inverse_frequencies(head_dim, theta), section)
    cos, sin = Qwen2VLRotaryEmbedding(cfg)(torch.zeros(1, dtype=torch.float64), torch.tensor(ids)[:, None, :])
    # transformers forms angles in float32; compare cos/sin to that precision
    np.testing.assert_allclose(np.cos(ours), cos[0, :, : head_dim // 2].double().numpy(), atol=1e-5)
    np.testing.assert_allclose(np.sin(ours), sin[0, :, : head_dim // 2].double().numpy(), atol=1e-5)


def test_axis_counts_and_models():
    assert mrope.axis_pair_counts([16, 24, 24]) == {"temporal": 16, "height": 24, "width": 24}
    qwen3 = configs.load("qwen3_vl_235b_a22b")
    axes = mrope.model_pair_axes(qwen3)
    assert axes[:6].tolist() == [0, 1, 2, 0, 1, 2]
    assert mrope.axis_pair_counts(qwen3["mrope_section"], True) == {"temporal": 24, "height": 20, "width": 20}
    # contiguous: the width axis gets only the slowest pairs; interleaved spreads every axis over all speeds
    contiguous = mrope.model_pair_axes(configs.load("qwen25_vl_7b"))
    assert contiguous[-1] == 2 and contiguous[0] == 0 and np.all(np.diff(contiguous) >= 0)
    ids = mrope.model_position_ids(configs.load("qwen25_vl_7b"), [mrope.Text(1), mrope.Image(1, 2, 2)])
    assert ids.shape == (3, 2)


@pytest.mark.parametrize("call, match", [
    (lambda: mrope.position_ids([]), "empty"),
    (lambda: mrope.position_ids([mrope.Text(0)]), "Text.length"),
    (lambda: mrope.position_ids([mrope.Image(1, 3, 4)]), "divisible"),
    (lambda: mrope.position_ids([mrope.Image(2, 4, 4)]), "still image"),
    (lambda: mrope.position_ids(["hello"]), "Text and Image"),
    (lambda: mrope.position_ids([mrope.Text(2)], spatial_merge_size=0), "spatial_merge_size"),
    (lambda: mrope.pair_axes([16, 24]), "three"),
    (lambda: mrope.pair_axes([16, 0, 24]), r"mrope_section\[1\]"),
    (lambda: mrope.pair_axes([1, 3, 3], interleaved=True), "interleave"),
    (lambda: mrope.pair_axes([16, 24, 24], interleaved="yes"), "interleaved"),
    (lambda: mrope.angles(np.zeros((3, 2), dtype=int), np.ones(5), [16, 24, 24]), "inv_freq"),
    (lambda: mrope.rope_delta(np.zeros((2, 4), dtype=int)), "shape"),
    (lambda: mrope.model_position_ids(configs.load("qwen3_8b"), [mrope.Text(1)]), "M-RoPE"),
])
def test_bad_input_raises_clear_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()
