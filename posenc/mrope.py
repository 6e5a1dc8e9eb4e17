"""Multimodal RoPE (M-RoPE): three position IDs per token and rotary pairs split by axis.

Qwen2-VL (Wang et al. 2024, arXiv:2409.12191; QwenLM/Qwen2-VL README: "Multimodal Rotary
Position Embedding (M-ROPE): Decomposes positional embedding into parts to capture 1D
textual, 2D visual, and 3D video positional information") gives every token three
position IDs — temporal, height, width — and turns each rotary pair by the ID of one axis:

* Text tokens carry the same ID on all three axes, counting on by one per token, so a
  text-only sequence is plain RoPE.
* An image of H × W patches reaches the language model as (H/k) × (W/k) tokens after the
  vision encoder merges k × k patches (``spatial_merge_size`` k = 2). Its tokens, row by
  row, get temporal ID s, height ID s + row and width ID s + column, where s is the next
  free ID. The text after the image continues at s + max(H/k, W/k): one past the largest
  ID the image used (for a still image t = 1, so this is transformers 5.24's
  ``max(h, w) // k`` and QwenLM's "max ID + 1" alike).
* The head's d/2 rotary pairs are split into ``mrope_section`` = (n_T, n_H, n_W) pairs.
  Qwen2-VL / Qwen2.5-VL: contiguous — pairs 0 … n_T−1 follow the temporal ID, the next n_H
  the height ID, the last n_W the width ID (transformers ``Qwen2VLRotaryEmbedding``:
  the frequencies are split by mrope_section and chunk i takes axis i mod 3). Qwen3-VL's
  "Interleaved-MRoPE": pair j follows axis j mod 3 while that axis still has pairs left
  (transformers ``Qwen3VLTextRotaryEmbedding``), so every axis gets high and low
  frequencies.

The reference for the IDs is transformers' ``Qwen2VLModel.get_rope_index`` (tests compare
with it); the official code is QwenLM's ``get_rope_index_2``. Only text and still images
are handled: videos (several temporal IDs, time-aligned in Qwen2.5-VL) are not.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _check
from .configs import ModelConfig

AXES = ("temporal", "height", "width")


@dataclass(frozen=True)
class Text:
    """``length`` text tokens."""

    length: int


@dataclass(frozen=True)
class Image:
    """One still image as the vision encoder's patch grid: (t, h, w) patches, as transformers' image_grid_thw.

    t is 1 for a still image (transformers duplicates the frame to fill a temporal patch).
    """

    t: int
    h: int
    w: int


def merged_grid(image: Image, spatial_merge_size: int = 2) -> tuple[int, int, int]:
    """The image's token grid after merging k × k patches: (t, h/k, w/k). h and w must be multiples of k."""
    if not isinstance(image, Image):
        raise ValueError(f"image must be a posenc.mrope.Image(t, h, w), got {type(image).__name__}")
    k = _check.count("spatial_merge_size", spatial_merge_size)
    t, h, w = (_check.count(n, v) for n, v in (("image.t", image.t), ("image.h", image.h), ("image.w", image.w)))
    if t != 1:
        raise ValueError(f"image.t must be 1 (a still image); got {t}: videos are not handled by posenc.mrope")
    if h % k or w % k:
        raise ValueError(f"image grid {h} × {w} patches is not divisible by spatial_merge_size {k}; "
                         f"the vision encoder merges {k} × {k} patches, so both sides must be multiples of {k}")
    return t, h // k, w // k


def image_tokens(image: Image, spatial_merge_size: int = 2) -> int:
    """How many tokens the image becomes in the language model: t · (h/k) · (w/k)."""
    t, h, w = merged_grid(image, spatial_merge_size)
    return t * h * w


def position_ids(segments, spatial_merge_size: int = 2) -> np.ndarray:
    """The three position IDs of every token, shape (3, N): rows temporal, height, width (module docstring).

    ``segments`` is a sequence of ``Text`` and ``Image`` in order. Each image's tokens are
    listed row by row (width fastest), as the vision encoder emits them.
    """
    _check.count("spatial_merge_size", spatial_merge_size)
    segs = list(segments) if not isinstance(segments, (Text, Image)) else [segments]
    if not segs:
        raise ValueError("segments is empty; pass e.g. [Text(3), Image(1, 4, 6), Text(2)]")
    parts = []
    start = 0
    for seg in segs:
        if isinstance(seg, Text):
            n = _check.count("Text.length", seg.length)
            parts.append(np.broadcast_to(np.arange(start, start + n), (3, n)))
            start += n
        elif isinstance(seg, Image):
            t, h, w = merged_grid(seg, spatial_merge_size)
            tt, hh, ww = np.meshgrid(np.arange(t), np.arange(h), np.arange(w), indexing="ij")
            parts.append(np.stack([tt.ravel(), hh.ravel(), ww.ravel()]) + start)
            start += max(t, h, w)
        else:
            raise ValueError(f"segments must hold Text and Image items, got {type(seg).__name__}")
    return np.concatenate(parts, axis=1).astype(np.int64)


def rope_delta(ids: np.ndarray) -> int:
    """max ID + 1 − N: how far the next generated token's ID sits from plain 1-D counting.

    A generated token at sequence index N gets ID N + delta on all three axes
    (transformers' mrope_position_deltas). Negative when an image packs many tokens into
    few IDs.
    """
    arr = _ids(ids)
    return int(arr.max()) + 1 - arr.shape[1]


