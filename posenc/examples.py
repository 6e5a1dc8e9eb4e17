"""Every example parameter the lessons use, lesson by lesson: the one place to change an example.

Quantities (``posenc/quantities/``), figures (``figures_src/``), snippets
(``docs/snippets/``), notebooks (``docs/notebooks/``) and the in-page widgets all
read these. Change one here and the next build changes every page, figure, widget
and notebook that shows it; whatever cannot follow (a JavaScript copy of a default, a
typed copy of an example sentence in prose) fails the build and names the place.

What does NOT live here:

- the math: posenc's functions take these values as explicit arguments, never as
  defaults (a paper's constant such as ``sinusoidal.DEFAULT_BASE`` stays with its formula);
- reported facts and real model configs: ``posenc/data/*.yaml``, with source and tag;
- the training experiment's settings: ``posenc/experiment/config.py``. The lessons describe its
  model, so ``PROJECT`` below restates the fields of its ``PRESETS["full"]`` that pages use, without
  importing the experiment (every lesson's examples would otherwise depend on it);
  tests/test_examples.py fails, naming the field, if one differs from the preset.

Prose quotes a text example with ``{{ example("SENTENCE") }}`` and a number through a
registered quantity (``{{ num("sin_demo_d") }}``). ``WIDGET_DEFAULTS`` at the end is what
each widget starts from; the ``widget()`` macro writes it into the page as data-* attributes.
"""

from __future__ import annotations

from dataclasses import dataclass

from .sinusoidal import DEFAULT_BASE

# === the whole course ================================================================================

# The course's text examples, one set per edition (TEXTS below). Lesson 1 swaps two tokens of SENTENCE,
# lesson 3 shifts it along the positions, lesson 4 shifts it inside attention, lesson 6 counts its tokens
# without positions. The Chinese edition's texts are str, one character = one token; the English edition's are
# tuples of words, one word (or punctuation mark) = one token (posenc.tokenize), so each edition's numbers are
# computed from its own sentence. Both editions' pages make the same macro calls, so an English text has as many
# tokens as its Chinese counterpart, and its swaps keep the same tokens (tests/test_examples.py).
SENTENCE = "小明打了小王"


@dataclass(frozen=True)
class ProjectModel:
    """The project's own small model as the lessons describe it: fields of the training experiment's
    ``Config`` (posenc/experiment/config.py), with the same names and values as its full preset."""

    d_model: int
    n_layers: int
    n_heads: int
    mlp_ratio: int
    vocab_size: int
    embed_std: float
    sin_base: float
    rope_base: float
    partial_rotary_fraction: float
    train_len: int
    eval_len: int

    @property
    def head_dim(self) -> int:
        return self.d_model // self.n_heads


# The project's own small model (lessons 2, 3, 3b, 6 and the data-flow panel): the experiment's
# PRESETS["full"], so a lesson can never quote a width the experiment did not use (tests/test_examples.py).
PROJECT = ProjectModel(d_model=256, n_layers=4, n_heads=4, mlp_ratio=4, vocab_size=2048, embed_std=0.02,
                       sin_base=DEFAULT_BASE, rope_base=DEFAULT_BASE, partial_rotary_fraction=0.25,
                       train_len=128, eval_len=512)
PROJECT_D_MODEL = PROJECT.d_model  # lesson 3: √d_model scaling
PROJECT_EMBED_STD = PROJECT.embed_std  # lessons 2, 3: how small token content is at initialisation
PROJECT_TRAIN_LEN = PROJECT.train_len  # lessons 2, 3: the training length

# === lesson 1: attention cannot see word order =======================================================

ATTN_D = 8  # the demo head's width: small enough to print every number of a token's vector
ATTN_SEED = 7  # seed of W_q, W_k, W_v and of the token vectors
SECOND_LAYER_SEED = ATTN_SEED + 1  # the second layer of the two-layer causal example

