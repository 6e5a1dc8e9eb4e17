"""Position IDs for padded batches and for generation with a KV cache (taught in lesson 1).

A batch pads short sequences to a common length and marks real tokens with an
attention mask (1 = real token, 0 = padding). The position of a real token is
how many real tokens come before it, whatever side the padding is on:

    position_ids = cumsum(mask) − 1,   padded slots set to a fill value

This is the rule Hugging Face transformers uses when it builds position IDs
from an attention mask for generation (v4's GPT-2 and Llama
``prepare_inputs_for_generation``: ``position_ids = attention_mask.long().cumsum(-1) - 1``,
then ``position_ids.masked_fill_(attention_mask == 0, 1)``; the pinned v5 does the
same in ``GenerationMixin._prepare_position_ids_for_generation`` but fills 0). The
fill value does not matter for the result as long as the mask hides those slots;
it must only be a valid row of a position table. The default here is v4's 1,
the value lesson 1 shows.

``naive_position_ids`` is the bug: numbering every slot 0 … n−1 ignores the
mask, so with left padding each real token is pushed right by the number of
pads before it.

Sequence packing (lesson 1's optional deep dive). Pre-training lays several documents end to end in
one row instead of padding each (``pack``). Two choices then decide what a document's tokens get:

- which keys a query may see: the causal mask over the whole row lets a later document attend to
  the earlier ones; an intra-document (document) mask (``document_mask``) lets a query see only
  earlier tokens of its own document. Llama 3 uses one: "an attention mask that prevents
  self-attention between different documents within the same sequence" (Grattafiori et al. 2024,
  *The Llama 3 Herd of Models*, arXiv:2407.21783, §3.2; read in a verbatim copy of the paper), as does
  SmolLM3 ("Intra-Document Masking", huggingface/smollm text/pretraining README, and
  ``_use_doc_masking: true`` in every stage's config, @a041759).
- which position IDs it gets (``packed_position_ids``): running on along the row (0 … n−1), or
  restarting at 0 for every document. Restarting is what transformers' ``DataCollatorWithFlattening``
  returns ("position_ids, which restart at position_ids_start for every flattened sequence"), and its
  masking code reads the documents back from those restarts (``masking_utils.find_packed_sequence_indices``:
  a new document wherever the next position ID is not one more). Whether Llama 3 or SmolLM3 restart
  their positions is not stated in either source (unverified); Wang et al. 2024 (arXiv:2411.13476, §3.2)
  report that resetting position IDs improved long-context results in their continued pre-training.

With both, each document's tokens see exactly what they would see alone, at the positions they would
have alone: a position scheme added to the input then gives every document its unpacked outputs.
"""

from __future__ import annotations

import numbers as _numbers

import numpy as np

from . import tokenize

DEFAULT_FILL = 1  # transformers v4's choice for padded slots (v5 fills 0)


def check_mask(mask, name: str = "mask") -> np.ndarray:
    """A 1-D (one sequence) or 2-D (batch × length) array of 0/1 entries, returned as int64."""
    m = np.asarray(mask)
    if m.ndim not in (1, 2):
        raise ValueError(f"{name} must be 1-D (one sequence) or 2-D (batch × length), got shape {m.shape}")
    if m.size == 0 or m.shape[-1] == 0:
        raise ValueError(f"{name} is empty; it needs one entry per token slot")
    if m.dtype == bool:
        return m.astype(np.int64)
    if m.dtype.kind not in "iuf":
        raise ValueError(f"{name} must hold 0 and 1, got dtype {m.dtype}")
    bad = ~((m == 0) | (m == 1))
    if np.any(bad):
        raise ValueError(
            f"{name} must hold only 0 (padding) and 1 (real token), got {m[bad].ravel()[:3].tolist()}; "
            f"convert with (mask > 0).astype(int) if it holds other truthy values"
        )
    return m.astype(np.int64)


def _fill(fill) -> int:
    if isinstance(fill, bool) or not isinstance(fill, (_numbers.Integral, np.integer)):
        raise ValueError(f"fill must be an integer position ID for padded slots, got {fill!r}; transformers v4 uses fill=1")
    if fill < 0:
        raise ValueError(f"fill must be a valid (non-negative) row of a position table, got {fill}; use fill=1")
    return int(fill)


def from_mask(mask, fill: int = DEFAULT_FILL) -> np.ndarray:
    """cumsum(mask) − 1 along the last axis, with padded slots set to ``fill``.

    Works for right padding, left padding and padding in the middle: every real
    token gets the count of real tokens before it.
    """
    m = check_mask(mask)
    fill = _fill(fill)
    ids = np.cumsum(m, axis=-1) - 1
    return np.where(m == 1, ids, fill)


def naive_position_ids(mask) -> np.ndarray:
    """0 … n−1 in every row, ignoring the mask: what you get from ``arange(n)`` (the bug)."""
    m = check_mask(mask)
    return np.broadcast_to(np.arange(m.shape[-1]), m.shape).copy()


def shift(mask) -> np.ndarray:
    """How far ``naive_position_ids`` puts each real token from its true position (0 at padded slots)."""
    m = check_mask(mask)
    return np.where(m == 1, naive_position_ids(m) - from_mask(m), 0)