def _ids(ids) -> np.ndarray:
    arr = np.asarray(ids)
    if arr.ndim != 2 or arr.shape[0] != 3 or arr.shape[1] == 0:
        raise ValueError(f"ids must have shape (3, N) (temporal, height, width rows), got {arr.shape}; build them with position_ids()")
    if arr.dtype.kind not in "iu" or np.any(arr < 0):
        raise ValueError("ids must be non-negative integers; build them with position_ids()")
    return arr


def pair_axes(mrope_section, interleaved: bool = False) -> np.ndarray:
    """For each rotary pair j = 0 … sum(section) − 1, the axis (0 T, 1 H, 2 W) whose ID turns it.

    Contiguous (Qwen2-VL, Qwen2.5-VL): [0]·n_T + [1]·n_H + [2]·n_W. Interleaved (Qwen3-VL):
    pair j takes axis j mod 3 when j < 3·n_axis for that axis (H, W), else T.
    """
    sec = _section(mrope_section)
    if not isinstance(interleaved, bool):
        raise ValueError(f"interleaved must be True (Qwen3-VL) or False (Qwen2-VL), got {interleaved!r}")
    if not interleaved:
        return np.repeat(np.arange(3), sec)
    axes = np.zeros(sum(sec), dtype=np.int64)
    for axis in (1, 2):
        idx = np.arange(axis, 3 * sec[axis], 3)
        if idx.size and idx[-1] >= axes.size:
            raise ValueError(f"mrope_section {sec} cannot be interleaved: axis {AXES[axis]} would need pair {idx[-1]} "
                             f"of {axes.size}; Qwen3-VL uses [24, 20, 20]")
        axes[idx] = axis
    if np.sum(axes == 0) != sec[0]:
        raise ValueError(f"mrope_section {sec} does not interleave into {sec[0]} temporal pairs; Qwen3-VL uses [24, 20, 20]")
    return axes


def _section(mrope_section) -> list[int]:
    sec = list(mrope_section) if isinstance(mrope_section, (list, tuple, np.ndarray)) else None
    if sec is None or len(sec) != 3:
        raise ValueError(f"mrope_section must be three pair counts (temporal, height, width), got {mrope_section!r}; "
                         f"Qwen2-VL uses [16, 24, 24]")
    return [_check.count(f"mrope_section[{i}]", s) for i, s in enumerate(sec)]


def angles(ids, inv_freq, mrope_section, interleaved: bool = False) -> np.ndarray:
    """Rotation angle of every pair for every token, shape (N, pairs): ID[axis_j, n] · ω_j."""
    arr = _ids(ids).astype(np.float64)
    omega = np.asarray(inv_freq, dtype=np.float64)
    axes = pair_axes(mrope_section, interleaved)
    if omega.ndim != 1 or omega.shape[0] != axes.shape[0]:
        raise ValueError(f"inv_freq has {omega.shape} frequencies but mrope_section {list(mrope_section)} has "
                         f"{axes.shape[0]} pairs; build inv_freq for head_dim = 2 × sum(mrope_section)")
    return arr[axes].T * omega[None, :]


def axis_pair_counts(mrope_section, interleaved: bool = False) -> dict[str, int]:
    """How many rotary pairs each axis turns (the section sizes, whatever the layout)."""
    axes = pair_axes(mrope_section, interleaved)
    return {name: int(np.sum(axes == i)) for i, name in enumerate(AXES)}


def axis_frequencies(inv_freq, mrope_section, interleaved: bool = False) -> dict[str, np.ndarray]:
    """For each axis, the angular frequencies ω_j of the pairs it turns, fastest first.

    An ID step of 1 on that axis turns its pair j by ω_j radians. Contiguous sections give
    the temporal axis the fastest pairs and the width axis the slowest; interleaving gives
    every axis pairs from the whole range.
    """
    omega = np.asarray(inv_freq, dtype=np.float64)
    axes = pair_axes(mrope_section, interleaved)
    if omega.ndim != 1 or omega.shape[0] != axes.shape[0]:
        raise ValueError(f"inv_freq has {omega.shape} frequencies but mrope_section {list(mrope_section)} has "
                         f"{axes.shape[0]} pairs; build inv_freq for head_dim = 2 × sum(mrope_section)")
    return {name: np.sort(omega[axes == i])[::-1] for i, name in enumerate(AXES)}


def model_position_ids(cfg: ModelConfig, segments) -> np.ndarray:
    """``position_ids`` with the model's spatial_merge_size (an ``mrope`` model from posenc.configs)."""
    if not isinstance(cfg, ModelConfig) or cfg.position != "mrope":
        got = cfg.key if isinstance(cfg, ModelConfig) else type(cfg).__name__
        raise ValueError(f"cfg must be an M-RoPE model from posenc.configs.load(), got {got!r}; e.g. configs.load('qwen25_vl_7b')")
    return position_ids(segments, cfg["spatial_merge_size"])


def model_pair_axes(cfg: ModelConfig) -> np.ndarray:
    """``pair_axes`` for an ``mrope`` model's section and layout."""
    if not isinstance(cfg, ModelConfig) or cfg.position != "mrope":
        got = cfg.key if isinstance(cfg, ModelConfig) else type(cfg).__name__
        raise ValueError(f"cfg must be an M-RoPE model from posenc.configs.load(), got {got!r}; e.g. configs.load('qwen25_vl_7b')")
    return pair_axes(cfg["mrope_section"], cfg.get("mrope_interleaved", False))


__all__ = ["AXES", "Text", "Image", "merged_grid", "image_tokens", "position_ids", "rope_delta", "pair_axes",
           "angles", "axis_pair_counts", "axis_frequencies", "model_position_ids", "model_pair_axes"]