# (sentence, i, j): the sentences whose tokens at positions i and j are swapped.
SWAP_MAIN = (SENTENCE, 1, 5)  # 小明打了小王 → 小王打了小明
SHORT_SENTENCE = "猫吃鱼"  # also lesson 3's walk-through and the home page's opening question
SWAP_SHORT = (SHORT_SENTENCE, 0, 2)  # 猫吃鱼 → 鱼吃猫
CAUSAL = ("猫吃鱼了", 0, 2)  # the causal-mask example: its last token sees the same set of tokens in both orders
BATCH = (SHORT_SENTENCE, SENTENCE)  # the padded batch: the short sentence first, so it is the one padded
PAD_MARK = "·"  # how a padding slot is drawn
PACKED = BATCH  # the packing deep dive: the same two sentences laid end to end in one row, in this order
MHA_HEADS = 2  # the multi-head layer splits the ATTN_D-wide rows into this many heads (seeded with ATTN_SEED)
MIX_ROW = 0  # the token of SENTENCE whose vector is changed to see which layers mix tokens …
MIX_CHAR = "老"  # … into this character's vector
REL_A, REL_B = "小明", "小王"  # lesson 3: the two people of SENTENCE whose distance stays when the sentence moves

Text = "str | tuple[str, ...]"  # a str of characters (Chinese) or a tuple of words (English): posenc.tokenize


@dataclass(frozen=True)
class TextExamples:
    """One edition's text examples: the same roles in each language (the Chinese ones are the constants above)."""

    sentence: Text  # the course's sentence, with a repeated token
    swap_main: tuple  # (sentence, i, j): swapping tokens i and j reverses who does what
    short_sentence: Text  # the short pair of lesson 1, lesson 3's walk-through, the home page's question
    swap_short: tuple
    causal: tuple  # the causal-mask example: its last token sees the same set of tokens in both orders
    batch: tuple  # the padded batch, the short sentence first (it is the one padded); also the packed row
    mix_token: Text  # what token MIX_ROW of the sentence is changed into (lesson 1's multi-head section)
    rel_a: Text  # lesson 3: two words of the sentence whose distance stays when the sentence moves
    rel_b: Text

    @property
    def packed(self) -> tuple:
        return self.batch


# The English edition's examples, one word (or punctuation mark) per token: "the dog bit the man ." and
# "the man bit the dog ." are the same six tokens, "the" twice, and mean opposite things.
_EN_SENTENCE = ("the", "dog", "bit", "the", "man", ".")
_EN_SHORT = ("cats", "eat", "fish")
TEXTS = {
    "zh": TextExamples(sentence=SENTENCE, swap_main=SWAP_MAIN, short_sentence=SHORT_SENTENCE, swap_short=SWAP_SHORT,
                       causal=CAUSAL, batch=BATCH, mix_token=MIX_CHAR, rel_a=REL_A, rel_b=REL_B),
    "en": TextExamples(sentence=_EN_SENTENCE, swap_main=(_EN_SENTENCE, 1, 4), short_sentence=_EN_SHORT,
                       swap_short=(_EN_SHORT, 0, 2), causal=(("cats", "eat", "fish", "."), 0, 2),
                       batch=(_EN_SHORT, _EN_SENTENCE), mix_token=("a",), rel_a=("dog",), rel_b=("man",)),
}


def texts(lang: str) -> TextExamples:
    """The text examples of the ``lang`` edition ("zh" or "en")."""
    if lang not in TEXTS:
        raise ValueError(f"no text examples for language {lang!r}; posenc/examples.py TEXTS has {', '.join(TEXTS)}")
    return TEXTS[lang]


def swap_presets(lang: str = "zh") -> str:
    """The swap widget's preset sentences in ``lang``, "text:i:j,text:i:j" (an English text's words joined by spaces)."""
    from .tokenize import join

    t = texts(lang)
    return ",".join(f"{join(text)}:{i}:{j}" for text, i, j in (t.swap_main, t.swap_short))


# === lesson 2: adding the index; learned tables =======================================================

NAIVE_PROBE_POSITION = 37  # the "add the raw index" design is judged at this position
UNIT_CONTENT_RMS = 1.0  # content whose every component has RMS 1 (a trained, "large" token vector) …
# … against the project's own initial scale, PROJECT_EMBED_STD
RATIO_SHARE = 0.01  # "content has fallen to 1% of the position signal": the position where that happens
NORMALISED_HALF = 0.5  # the middle of the [0, 1] scale, looked up at both lengths
RATIO_MAX_POSITION = 1024  # how far the content/position ratio curve runs
NORMALISED_SHORT = len(SENTENCE)  # the "squeeze positions into [0, 1]" design at a short …
NORMALISED_LONG = 101  # … and a long length
NORMALISED_PROBE = 3  # the position followed while generation grows the text by one token
STEP_NEAR = (5, 6)  # neighbouring positions near the start: adding the index moves them apart by the same vector …
STEP_FAR = (500, 501)  # … as these far ones, though it means far less there
RELATION_NEAR = (5, 8)  # two position pairs the same distance apart, whose table rows share nothing
RELATION_FAR = (105, 108)
LOOKUP_FIRST, LOOKUP_SECOND = 0, 1  # the first two rows every position table has (lessons 2, 3)
FAR_POSITION = 100_000  # far beyond any table (lessons 2, 3): looked up, encoded, shifted


