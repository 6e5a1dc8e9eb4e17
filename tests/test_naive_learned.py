"""Lesson 2: the naive index designs and learned position tables, against closed forms and torch."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import configs, learned, naive
from posenc import quantities as numbers

MODELS = Path(__file__).resolve().parent.parent / "posenc" / "data" / "models.yaml"


# --- ① add the raw index ---------------------------------------------------------------------


def test_raw_index_ratio_at_the_lesson_probe():
    # content RMS over the added index p: at p = 37, 1/37 and 0.02/37
    assert naive.raw_index_content_ratio(37, 1.0) == pytest.approx(1 / 37)
    assert naive.raw_index_content_ratio(37, 0.02) == pytest.approx(0.02 / 37)
    assert format(1 / 37, ".1%") == "2.7%" and format(0.02 / 37, ".3%") == "0.054%"
    assert numbers.text("naive_ratio_unit") == "2.7%" and numbers.text("naive_ratio_init") == "0.054%"


@settings(max_examples=50, deadline=None)
@given(ps=st.lists(st.integers(1, 10**6), min_size=1, max_size=20), rms=st.floats(1e-4, 10))
def test_vectorised_ratio_matches_the_scalar_one(ps, rms):
    got = naive.raw_index_content_ratios(np.array(ps), rms)
    np.testing.assert_allclose(got, [naive.raw_index_content_ratio(p, rms) for p in ps], rtol=1e-15)
    assert np.all(np.diff(got[np.argsort(ps)]) <= 0)  # never recovers as p grows


# --- ② squeeze into [0, 1] --------------------------------------------------------------------


@settings(max_examples=50, deadline=None)
@given(length=st.integers(2, 5000))
def test_normalised_index_closed_forms(length):
    v = naive.normalised_index(length)
    assert v[0] == 0 and v[-1] == pytest.approx(1) and v.size == length
    assert naive.normalised_step(length) == pytest.approx(1 / (length - 1))
    assert naive.normalised_gap_in_tokens(naive.normalised_step(length), length) == pytest.approx(1)


def test_same_step_means_different_distances():
    assert naive.normalised_step(6) == pytest.approx(0.2)
    assert naive.normalised_gap_in_tokens(0.2, 101) == pytest.approx(20)
    # generating one more token moves every earlier token: 3/5 → 3/6
    assert naive.normalised_value(3, 6) == pytest.approx(0.6)
    assert naive.normalised_value(3, 7) == pytest.approx(0.5)


# --- learned tables -------------------------------------------------------------------------------


def test_table_parameters_from_the_config_file():
    raw = yaml.safe_load(MODELS.read_text(encoding="utf-8"))  # read independently of posenc.configs
    for key, expected in (("gpt2", 786_432), ("bert_base", 393_216)):  # facts.md §2 (d): 1024×768, 512×768
        f = raw[key]["fields"]
        assert learned.table_parameters(configs.load(key)) == f["context"]["value"] * f["hidden"]["value"] == expected


def test_has_row_boundary():
    gpt2 = configs.load("gpt2")
    assert learned.probe_rows(gpt2, [0, 1, 1023, 1024, 100_000]) == [True, True, True, False, False]
    with pytest.raises(ValueError):
        learned.has_row(gpt2, -1)


def test_lookup_matches_torch_embedding_and_fails_where_torch_fails():
    torch = pytest.importorskip("torch")
    emb = torch.nn.Embedding(16, 4)
    table = emb.weight.detach().numpy()
    ids = np.array([[0, 3, 15], [2, 2, 7]])
    np.testing.assert_allclose(learned.lookup(table, ids), emb(torch.tensor(ids)).detach().numpy())
    with pytest.raises(IndexError, match="index out of range"):
        emb(torch.tensor([16]))
    with pytest.raises(ValueError, match="position 16 has no row"):
        learned.lookup(table, [15, 16])


def test_embed_is_token_row_plus_position_row():
    rng = np.random.default_rng(0)
    te, pe = rng.normal(size=(10, 3)), rng.normal(size=(5, 3))
    tok, pos = np.array([7, 7, 2]), np.array([0, 1, 2])
    h = learned.embed(te, pe, tok, pos)
    for t in range(3):
        np.testing.assert_allclose(h[t], te[tok[t]] + pe[pos[t]])
    assert not np.allclose(h[0], h[1])  # same token, different position, different input


def test_only_rows_seen_in_training_get_gradient():
    touched = learned.rows_with_gradient(64, 10, hidden=4)
    np.testing.assert_array_equal(touched, np.arange(64) < 10)


def test_lookup_gradient_matches_torch_autograd():
    # Reference: nn.Embedding's backward, with repeated and missing positions.
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    pos = np.array([4, 0, 4, 2, 7, 2, 2])
    upstream = rng.normal(size=(len(pos), 5))
    table = torch.nn.Embedding(9, 5)
    (table(torch.tensor(pos)) * torch.tensor(upstream, dtype=torch.float32)).sum().backward()
    np.testing.assert_allclose(learned.lookup_gradient(9, pos, upstream), table.weight.grad.double().numpy(), atol=1e-6)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: naive.raw_index_content_ratio(0, 1.0), "at least 1"),
        (lambda: naive.raw_index_content_ratio(3, -1.0), "positive"),
        (lambda: naive.raw_index_content_ratios(np.array([0, 1]), 1.0), "at least 1"),
        (lambda: naive.raw_index_content_ratios(np.array([1.5]), 1.0), "integer"),
        (lambda: naive.normalised_index(1), "at least 2"),
        (lambda: naive.normalised_value(6, 6), "inside the sequence"),
        (lambda: naive.normalised_gap_in_tokens(1.5, 10), r"\[0, 1\]"),
        (lambda: learned.table_parameters(configs.load("llama2_7b")), "not a learned table"),
        (lambda: learned.lookup(np.zeros(3), [0]), "2-D"),
        (lambda: learned.embed(np.zeros((4, 2)), np.zeros((4, 2)), [0, 1], [0]), "same shape"),
        (lambda: learned.embed(np.zeros((4, 2)), np.zeros((4, 3)), [0], [0]), "same width"),
        (lambda: learned.embed(np.zeros((4, 2)), np.zeros((4, 2)), [9], [0]), "token ID 9"),
        (lambda: learned.rows_with_gradient(8, 9), "exceeds"),
        (lambda: learned.rows_with_gradient(8, 0), "positive"),
        (lambda: learned.lookup_gradient(4, [0, 5], np.zeros((2, 3))), "past the table"),
        (lambda: learned.lookup_gradient(4, [0, 1], np.zeros((3, 3))), "one row per position"),
        (lambda: learned.lookup_gradient(4, [0, -1], np.zeros((2, 3))), "negative"),
    ],
)
def test_bad_input_raises_clear_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()
