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


def last_row(cfg: ModelConfig) -> int:
    """The last position the table has a row for: context − 1 (rows are numbered from 0)."""
    if "context" not in cfg.fields:
        raise ValueError(f"model {cfg.key!r} has no 'context' field: a position table has one row per position")
    return cfg["context"] - 1


def rows_to_reach(cfg: ModelConfig, p: int) -> int:
    """How many rows the table must grow by so that position p has one: p − last_row, or 0 if it already has."""
    from . import _check

    return max(0, _check.position("p", p) - last_row(cfg))


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


def lookup_gradient(rows: int, position_ids, upstream):
    """Gradient of a loss with respect to a position table, given the gradient at the looked-up rows.

    The backward pass of a lookup ``h[t] = table[pos[t]]`` (``nn.Embedding``'s
    forward) is a scatter-add: row r receives the sum of ``upstream[t]`` over every
    t with ``pos[t] == r``, and a row no position looked up receives exactly zero.
    tests/test_learned.py checks this against torch's autograd.
    """
    import numpy as np

    from . import _check

    pos = np.asarray(position_ids)
    up = np.asarray(upstream, dtype=np.float64)
    if up.ndim != 2 or up.shape[0] != pos.size:
        raise ValueError(f"upstream must have one row per position id ({pos.size}), got shape {up.shape}")
    _check.positions("position_ids", pos)
    if pos.size and pos.max() >= rows:
        raise ValueError(f"position {int(pos.max())} is past the table's {rows} rows")
    grad = np.zeros((rows, up.shape[1]))
    np.add.at(grad, pos.ravel(), up)
    return grad


def rows_with_gradient(rows: int, train_len: int, hidden: int = 8, seed: int = 0):
    """Which rows of a ``rows``-row position table receive any gradient when every sequence is ``train_len`` long.

    One forward/backward pass: look up positions 0 … train_len−1, take a random
    linear loss sum(h · target) (its gradient at h is ``target``), and scatter it
    back with ``lookup_gradient``. Returns a boolean array, one entry per row.
    Rows at or past ``train_len`` get exactly zero gradient: training at that
    length never moves them, they stay at their random initial values.
    """
    import numpy as np

    for name, v in (("rows", rows), ("train_len", train_len), ("hidden", hidden)):
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise ValueError(f"{name} must be a positive integer, got {v!r}")
    if train_len > rows:
        raise ValueError(f"train_len ({train_len}) exceeds the table's {rows} rows; such a sequence cannot even be looked up")
    target = np.random.default_rng(seed).normal(size=(train_len, hidden))
    grad = lookup_gradient(rows, np.arange(train_len), target)
    return (grad != 0).any(axis=1)
