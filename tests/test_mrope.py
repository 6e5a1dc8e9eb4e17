"""posenc.mrope against transformers' Qwen2-VL / Qwen3-VL reference code, per-axis frequencies worked by hand, and its
bad-input contract.

What the tests compare against, part by part:

- posenc.mrope against transformers' Qwen2-VL / Qwen3-VL reference code, built locally (no hub download).
- posenc.mrope's per-axis frequencies and angles, on small cases worked by hand; no torch. The layouts (module
  docstring): contiguous (Qwen2-VL) gives pairs 0 … n_T−1 to the temporal ID, the next n_H to height, the last n_W
  to width. Interleaved (Qwen3-VL, transformers ``apply_interleaved_mrope``): pair j goes to height when j ≡ 1 (mod
  3) and j < 3·n_H, to width when j ≡ 2 (mod 3) and j < 3·n_W, to temporal otherwise. The expected pairs below are
  worked out from those rules by hand; the first part checks the layouts themselves against transformers.
- posenc.mrope's contract for bad input: a ValueError that names the argument (or the model) and the fix, for
  position_ids, pair_axes and angles, the per-axis helpers and the model wrappers; and the wrappers take the
  model's own spatial_merge_size.
"""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st
import numpy as np
import pytest
import torch  # a hard dependency: a missing torch fails, never skips
from transformers import Qwen2VLConfig  # noqa: E402
from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLModel, Qwen2VLRotaryEmbedding  # noqa: E402
from transformers.models.qwen3_vl.configuration_qwen3_vl import Qwen3VLTextConfig  # noqa: E402
from transformers.models.qwen3_vl.modeling_qwen3_vl import Qwen3VLTextRotaryEmbedding  # noqa: E402

from posenc import configs, mrope
from posenc import configs, mrope, rope
from posenc import examples as ex
from posenc import mrope


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


# --- per-axis frequencies by hand ----------------------------------------------------------------------------------


# Four pairs with distinct, decreasing frequencies, so each expected split can be read off by eye.
OMEGA4 = np.array([1.0, 0.5, 0.25, 0.125])


def test_contiguous_split_is_the_default_by_hand():
    # [1, 1, 2]: pair 0 → T, pair 1 → H, pairs 2 and 3 → W.
    got = mrope.axis_frequencies(OMEGA4, [1, 1, 2])
    assert list(got) == ["temporal", "height", "width"]
    np.testing.assert_array_equal(got["temporal"], [1.0])
    np.testing.assert_array_equal(got["height"], [0.5])
    np.testing.assert_array_equal(got["width"], [0.25, 0.125])


def test_interleaved_split_by_hand():
    # [2, 1, 1] interleaved: pair 1 → H (1 < 3), pair 2 → W (2 < 3), pairs 0 and 3 → T.
    got = mrope.axis_frequencies(OMEGA4, [2, 1, 1], interleaved=True)
    np.testing.assert_array_equal(got["temporal"], [1.0, 0.125])
    np.testing.assert_array_equal(got["height"], [0.5])
    np.testing.assert_array_equal(got["width"], [0.25])
    # the same section laid out contiguously: pairs 0, 1 → T, 2 → H, 3 → W
    flat = mrope.axis_frequencies(OMEGA4, [2, 1, 1], interleaved=False)
    np.testing.assert_array_equal(flat["temporal"], [1.0, 0.5])
    np.testing.assert_array_equal(flat["height"], [0.25])
    np.testing.assert_array_equal(flat["width"], [0.125])


def test_each_axis_lists_its_frequencies_fastest_first_whatever_the_input_order():
    # inv_freq given slowest first: width still holds the last two pairs (0.5 and 1.0), listed 1.0 then 0.5.
    got = mrope.axis_frequencies(OMEGA4[::-1], [1, 1, 2])
    np.testing.assert_array_equal(got["temporal"], [0.125])
    np.testing.assert_array_equal(got["height"], [0.25])
    np.testing.assert_array_equal(got["width"], [1.0, 0.5])
    # three pairs on one axis, shuffled: all three come back, in decreasing order
    got = mrope.axis_frequencies([0.2, 0.9, 0.1, 0.5, 0.7], [3, 1, 1])
    np.testing.assert_array_equal(got["temporal"], [0.9, 0.2, 0.1])


