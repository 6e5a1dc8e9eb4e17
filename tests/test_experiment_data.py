"""posenc/experiment/data.py: split, vocabulary, encoding, training windows and their targets, evaluation windows.

Every expected value is counted by hand on a small text or token list.
"""

from __future__ import annotations

import dataclasses
import math

import pytest
import torch
from experiment_tiny import TINY

from posenc.experiment import data


def test_every_kth_record_goes_to_validation():
    records = [f"r{i}" for i in range(10)]
    assert data.split(records, 3) == (["r0", "r1", "r3", "r4", "r6", "r7", "r9"], ["r2", "r5", "r8"])
    assert data.split(records, 2) == (["r0", "r2", "r4", "r6", "r8"], ["r1", "r3", "r5", "r7", "r9"])
    with pytest.raises(ValueError, match="validation_every must be at least 2, got 1"):
        data.split(records, 1)


def test_vocabulary_is_unk_then_most_frequent_ties_by_code_point():
    assert data.build_vocab("cbbbaac", 3) == (data.UNK, "b", "a")  # b ×3, a ×2, c ×2: a before c
    assert data.build_vocab("cbbbaac", 4) == (data.UNK, "b", "a", "c")
    assert data.build_vocab("cbbbaac", 10) == (data.UNK, "b", "a", "c")  # no more characters than the text has
    assert data.build_vocab("ba", 2) == (data.UNK, "a")


def test_encode_maps_unknown_characters_to_unk_and_decode_shows_them():
    vocab = (data.UNK, "天", "地")
    ids = data.encode("天地人天", vocab)
    assert ids.dtype == torch.long and ids.tolist() == [1, 2, 0, 1]
    assert data.decode(ids, vocab) == "天地□天"
    assert data.decode([2, 1], vocab) == "地天"
    empty = data.encode("", vocab)  # still ids (int64), which can index an embedding, not torch's default float
    assert empty.dtype == torch.long and empty.shape == (0,)


def test_load_splits_records_and_builds_the_vocabulary_from_training_text_only():
    text = "\n\n".join(["甲甲乙", "丙", "甲丁", "乙乙", "戊"]) + "\n"
    cfg = dataclasses.replace(TINY, validation_every=2, vocab_size=4)
    ds = data.load(cfg, text)
    # training records 0, 2, 4: 甲甲乙 | 甲丁 | 戊 joined by the record separator; validation 1, 3: 丙 | 乙乙
    # newline ×4, 甲 ×3, then 丁 乙 戊 once each: 丁 (U+4E01) has the lowest code point
    assert ds.vocab == (data.UNK, "\n", "甲", "丁")
    assert data.decode(ds.train, ds.vocab) == "甲甲□\n\n甲丁\n\n□"
    assert data.decode(ds.val, ds.vocab) == "□\n\n□□"
    assert ds.vocab_size == 4


def test_training_windows_and_next_token_targets():
    tok = torch.arange(100, 120)
    x, y = data.windows(tok, torch.tensor([0, 5, 11]), 4)
    assert x.tolist() == [[100, 101, 102, 103], [105, 106, 107, 108], [111, 112, 113, 114]]
    assert y.tolist() == [[101, 102, 103, 104], [106, 107, 108, 109], [112, 113, 114, 115]]


def test_batch_starts_leave_room_for_the_last_target():
    # n tokens, windows of L: a start s needs s + L ≤ n − 1 (the target of the last input), so s ∈ [0, n − L − 1].
    g = torch.Generator().manual_seed(0)
    starts = torch.cat([data.batch_starts(12, 8, 50, g) for _ in range(20)])
    assert starts.min().item() == 0 and starts.max().item() == 12 - 8 - 1
    assert data.batch_starts(12, 8, 7, torch.Generator().manual_seed(3)).shape == (7,)
    data.windows(torch.arange(12), starts, 8)  # every one of them fits


def test_batch_starts_come_from_the_generator_alone():
    a = data.batch_starts(1000, 8, 6, torch.Generator().manual_seed(4))
    torch.manual_seed(123)  # the global generator plays no part
    b = data.batch_starts(1000, 8, 6, torch.Generator().manual_seed(4))
    assert torch.equal(a, b)
    assert torch.equal(a, torch.randint(0, 1000 - 8, (6,), generator=torch.Generator().manual_seed(4)))


def test_batch_starts_need_more_than_one_window():
    with pytest.raises(ValueError, match="only 8 tokens, need more than one window of 8"):
        data.batch_starts(8, 8, 1, torch.Generator())
    assert data.batch_starts(9, 8, 3, torch.Generator()).tolist() == [0, 0, 0]


@pytest.mark.parametrize("n_tokens, want", [
    (17, [0]),  # exactly one window of 16 plus its last target
    (24, [0]),  # seven tokens short of a second
    (25, [0, 8]),  # the second fits exactly
    (90, [0, 8, 16, 24, 32, 40, 48, 56, 64, 72]),  # 72 + 16 = 88 ≤ 89
])
def test_evaluation_windows_every_stride_while_a_whole_window_and_target_fit(n_tokens, want):
    assert data.eval_starts(n_tokens, 16, 8).tolist() == want


def test_evaluation_needs_one_whole_window():
    with pytest.raises(ValueError, match="validation text has 16 tokens, fewer than one window of 16"):
        data.eval_starts(16, 16, 8)


def test_unigram_loss_is_the_validation_cross_entropy_under_smoothed_training_counts():
    vocab = (data.UNK, "a", "b", "c")
    ds = data.Dataset(vocab, torch.tensor([1, 1, 1, 2]), torch.tensor([1, 2, 3]))
    # add-one counts over the 4 ids: <unk> 1, a 4, b 2, c 1 → total 8
    want = -(math.log(4 / 8) + math.log(2 / 8) + math.log(1 / 8)) / 3
    assert data.unigram_loss(ds) == pytest.approx(want, rel=1e-12)


def test_unk_rate_and_uniform_loss():
    assert data.unk_rate(torch.tensor([0, 3, 0, 5])) == 0.5
    assert data.uniform_loss(2048) == pytest.approx(math.log(2048))
