"""Real models' position-related config fields, loaded from ``posenc/data/models*.yaml``.

Each field keeps its source and verification tag, so a page that quotes a
config value can say how well it was checked. Loading fails with a clear
message when a model lacks a field its position method needs or when its
fields contradict each other (an odd rotary dim, a YaRN factor that is not
scaled context ÷ native context, ...). ``rope_parameters`` and
``transformers_kwargs`` turn a RoPE model into transformers v5's config form.

Position kinds: ``learned`` (a trained table), ``rope``, ``alibi`` (a fixed
per-head slope on the score, Press et al. 2022), ``t5`` (a learned bias per
distance bucket and head, Raffel et al. 2020), ``mrope`` (RoPE whose pairs
are split between temporal, height and width position IDs, Qwen2-VL) and
``nope`` (no positional encoding in any attention layer: hybrids whose other
layers are linear attention or Mamba, Kimi Linear and Jamba).

One entry per model holds all its fields, in the file of its kind of position
signal (``MODEL_FILES``: models.yaml for learned tables and RoPE, models_relative.yaml
for a bias on the score, models_vl.yaml for M-RoPE); a model in another file, or
defined twice, is an error naming the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

from . import _check, _yaml

from .facts import TAGS, check_translated, translations
from .formatting import check_language

MODELS_FILE = Path(__file__).parent / "data" / "models.yaml"
# Which position kinds each data file holds: one file per kind of position signal.
MODEL_FILES = {
    "models.yaml": ("learned", "rope", "nope"),
    "models_relative.yaml": ("alibi", "t5"),
    "models_vl.yaml": ("mrope",),
}

# Fields each position method needs; extend when a method needs more.
REQUIRED_FIELDS = {
    "learned": ("context", "hidden"),
    # RoPE: native (pre-training) context, the head width RoPE acts on, and the base θ.
    "rope": ("context", "head_dim", "rope_theta"),
    # ALiBi: the training length, and the head count that fixes every slope.
    "alibi": ("context", "heads", "layers"),
    # T5: the bucket table's shape (buckets × heads) and the distance where the last bucket starts.
    "t5": ("heads", "layers", "relative_attention_num_buckets", "relative_attention_max_distance"),
    # M-RoPE: RoPE's fields plus the split of the rotary pairs into temporal/height/width sections.
    "mrope": ("context", "head_dim", "rope_theta", "mrope_section", "spatial_merge_size"),
    # NoPE everywhere: the depth, what the layers that are not softmax attention are (``other_layers``), and
    # the source that no attention layer applies a positional encoding (``no_position_in_attention``, true);
    # which layers are attention comes from full_attention_layers or attention_layer_period/offset.
    "nope": ("layers", "other_layers", "no_position_in_attention"),
}

# What a ``nope`` model's non-attention layers are (posenc.hybrid's layer kinds): linear attention
# (Kimi Linear's KDA, a Gated DeltaNet variant) or Mamba (Jamba).
NOPE_OTHER_LAYERS = ("linear", "mamba")

# Keys a RoPE model's ``scaling`` dict must / may have, per rope_type (transformers v5 names,
# so the dict can be passed to transformers as rope_parameters unchanged).
SCALING_KEYS = {
    "linear": ({"factor"}, set()),
    "dynamic": ({"factor"}, set()),
    "yarn": (
        {"factor", "original_max_position_embeddings"},
        {"beta_fast", "beta_slow", "mscale", "mscale_all_dim", "attention_factor", "truncate"},
    ),
    "llama3": ({"factor", "low_freq_factor", "high_freq_factor", "original_max_position_embeddings"}, set()),
    # Phi-3's configs give no factor: transformers then uses max_position_embeddings ÷ original.
    "longrope": ({"short_factor", "long_factor", "original_max_position_embeddings"}, {"factor", "attention_factor"}),
}

# Integer-valued RoPE fields (counts of tokens, dims or layers).
_ROPE_INT_FIELDS = (
    "head_dim", "max_position_embeddings", "scaled_context", "nope_head_dim",
    "sliding_window", "local_layers_per_global", "full_attention_interval", "layers",
)

# Fields that, wherever they appear (any position kind), must be positive integers:
# sizes the data-flow panel, the layer patterns and the cache arithmetic read.
_POSITIVE_INT_FIELDS = (
    "vocab_size", "layers", "heads", "kv_heads", "head_dim", "intermediate_size", "hidden",
    "nope_layer_interval", "attention_chunk_size", "floor_scale", "attention_layer_period",
    "linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim", "linear_value_head_dim",
    "kv_lora_rank", "q_lora_rank", "v_head_dim", "nope_head_dim",
    "relative_attention_num_buckets", "relative_attention_max_distance", "spatial_merge_size",
)


class UnknownModel(Exception):
    """A model key not in models.yaml (not a KeyError: Jinja would swallow it)."""


@dataclass(frozen=True)
class Field:
    value: Any
    source: str
    tag: str
    # The source in another language's words (``source_en:`` …, one per language after the first), for a source
    # written partly in Chinese: that language's entry on the references page shows it.
    source_translated: dict = dataclass_field(default_factory=dict)

    def source_in(self, lang: str) -> str:
        return self.source_translated.get(check_language(lang), self.source)


@dataclass(frozen=True)
class ModelConfig:
    key: str
    name: str
    position: str
    fields: dict[str, Field]
    file: str = MODELS_FILE.name  # the data file that defines it, for error messages

    def __getitem__(self, field: str) -> Any:
        return self.field(field).value

    def field(self, field: str) -> Field:
        if field not in self.fields:
            raise ValueError(f"model {self.key!r} has no field {field!r}; add it with source and tag to {self.file}")
        return self.fields[field]

    def get(self, field: str, default: Any = None) -> Any:
        return self.fields[field].value if field in self.fields else default


def _parse_fields(key: str, raw_fields, file: str) -> dict[str, Field]:
    if not isinstance(raw_fields, dict):
        raise ValueError(f"{file}: model {key!r} has fields that are not a mapping of name → {{value, source, tag}}")
    fields = {}
    for fname, f in raw_fields.items():
        if not isinstance(f, dict) or not {"value", "source", "tag"} <= set(f):
            raise ValueError(f"{file}: {key}.{fname} needs value, source and tag")
        if f["tag"] not in TAGS:
            raise ValueError(f"{file}: {key}.{fname} has tag {f['tag']!r}; use one of {', '.join(TAGS)}")
        check_translated(f, ("source",), f"{file}: {key}.{fname}")
        fields[fname] = Field(f["value"], f["source"], f["tag"], translations(f, "source"))
    return fields


def _parse(key: str, raw: dict, file: str = MODELS_FILE.name) -> ModelConfig:
    for k in ("name", "position", "fields"):
        if k not in raw:
            raise ValueError(f"{file}: model {key!r} lacks {k!r}")
    position = raw["position"]
    if position not in REQUIRED_FIELDS:
        raise ValueError(f"{file}: model {key!r} has position {position!r}; known: {', '.join(REQUIRED_FIELDS)}")
    fields = _parse_fields(key, raw["fields"], file)
    missing = [f for f in REQUIRED_FIELDS[position] if f not in fields]
    if missing:
        raise ValueError(f"{file}: model {key!r} ({position}) lacks {', '.join(missing)}; add them with source and tag")
    cfg = ModelConfig(key, raw["name"], position, fields, file)
    _check_consistent(cfg)
    return cfg


def _check_consistent(cfg: ModelConfig) -> None:
    for fname in ("context", "hidden"):
        v = cfg.get(fname)
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v <= 0):
            raise ValueError(f"{cfg.file}: {cfg.key}.{fname} must be a positive integer, got {v!r}")
    for fname in _POSITIVE_INT_FIELDS:
        v = cfg.get(fname)
        if v is not None and (not _is_int(v) or v <= 0):
            raise ValueError(f"{cfg.file}: {cfg.key}.{fname} must be a positive integer, got {v!r}; "
                             f"write it without a decimal point")
    _check_heads(cfg)
    _check_layer_pattern(cfg)
    if cfg.position == "rope":
        _check_rope(cfg)
    elif cfg.position == "t5":
        _check_t5(cfg)
    elif cfg.position == "mrope":
        _check_mrope(cfg)
    elif cfg.position == "nope":
        _check_nope(cfg)


def _check_heads(cfg: ModelConfig) -> None:
    where = f"{cfg.file}: {cfg.key}"
    heads, kv = cfg.get("heads"), cfg.get("kv_heads")
    if heads is not None and kv is not None and heads % kv:
        raise ValueError(f"{where}: heads {heads} is not a multiple of kv_heads {kv}; grouped-query attention "
                         f"shares each key/value head among heads ÷ kv_heads query heads, so fix one of them")
    lk, lv = cfg.get("linear_num_key_heads"), cfg.get("linear_num_value_heads")
    if lk is not None and lv is not None and lv % lk:
        raise ValueError(f"{where}: linear_num_value_heads {lv} is not a multiple of linear_num_key_heads {lk} "
                         f"(Gated DeltaNet repeats each query/key head over value heads ÷ key heads)")


def _check_layer_pattern(cfg: ModelConfig) -> None:
    """Fields that say which layers have no RoPE (posenc.hybrid reads them)."""
    where = f"{cfg.file}: {cfg.key}"
    nope_on_full = cfg.get("nope_on_full_attention")
    if nope_on_full is not None:
        if not isinstance(nope_on_full, bool):
            raise ValueError(f"{where}.nope_on_full_attention must be true or false, got {nope_on_full!r}")
        if "local_layers_per_global" not in cfg.fields:
            raise ValueError(f"{where}.nope_on_full_attention needs local_layers_per_global (which layers are full "
                             f"attention); Command R7B: 3 sliding-window layers per full layer")
    if "nope_layer_interval" in cfg.fields and "full_attention_interval" in cfg.fields:
        raise ValueError(f"{where}: nope_layer_interval and full_attention_interval both pick every k-th layer; "
                         f"a model has one pattern, so keep the one its config states")
    chunk = cfg.get("attention_chunk_size")
    if chunk is not None and "nope_layer_interval" not in cfg.fields:
        raise ValueError(f"{where}.attention_chunk_size is given without nope_layer_interval; in Llama 4 the chunked "
                         f"layers are the RoPE layers between the NoPE ones, so add nope_layer_interval")


def _check_t5(cfg: ModelConfig) -> None:
    where = f"{cfg.file}: {cfg.key}"
    buckets, max_distance = cfg["relative_attention_num_buckets"], cfg["relative_attention_max_distance"]
    # Bidirectional (encoder) buckets: half per direction, half of those exact.
    max_exact = buckets // 2 // 2
    if max_exact < 1 or max_distance <= max_exact:
        raise ValueError(f"{where}: relative_attention_max_distance {max_distance} must exceed the exact range "
                         f"{max_exact} of {buckets} buckets (T5: 32 buckets, 128)")
    stacks = cfg.get("bias_tables")
    if stacks is not None and (not _is_int(stacks) or stacks <= 0):
        raise ValueError(f"{where}.bias_tables must be a positive integer (T5: 2, encoder and decoder), got {stacks!r}")


def _check_mrope(cfg: ModelConfig) -> None:
    where = f"{cfg.file}: {cfg.key}"
    for fname in ("head_dim",):
        v = cfg[fname]
        if not _is_int(v) or v <= 0 or v % 2:
            raise ValueError(f"{where}.{fname} must be a positive even integer, got {v!r}")
    theta = cfg["rope_theta"]
    if not _is_num(theta) or theta <= 1:
        raise ValueError(f"{where}.rope_theta must be a number greater than 1, got {theta!r}")
    section = cfg["mrope_section"]
    if (not isinstance(section, list) or len(section) != 3
            or not all(_is_int(s) and s > 0 for s in section)):
        raise ValueError(f"{where}.mrope_section must be three positive integers (temporal, height, width pairs), "
                         f"got {section!r}; Qwen2-VL uses [16, 24, 24]")
    if sum(section) != cfg["head_dim"] // 2:
        raise ValueError(f"{where}: mrope_section {section} sums to {sum(section)} pairs but head_dim "
                         f"{cfg['head_dim']} has {cfg['head_dim'] // 2}; every rotary pair belongs to one section")
    inter = cfg.get("mrope_interleaved")
    if inter is not None and not isinstance(inter, bool):
        raise ValueError(f"{where}.mrope_interleaved must be true or false, got {inter!r}")


def _check_nope(cfg: ModelConfig) -> None:
    """A model without positions: which of its ``layers`` are softmax attention, given one way only."""
    where = f"{cfg.file}: {cfg.key}"
    if cfg["no_position_in_attention"] is not True:
        raise ValueError(f"{where}.no_position_in_attention must be true (with the source that says so); a model whose "
                         f"attention layers turn q and k is a rope model")
    layers, other = cfg["layers"], cfg["other_layers"]
    if other not in NOPE_OTHER_LAYERS:
        raise ValueError(f"{where}.other_layers must be one of {', '.join(NOPE_OTHER_LAYERS)} (what the layers that are "
                         f"not softmax attention are), got {other!r}")
    listed = cfg.get("full_attention_layers")
    period, offset = cfg.get("attention_layer_period"), cfg.get("attention_layer_offset")
    if (listed is None) == (period is None and offset is None):
        raise ValueError(f"{where}: give the attention layers one way, either full_attention_layers (1-based, as Kimi "
                         f"Linear's full_attn_layers) or attention_layer_period and attention_layer_offset (as Jamba's)")
    if listed is not None:
        if (not isinstance(listed, list) or not listed or not all(_is_int(i) for i in listed)
                or listed != sorted(set(listed)) or listed[0] < 1 or listed[-1] > layers):
            raise ValueError(f"{where}.full_attention_layers must be increasing layer numbers from 1 to layers "
                             f"{layers}, got {listed!r}; Kimi Linear 48B: [4, 8, 12, 16, 20, 24, 27]")
        return
    if not (_is_int(period) and _is_int(offset) and period > 0 and 0 <= offset < min(period, layers)):
        raise ValueError(f"{where}: attention_layer_period {period!r} and attention_layer_offset {offset!r} must be "
                         f"integers with 0 ≤ offset < period and offset < layers (Jamba: 8 and 4)")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v and abs(v) != float("inf")


def _check_rope(cfg: ModelConfig) -> None:
    """Checks a RoPE model's fields against each other; each error names model, field and fix."""
    where = f"{cfg.file}: {cfg.key}"
    for fname in _ROPE_INT_FIELDS:
        v = cfg.get(fname)
        if v is not None and (not _is_int(v) or v <= 0):
            raise ValueError(f"{where}.{fname} must be a positive integer, got {v!r}; write it without a decimal point")
    for fname in ("rope_theta", "local_rope_theta"):
        v = cfg.get(fname)
        if v is not None and (not _is_num(v) or v <= 1):
            raise ValueError(f"{where}.{fname} must be a number greater than 1 (the RoPE base θ), got {v!r}; "
                             f"check the config (RoFormer uses 10000)")
    frac = cfg.get("rotary_fraction", 1.0)
    if not _is_num(frac) or not 0 < frac <= 1:
        raise ValueError(f"{where}.rotary_fraction must be in (0, 1] (transformers' partial_rotary_factor), got {frac!r}; "
                         f"omit the field for a full rotary head")
    rdim = int(cfg["head_dim"] * frac)  # as transformers: dim = int(head_dim * partial_rotary_factor)
    if rdim < 2 or rdim % 2:
        raise ValueError(f"{where}: head_dim {cfg['head_dim']} × rotary_fraction {frac} = {rdim} rotary dims, which is not a "
                         f"positive even number (RoPE turns dims in pairs); fix head_dim or rotary_fraction")

    layers, interval = cfg.get("layers"), cfg.get("full_attention_interval")
    if layers is not None and interval is not None and layers % interval:
        raise ValueError(f"{where}: layers {layers} is not a multiple of full_attention_interval {interval}; "
                         f"every interval-th layer is full attention, so fix one of them")

    sc = cfg.get("scaling")
    if sc is None:
        for fname in ("scaled_context", "scaling_opt_in"):
            if fname in cfg.fields:
                raise ValueError(f"{where}.{fname} is given but the model has no scaling dict; add scaling or remove {fname}")
        return
    if not isinstance(sc, dict) or sc.get("rope_type") not in SCALING_KEYS:
        got = sc.get("rope_type") if isinstance(sc, dict) else sc
        raise ValueError(f"{where}.scaling must be a dict whose rope_type is one of {', '.join(SCALING_KEYS)}, got {got!r}")
    kind = sc["rope_type"]
    required, optional = SCALING_KEYS[kind]
    missing = sorted(required - set(sc))
    unknown = sorted(set(sc) - required - optional - {"rope_type"})
    if missing:
        raise ValueError(f"{where}.scaling ({kind}) lacks {', '.join(missing)}; add them (transformers' rope_parameters names)")
    if unknown:
        raise ValueError(f"{where}.scaling ({kind}) has unknown keys {', '.join(unknown)}; "
                         f"allowed: {', '.join(sorted(required | optional))}")
    if kind == "longrope":
        _check_longrope(cfg, sc, where, rdim)
        factor = sc.get("factor") or cfg["max_position_embeddings"] / sc["original_max_position_embeddings"]
    else:
        factor = sc["factor"]
    if not _is_num(factor) or factor < 1:
        raise ValueError(f"{where}.scaling.factor must be a number ≥ 1 (new context ÷ original), got {factor!r}")
    original = sc.get("original_max_position_embeddings")
    if original is not None:
        if not _is_int(original) or original <= 0:
            raise ValueError(f"{where}.scaling.original_max_position_embeddings must be a positive integer, got {original!r}")
        if original != cfg["context"]:
            raise ValueError(f"{where}: scaling.original_max_position_embeddings {original} ≠ context {cfg['context']}; "
                             f"context is the native (pre-training) length, so set one to the other")
    for key in ("beta_fast", "beta_slow", "mscale", "mscale_all_dim", "attention_factor", "low_freq_factor", "high_freq_factor"):
        if key in sc and (not _is_num(sc[key]) or sc[key] <= 0):
            raise ValueError(f"{where}.scaling.{key} must be a positive number, got {sc[key]!r}")
    if "truncate" in sc and not isinstance(sc["truncate"], bool):
        raise ValueError(f"{where}.scaling.truncate must be true or false, got {sc['truncate']!r}")
    if kind == "yarn" and sc.get("beta_fast", 32) < sc.get("beta_slow", 1):
        raise ValueError(f"{where}.scaling: beta_fast {sc.get('beta_fast', 32)} < beta_slow {sc.get('beta_slow', 1)}; "
                         f"beta_fast counts the rotations of the fast pairs and must be the larger (YaRN: 32 and 1)")
    if kind == "llama3" and sc["high_freq_factor"] <= sc["low_freq_factor"]:
        raise ValueError(f"{where}.scaling: high_freq_factor {sc['high_freq_factor']} must exceed low_freq_factor "
                         f"{sc['low_freq_factor']} (Llama 3.1: 4 and 1)")
    scaled = cfg.get("scaled_context")
    # Llama 3's factor is not a context ratio (Llama 3.1 uses factor 8 for 8,192 → 131,072), so only
    # the methods whose factor is defined as new ÷ original context are checked.
    if scaled is not None and kind != "llama3":
        base_len = original if original is not None else cfg["context"]
        if scaled != factor * base_len:
            raise ValueError(f"{where}: scaled_context {scaled} ≠ scaling.factor {factor} × {base_len} = {factor * base_len:g} "
                             f"(the factor is new context ÷ original context); fix the factor or scaled_context")
    opt_in = cfg.get("scaling_opt_in")
    if opt_in is not None and not isinstance(opt_in, bool):
        raise ValueError(f"{where}.scaling_opt_in must be true or false, got {opt_in!r}")


