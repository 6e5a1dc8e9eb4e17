"""posenc/experiment/model.py: what the model computes, against a float64 computation written out here.

The reference below recomputes one attention layer from its weights: the q, k, v projections, RoPE's
turn of q and k (the "half" layout, RoFormer §3.4 as transformers writes it) times the attention factor
on each of q and k, the scores q·kᵀ/√d plus a bias, the causal mask, the softmax, the weighted sum of v
and the output projection. Comparing the module with it shows where each factor and bias is applied.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from experiment_tiny import TINY

from posenc import sinusoidal
from posenc.experiment import config, model

TOL = dict(atol=1e-5, rtol=1e-5)


def turn(t: torch.Tensor, inv_freq) -> torch.Tensor:
    """RoPE, half layout, on the first 2·len(inv_freq) dims of t (..., T, D); the rest unchanged."""
    inv = torch.as_tensor(np.asarray(inv_freq, dtype=np.float64))
    n = len(inv)
    angle = torch.arange(t.shape[-2], dtype=torch.float64)[:, None] * inv[None, :]  # (T, n)
    a, b = t[..., :n], t[..., n : 2 * n]
    return torch.cat([a * angle.cos() - b * angle.sin(), a * angle.sin() + b * angle.cos(), t[..., 2 * n :]], dim=-1)


def reference_attention(attn, x, inv_freq=None, factor=1.0, bias=None, causal=True) -> torch.Tensor:
    """One CausalSelfAttention layer in float64, position by position."""
    W, P = attn.qkv.weight.detach().double(), attn.proj.weight.detach().double()
    x = x.double()
    B, T, C = x.shape
    H = attn.n_heads
    D = C // H
    q, k, v = (x @ W[i * C : (i + 1) * C].T for i in range(3))
    q, k, v = (t.reshape(B, T, H, D).permute(0, 2, 1, 3) for t in (q, k, v))  # (B, H, T, D)
    if inv_freq is not None:
        q, k = factor * turn(q, inv_freq), factor * turn(k, inv_freq)
    y = torch.zeros(B, H, T, D, dtype=torch.float64)
    for b in range(B):
        for h in range(H):
            for i in range(T):
                seen = range(i + 1) if causal else range(T)
                scores = torch.stack([q[b, h, i] @ k[b, h, j] / math.sqrt(D) for j in seen])
                if bias is not None:
                    scores = scores + torch.as_tensor(bias, dtype=torch.float64)[h, i, list(seen)]
                weights = torch.softmax(scores, dim=0)
                y[b, h, i] = sum(w * v[b, h, j] for w, j in zip(weights, seen))
    return y.permute(0, 2, 1, 3).reshape(B, T, C) @ P.T


def alibi(T: int, H: int, causal: bool) -> np.ndarray:
    """Press et al. 2022 §3: head h = 1 … H adds −2^(−8h/H)·|i − j|; the causal mask adds −∞ above the diagonal."""
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    out = np.stack([-(2.0 ** (-8 * h / H)) * np.abs(i - j) for h in range(1, H + 1)])
    return np.where(j > i, -np.inf, out) if causal else out


def plain_frequencies(cfg, fraction=1.0) -> np.ndarray:
    rdim = int(cfg.head_dim * fraction)
    return cfg.rope_base ** (-np.arange(0, rdim, 2) / rdim)


def layer_input(T=6, seed=0) -> torch.Tensor:
    return torch.randn(2, T, TINY.d_model, generator=torch.Generator().manual_seed(seed))


@pytest.fixture
def attn():
    torch.manual_seed(1)
    layer = model.CausalSelfAttention(TINY)
    for p in layer.parameters():  # order-one weights, so that every term moves the output visibly
        torch.nn.init.normal_(p, std=0.5)
    return layer


# --- one attention layer --------------------------------------------------------------------------


def test_attention_without_position_is_causal_softmax_attention(attn):
    x = layer_input()
    with torch.no_grad():
        got = attn(x, None)
    torch.testing.assert_close(got.double(), reference_attention(attn, x), **TOL)


def test_attention_without_mask_sees_the_future(attn):
    x = layer_input()
    with torch.no_grad():
        got = attn(x, None, causal=False)
    torch.testing.assert_close(got.double(), reference_attention(attn, x, causal=False), **TOL)


@pytest.mark.parametrize("inv_freq", [[1.0, 0.1], [0.7]], ids=["all pairs", "first pair only"])
def test_rope_turns_q_and_k_not_v(attn, inv_freq):
    x = layer_input()
    with torch.no_grad():
        got = attn(x, model.RotaryScaling(inv_freq))
    torch.testing.assert_close(got.double(), reference_attention(attn, x, inv_freq), **TOL)


def test_attention_factor_multiplies_q_and_k_so_the_scores_by_its_square(attn, monkeypatch):
    # YaRN §3.4: √(1/t) on each of q and k; scaling only q (scores × f, not f²) gives another output.
    x, f, inv = layer_input(), 1.7, [1.0, 0.1]
    with torch.no_grad():
        got = attn(x, model.RotaryScaling(inv, attention_factor=f))
    torch.testing.assert_close(got.double(), reference_attention(attn, x, inv, factor=f), **TOL)

    scores = []
    real = F.scaled_dot_product_attention

    def spy(q, k, v, **kw):
        scores.append(q @ k.transpose(-1, -2))
        return real(q, k, v, **kw)

    monkeypatch.setattr(F, "scaled_dot_product_attention", spy)
    with torch.no_grad():
        attn(x, model.RotaryScaling(inv, attention_factor=1.0))
        attn(x, model.RotaryScaling(inv, attention_factor=f))
    torch.testing.assert_close(scores[1], f**2 * scores[0], **TOL)


@pytest.mark.parametrize("causal", [True, False])
def test_score_bias_is_added_to_the_scaled_scores(attn, causal):
    x = layer_input()
    bias = alibi(6, TINY.n_heads, causal)
    with torch.no_grad():
        got = attn(x, None, score_bias=torch.tensor(bias, dtype=torch.float32))
    torch.testing.assert_close(got.double(), reference_attention(attn, x, bias=bias, causal=causal), **TOL)


def test_rope_and_bias_together_keep_both(attn):
    x, inv = layer_input(), [1.0, 0.1]
    bias = alibi(6, TINY.n_heads, True)
    with torch.no_grad():
        got = attn(x, model.RotaryScaling(inv, 1.3), score_bias=torch.tensor(bias, dtype=torch.float32))
    torch.testing.assert_close(got.double(), reference_attention(attn, x, inv, 1.3, bias), **TOL)


def test_a_block_is_pre_ln_and_causal_unless_told():
    torch.manual_seed(5)
    block = model.Block(TINY)
    with torch.no_grad():
        for p in block.parameters():
            p.normal_(0, 0.5)
    x = layer_input()

    def reference(causal):
        h = x.double() + reference_attention(block.attn, layer_norm(x.double(), block.ln1), causal=causal)
        u = layer_norm(h, block.ln2) @ block.mlp.up.weight.detach().double().T
        return h + F.gelu(u) @ block.mlp.down.weight.detach().double().T

    with torch.no_grad():
        torch.testing.assert_close(block(x, None).double(), reference(True), **TOL)
        torch.testing.assert_close(block(x, None, causal=False).double(), reference(False), **TOL)


def test_mlp_is_down_of_gelu_of_up():
    torch.manual_seed(2)
    mlp = model.MLP(TINY)
    x = layer_input()
    up, down = mlp.up.weight.detach().double(), mlp.down.weight.detach().double()
    assert up.shape == (TINY.mlp_ratio * TINY.d_model, TINY.d_model)
    h = x.double() @ up.T
    want = (0.5 * h * (1 + torch.erf(h / math.sqrt(2)))) @ down.T  # exact GELU (Hendrycks & Gimpel 2016)
    with torch.no_grad():
        torch.testing.assert_close(mlp(x).double(), want, **TOL)


# --- the whole model: each method's position signal where the method puts it -----------------------


def layer_norm(x, ln):
    return F.layer_norm(x, (x.shape[-1],), ln.weight.detach().double(), ln.bias.detach().double(), ln.eps)


def reference_model(m: model.PositionModel, idx, causal=True, inv_freq=None, factor=1.0) -> torch.Tensor:
    """Logits of a position model, assembled here from its weights (float64)."""
    T, d = idx.shape[1], m.cfg.d_model
    E = m.tok_emb.weight.detach().double()
    x = E[idx]
    method = m.method
    if method == "sinusoidal_scaled":
        x = x * math.sqrt(d)  # Vaswani et al. §3.4
    if method in ("sinusoidal", "sinusoidal_scaled"):
        x = x + torch.tensor(sinusoidal.table(T, d, m.cfg.sin_base))
    if method == "learned":
        x = x + m.pos_emb.weight.detach().double()[:T]
    bias = alibi(T, m.cfg.n_heads, causal) if method == "alibi" else None
    if inv_freq is None and method in ("rope", "rope_partial"):
        inv_freq = plain_frequencies(m.cfg, m.cfg.partial_rotary_fraction if method == "rope_partial" else 1.0)
    for block in m.blocks:  # pre-LN: x + attn(LN(x)), then x + mlp(LN(x))
        x = x + reference_attention(block.attn, layer_norm(x, block.ln1), inv_freq, factor, bias, causal)
        h = layer_norm(x, block.ln2) @ block.mlp.up.weight.detach().double().T
        x = x + F.gelu(h) @ block.mlp.down.weight.detach().double().T
    return layer_norm(x, m.ln_f) @ E.T  # the head is the token embedding (tied)


def tiny_model(method: str, n_layers: int = 2) -> model.PositionModel:
    m = model.build(dataclasses.replace(TINY, n_layers=n_layers), method, 3).eval()
    with torch.no_grad():  # order-one weights everywhere (the default init is near zero, where little shows)
        for name, p in m.named_parameters():
            if not name.endswith(("ln1.weight", "ln2.weight", "ln_f.weight")):
                p.normal_(0, 0.5, generator=torch.Generator().manual_seed(len(name)))
    return m


IDX = torch.tensor([[3, 1, 4, 1, 5, 9, 2, 6, 5, 3], [2, 7, 1, 8, 2, 8, 1, 8, 2, 8]])


@pytest.mark.parametrize("method", config.METHODS)
@pytest.mark.parametrize("causal", [True, False])
def test_model_logits_match_the_reference(method, causal):
    m = tiny_model(method)
    with torch.no_grad():
        got = m(IDX, causal=causal)
    assert got.shape == (2, 10, TINY.vocab_size)
    torch.testing.assert_close(got.double(), reference_model(m, IDX, causal), atol=1e-4, rtol=1e-4)


def test_hidden_states_are_the_causal_states_the_tied_head_reads():
    # Tests elsewhere probe the position signal with hidden_states: by default it must be the forward pass's own (causal).
    m = tiny_model("learned")
    with torch.no_grad():
        got = m.hidden_states(IDX).double() @ m.tok_emb.weight.detach().double().T
    torch.testing.assert_close(got, reference_model(m, IDX), atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("method", ["sinusoidal", "sinusoidal_scaled"])
def test_the_sinusoidal_table_uses_the_configs_base(method):
    # The full preset's base is the paper's 10,000 (also the table's default): another base must reach the table.
    cfg = dataclasses.replace(TINY, sin_base=50.0)
    np.testing.assert_allclose(model.build(cfg, method, 0).pos_table.numpy(), sinusoidal.table(cfg.eval_len, cfg.d_model, 50.0),
                               rtol=1e-6, atol=1e-6)


def test_a_rotary_override_replaces_the_rope_models_frequencies_and_factor():
    m = tiny_model("rope")
    inv, f = [0.3, 0.02], 1.4
    with torch.no_grad():
        got = m(IDX, rotary=model.RotaryScaling(inv, f))
    torch.testing.assert_close(got.double(), reference_model(m, IDX, inv_freq=inv, factor=f), atol=1e-4, rtol=1e-4)
    with torch.no_grad():  # and the model's own rotary is back for the next call
        torch.testing.assert_close(m(IDX).double(), reference_model(m, IDX), atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("method", [m for m in config.METHODS if m != "rope"])
def test_a_rotary_override_is_refused_by_other_methods(method):
    with pytest.raises(ValueError, match=f"RoPE model only, this model uses '{method}'"):
        tiny_model(method)(IDX, rotary=model.RotaryScaling([1.0, 0.1]))


def test_score_bias_is_none_without_alibi():
    assert model.build(TINY, "rope", 0).score_bias(5, causal=True) is None


@pytest.mark.parametrize("method, runs_past_table", [("nope", True), ("rope", True), ("rope_partial", True),
                                                     ("learned", False), ("sinusoidal", False),
                                                     ("sinusoidal_scaled", False),
                                                     pytest.param("alibi", False, marks=pytest.mark.xfail(
                                                         strict=True, raises=RuntimeError,
                                                         reason="model.py builds ALiBi's bias before embed() checks the "
                                                                "length: a size mismatch from masked_fill, not the clear "
                                                                "ValueError (model.py is hashed: fixing it needs a re-run)"))])
def test_only_methods_with_a_table_stop_at_eval_len(method, runs_past_table):
    m = model.build(TINY, method, 0).eval()
    longer = torch.ones(1, TINY.eval_len + 1, dtype=torch.long)
    with torch.no_grad():
        assert m(longer[:, :-1]).shape == (1, TINY.eval_len, TINY.vocab_size)
        if runs_past_table:
            assert m(longer).shape == (1, TINY.eval_len + 1, TINY.vocab_size)
        else:
            with pytest.raises(ValueError, match=f"length {TINY.eval_len + 1} is longer than the {method} model's table"):
                m(longer)


def test_alibi_without_the_mask_stops_at_eval_len_with_the_clear_error():
    # Without the causal mask the bias needs no resizing, so the table's length check is what stops a longer input.
    m = model.build(TINY, "alibi", 0).eval()
    with torch.no_grad(), pytest.raises(ValueError, match=f"length {TINY.eval_len + 1} is longer than the alibi model's table"):
        m(torch.ones(1, TINY.eval_len + 1, dtype=torch.long), causal=False)


@pytest.mark.parametrize("method", config.METHODS)
def test_the_state_dict_holds_the_trained_weights_only(method):
    # Fixed tables (sinusoidal, ALiBi's bias) are rebuilt from the code, never loaded from a saved state.
    m = model.build(TINY, method, 0)
    assert set(m.state_dict()) == {name for name, _ in m.named_parameters()}


@pytest.mark.parametrize("method", ["learned", "rope", "rope_partial"])
def test_positions_are_made_on_the_inputs_device(method, monkeypatch):
    # On a GPU, position indices made on the CPU fail against the GPU's tensors; on the meta device (shapes and
    # devices, no values) a CPU tensor mixes in silently, so the spies below look at where the positions were made.
    seen = []
    real = model.rope.apply_rotary_torch

    def spy(x, positions, inv_freq, **kw):
        seen.append(positions.device)
        return real(x, positions, inv_freq, **kw)

    monkeypatch.setattr(model.rope, "apply_rotary_torch", spy)
    m = model.build(TINY, method, 0).to("meta")
    if m.pos_emb is not None:
        m.pos_emb.register_forward_pre_hook(lambda mod, args: seen.append(args[0].device))
    with torch.no_grad():
        m(IDX.to("meta"))
    assert seen and set(seen) == {torch.device("meta")}


def test_unknown_method_names_the_choices():
    with pytest.raises(ValueError, match="unknown position method 'fire'; choose from nope, learned"):
        model.PositionModel(TINY, "fire")


# --- initialisation and size ---------------------------------------------------------------------

FULL2 = dataclasses.replace(config.preset("full"), n_layers=2)  # residual projections at 0.02/√4 = 0.01


@pytest.mark.parametrize("method", ["learned", "rope"])
def test_initialisation_is_gpt2s(method):
    m = model.build(FULL2, method, 0)
    for name, p in m.named_parameters():
        w = p.detach()
        if name.endswith(("ln1.weight", "ln2.weight", "ln_f.weight")):
            assert torch.all(w == 1), name
        elif name.endswith("bias"):
            assert torch.all(w == 0), name
        else:
            want = 0.01 if name.endswith(("attn.proj.weight", "mlp.down.weight")) else 0.02
            assert w.std().item() == pytest.approx(want, rel=0.03), name
            assert abs(w.mean().item()) < 0.1 * want, name


def test_build_is_seeded():
    a, b, c = model.build(TINY, "rope", 4), model.build(TINY, "rope", 4), model.build(TINY, "rope", 5)
    assert all(torch.equal(p, q) for p, q in zip(a.parameters(), b.parameters()))
    assert not torch.equal(a.tok_emb.weight, c.tok_emb.weight)


def test_every_method_starts_from_the_same_shared_weights():
    shared = dict(model.build(TINY, "nope", 7).named_parameters())
    for method in config.METHODS:
        for name, p in model.build(TINY, method, 7).named_parameters():
            if name != "pos_emb.weight":
                assert torch.equal(p, shared[name]), (method, name)


def test_parameter_count_counts_trainable_parameters_only():
    m = model.build(TINY, "learned", 0)
    d, V, L = TINY.d_model, TINY.vocab_size, TINY.eval_len
    per_block = 4 * d + 4 * d * d + 2 * 4 * d * d  # two LayerNorms, qkv + proj, up + down
    assert model.parameter_count(m) == V * d + L * d + TINY.n_layers * per_block + 2 * d
    m.pos_emb.weight.requires_grad_(False)
    assert model.parameter_count(m) == V * d + TINY.n_layers * per_block + 2 * d


def test_rotary_frequencies_per_method():
    np.testing.assert_allclose(model.rope_inverse_frequencies(TINY, "rope"), plain_frequencies(TINY), rtol=1e-12)
    np.testing.assert_allclose(model.rope_inverse_frequencies(TINY, "rope_partial"), plain_frequencies(TINY, 0.5), rtol=1e-12)
    r = model.RotaryScaling(np.array([0.5, 0.25]), 2)
    assert r.inv_freq.dtype == torch.float32 and r.attention_factor == 2.0 and isinstance(r.attention_factor, float)
    assert model.build(TINY, "nope", 0).rotary is None and model.build(TINY, "learned", 0).rotary is None
    assert model.build(TINY, "rope", 0).rotary.attention_factor == 1.0
