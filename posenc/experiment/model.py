"""A small decoder-only Transformer whose position method is a constructor argument.

nanoGPT's shape (pre-LN blocks, causal attention, MLP ×4, output head tied to
the token embedding), with seven ways to tell it about order:

- ``nope``: nothing. Only the causal mask breaks symmetry (Kazemnejad et al.
  2023, "The Impact of Positional Encoding on Length Generalization").
- ``learned``: a trainable row per position added to the input (GPT-2's wpe).
- ``sinusoidal``: the fixed table of Vaswani et al. 2017 §3.5 added to the input.
- ``sinusoidal_scaled``: the same, with the embedding multiplied by √d_model
  first, as §3.4 does ("we multiply those weights by √d_model").
- ``alibi``: nothing added to the input; each head adds −m_h·(i − j) to its
  scores, slopes 2^(−8h/n) (Press et al. 2022, "Train Short, Test Long", §3).
- ``rope``: Q and K rotated by position inside every attention layer
  (Su et al. 2021, RoFormer §3.4); V untouched.
- ``rope_partial``: RoPE on the first 25% of each head's dims only, the rest
  unrotated (transformers' ``partial_rotary_factor`` layout).

The encodings come from posenc itself (``posenc.sinusoidal.table``,
``posenc.rope``, ``posenc.relative``), so the lessons' formulas and the trained
model cannot drift apart.
"""

from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from .. import relative, rope, sinusoidal
from .config import METHODS, Config

ROTARY_METHODS = ("rope", "rope_partial")


class RotaryScaling:
    """Frequencies and attention factor RoPE uses at run time.

    Training uses the plain frequencies and factor 1. Evaluation-time scalings
    (PI, NTK-aware, YaRN; see ``posenc.scaling``) swap in other frequencies and,
    for YaRN, a factor that multiplies both q and k (so the logits by its square,
    YaRN §3.4's √(1/t) on each side).
    """

    def __init__(self, inv_freq, attention_factor: float = 1.0):
        self.inv_freq = torch.as_tensor(inv_freq, dtype=torch.float32)
        self.attention_factor = float(attention_factor)


def rope_inverse_frequencies(cfg: Config, method: str = "rope"):
    """The frequencies a rotary method trains with: all 32 pairs of a head, or the first 25% of its dims."""
    fraction = cfg.partial_rotary_fraction if method == "rope_partial" else 1.0
    return rope.inverse_frequencies(cfg.head_dim, cfg.rope_base, rotary_fraction=fraction)


