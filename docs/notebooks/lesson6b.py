# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 第 6 课·续 动手：M-RoPE 的三个位置编号
#
# 这本笔记本配合选读页 [M-RoPE](https://posenc.github.io/posenc/lessons/06b-mrope/) 使用：给一段「文字、图片、文字」算出每个 token 的时间、高度、宽度编号，再看一个头的频率对怎么分给这三个编号。
#
# 每个代码格都调用课程自己的 `posenc` 库，也就是课程网页上每个数字和每张图背后的同一份代码。网站构建时这本笔记本会被完整运行一遍；任何一格报错，网站就构建失败。

# %% [markdown] lang="en"
# # Lesson 6b, hands-on: M-RoPE's three position IDs
#
# This notebook goes with the optional page [M-RoPE](https://posenc.github.io/posenc/en/lessons/06b-mrope/): compute the time, height and width IDs of every token of a "text, image, text" input, then see how one head's frequency pairs are divided among those three IDs.
#
# Every code cell calls the course's own `posenc` library, the same code behind every number and figure on the course pages. The site runs this notebook from top to bottom when it is built; if any cell fails, the site build fails.

# %%
# posenc: include _setup.py

# %% [markdown]
# ## 1. 三个编号：position_ids
#
# `Text(n)` 是 n 个文字 token，`Image(1, h, w)` 是一张 h × w 个 patch 的图（视觉编码器再把每 k × k 个 patch 合成一个 token）。三行依次是时间、高度、宽度编号。

# %% [markdown] lang="en"
# ## 1. Three IDs: position_ids
#
# `Text(n)` is n text tokens, and `Image(1, h, w)` an image of h × w patches (the vision encoder then merges every k × k patches into one token). The three rows are the time, height and width IDs, in that order.

# %%
from posenc import configs, mrope, rope
from posenc import examples as ex

vl = configs.load(ex.MROPE_MODEL)
segments = ex.mrope_segments()
ids = mrope.model_position_ids(vl, segments)
print(segments)
for name, row in zip(mrope.AXES, ids):
    print(f"{name:>8}: {row}")
print("rope_delta:", mrope.rope_delta(ids))

# %% [markdown]
# ## 2. 图片越大，编号省得越多：rope_delta
#
# 一张图占的 token 数是行数 × 列数，后面文字的编号只前进 max(行数, 列数)。

# %% [markdown] lang="en"
# ## 2. The bigger the image, the more IDs it saves: rope_delta
#
# An image takes rows × columns tokens, but the IDs of the text after it move on by only max(rows, columns).

# %%
for side in (4, 8, 16, 32, 64):
    image = mrope.Image(1, side, side)
    ids_big = mrope.model_position_ids(vl, [image, mrope.Text(1)])
    print(f"{side:>3} × {side:<3} 个 patch: {mrope.image_tokens(image, vl['spatial_merge_size']):>5} 个 token，"
          f"后面的文字从编号 {ids_big[0, -1]} 开始，rope_delta = {mrope.rope_delta(ids_big)}")

# %% [markdown]
# ## 3. 哪一对跟哪个编号：pair_axes
#
# 0 是时间，1 是高度，2 是宽度。Qwen2.5-VL 连续分段，Qwen3-VL 交错。

# %% [markdown] lang="en"
# ## 3. Which pair follows which ID: pair_axes
#
# 0 is time, 1 is height, 2 is width. Qwen2.5-VL uses contiguous sections, Qwen3-VL interleaves.

# %%
for key in (ex.MROPE_MODEL, ex.MROPE_INTERLEAVED_MODEL):
    model = configs.load(key)
    print(model.name, model["mrope_section"], "interleaved" if model.get("mrope_interleaved", False) else "contiguous")
    print("   ", "".join(str(a) for a in mrope.model_pair_axes(model)))

# %% [markdown]
# ## 4. 编号差 1，最快的一对转多少度：axis_frequencies
#
# 注意两个模型的底数 θ 都标着未核实（U）。

# %% [markdown] lang="en"
# ## 4. How far the fastest pair turns for an ID difference of 1: axis_frequencies
#
# Note that both models' base θ is marked unverified (U).

# %%
for key in (ex.MROPE_MODEL, ex.MROPE_INTERLEAVED_MODEL):
    model = configs.load(key)
    inv = rope.inverse_frequencies(model["head_dim"], model["rope_theta"])
    freqs = mrope.axis_frequencies(inv, model["mrope_section"], model.get("mrope_interleaved", False))
    print(model.name, f"(θ {model['rope_theta']:,}, {model.field('rope_theta').tag})")
    for axis, omega in freqs.items():
        print(f"   {axis:>8}: {len(omega)} 对，最快 {np.degrees(omega[0]):.4g}°，最慢 {np.degrees(omega[-1]):.3g}°")

# %% [markdown]
# ## 5. 分数只看三个轴各自的编号差：angles
#
# 把所有编号同时加上一个常数，每个 token 每一对的角度都变，但两两之间的角度差不变，所以分数不变。

# %% [markdown] lang="en"
# ## 5. The score depends only on the differences of IDs along each axis: angles
#
# Add the same constant to every ID and every token's angle on every pair changes, but the angle between any two tokens does not, so neither does the score.

# %%
model = configs.load(ex.MROPE_MODEL)
inv = rope.inverse_frequencies(model["head_dim"], model["rope_theta"])
a0 = mrope.angles(ids, inv, model["mrope_section"])
a1 = mrope.angles(ids + 100, inv, model["mrope_section"])
print("角度本身变了:", not np.allclose(a0, a1))
print("两两角度差的最大变化:", np.abs((a0[:, None, :] - a0[None, :, :]) - (a1[:, None, :] - a1[None, :, :])).max())

# %% [markdown]
# ## 练习 Exercises
#
# 1. 在例子后面再接一张同样的图：它的时间编号是多少？最大编号是多少？
# 2. 换一张又扁又宽的图（比如 2 × 16 个 patch），后面的文字从几开始？

# %% [markdown] lang="en"
# ## Exercises
#
# 1. Append another image just like the example's: what is its time ID? What is the largest ID?
# 2. Try a short, wide image instead (say 2 × 16 patches): where does the text after it start?

# %%
# 练习 1：起点
two = mrope.model_position_ids(vl, [*segments, segments[1]])
print(two)