def test_qwen3_vl_section_interleaved_by_hand():
    # Qwen3-VL's [24, 20, 20] over 64 pairs: H takes j = 1, 4, …, 58; W takes j = 2, 5, …, 59;
    # T takes j = 0, 3, …, 57 and the four pairs 60 … 63 past the interleaved block.
    omega = 1e6 ** (-np.arange(64) / 64)
    got = mrope.axis_frequencies(omega, [24, 20, 20], interleaved=True)
    np.testing.assert_array_equal(got["height"], omega[[1 + 3 * i for i in range(20)]])
    np.testing.assert_array_equal(got["width"], omega[[2 + 3 * i for i in range(20)]])
    np.testing.assert_array_equal(got["temporal"], omega[[3 * i for i in range(20)] + [60, 61, 62, 63]])
    # contiguous [16, 24, 24] (Qwen2-VL): T the fastest 16, W the slowest 24
    got = mrope.axis_frequencies(omega, [16, 24, 24])
    np.testing.assert_array_equal(got["width"], omega[40:])
    assert got["width"].max() < got["height"].min() < got["height"].max() < got["temporal"].min()


def test_frequencies_come_back_in_float64_from_float32_input():
    # A model stores inv_freq in float32 (transformers' buffer). The frequencies come back in float64, so a
    # caller's position × ω at long context keeps float64 precision instead of float32's (~0.002 rad at 1e5).
    omega32 = (10_000.0 ** (-np.arange(4) / 4)).astype(np.float32)
    got = mrope.axis_frequencies(omega32, [1, 1, 2])
    for name in mrope.AXES:
        assert got[name].dtype == np.float64
    position = 123_457
    angles = position * got["width"]
    exact = position * omega32[2:].astype(np.float64)  # the float32 values, multiplied in float64
    np.testing.assert_allclose(angles, exact, rtol=0, atol=1e-9)


def test_angles_follow_the_interleaved_layout_by_hand():
    # one token with IDs T = 5, H = 7, W = 11; [2, 1, 1] interleaved → axes T, H, W, T
    ids = np.array([[5], [7], [11]])
    np.testing.assert_allclose(mrope.angles(ids, OMEGA4, [2, 1, 1], interleaved=True),
                               [[5 * 1.0, 7 * 0.5, 11 * 0.25, 5 * 0.125]], rtol=0, atol=1e-15)
    # contiguous → axes T, T, H, W
    np.testing.assert_allclose(mrope.angles(ids, OMEGA4, [2, 1, 1]),
                               [[5 * 1.0, 5 * 0.5, 7 * 0.25, 11 * 0.125]], rtol=0, atol=1e-15)


# --- bad input -----------------------------------------------------------------------------------------------------


TEXT_MODEL = configs.load("qwen3_8b")  # plain RoPE, no M-RoPE fields


VL25 = configs.load("qwen25_vl_7b")


@pytest.mark.parametrize("call, match", [
    # 5 frequencies for a 64-pair section: the message gives both counts and the head_dim to build
    (lambda: mrope.axis_frequencies(np.ones(5), [16, 24, 24]),
     r"inv_freq has \(5,\) frequencies but mrope_section \[16, 24, 24\] has 64 pairs; build inv_freq for head_dim"),
    # the right count but two-dimensional (a batch of frequency rows)
    (lambda: mrope.axis_frequencies(np.ones((4, 2)), [1, 1, 2]),
     r"inv_freq has \(4, 2\) frequencies but mrope_section \[1, 1, 2\] has 4 pairs"),
    (lambda: mrope.angles(np.zeros((3, 2), dtype=int), np.ones((4, 2)), [1, 1, 2]), r"inv_freq has \(4, 2\)"),
    # [1, 3, 3] lays out contiguously but cannot interleave (height would need pairs 1, 4, 7 of 0 … 6)
    (lambda: mrope.axis_frequencies(np.ones(7), [1, 3, 3], interleaved=True), "cannot be interleaved"),
    (lambda: mrope.axis_pair_counts([1, 3, 3], interleaved=True), "cannot be interleaved"),
    (lambda: mrope.axis_frequencies(np.ones(4), [1, 1, 2], interleaved=None), "interleaved must be True"),
    # the model wrappers name the model they were given, or the type of what they got instead
    (lambda: mrope.model_position_ids(TEXT_MODEL, [mrope.Text(1)]), r"M-RoPE model .* got 'qwen3_8b'"),
    (lambda: mrope.model_position_ids("qwen25_vl_7b", [mrope.Text(1)]), r"got 'str'; e\.g\. configs\.load"),
    (lambda: mrope.model_pair_axes(TEXT_MODEL), r"M-RoPE model .* got 'qwen3_8b'"),
    (lambda: mrope.model_pair_axes("qwen25_vl_7b"), r"got 'str'; e\.g\. configs\.load\('qwen25_vl_7b'\)"),
])
def test_bad_input_names_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


