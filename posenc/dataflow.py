"""The decoder's data flow, stage by stage: tensor shapes, parameters, and where position enters.

One token sequence of length T goes through a decoder-only Transformer (batch left out):

    token and position IDs → token embedding → position added to the input
    → in each of L layers: q/k/v projections → RoPE on q and k → scores q·kᵀ/√d_h (+ a bias)
      → causal mask → softmax → weighted sum of v and output projection → feed-forward layer
    → final norm and output layer (logits)

``stages(model)`` gives each stage's input and output tensors (shapes with the symbol "T" for the
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
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from . import configs, relative, rope
from .configs import Field, ModelConfig
from .formatting import format_value

# The course's lessons in reading order; "all" is the home page's map (every stage).
LESSONS = ("1", "2", "3", "3b", "4", "5", "6", "6b")
STATES = (*LESSONS, "all")

# topic → (the lesson that teaches it, its name on the panel)
TOPICS = {
    "ids": ("1", "token ID 与位置 ID"),
    "embedding": ("1", "词向量"),
    "attention": ("1", "注意力"),
    "causal_mask": ("1", "因果掩码"),
    # the rest of a block (feed-forward layer, norms, output layer): lesson 1 names them as the
    # parts that act on each token alone
    "block": ("1", "前馈层与输出层"),
    "learned": ("2", "可学习位置表"),
    "sinusoidal": ("3", "正弦位置编码"),
    "score_bias": ("3b", "相对位置偏置"),
    "rope": ("4", "RoPE"),
    "rope_scaling": ("5", "RoPE 的频率缩放"),
    "partial_rope": ("6", "部分 RoPE"),
    "nope": ("6", "NoPE"),
    "mrope": ("6b", "M-RoPE"),
}

# (key, name on the panel, topic that teaches it, repeated in every layer)
STAGES = (
    ("ids", "token 与位置编号", "ids", False),
    ("embedding", "词向量", "embedding", False),
    ("position", "加位置向量", "learned", False),
    ("qkv", "q、k、v 投影", "attention", True),
    ("rope", "旋转 q、k", "rope", True),
    ("scores", "注意力分数", "attention", True),
    ("mask", "因果掩码", "causal_mask", True),
    ("softmax", "softmax", "attention", True),
    ("output", "加权求和与输出投影", "attention", True),
    ("mlp", "前馈层", "block", True),
    ("logits", "输出层", "block", False),
)
STAGE_KEYS = tuple(s[0] for s in STAGES)

# Position methods: their panel names and the posenc.relative scheme that counts their parameters.
METHODS = {
    "learned": ("可学习位置表", "learned"),
    "sinusoidal": ("正弦位置编码", "sinusoidal"),
    "alibi": ("ALiBi（分数上的偏置）", "alibi"),
    "rope": ("RoPE", "rope"),
    "nope": ("NoPE（不加位置）", "nope"),
    "mrope": ("M-RoPE", "rope"),
}

# The experiment's position methods offered as project models: the kind each one is, and its name on
# the panel (partial RoPE is a RoPE model that turns only part of each head, so it needs its own name).
PROJECT_METHODS = {"nope": "nope", "learned": "learned", "sinusoidal": "sinusoidal", "alibi": "alibi",
                   "rope": "rope", "rope_partial": "rope"}
PROJECT_NAMES = {m: METHODS[k][0] for m, k in PROJECT_METHODS.items()} | {"rope_partial": "部分 RoPE"}
PROJECT_PREFIX = "project_"

# Fields a real model needs on the panel (posenc/data/models*.yaml).
SIZE_FIELDS = ("vocab_size", "hidden", "layers", "heads", "kv_heads", "head_dim", "intermediate_size")
# attention_bias "qkv": q, k and v carry a bias, the output projection none (Qwen2 and Qwen2.5-VL)
BLOCK_FIELDS = {"norm": ("layernorm", "rmsnorm"), "mlp": ("gelu", "swiglu"), "attention_bias": (True, "qkv", False),
                "mlp_bias": (True, False), "tie_word_embeddings": (True, False), "qk_norm": (True, False)}
LAYERNORM, RMSNORM = "layernorm", "rmsnorm"


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
    return frozenset(t for t, (lesson, _) in TOPICS.items() if LESSONS.index(lesson) <= last)


def new_in(state: str) -> frozenset[str]:
    """The topics lesson ``state`` itself teaches (none for ``"all"``)."""
    if _state(state) == "all":
        return frozenset()
    return frozenset(t for t, (lesson, _) in TOPICS.items() if lesson == state)


# --- models -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Model:
    """A model on the panel: its config (sizes, block structure, position fields) and position method."""

    key: str
    name: str
    method: str  # a key of METHODS
    cfg: ModelConfig

    def __getitem__(self, field: str):
        return self.cfg[field]

    @property
    def rotary_fraction(self) -> float:
        return self.cfg.get("rotary_fraction", 1.0)


def _project_config(method: str) -> ModelConfig:
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
    return ModelConfig(f"{PROJECT_PREFIX}{method}", f"本课程的小模型 · {PROJECT_NAMES[method]}", kind, fields)


def model_keys() -> list[str]:
    """The panel's models, in the order it lists them: the project model per method, then the real ones."""
    from . import examples as ex

    return [f"{PROJECT_PREFIX}{m}" for m in ex.DATAFLOW_PROJECT_METHODS] + list(ex.DATAFLOW_MODELS)