def gpt2_table() -> tuple[int, int]:
    """(rows, width) of GPT-2's position table, from posenc/data (lesson 2's widget looks rows up in it)."""
    from .configs import load

    m = load("gpt2")
    return m["context"], m["hidden"]


# === lesson 3: sinusoidal position encoding ===========================================================

SIN_DIM = 16  # the small clock: 8 pairs, small enough to draw every hand (lessons 3, 4)
NEAR_POSITION = 3  # the near example position (lessons 3, 6)
SHIFT = 10  # how far the whole sentence is shifted (lessons 3, 4)
MAX_DISTANCE = 200  # how far the PE(p)·PE(p+k) curve runs (lessons 3, 4)
DOT_STARTS = (0, 300, FAR_POSITION)  # start positions p whose PE(p)·PE(p+k) curves are drawn on top of each other
DOT_K = SHIFT  # the distance the dot-product widget starts at
ROTATION_PAIRS = 4  # pairs drawn in the "a shift is a rotation" figure: those that turn visibly at k = SHIFT
PROJECTION_SEED = 0  # seed of the random W_q, W_k that break the shift invariance
WALKTHROUGH_DIM = 8  # the torch walk-through's d_model
WALKTHROUGH_FIRST_LEN = 10  # the table the walk-through prints first
WALKTHROUGH_MAX_LEN = 5_000  # the walk-through checks boundedness this far
WALKTHROUGH_TABLE_LEN = 16  # the table the cat/fish step takes its rows from (at least the sentence's length)
WALKTHROUGH_SEED = 0  # torch.manual_seed of the walk-through's word embedding


def encoding_positions() -> tuple[int, int, int]:
    """Lesson 3's three example positions: near, GPT-2's first missing row, far."""
    from .configs import load

    return (NEAR_POSITION, load("gpt2")["context"], FAR_POSITION)


# === lesson 3b: relative position as a bias on the attention scores ================================

ALIBI_HEADS = 8  # a power of two, so the slopes are 1/2, 1/4, …, 1/256 (Press et al.'s 8-head example)
ALIBI_HEAD = 4  # the head the figure and widget read out, 1-based as in the paper's m_h = 2^(−8h/n)
ALIBI_DISTANCE = 16  # the distance whose bias and weight factor are read out
ALIBI_SPAN = 256  # how far the distance axis runs
ALIBI_FACTOR = 10  # "reach": the distance at which the bias alone cuts a weight tenfold, ln(10)/m
T5_MODEL = "t5_base"  # its num_buckets and max_distance come from the model data file
T5_BIDIRECTIONAL = True  # the encoder's buckets (keys on both sides of the query)
T5_DISTANCE = 20  # the distance m − n looked up: a key 20 tokens before the query
ALIBI_SENTENCE_HEAD = 1  # the head of ALIBI_HEADS whose bias SENTENCE gets: the steepest, so six tokens feel it
ALIBI_MODELS = ("mpt_7b", "bloom_176b", "baichuan_13b")  # ALiBi models whose slopes the lesson computes
REACH_MODELS = ("mpt_7b", "bloom_176b")  # whose per-head reach is drawn (a power of two, and not)
REACH_NEAR = 16  # a head whose reach is below this many tokens "looks near" …
REACH_FAR = 256  # … above this many, "looks far"
SHAW_SENTENCE_K = 2  # the clipping distance printed over SENTENCE: small enough that clipping shows in six tokens
PARAMETER_MODEL = "gpt2"  # the model every scheme's added parameters are counted for
ROPE_PREFERRED = (3, 12)  # two distances a RoPE head can prefer: the key contents are the query turned by these
ROPE_DEMO_SEED = 0  # seed of that demo's query vector (SIN_DIM wide, base DEFAULT_BASE)
ROPE_DEMO_SPAN = 40  # how many tokens back the score-by-distance comparison runs
T5_TABLE_SEED = 0  # seed of the random T5 bias table whose scores the shift proof moves
EX_T5_DISTANCE = 50  # exercise: a key this many tokens back, looked up in T5's decoder and encoder buckets