NOT_THREE = r"^mrope_section must be three pair counts \(temporal, height, width\), got {}; Qwen2-VL uses \[16, 24, 24\]$"


@pytest.mark.parametrize("call, match", [
    # images: the grid's fields by name, still images only, sides divisible by the merge size
    (lambda: mrope.merged_grid("4x6"), r"^image must be a posenc\.mrope\.Image\(t, h, w\), got str$"),
    (lambda: mrope.merged_grid(mrope.Image(0, 2, 2)), r"^image\.t must be a positive integer, got 0$"),
    (lambda: mrope.merged_grid(mrope.Image(1, 0, 2)), r"^image\.h must be a positive integer, got 0$"),
    (lambda: mrope.merged_grid(mrope.Image(1, 2, -2)), r"^image\.w must be a positive integer, got -2$"),
    (lambda: mrope.merged_grid(mrope.Image(1, 2, 2), 0), r"^spatial_merge_size must be a positive integer, got 0$"),
    (lambda: mrope.merged_grid(mrope.Image(2, 2, 2)),
     r"^image\.t must be 1 \(a still image\); got 2: videos are not handled by posenc\.mrope$"),
    (lambda: mrope.merged_grid(mrope.Image(1, 3, 4)),
     r"^image grid 3 × 4 patches is not divisible by spatial_merge_size 2; the vision encoder merges 2 × 2 patches, "
     r"so both sides must be multiples of 2$"),
    (lambda: mrope.merged_grid(mrope.Image(1, 4, 3)), r"^image grid 4 × 3 patches is not divisible"),
    (lambda: mrope.image_tokens(mrope.Image(1, 4, 4), 3), r"^image grid 4 × 4 patches is not divisible by spatial_merge_size 3"),
    # sequences
    (lambda: mrope.position_ids([]), r"^segments is empty; pass e\.g\. \[Text\(3\), Image\(1, 4, 6\), Text\(2\)\]$"),
    (lambda: mrope.position_ids([mrope.Text(0)]), r"^Text\.length must be a positive integer, got 0$"),
    (lambda: mrope.position_ids([mrope.Text(True)]), r"^Text\.length must be a positive integer, got True$"),
    (lambda: mrope.position_ids([mrope.Text(2.0)]), r"^Text\.length must be a positive integer, got 2\.0$"),
    (lambda: mrope.position_ids([mrope.Text(2), "hello"]), r"^segments must hold Text and Image items, got str$"),
    (lambda: mrope.position_ids([mrope.Text(2)], spatial_merge_size=0), r"^spatial_merge_size must be"),
    (lambda: mrope.position_ids([mrope.Image(1, 4, 4)], spatial_merge_size=3), r"divisible by spatial_merge_size 3"),
    # position IDs as arrays
    (lambda: mrope.rope_delta(np.zeros((2, 4), dtype=int)),
     r"^ids must have shape \(3, N\) \(temporal, height, width rows\), got \(2, 4\); build them with position_ids\(\)$"),
    (lambda: mrope.rope_delta(np.zeros(3, dtype=int)), r"^ids must have shape \(3, N\) .* got \(3,\)"),
    (lambda: mrope.rope_delta(np.zeros((3, 0), dtype=int)), r"^ids must have shape \(3, N\) .* got \(3, 0\)"),
    (lambda: mrope.rope_delta(np.zeros((3, 2))), r"^ids must be non-negative integers; build them with position_ids\(\)$"),
    (lambda: mrope.rope_delta(np.array([[0, 1], [0, -1], [0, 1]])), r"^ids must be non-negative integers"),
    # sections
    (lambda: mrope.pair_axes([16, 24]), NOT_THREE.format(r"\[16, 24\]")),
    (lambda: mrope.pair_axes([16, 24, 24, 1]), NOT_THREE.format(r"\[16, 24, 24, 1\]")),
    (lambda: mrope.pair_axes("16 24 24"), NOT_THREE.format("'16 24 24'")),
    (lambda: mrope.pair_axes(64), NOT_THREE.format("64")),
    (lambda: mrope.pair_axes([0, 24, 24]), r"^mrope_section\[0\] must be a positive integer, got 0$"),
    (lambda: mrope.pair_axes([16, 0, 24]), r"^mrope_section\[1\] must be"),
    (lambda: mrope.pair_axes([16, 24, 0]), r"^mrope_section\[2\] must be"),
    (lambda: mrope.pair_axes([1, 3, 3], interleaved=True),
     r"^mrope_section \[1, 3, 3\] cannot be interleaved: axis height would need pair 7 of 7; Qwen3-VL uses \[24, 20, 20\]$"),
    (lambda: mrope.pair_axes([2, 1, 3], interleaved=True),
     r"^mrope_section \[2, 1, 3\] cannot be interleaved: axis width would need pair 8 of 6"),
    (lambda: mrope.pair_axes([16, 24, 24], interleaved="yes"),
     r"^interleaved must be True \(Qwen3-VL\) or False \(Qwen2-VL\), got 'yes'$"),
])
def test_bad_ids_and_sections_name_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_what_the_checks_accept():
    # a section as a list, tuple or array; counts as NumPy integers; unsigned IDs
    for section in ([1, 1, 2], (1, 1, 2), np.array([1, 1, 2]), [np.int64(1), 1, 2]):
        np.testing.assert_array_equal(mrope.pair_axes(section), [0, 1, 2, 2])
    np.testing.assert_array_equal(mrope.pair_axes([1, 1, 1], interleaved=True), [0, 1, 2])
    assert mrope.rope_delta(np.array([[0, 1, 2]] * 3, dtype=np.uint8)) == 0
    assert mrope.rope_delta(np.array([[0]] * 3)) == 0
    np.testing.assert_array_equal(mrope.position_ids(mrope.Text(np.int64(1))), [[0], [0], [0]])


