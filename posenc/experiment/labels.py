"""Display names for pages and figures (kept out of config.py so renaming a label
does not change the code hash of the results)."""

METHOD_LABELS = {
    "nope": "NoPE（不加位置）",
    "learned": "可学习绝对位置",
    "sinusoidal": "sinusoidal（直接相加）",
    "sinusoidal_scaled": "sinusoidal（embedding × √d）",
    "rope": "RoPE",
}
ROPE_SCALING_LABELS = {
    "rope": "RoPE（不缩放）",
    "pi": "Position Interpolation",
    "ntk": "NTK-aware",
    "yarn": "YaRN",
}
