"""The lessons' tokenizer: one character is one token, its ID is its Unicode code point.

Real models split text with a learned vocabulary (BPE and the like) and number
tokens by their row in that vocabulary. Lesson 1 only needs *some* token IDs to
set beside the position IDs, so it uses the simplest tokenizer that needs no
download: ``ord(ch)``. The numbers differ from any real model's, the point does
not: a token ID says which token it is, a position ID says where it stands.

ID 0 (U+0000, never part of normal text) is reserved for padding.
"""

from __future__ import annotations

import numpy as np

PAD_ID = 0  # U+0000: not a character that text contains, so free to mean "padding"


def tokens(text: str) -> list[str]:
    """Split ``text`` into one token per character (whitespace included; nothing is dropped)."""
    if not isinstance(text, str):
        raise ValueError(f"text must be a str, got {type(text).__name__}; pass e.g. '小明打了小王'")
    if not text:
        raise ValueError("text is empty; pass at least one character, e.g. '猫吃鱼'")
    if "\x00" in text:
        raise ValueError("text contains U+0000, which this tokenizer reserves for padding; remove it")
    return list(text)


def token_ids(text: str) -> np.ndarray:
    """Token IDs of ``text``: the code point of each character, as int64."""
    return np.array([ord(ch) for ch in tokens(text)], dtype=np.int64)


def decode(ids) -> str:
    """Text back from token IDs, skipping padding (the inverse of ``token_ids``)."""
    arr = np.asarray(ids)
    if arr.ndim != 1:
        raise ValueError(f"ids must be a 1-D sequence of token IDs, got shape {arr.shape}; decode one row at a time")
    if arr.size and arr.dtype.kind not in "iu":
        raise ValueError(f"ids must be integers, got dtype {arr.dtype}")
    if np.any(arr < 0) or np.any(arr > 0x10FFFF):
        raise ValueError("ids must be Unicode code points in 0 … 0x10FFFF (0 = padding)")
    return "".join(chr(int(i)) for i in arr if i != PAD_ID)