def test_a_lone_segment_need_not_be_in_a_list():
    np.testing.assert_array_equal(mrope.position_ids(mrope.Text(3)), [[0, 1, 2]] * 3)
    # a 2 × 2-token image alone: T stays 0, H = row, W = column
    np.testing.assert_array_equal(mrope.position_ids(mrope.Image(1, 4, 4)), [[0, 0, 0, 0], [0, 0, 1, 1], [0, 1, 0, 1]])


def test_image_tokens_count_the_merged_grid():
    # 4 × 6 patches merged 2 × 2 (the default) → 2 × 3 = 6 tokens; merged 4 × 4, 8 × 4 patches → 2 × 1 = 2
    assert mrope.image_tokens(mrope.Image(1, 4, 6)) == 6
    assert mrope.merged_grid(mrope.Image(1, 4, 6)) == (1, 2, 3)
    assert mrope.image_tokens(mrope.Image(1, 8, 4), 4) == 2
    assert mrope.merged_grid(mrope.Image(1, 8, 4), 4) == (1, 2, 1)
    assert mrope.image_tokens(mrope.Image(1, 1, 1), 1) == 1
    # counts of tokens are Python ints (usable as range() bounds), not floats from a true division
    assert all(type(v) is int for v in mrope.merged_grid(mrope.Image(1, 4, 6)))
    assert type(mrope.image_tokens(mrope.Image(1, 4, 6))) is int
    # the merge size reaches position_ids: 8 × 4 patches merged 4 × 4 are two tokens in one row
    np.testing.assert_array_equal(mrope.position_ids([mrope.Image(1, 8, 4)], 4), [[0, 0], [0, 1], [0, 0]])


def test_contiguous_section_counts_even_if_it_could_not_interleave():
    assert mrope.axis_pair_counts([1, 3, 3]) == {"temporal": 1, "height": 3, "width": 3}


def _with_merge_size(cfg, k):
    fields = dict(cfg.fields, spatial_merge_size=configs.Field(k, "test: a hypothetical encoder merging k × k", "U"))
    return dataclasses.replace(cfg, fields=fields)


