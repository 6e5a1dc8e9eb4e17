"""Long context as it is really built and measured, read from the facts and model data.

Two things lesson 5 computes from reported values:

- **Base raising (ABF)** in real training recipes: each ``BaseRaise`` is one base change
  θ → θ' inside one model's training, with the training length before and after (Code Llama,
  Qwen3's long-context stage, SmolLM3's two long-context stages). Llama 3 is not one: it was
  pre-trained with θ = 500,000 from the start (its paper's Table 3), so comparing it with Llama 2
  compares two models, not a step of a recipe. What a change does pair by pair is
  ``posenc.scaling.base_change``. SmolLM3's first long stage has two sources that disagree (the
  training config: 2,000,000; the release blog: 1.5M); the recipe uses the config, which is what the
  run used, and ``smollm3_blog_variant`` gives the same row with the blog's base.
- **Window vs effective length** (RULER, Hsieh et al. 2024, arXiv:2404.06654): the
  length a model claims and the longest length at which its RULER score stays above
  the threshold (Llama-2-7B's score at 4K), as the RULER README's table prints them.

Every value comes from ``posenc/data/facts_lesson5.yaml`` or ``models*.yaml`` with its source
and tag; this module only assembles them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import configs, facts, scaling


# --- base raising in real recipes -------------------------------------------------------------------


@dataclass(frozen=True)
class BaseRaise:
    """One real base change: RoPE at (base, length) before, (new_base, new_length) after."""

    key: str  # a short identifier, used in quantity names
    label: str  # how the page names the case
    head_dim: int
    base: float
    length: int
    new_base: float
    new_length: int
    far: int | None = None  # a longer length the model is reported to handle, if any
    label_en: str = ""  # how the English page names the case (empty: the same as label)

    def label_in(self, lang: str) -> str:
        """The case's name on a page in ``lang`` ('zh' or 'en')."""
        return self.label_en or self.label if lang == "en" else self.label

    def change(self) -> scaling.BaseChange:
        return scaling.base_change(self.head_dim, self.base, self.new_base, self.length, self.new_length)

    def ntk_factor(self) -> float:
        """The NTK-aware stretch s that gives the same frequencies (``scaling.ntk_factor_for_base``)."""
        return scaling.ntk_factor_for_base(self.base, self.new_base, self.head_dim)


def _fact(name: str):
    return facts.get(name).value


def base_raises() -> tuple[BaseRaise, ...]:
    """The base changes lesson 5 computes, in the order its table lists them.

    Code Llama starts from Llama 2 (head_dim 128, trained at 4,096) and trains on
    16,384-token sequences with θ = 10⁶ (Rozière et al. 2023 §2.4); it reports stable
    behaviour up to 100,000 tokens. Qwen3's long-context stage raises θ while the
    length grows from 4,096 to 32,768 tokens (technical report, pre-training stages);
    its YaRN setting then reaches 131,072. SmolLM3's
    released training configs raise θ twice (4,096 → 32,768 → 65,536).
    """
    llama2 = configs.load("llama2_7b")
    qwen3, smol = configs.load("qwen3_8b"), configs.load("smollm3_3b")
    return (
        BaseRaise("codellama", "Code Llama", llama2["head_dim"],
                  _fact("codellama_base_before"), llama2["context"],
                  _fact("codellama_base_after"), _fact("codellama_lcft_length"),
                  far=_fact("codellama_extrapolation_length"), label_en="Code Llama"),
        BaseRaise("qwen3", "Qwen3 长上下文阶段", qwen3["head_dim"],
                  _fact("qwen3_abf_base_before"), _fact("qwen3_general_stage_length"),
                  _fact("qwen3_abf_base_after"), _fact("qwen3_long_stage_length"),
                  far=qwen3["scaled_context"], label_en="Qwen3, long-context stage"),
        BaseRaise("smollm3_32k", "SmolLM3 第一段", smol["head_dim"],
                  _fact("smollm3_stage1_theta"), _fact("smollm3_stage1_length"),
                  _fact("smollm3_32k_theta"), _fact("smollm3_32k_length"), label_en="SmolLM3, first stage"),
        BaseRaise("smollm3_64k", "SmolLM3 第二段", smol["head_dim"],
                  _fact("smollm3_32k_theta"), _fact("smollm3_32k_length"),
                  _fact("smollm3_64k_theta"), _fact("smollm3_64k_length"), label_en="SmolLM3, second stage"),
    )


def smollm3_blog_variant() -> BaseRaise:
    """SmolLM3's first long-context stage with the release blog's θ = 1.5M instead of the config's 2,000,000.

    The two primary sources disagree (huggingface/smollm long_context_4k_to_32k.yaml: rope_theta
    2000000.0; huggingface/blog smollm3.md: "RoPE theta increased to 1.5M"). The course's table uses the
    config, the run's own setting; this row shows how much the derived numbers move with the blog's value.
    """
    case = base_raise("smollm3_32k")
    return BaseRaise("smollm3_32k_blog", "SmolLM3 第一段（按博客）", case.head_dim, case.base, case.length,
                     _fact("smollm3_blog_32k_theta"), case.new_length, label_en="SmolLM3, first stage (by the blog)")


def base_raise(key: str) -> BaseRaise:
    for case in base_raises():
        if case.key == key:
            return case
    raise ValueError(f"unknown base-raise case {key!r}; choose from {', '.join(c.key for c in base_raises())}")


# --- window vs effective length (RULER) -------------------------------------------------------------

_LENGTH = re.compile(r"^(\d+)([KM])$")
_UNIT = {"K": 1024, "M": 1024 * 1024}


def window_tokens(label: str) -> int:
    """A length as RULER's README prints it ("32K", "1M") in tokens, K = 1,024 and M = 1,024².

    RULER's columns 4K … 128K are the powers of two 4,096 … 131,072, so K is 1,024. Ratios
    of two labels do not depend on this choice unless one is in M and the other in K.
    """
    m = _LENGTH.match(label) if isinstance(label, str) else None
    if m is None:
        raise ValueError(f"label must be a length like '32K' or '1M' as the RULER table prints it, got {label!r}")
    return int(m.group(1)) * _UNIT[m.group(2)]


@dataclass(frozen=True)
class EffectiveLength:
    """One row of RULER's table: the window a model claims and the length it really holds up to."""

    key: str  # the facts' infix: ruler_<key>_claimed / _effective
    model: str
    claimed: str  # as printed, e.g. "128K"
    effective: str

    @property
    def claimed_tokens(self) -> int:
        return window_tokens(self.claimed)

    @property
    def effective_tokens(self) -> int:
        return window_tokens(self.effective)

    @property
    def share(self) -> float:
        """Effective length ÷ claimed window."""
        return self.effective_tokens / self.claimed_tokens


# The RULER rows lesson 5 shows (facts_lesson5.yaml), in the README's order.
RULER_MODELS = (
    ("llama31_8b", "Llama 3.1 8B"),
    ("llama31_70b", "Llama 3.1 70B"),
    ("gpt4", "GPT-4-1106-preview"),
    ("mistral7b", "Mistral-7B-Instruct-v0.2"),
    ("yi34b", "Yi-34B-200K"),
    ("gradient_llama3_8b", "Llama-3-8B-Gradient-1048k"),
    ("qwen3_8b", "Qwen3-8B"),
)


def ruler_rows() -> tuple[EffectiveLength, ...]:
    return tuple(EffectiveLength(key, model, _fact(f"ruler_{key}_claimed"), _fact(f"ruler_{key}_effective"))
                 for key, model in RULER_MODELS)
