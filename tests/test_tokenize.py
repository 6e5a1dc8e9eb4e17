"""posenc.tokenize: one character is one token, its ID its code point; padding and decoding.
"""

from __future__ import annotations

import numpy as np

from posenc import tokenize


def test_tokenizer_uses_code_points():
    # Code points from the Unicode standard: 小 U+5C0F, 明 U+660E, 猫 U+732B
    np.testing.assert_array_equal(tokenize.token_ids("小明猫"), [0x5C0F, 0x660E, 0x732B])
    assert tokenize.decode(tokenize.token_ids("小明打了小王")) == "小明打了小王"
    assert tokenize.tokens("a b") == ["a", " ", "b"]
    assert tokenize.PAD_ID == 0 and tokenize.decode([0, 0x732B]) == "猫"


def test_decode_edges():
    assert tokenize.decode([]) == ""
    assert tokenize.decode([0x10FFFF, 0]) == chr(0x10FFFF)
    assert tokenize.decode(np.array([0x732B], dtype=np.uint32)) == "猫"
    assert tokenize.token_ids("猫").dtype == np.int64