def test_model_position_ids_use_the_models_merge_size():
    # A 4 × 8-patch image: merged 2 × 2 it is 2 × 4 tokens; merged 4 × 4 it is 1 × 2 tokens.
    segs = [mrope.Text(1), mrope.Image(1, 4, 8), mrope.Text(1)]
    np.testing.assert_array_equal(mrope.model_position_ids(VL25, segs), [
        [0, 1, 1, 1, 1, 1, 1, 1, 1, 5],
        [0, 1, 1, 1, 1, 2, 2, 2, 2, 5],
        [0, 1, 2, 3, 4, 1, 2, 3, 4, 5],
    ])
    np.testing.assert_array_equal(mrope.model_position_ids(_with_merge_size(VL25, 4), segs), [
        [0, 1, 1, 3],
        [0, 1, 1, 3],
        [0, 1, 2, 3],
    ])


def test_a_tall_image_moves_the_next_text_by_its_height():
    # 6 × 2 patches merged 2 × 2: 3 rows of 1 token. Text after it continues at 1 + max(1, 3, 1) = 4.
    ids = mrope.position_ids([mrope.Text(1), mrope.Image(1, 6, 2), mrope.Text(1)])
    np.testing.assert_array_equal(ids, [[0, 1, 1, 1, 4], [0, 1, 2, 3, 4], [0, 1, 1, 1, 4]])


# --- axis frequencies and ID differences ---------------------------------------------------------------------------


def test_axis_frequencies_split_the_head():
    inv = rope.inverse_frequencies(128, 1_000_000)
    contiguous = mrope.axis_frequencies(inv, [16, 24, 24])
    np.testing.assert_array_equal(contiguous["temporal"], inv[:16])
    np.testing.assert_array_equal(contiguous["height"], inv[16:40])
    np.testing.assert_array_equal(contiguous["width"], inv[40:])
    inter = mrope.axis_frequencies(inv, [24, 20, 20], interleaved=True)
    np.testing.assert_array_equal(inter["width"], inv[2:60:3])
    np.testing.assert_array_equal(inter["height"], inv[1:60:3])
    np.testing.assert_array_equal(np.sort(np.concatenate(list(inter.values()))), np.sort(inv))


def _turn(x: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """Half-layout rotation of one vector by per-pair angles (transformers' rotate_half convention)."""
    h = len(angles)
    a, b = x[:h], x[h:2 * h]
    return np.concatenate([a * np.cos(angles) - b * np.sin(angles), a * np.sin(angles) + b * np.cos(angles)])


@FAST
@given(shift=st.integers(1, 500), seed=st.integers(0, 2**16), interleaved=st.booleans())
def test_scores_depend_only_on_id_differences(shift, seed, interleaved):
    section = [24, 20, 20] if interleaved else [16, 24, 24]
    inv = rope.inverse_frequencies(128, 1_000_000)
    ids = mrope.position_ids(ex.mrope_segments())
    rng = np.random.default_rng(seed)
    qs, ks = rng.standard_normal((2, ids.shape[1], 128))

    def scores(id_rows):
        ang = mrope.angles(id_rows, inv, section, interleaved)
        qr = np.array([_turn(v, a) for v, a in zip(qs, ang)])
        kr = np.array([_turn(v, a) for v, a in zip(ks, ang)])
        return qr @ kr.T

    np.testing.assert_allclose(scores(ids + shift), scores(ids), atol=1e-9)
    moved = ids.copy()
    moved[2, 3] += 1  # one image token one column further right: its scores change
    assert np.abs(scores(moved) - scores(ids)).max() > 1e-9


def test_text_only_ids_make_plain_rope_angles():
    ids = mrope.position_ids([mrope.Text(9)])
    inv = rope.inverse_frequencies(128, 1_000_000)
    np.testing.assert_allclose(mrope.angles(ids, inv, [16, 24, 24]), np.arange(9)[:, None] * inv[None, :])


def test_axis_frequencies_bad_input():
    with pytest.raises(ValueError, match="inv_freq"):
        mrope.axis_frequencies(np.ones(10), [16, 24, 24])
    with pytest.raises(ValueError, match="mrope_section"):
        mrope.axis_frequencies(np.ones(64), [16, 48])