def _check_longrope(cfg: ModelConfig, sc: dict, where: str, rdim: int) -> None:
    """LongRoPE: one positive rescale factor per rotary pair in each list, and a factor or max_position_embeddings."""
    for key in ("short_factor", "long_factor"):
        values = sc[key]
        if (not isinstance(values, list) or len(values) != rdim // 2
                or not all(_is_num(v) and v > 0 for v in values)):
            raise ValueError(f"{where}.scaling.{key} must be a list of {rdim // 2} positive numbers, one per rotary pair "
                             f"({rdim} rotary dims); copy the config's list whole")
    if "factor" not in sc and "max_position_embeddings" not in cfg.fields:
        raise ValueError(f"{where}: a longrope scaling without factor needs max_position_embeddings "
                         f"(s = max_position_embeddings ÷ original_max_position_embeddings, as transformers takes it)")


def rope_parameters(cfg: ModelConfig, layer: str = "global") -> dict:
    """The model's RoPE settings as a transformers v5 ``rope_parameters`` dict.

    ``layer="local"`` gives the sliding-window layers' dict of models with a
    separate local base (Gemma 3), which is unscaled.
    """
    if cfg.position != "rope":
        raise ValueError(f"model {cfg.key!r} uses {cfg.position} positions, not RoPE; pick a RoPE model such as 'qwen3_8b'")
    if layer not in ("global", "local"):
        raise ValueError(f"layer must be 'global' or 'local', got {layer!r}")
    if layer == "local":
        if "local_rope_theta" not in cfg.fields:
            raise ValueError(f"model {cfg.key!r} has no local_rope_theta; layer='local' is for models like 'gemma3_27b'")
        params = {"rope_type": "default", "rope_theta": cfg["local_rope_theta"]}
    else:
        params = dict(cfg.get("scaling") or {"rope_type": "default"})
        params["rope_theta"] = cfg["rope_theta"]
    if "rotary_fraction" in cfg.fields:
        params["partial_rotary_factor"] = cfg["rotary_fraction"]
    return params