def t5_buckets() -> tuple[int, int]:
    """(num_buckets, max_distance) of T5_MODEL, from posenc/data."""
    from .configs import load

    m = load(T5_MODEL)
    return m["relative_attention_num_buckets"], m["relative_attention_max_distance"]


# === lesson 4: RoPE ===================================================================================

L4_DIM = SIN_DIM  # the shift experiment uses lesson 3's 16-dim clock
ABS_POSITIONS = (3, 300)  # one word at two absolute positions: its rotated q differs, q·k does not
L4_SEED = 0  # seed of the head (W_q, W_k) and of the token vectors in the shift experiment
# The one pair rotated by hand (and the rope-pair widget's start): q and k of one pair of
# dims, q at position PAIR_M and k at PAIR_N, pair PAIR_INDEX of the L4_DIM-dim head. The query
# comes after the key (m − n > 0), as under a causal mask, the course's sign for a distance.
PAIR_Q = (1.0, 0.4)
PAIR_K = (0.6, 0.9)
PAIR_M = 7
PAIR_N = 3
PAIR_INDEX = 0
CONVENTION_DIM = 8  # the two code layouts (interleaved, rotate_half) are drawn and printed at this d
CONVENTION_SEED = 0  # torch.manual_seed of the layouts snippet's random q, k
CONVENTION_TOKENS = 5  # how many positions the layouts snippet rotates
TORCH_SHIFTS = (SHIFT, 100 * SHIFT)  # the torch RoPE snippet shifts the sentence by these
TORCH_SEED = 0  # torch.manual_seed of that snippet's q, k
# Models whose per-model RoPE counts lesson 4's table lists (rows in this order), and the spectra it
# draws: RoPE on the whole head, every layer, counted at the native context, nothing a reader meets only
# in lessons 5-6 (a rotated part of the head, a window, a scaled context).
ROPE_TABLE_MODELS = ("llama2_7b", "llama3_8b", "qwen3_8b")
SPECTRUM_MODELS = ROPE_TABLE_MODELS
# Why big models chose RoPE over ALiBi (the end of lesson 4): one query (SIN_DIM wide, base DEFAULT_BASE,
# seed WHY_ROPE_SEED) and two key contents, each the query turned back by one of WHY_ROPE_PREFERRED
# tokens, scored at distances 0 … WHY_ROPE_SPAN; ALiBi's slope is lesson 3b's demo head (ALIBI_HEAD).
WHY_ROPE_PREFERRED = (3, 12)
WHY_ROPE_SEED = 0
WHY_ROPE_SPAN = 40

# === lesson 5: long context ===========================================================================

SCALING_MODEL = "qwen3_8b"  # the model lesson 5 scales, pair by pair (and the explorer's start)
SCALING_METHOD = "yarn"  # the method the scaling explorer starts with
# The models the scaling explorer offers, in its menu's order (assets/models.json): a choice, not every RoPE
# model in posenc/data/models.yaml. A model added there appears in the widget only once listed here; each must
# be a RoPE model (the build fails naming it otherwise), and SCALING_MODEL must be one of them.
SCALING_EXPLORER_MODELS = ("llama2_7b", "llama3_8b", "llama31_8b", "mistral_7b_v01", "qwen25_7b", "qwen3_8b",
                           "qwen3_next_80b_a3b", "deepseek_v3", "gemma3_27b", "glm45", "gpt_oss", "kimi_k2",
                           "llama4_scout", "smollm3_3b", "command_r7b", "command_a", "gptj_6b", "gpt_neox_20b",
                           "pythia_6_9b", "phi35_mini")
