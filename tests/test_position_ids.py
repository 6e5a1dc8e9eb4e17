"""posenc.position_ids: position IDs from attention masks and the left-padding bug; sequence packing; edges.

What the tests compare against, part by part:

- Position IDs at their edges: a one-token mask, an empty batch, and integer outputs for a boolean mask
  (transformers builds position IDs as LongTensor from ``attention_mask.long().cumsum(-1) - 1``).
- Sequence packing: the course's batch packed and counted by hand; transformers' ``DataCollatorWithFlattening``
  (token IDs, document index, position IDs that restart per document) and its ``masking_utils`` (documents found
  again from the restarts, a same-document mask ANDed with the causal one); and attention itself: only the
  document mask together with reset positions gives every document the outputs it has alone.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
import numpy as np
import pytest
import torch

from expect import raises_exactly
from posenc import attention as at
from posenc import position_ids as pid
from posenc import tokenize


def loop_positions(mask, fill=1):
    """The position rule written as a counter: a real token gets the number of real tokens before it."""
    out = []
    for row in np.atleast_2d(mask):
        seen, r = 0, []
        for m in row:
            r.append(seen if m else fill)
            seen += int(m)
        out.append(r)
    return np.array(out).reshape(np.shape(mask))


masks = st.integers(1, 4).flatmap(
    lambda b: st.integers(1, 12).flatmap(lambda n: st.lists(st.lists(st.integers(0, 1), min_size=n, max_size=n), min_size=b, max_size=b))
)


@settings(max_examples=100, deadline=None)
@given(mask=masks, fill=st.integers(0, 5))
def test_from_mask_counts_real_tokens_for_any_padding_pattern(mask, fill):
    m = np.array(mask)
    np.testing.assert_array_equal(pid.from_mask(m, fill), loop_positions(m, fill))
    np.testing.assert_array_equal(pid.from_mask(m.astype(bool), fill), loop_positions(m, fill))
    np.testing.assert_array_equal(pid.from_mask(m[0], fill), loop_positions(m[0], fill))  # 1-D works too


@settings(max_examples=60, deadline=None)
@given(mask=masks)
def test_from_mask_matches_the_transformers_torch_recipe(mask):
    m = torch.tensor(mask)
    ref = m.long().cumsum(-1) - 1
    ref.masked_fill_(m == 0, 1)
    np.testing.assert_array_equal(pid.from_mask(np.array(mask)), ref.numpy())


texts = st.lists(st.text(alphabet="猫吃鱼小明打了王", min_size=1, max_size=8), min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(batch=texts, side=st.sampled_from(["left", "right"]))
def test_real_tokens_count_from_zero_on_either_side(batch, side):
    ids, mask = pid.pad_batch(batch, side)
    pos = pid.from_mask(mask)
    for b, text in enumerate(batch):
        np.testing.assert_array_equal(pos[b][mask[b] == 1], np.arange(len(text)))
        assert tokenize.decode(ids[b]) == text
        pads = ids.shape[1] - len(text)
        # arange ignores the mask: right padding is harmless, left padding pushes every real token by `pads`
        naive_real = pid.naive_position_ids(mask)[b][mask[b] == 1]
        np.testing.assert_array_equal(naive_real, np.arange(len(text)) + (pads if side == "left" else 0))
        assert pid.shift(mask)[b].max() == (pads if side == "left" else 0)


@settings(max_examples=60, deadline=None)
@given(mask=masks, new=st.integers(1, 4))
def test_next_positions_continue_the_count(mask, new):
    m = np.array(mask)
    got = pid.next_position_ids(m, new)
    real = m.sum(axis=-1)
    np.testing.assert_array_equal(got, real[:, None] + np.arange(new)[None, :])


@settings(max_examples=30, deadline=None)
@given(batch=texts.filter(lambda b: len({len(t) for t in b}) > 1), seed=st.integers(0, 1000))
def test_left_padding_is_harmless_only_with_mask_positions(batch, seed):
    head = at.make_head(8, seed)
    ids, mask = pid.pad_batch(batch, "left")
    for b, text in enumerate(batch):
        alone_ids = tokenize.token_ids(text)
        alone = at.attend_padded(alone_ids, np.ones_like(alone_ids), np.arange(len(text)), head, seed)
        right = at.attend_padded(ids[b], mask[b], pid.from_mask(mask[b]), head, seed)
        np.testing.assert_allclose(right, alone, rtol=0, atol=1e-12)
        if len(text) < ids.shape[1]:  # this row has padding, so arange shifts its positions
            wrong = at.attend_padded(ids[b], mask[b], pid.naive_position_ids(mask[b]), head, seed)
            assert np.abs(wrong - alone).max() > 1e-6


def test_format_row():
    assert pid.format_row([0, 1, 2]) == "0 1 2"
    assert pid.format_row([0, 1, 2], [1, 1, 0]) == "0 1 ·"


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: pid.from_mask([1, 2, 0]), "only 0"),
        (lambda: pid.from_mask([[[1]]]), "1-D"),
        (lambda: pid.from_mask([]), "empty"),
        (lambda: pid.from_mask(["1", "0"]), "dtype"),
        (lambda: pid.from_mask([1, 0], fill=-1), "non-negative"),
        (lambda: pid.from_mask([1, 0], fill=1.0), "integer"),
        (lambda: pid.next_position_ids([1, 1], 0), "positive"),
        (lambda: pid.pad_batch(["猫"], side="middle"), "'right' or 'left'"),
        (lambda: pid.pad_batch("猫吃鱼"), "single string"),
        (lambda: pid.pad_batch([]), "empty"),
        (lambda: pid.format_row([0, 1], [1]), "must match"),
        (lambda: tokenize.tokens(""), "empty"),
        (lambda: tokenize.tokens(3), "str"),
        (lambda: tokenize.tokens("a\x00"), "padding"),
        (lambda: tokenize.decode([[1]]), "1-D"),
        (lambda: tokenize.decode([-1]), "code points"),
        (lambda: at.attend_padded([1, 2], [1, 1, 1], [0, 1], at.make_head(8, 7), 7), "same length"),
        (lambda: at.attend_padded([1, 2], [0, 0], [1, 1], at.make_head(8, 7), 7), "no real token"),
    ],
)
def test_bad_input_raises_clear_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: pid.check_mask([[[1]]]), "mask must be 1-D (one sequence) or 2-D (batch × length), got shape (1, 1, 1)"),
        (lambda: pid.check_mask(1), "mask must be 1-D (one sequence) or 2-D (batch × length), got shape ()"),
        (lambda: pid.check_mask([], "attention_mask"), "attention_mask is empty; it needs one entry per token slot"),
        (lambda: pid.check_mask(np.zeros((2, 0))), "mask is empty; it needs one entry per token slot"),
        (lambda: pid.check_mask(["1", "0"]), "mask must hold 0 and 1, got dtype <U1"),
        (lambda: pid.check_mask([1, 2, 3, 4, 5]), "mask must hold only 0 (padding) and 1 (real token), got [2, 3, 4]; "
                                                  "convert with (mask > 0).astype(int) if it holds other truthy values"),
        (lambda: pid.check_mask([0.5, 1.0]), "mask must hold only 0 (padding) and 1 (real token), got [0.5]; "
                                              "convert with (mask > 0).astype(int) if it holds other truthy values"),
        (lambda: pid.from_mask([1, 0], fill=-1), "fill must be a valid (non-negative) row of a position table, got -1; use fill=1"),
        (lambda: pid.from_mask([1, 0], fill=1.0), "fill must be an integer position ID for padded slots, got 1.0; transformers v4 uses fill=1"),
        (lambda: pid.from_mask([1, 0], fill=True), "fill must be an integer position ID for padded slots, got True; transformers v4 uses fill=1"),
        (lambda: pid.next_position_ids([1, 1], 0), "new_tokens must be a positive integer, got 0; pass new_tokens=1 for one step"),
        (lambda: pid.next_position_ids([1, 1], 2.0), "new_tokens must be a positive integer, got 2.0; pass new_tokens=1 for one step"),
        (lambda: pid.next_position_ids([1, 1], True), "new_tokens must be a positive integer, got True; pass new_tokens=1 for one step"),
        (lambda: pid.pad_batch(["猫"], side="middle"), "side must be 'right' or 'left', got 'middle'"),
        (lambda: pid.pad_batch("猫吃鱼"), "texts must be a list of strings, got a single string; wrap it: [text]"),
        (lambda: pid.pad_batch([]), "texts is empty; pass at least one string"),
        (lambda: pid.format_row([[0, 1]]), "row must be 1-D, got shape (1, 2)"),
        (lambda: pid.format_row([0, 1], [1]), "pad_mask has shape (1,) but row has shape (2,); they must match"),
        (lambda: pid.format_row([0, 1], [1, 2]), "pad_mask must hold only 0 (padding) and 1 (real token), got [2]; "
                                                  "convert with (mask > 0).astype(int) if it holds other truthy values"),
        (lambda: tokenize.tokens(3), "text must be a str or a tuple of words, got int; pass e.g. '小明打了小王'"),
        (lambda: tokenize.tokens(()), "text is an empty tuple of words; pass at least one word, e.g. ('cats', 'eat', 'fish')"),
        (lambda: tokenize.tokens(("the dog",)), "a tuple of words must hold non-empty words without spaces, got 'the dog' "
                                                "in ('the dog',); split the text into words, e.g. ('cats', 'eat', 'fish')"),
        (lambda: tokenize.tokens(""), "text is empty; pass at least one character, e.g. '猫吃鱼'"),
        (lambda: tokenize.tokens("猫\x00"), "text contains U+0000, which this tokenizer reserves for padding; remove it"),
        (lambda: tokenize.decode([[1]]), "ids must be a 1-D sequence of token IDs, got shape (1, 1); decode one row at a time"),
        (lambda: tokenize.decode([1.0]), "ids must be integers, got dtype float64"),
        (lambda: tokenize.decode([-1]), "ids must be Unicode code points in 0 … 0x10FFFF (0 = padding)"),
        (lambda: tokenize.decode([0x110000]), "ids must be Unicode code points in 0 … 0x10FFFF (0 = padding)"),
    ],
)
def test_bad_input_messages_name_the_argument_and_the_fix(call, message):
    with raises_exactly(message):
        call()


def test_mask_checks_accept_their_edges():
    assert pid.check_mask(np.array([True, False])).tolist() == [1, 0]
    assert pid.check_mask([1.0, 0.0]).dtype == np.int64
    assert pid.check_mask([[1, 0], [0, 1]]).shape == (2, 2)
    assert pid.from_mask([0, 1, 0], fill=0).tolist() == [0, 0, 0]  # fill 0 is a valid row
    assert pid.from_mask([0, 1]).tolist() == [1, 0]  # transformers v4's fill is 1


def test_naive_ids_are_a_fresh_array_per_row():
    naive = pid.naive_position_ids([[0, 1, 1], [1, 1, 1]])
    assert naive.tolist() == [[0, 1, 2], [0, 1, 2]] and naive.dtype.kind == "i"
    naive[0, 0] = 9  # writable: a copy, not a read-only broadcast view
    assert pid.shift([[0, 1, 1], [1, 1, 0]]).tolist() == [[0, 1, 1], [0, 0, 0]]


def test_next_position_is_one_token_by_default_and_counts_on():
    assert pid.next_position_ids([0, 0, 1, 1]).tolist() == [2]
    assert pid.next_position_ids([[0, 1, 1], [1, 1, 1]], 3).tolist() == [[2, 3, 4], [3, 4, 5]]


def test_pad_batch_pads_with_the_pad_id_on_the_chosen_side():
    ids, mask = pid.pad_batch(["猫", "猫吃鱼"])
    assert ids.tolist() == [[0x732B, 0, 0], [0x732B, 0x5403, 0x9C7C]] and ids.dtype == np.int64
    assert mask.tolist() == [[1, 0, 0], [1, 1, 1]] and mask.dtype == np.int64
    ids, mask = pid.pad_batch(["猫", "猫吃鱼"], side="left", pad_id=7)
    assert ids.tolist()[0] == [7, 7, 0x732B] and mask.tolist()[0] == [0, 0, 1]


def test_format_row_marks_padding():
    assert pid.format_row(np.array([5, 0, 1])) == "5 0 1"
    assert pid.format_row([3, 1, 2], [0, 1, 1]) == "· 1 2"
    assert pid.format_row([3, 1], [0, 1], pad_mark="_") == "_ 1"


# --- edges ---------------------------------------------------------------------------------------------------------


def test_a_boolean_mask_gives_integer_position_ids():
    assert pid.check_mask(np.array([True, False, True])).dtype == np.int64
    ids = pid.from_mask(np.array([[False, True, True], [True, True, True]]))
    assert ids.dtype == np.int64 and ids.tolist() == [[1, 0, 1], [0, 1, 2]]


def test_a_single_token_is_a_mask():
    assert pid.check_mask([1]).tolist() == [1]
    assert pid.from_mask([[1], [0]]).tolist() == [[0], [1]]  # the padded row's slot gets the fill, 1
    assert pid.next_position_ids([1]).tolist() == [1]


@pytest.mark.parametrize("mask", [np.zeros((0, 3)), np.zeros((0,))])
def test_a_batch_without_rows_is_empty(mask):
    # a batch of no rows has no token slots, as does a row of no slots
    with pytest.raises(ValueError, match=f"^{re.escape('mask is empty; it needs one entry per token slot')}$"):
        pid.check_mask(mask)


def test_the_default_name_in_mask_errors_is_mask():
    with pytest.raises(ValueError, match=r"^mask must hold 0 and 1, got dtype <U1$"):
        pid.from_mask(["1"])


# --- sequence packing: hand computation, transformers' collator and mask code, and the attention itself -------------


def test_packing_the_course_batch_by_hand():
    """猫吃鱼 + 小明打了小王 in one row, counted by hand: three slots of document 0, six of document 1."""
    ids, doc = pid.pack(["猫吃鱼", "小明打了小王"])
    assert ids.tolist() == [ord(c) for c in "猫吃鱼小明打了小王"] and ids.dtype == np.int64
    assert doc.tolist() == [0, 0, 0, 1, 1, 1, 1, 1, 1] and doc.dtype == np.int64
    assert pid.packed_position_ids(doc, reset=False).tolist() == [0, 1, 2, 3, 4, 5, 6, 7, 8]
    assert pid.packed_position_ids(doc, reset=True).tolist() == [0, 1, 2, 0, 1, 2, 3, 4, 5]
    mask = pid.document_mask(doc)
    # row m lists the keys query m may see: the earlier slots of its own document, itself included
    assert [np.flatnonzero(row).tolist() for row in mask] == [
        [0], [0, 1], [0, 1, 2], [3], [3, 4], [3, 4, 5], [3, 4, 5, 6], [3, 4, 5, 6, 7], [3, 4, 5, 6, 7, 8]]


docs = st.lists(st.integers(1, 6), min_size=1, max_size=5)  # document lengths


@settings(max_examples=60, deadline=None)
@given(lengths=docs)
def test_reset_positions_match_transformers_flattening_collator(lengths):
    from transformers import DataCollatorWithFlattening

    texts = ["猫吃鱼小明打了王"[:n] for n in lengths]
    features = [{"input_ids": tokenize.token_ids(t).tolist()} for t in texts]
    batch = DataCollatorWithFlattening(return_tensors="np", return_seq_idx=True)(features)
    ids, doc = pid.pack(texts)
    np.testing.assert_array_equal(batch["input_ids"][0], ids)
    np.testing.assert_array_equal(batch["seq_idx"][0], doc)
    np.testing.assert_array_equal(batch["position_ids"][0], pid.packed_position_ids(doc, reset=True))


@settings(max_examples=25, deadline=None)
@given(lengths=docs)
def test_document_mask_matches_transformers_packed_causal_mask(lengths):
    """transformers finds the documents again from the reset position IDs and ANDs a same-document mask with the
    causal one (masking_utils); evaluated cell by cell, it is posenc's document mask."""
    from transformers import masking_utils as mu

    doc = np.repeat(np.arange(len(lengths)), lengths)
    reset = torch.tensor(pid.packed_position_ids(doc, reset=True))[None, :]
    found = mu.find_packed_sequence_indices(reset)
    if found is None:  # transformers' way of saying "one sequence": no document boundary
        assert len(lengths) == 1
        found = torch.zeros_like(reset)
    np.testing.assert_array_equal(found[0].numpy(), doc)
    fn = mu.and_masks(mu.causal_mask_function, mu.packed_sequence_mask_function(found))
    n = doc.size
    ref = np.array([[bool(fn(torch.tensor(0), torch.tensor(0), torch.tensor(m), torch.tensor(k))) for k in range(n)] for m in range(n)])
    np.testing.assert_array_equal(pid.document_mask(doc), ref)


