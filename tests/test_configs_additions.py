"""``adds_fields`` entries (a models*.yaml file adding fields to a model defined in another file): the merged
model keeps its identity, and each refusal names the file the bad entry is in, by exact message."""

from __future__ import annotations


import pytest

from posenc import configs
from expect import raises_exactly

FILE = "models_more.yaml"


def field(value, tag="V"):
    return {"value": value, "source": "test", "tag": tag}


@pytest.fixture
def base() -> configs.ModelConfig:
    return configs._parse("toy", {"name": "Toy 8B", "position": "rope", "fields": {
        "context": field(4096), "head_dim": field(128), "rope_theta": field(10_000)}})


def test_an_addition_keeps_the_model_and_adds_its_fields(base):
    merged = configs._add_fields(base, {"adds_fields": True, "fields": {"heads": field(32), "kv_heads": field(8, "V3")}}, FILE)
    assert (merged.key, merged.name, merged.position) == ("toy", "Toy 8B", "rope")
    assert merged.fields == {**base.fields, "heads": configs.Field(32, "test", "V"), "kv_heads": configs.Field(8, "test", "V3")}


@pytest.mark.parametrize("raw, message", [
    ({"adds_fields": True, "name": "x", "position": "rope", "fields": {}},
     f"{FILE}: 'toy' adds fields to a model defined elsewhere, so it may only have 'adds_fields' and 'fields', not name, position"),
    ({"adds_fields": True, "fields": {"heads": field(32, "X")}}, f"{FILE}: toy.heads has tag 'X'; use one of V, V3, U"),
    ({"adds_fields": True, "fields": {"heads": 32}}, f"{FILE}: toy.heads needs value, source and tag"),
    ({"adds_fields": True, "fields": [32]},
     f"{FILE}: model 'toy' has fields that are not a mapping of name → {{value, source, tag}}"),
    ({"adds_fields": True, "fields": {"head_dim": field(64), "context": field(8192)}},
     f"{FILE}: toy.context, head_dim is already defined with its own source; a field is stated once, "
     f"so edit it where it is defined instead"),
])
def test_bad_additions_name_their_file(base, raw, message):
    with raises_exactly(message):
        configs._add_fields(base, raw, FILE)
