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
from posenc.experiment import claims, config, corpus, data, evaluate, figures, model, provenance, run, scalings, train, verify

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


@pytest.mark.skipif(not corpus.installed(), reason="fortunes-zh is not installed (apt-get install fortunes-zh; tools/setup_system.sh does it)")
def test_corpus_rebuilds_from_the_debian_package():
    assert corpus.rebuild() == corpus.CORPUS_SHA256


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
    return json.loads(run.results_path("full").read_text())


def write(tmp_path: Path, results: dict, reseal: bool) -> Path:
    if reseal:
        results["seal_sha256"] = provenance.seal(results)
    path = tmp_path / "full.json"
    path.write_text(json.dumps(results))
    return path


# verify's re-run uses the threads this worker has (tests/conftest.py); 1 and 2 threads agree far inside its tolerance.
def test_verify_passes_on_committed_results():
    report = verify.verify(threads=torch.get_num_threads())
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
    assert claims.RESULTS_FILE == run.results_path("full")
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
    # A sentence no page prints is a test without a reader: delete it or use it.
    assert set(claims.CLAIMS) <= claims_on_pages()


def test_a_stalled_sinusoidal_cannot_pass_as_a_result(committed, tmp_path):
    # The failure the issue warns of: every sinusoidal seed at the character-frequency
    # baseline makes its curve say nothing; "it is clearly worse" would still hold, so
    # the page also states that some seed learned, and that statement must fail here.
    fake = copy.deepcopy(committed)
    u = committed["data"]["unigram_loss"]
    for unit in fake["runs"]["sinusoidal"]:
        unit["position_loss"] = [u] * len(unit["position_loss"])
    path = write(tmp_path, fake, reseal=True)
    assert claims.evaluate("sin_worse_in_distribution", path)[0]
    ok, detail = claims.evaluate("sin_learns_on_some_seed", path)
    assert not ok and "unigram" in detail
    assert claims.stalled_seeds("sinusoidal", path) == committed["seeds"]


def test_contradicted_claim_names_its_sentence(committed, tmp_path):
    # Give sinusoidal RoPE's curves: "sinusoidal is clearly worse" must now fail, quoting the sentence.
    fake = copy.deepcopy(committed)
    fake["runs"]["sinusoidal"] = copy.deepcopy(fake["runs"]["rope"])
    path = write(tmp_path, fake, reseal=True)
    with pytest.raises(claims.ClaimFailed) as err:
        claims.check("sin_worse_in_distribution", path=path)
    assert claims.CLAIMS["sin_worse_in_distribution"].sentence in str(err.value)


def test_claims_refuse_an_edited_file(committed, tmp_path):
    fake = copy.deepcopy(committed)
    fake["runs"]["rope"][0]["position_loss"][0] = 0.0
    with pytest.raises(claims.ClaimFailed, match="edited"):
        claims.results(write(tmp_path, fake, reseal=False))


# --- every claim fails when its condition breaks (issue 21 item 3) ------------------------------------
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