@settings(max_examples=30, deadline=None)
@given(lengths=docs.filter(lambda ls: len(ls) > 1), seed=st.integers(0, 1000))
def test_only_document_mask_and_reset_give_every_document_its_own_outputs(lengths, seed):
    """Attention with lesson 1's added position vectors: each document alone vs inside the packed row."""
    from posenc import sinusoidal

    texts = ["猫吃鱼小明打了王"[i % 3:][:n] for i, n in enumerate(lengths)]
    head = at.make_head(8, seed)
    ids, doc = pid.pack(texts)
    x_tok = at.token_vectors(ids, 8, seed)
    runs = {}
    for reset in (False, True):
        for docmask in (False, True):
            x = x_tok + sinusoidal.table(pid.packed_position_ids(doc, reset), 8)
            mask = pid.document_mask(doc) if docmask else at.causal_mask(ids.size)
            runs[reset, docmask] = at.attend(x, head, mask).out
    for k, text in enumerate(texts):
        alone_ids = tokenize.token_ids(text)
        alone = at.attend(at.token_vectors(alone_ids, 8, seed) + sinusoidal.table(np.arange(alone_ids.size), 8), head,
                          at.causal_mask(alone_ids.size)).out
        rows = doc == k
        np.testing.assert_allclose(runs[True, True][rows], alone, rtol=0, atol=1e-12)
        if k > 0:  # a later document: with a piece missing, its outputs differ from its outputs alone
            for key in [(False, False), (True, False), (False, True)]:
                assert np.abs(runs[key][rows] - alone).max() > 1e-6, (key, texts)
        else:  # the first document sees nothing of the others under any causal mask, at the same positions
            for key in runs:
                np.testing.assert_allclose(runs[key][rows], alone, rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: pid.pack("猫吃鱼"), "texts must be a list of documents, got a single string; wrap it: [text]"),
        (lambda: pid.pack([]), "texts is empty; pass at least one document"),
        (lambda: pid.check_documents([[0, 1]]),
         "doc_ids must be a non-empty 1-D array (one document index per slot of a packed row), got shape (1, 2)"),
        (lambda: pid.check_documents([]),
         "doc_ids must be a non-empty 1-D array (one document index per slot of a packed row), got shape (0,)"),
        (lambda: pid.check_documents([0.0, 1.0]), "doc_ids must hold non-negative integers, got [0.0, 1.0] (dtype float64); use pack(texts)[1]"),
        (lambda: pid.check_documents([0, -1]), "doc_ids must hold non-negative integers, got [0, -1] (dtype int64); use pack(texts)[1]"),
        (lambda: pid.check_documents([0, 1, 0]),
         "doc_ids must not decrease: a packed row holds each document in one contiguous run, got [0, 1, 0]"),
        (lambda: pid.packed_position_ids([0, 1], reset=1),
         "reset must be True (restart at 0 in every document) or False (run on along the row), got 1"),
        (lambda: pid.document_mask([1, 0]),
         "doc_ids must not decrease: a packed row holds each document in one contiguous run, got [1, 0]"),
    ],
)
def test_packing_bad_input_names_the_argument_and_the_fix(call, message):
    with raises_exactly(message):
        call()


def test_one_document_packs_to_itself():
    ids, doc = pid.pack(["猫吃鱼"])
    assert doc.tolist() == [0, 0, 0]
    assert pid.packed_position_ids(doc, reset=True).tolist() == pid.packed_position_ids(doc, reset=False).tolist() == [0, 1, 2]
    np.testing.assert_array_equal(pid.document_mask(doc), at.causal_mask(3))
