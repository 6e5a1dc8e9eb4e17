"""Characters → token ids, the fixed train/validation split, batches and evaluation windows.

One token per character: the model sees exactly the text a reader sees, and
"position 300" means the 301st character. The vocabulary is the
``vocab_size − 1`` most frequent training characters plus ``<unk>`` (id 0).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import numpy as np
import torch

from . import corpus
from .config import Config

UNK = "<unk>"


@dataclass(frozen=True)
class Dataset:
    vocab: tuple[str, ...]  # vocab[i] is the character of id i; vocab[0] is <unk>
    train: torch.Tensor  # int64 token ids of the training records, joined
    val: torch.Tensor  # same for validation

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)


def split(records: list[str], every: int) -> tuple[list[str], list[str]]:
    """Every ``every``-th record (indices every−1, 2·every−1, …) goes to validation.

    Interleaving keeps each source (Tang poems, 论语, proverbs …) in both parts.
    """
    if every < 2:
        raise ValueError(f"validation_every must be at least 2, got {every}")
    train = [r for i, r in enumerate(records) if i % every != every - 1]
    val = [r for i, r in enumerate(records) if i % every == every - 1]
    return train, val


def build_vocab(text: str, size: int) -> tuple[str, ...]:
    """<unk> plus the size−1 most frequent characters; ties broken by code point so it is stable."""
    counts = Counter(text)
    ranked = sorted(counts, key=lambda ch: (-counts[ch], ch))
    return (UNK, *ranked[: size - 1])


def encode(text: str, vocab: tuple[str, ...]) -> torch.Tensor:
    index = {ch: i for i, ch in enumerate(vocab)}
    return torch.tensor([index.get(ch, 0) for ch in text], dtype=torch.long)


def decode(ids, vocab: tuple[str, ...]) -> str:
    return "".join(vocab[int(i)] if int(i) else "□" for i in ids)


def load(cfg: Config, text: str | None = None) -> Dataset:
    """The committed corpus (checksum-checked), split and encoded for ``cfg``."""
    text = corpus.load() if text is None else text
    train_records, val_records = split(corpus.records(text), cfg.validation_every)
    train_text = corpus.RECORD_SEPARATOR.join(train_records)
    val_text = corpus.RECORD_SEPARATOR.join(val_records)
    vocab = build_vocab(train_text, cfg.vocab_size)
    return Dataset(vocab, encode(train_text, vocab), encode(val_text, vocab))


def batch_starts(n_tokens: int, length: int, batch_size: int, generator: torch.Generator) -> torch.Tensor:
    """Random window starts for one batch, drawn from ``generator`` alone.

    Every method trained with the same seed therefore sees the same batches in
    the same order, so differences between methods are not differences in data.
    """
    if n_tokens <= length:
        raise ValueError(f"only {n_tokens} tokens, need more than one window of {length} + 1")
    return torch.randint(0, n_tokens - length, (batch_size,), generator=generator)


def windows(tokens: torch.Tensor, starts: torch.Tensor, length: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Inputs tokens[s : s+length] and next-token targets tokens[s+1 : s+length+1].

    The offsets are made on the starts' device: on a GPU, indexing device tokens with
    CPU offsets fails ("Expected all tensors to be on the same device").
    """
    offsets = torch.arange(length + 1, device=starts.device)
    chunk = tokens[starts[:, None] + offsets]  # (B, length+1)
    return chunk[:, :-1], chunk[:, 1:]


def eval_starts(n_tokens: int, length: int, stride: int) -> torch.Tensor:
    """Starts of the validation windows: every ``stride`` tokens while a full window fits.

    With stride = training length, positions 0…127 of these windows cover the
    validation text once, so the in-distribution loss and the loss past 128
    come from the same text.
    """
    n = (n_tokens - length - 1) // stride + 1
    if n < 1:
        raise ValueError(f"validation text has {n_tokens} tokens, fewer than one window of {length} + 1")
    return torch.arange(n) * stride


def unigram_loss(ds: Dataset) -> float:
    """Cross-entropy (nats) of the validation text under training character frequencies.

    The loss of a model that learned which characters are common and nothing
    about context: the baseline a stuck model sits at. Add-one smoothing keeps
    every id finite.
    """
    counts = np.bincount(ds.train.numpy(), minlength=ds.vocab_size).astype(np.float64) + 1.0
    logp = np.log(counts / counts.sum())
    return float(-logp[ds.val.numpy()].mean())


def unk_rate(tokens: torch.Tensor) -> float:
    return float((tokens == 0).float().mean())


def uniform_loss(vocab_size: int) -> float:
    """ln V: the loss of a model that knows nothing, roughly where training starts."""
    return math.log(vocab_size)
