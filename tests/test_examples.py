"""posenc.examples, the one home of every example parameter: the project model restates the experiment's full preset
field by field, and posenc's functions take the examples as arguments, never as defaults.
"""

from __future__ import annotations

import pytest

from posenc import examples as ex


def test_core_functions_take_no_example_defaults():
    """posenc's math takes the lessons' example values as arguments (posenc/examples.py), never as defaults."""
    import inspect

    from posenc import attention, clock, shift

    for fn, params in ((attention.make_head, ("d", "seed")), (attention.token_vectors, ("d", "seed")),
                       (attention.sentence_input, ("d", "seed")), (attention.attend_padded, ("seed",)),
                       (clock.random_projections, ("seed",)), (shift.scores, ("d", "seed")),
                       (shift.pair_omega, ("index", "d")), (shift.same_vector_scores, ("d",)),
                       (shift.convention_scores, ("d", "seed"))):
        sig = inspect.signature(fn)
        for p in params:
            assert sig.parameters[p].default is inspect.Parameter.empty, f"{fn.__qualname__}({p}=…) has a default"


def test_the_project_model_is_the_experiments_full_preset_field_by_field():
    """posenc.examples restates the preset's fields without importing the experiment; a change there must follow here."""
    import dataclasses

    from posenc.experiment.config import PRESETS

    full = PRESETS["full"]
    for field in dataclasses.fields(ex.PROJECT):
        assert getattr(ex.PROJECT, field.name) == getattr(full, field.name), (
            f"posenc/examples.py PROJECT.{field.name} is {getattr(ex.PROJECT, field.name)!r} but the experiment's "
            f"PRESETS['full'].{field.name} is {getattr(full, field.name)!r}: set it to the preset's value")
    assert ex.PROJECT.head_dim == full.head_dim
    assert (ex.PROJECT_D_MODEL, ex.PROJECT_EMBED_STD, ex.PROJECT_TRAIN_LEN) == (full.d_model, full.embed_std, full.train_len)


def test_each_edition_has_its_own_text_examples_of_the_same_shape():
    """Both editions' pages make the same macro calls (a table with one column per token, the same positions named),
    so an English text has as many tokens as its Chinese counterpart; each swap keeps the sentence's tokens."""
    from posenc import tokenize

    zh, en = ex.texts("zh"), ex.texts("en")
    assert zh.sentence == ex.SENTENCE and zh.swap_main == ex.SWAP_MAIN  # the Chinese edition's are the constants
    for role in ("sentence", "short_sentence", "mix_token"):
        assert len(tokenize.tokens(getattr(en, role))) == len(tokenize.tokens(getattr(zh, role))), role
    for role in ("swap_main", "swap_short", "causal"):
        (zt, zi, zj), (et, ei, ej) = getattr(zh, role), getattr(en, role)
        assert len(et) == len(zt) and 0 <= ei < ej < len(et), role
        assert et[ei] != et[ej], role  # swapping two different words makes a different sentence …
    assert [len(t) for t in en.batch] == [len(t) for t in zh.batch]
    assert en.sentence.count("the") == 2  # … and a repeated token has one ID at two positions (lesson 1's table)
    assert all(w.isascii() and " " not in w for t in (en.sentence, en.short_sentence, en.causal[0]) for w in t)
    with pytest.raises(ValueError, match="TEXTS has zh, en"):
        ex.texts("fr")


def test_no_glossed_chinese_example_on_an_english_page():
    """The English pages quote the English edition's sentences, never the Chinese ones glossed word by word
    ("Xiao Ming hit le Xiao Wang")."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    pages = [*root.glob("docs/*.en.md"), *root.glob("docs/lessons/*.en.md"), root / "figures_src/labels/en.yaml",
             root / "docs/snippets/strings/en.yaml", *root.glob("docs/javascripts/widgets/strings/en/*.js")]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for gloss in (r"\bXiao\b", r"\bMing\b", r"\ble\b(?! ?[mn$}])", r"\bcat eats fish\b", r"one (English )?word per character"):
            assert not re.search(gloss, re.sub(r"\$[^$]*\$|\\le\b", "", text)), (page.name, gloss)