@lru_cache(maxsize=None)
def load(key: str) -> Model:
    """A model of the panel by key: ``project_<method>`` (the experiment's model) or a posenc.configs key."""
    if key.startswith(PROJECT_PREFIX):
        method = key[len(PROJECT_PREFIX):]
        if method not in PROJECT_METHODS:
            raise ValueError(f"unknown project model {key!r}; the experiment's methods are "
                             f"{', '.join(PROJECT_PREFIX + m for m in PROJECT_METHODS)}")
        cfg = _project_config(method)
        return Model(key, cfg.name, cfg.position, cfg)
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
    # so its name says so where the panel prints "整个模型 … 个参数"
    name = f"{cfg.name} 语言模型" if cfg.position == "mrope" else cfg.name
    return Model(key, name, cfg.position, cfg)


# --- stages -------------------------------------------------------------------------------------------------

T = "T"  # the sequence length: a symbol, not a number


@dataclass(frozen=True)
class Tensor:
    name: str
    shape: tuple  # ints and "T"


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
        return TOPICS[self.topic][0]


def shape_text(shape) -> str:
    """ "T × 32 × 128": a shape as the panel prints it (thousands separators, × between dims)."""
    return " × ".join(d if d == T else format_value(d, ",") for d in shape)


def _num(v) -> str:
    return format_value(v, ",") if isinstance(v, int) else format_value(v, ",g")


def _norm(m: Model, where: str) -> Part:
    d = m["hidden"]
    if m["norm"] == LAYERNORM:
        return Part(f"{where}的 LayerNorm（增益和偏置）", (2, d))
    return Part(f"{where}的 RMSNorm（增益）", (d,))


def _position_entries(m: Model) -> dict[str, tuple[Entry, ...]]:
    """stage key → the entries of the model's position method there."""
    d, h = m["hidden"], m["heads"]
    if m.method == "learned":
        rows = m["context"]
        return {"position": (Entry("learned", f"加上位置表的第 p 行：表有 {_num(rows)} 行，位置 {_num(rows)} 起查无此行"),)}
    if m.method == "sinusoidal":
        return {"position": (Entry("sinusoidal", f"加上正弦位置编码 PE(p)（base = {_num(m['sin_base'])}）：公式现算，不是参数"),)}
    if m.method == "alibi":
        return {"scores": (Entry("score_bias", f"每个头 h 给分数加 −a_h·(m − n)：{_num(h)} 个头各一个固定斜率，不是参数"),)}
    if m.method == "nope":
        return {}
    pairs = m["head_dim"] // 2
    turned_dims = rope.rotary_dim(m["head_dim"], m.rotary_fraction)
    turned = turned_dims // 2
    theta = _num(m["rope_theta"])
    entries = []
    if m.method == "mrope":
        sec = m["mrope_section"]
        entries.append(Entry("mrope", f"按 mrope_section {sec} 把每个头的 {_num(pairs)} 对分给时间、高、宽三组位置 ID，θ = {theta}"))
    elif turned < pairs:
        # Partial RoPE drops dimensions, not frequencies: the turned dims get the whole fast-to-slow ladder
        # over their own width (transformers: inv_freq over head_dim·partial_rotary_factor), unlike p-RoPE.
        entries.append(Entry("partial_rope", f"每个头 {_num(m['head_dim'])} 维里只转前 {_num(turned_dims)} 维（部分 RoPE）："
                                             f"这 {_num(turned)} 对的频率 ω_i = θ^(−2i/{_num(turned_dims)}) 仍从快到慢铺满，"
                                             f"其余 {_num(m['head_dim'] - turned_dims)} 维不带位置；θ = {theta}"))
    else:
        entries.append(Entry("rope", f"每个头的 {_num(pairs)} 对全部按位置旋转：第 i 对转 p·ω_i，θ = {theta}"))
    sc = m.cfg.get("scaling")
    if sc:
        opt_in = "（默认不开，长输入时在配置里加上）" if m.cfg.get("scaling_opt_in") else ""
        target = m.cfg.get("scaled_context")
        reach = f"，{_num(m['context'])} → {_num(target)} 个 token" if target else ""
        entries.append(Entry("rope_scaling", f"长上下文：按 {sc['rope_type']} 缩放频率，s = {_num(sc['factor'])}{reach}{opt_in}"))
    out = {"rope": tuple(entries)}
    if m.method == "mrope":
        out["ids"] = (Entry("mrope", "每个 token 有三个位置 ID：时间、高、宽（纯文本时三个相同）"),)
    return out