class CausalSelfAttention(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.n_heads = cfg.n_heads
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model, bias=False)
        self.proj = nn.Linear(cfg.d_model, cfg.d_model, bias=False)

    def forward(self, x: torch.Tensor, rotary: RotaryScaling | None, causal: bool = True, score_bias=None) -> torch.Tensor:
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        # (B, T, C) → (B, heads, T, head_dim)
        q, k, v = (t.view(B, T, self.n_heads, C // self.n_heads).transpose(1, 2) for t in (q, k, v))
        if rotary is not None:
            positions = torch.arange(T, device=x.device)
            inv_freq = rotary.inv_freq.to(x.device)
            q = rope.apply_rotary_torch(q, positions, inv_freq, convention="half") * rotary.attention_factor
            k = rope.apply_rotary_torch(k, positions, inv_freq, convention="half") * rotary.attention_factor
            q, k = q.to(v.dtype), k.to(v.dtype)
        if score_bias is None:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        else:
            # ALiBi: the (heads, T, T) bias, causal mask folded in as −∞, is added to q·kᵀ/√d.
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=score_bias.to(q.dtype))
        return self.proj(y.transpose(1, 2).contiguous().view(B, T, C))


class MLP(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.up = nn.Linear(cfg.d_model, cfg.mlp_ratio * cfg.d_model, bias=False)
        self.down = nn.Linear(cfg.mlp_ratio * cfg.d_model, cfg.d_model, bias=False)

    def forward(self, x):
        return self.down(F.gelu(self.up(x)))


class Block(nn.Module):
    """Pre-LN: x + attn(LN(x)), then x + mlp(LN(x)) (GPT-2 §2.3; Xiong et al. 2020)."""

    def __init__(self, cfg: Config):
        super().__init__()
        self.ln1 = nn.LayerNorm(cfg.d_model)
        self.attn = CausalSelfAttention(cfg)
        self.ln2 = nn.LayerNorm(cfg.d_model)
        self.mlp = MLP(cfg)

    def forward(self, x, rotary, causal=True, score_bias=None):
        x = x + self.attn(self.ln1(x), rotary, causal, score_bias)
        return x + self.mlp(self.ln2(x))


class PositionModel(nn.Module):
    def __init__(self, cfg: Config, method: str):
        super().__init__()
        if method not in METHODS:
            raise ValueError(f"unknown position method {method!r}; choose from {', '.join(METHODS)}")
        self.cfg, self.method = cfg, method
        self.tok_emb = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layers))
        self.ln_f = nn.LayerNorm(cfg.d_model)
        # Methods with a table (learned, sinusoidal, ALiBi's bias) run up to eval_len;
        # NoPE and RoPE have no table and run at any length (the extension evaluates to ext_eval_len).
        self.max_len = cfg.eval_len if method in ("learned", "sinusoidal", "sinusoidal_scaled", "alibi") else None
        # Initialise the shared part first and the position part last, so that for
        # one seed every method starts from the same token embedding and blocks.
        self._init_shared()

        # √d_model only for the §3.4 variant; 1 elsewhere (the std-0.02 embedding as is).
        self.embed_scale = math.sqrt(cfg.d_model) if method == "sinusoidal_scaled" else 1.0
        self.pos_emb = None
        if method == "learned":
            # eval_len rows so the model can run at length 512; rows ≥ train_len
            # never receive a gradient and keep their random initialisation, the
            # trained-model version of "the table has no row for this position".
            self.pos_emb = nn.Embedding(cfg.eval_len, cfg.d_model)
            nn.init.normal_(self.pos_emb.weight, std=cfg.embed_std)
        if method in ("sinusoidal", "sinusoidal_scaled"):
            table = sinusoidal.table(cfg.eval_len, cfg.d_model, cfg.sin_base)  # (eval_len, d) float64, §3.5
            self.register_buffer("pos_table", torch.tensor(table, dtype=torch.float32), persistent=False)
        # ALiBi: −m_h·|i − j| for the model's heads; the causal −∞ is added per forward pass.
        bias = relative.alibi_bias(cfg.n_heads, cfg.eval_len) if method == "alibi" else None
        self.register_buffer("alibi", None if bias is None else torch.tensor(bias, dtype=torch.float32), persistent=False)
        self.rotary = RotaryScaling(rope_inverse_frequencies(cfg, method)) if method in ROTARY_METHODS else None

    def _init_shared(self):
        # GPT-2 / nanoGPT init: N(0, 0.02) everywhere, residual projections scaled
        # by 1/√(2·n_layers) so the residual stream does not grow with depth.
        std = self.cfg.embed_std
        for name, p in self.named_parameters():
            if name.endswith(("ln1.weight", "ln2.weight", "ln_f.weight")):
                nn.init.ones_(p)
            elif name.endswith("bias"):
                nn.init.zeros_(p)
            elif name.endswith(("attn.proj.weight", "mlp.down.weight")):
                nn.init.normal_(p, std=std / math.sqrt(2 * self.cfg.n_layers))
            else:
                nn.init.normal_(p, std=std)

    def embed(self, idx: torch.Tensor) -> torch.Tensor:
        """Token embedding (× √d for sinusoidal_scaled) plus the additive position signal, if any."""
        T = idx.shape[1]
        if self.max_len is not None and T > self.max_len:
            raise ValueError(f"sequence of length {T} is longer than the {self.method} model's table (eval_len={self.max_len})")
        x = self.tok_emb(idx) * self.embed_scale
        if self.pos_emb is not None:
            x = x + self.pos_emb(torch.arange(T, device=idx.device))
        if self.method in ("sinusoidal", "sinusoidal_scaled"):
            x = x + self.pos_table[:T]
        return x

    def score_bias(self, T: int, causal: bool):
        """ALiBi's bias for length T (causal: −∞ above the diagonal), or None for the other methods."""
        if self.alibi is None:
            return None
        bias = self.alibi[:, :T, :T]
        if causal:
            future = torch.ones(T, T, dtype=torch.bool, device=bias.device).triu(1)
            bias = bias.masked_fill(future, float("-inf"))
        return bias

    def forward(self, idx: torch.Tensor, rotary: RotaryScaling | None = None, causal: bool = True) -> torch.Tensor:
        """Logits (B, T, vocab). ``rotary`` overrides RoPE's frequencies (evaluation-time scaling)."""
        return F.linear(self.hidden_states(idx, rotary, causal), self.tok_emb.weight)

    def hidden_states(self, idx: torch.Tensor, rotary: RotaryScaling | None = None, causal: bool = True) -> torch.Tensor:
        """Final-layer states before the head (tests probe the position signal with them)."""
        if rotary is not None and self.method != "rope":
            raise ValueError(f"rotary scaling applies to the RoPE model only, this model uses {self.method!r}")
        rotary = rotary or self.rotary
        bias = self.score_bias(idx.shape[1], causal)
        x = self.embed(idx)
        for block in self.blocks:
            x = block(x, rotary, causal, bias)
        # Tied head (forward): logits are similarities to the (unscaled) token embeddings (Press & Wolf 2017).
        return self.ln_f(x)


def parameter_count(model: nn.Module) -> int:
    """Trainable parameters (the sinusoidal table and RoPE frequencies are buffers, not parameters)."""
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


def build(cfg: Config, method: str, seed: int) -> PositionModel:
    torch.manual_seed(seed)
    return PositionModel(cfg, method)
