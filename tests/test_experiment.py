"""The training experiment: model, position signals, corpus, determinism, verify, claims.

Fast by design: models here are built at full width but trained for at most a
few steps, and ``verify`` re-runs only the first steps of the committed run.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from posenc import rope, sinusoidal
from posenc.examples import PROJECT_D_MODEL, PROJECT_EMBED_STD, PROJECT_TRAIN_LEN
from posenc.experiment import claims, config, corpus, data, evaluate, figures, model, provenance, run, scalings, stats, sweep, train, verify

ROOT = Path(__file__).resolve().parent.parent
FULL = config.preset("full")
# A cheap config for behaviour tests: full width (so √d = 16 and head_dim 64 stay), one layer.
SMALL = dataclasses.replace(
    FULL, preset="test", n_layers=1, batch_size=2, steps=4, warmup_steps=2, curve_every=2,
    ext_batch_size=1, ext_steps=2, ext_warmup_steps=1, ext_curve_every=1,
)


@pytest.fixture(scope="module")
def dataset():
    return data.load(FULL)


def tokens(T: int, seed: int = 0) -> torch.Tensor:
    return torch.randint(1, FULL.vocab_size, (1, T), generator=torch.Generator().manual_seed(seed))


# --- model ----------------------------------------------------------------------------------------


def test_config_uses_the_project_constants():
    assert (FULL.d_model, FULL.embed_std, FULL.train_len) == (PROJECT_D_MODEL, PROJECT_EMBED_STD, PROJECT_TRAIN_LEN)
    assert (FULL.steps, FULL.batch_size, FULL.eval_len) == (400, 16, 512)


@pytest.mark.parametrize("method", config.METHODS)
def test_logits_shape(method):
    m = model.build(SMALL, method, 0)
    assert m(tokens(37)).shape == (1, 37, SMALL.vocab_size)


def test_parameter_count_matches_the_architecture():
    d, L, V, T = FULL.d_model, FULL.n_layers, FULL.vocab_size, FULL.eval_len
    # per block: two LayerNorms (2d each), W_qkv 3d², W_o d², MLP 4d² + 4d²; final LayerNorm; tied head
    expected = V * d + L * (12 * d * d + 4 * d) + 2 * d
    for method in config.METHODS:
        n = model.parameter_count(model.build(FULL, method, 0))
        assert n == expected + (T * d if method == "learned" else 0), method
    assert 3.6e6 < expected < 3.8e6  # "≈3.7M" in the lesson


def test_same_seed_same_shared_initialisation():
    # Methods differ only in their position part: same token embedding and blocks from one seed.
    a, b = model.build(SMALL, "learned", 3), model.build(SMALL, "rope", 3)
    assert torch.equal(a.tok_emb.weight, b.tok_emb.weight)
    assert torch.equal(a.blocks[0].attn.qkv.weight, b.blocks[0].attn.qkv.weight)
    assert a.tok_emb.weight.std().item() == pytest.approx(PROJECT_EMBED_STD, rel=0.02)


def test_bad_arguments_name_the_fix():
    with pytest.raises(ValueError, match="choose from nope"):
        model.build(SMALL, "t5_bias", 0)
    with pytest.raises(ValueError, match="eval_len=512"):
        model.build(SMALL, "learned", 0)(tokens(513))
    with pytest.raises(ValueError, match="n_heads"):
        dataclasses.replace(FULL, n_heads=3)
    with pytest.raises(ValueError, match="unknown preset"):
        config.preset("fast")
    with pytest.raises(ValueError, match="RoPE model only"):
        model.build(SMALL, "learned", 0)(tokens(8), rotary=evaluate.rope_scaling(SMALL, "pi"))


# --- each method's position signal ----------------------------------------------------------------


@torch.no_grad()
def prefix_permutation_changes_output(method: str) -> float:
    """How much the output at the last position moves when the tokens before it are shuffled."""
    m = model.build(SMALL, method, 0).eval()
    x = tokens(24, seed=1)
    perm = torch.cat([torch.randperm(23, generator=torch.Generator().manual_seed(2)), torch.tensor([23])])
    return (m.hidden_states(x)[0, -1] - m.hidden_states(x[:, perm])[0, -1]).abs().max().item()


ROUNDING = 1e-5  # float32 noise of summing the same attention terms in another order (measured ≈1e-6)


def test_nope_cannot_see_the_order_of_the_prefix():
    # Causal attention without positions sees a bag of earlier tokens (Kazemnejad et al. 2023).
    assert prefix_permutation_changes_output("nope") < ROUNDING


@pytest.mark.parametrize("method", ["learned", "sinusoidal", "sinusoidal_scaled", "alibi", "rope", "rope_partial"])
def test_other_methods_see_the_order(method):
    # At initialisation the effect is smallest for unscaled sinusoidal (≈5e-4): the tokens
    # are only ≈2.8% of its input, the rest is position signal; still 10× above rounding.
    assert prefix_permutation_changes_output(method) > 10 * ROUNDING


@torch.no_grad()
def test_nope_without_mask_is_permutation_equivariant():
    m = model.build(SMALL, "nope", 0).eval()
    x = tokens(16, seed=4)
    perm = torch.randperm(16, generator=torch.Generator().manual_seed(5))
    out, out_perm = m.hidden_states(x, causal=False), m.hidden_states(x[:, perm], causal=False)
    assert torch.allclose(out[:, perm], out_perm, atol=1e-5)


@torch.no_grad()
@pytest.mark.parametrize("method, scale", [("sinusoidal", 1.0), ("sinusoidal_scaled", 16.0)])  # √256 = 16 (§3.4)
def test_sinusoidal_input_is_posenc_table_plus_scaled_embedding(method, scale):
    m = model.build(SMALL, method, 0)
    x = tokens(50)
    pe = m.embed(x)[0] - scale * m.tok_emb(x)[0]
    assert torch.allclose(pe, torch.tensor(sinusoidal.table(50, FULL.d_model), dtype=torch.float32), atol=1e-5)


def test_learned_rows_past_training_length_never_train(dataset):
    trained, _ = train.train(SMALL, "learned", 0, dataset.train, steps=2)
    initial = model.build(SMALL, "learned", 0)
    w, w0 = trained.pos_emb.weight.detach(), initial.pos_emb.weight.detach()
    assert torch.equal(w[SMALL.train_len :], w0[SMALL.train_len :])
    assert not torch.equal(w[: SMALL.train_len], w0[: SMALL.train_len])


def attention_scores(method: str, monkeypatch) -> torch.Tensor:
    """First-layer attention logits q·k for a sequence repeating one token, captured from SDPA."""
    captured = {}
    real = torch.nn.functional.scaled_dot_product_attention

    def spy(q, k, v, **kw):
        captured.setdefault("qk", (q[0, 0] @ k[0, 0].T).detach())
        return real(q, k, v, **kw)

    monkeypatch.setattr(torch.nn.functional, "scaled_dot_product_attention", spy)
    m = model.build(SMALL, method, 0).eval()
    with torch.no_grad():
        m(torch.full((1, 40), 7))
    return captured["qk"]


def is_toeplitz(s: torch.Tensor, atol: float) -> bool:
    """S[m, n] depends on m − n only."""
    return all(torch.allclose(torch.diagonal(s, k)[1:], torch.diagonal(s, k)[:-1], atol=atol) for k in range(-10, 11))


def test_rope_attention_scores_depend_on_distance_only(monkeypatch):
    # RoFormer §3.4.2: q_m·k_n = Re[x_m W_q (x_n W_k)* e^{i(m−n)θ}] — same content, so only m − n is left.
    s = attention_scores("rope", monkeypatch)
    assert is_toeplitz(s, atol=1e-4 * s.abs().max().item())
    assert not torch.allclose(s[0], s[0, 0].expand_as(s[0]))  # and it does vary with distance


def test_learned_attention_scores_depend_on_absolute_position(monkeypatch):
    s = attention_scores("learned", monkeypatch)
    assert not is_toeplitz(s, atol=1e-3 * s.abs().max().item())


def test_rope_uses_posenc_frequencies():
    m = model.build(SMALL, "rope", 0)
    np.testing.assert_array_equal(m.rotary.inv_freq.numpy(), rope.inverse_frequencies(64, 10_000.0).astype(np.float32))


def test_yarn_scaling_comes_from_posenc_scaling():
    from posenc import scaling

    r = evaluate.rope_scaling(FULL, "yarn")
    inv, factor = scaling.yarn(64, 10_000.0, 4.0, original_context=128)
    assert r.attention_factor == factor == pytest.approx(0.1 * math.log(4) + 1)
    np.testing.assert_allclose(r.inv_freq.numpy(), inv, rtol=1e-6)


# --- ALiBi and partial RoPE ---------------------------------------------------------------------


def test_alibi_bias_is_the_papers_with_a_causal_mask():
    # Press et al. 2022 §3: head h (1 … n) adds −m_h·(i − j) to q_i·k_j/√d, m_h = 2^(−8h/n); n = 4 here.
    m = model.build(SMALL, "alibi", 0)
    T = 9
    bias = m.score_bias(T, causal=True).numpy()
    for h in range(SMALL.n_heads):
        slope = 2.0 ** (-8 * (h + 1) / SMALL.n_heads)
        for i in range(T):
            for j in range(T):
                want = -slope * (i - j) if j <= i else -np.inf
                assert bias[h, i, j] == pytest.approx(want, rel=1e-6), (h, i, j)


def test_alibi_adds_nothing_to_the_input():
    m = model.build(SMALL, "alibi", 0)
    x = tokens(20)
    assert m.pos_emb is None
    assert torch.equal(m.embed(x), m.tok_emb(x) * m.embed_scale)


def test_alibi_attention_scores_are_content_plus_distance_bias(monkeypatch):
    # The same token everywhere: the content part q·k is one number, so the bias is all that varies.
    captured = {}
    real = torch.nn.functional.scaled_dot_product_attention

    def spy(q, k, v, attn_mask=None, **kw):
        captured.setdefault("mask", attn_mask.detach().clone())
        return real(q, k, v, attn_mask=attn_mask, **kw)

    monkeypatch.setattr(torch.nn.functional, "scaled_dot_product_attention", spy)
    m = model.build(SMALL, "alibi", 0).eval()
    with torch.no_grad():
        m(torch.full((1, 12), 7))
    mask = captured["mask"]
    assert is_toeplitz(torch.where(torch.isinf(mask), 0.0, mask)[0], atol=1e-6)
    assert torch.isinf(mask[0]).sum().item() == 12 * 11 // 2  # the future, masked


def test_partial_rope_turns_a_quarter_of_each_head_as_transformers_does(monkeypatch):
    # transformers' partial_rotary_factor: the first int(head_dim·f) dims rotate (half layout among
    # themselves, exponent over the rotary dim), the rest pass through (e.g. Qwen3-Next, GPT-NeoX).
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    m = model.build(SMALL, "rope_partial", 0)
    rot = int(SMALL.head_dim * SMALL.partial_rotary_fraction)
    inv_freq = 1.0 / SMALL.rope_base ** (torch.arange(0, rot, 2, dtype=torch.float64) / rot)
    np.testing.assert_allclose(m.rotary.inv_freq.numpy(), inv_freq.numpy(), rtol=1e-6)

    T = 11
    q = torch.randn(1, SMALL.n_heads, T, SMALL.head_dim, generator=torch.Generator().manual_seed(3))
    k = torch.randn(1, SMALL.n_heads, T, SMALL.head_dim, generator=torch.Generator().manual_seed(4))
    freqs = torch.outer(torch.arange(T, dtype=torch.float64), inv_freq)
    emb = torch.cat([freqs, freqs], dim=-1)
    cos, sin = emb.cos()[None].float(), emb.sin()[None].float()
    q_rot, k_rot = apply_rotary_pos_emb(q[..., :rot], k[..., :rot], cos, sin)
    want_q = torch.cat([q_rot, q[..., rot:]], dim=-1)
    want_k = torch.cat([k_rot, k[..., rot:]], dim=-1)

    C = SMALL.d_model
    projected = torch.cat([t.transpose(1, 2).reshape(1, T, C) for t in (q, k, q)], dim=-1)

    class Projection(torch.nn.Module):  # stands in for W_qkv: the layer's q, k are exactly ours
        def forward(self, x):
            return projected

    captured = {}
    real = torch.nn.functional.scaled_dot_product_attention

    def spy(qq, kk, v, **kw):
        captured.setdefault("qk", (qq.detach().clone(), kk.detach().clone()))
        return real(qq, kk, v, **kw)

    monkeypatch.setattr(torch.nn.functional, "scaled_dot_product_attention", spy)
    attn = m.blocks[0].attn
    attn.qkv = Projection()
    with torch.no_grad():
        attn(torch.zeros(1, T, C), m.rotary)
    got_q, got_k = captured["qk"]
    torch.testing.assert_close(got_q, want_q, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(got_k, want_k, atol=1e-5, rtol=1e-5)


# --- the extension stage ---------------------------------------------------------------------------


def test_extension_variants_are_the_papers_frequencies():
    plain = rope.inverse_frequencies(FULL.head_dim, FULL.rope_base)
    i = np.arange(FULL.head_dim // 2)
    s = FULL.ext_len / FULL.train_len
    assert s == 4
    pi, pi_factor = scalings.extension(FULL, "pi")
    np.testing.assert_allclose(pi, plain / s, rtol=1e-12)  # Chen et al. 2023 Eq. 2: m → m/s
    abf, abf_factor = scalings.extension(FULL, "abf")
    np.testing.assert_allclose(abf, FULL.abf_base ** (-2 * i / FULL.head_dim), rtol=1e-12)  # the base raised
    ntk, _ = scalings.extension(FULL, "ntk")
    base = FULL.rope_base * s ** (FULL.head_dim / (FULL.head_dim - 2))  # YaRN paper Eq. 16
    np.testing.assert_allclose(ntk, base ** (-2 * i / FULL.head_dim), rtol=1e-12)
    control, control_factor = scalings.extension(FULL, "rope")
    np.testing.assert_array_equal(control, plain)
    assert pi_factor == abf_factor == control_factor == 1.0
    assert scalings.extension(FULL, "yarn")[1] == pytest.approx(0.1 * math.log(s) + 1)  # YaRN Eq. 22
    with pytest.raises(ValueError, match="choose from rope"):
        scalings.extension(FULL, "longrope")


def test_extension_learning_rate_warms_up_to_where_pretraining_ended():
    rates = [train.extension_learning_rate(FULL, k) for k in range(FULL.ext_steps)]
    assert rates[FULL.ext_warmup_steps - 1] == rates[-1] == pytest.approx(FULL.lr * FULL.min_lr_ratio)
    assert rates[0] == pytest.approx(FULL.lr * FULL.min_lr_ratio / FULL.ext_warmup_steps)
    assert all(a <= b for a, b in zip(rates, rates[1:]))


def test_extension_measures_before_and_after_and_is_deterministic(dataset):
    from posenc.experiment import extend

    trained, _ = train.train(SMALL, "rope", 0, dataset.train, steps=2)
    state = copy.deepcopy(trained.state_dict())
    val = dataset.val[: SMALL.ext_eval_len * 2 + 1]
    runs = [extend.extend(SMALL, copy.deepcopy(state), "pi", 0, dataset.train, val) for _ in range(2)]
    a, b = runs
    assert a["train_loss"] == b["train_loss"] and len(a["train_loss"]) == SMALL.ext_steps
    assert a["in_distribution_curve"] == b["in_distribution_curve"]
    assert len(a["in_distribution_curve"]) == len(SMALL.ext_curve_steps())
    assert len(a["position_loss_before"]) == len(a["position_loss_after"]) == SMALL.ext_eval_len
    # step 0 of the curve is the pre-trained model with PI's frequencies, before any extension step
    m = model.build(SMALL, "rope", 0)
    m.load_state_dict(state)
    m.eval()
    before = evaluate.in_distribution_loss(m, val, SMALL, rotary=evaluate.rotary(scalings.extension(SMALL, "pi")))
    assert a["in_distribution_curve"][0] == pytest.approx(before, rel=1e-6)
    # and the training changed the model: the last point differs from the first
    assert a["in_distribution_curve"][-1] != a["in_distribution_curve"][0]


# --- data -----------------------------------------------------------------------------------------


def test_split_is_fixed_and_disjoint():
    records = [f"r{i}" for i in range(25)]
    train_r, val_r = data.split(records, 10)
    assert val_r == ["r9", "r19"] and len(train_r) == 23 and not set(train_r) & set(val_r)


def test_vocabulary_covers_the_validation_text(dataset):
    assert dataset.vocab_size == FULL.vocab_size and dataset.vocab[0] == data.UNK
    assert data.unk_rate(dataset.val) < 0.08  # ≈95% of characters are in the 2,047-character vocabulary


def test_in_distribution_windows_cover_the_validation_text_once(dataset):
    starts = data.eval_starts(len(dataset.val), FULL.eval_len, FULL.eval_stride)
    covered = (starts[:, None] + torch.arange(FULL.train_len)).flatten()
    assert len(torch.unique(covered)) == len(covered)  # no token counted twice in positions 0–127
    assert int(starts[-1]) + FULL.eval_len < len(dataset.val)


def test_unigram_baseline_is_between_uniform_and_zero(dataset):
    u = data.unigram_loss(dataset)
    assert 3.0 < u < data.uniform_loss(FULL.vocab_size)


# --- corpus ---------------------------------------------------------------------------------------

ESC = "\x1b"


def fortune(body: str, attribution: str) -> str:
    return f"{body}\n{ESC}[33m    -- {attribution}{ESC}[m{ESC}[m"


def test_cleaning_keeps_wang_changling_despite_bingxin_rule():
    rec = corpus.parse_record(fortune("洛阳亲友如相问，一片冰心在玉壶。", f"王昌龄{ESC}[32m《芙蓉楼送辛渐》"))
    assert "冰心" in corpus.MODERN_AUTHORS
    assert corpus.keep(rec) and rec.text == "洛阳亲友如相问，一片冰心在玉壶。"


@pytest.mark.parametrize(
    "attribution",
    [f"冰心{ESC}[32m《繁星》", "一九二五年，鲁迅", f"Debian {ESC}[32m《行为准则》{ESC}[m第一条", "尤瓦尔·赫拉利《人类简史》", "Linus Torvalds"],
)
def test_cleaning_drops_modern_sources_by_author_line(attribution):
    assert not corpus.keep(corpus.parse_record(fortune("春风又绿江南岸，明月何时照我还。", attribution)))


def test_cleaning_strips_escapes_and_headers():
    rec = corpus.parse_record(f"{ESC}[32m《感遇・其一》{ESC}[m\n{ESC}[33m作者：张九龄{ESC}[m\n兰叶春葳蕤，桂华秋皎洁。")
    assert rec.lines == ("兰叶春葳蕤，桂华秋皎洁。",) and rec.authors == ("张九龄",)


def test_cleaning_drops_mostly_ascii_records():
    manual = "\n".join(["5.9.1. 找出最佳 MTU", "    $ ping -c 1 -s $((1500-28)) -M do www.debian.org"])
    assert not corpus.keep(corpus.parse_record(manual))


def test_committed_corpus_is_clean_and_checksummed():
    text = corpus.load()  # raises if the file does not match CORPUS_SHA256
    assert ESC not in text and "Debian" not in text
    for line in ("一片冰心在玉壶", "上善若水", "学而时习之", "床前明月光"):  # 王昌龄, 道德经, 论语, 李白
        assert line in text, line
    ascii_letters = sum(ch.isascii() and ch.isalpha() for ch in text)
    assert ascii_letters / len(text) < 1e-4
    assert 4000 < len(corpus.records(text)) < 5500 and len(text.encode()) < 2_000_000
    assert (corpus.DATA_DIR / "COPYING.fortunes-zh").read_text().count("GPL-3.0+") >= 1


@pytest.mark.skipif(not corpus.installed(), reason="fortunes-zh is not installed (apt-get install fortunes-zh; tools/scripts/setup_system.sh does it)")
def test_corpus_rebuilds_from_the_debian_package():
    assert corpus.rebuild() == corpus.CORPUS_SHA256


# --- devices -------------------------------------------------------------------------------------
# A GPU run failed on its first step because one tensor was made on the CPU while the batch was on the
# GPU. The meta device (shapes and devices, no values) reproduces that class of bug on a CPU: mixing a
# meta tensor with a CPU tensor fails the same way. Each run below must get as far as the first read-out
# of a value (loss.item(), or copying the losses back), which a meta tensor cannot give.

META = torch.device("meta")
NO_VALUES = ("cannot be called on meta tensors", "Cannot copy out of meta tensor")


@pytest.mark.parametrize("method", config.METHODS)
def test_training_and_evaluation_keep_every_tensor_on_the_inputs_device(method, dataset):
    m = model.build(SMALL, method, 0).to(META)
    with pytest.raises((RuntimeError, NotImplementedError)) as err:
        train.fit(m, SMALL, dataset.train.to(META), length=SMALL.train_len, batch_size=2, steps=1,
                  lr_at=lambda step: 1e-3, seed=0)
    assert any(text in str(err.value) for text in NO_VALUES), err.value
    rotary = evaluate.rope_scaling(SMALL, "yarn") if method == "rope" else None
    with pytest.raises((RuntimeError, NotImplementedError)) as err:
        evaluate.position_losses(m, dataset.val[:3000].to(META), SMALL, META, rotary=rotary)
    assert any(text in str(err.value) for text in NO_VALUES), err.value


def test_windows_are_made_on_the_device_of_their_starts():
    x, y = data.windows(torch.arange(50, device=META), torch.tensor([0, 3], device=META), 8)
    assert x.device == y.device == META and x.shape == y.shape == (2, 8)


# --- determinism and provenance -------------------------------------------------------------------


def test_short_run_is_deterministic(dataset):
    runs = [train.train(SMALL, "rope", 5, dataset.train, steps=3) for _ in range(2)]
    assert runs[0][1] == runs[1][1]  # bit-identical losses
    val = dataset.val[: SMALL.eval_len * 2 + 1]
    a, b = (evaluate.position_losses(m, val, dataclasses.replace(SMALL, eval_stride=256)) for m, _ in runs)
    np.testing.assert_array_equal(a, b)


def test_code_hash_covers_everything_the_run_imports():
    probe = "import sys, posenc.experiment.run; print(' '.join(sorted(m for m in sys.modules if m.startswith('posenc'))))"
    loaded = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    hashed = {f"posenc.experiment.{f[:-3]}" for f in provenance.NUMBER_FILES}
    allowed = hashed | set(provenance.FINGERPRINTED_MODULES) | {"posenc", "posenc.experiment", "posenc.experiment.provenance"}
    assert set(loaded) <= allowed, set(loaded) - allowed


def test_source_hash_ignores_the_preset_table_but_not_the_config_class():
    files = {n: (provenance.PACKAGE_DIR / n).read_text(encoding="utf-8") for n in provenance.NUMBER_FILES}
    before = provenance.source_sha256(files)
    assert before == provenance.source_sha256()
    cfg = files["config.py"]
    assert '"quick": Config(preset="quick"' in cfg and "steps: int = 400" in cfg
    # a preset's values are compared field by field by verify, not hashed
    other_quick = cfg.replace('"quick": Config(preset="quick"', '"quick": Config(preset="quick", lr=1e-3')
    assert provenance.source_sha256({**files, "config.py": other_quick}) == before
    # a default every preset inherits is code: it changes the hash
    other_default = cfg.replace("steps: int = 400", "steps: int = 401")
    assert provenance.source_sha256({**files, "config.py": other_default}) != before


def test_encodings_hash_follows_computed_values_not_source(monkeypatch):
    before = provenance.encodings_sha256(FULL)
    monkeypatch.setattr(rope, "__doc__", "edited")
    assert provenance.encodings_sha256(FULL) == before
    real = rope.inverse_frequencies
    monkeypatch.setattr(rope, "inverse_frequencies", lambda *a, **k: real(*a, **k) * 1.001)
    assert provenance.encodings_sha256(FULL) != before


# --- verify on the committed results --------------------------------------------------------------


@pytest.fixture(scope="module")
def committed() -> dict:
    return json.loads(sweep.results_path("full").read_text())


def test_the_data_summary_is_the_committed_one_and_counts_what_it_names(dataset, committed):
    """run.data_summary, which the results file records and the lessons quote (corpus size, vocabulary, the unigram
    baseline), gives the committed numbers for the committed config and corpus, and three of its counts agree with
    a reading of their own: a uniform guess over the vocabulary costs ln V, and a validation window of eval_len + 1
    tokens starts every eval_stride tokens while it fits."""
    got = run.data_summary(FULL, dataset)
    assert got == committed["data"]
    assert got["uniform_loss"] == round(math.log(FULL.vocab_size), 6)
    n = len(dataset.val)
    for key, length in (("eval_windows", FULL.eval_len), ("ext_eval_windows", FULL.ext_eval_len)):
        assert got[key] == sum(1 for start in range(0, n, FULL.eval_stride) if start + length + 1 <= n), key
    assert got["val_tokens"] == n and got["train_tokens"] == len(dataset.train)


def write(tmp_path: Path, results: dict, reseal: bool) -> Path:
    if reseal:
        results["seal_sha256"] = provenance.seal(results)
    path = tmp_path / "full.json"
    path.write_text(json.dumps(results))
    return path


# Freshness, not correctness: this fails after any change to the code the results hash covers, a correct
# fix included, and says so. Whether the experiment code computes the right thing is what the behaviour
# tests in tests/test_experiment_*.py check. verify's re-run uses the threads this worker has
# (tests/conftest.py); 1 and 2 threads agree far inside its tolerance.
def test_committed_results_are_up_to_date():
    try:
        report = verify.verify(threads=torch.get_num_threads())
    except verify.StaleResults as err:
        pytest.fail(f"results out of date: {err}\n(This is not a bug report: the committed results file no longer "
                    f"matches the experiment code, which a correct change does too. Re-run the experiment, or undo "
                    f"the change if it was not meant to move the numbers.)", pytrace=False)
    assert "reproduced" in report


def test_verify_rejects_a_hand_edited_number(committed, tmp_path):
    tampered = copy.deepcopy(committed)
    tampered["runs"]["learned"][0]["position_loss"][300] -= 0.5
    with pytest.raises(verify.StaleResults, match="re-run `python -m posenc.experiment run --preset full"):
        verify.verify(write(tmp_path, tampered, reseal=False), rerun=False)


def test_verify_rejects_results_from_other_code(committed, tmp_path):
    stale = copy.deepcopy(committed)
    stale["code"]["source_sha256"] = "0" * 64
    with pytest.raises(verify.StaleResults, match="other experiment code.*re-run `python -m posenc.experiment run --preset full"):
        verify.verify(write(tmp_path, stale, reseal=True), rerun=False)


def test_verify_rejects_early_losses_the_code_does_not_reproduce(committed, tmp_path):
    # Resealed, so only the re-run can notice; NoPE is re-run first, so this fails after 2 steps.
    wrong = copy.deepcopy(committed)
    wrong["runs"]["nope"][0]["train_loss"][1] += 10 * verify.RERUN_TOLERANCE
    with pytest.raises(verify.StaleResults, match="re-running nope"):
        verify.verify(write(tmp_path, wrong, reseal=True), steps=2, threads=torch.get_num_threads())


def test_verify_rejects_a_hand_edited_extension_number(committed, tmp_path):
    tampered = copy.deepcopy(committed)
    tampered["extension"]["abf"][0]["position_loss_after"][700] -= 0.5
    with pytest.raises(verify.StaleResults, match="re-run `python -m posenc.experiment run --preset full"):
        verify.verify(write(tmp_path, tampered, reseal=False), rerun=False)


@pytest.mark.parametrize("edit, message", [
    # resealed, so only the self-consistency checks can notice
    (lambda r: _add(r["extension"]["rope"][1]["in_distribution_curve"], 0, 1, 0.05),
     "extension of seed 1 does not start from that seed's RoPE model"),
    (lambda r: _add(r["runs"]["alibi"][0]["val_curve"], len(r["runs"]["alibi"][0]["val_curve"]) - 1, None, 0.05),
     "alibi seed 0: learning curve ends at"),
    (lambda r: r["extension"].pop("abf"), "lessons need"),
    (lambda r: r["runs"]["rope_partial"][1]["position_loss"].pop(), "rope_partial seed 1 position_loss has 511 values"),
    (lambda r: r["extension"]["yarn"][0]["in_distribution_curve"].pop(), "yarn seed 0 in_distribution_curve has"),
])
def test_verify_rejects_inconsistent_or_incomplete_new_units(committed, tmp_path, edit, message):
    stale = copy.deepcopy(committed)
    edit(stale)
    with pytest.raises(verify.StaleResults, match=message):
        verify.verify(write(tmp_path, stale, reseal=True), rerun=False)


def test_claims_reader_and_run_agree_on_the_results_file():
    assert claims.RESULTS_FILE == sweep.results_path("full")
    assert claims.METHODS == config.METHODS and claims.SCALINGS == config.ROPE_SCALINGS
    assert claims.TRAIN_LEN == FULL.train_len


# --- claims, numbers, figure data -----------------------------------------------------------------

DOCS = Path(__file__).resolve().parent.parent / "docs"


def claims_on_pages() -> set[str]:
    import re

    return {m for page in DOCS.rglob("*.md") for m in re.findall(r"""claim\(\s*["']([a-z0-9_]+)["']""", page.read_text(encoding="utf-8"))}


def test_every_claim_a_page_states_is_registered_and_holds():
    # The build checks these too; this fails faster and lists every broken sentence at once.
    used = claims_on_pages()
    assert used, "no page states a claim about the experiment"
    unknown = used - set(claims.CLAIMS)
    assert not unknown, f"pages use unregistered claims {sorted(unknown)}"
    failing = {n: claims.evaluate(n)[1] for n in sorted(used) if not claims.evaluate(n)[0]}
    assert not failing, failing


def test_every_registered_claim_is_on_a_page():
    # A sentence no page prints is a test without a reader: delete it or use it. A frozen sentence reworded after
    # failing the replication (frozen.REWORDED) is the exception: the pages print its new wording, and the results
    # page's replication section prints the frozen one (its English through its amendment) from the freeze.
    from posenc.experiment import frozen

    on_pages = claims_on_pages()
    assert set(claims.CLAIMS) - set(frozen.REWORDED) <= on_pages
    assert not set(frozen.REWORDED) & on_pages, "a page still prints a sentence that failed the replication"
    assert set(frozen.REWORDED.values()) <= on_pages


def test_stalled_seeds_are_counted_not_averaged(committed, tmp_path):
    # Unscaled sinusoidal's seeds split into "stuck at the unigram level" and "learned"; the page
    # counts them. With every seed stuck the count is all of them, and "most seeds" still holds;
    # with none stuck it must fail.
    u = committed["data"]["unigram_loss"]
    stuck = copy.deepcopy(committed)
    for unit in stuck["runs"]["sinusoidal"]:
        _set_mean(unit["position_loss"], 0, 128, u + 0.01)
    (tmp_path / "stuck").mkdir()
    path = write(tmp_path / "stuck", stuck, reseal=True)
    assert claims.stalled_seeds("sinusoidal", path) == committed["seeds"]
    assert claims.evaluate("sin_stalls_on_most_seeds", path)[0]
    learned = copy.deepcopy(committed)
    for unit in learned["runs"]["sinusoidal"]:
        _set_mean(unit["position_loss"], 0, 128, u - 0.3)
    (tmp_path / "learned").mkdir()
    path = write(tmp_path / "learned", learned, reseal=True)
    assert claims.stalled_seeds("sinusoidal", path) == []
    ok, detail = claims.evaluate("sin_stalls_on_most_seeds", path)
    assert not ok and f"0 of {len(committed['seeds'])}" in detail


def _subset(results: dict, keep) -> dict:
    """The results of the seeds at positions ``keep`` only, resealed."""
    sub = copy.deepcopy(results)
    sub["seeds"] = [results["seeds"][i] for i in keep]
    for group in ("runs", "extension"):
        sub[group] = {k: [units[i] for i in keep] for k, units in results[group].items()}
    sub["seal_sha256"] = provenance.seal(sub)
    return sub


def test_every_claim_holds_on_each_half_of_the_seeds(committed, tmp_path):
    # A sentence that holds on all seeds but not on half of them rests on luck: the course's claims are
    # checked on seeds they were not written from, so each must also hold on either half alone.
    n = len(committed["seeds"])
    assert n >= 8, "the committed results need at least 8 seeds (issue: claims that hold on unseen seeds)"
    for half in (range(n // 2), range(n // 2, n)):
        path = tmp_path / f"half{half.start}.json"
        path.write_text(json.dumps(_subset(committed, half)))
        failing = {name: detail for name, (verdict, detail) in claims.verdicts(path).items() if verdict != "holds"}
        assert not failing, f"seeds {list(half)}: {failing}"


def test_one_seed_judges_no_interval_claim(committed, tmp_path):
    # The quick preset has one seed: no interval, so the claims that need one cannot be judged, and say so.
    path = tmp_path / "one.json"
    path.write_text(json.dumps(_subset(committed, [0])))
    verdicts = claims.verdicts(path)
    assert verdicts["rope_a_little_below_alibi"][0] == "cannot judge"
    assert verdicts["sqrt_d_learns_every_seed"][0] == "holds"  # a per-seed count needs no interval
    with pytest.raises(claims.ClaimFailed, match="cannot be judged"):
        claims.check("rope_rises", path)
    assert "cannot be judged from 1 seed" in claims.summary(path)


def test_contradicted_claim_names_its_sentence(committed, tmp_path):
    # Give sinusoidal RoPE's curves: "sinusoidal is clearly worse" must now fail, quoting the sentence.
    fake = copy.deepcopy(committed)
    fake["runs"]["sinusoidal"] = copy.deepcopy(fake["runs"]["rope"])
    path = write(tmp_path, fake, reseal=True)
    with pytest.raises(claims.ClaimFailed) as err:
        claims.check("sin_worse_in_distribution", path=path)
    assert claims.CLAIMS["sin_worse_in_distribution"].text["zh"] in str(err.value)


def test_claims_refuse_an_edited_file(committed, tmp_path):
    fake = copy.deepcopy(committed)
    fake["runs"]["rope"][0]["position_loss"][0] = 0.0
    with pytest.raises(claims.ClaimFailed, match="edited"):
        claims.results(write(tmp_path, fake, reseal=False))


# --- intervals over seeds (posenc/experiment/stats.py) ------------------------------------------------


def test_interval_is_students_t_from_a_printed_table():
    # Student's t table (e.g. NIST/SEMATECH e-Handbook, table 1.3.6.7.2): t(0.975, 2) = 4.303, t(0.975, 7) = 2.365.
    est = stats.Estimate.of([1.0, 2.0, 3.0])  # mean 2, sd 1
    assert est.mean == 2.0 and est.half_width == pytest.approx(4.303 / math.sqrt(3), abs=1e-3)
    est8 = stats.Estimate.of([0.0, 1.0] * 4)  # sd = sqrt(8/7 · 0.25)
    assert est8.half_width == pytest.approx(2.365 * math.sqrt(2 / 7) / math.sqrt(8), abs=1e-3)
    assert (est.low, est.high) == pytest.approx((2.0 - est.half_width, 2.0 + est.half_width))


def test_interval_words_need_the_whole_interval():
    est = stats.Estimate.of([0.12, 0.15, 0.13, 0.14])  # about 0.135 ± 0.02
    assert est.above(stats.CLEARLY) and not est.above(0.12) and est.below(0.2) and not est.inside(stats.SAME)
    near_zero = stats.Estimate.of([-0.01, 0.02, 0.0, 0.01])
    assert near_zero.inside(stats.SAME) and not near_zero.above(0.0) and not near_zero.below(0.0)


def test_a_two_group_method_is_judged_seed_by_seed(committed, tmp_path):
    # Unscaled sinusoidal's seeds split into two groups, where a mean describes neither: "clearly worse" must
    # hold on every seed. One seed of sinusoidal made as good as the learned table breaks it, though the
    # mean difference over the 16 seeds would still clear the margin by far.
    assert "sinusoidal" in claims.TWO_GROUPS
    fake = copy.deepcopy(committed)
    fake["runs"]["sinusoidal"][0] = copy.deepcopy(fake["runs"]["learned"][0])
    path = write(tmp_path, fake, reseal=True)
    assert claims.in_distribution("sinusoidal", True, path).mean() - claims.in_distribution("learned", True, path).mean() > 0.5
    ok, detail = claims.evaluate("sin_worse_in_distribution", path)
    assert not ok and "every seed in" in detail


def test_a_seed_range_needs_every_seed_beyond_the_margin():
    r = stats.SeedRange.of([0.54, 0.79, 0.6])
    assert (r.smallest, r.largest) == (0.54, 0.79)
    assert r.above(stats.CLEARLY) and not r.above(0.6) and r.below(0.8) and not r.inside(stats.SAME)
    assert stats.SeedRange.of([-0.03, 0.04]).inside(stats.SAME) and not stats.SeedRange.of([-0.03, 0.06]).inside(stats.SAME)
    with pytest.raises(stats.TooFewSeeds, match="at least 2 seeds"):
        stats.SeedRange.of([0.5])


def test_interval_refuses_one_seed_and_non_finite_values():
    with pytest.raises(stats.TooFewSeeds, match="at least 2 seeds"):
        stats.Estimate.of([4.9])
    with pytest.raises(ValueError, match="finite"):
        stats.Estimate.of([4.9, float("nan")])


# --- every claim fails when its condition breaks ------------------------------------
# One sealed fake per claim, each breaking exactly one condition of the claim's helper: overlapping
# seeds with far-apart means, a rise on one seed only, a negative gap, a recovery that does not hold.


def _add(values: list, lo: int, hi: int | None, delta: float) -> None:
    assert lo >= 0
    for i in range(lo, len(values) if hi is None else hi):
        values[i] += delta


def _set_mean(values: list, lo: int, hi: int | None, target: float) -> None:
    """Shift values[lo:hi] so their mean is ``target`` (the shape stays)."""
    hi = len(values) if hi is None else hi
    _add(values, lo, hi, target - float(np.mean(values[lo:hi])))


def _run(r, method, seed=0):
    return r["runs"][method][seed]


def _ext(r, variant, seed=0):
    return r["extension"][variant][seed]


def _flatten_beyond(values: list) -> None:
    _set_mean(values, 128, None, float(np.mean(values[64:128])))


def _unigram(r):
    return r["data"]["unigram_loss"]


def _in(values):
    return float(np.mean(values[:128]))


def _in_seed(r, method, seed, target):
    _set_mean(_run(r, method, seed)["position_loss"], 0, 128, target)


def _all_seeds(r, method, fn):
    for unit in r["runs"][method]:
        fn(unit)


def _ext_all(r, variant, fn):
    for unit in r["extension"][variant]:
        fn(unit)


def _copy_in(r, src, dst):
    """dst's in-distribution loss set to src's on every seed: their paired difference becomes zero."""
    for a, b in zip(r["runs"][src], r["runs"][dst]):
        _set_mean(b["position_loss"], 0, 128, _in(a["position_loss"]))


# One sealed fake per claim, each breaking one condition of the claim: a gap shrunk below the margin its
# words mean, a difference pushed outside the band of "about the same", a count one short of "most".
BREAKS = {
    "nope_beats_unigram": lambda r: _all_seeds(r, "nope", lambda u: _set_mean(u["position_loss"], 0, 128, _unigram(r) - 0.05)),
    "sin_worse_in_distribution": lambda r: _copy_in(r, "learned", "sinusoidal"),
    "sin_stalls_on_most_seeds": lambda r: _all_seeds(r, "sinusoidal", lambda u: _add(u["position_loss"], 0, None, -0.3)),
    "sqrt_d_learns_every_seed": lambda r: _in_seed(r, "sinusoidal_scaled", 1, _unigram(r)),
    "sqrt_d_gap_is_clear": lambda r: _copy_in(r, "sinusoidal", "sinusoidal_scaled"),
    "sin_scaled_ahead_of_learned_and_nope": lambda r: _copy_in(r, "learned", "sinusoidal_scaled"),
    "learned_a_little_worse_than_nope": lambda r: _all_seeds(r, "learned", lambda u: _add(u["position_loss"], 0, 128, 0.3)),
    "sin_scaled_rises": lambda r: _all_seeds(r, "sinusoidal_scaled", lambda u: _flatten_beyond(u["position_loss"])),
    "learned_rises_less": lambda r: _all_seeds(r, "learned", lambda u: _flatten_beyond(u["position_loss"])),
    "nope_rises_slightly_past_train_len": lambda r: _all_seeds(r, "nope", lambda u: _add(u["position_loss"], 128, None, 0.2)),
    "early_positions_higher": lambda r: _all_seeds(r, "nope", lambda u: _set_mean(u["position_loss"], 0, 8, float(np.mean(u["position_loss"][64:128])))),
    "lesson3_methods_beat_unigram": lambda r: _in_seed(r, "learned", 2, _unigram(r) - 0.05),
    "sin_slightly_above_unigram_half_way": lambda r: _all_seeds(r, "sinusoidal", lambda u: _add(u["val_curve"], 7, 8, -0.3)),  # step 200 = 8th point
    "others_below_unigram_half_way": lambda r: _all_seeds(r, "nope", lambda u: _add(u["val_curve"], 7, 8, _unigram(r) - u["val_curve"][7])),
    "alibi_falls_slightly_past_train_len": lambda r: _all_seeds(r, "alibi", lambda u: _add(u["position_loss"], 128, None, 0.2)),
    "alibi_beats_additive_beyond": lambda r: _all_seeds(r, "alibi", lambda u: _add(u["position_loss"], 128, None, 0.35)),
    "alibi_beats_nope_in_distribution": lambda r: _copy_in(r, "nope", "alibi"),
    "alibi_ahead_of_sin_scaled_in_distribution": lambda r: _copy_in(r, "sinusoidal_scaled", "alibi"),
    "rope_a_little_below_alibi": lambda r: _all_seeds(r, "alibi", lambda u: _add(u["position_loss"], 0, 128, 0.2)),
    "rope_and_alibi_beat_additive_in_distribution": lambda r: _copy_in(r, "learned", "rope"),
    "rope_rises": lambda r: _all_seeds(r, "rope", lambda u: _flatten_beyond(u["position_loss"])),
    "nope_beats_rope_beyond": lambda r: _all_seeds(r, "nope", lambda u: _add(u["position_loss"], 128, None, 0.5)),
    "alibi_beats_rope_beyond": lambda r: _all_seeds(r, "alibi", lambda u: _add(u["position_loss"], 128, None, 0.5)),
    "ntk_yarn_help_rope_beyond": lambda r: _all_seeds(r, "rope", lambda u: _add(u["rope_scaling"]["ntk"], 128, None, 0.5)),
    "pi_needs_finetuning": lambda r: _all_seeds(r, "rope", lambda u: _set_mean(u["rope_scaling"]["pi"], 0, 128, _in(u["position_loss"]))),
    "pi_worse_beyond_too": lambda r: _all_seeds(r, "rope", lambda u: _add(u["rope_scaling"]["pi"], 128, None, -0.5)),
    "ntk_costs_a_little_in_distribution": lambda r: _all_seeds(r, "rope", lambda u: _add(u["rope_scaling"]["ntk"], 0, 128, 0.15)),
    "yarn_rise_within_same_band": lambda r: _all_seeds(r, "rope", lambda u: _add(u["rope_scaling"]["yarn"], 128, None, 0.2)),
    "yarn_costs_in_distribution": lambda r: _all_seeds(r, "rope", lambda u: _set_mean(u["rope_scaling"]["yarn"], 0, 128, _in(u["position_loss"]))),
    "yarn_rope_beats_nope_beyond": lambda r: _all_seeds(r, "rope", lambda u: _add(u["rope_scaling"]["yarn"], 128, None, 0.3)),
    "ext_big_base_change_hurts_first": lambda r: [_set_mean(a["position_loss_before"], 0, 128, _in(n["position_loss_before"]))
                                                  for a, n in zip(r["extension"]["abf"], r["extension"]["ntk"])],
    "ext_ntk_slightly_below_yarn_within_pretraining": lambda r: _ext_all(r, "yarn", lambda u: _add(u["in_distribution_curve"], len(u["in_distribution_curve"]) - 1, None, 0.1)),
    # ABF as fast as NTK-aware: its curves copied
    "ext_abf_later_than_ntk_and_yarn": lambda r: [a.__setitem__("in_distribution_curve", list(n["in_distribution_curve"]))
                                  for a, n in zip(r["extension"]["abf"], r["extension"]["ntk"])],
    "ext_pi_not_recovered": lambda r: [_add(u["in_distribution_curve"], len(u["in_distribution_curve"]) - 1, None,
                                            _run(r, "rope", i)["val_curve"][-1] - u["in_distribution_curve"][-1])
                                       for i, u in enumerate(r["extension"]["pi"])],
    "ext_pi_worst_in_new_range": lambda r: _ext_all(r, "pi", lambda u: _add(u["position_loss_after"], 128, 512, -0.2)),
    "ext_control_ties_ntk_slightly_beats_yarn": lambda r: _ext_all(r, "rope", lambda u: _add(u["position_loss_after"], 128, 512, 0.2)),
    "ext_yarn_pi_rise_past_new_length": lambda r: _ext_all(r, "pi", lambda u: _set_mean(u["position_loss_after"], 512, None,
                                                                                          float(np.mean(u["position_loss_after"][256:512])))),
    "ext_others_rise_less_than_yarn": lambda r: _ext_all(r, "abf", lambda u: _add(u["position_loss_after"], 512, None, 0.4)),
    "rope_beats_nope_in_distribution": lambda r: _copy_in(r, "nope", "rope"),
    "partial_within_same_band_of_rope": lambda r: _all_seeds(r, "rope_partial", lambda u: _add(u["position_loss"], 0, 128, 0.2)),
    "partial_beats_nope": lambda r: _copy_in(r, "nope", "rope_partial"),
    "partial_rises_beyond": lambda r: _all_seeds(r, "rope_partial", lambda u: _flatten_beyond(u["position_loss"])),
    "top_three_close_rope_a_little_lowest": lambda r: _all_seeds(r, "rope_partial", lambda u: _add(u["position_loss"], 0, 128, 0.2)),
    "top_three_beat_the_rest": lambda r: _copy_in(r, "sinusoidal_scaled", "rope_partial"),
    "rope_alibi_close_in_distribution": lambda r: _all_seeds(r, "alibi", lambda u: _add(u["position_loss"], 0, 128, 0.2)),
    "top_three_close_in_distribution": lambda r: _all_seeds(r, "rope_partial", lambda u: _add(u["position_loss"], 0, 128, 0.2)),
    "all_but_sin_beat_unigram": lambda r: _in_seed(r, "rope_partial", 1, _unigram(r)),
}


def test_every_claim_has_a_breaking_case():
    assert set(BREAKS) == set(claims.CLAIMS)


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_claim_fails_when_one_condition_breaks(name, committed, tmp_path):
    assert claims.evaluate(name)[0], f"{name} must hold on the committed results for this test to mean anything"
    fake = copy.deepcopy(committed)
    BREAKS[name](fake)
    path = write(tmp_path, fake, reseal=True)
    with pytest.raises(claims.ClaimFailed) as err:
        claims.check(name, path=path)
    assert claims.CLAIMS[name].text["zh"] in str(err.value)


def test_in_distribution_is_the_first_128_positions(committed):
    u = committed["runs"]["rope"][0]
    assert u["val_loss_128"] == pytest.approx(np.mean(u["position_loss"][:128]), abs=1e-5)
    per_seed = claims.in_distribution("rope", per_seed=True)
    assert per_seed[0] == pytest.approx(np.mean(u["position_loss"][:128]))


def test_numbers_match_the_model_and_results():
    from posenc import quantities

    assert claims.parameters("rope") == model.parameter_count(model.build(FULL, "rope", 0))
    assert quantities.text("exp_params_m") == "3.7"
    assert claims.sqrt_d_gap() == pytest.approx(
        claims.in_distribution("sinusoidal") - claims.in_distribution("sinusoidal_scaled")
    )
    assert quantities.value("exp_steps") == 400 and quantities.value("project_train_len") == PROJECT_TRAIN_LEN


def test_figure_data_shapes(committed):
    n_seeds = len(committed["seeds"])
    pos = figures.position_curves()
    assert [c.key for c in pos] == list(config.METHODS)
    assert all(c.mean.shape == (512,) and c.seeds == n_seeds and np.all(c.low <= c.high) for c in pos)
    assert [c.key for c in figures.scaling_curves()] == ["rope", "pi", "ntk", "yarn"]
    assert figures.training_curves()[0].mean.shape == (400,)
    val = figures.final_validation()
    assert [v.key for v in val] == list(config.METHODS) and all(v.x[0] == 399 for v in val)
    rope_val = np.mean([np.mean(u["position_loss"][:128]) for u in committed["runs"]["rope"]])
    assert {v.key: v for v in val}["rope"].mean[0] == pytest.approx(rope_val)
    assert figures.train_length() == 128
    curves = figures.learning_curves()
    assert [c.key for c in curves] == list(config.METHODS)
    assert list(curves[0].x) == list(range(25, 401, 25)) and curves[0].mean.shape == (16,)
    rec = figures.extension_recovery()
    assert [c.key for c in rec] == list(config.EXTENSIONS) and list(rec[0].x) == list(range(0, 101, 10))
    after = figures.extension_positions("after")
    assert all(c.mean.shape == (1024,) and c.seeds == n_seeds for c in after)
    assert figures.extension_length() == 512


def test_moving_average():
    v = np.arange(10.0)
    np.testing.assert_allclose(figures.moving_average(v, 1), v)
    np.testing.assert_allclose(figures.moving_average(np.full(7, 2.5), 4), 2.5)
    np.testing.assert_allclose(figures.moving_average(v, 3)[1:-1], v[1:-1])  # linear data: centred mean = value
    with pytest.raises(ValueError, match="window"):
        figures.moving_average(v, 0)


def test_position_curves_do_not_smooth_across_the_training_length(committed):
    # A step at the training length must stay a step: smoothing never mixes the two sides.
    raw = np.mean([u["position_loss"] for u in committed["runs"]["rope"]], axis=0)  # smoothing is linear
    (c,) = figures.position_curves(methods=("rope",), smooth=32)
    L = figures.train_length()
    np.testing.assert_allclose(c.mean[L - 1], raw[L - 1 - 16 : L].mean(), atol=1e-9)  # left window cut at L
    np.testing.assert_allclose(c.mean[L], raw[L : L + 16].mean(), atol=1e-9)  # right window starts at L
    np.testing.assert_allclose(c.mean[300], raw[300 - 16 : 300 + 16].mean(), atol=1e-9)


def test_lesson5_yarn_numbers_describe_the_scaling_the_model_used():
    # The page says how many pairs YaRN kept, blended and divided by s at this scale;
    # count them from the frequencies the evaluation actually used.
    from posenc import quantities

    r = evaluate.rope_scaling(FULL, "yarn")
    plain = torch.tensor(rope.inverse_frequencies(FULL.head_dim, FULL.rope_base), dtype=torch.float64)
    ratio = (plain / r.inv_freq.double()).numpy()  # 1 = kept, s = divided by s
    s = FULL.scaling_factor
    kept, divided = int(np.sum(np.isclose(ratio, 1.0))), int(np.sum(np.isclose(ratio, s)))
    assert quantities.value("exp_yarn_kept") == kept == 1
    assert quantities.value("exp_yarn_interpolated") == divided
    assert quantities.value("exp_yarn_blended") == len(ratio) - kept - divided
    assert quantities.value("exp_yarn_qk_factor") == pytest.approx(r.attention_factor)
    assert quantities.value("exp_yarn_score_factor") == pytest.approx((0.1 * math.log(s) + 1) ** 2)
    assert quantities.value("exp_fastest_turns") == pytest.approx(FULL.train_len / (2 * math.pi))
