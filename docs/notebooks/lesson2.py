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
# # 第 2 课 动手：直接加编号，和可学习的位置表
#
# 这本笔记本配合[第 2 课](https://posenc.github.io/posenc/lessons/02-learned-table/)使用：算一算「直接加编号」让内容信号变得多小，看归一化编号为什么随长度漂移，再查 GPT-2 和 BERT 的可学习位置表有多大、查到表外会发生什么。
#
# 每个代码格都调用课程自己的 `posenc` 库，也就是课程网页上每个数字和每张图背后的同一份代码。网站构建时这本笔记本会被完整运行一遍，你在网页上看到的输出就是那次运行的结果；任何一格报错，网站就构建失败。
#
# 在自己电脑上运行：克隆课程仓库，执行 `make setup`，再用 Jupyter 打开 `docs/notebooks/` 下的这个文件，或者在这个页面上下载 `.ipynb`。最后一节是本课的练习，改一改代码格里的参数，看看结果怎么变。

# %% [markdown] lang="en"
# # Lesson 2, hands-on: adding the index, and a learned position embedding
#
# This notebook goes with [lesson 2](https://posenc.github.io/posenc/en/lessons/02-learned-table/): compute how small "adding the index" makes the content signal, see why a normalised index drifts with the length, then check how big the learned position embeddings of GPT-2 and BERT are and what happens when you look up a row outside them.
#
# Every code cell calls the course's own `posenc` library, the same code behind every number and figure on the course pages. The site runs this notebook from top to bottom when it is built, and the output you see on the page is from that run; if any cell fails, the site build fails.
#
# To run it on your own machine: clone the course repository, run `make setup`, then open this file under `docs/notebooks/` in Jupyter, or download the `.ipynb` from this page. The last section holds the lesson's exercises: change the parameters in the code cells and see how the results change.

# %%
# posenc: include _setup.py

# %% [markdown]
# ## 1. 直接把编号加到词向量上：raw_index_content_ratio
#
# 设词向量每个分量的均方根（RMS）是 $\sigma$，位置 $p$ 直接以数字 $p$ 加上去。内容和位置信号之比是 $\sigma/p$：位置越靠后，内容越被淹没。

# %% [markdown] lang="en"
# ## 1. Adding the index to the token embedding: raw_index_content_ratio
#
# Say each component of a token embedding has a root mean square (RMS) of $\sigma$, and position $p$ adds the number $p$ itself. The ratio of content to position signal is $\sigma/p$: the later the position, the more the content is drowned.

# %%
from posenc import naive
from posenc import examples as ex

positions = [1, 10, ex.NAIVE_PROBE_POSITION, ex.RATIO_MAX_POSITION]
for rms in (ex.UNIT_CONTENT_RMS, ex.PROJECT_EMBED_STD):
    ratios = naive.raw_index_content_ratios(positions, rms)
    print(f"RMS = {rms}".ljust(12), "  ".join(f"p={p}: {r:.4%}" for p, r in zip(positions, ratios)))

p = naive.position_where_share_falls_to(ex.RATIO_SHARE, ex.UNIT_CONTENT_RMS)
print(f"RMS = {ex.UNIT_CONTENT_RMS} 时，内容从位置 {p} 起跌到位置信号的 {ex.RATIO_SHARE:.0%} 以下")

# %% [markdown]
# ## 2. 把编号压到 [0, 1]：normalised_index
#
# 另一个直觉是用 $p/(N-1)$（$N$ 是句子的 token 数），把位置压进 $[0, 1]$。问题是：同一个数值在不同长度下表示的距离不一样，而且每生成一个新 token，之前所有 token 的编号都会变。

# %% [markdown] lang="en"
# ## 2. Squeezing the index into [0, 1]: normalised_index
#
# Another instinct is to use $p/(N-1)$ ($N$ is the sentence's number of tokens) and so squeeze positions into $[0, 1]$. The trouble: the same value means a different distance at a different length, and every newly generated token changes the index of every token before it.

# %%
short, long = ex.NORMALISED_SHORT, ex.NORMALISED_LONG
print(f"长度 {short}:", naive.normalised_index(short))
print(f"长度 {short} 时相邻 token 相隔 {naive.normalised_step(short):.3f}，长度 {long} 时相隔 {naive.normalised_step(long):.3f}")
gap = naive.normalised_step(short)
print(f"短序列里「相邻」的那段间隔，放到长度 {long} 的序列里跨 {naive.normalised_gap_in_tokens(gap, long):.0f} 个 token")

probe = ex.NORMALISED_PROBE
print(f"位置 {probe}：长度 {short} 时是 {naive.normalised_value(probe, short):.3f}，"
      f"再生成一个 token 后是 {naive.normalised_value(probe, short + 1):.3f}")
