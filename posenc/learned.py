"""Learned absolute position tables (GPT-2's ``wpe``, BERT's position embeddings).

h_t = TokenEmbedding(x_t) + PositionEmbedding(t): one trainable row per position,
so the table has context × hidden parameters and no row past the context.
"""

from __future__ import annotations

from .configs import ModelConfig


def table_parameters(cfg: ModelConfig) -> int:
    """Number of parameters in the position table: rows (context) × width (hidden)."""
    if cfg.position != "learned":
        raise ValueError(f"model {cfg.key!r} uses {cfg.position} positions, not a learned table; pick a learned-table model such as 'gpt2'")
    return cfg["context"] * cfg["hidden"]


def has_row(cfg: ModelConfig, p: int) -> bool:
    """Whether position p has a row in the table (rows 0 … context−1)."""
    from . import _check

    return _check.position("p", p) < cfg["context"]


def probe_rows(cfg: ModelConfig, positions) -> list[bool]:
    """``has_row`` for each position: which of them the table can look up."""
    return [has_row(cfg, p) for p in positions]


def lookup(table, position_ids):
    """Rows of a position table, numpy's version of ``nn.Embedding``'s forward.

    Raises ValueError naming the first position with no row (torch raises an
    IndexError "index out of range in self" at the same point).
    """
    import numpy as np

    from . import _check

    t = np.asarray(table)
    if t.ndim != 2 or t.shape[0] == 0:
        raise ValueError(f"table must be a 2-D array (rows × hidden) with at least one row, got shape {t.shape}")
    ids = np.asarray(position_ids)
    flat = _check.positions("position_ids", ids.ravel())
    if np.any(flat >= t.shape[0]):
        first = int(flat[flat >= t.shape[0]][0])
        raise ValueError(
            f"position {first} has no row: the table has rows 0 … {t.shape[0] - 1}; "
            f"truncate the input to {t.shape[0]} tokens or use a position method that works at any position"
        )
    return t[flat].reshape(ids.shape + (t.shape[1],))


def embed(token_table, position_table, token_ids, position_ids):
    """h_t = TokenEmbedding(x_t) + PositionEmbedding(t): the input of a learned-table model (GPT-2's wte + wpe)."""
    import numpy as np

    tok = np.asarray(token_ids)
    pos = np.asarray(position_ids)
    if tok.shape != pos.shape:
        raise ValueError(f"token_ids and position_ids must have the same shape, got {tok.shape} and {pos.shape}; one position per token")
    te, pe = np.asarray(token_table), np.asarray(position_table)
    if te.ndim != 2 or pe.ndim != 2 or te.shape[1] != pe.shape[1]:
        raise ValueError(f"token_table and position_table must be 2-D with the same width, got {te.shape} and {pe.shape}")
    if tok.size and tok.dtype.kind in "iu" and np.any(tok >= te.shape[0]):
        raise ValueError(f"token ID {int(tok.max())} is past the token table's {te.shape[0]} rows")
    return lookup(te, tok) + lookup(pe, pos)


def rows_with_gradient(rows: int, train_len: int, hidden: int = 8, seed: int = 0):
    """Which rows of a torch position table receive any gradient when every sequence is ``train_len`` long.

    One forward/backward pass through ``nn.Embedding(rows, hidden)`` with positions
    0 … train_len−1 and a random linear loss; returns a boolean array, one entry per
    row. Rows at or past ``train_len`` get exactly zero gradient: training at that
    length never moves them, they stay at their random initial values.
    """
    import numpy as np
    import torch

    for name, v in (("rows", rows), ("train_len", train_len), ("hidden", hidden)):
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise ValueError(f"{name} must be a positive integer, got {v!r}")
    if train_len > rows:
        raise ValueError(f"train_len ({train_len}) exceeds the table's {rows} rows; such a sequence cannot even be looked up")
    gen = torch.Generator().manual_seed(seed)
    table = torch.nn.Embedding(rows, hidden)
    with torch.no_grad():
        table.weight.normal_(0.0, 0.02, generator=gen)
    target = torch.randn(train_len, hidden, generator=gen)
    loss = (table(torch.arange(train_len)) * target).sum()
    loss.backward()
    return np.asarray((table.weight.grad != 0).any(dim=1))
