"""Numbers the M-RoPE page (lesson 6b, 选读) quotes: three position IDs per token, and which pairs follow which ID.

Every value comes from posenc.mrope (position_ids, merged_grid, rope_delta, pair_axes,
axis_frequencies) on the example in posenc.examples (lesson 6b section) and the configs
in posenc/data/models_vl.yaml; figures_src/lesson6b.py draws from the same calls.
"""

from __future__ import annotations

import math

from .. import configs, examples as ex, mrope, rope
from . import family, number


def _ids():
    return mrope.model_position_ids(configs.load(ex.MROPE_MODEL), ex.mrope_segments())


def _grid():
    image = next(s for s in ex.mrope_segments() if isinstance(s, mrope.Image))
    return mrope.merged_grid(image, configs.load(ex.MROPE_MODEL)["spatial_merge_size"])


def _row(axis: str) -> tuple[int, ...]:
    """One axis's IDs for every token, a list each language joins its own way."""
    return tuple(int(v) for v in _ids()[mrope.AXES.index(axis)])


# --- the small example: text, an image, text ---------------------------------------------------------------


@number("mrope_ex_text_before", "d", "例子开头的文字 token 数")
def _():
    return ex.MROPE_TEXT_BEFORE


@number("mrope_ex_text_after", "d", "例子结尾的文字 token 数")
def _():
    return ex.MROPE_TEXT_AFTER


@number("mrope_ex_patches_h", "d", "例子图片的 patch 网格高度（合并前）")
def _():
    return ex.MROPE_IMAGE_PATCHES[0]


@number("mrope_ex_patches_w", "d", "例子图片的 patch 网格宽度（合并前）")
def _():
    return ex.MROPE_IMAGE_PATCHES[1]


@number("mrope_ex_grid_h", "d", "合并 k×k 个 patch 之后，图片的 token 网格有几行")
def _():
    return _grid()[1]


@number("mrope_ex_grid_w", "d", "合并之后，图片的 token 网格有几列")
def _():
    return _grid()[2]


@number("mrope_ex_image_tokens", "d", "例子图片变成几个 token")
def _():
    image = next(s for s in ex.mrope_segments() if isinstance(s, mrope.Image))
    return mrope.image_tokens(image, configs.load(ex.MROPE_MODEL)["spatial_merge_size"])


@number("mrope_ex_tokens", "d", "例子一共几个 token")
def _():
    return _ids().shape[1]


@number("mrope_ex_image_start", "d", "图片 token 的时间编号（也是高、宽编号的起点）")
def _():
    return int(_ids()[0, ex.MROPE_TEXT_BEFORE])


@number("mrope_ex_after_start", "d", "图片后第一个文字 token 的编号")
def _():
    return int(_ids()[0, ex.MROPE_TEXT_BEFORE + _grid()[1] * _grid()[2]])


@number("mrope_ex_max_id", "d", "例子里用到的最大编号")
def _():
    return int(_ids().max())


@number("mrope_ex_delta", "d", "rope_delta：下一个生成的 token 的编号比它在序列里的下标多多少（负数：少）")
def _():
    return mrope.rope_delta(_ids())


@number("mrope_ex_next_id", "d", "下一个生成的 token 的三个编号（都相同）：序列长度 + rope_delta")
def _():
    return _ids().shape[1] + mrope.rope_delta(_ids())


@number("mrope_ex_ids_temporal", "", "例子每个 token 的时间编号")
def _():
    return _row("temporal")


@number("mrope_ex_ids_height", "", "例子每个 token 的高度编号")
def _():
    return _row("height")


@number("mrope_ex_ids_width", "", "例子每个 token 的宽度编号")
def _():
    return _row("width")


# --- a larger image: many tokens, few IDs ---------------------------------------------------------------------


def _big():
    return mrope.Image(1, *ex.MROPE_BIG_IMAGE_PATCHES)


@number("mrope_big_patches_h", "d", "大图的 patch 网格高度")
def _():
    return ex.MROPE_BIG_IMAGE_PATCHES[0]


@number("mrope_big_patches_w", "d", "大图的 patch 网格宽度")
def _():
    return ex.MROPE_BIG_IMAGE_PATCHES[1]


@number("mrope_big_tokens", ",", "大图变成几个 token")
def _():
    return mrope.image_tokens(_big(), configs.load(ex.MROPE_MODEL)["spatial_merge_size"])


