"""Display names for pages and figures (kept out of config.py so renaming a label
does not change the code hash of the results)."""

METHOD_LABELS = {
    "nope": "NoPE（不加位置）",
    "learned": "可学习绝对位置",
    "sinusoidal": "sinusoidal（直接相加）",
    "sinusoidal_scaled": "sinusoidal（embedding × √d）",
    "alibi": "ALiBi",
    "rope": "RoPE",
    "rope_partial": "部分 RoPE（每头 25% 维度）",
}
ROPE_SCALING_LABELS = {
    "rope": "RoPE（不缩放）",
    "pi": "Position Interpolation",
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
