"""The decoder's data flow, stage by stage: tensor shapes, parameters, and where position enters.

One token sequence of length N goes through a decoder-only Transformer (batch left out):

    token and position IDs → token embedding → position added to the input
    → in each of L layers: q/k/v projections → RoPE on q and k → scores q·kᵀ/√d_h (+ a bias)
      → causal mask → softmax → weighted sum of v and output projection → feed-forward layer
    → final norm and output layer (logits)

``stages(model)`` gives each stage's input and output tensors (shapes with the symbol "N" for the
sequence length), its parameters (as named factors, e.g. GPT-2's position table 1,024 × 768) and the
places where the model's position method enters:

    learned, sinusoidal   added to the input after the embedding (Vaswani et al. 2017 §3.5)
    alibi (and T5)        a bias on the scores (Press et al. 2022 §3; Raffel et al. 2020 §2.1)
    rope                  a rotation of q and k inside every layer (Su et al. 2021 §3.4); partial RoPE
                          turns only part of each head (transformers' partial_rotary_factor)
    nope                  nowhere (Kazemnejad et al. 2023): only the causal mask orders the tokens
    mrope                 three position IDs per token (time, height, width), each turning its share
                          of the pairs (Qwen2-VL, Wang et al. 2024 §2.1)

Parameter counts follow the block structure of each model's reference code, read from the model
data (each model's entry in posenc/data/models*.yaml: norm, biases, feed-forward kind, tied output layer,
QK-Norm) and checked against transformers' own modules in tests/test_dataflow.py. The project's
model is the training experiment's (``posenc.examples.PROJECT``), one entry per position method.

Which stages each lesson has taught is ``TOPICS`` (topic → lesson) and ``STAGES`` (stage → topic):
the panel at the top of lesson N shows the stages of lessons ≤ N as learned.

Words. Every name and sentence the panel shows (a stage's, a tensor's, where position enters) comes from
the words table of one language, ``posenc/data/dataflow.yaml`` (Chinese) or ``dataflow.en.yaml``, with
its numbers filled in. A model is loaded in a language (``load(key, "en")``) and everything computed
from it speaks that language; the numbers are the same in every language.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from pathlib import Path

from . import _yaml, configs, relative, rope
from .configs import Field, ModelConfig
from .formatting import LANGUAGES, check_language, format_value

# The course's lessons in reading order; "all" is the home page's map (every stage).
LESSONS = ("1", "2", "3", "3b", "4", "5", "6", "6b")
STATES = (*LESSONS, "all")

# topic → the lesson that teaches it (its name: words table, topic.<topic>)
TOPICS = {
    "ids": "1",
    "embedding": "1",
    "attention": "1",
    "causal_mask": "1",
    # the rest of a block (feed-forward layer, norms, output layer): lesson 1 names them as the
    # parts that act on each token alone
    "block": "1",
    "learned": "2",
    "sinusoidal": "3",
    "score_bias": "3b",
    "rope": "4",
    "rope_scaling": "5",
    "partial_rope": "6",
    "nope": "6",
    "mrope": "6b",
}

# (key, topic that teaches it, repeated in every layer); a stage's name: words table, stage.<key>
STAGES = (
    ("ids", "ids", False),
    ("embedding", "embedding", False),
    ("position", "learned", False),
    ("qkv", "attention", True),
    ("rope", "rope", True),
    ("scores", "attention", True),
    ("mask", "causal_mask", True),
    ("softmax", "attention", True),
    ("output", "attention", True),
    ("mlp", "block", True),
    ("logits", "block", False),
)
STAGE_KEYS = tuple(s[0] for s in STAGES)

# Position methods: the posenc.relative scheme that counts their parameters (a name: words table, method.<method>).
METHODS = {"learned": "learned", "sinusoidal": "sinusoidal", "alibi": "alibi", "rope": "rope", "nope": "nope", "mrope": "rope"}

# The experiment's position methods offered as project models, and the kind each one is (partial RoPE is
# a RoPE model that turns only part of each head; its name: words table, project_model.<method>).
PROJECT_METHODS = {"nope": "nope", "learned": "learned", "sinusoidal": "sinusoidal", "alibi": "alibi",
                   "rope": "rope", "rope_partial": "rope"}
PROJECT_PREFIX = "project_"

# Fields a real model needs on the panel (posenc/data/models*.yaml).
SIZE_FIELDS = ("vocab_size", "hidden", "layers", "heads", "kv_heads", "head_dim", "intermediate_size")
# attention_bias "qkv": q, k and v carry a bias, the output projection none (Qwen2 and Qwen2.5-VL)
BLOCK_FIELDS = {"norm": ("layernorm", "rmsnorm"), "mlp": ("gelu", "swiglu"), "attention_bias": (True, "qkv", False),
                "mlp_bias": (True, False), "tie_word_embeddings": (True, False), "qk_norm": (True, False)}
LAYERNORM, RMSNORM = "layernorm", "rmsnorm"


# --- words --------------------------------------------------------------------------------------------------

WORDS = Path(__file__).resolve().parent / "data"


def words_path(lang: str) -> Path:
    """The words table of ``lang``: posenc/data/dataflow.yaml for Chinese, dataflow.<lang>.yaml for the others."""
    return WORDS / ("dataflow.yaml" if check_language(lang) == LANGUAGES[0] else f"dataflow.{lang}.yaml")


@lru_cache(maxsize=None)
def words(lang: str) -> dict[str, str]:
    """The words table of ``lang``, flattened: "group.key" → text with {name} fields."""
    data = _yaml.load_file(words_path(lang))

    def flatten(mapping: dict, prefix: str = "") -> dict[str, str]:
        flat = {}
        for key, value in mapping.items():
            if isinstance(value, dict):
                flat.update(flatten(value, f"{prefix}{key}."))
            else:
                flat[f"{prefix}{key}"] = str(value)
        return flat

    return flatten(data)


def say(lang: str, key: str, **values) -> str:
    """The text ``key`` of the words table of ``lang``, its {fields} filled with ``values``."""
    table = words(lang)
    if key not in table:
        raise KeyError(f"{words_path(lang).relative_to(WORDS.parent.parent)} has no {key!r}")
    return table[key].format(**values)


def topic_name(topic: str, lang: str = "zh") -> str:
    return say(lang, f"topic.{topic}")


def stage_name(key: str, lang: str = "zh") -> str:
    return say(lang, f"stage.{key}")


# --- lessons ------------------------------------------------------------------------------------------------


def _state(state: str) -> str:
    if state not in STATES:
        raise ValueError(f"state must be a lesson ({', '.join(LESSONS)}) or 'all' (the home page), got {state!r}")
    return state


def taught(state: str) -> frozenset[str]:
    """The topics taught by the end of lesson ``state`` (``"all"``: every topic)."""
    if _state(state) == "all":
        return frozenset(TOPICS)
    last = LESSONS.index(state)
    return frozenset(t for t, lesson in TOPICS.items() if LESSONS.index(lesson) <= last)


def new_in(state: str) -> frozenset[str]:
    """The topics lesson ``state`` itself teaches (none for ``"all"``)."""
    if _state(state) == "all":
        return frozenset()
    return frozenset(t for t, lesson in TOPICS.items() if lesson == state)


# --- models -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Model:
    """A model on the panel: its config (sizes, block structure, position fields) and position method, with
    its name and the words of its stages in ``lang``."""

    key: str
    name: str
    method: str  # a key of METHODS
    cfg: ModelConfig
    lang: str = LANGUAGES[0]

    def __getitem__(self, field: str):
        return self.cfg[field]

    @property
    def rotary_fraction(self) -> float:
        return self.cfg.get("rotary_fraction", 1.0)


def _project_config(method: str, lang: str) -> ModelConfig:
    """The experiment's model (posenc.examples.PROJECT, which restates PRESETS["full"]) as a ModelConfig.

    The block structure is posenc/experiment/model.py's: nn.LayerNorm (gain and bias), linear layers
    without bias, a GELU feed-forward layer of mlp_ratio × d_model, the output layer tied to the token
    table, no QK-Norm. Tables that run to eval_len (learned rows, ALiBi's bias) have eval_len rows.
    """
    from . import examples as ex

    p = ex.PROJECT
    src = "posenc/experiment/config.py PRESETS['full']"
    code = "posenc/experiment/model.py"
    values = {
        "vocab_size": (p.vocab_size, f"{src} (vocab_size)"),
        "hidden": (p.d_model, f"{src} (d_model)"),
        "layers": (p.n_layers, f"{src} (n_layers)"),
        "heads": (p.n_heads, f"{src} (n_heads)"),
        "kv_heads": (p.n_heads, f"{code} CausalSelfAttention (one k and v head per query head)"),
        "head_dim": (p.head_dim, f"{src} (d_model / n_heads)"),
        "intermediate_size": (p.mlp_ratio * p.d_model, f"{src} (mlp_ratio × d_model)"),
        "context": (p.eval_len, f"{src} (eval_len: PositionModel's tables run to it)"),
        "norm": (LAYERNORM, f"{code} Block (nn.LayerNorm)"),
        "attention_bias": (False, f"{code} CausalSelfAttention (nn.Linear(..., bias=False))"),
        "mlp_bias": (False, f"{code} MLP (nn.Linear(..., bias=False))"),
        "mlp": ("gelu", f"{code} MLP (down(gelu(up(x))))"),
        "tie_word_embeddings": (True, f"{code} PositionModel.forward (F.linear with tok_emb.weight)"),
        "qk_norm": (False, f"{code} CausalSelfAttention"),
    }
    kind = PROJECT_METHODS[method]
    if kind == "rope":
        values["rope_theta"] = (p.rope_base, f"{src} (rope_base)")
        if method == "rope_partial":
            values["rotary_fraction"] = (p.partial_rotary_fraction, f"{src} (partial_rotary_fraction)")
    if kind == "sinusoidal":
        values["sin_base"] = (p.sin_base, f"{src} (sin_base)")
    fields = {k: Field(v, s, "V") for k, (v, s) in values.items()}
    return ModelConfig(f"{PROJECT_PREFIX}{method}", say(lang, f"project_model.{method}"), kind, fields)


def model_keys() -> list[str]:
    """The panel's models, in the order it lists them: the project model per method, then the real ones."""
    from . import examples as ex

    return [f"{PROJECT_PREFIX}{m}" for m in ex.DATAFLOW_PROJECT_METHODS] + list(ex.DATAFLOW_MODELS)


@lru_cache(maxsize=None)
def load(key: str, lang: str = "zh") -> Model:
    """A model of the panel by key: ``project_<method>`` (the experiment's model) or a posenc.configs key;
    its name and its stages' words in ``lang``."""
    check_language(lang)
    if key.startswith(PROJECT_PREFIX):
        method = key[len(PROJECT_PREFIX):]
        if method not in PROJECT_METHODS:
            raise ValueError(f"unknown project model {key!r}; the experiment's methods are "
                             f"{', '.join(PROJECT_PREFIX + m for m in PROJECT_METHODS)}")
        cfg = _project_config(method, lang)
        return Model(key, cfg.name, cfg.position, cfg, lang)
    cfg = configs.load(key)
    if cfg.position not in METHODS:
        raise ValueError(f"model {key!r} uses {cfg.position} positions, which the data-flow panel does not draw; "
                         f"pick one of {', '.join(sorted(METHODS))}")
    for name in SIZE_FIELDS:
        if name not in cfg.fields:
            raise ValueError(f"model {key!r} has no {name!r}; the data-flow panel needs {', '.join(SIZE_FIELDS)} "
                             f"(add them with source and tag to the model's entry in posenc/data/models*.yaml)")
    for name, allowed in BLOCK_FIELDS.items():
        if cfg.get(name) not in allowed:
            raise ValueError(f"model {key!r}: {name} must be one of {', '.join(map(str, allowed))}, got {cfg.get(name)!r} "
                             f"(its entry in posenc/data/models*.yaml)")
    if cfg["heads"] % cfg["kv_heads"]:
        raise ValueError(f"model {key!r}: heads {cfg['heads']} is not a multiple of kv_heads {cfg['kv_heads']}")
    # M-RoPE models are vision-language models; the panel draws and counts their language model only,
    # so its name says so where the panel prints the whole model's parameter count
    name = say(lang, "language_model", name=cfg.name) if cfg.position == "mrope" else cfg.name
    return Model(key, name, cfg.position, cfg, lang)


# --- stages -------------------------------------------------------------------------------------------------

LENGTH = "N"  # the sequence length, written N as in the lessons: a symbol, not a number


@dataclass(frozen=True)
class Tensor:
    name: str
    shape: tuple  # ints and "N"


@dataclass(frozen=True)
class Part:
    """Parameters of one weight: their count is the product of the factors (1,024 × 768)."""

    name: str
    factors: tuple[int, ...]

    @property
    def count(self) -> int:
        return math.prod(self.factors)


@dataclass(frozen=True)
class Entry:
    """Where and how position enters at a stage, and the topic (so the lesson) that teaches it."""

    topic: str
    text: str


@dataclass(frozen=True)
class Stage:
    key: str
    name: str
    topic: str
    inputs: tuple[Tensor, ...]
    outputs: tuple[Tensor, ...]
    parts: tuple[Part, ...]  # per layer where ``repeat`` > 1
    repeat: int  # 1, or the number of layers
    entries: tuple[Entry, ...]  # position entering here (empty: none)
    note: str = ""

    @property
    def per_copy(self) -> int:
        return sum(p.count for p in self.parts)

    @property
    def parameters(self) -> int:
        return self.per_copy * self.repeat

    @property
    def lesson(self) -> str:
        return TOPICS[self.topic]


def shape_text(shape) -> str:
    """ "N × 32 × 128": a shape as the panel prints it (thousands separators, × between dims)."""
    return " × ".join(d if d == LENGTH else format_value(d, ",") for d in shape)


def _num(v) -> str:
    return format_value(v, ",") if isinstance(v, int) else format_value(v, ",g")


def _norm(m: Model, where: str) -> Part:
    """The norm before attention, before the feed-forward layer or at the end (``where``: a key of norm_at)."""
    d = m["hidden"]
    at = say(m.lang, f"norm_at.{where}")
    if m["norm"] == LAYERNORM:
        return Part(say(m.lang, "part.layernorm", where=at), (2, d))
    return Part(say(m.lang, "part.rmsnorm", where=at), (d,))


def _position_entries(m: Model) -> dict[str, tuple[Entry, ...]]:
    """stage key → the entries of the model's position method there."""
    lang = m.lang
    if m.method == "learned":
        return {"position": (Entry("learned", say(lang, "entry.learned", rows=_num(m["context"]))),)}
    if m.method == "sinusoidal":
        return {"position": (Entry("sinusoidal", say(lang, "entry.sinusoidal", base=_num(m["sin_base"]))),)}
    if m.method == "alibi":
        return {"scores": (Entry("score_bias", say(lang, "entry.alibi", heads=_num(m["heads"]))),)}
    if m.method == "nope":
        return {}
    pairs = m["head_dim"] // 2
    turned_dims = rope.rotary_dim(m["head_dim"], m.rotary_fraction)
    turned = turned_dims // 2
    theta = _num(m["rope_theta"])
    entries = []
    if m.method == "mrope":
        sec = m["mrope_section"]
        entries.append(Entry("mrope", say(lang, "entry.mrope", section=sec, pairs=_num(pairs), theta=theta)))
    elif turned < pairs:
        # Partial RoPE drops dimensions, not frequencies: the turned dims get the whole fast-to-slow ladder
        # over their own width (transformers: inv_freq over head_dim·partial_rotary_factor), unlike p-RoPE.
        entries.append(Entry("partial_rope", say(lang, "entry.partial_rope", head_dim=_num(m["head_dim"]), turned_dims=_num(turned_dims),
                                                 turned=_num(turned), rest=_num(m["head_dim"] - turned_dims), theta=theta)))
    else:
        entries.append(Entry("rope", say(lang, "entry.rope", pairs=_num(pairs), theta=theta)))
    sc = m.cfg.get("scaling")
    if sc:
        opt_in = say(lang, "entry.rope_scaling_opt_in") if m.cfg.get("scaling_opt_in") else ""
        target = m.cfg.get("scaled_context")
        reach = say(lang, "entry.rope_scaling_reach", context=_num(m["context"]), target=_num(target)) if target else ""
        entries.append(Entry("rope_scaling", say(lang, "entry.rope_scaling", rope_type=say(lang, f"scaling.{sc['rope_type']}"), factor=_num(sc["factor"]),
                                                 reach=reach, opt_in=opt_in)))
    out = {"rope": tuple(entries)}
    if m.method == "mrope":
        out["ids"] = (Entry("mrope", say(lang, "entry.mrope_ids")),)
    return out


def method_note(m: Model) -> Entry | None:
    """What the panel says about a model whose position enters nowhere (NoPE), else None."""
    if m.method == "nope":
        return Entry("nope", say(m.lang, "entry.nope"))
    return None


def position_parameters(m: Model) -> int:
    """Parameters the model's position method adds (posenc.relative.added_parameters: GPT-2's wpe, else 0 here)."""
    return relative.added_parameters(METHODS[m.method], m.cfg)


def stages(model: Model | str) -> tuple[Stage, ...]:
    """The model's data flow, one Stage per entry of STAGES, in order, in the model's language."""
    m = load(model) if isinstance(model, str) else model
    lang = m.lang
    d, V, L = m["hidden"], m["vocab_size"], m["layers"]
    H, KV, hd, F = m["heads"], m["kv_heads"], m["head_dim"], m["intermediate_size"]
    entries = _position_entries(m)
    ids_out = Tensor(say(lang, "tensor.position_ids_3"), (3, LENGTH)) if m.method == "mrope" else Tensor(say(lang, "tensor.position_ids"), (LENGTH,))
    x, tok = Tensor("x", (LENGTH, d)), Tensor("token ID", (LENGTH,))
    q, k, v = Tensor("q", (LENGTH, H, hd)), Tensor("k", (LENGTH, KV, hd)), Tensor("v", (LENGTH, KV, hd))
    scores, weights = Tensor(say(lang, "tensor.scores"), (H, LENGTH, LENGTH)), Tensor(say(lang, "tensor.weights"), (H, LENGTH, LENGTH))

    position_parts, position_note = (), say(lang, "note.position_none")
    if m.method == "learned":
        position_parts = (Part(say(lang, "part.position_table"), (m["context"], d)),)
        position_note = ""
    elif m.method == "sinusoidal":
        position_note = say(lang, "note.position_sinusoidal")
    if sum(p.count for p in position_parts) != position_parameters(m):
        raise AssertionError(f"{m.key}: the position stage's parts disagree with posenc.relative.added_parameters")

    qkv_parts = [_norm(m, "attention"), Part("W_q", (d, H, hd)), Part("W_k", (d, KV, hd)), Part("W_v", (d, KV, hd))]
    if m["attention_bias"] in (True, "qkv"):
        qkv_parts += [Part("b_q", (H, hd)), Part("b_k", (KV, hd)), Part("b_v", (KV, hd))]
    if m["qk_norm"]:
        qkv_parts += [Part(say(lang, "part.q_norm"), (hd,)), Part(say(lang, "part.k_norm"), (hd,))]
    out_parts = [Part("W_o", (H, hd, d))] + ([Part("b_o", (d,))] if m["attention_bias"] is True else [])
    if m["mlp"] == "gelu":
        mlp_parts = [_norm(m, "mlp"), Part("W_up", (d, F))] + ([Part("b_up", (F,))] if m["mlp_bias"] else [])
        mlp_parts += [Part("W_down", (F, d))] + ([Part("b_down", (d,))] if m["mlp_bias"] else [])
        mlp_note = say(lang, "note.gelu", d=_num(d), f=_num(F))
    else:
        if m["mlp_bias"]:  # no model on the panel has one; refuse rather than guess where the biases sit
            raise ValueError(f"model {m.key!r}: a SwiGLU layer with biases is not drawn by the data-flow panel")
        mlp_parts = [_norm(m, "mlp"), Part("W_gate", (d, F)), Part("W_up", (d, F)), Part("W_down", (F, d))]
        mlp_note = say(lang, "note.swiglu", d=_num(d), f=_num(F))
    logits_parts = [_norm(m, "final")] + ([] if m["tie_word_embeddings"] else [Part(say(lang, "part.output_matrix"), (d, V))])
    logits_note = say(lang, "note.tied") if m["tie_word_embeddings"] else ""
    gqa = say(lang, "note.gqa", n=_num(H // KV)) if KV < H else ""
    # the panel draws the language model only: an M-RoPE model's note says where image tokens come from
    ids_note = say(lang, "note.ids_mrope" if m.method == "mrope" else "note.ids")

    body = {
        "ids": ((Tensor(say(lang, "tensor.text"), ()),), (tok, ids_out), (), ids_note),
        "embedding": ((tok,), (x,), (Part(say(lang, "part.embedding_table"), (V, d)),), ""),
        "position": ((x, ids_out) if m.method in ("learned", "sinusoidal") else (x,), (x,), position_parts, position_note),
        "qkv": ((x,), (q, k, v), tuple(qkv_parts), gqa),
        "rope": ((q, k, ids_out), (q, k), (), "") if m.method in ("rope", "mrope") else ((q, k), (q, k), (), say(lang, "note.rope_none")),
        "scores": ((q, k), (scores,), (), say(lang, "note.scores", head_dim=_num(hd))),
        "mask": ((scores,), (scores,), (), say(lang, "note.mask")),
        "softmax": ((scores,), (weights,), (), say(lang, "note.softmax")),
        "output": ((weights, v), (x,), tuple(out_parts), say(lang, "note.output")),
        "mlp": ((x,), (x,), tuple(mlp_parts), say(lang, "note.mlp", layer=mlp_note)),
        "logits": ((x,), (Tensor("logits", (LENGTH, V)),), tuple(logits_parts), logits_note),
    }
    out = []
    for key, topic, per_layer in STAGES:
        ins, outs, parts, note = body[key]
        out.append(Stage(key, stage_name(key, lang), topic, ins, outs, parts, L if per_layer else 1, entries.get(key, ()), note))
    return tuple(out)


def total_parameters(model: Model | str) -> int:
    """Every parameter of the model, the sum over its stages (a tied output layer counted once)."""
    return sum(s.parameters for s in stages(model))


def stage(model: Model | str, key: str) -> Stage:
    if key not in STAGE_KEYS:
        raise ValueError(f"unknown stage {key!r}; stages: {', '.join(STAGE_KEYS)}")
    return next(s for s in stages(model) if s.key == key)


def active(stage_: Stage, state: str) -> bool:
    """Whether the panel for lesson ``state`` shows the stage as learned."""
    return stage_.topic in taught(state)


# --- the browser's copy ----------------------------------------------------------------------------------

# The config fields listed under the panel, in order (their labels: words table, field.<name>).
FIELDS = ("vocab_size", "hidden", "layers", "heads", "kv_heads", "head_dim", "intermediate_size", "context", "rope_theta")


def method_name(m, lang: str = "zh") -> str:
    """The name of ``m``'s position method on the panel: a RoPE model that turns only part of each head is
    partial RoPE (lesson 6), not plain RoPE."""
    partial = m.method == "rope" and rope.rotary_dim(m["head_dim"], m.rotary_fraction) < m["head_dim"]
    return say(lang, "method.partial_rope" if partial else f"method.{m.method}")


def browser_export(lang: str = "zh", source_of=None) -> dict:
    """What the data-flow widget shows, as plain JSON, its words in ``lang`` (the build writes it to
    assets/dataflow.json, and the English to en/assets/dataflow.json); the numbers are the same in every language.

    Each config field is [label, value, tag, link]: ``source_of(model_key, field)`` gives the link to where the field's
    value comes from, or None (the site passes its references page's; posenc knows no pages). The course's own models
    have neither: their numbers are the project's, and the project's numbers carry no tag (docs/index.md, 核实标记)."""
    from . import examples as ex

    models = []
    for key in model_keys():
        m = load(key, lang)
        note = method_note(m)
        models.append({
            "key": key,
            "name": m.name,
            "method": m.method,
            "method_name": method_name(m, lang),
            "layers": m["layers"],
            "total": total_parameters(m),
            "position_parameters": position_parameters(m),
            "note": [note.topic, note.text] if note else None,
            "fields": [[say(lang, f"field.{f}"), m.cfg[f]] + ([None, None] if key.startswith(PROJECT_PREFIX) else
                                                              [m.cfg.field(f).tag, source_of(key, f) if source_of else None])
                       for f in FIELDS if f in m.cfg.fields],
            "stages": {
                s.key: {
                    "inputs": [[t.name, list(t.shape)] for t in s.inputs],
                    "outputs": [[t.name, list(t.shape)] for t in s.outputs],
                    "parts": [[p.name, list(p.factors), p.count] for p in s.parts],
                    "repeat": s.repeat,
                    "parameters": s.parameters,
                    "entries": [[e.topic, e.text] for e in s.entries],
                    "note": s.note,
                }
                for s in stages(m)
            },
        })
    start = dict(ex.DATAFLOW_START)
    for state, key in start.items():
        _state(state)
        if key not in model_keys():
            raise ValueError(f"posenc/examples.py DATAFLOW_START[{state!r}] = {key!r} is not one of the panel's models {model_keys()}")
    return {
        "lessons": list(LESSONS),
        "topics": {t: [lesson, topic_name(t, lang)] for t, lesson in TOPICS.items()},
        "stages": [[key, stage_name(key, lang), topic, per_layer] for key, topic, per_layer in STAGES],
        "start": start,
        "models": models,
    }
