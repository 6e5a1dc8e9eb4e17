"""Real models' position-related config fields, loaded from ``posenc/data/models.yaml``.

Each field keeps its source and verification tag, so a page that quotes a
config value can say how well it was checked. Loading fails with a clear
message when a model lacks a field its position method needs.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from .facts import TAGS

MODELS_FILE = Path(__file__).parent / "data" / "models.yaml"

# Fields each position method needs; extend when a method needs more.
REQUIRED_FIELDS = {
    "learned": ("context", "hidden"),
}


class UnknownModel(Exception):
    """A model key not in models.yaml (not a KeyError: Jinja would swallow it)."""


@dataclass(frozen=True)
class Field:
    value: Any
    source: str
    tag: str


@dataclass(frozen=True)
class ModelConfig:
    key: str
    name: str
    position: str
    fields: dict[str, Field]

    def __getitem__(self, field: str) -> Any:
        return self.field(field).value

    def field(self, field: str) -> Field:
        if field not in self.fields:
            raise ValueError(f"model {self.key!r} has no field {field!r}; add it with source and tag to {MODELS_FILE.name}")
        return self.fields[field]

    def get(self, field: str, default: Any = None) -> Any:
        return self.fields[field].value if field in self.fields else default


def _parse(key: str, raw: dict) -> ModelConfig:
    for k in ("name", "position", "fields"):
        if k not in raw:
            raise ValueError(f"{MODELS_FILE.name}: model {key!r} lacks {k!r}")
    position = raw["position"]
    if position not in REQUIRED_FIELDS:
        raise ValueError(f"{MODELS_FILE.name}: model {key!r} has position {position!r}; known: {', '.join(REQUIRED_FIELDS)}")
    fields = {}
    for fname, f in raw["fields"].items():
        if not isinstance(f, dict) or not {"value", "source", "tag"} <= set(f):
            raise ValueError(f"{MODELS_FILE.name}: {key}.{fname} needs value, source and tag")
        if f["tag"] not in TAGS:
            raise ValueError(f"{MODELS_FILE.name}: {key}.{fname} has tag {f['tag']!r}; use one of {', '.join(TAGS)}")
        fields[fname] = Field(f["value"], f["source"], f["tag"])
    missing = [f for f in REQUIRED_FIELDS[position] if f not in fields]
    if missing:
        raise ValueError(f"{MODELS_FILE.name}: model {key!r} ({position}) lacks {', '.join(missing)}; add them with source and tag")
    cfg = ModelConfig(key, raw["name"], position, fields)
    _check_consistent(cfg)
    return cfg


def _check_consistent(cfg: ModelConfig) -> None:
    for fname in ("context", "hidden"):
        v = cfg.get(fname)
        if v is not None and (not isinstance(v, int) or v <= 0):
            raise ValueError(f"{MODELS_FILE.name}: {cfg.key}.{fname} must be a positive integer, got {v!r}")


@lru_cache(maxsize=None)
def _all() -> dict[str, ModelConfig]:
    raw = yaml.safe_load(MODELS_FILE.read_text(encoding="utf-8")) or {}
    return {key: _parse(key, entry) for key, entry in raw.items()}


def load(key: str) -> ModelConfig:
    models = _all()
    if key not in models:
        close = difflib.get_close_matches(key, models, n=3)
        hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
        raise UnknownModel(f"unknown model {key!r}.{hint} Known: {', '.join(models)}; add it to {MODELS_FILE.name}.")
    return models[key]


def keys() -> list[str]:
    return list(_all())
