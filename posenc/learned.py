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