def transformers_kwargs(cfg: ModelConfig, layer: str = "global") -> dict:
    """Keyword arguments for a transformers config class (e.g. ``LlamaConfig(**kwargs)``).

    Enough for ``modeling_rope_utils.ROPE_INIT_FUNCTIONS[rope_type](config)``:
    head_dim (the rotary part for MLA models), one head of that width, the
    context the scaling targets as max_position_embeddings, and rope_parameters.
    """
    params = rope_parameters(cfg, layer)  # first: it says clearly when cfg is not a RoPE model
    max_pos = cfg.get("scaled_context") or cfg.get("max_position_embeddings") or cfg["context"]
    return {
        "head_dim": cfg["head_dim"],
        "hidden_size": cfg["head_dim"],
        "num_attention_heads": 1,
        "max_position_embeddings": max_pos,
        "rope_parameters": params,
    }


@lru_cache(maxsize=None)
def _all() -> dict[str, ModelConfig]:
    """Every model in the files of ``MODEL_FILES``, in that order, each checked against its file's position kinds."""
    models: dict[str, ModelConfig] = {}
    where: dict[str, str] = {}
    data = MODELS_FILE.parent
    unknown = sorted(p.name for p in data.glob("models*.yaml") if p.name not in MODEL_FILES)
    if unknown:
        homes = ", ".join(f"{f}: {'/'.join(k)}" for f, k in MODEL_FILES.items())
        raise ValueError(f"{', '.join(unknown)}: not a models file posenc reads; put each model in the file of its position "
                         f"kind ({homes}), or add the file to posenc.configs.MODEL_FILES")
    for name, kinds in MODEL_FILES.items():
        raw = _yaml.load_file(data / name) or {}
        for key, entry in raw.items():
            if key in models:
                raise ValueError(f"model {key!r} is defined twice, in {where[key]} and {name}; keep one entry with all its fields")
            cfg = _parse(key, entry, name)
            if cfg.position not in kinds:
                home = next(f for f, k in MODEL_FILES.items() if cfg.position in k)
                raise ValueError(f"{name}: model {key!r} ({cfg.position}) belongs in {home}, the file of {cfg.position} models")
            models[key], where[key] = cfg, name
    return models


