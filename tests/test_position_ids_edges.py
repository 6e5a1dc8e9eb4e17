"""Position IDs at their edges: a one-token mask, an empty batch, and integer outputs for a boolean mask
(transformers builds position IDs as LongTensor from ``attention_mask.long().cumsum(-1) - 1``)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from posenc import position_ids as pid


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