@number("mrope_big_ids", "d", "大图之后，文字编号只前进这么多")
def _():
    ids = mrope.model_position_ids(configs.load(ex.MROPE_MODEL), [_big(), mrope.Text(1)])
    return int(ids[0, -1])


# --- which pairs follow which ID ----------------------------------------------------------------------------


# per model: how many pairs follow each ID, the fastest pair of the height and width IDs (the temporal ID
# always has pair 0, ω = 1 rad, 57.3°), and the first pair that follows the width ID
AXIS_PAIRS = family(("mrope_pairs_temporal_{}", "mrope_pairs_height_{}", "mrope_pairs_width_{}",
                     "mrope_fastest_deg_height_{}", "mrope_fastest_deg_width_{}", "mrope_first_width_pair_{}"), {
    "qwen25_vl_7b": ("mrope_pairs_temporal_qwen25_vl_7b", "mrope_pairs_height_qwen25_vl_7b", "mrope_pairs_width_qwen25_vl_7b",
                     "mrope_fastest_deg_height_qwen25_vl_7b", "mrope_fastest_deg_width_qwen25_vl_7b",
                     "mrope_first_width_pair_qwen25_vl_7b"),
    "qwen3_vl_235b_a22b": ("mrope_pairs_temporal_qwen3_vl_235b_a22b", "mrope_pairs_height_qwen3_vl_235b_a22b",
                           "mrope_pairs_width_qwen3_vl_235b_a22b", "mrope_fastest_deg_height_qwen3_vl_235b_a22b",
                           "mrope_fastest_deg_width_qwen3_vl_235b_a22b", "mrope_first_width_pair_qwen3_vl_235b_a22b"),
}, members=(ex.MROPE_MODEL, ex.MROPE_INTERLEAVED_MODEL))
AXIS_ZH = {"temporal": "时间", "height": "高度", "width": "宽度"}

for _key, _names in AXIS_PAIRS.items():

    def _reg(key=_key, names=_names):
        pairs = dict(zip(("temporal", "height", "width"), names[:3]))
        fastest = dict(zip(("height", "width"), names[3:5]))

        def counts():
            return mrope.axis_pair_counts(configs.load(key)["mrope_section"], configs.load(key).get("mrope_interleaved", False))

        def fastest_deg(axis: str) -> float:
            cfg = configs.load(key)
            inv = rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"])
            return math.degrees(mrope.axis_frequencies(inv, cfg["mrope_section"], cfg.get("mrope_interleaved", False))[axis][0])

        for axis, zh in AXIS_ZH.items():

            def _reg_axis(axis=axis, zh=zh):
                @number(pairs[axis], "d", f"{key} 里跟{zh}编号转的频率对数")
                def _():
                    return counts()[axis]

                if axis in fastest:
                    @number(fastest[axis], ".3g", f"{key} 里{zh}编号每差 1，跟它转的频率对中最快的一对转过的角度（度）")
                    def _():
                        return fastest_deg(axis)

            _reg_axis()

        @number(names[5], "d", f"{key} 里第一个跟宽度编号转的频率对（从 0 数）")
        def _():
            return int(list(mrope.model_pair_axes(configs.load(key))).index(mrope.AXES.index("width")))

    _reg()


@number("mrope_pairs_total", "d", "Qwen2.5-VL / Qwen3-VL 每个头的频率对数（三段之和）")
def _():
    totals = {sum(configs.load(k)["mrope_section"]) for k in (ex.MROPE_MODEL, ex.MROPE_INTERLEAVED_MODEL)}
    if len(totals) != 1:
        raise ValueError(f"the two M-RoPE models no longer have the same number of pairs ({totals}); reword the page")
    return totals.pop()


# --- exercise --------------------------------------------------------------------------------------------------


@number("ex_mrope_second_text", "d", "练习：在例子后面再接一张同样的图，第二张图的时间编号")
def _():
    segs = [*ex.mrope_segments(), next(s for s in ex.mrope_segments() if isinstance(s, mrope.Image))]
    ids = mrope.model_position_ids(configs.load(ex.MROPE_MODEL), segs)
    return int(ids[0, -1])


@number("ex_mrope_second_max", "d", "练习：加了第二张图后用到的最大编号")
def _():
    segs = [*ex.mrope_segments(), next(s for s in ex.mrope_segments() if isinstance(s, mrope.Image))]
    return int(mrope.model_position_ids(configs.load(ex.MROPE_MODEL), segs).max())
