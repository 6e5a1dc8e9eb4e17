"""posenc.examples, the one home of every example parameter: the project model restates the experiment's full preset
field by field, and posenc's functions take the examples as arguments, never as defaults.
"""

from __future__ import annotations

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
