"""The lessons' tokenizer: one character is one token, its ID is its Unicode code point;
or, for a text given as a tuple of words (the English edition's examples), one word is one token.

Real models split text with a learned vocabulary (BPE and the like) and number
tokens by their row in that vocabulary. Lesson 1 only needs *some* token IDs to
set beside the position IDs, so it uses the simplest tokenizer that needs no
download: ``ord(ch)``. The numbers differ from any real model's, the point does
not: a token ID says which token it is, a position ID says where it stands.

English splits into words, not characters, so the English edition's example texts are tuples of
words, already split (``("the", "dog", "bit", "the", "man", ".")``). A word's ID is the 32-bit FNV-1a
hash of its UTF-16 code units (Fowler, Noll and Vo's hash; the swap widget numbers a typed word the same
way): some fixed number per word, found without a vocabulary to download, as a code point is for a character.

ID 0 (U+0000, never part of normal text) is reserved for padding.
"""

from __future__ import annotations

import numpy as np

PAD_ID = 0  # U+0000: not a character that text contains, so free to mean "padding"


Text = "str | tuple[str, ...]"  # characters (a str) or words (a tuple of words)


def tokens(text) -> list[str]:
    """The tokens of ``text``: one per character of a str (whitespace included; nothing is dropped),
    one per word of a tuple of words."""
    if isinstance(text, (tuple, list)):
        if not text:
            raise ValueError("text is an empty tuple of words; pass at least one word, e.g. ('cats', 'eat', 'fish')")
        bad = [w for w in text if not isinstance(w, str) or not w or any(c.isspace() for c in w) or "\x00" in w]
        if bad:
            raise ValueError(f"a tuple of words must hold non-empty words without spaces, got {bad[0]!r} in {text!r}; "
                             "split the text into words, e.g. ('cats', 'eat', 'fish')")
        return list(text)
    if not isinstance(text, str):
        raise ValueError(f"text must be a str or a tuple of words, got {type(text).__name__}; pass e.g. '小明打了小王'")
    if not text:
        raise ValueError("text is empty; pass at least one character, e.g. '猫吃鱼'")
    if "\x00" in text:
        raise ValueError("text contains U+0000, which this tokenizer reserves for padding; remove it")
    return list(text)


def word_id(word: str) -> int:
    """A word's token ID: the 32-bit FNV-1a hash of its UTF-16 code units (offset basis 2166136261,
    prime 16777619; http://www.isthe.com/chongo/tech/comp/fnv/), never PAD_ID."""
    units = word.encode("utf-16-le")
    h = 0x811C9DC5
    for k in range(0, len(units), 2):
        h = ((h ^ int.from_bytes(units[k:k + 2], "little")) * 0x01000193) & 0xFFFFFFFF
    if h == PAD_ID:
        raise ValueError(f"the word {word!r} hashes to {PAD_ID}, the padding ID; use another word")
    return h


def token_ids(text) -> np.ndarray:
    """Token IDs of ``text``: the code point of each character of a str, the hash of each word of a
    tuple of words (word_id), as int64."""
    if isinstance(text, (tuple, list)):
        return np.array([word_id(w) for w in tokens(text)], dtype=np.int64)
    return np.array([ord(ch) for ch in tokens(text)], dtype=np.int64)


def join(text) -> str:
    """``text`` written out: a str as it is, a tuple of words joined with spaces."""
    return " ".join(tokens(text)) if isinstance(text, (tuple, list)) else text


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