def load(key: str) -> ModelConfig:
    models = _all()
    if key not in models:
        hint = _check.did_you_mean(key, models)
        raise UnknownModel(f"unknown model {key!r}.{hint} Known: {', '.join(models)}; add it to {MODELS_FILE.name}.")
    return models[key]


def keys() -> list[str]:
    return list(_all())


def browser_export(keys: Sequence[str]) -> dict:
    """The fields of the RoPE models ``keys``, in that order, as plain JSON, for the in-page experiments.

    Which models a widget offers is the caller's choice (the scaling explorer's is
    ``posenc.examples.SCALING_EXPLORER_MODELS``), so a model added to the data files does not
    appear in a widget unasked. Values and their verification tags travel together, so a widget
    can label an unverified value the way the prose does.
    """
    if len(set(keys)) != len(keys):
        twice = sorted({k for k in keys if list(keys).count(k) > 1})
        raise ValueError(f"browser_export: {', '.join(twice)} listed twice; list each model once")
    models = []
    for key in keys:
        cfg = load(key)
        if cfg.position != "rope":
            raise ValueError(f"browser_export: model {key!r} is a {cfg.position} model; the in-page experiments "
                             f"take RoPE models only, so remove it from the list")
        entry = {"key": cfg.key, "name": cfg.name}
        entry.update({name: f.value for name, f in cfg.fields.items()})
        entry["tags"] = {name: f.tag for name, f in cfg.fields.items()}
        models.append(entry)
    return {"source": MODELS_FILE.name, "models": models}