NTK_EXAMPLE = {"base": 10_000, "factor": 4, "dim": 128}  # the NTK-aware base worked through by hand
YARN_TEMPERATURE_EXAMPLE_S = 8  # the s of the YaRN paper's worked example for Eq. 22
GPTOSS_EXERCISE_PAIR = 13  # a pair inside gpt-oss's ramp, for exercise 1
LONGROPE_MODEL = "phi35_mini"  # the LongRoPE config lesson 5 computes (short and long factor lists)
# Liu et al.'s critical dimension and Men et al.'s B ≥ 0 test, one row per config: (model, base, length) with the
# base and length the model was trained at (its models.yaml fields), Code Llama's and SmolLM3's long stages from
# the base-raise recipes (posenc.long_context) by their keys
BOUND_MODELS = ("llama2_7b", "llama3_8b", "qwen3_8b")
BOUND_RECIPES = ("codellama", "smollm3_64k")
MEN_NEIGHBOUR_BASE_32K = 630_000  # one step (two significant digits) below Men et al.'s Table 2 value for 32k

# === lesson 6: partial RoPE, or none ==================================================================

PARTIAL_MODELS = ("qwen3_8b", "glm45", "qwen3_next_80b_a3b")  # whose head dims are drawn (DeepSeek-V3 has its own section)
# whose layer patterns are drawn, one row each: all-RoPE, local/global, Gated DeltaNet, the NoPE layers, then
# the hybrids with no positional encoding in any attention layer
LAYER_MODELS = ("glm45", "gemma3_27b", "gpt_oss", "qwen3_next_80b_a3b", "llama4_scout", "smollm3_3b", "command_r7b",
                "kimi_linear_48b", "jamba_v01")
LAYERS_DRAWN = 24  # how many layers of each pattern are drawn (a multiple of every pattern's period)
NOPE_LAYER_MODELS = ("llama4_scout", "smollm3_3b", "command_r7b", "command_a")  # whose NoPE-layer counts the lesson lists
NOPE_ONLY_MODELS = ("kimi_linear_48b", "jamba_v01")  # no positional encoding in any attention layer: their layer counts
EARLY_PARTIAL_MODELS = ("gptj_6b", "gpt_neox_20b", "pythia_6_9b")  # partial rotary in 2021–2023: rotary dims and share
PROPE_MODEL = "qwen3_next_80b_a3b"  # whose head is laid out three ways: whole head turned, partial_rotary_factor, p-RoPE
SELF_SCORE_SEED = 0  # the seeded Gaussian q (SIN_DIM dims, lesson 3's curve) scored against itself: Σ|q_i|² cos(kω_i), not Σcos(kω_i)
LLAMA4_FAR_POSITION = 10_000_000 - 1  # position of the ten-millionth token (0-based), as the model card's 10M context reads in decimal
MLA_MODEL = "deepseek_v3"  # whose KV cache per token is compared with multi-head attention
# the small random MLA head on which absorption holds, fails with RoPE on the keys, and holds again decoupled
MLA_DEMO = {"head_dim": 8, "q_rank": 6, "kv_rank": 5, "length": 7, "rope_head_dim": 4, "seed": 0}
COUNTER_CURVE_MAX = 1 << 20  # how far the NoPE counter's gap curve runs (positions)
COUNTER_FAR_MODEL = "qwen3_8b"  # the far point of that curve: this model's native context
EX_GEMMA_LAYERS = 12  # exercise: Gemma 3's first this-many layers
EX_NOPE_T = 9  # exercise: the position asked about in the counter
EX_PROPE_MODEL = "gpt_neox_20b"  # exercise: its partial RoPE against p-RoPE keeping as many pairs (every field verified)


# === lesson 6b (选读): M-RoPE, positions of images ======================================================

MROPE_MODEL = "qwen25_vl_7b"  # contiguous sections (Qwen2-VL, Qwen2.5-VL)
MROPE_INTERLEAVED_MODEL = "qwen3_vl_235b_a22b"  # interleaved sections (Qwen3-VL)
MROPE_TEXT_BEFORE = 3  # the small example: text tokens, an image, text tokens
MROPE_IMAGE_PATCHES = (4, 6)  # the example image's patch grid (height, width) before 2 × 2 merging
MROPE_TEXT_AFTER = 2
MROPE_BIG_IMAGE_PATCHES = (32, 32)  # a larger image: many tokens, few position IDs


def mrope_segments():
    """The small M-RoPE example: MROPE_TEXT_BEFORE text tokens, one still image, MROPE_TEXT_AFTER text tokens."""
    from .mrope import Image, Text

    return (Text(MROPE_TEXT_BEFORE), Image(1, *MROPE_IMAGE_PATCHES), Text(MROPE_TEXT_AFTER))