def next_position_ids(mask, new_tokens: int = 1, fill: int = DEFAULT_FILL) -> np.ndarray:
    """Positions of the next ``new_tokens`` tokens when generation continues with a KV cache.

    The cache already holds the prompt; the mask is extended with ones for the
    new tokens and the same cumsum rule is applied, keeping only the new
    columns (as transformers does when it slices ``position_ids[:, -new:]``).
    For each row this is the number of real tokens so far, counting up.
    """
    m = check_mask(mask)
    if isinstance(new_tokens, bool) or not isinstance(new_tokens, (_numbers.Integral, np.integer)) or new_tokens <= 0:
        raise ValueError(f"new_tokens must be a positive integer, got {new_tokens!r}; pass new_tokens=1 for one step")
    extra = np.ones(m.shape[:-1] + (int(new_tokens),), dtype=np.int64)
    return from_mask(np.concatenate([m, extra], axis=-1), fill)[..., -int(new_tokens):]


def pad_batch(texts, side: str = "right", pad_id: int = tokenize.PAD_ID) -> tuple[np.ndarray, np.ndarray]:
    """Token IDs and attention mask for several texts padded to the longest, on ``side`` ("right" or "left")."""
    if side not in ("right", "left"):
        raise ValueError(f"side must be 'right' or 'left', got {side!r}")
    if isinstance(texts, str):
        raise ValueError("texts must be a list of strings, got a single string; wrap it: [text]")
    rows = [tokenize.token_ids(t) for t in texts]
    if not rows:
        raise ValueError("texts is empty; pass at least one string")
    n = max(len(r) for r in rows)
    ids = np.full((len(rows), n), pad_id, dtype=np.int64)
    mask = np.zeros((len(rows), n), dtype=np.int64)
    for b, r in enumerate(rows):
        sl = slice(0, len(r)) if side == "right" else slice(n - len(r), n)
        ids[b, sl] = r
        mask[b, sl] = 1
    return ids, mask


def format_row(row, pad_mask=None, pad_mark: str = "·") -> str:
    """A row of IDs as text for the page ("0 1 2 · ·"), with ``pad_mark`` where ``pad_mask`` is 0."""
    r = np.asarray(row)
    if r.ndim != 1:
        raise ValueError(f"row must be 1-D, got shape {r.shape}")
    if pad_mask is None:
        return " ".join(str(int(v)) for v in r)
    m = check_mask(pad_mask, "pad_mask")
    if m.shape != r.shape:
        raise ValueError(f"pad_mask has shape {m.shape} but row has shape {r.shape}; they must match")
    return " ".join(str(int(v)) if keep else pad_mark for v, keep in zip(r, m))


# --- sequence packing (module docstring) ---------------------------------------------------------------


def pack(texts) -> tuple[np.ndarray, np.ndarray]:
    """Several documents laid end to end in one row: (token IDs, each slot's document index 0, 1, …)."""
    if isinstance(texts, str):
        raise ValueError("texts must be a list of documents, got a single string; wrap it: [text]")
    docs = [tokenize.token_ids(t) for t in texts]
    if not docs:
        raise ValueError("texts is empty; pass at least one document")
    ids = np.concatenate(docs)
    doc = np.concatenate([np.full(len(d), k, dtype=np.int64) for k, d in enumerate(docs)])
    return ids, doc


def check_documents(doc_ids, name: str = "doc_ids") -> np.ndarray:
    """A non-empty 1-D array of document indices that never decrease (documents are contiguous), as int64."""
    d = np.asarray(doc_ids)
    if d.ndim != 1 or d.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array (one document index per slot of a packed row), got shape {d.shape}")
    if d.dtype.kind not in "iu" or np.any(d < 0):
        raise ValueError(f"{name} must hold non-negative integers, got {d[:4].tolist()} (dtype {d.dtype}); use pack(texts)[1]")
    if np.any(np.diff(d) < 0):
        raise ValueError(f"{name} must not decrease: a packed row holds each document in one contiguous run, got {d.tolist()}")
    return d.astype(np.int64)


def packed_position_ids(doc_ids, reset: bool) -> np.ndarray:
    """Position IDs of a packed row: 0 … n−1 along the row (``reset=False``), or counting from 0 again at
    the start of every document (``reset=True``, what transformers' DataCollatorWithFlattening returns)."""
    d = check_documents(doc_ids)
    if not isinstance(reset, bool):
        raise ValueError(f"reset must be True (restart at 0 in every document) or False (run on along the row), got {reset!r}")
    slots = np.arange(d.size)
    if not reset:
        return slots
    first = np.r_[True, d[1:] != d[:-1]]  # the slots where a document starts
    return slots - np.maximum.accumulate(np.where(first, slots, 0))  # slot − its document's first slot


def document_mask(doc_ids) -> np.ndarray:
    """The intra-document causal mask of a packed row: query m may see key n iff n ≤ m and both are in the
    same document (Llama 3 §3.2; SmolLM3's intra-document masking). Shape (n, n), True = visible."""
    d = check_documents(doc_ids)
    return (d[:, None] == d[None, :]) & np.tri(d.size, dtype=bool)