half = ex.NORMALISED_HALF
print(f"数值 {half} 在长度 {short} 里是位置 {naive.normalised_position(half, short)}，在长度 {long} 里是位置 {naive.normalised_position(half, long)}")

# %% [markdown]
# ## 3. 可学习的位置表有多大：table_parameters
#
# GPT-2 和 BERT 给每个位置学一行向量：表有「上下文长度 × 隐藏维」个参数。数字来自 `posenc/data/models.yaml`，每个字段都带着来源和核实标签（V 为一手来源核实）。

# %% [markdown] lang="en"
# ## 3. How big a learned position embedding is: table_parameters
#
# GPT-2 and BERT learn one vector per position: the table has "context length × hidden size" parameters. The numbers come from `posenc/data/models.yaml`, every field with its source and verification tag (V: checked against a primary source).

# %%
from posenc import configs, learned

for key in ("gpt2", "bert_base"):
    cfg = configs.load(key)
    ctx, hid = cfg.field("context"), cfg.field("hidden")
    print(f"{cfg.name}: {ctx.value:,} 行 × {hid.value:,} 列 = {learned.table_parameters(cfg):,} 个参数"
          f"  （核实标签 {ctx.tag}/{hid.tag}）")

# %% [markdown]
# ## 4. 查到表外：IndexError
#
# 位置表就是一个 `nn.Embedding(上下文长度, 隐藏维)`。最后一行能查到，再往后一行就没有了：

# %% [markdown] lang="en"
# ## 4. Looking up a row outside the table: IndexError
#
# A position table is just an `nn.Embedding(context_length, hidden_size)`. The last row can be looked up; the row after it does not exist:

# %%
# posenc: include lesson2_lookup.py

# %% [markdown]
# 课程网页上的判断来自 `posenc.learned`，和上面 torch 的结果一致：

# %% [markdown] lang="en"
# The answers on the course page come from `posenc.learned`, and they agree with torch above:

# %%
print("posenc 的判断:", learned.probe_rows(cfg, [ex.LOOKUP_FIRST, last, cfg["context"], ex.FAR_POSITION]))
print(f"要让位置 {ex.FAR_POSITION} 也有一行，表还得加 {learned.rows_to_reach(cfg, ex.FAR_POSITION):,} 行")

# %% [markdown]
# 表里有这一行，也不代表这一行学过东西：如果训练时的句子都只有 `train_len` 长，更靠后的行一次梯度也拿不到，永远停在随机初始值。

# %% [markdown] lang="en"
# A row being in the table does not mean it has learned anything: if every training sentence is only `train_len` long, the later rows never get a single gradient and stay at their random initial values for good.

# %%
got = learned.rows_with_gradient(rows=16, train_len=ex.PROJECT_TRAIN_LEN // 16)
print("每一行有没有收到梯度:", got.astype(int))
print("收到梯度的行数:", int(got.sum()), "/", got.size)

# %% [markdown]
# ## 练习 Exercises
#
# 1. 在第 1 节里换一个 RMS：内容信号要多大，才能在最后一个位置上仍和位置信号一样大？用 `naive.raw_index_content_ratio` 验证你的答案。
# 2. 归一化编号下，长序列里数值相差一个「短序列步长」的两个 token 相隔多远？换几组长度算一算（`naive.normalised_gap_in_tokens`）。
# 3. 如果把 GPT-2 的上下文加长到四倍、隐藏维不变，位置表要多多少参数？先心算，再用代码算。
# 4. 改 `rows_with_gradient` 的 `train_len`，验证收到梯度的行数总是等于 `train_len`。

# %% [markdown] lang="en"
# ## Exercises
#
# 1. Try another RMS in section 1: how large must the content signal be to still equal the position signal at the last position? Check your answer with `naive.raw_index_content_ratio`.
# 2. With a normalised index, how far apart are two tokens of a long sequence whose values differ by one "short-sequence step"? Work it out for a few pairs of lengths (`naive.normalised_gap_in_tokens`).
# 3. If GPT-2's context were made four times longer with the same hidden size, how many more parameters would its position table have? Work it out in your head first, then in code.
# 4. Change `train_len` in `rows_with_gradient` and check that the number of rows with a gradient always equals `train_len`.

# %%
# 练习 1、3、4：起点
print(naive.raw_index_content_ratio(ex.RATIO_MAX_POSITION, 1.0))
print(configs.load("gpt2")["context"] * configs.load("gpt2")["hidden"])
print(learned.rows_with_gradient(rows=12, train_len=5).astype(int))