def method_note(m: Model) -> Entry | None:
    """What the panel says about a model whose position enters nowhere (NoPE), else None."""
    if m.method == "nope":
        return Entry("nope", "位置不从任何一处进入：没有位置向量、偏置或旋转，只有因果掩码让 token 分得出先后")
    return None


def position_parameters(m: Model) -> int:
    """Parameters the model's position method adds (posenc.relative.added_parameters: GPT-2's wpe, else 0 here)."""
    return relative.added_parameters(METHODS[m.method][1], m.cfg)


def stages(model: Model | str) -> tuple[Stage, ...]:
    """The model's data flow, one Stage per entry of STAGES, in order."""
    m = load(model) if isinstance(model, str) else model
    d, V, L = m["hidden"], m["vocab_size"], m["layers"]
    H, KV, hd, F = m["heads"], m["kv_heads"], m["head_dim"], m["intermediate_size"]
    entries = _position_entries(m)
    ids_out = Tensor("位置 ID（时间、高、宽）", (3, T)) if m.method == "mrope" else Tensor("位置 ID", (T,))
    x, tok = Tensor("x", (T, d)), Tensor("token ID", (T,))
    q, k, v = Tensor("q", (T, H, hd)), Tensor("k", (T, KV, hd)), Tensor("v", (T, KV, hd))
    scores, weights = Tensor("分数 S", (H, T, T)), Tensor("权重 A", (H, T, T))

    position_parts, position_note = (), "这个模型不在输入上加位置：x 原样通过"
    if m.method == "learned":
        position_parts = (Part("位置表", (m["context"], d)),)
        position_note = ""
    elif m.method == "sinusoidal":
        position_note = "PE 由公式算出，不是可训练的参数"
    if sum(p.count for p in position_parts) != position_parameters(m):
        raise AssertionError(f"{m.key}: the position stage's parts disagree with posenc.relative.added_parameters")

    qkv_parts = [_norm(m, "注意力前"), Part("W_q", (d, H, hd)), Part("W_k", (d, KV, hd)), Part("W_v", (d, KV, hd))]
    if m["attention_bias"] in (True, "qkv"):
        qkv_parts += [Part("b_q", (H, hd)), Part("b_k", (KV, hd)), Part("b_v", (KV, hd))]
    if m["qk_norm"]:
        qkv_parts += [Part("q 的 RMSNorm（各头共用）", (hd,)), Part("k 的 RMSNorm（各头共用）", (hd,))]
    out_parts = [Part("W_o", (H, hd, d))] + ([Part("b_o", (d,))] if m["attention_bias"] is True else [])
    if m["mlp"] == "gelu":
        mlp_parts = [_norm(m, "前馈层前"), Part("W_up", (d, F))] + ([Part("b_up", (F,))] if m["mlp_bias"] else [])
        mlp_parts += [Part("W_down", (F, d))] + ([Part("b_down", (d,))] if m["mlp_bias"] else [])
        mlp_note = f"GELU：{_num(d)} → {_num(F)} → {_num(d)}"
    else:
        if m["mlp_bias"]:  # no model on the panel has one; refuse rather than guess where the biases sit
            raise ValueError(f"model {m.key!r}: a SwiGLU layer with biases is not drawn by the data-flow panel")
        mlp_parts = [_norm(m, "前馈层前"), Part("W_gate", (d, F)), Part("W_up", (d, F)), Part("W_down", (F, d))]
        mlp_note = f"SwiGLU：W_down(silu(W_gate x) ⊙ W_up x)，{_num(d)} → {_num(F)} → {_num(d)}"
    logits_parts = [_norm(m, "最后")] + ([] if m["tie_word_embeddings"] else [Part("输出矩阵", (d, V))])
    logits_note = "输出层与词向量表共用同一张表（权重绑定），不另占参数" if m["tie_word_embeddings"] else ""
    gqa = f"每 {_num(H // KV)} 个 q 头共用一个 k、v 头（GQA）" if KV < H else ""
    ids_note = "tokenizer 把文本切成 T 个 token；位置 ID 是 0, 1, …, T − 1"
    if m.method == "mrope":  # the panel draws the language model only: say where image tokens come from
        ids_note = ("纯文本时三个位置 ID 都是 0, 1, …, T − 1。图片 token 由视觉编码器生成，"
                    "这里只画语言模型这一段：视觉编码器不在图里，它的参数也不算在总数里")

    body = {
        "ids": ((Tensor("文本", ()),), (tok, ids_out), (), ids_note),
        "embedding": ((tok,), (x,), (Part("词向量表", (V, d)),), ""),
        "position": ((x, ids_out) if m.method in ("learned", "sinusoidal") else (x,), (x,), position_parts, position_note),
        "qkv": ((x,), (q, k, v), tuple(qkv_parts), gqa),
        "rope": ((q, k, ids_out), (q, k), (), "") if m.method in ("rope", "mrope") else ((q, k), (q, k), (), "这个模型不转 q、k：它们原样通过"),
        "scores": ((q, k), (scores,), (), f"S = q·kᵀ / √{_num(hd)}，每个头一张 T × T 的表"),
        "mask": ((scores,), (scores,), (), "j > i 的格子填 −∞：每个 token 只看得到自己和前面的 token"),
        "softmax": ((scores,), (weights,), (), "每一行变成和为 1 的权重"),
        "output": ((weights, v), (x,), tuple(out_parts), "各头的 A·v 拼起来再乘 W_o，加回残差"),
        "mlp": ((x,), (x,), tuple(mlp_parts), mlp_note + "，逐个 token 独立作用，加回残差"),
        "logits": ((x,), (Tensor("logits", (T, V)),), tuple(logits_parts), logits_note),
    }
    out = []
    for key, name, topic, per_layer in STAGES:
        ins, outs, parts, note = body[key]
        out.append(Stage(key, name, topic, ins, outs, parts, L if per_layer else 1, entries.get(key, ()), note))
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

FIELD_LABELS = (("vocab_size", "词表大小"), ("hidden", "隐藏维 d"), ("layers", "层数 L"), ("heads", "q 头数"),
                ("kv_heads", "k、v 头数"), ("head_dim", "每头维度"), ("intermediate_size", "前馈层宽度"),
                ("context", "上下文长度"), ("rope_theta", "RoPE 的 θ"))


def browser_export() -> dict:
    """What the data-flow widget shows, as plain JSON (the build writes it to assets/dataflow.json)."""
    from . import examples as ex

    models = []
    for key in model_keys():
        m = load(key)
        note = method_note(m)
        models.append({
            "key": key,
            "name": m.name,
            "method": m.method,
            "method_name": METHODS[m.method][0],
            "layers": m["layers"],
            "total": total_parameters(m),
            "position_parameters": position_parameters(m),
            "note": [note.topic, note.text] if note else None,
            "fields": [[label, m.cfg[f], m.cfg.field(f).tag] for f, label in FIELD_LABELS if f in m.cfg.fields],
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
        "topics": {t: list(v) for t, v in TOPICS.items()},
        "stages": [[key, name, topic, per_layer] for key, name, topic, per_layer in STAGES],
        "start": start,
        "models": models,
    }
