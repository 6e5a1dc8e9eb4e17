"""Display names for pages and figures (kept out of config.py so renaming a label
does not change the code hash of the results).

The model without position encoding is called by what it is ("不加位置编码") rather than
NoPE, a name lesson 6 teaches: its line appears in figures from lesson 3 on."""

METHOD_LABELS = {
    "nope": "不加位置编码",
    "learned": "可学习位置表",
    "sinusoidal": "sinusoidal",
    "sinusoidal_scaled": "sinusoidal × √d",
    "alibi": "ALiBi",
    "rope": "RoPE",
    "rope_partial": "部分 RoPE",
}
ROPE_SCALING_LABELS = {
    "rope": "RoPE（不缩放）",
    "pi": "位置插值（PI）",
    "ntk": "NTK-aware",
    "yarn": "YaRN",
}
EXTENSION_LABELS = {
    "rope": "RoPE（频率不变，直接续训）",
    "pi": "PI + 续训",
    "ntk": "NTK-aware + 续训",
    "yarn": "YaRN + 续训",
    "abf": "ABF（调大 base）+ 续训",
}

# Seeds of the committed results/full.json that the pages quote (`make experiment-full`); a repair hint
# for a missing or unreadable file re-runs this many.
PAGE_SEEDS = 16
