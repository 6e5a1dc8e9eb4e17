"""posenc.learned: learned absolute position tables (GPT-2's wpe, BERT's table) against the config files and torch;
arguments, edges and messages.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
import yaml

from expect import raises_exactly
from posenc import configs, learned, naive


MODELS = Path(__file__).resolve().parent.parent / "posenc" / "data" / "models.yaml"


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


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: naive.raw_index_content_ratio(0, 1.0),
         "p must be at least 1: at position 0 the naive design adds nothing, so the ratio is undefined"),
        (lambda: naive.raw_index_content_ratio(-2, 1.0), "p must be a non-negative integer position, got -2; positions count from 0"),
        (lambda: naive.raw_index_content_ratio(3, -1.0), "content_rms must be a positive finite number, got -1.0"),
        (lambda: naive.raw_index_content_ratios(np.array([2, 0, 1]), 1.0),
         "positions must all be at least 1: at position 0 the naive design adds nothing, so the ratio is undefined"),
        (lambda: naive.raw_index_content_ratios(np.array([1.5]), 1.0),
         "positions must hold integer positions, got non-integer values such as [1.5]"),
        (lambda: naive.raw_index_content_ratios(np.array([1, 2]), 0), "content_rms must be a positive finite number, got 0"),
        (lambda: naive.normalised_index(1), "length must be an integer of at least 2, got 1"),
        (lambda: naive.normalised_index(2.5), "length must be an integer of at least 2, got 2.5"),
        (lambda: naive.normalised_index(True), "length must be an integer of at least 2, got True"),
        (lambda: naive.normalised_value(6, 6), "p must be a position inside the sequence (0 … 5), got 6"),
        (lambda: naive.normalised_value(-1, 6), "p must be a non-negative integer position, got -1; positions count from 0"),
        (lambda: naive.normalised_value(0, 1), "length must be an integer of at least 2, got 1"),
        (lambda: naive.normalised_gap_in_tokens(1.5, 10), "gap must be a number in [0, 1] (a distance on the normalised scale), got 1.5"),
        (lambda: naive.normalised_gap_in_tokens(-0.1, 10), "gap must be a number in [0, 1] (a distance on the normalised scale), got -0.1"),
        (lambda: naive.normalised_gap_in_tokens(True, 10), "gap must be a number in [0, 1] (a distance on the normalised scale), got True"),
        (lambda: naive.normalised_gap_in_tokens("0.5", 10), "gap must be a number in [0, 1] (a distance on the normalised scale), got '0.5'"),
        (lambda: learned.table_parameters(configs.load("llama2_7b")),
         "model 'llama2_7b' uses rope positions, not a learned table; pick a learned-table model such as 'gpt2'"),
        (lambda: learned.has_row(configs.load("gpt2"), -1), "p must be a non-negative integer position, got -1; positions count from 0"),
        (lambda: learned.lookup(np.zeros(3), [0]), "table must be a 2-D array (rows × hidden) with at least one row, got shape (3,)"),
        (lambda: learned.lookup(np.zeros((0, 2)), [0]), "table must be a 2-D array (rows × hidden) with at least one row, got shape (0, 2)"),
        (lambda: learned.lookup(np.zeros((4, 2)), [3, 6, 5]),
         "position 6 has no row: the table has rows 0 … 3; truncate the input to 4 tokens or use a position method that works at any position"),
        (lambda: learned.lookup(np.zeros((4, 2)), [0, -1]),
         "position_ids must be non-negative (positions count from 0), got -1"),
        (lambda: learned.embed(np.zeros((4, 2)), np.zeros((4, 2)), [0, 1], [0]),
         "token_ids and position_ids must have the same shape, got (2,) and (1,); one position per token"),
        (lambda: learned.embed(np.zeros((4, 2)), np.zeros((4, 3)), [0], [0]),
         "token_table and position_table must be 2-D with the same width, got (4, 2) and (4, 3)"),
        (lambda: learned.embed(np.zeros(4), np.zeros((4, 2)), [0], [0]),
         "token_table and position_table must be 2-D with the same width, got (4,) and (4, 2)"),
        (lambda: learned.embed(np.zeros((4, 2)), np.zeros(2), [0], [0]),
         "token_table and position_table must be 2-D with the same width, got (4, 2) and (2,)"),
        (lambda: learned.embed(np.zeros((4, 2)), np.zeros((4, 2)), [2, 9, 4], [0, 1, 2]), "token ID 9 is past the token table's 4 rows"),
        (lambda: learned.embed(np.zeros((4, 2)), np.zeros((4, 2)), [4], [0]), "token ID 4 is past the token table's 4 rows"),
        (lambda: learned.lookup_gradient(4, [0, 4], np.zeros((2, 3))), "position 4 is past the table's 4 rows"),
        (lambda: learned.lookup_gradient(4, [0, 5, 4], np.zeros((3, 3))), "position 5 is past the table's 4 rows"),
        (lambda: learned.lookup_gradient(4, [0, 1], np.zeros((3, 3))), "upstream must have one row per position id (2), got shape (3, 3)"),
        (lambda: learned.lookup_gradient(4, [0, 1], np.zeros(2)), "upstream must have one row per position id (2), got shape (2,)"),
        (lambda: learned.lookup_gradient(4, [0, -1], np.zeros((2, 3))), "position_ids must be non-negative (positions count from 0), got -1"),
        (lambda: learned.rows_with_gradient(8, 9), "train_len (9) exceeds the table's 8 rows; such a sequence cannot even be looked up"),
        (lambda: learned.rows_with_gradient(0, 1), "rows must be a positive integer, got 0"),
        (lambda: learned.rows_with_gradient(8, 0), "train_len must be a positive integer, got 0"),
        (lambda: learned.rows_with_gradient(8, 2, hidden=0), "hidden must be a positive integer, got 0"),
        (lambda: learned.rows_with_gradient(8, 2.0), "train_len must be a positive integer, got 2.0"),
        (lambda: learned.rows_with_gradient(True, 1), "rows must be a positive integer, got True"),
    ],
)
def test_bad_input_messages_name_the_argument_and_the_fix(call, message):
    with raises_exactly(message):
        call()


def test_learned_table_edges():
    gpt2 = configs.load("gpt2")
    assert learned.has_row(gpt2, 1023) and not learned.has_row(gpt2, 1024)
    assert learned.probe_rows(gpt2, []) == []
    table = np.arange(8.0).reshape(4, 2)
    assert learned.lookup(table, [3]).tolist() == [[6.0, 7.0]]
    assert learned.lookup(table, np.array([[0], [3]])).shape == (2, 1, 2)
    np.testing.assert_array_equal(learned.embed(table, table, [3], [3]), [[12.0, 14.0]])
    np.testing.assert_array_equal(learned.lookup_gradient(4, [3, 3], np.ones((2, 1))), [[0], [0], [0], [2]])
    assert learned.rows_with_gradient(5, 5).tolist() == [True] * 5
    assert learned.rows_with_gradient(1, 1, hidden=1).tolist() == [True]  # the smallest table
    touched = learned.rows_with_gradient(6, 2)  # default hidden width and seed
    assert touched.shape == (6,) and touched.tolist() == [True, True, False, False, False, False]