# === the data-flow panel ("从第 N 课出发", posenc/dataflow.py) ========================================

DATAFLOW_MODELS = ("gpt2", "llama3_8b", "qwen3_8b", "qwen25_vl_7b")  # real models it offers (configs from posenc/data)
DATAFLOW_PROJECT_METHODS = ("learned", "sinusoidal", "alibi", "rope", "rope_partial", "nope")  # the experiment's model, per method
# The model each page's panel opens on: "all" is the home page, the others lessons.
DATAFLOW_START = {"all": "gpt2", "1": "gpt2", "2": "gpt2", "3": "project_sinusoidal", "3b": "project_alibi",
                  "4": "llama3_8b", "5": "qwen3_8b", "6": "project_rope_partial", "6b": "qwen25_vl_7b"}


# === widgets ==========================================================================================

# What each in-page widget starts from, one dict per docs/javascripts/widgets/<name>.js with the
# keys of that widget's options. The widget() macro writes every entry into the page as a
# data-* attribute (key swap_i → data-swap-i, which the browser's dataset reads as swapI):
# numbers as plain decimals, lists comma-separated, strings as they are. Keyword options
# written in the page override these. "" means "none": the widget computes or fetches it.

def _join(text) -> str:
    from .tokenize import join

    return join(text)


def _per_language(value_of):
    """A widget default taken from each edition's own text examples, ``value_of(lang)``: the widget() macro writes
    the page's language's."""
    from .formatting import PerLanguage

    return PerLanguage(**{lang: value_of(lang) for lang in TEXTS})


WIDGET_DEFAULTS: dict[str, dict] = {
    "sin-clock": {"d": SIN_DIM, "base": DEFAULT_BASE, "position": NEAR_POSITION, "presets": list(encoding_positions())},
    "sin-dot": {"d": SIN_DIM, "base": DEFAULT_BASE, "max": MAX_DISTANCE, "position": DOT_STARTS[0],
                "presets": list(DOT_STARTS), "k": DOT_K},
    "sin-heatmap": {"sentence": _per_language(lambda lang: _join(texts(lang).sentence)), "shift": SHIFT, "d": SIN_DIM,
                    "base": DEFAULT_BASE, "start": 0},
    "swap-attention": {"sentence": _per_language(lambda lang: _join(texts(lang).swap_main[0])), "swap_i": _per_language(lambda lang: texts(lang).swap_main[1]),
                       "swap_j": _per_language(lambda lang: texts(lang).swap_main[2]), "d": ATTN_D, "seed": ATTN_SEED,
                       "presets": _per_language(swap_presets), "head": ""},
    "rope-pair": {"d": L4_DIM, "base": DEFAULT_BASE, "pair": PAIR_INDEX, "m": PAIR_M, "n": PAIR_N, "shift": SHIFT,
                  "q": list(PAIR_Q), "k": list(PAIR_K)},
    "scaling-explorer": {"model": SCALING_MODEL, "method": SCALING_METHOD, "factor": 0, "models": ""},
    "alibi-bias": {"heads": ALIBI_HEADS, "head": ALIBI_HEAD, "distance": ALIBI_DISTANCE, "span": ALIBI_SPAN,
                   "factor": ALIBI_FACTOR},
    # lesson 2: the raw index drowns the content (content RMS / p), and GPT-2's table has no row past its end
    "content-position": {"position": NAIVE_PROBE_POSITION, "rms": [UNIT_CONTENT_RMS, PROJECT_EMBED_STD], "max": RATIO_MAX_POSITION,
                         "presets": [LOOKUP_FIRST, NAIVE_PROBE_POSITION, gpt2_table()[0] - 1, gpt2_table()[0], FAR_POSITION],
                         "rows": gpt2_table()[0], "width": gpt2_table()[1]},
    # lesson: which lesson's state the panel shows ("all" on the home page); model "" opens on DATAFLOW_START
    "dataflow": {"lesson": "all", "model": "", "data": ""},
    "t5-buckets": {"num_buckets": t5_buckets()[0], "max_distance": t5_buckets()[1],
                   "bidirectional": "true" if T5_BIDIRECTIONAL else "false", "distance": T5_DISTANCE},
}