BREAKS = {
    # overlapping seeds, means still far apart: sinusoidal's seed 0 as good as RoPE
    "sin_worse_in_distribution": lambda r: _set_mean(_run(r, "sinusoidal")["position_loss"], 0, 128, _in(_run(r, "rope")["position_loss"])),
    "sin_stalls_on_some_seed": lambda r: [_add(u["position_loss"], 0, None, -0.3) for u in r["runs"]["sinusoidal"]],
    "sin_learns_on_some_seed": lambda r: [_set_mean(u["position_loss"], 0, 128, _unigram(r)) for u in r["runs"]["sinusoidal"]],
    "sqrt_d_learns_every_seed": lambda r: _set_mean(_run(r, "sinusoidal_scaled", 1)["position_loss"], 0, 128, _unigram(r)),
    "sqrt_d_closes_most_of_gap": lambda r: [_add(u["position_loss"], 0, None, 0.7) for u in r["runs"]["sinusoidal_scaled"]],
    "sin_scaled_behind_rope": lambda r: _set_mean(_run(r, "sinusoidal_scaled")["position_loss"], 0, 128, _in(_run(r, "rope")["position_loss"]) - 0.01),
    "sin_scaled_ahead_of_nope_and_learned": lambda r: [_add(u["position_loss"], 0, None, 0.3) for u in r["runs"]["sinusoidal_scaled"]],
    "rope_best_in_distribution": lambda r: _set_mean(_run(r, "alibi")["position_loss"], 0, 128, _in(_run(r, "rope")["position_loss"]) - 0.01),
    # a rise on one seed only
    "rope_and_sin_scaled_rise": lambda r: _flatten_beyond(_run(r, "rope", 1)["position_loss"]),
    "learned_rises_a_little": lambda r: [_add(u["position_loss"], 128, None, 0.5) for u in r["runs"]["learned"]],
    "nope_flat_past_train_len": lambda r: _add(_run(r, "nope")["position_loss"], 128, None, 0.2),
    "early_positions_higher": lambda r: _set_mean(_run(r, "rope")["position_loss"], 0, 8, float(np.mean(_run(r, "rope")["position_loss"][64:128]))),
    "all_but_sin_beat_unigram": lambda r: _set_mean(_run(r, "rope_partial", 1)["position_loss"], 0, 128, _unigram(r)),
    "nope_beats_unigram": lambda r: _set_mean(_run(r, "nope")["position_loss"], 0, 128, _unigram(r)),
    "rope_beats_nope_in_distribution": lambda r: [_add(u["position_loss"], 0, 128, -0.2) for u in r["runs"]["nope"]],
    "nope_beats_rope_beyond": lambda r: [_add(u["position_loss"], 128, None, 0.5) for u in r["runs"]["nope"]],
    "yarn_rope_beats_nope_beyond": lambda r: _add(_run(r, "rope")["rope_scaling"]["yarn"], 128, None, 0.3),
    "ntk_yarn_help_rope_beyond": lambda r: _add(_run(r, "rope")["rope_scaling"]["ntk"], 128, None, 0.5),
    "pi_needs_finetuning": lambda r: [_set_mean(u["rope_scaling"]["pi"], 0, 128, _in(u["position_loss"])) for u in r["runs"]["rope"]],
    "pi_worse_beyond_too": lambda r: [_add(u["rope_scaling"]["pi"], 128, None, -0.5) for u in r["runs"]["rope"]],
    "ntk_keeps_in_distribution": lambda r: _add(_run(r, "rope")["rope_scaling"]["ntk"], 0, 128, 0.15),
    "yarn_flat_past_train_len": lambda r: _add(_run(r, "rope")["rope_scaling"]["yarn"], 128, None, 0.2),
    "yarn_costs_in_distribution": lambda r: [_set_mean(u["rope_scaling"]["yarn"], 0, 128, _in(u["position_loss"])) for u in r["runs"]["rope"]],
    "sin_flat_half_way": lambda r: _add(_run(r, "sinusoidal")["val_curve"], 7, 8, -0.3),  # step 200 = 8th point
    "others_below_unigram_half_way": lambda r: _add(_run(r, "alibi", 1)["val_curve"], 7, 8, _unigram(r) - _run(r, "alibi", 1)["val_curve"][7]),
    "alibi_flat_past_train_len": lambda r: _add(_run(r, "alibi", 1)["position_loss"], 128, None, 0.2),
    "alibi_beats_rope_beyond": lambda r: [_add(u["position_loss"], 128, None, 0.5) for u in r["runs"]["alibi"]],
    "alibi_beats_nope_in_distribution": lambda r: [_add(u["position_loss"], 0, 128, 0.2) for u in r["runs"]["alibi"]],
    # a negative gap on one seed
    "rope_edges_alibi_in_distribution": lambda r: _set_mean(_run(r, "alibi")["position_loss"], 0, 128, _in(_run(r, "rope")["position_loss"]) - 0.01),
    "partial_slightly_behind_rope": lambda r: [_add(u["position_loss"], 0, 128, 0.2) for u in r["runs"]["rope_partial"]],
    "partial_beats_nope": lambda r: [_add(u["position_loss"], 0, 128, 0.3) for u in r["runs"]["rope_partial"]],
    "partial_rises_beyond": lambda r: _flatten_beyond(_run(r, "rope_partial")["position_loss"]),
    "ext_big_base_change_hurts_first": lambda r: [_set_mean(a["position_loss_before"], 0, 128, _in(n["position_loss_before"]))
                                                  for a, n in zip(r["extension"]["abf"], r["extension"]["ntk"])],
    "ext_ntk_yarn_recover": lambda r: _add(_ext(r, "yarn", 1)["in_distribution_curve"], len(_ext(r, "yarn", 1)["in_distribution_curve"]) - 1, None, 0.1),
    # ABF as fast as NTK-aware on one seed: its curve copied
    "ext_abf_slowest": lambda r: _ext(r, "abf", 1).__setitem__("in_distribution_curve", list(_ext(r, "ntk", 1)["in_distribution_curve"])),
    "ext_pi_not_recovered": lambda r: [_add(u["in_distribution_curve"], len(u["in_distribution_curve"]) - 1, None,
                                            _run(r, "rope", i)["val_curve"][-1] - u["in_distribution_curve"][-1])
                                       for i, u in enumerate(r["extension"]["pi"])],
    "ext_pi_worst_in_new_range": lambda r: [_add(u["position_loss_after"], 128, 512, -0.2) for u in r["extension"]["pi"]],
    "ext_control_as_good": lambda r: _add(_ext(r, "rope")["position_loss_after"], 128, 512, 0.2),
    "ext_yarn_pi_rise_past_new_length": lambda r: _set_mean(_ext(r, "yarn")["position_loss_after"], 512, None,
                                                            float(np.mean(_ext(r, "yarn")["position_loss_after"][256:512]))),
    "ext_rope_ntk_abf_flat_past_new_length": lambda r: _add(_ext(r, "abf", 1)["position_loss_after"], 512, None, 0.2),
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
    assert claims.CLAIMS[name].sentence in str(err.value)


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
