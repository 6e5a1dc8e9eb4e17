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
# # 第 6 课 动手：部分 RoPE，还是干脆不要
#
# 这本笔记本配合[第 6 课](https://posenc.github.io/posenc/lessons/06-partial-nope/)使用：从真实配置算出部分 RoPE 到底旋转了几维、同一个向量和自己的分数为什么是 Σ|q_i|²cos(kω_i)、哪些层不加位置编码、Qwen3-Next 的 q/k 里真正带 RoPE 的占比，以及 DeepSeek-V3 的 MLA 为什么必须把 RoPE 单独拼一段。
#
# 每个代码格都调用课程自己的 `posenc` 库，也就是课程网页上每个数字和每张图背后的同一份代码。网站构建时这本笔记本会被完整运行一遍，你在网页上看到的输出就是那次运行的结果；任何一格报错，网站就构建失败。
#
# 在自己电脑上运行：克隆课程仓库，执行 `make setup`，再用 Jupyter 打开 `docs/notebooks/` 下的这个文件，或者在这个页面上下载 `.ipynb`。最后一节是本课的练习，改一改代码格里的参数，看看结果怎么变。

# %% [markdown] lang="en"
# # Lesson 6, hands on: partial RoPE, or none at all
#
# This notebook goes with [lesson 6](https://posenc.github.io/posenc/en/lessons/06-partial-nope/): from real configs it computes how many dimensions partial RoPE actually rotates, why the same vector scored against itself gives Σ|q_i|²cos(kω_i), which layers have no positional encoding, how much of Qwen3-Next's q/k really carries RoPE, and why DeepSeek-V3's MLA has to append RoPE as a separate piece.
#
# Every code cell calls the course's own `posenc` library, the same code behind every number and figure on the course pages. When the site is built, this notebook is run from top to bottom, and the output you see on the page is that run's; if any cell fails, the site does not build.
#
# To run it on your own computer: clone the course repository, run `make setup`, then open this file under `docs/notebooks/` in Jupyter, or download the `.ipynb` from this page. The last section holds the lesson's exercises: change the parameters in the code cells and see how the results change.

# %%
# posenc: include _setup.py

# %% [markdown]
# ## 1. 配置里的 partial_rotary_factor：head_dims
#
# transformers 用 `partial_rotary_factor` 表示只旋转每个头的前 `int(head_dim × factor)` 维，其余维度原样通过，完全不带位置信号。`hybrid.head_dims` 从配置数出一个头的总维数、旋转的维数，以及在上下文长度里至少转满一圈的维数。注意核实标签：有的字段只找到了同系列模型的配置（U）。

# %% [markdown] lang="en"
# ## 1. partial_rotary_factor in the config: head_dims
#
# In transformers, `partial_rotary_factor` means that only the first `int(head_dim × factor)` dimensions of each head rotate; the rest pass through unchanged and carry no position signal at all. `hybrid.head_dims` counts, from a config, a head's width, how many dimensions rotate, and how many turn at least once within the context length. Mind the verification tags: for some fields only the config of a model from the same family was found (U).

# %%
from posenc import configs, hybrid, mla, rope
from posenc import examples as ex

for key in ex.PARTIAL_MODELS:
    model = configs.load(key)
    d = hybrid.head_dims(model)
    tags = "、".join(f"{f} {model.field(f).tag}" for f in ("head_dim", "rope_theta", "context") if f in model.fields)
    print(f"{model.name}: {d.width} 维，旋转 {d.rotary} 维（其中 {d.turning} 维转得满一圈），不带位置 {d.plain} 维  [{tags}]")

# %% [markdown]
# ## 2. 频率按旋转维数算：rotary_dim
#
# 部分 RoPE 的指数除以旋转维数 $d_{rot}$，而不是 head_dim：$\omega_i = \theta^{-2i/d_{rot}}$，所以最慢一对仍然接近 $\theta$ 决定的那个波长。

# %% [markdown] lang="en"
# ## 2. Frequencies from the rotating dimensions: rotary_dim
#
# Partial RoPE's exponent divides by the number of rotating dimensions $d_{rot}$, not by head_dim: $\omega_i = \theta^{-2i/d_{rot}}$, so the slowest pair is still close to the wavelength that $\theta$ sets.

# %%
cfg = configs.load("glm45")
inv_partial = rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"], cfg["rotary_fraction"])
print("旋转的对数:", len(inv_partial))
print("最快与最慢一对的波长:", f"{rope.wavelengths(inv_partial)[0]:.2f}", f"{rope.wavelengths(inv_partial)[-1]:,.0f}")
print(f"上下文长度 {cfg['context']:,} 内转不完一圈的对数:", rope.pairs_not_completing_turn(inv_partial, cfg["context"]))

# %% [markdown]
# ## 3. p-RoPE 去掉的是慢的频率：p_rope_frequencies
#
# p-RoPE（Barbero et al. 2024）留下的是整个头里转得最快的那些对，指数仍除以 head_dim，其余的对频率为 0、不转；transformers 把它叫 proportional RoPE。上一节的部分 RoPE 则在旋转的维数上铺满从快到慢的整段频率。同样转一部分的对，两种做法最慢的那一对差了几个数量级。

# %% [markdown] lang="en"
# ## 3. p-RoPE removes the slow frequencies: p_rope_frequencies
#
# p-RoPE (Barbero et al. 2024) keeps the fastest pairs of the whole head, with the exponent still divided by head_dim; the other pairs get frequency 0 and do not rotate. transformers calls it proportional RoPE. The partial RoPE of the previous section instead spreads the whole range of frequencies, fast to slow, over the rotating dimensions. With the same number of pairs rotating, the two designs' slowest pairs are orders of magnitude apart.

# %%
nxt = configs.load(ex.PROPE_MODEL)
full = rope.inverse_frequencies(nxt["head_dim"], nxt["rope_theta"])
partial = rope.inverse_frequencies(nxt["head_dim"], nxt["rope_theta"], nxt["rotary_fraction"])
prope = hybrid.p_rope_frequencies(nxt["head_dim"], nxt["rope_theta"], nxt["rotary_fraction"])
prope = prope[prope > 0]
print(f"{nxt.name}（rope_theta 的核实标签 {nxt.field('rope_theta').tag}），上下文长度 {nxt['context']:,}")
for name, inv_ in (("整个头都转", full), ("部分 RoPE", partial), ("p-RoPE", prope)):
    lam = rope.wavelengths(inv_)
    print(f"{name:>8}: {len(inv_):>3} 对，最慢一对周期 {lam[-1]:>14,.0f}，转不满一圈 {rope.pairs_not_completing_turn(inv_, nxt['context']):>3} 对")

# %% [markdown]
# ## 4. 不旋转的维度不带位置：partial rotation
#
# 把同一对 q、k 放在不同位置上：旋转部分的分数随相对距离变化，不旋转部分的分数和位置完全无关。

# %% [markdown] lang="en"
# ## 4. The unrotated dimensions carry no position: partial rotation
#
# Put the same q and k at different positions: the rotated part's score changes with the relative distance, while the unrotated part's score does not depend on position at all.

# %%
hd = cfg["head_dim"]
rdim = rope.rotary_dim(hd, cfg["rotary_fraction"])
rng = np.random.default_rng(0)
q, k = rng.standard_normal(hd), rng.standard_normal(hd)
for m, n in ((0, 0), (0, 50), (1000, 1050), (0, 5000)):
    qm = rope.rotate(q[None, :], [m], inv_partial, convention="half")[0]
    kn = rope.rotate(k[None, :], [n], inv_partial, convention="half")[0]
    print(f"q@{m:>4}, k@{n:>4}: 旋转部分 {qm[:rdim] @ kn[:rdim]:+8.4f}   不旋转部分 {qm[rdim:] @ kn[rdim:]:+8.4f}")

# %% [markdown]
# ## 5. 同一个向量隔 k 个位置和自己打分：self_scores
#
# `rope.self_scores` 真的把 q 转过去再做点积；`rope.self_scores_closed_form` 用推导出的公式 Σ|q_i|²cos(kω_i)。两者应该只差舍入误差。每一对长度都为 1 时，才是第 3 课那条 Σcos(kω_i)。

# %% [markdown] lang="en"
# ## 5. The same vector scored against itself k positions later: self_scores
#
# `rope.self_scores` really rotates q and takes the dot product; `rope.self_scores_closed_form` uses the derived formula Σ|q_i|²cos(kω_i). The two should differ only by rounding error. Only when every pair has length 1 is it lesson 3's curve Σcos(kω_i).

# %%
d = ex.SIN_DIM
inv = rope.inverse_frequencies(d, ex.DEFAULT_BASE)
q = np.random.default_rng(ex.SELF_SCORE_SEED).standard_normal(d)
ks = np.arange(ex.MAX_DISTANCE + 1)
explicit = rope.self_scores(q, ks, inv)
closed = rope.self_scores_closed_form(q, ks, inv)
print("两种算法的最大差:", np.abs(explicit - closed).max())
print("各对的 |q_i|²:", rope.pair_energies(q, len(inv)))
print(f"起点 {explicit[0]:.2f}，最低 {explicit.min():.2f}（距离 {explicit.argmin()}），为起点的 {explicit.min() / explicit[0]:.0%}")
unit = np.zeros(d)
unit[0::2] = 1.0
sum_cos = rope.self_scores(unit, ks, inv)
print(f"每对长度为 1：起点 {sum_cos[0]:.2f}，最低 {sum_cos.min():.2f}（距离 {sum_cos.argmin()}）")

# %% [markdown]
# ## 6. 哪些层带 RoPE：layer_pattern 与 pattern_counts
#
# 每一层的类型：带 RoPE 的全局、局部（滑动窗口）、分块注意力，不加位置编码的全局注意力（NoPE），没有 softmax 的线性注意力（Gated DeltaNet、KDA），或者 Mamba 层。Kimi Linear 和 Jamba 的注意力层一层也不带位置编码。没有记录总层数的模型，只数一个周期；Kimi Linear 的层排列不是严格的周期，它的「一个周期」就是全部层。

# %% [markdown] lang="en"
# ## 6. Which layers have RoPE: layer_pattern and pattern_counts
#
# Each layer's kind: global, local (sliding-window) or chunked attention with RoPE, global attention with no positional encoding (NoPE), linear attention without softmax (Gated DeltaNet, KDA), or a Mamba layer. No attention layer of Kimi Linear or Jamba has a positional encoding. For a model whose total depth is not recorded, only one period is counted; Kimi Linear's layer order is not strictly periodic, so its "one period" is all of its layers.

# %%
for key in ex.LAYER_MODELS + ("command_a",):
    model = configs.load(key)
    n = model["layers"] if "layers" in model.fields else hybrid.pattern_period(model)
    counts = {k: v for k, v in hybrid.pattern_counts(model, n).items() if v}
    first = hybrid.layer_pattern(model, hybrid.pattern_period(model))
    whole = "全部" if "layers" in model.fields else "一个周期的"
    print(f"{model.name}: {whole} {n} 层 {counts}\n    一个周期: {first}")

# %% [markdown]
# ## 7. Qwen3-Next 的 q/k 里有多少带 RoPE：rope_dim_shares
#
# 按每一层真实的宽度加起来，和「带 RoPE 的层的占比 × 每头旋转维的占比」比较。

# %% [markdown] lang="en"
# ## 7. How much of Qwen3-Next's q/k carries RoPE: rope_dim_shares
#
# Add up each layer's real width, and compare with "the share of layers with RoPE × the share of rotating dimensions per head".

# %%
s = hybrid.rope_dim_shares(configs.load("qwen3_next_80b_a3b"))
print(f"q: {s.query_rope:,} / {s.query_dims:,} = {s.query_share:.2%}")
print(f"k: {s.key_rope:,} / {s.key_dims:,} = {s.key_share:.2%}")
print(f"简单乘积: {s.layer_share:.0%} × {s.head_share:.0%} = {s.simple_product:.2%}")

# %% [markdown]
# ## 8. Llama 4 的 NoPE 层放大 q：llama4_attn_scale

# %% [markdown] lang="en"
# ## 8. Llama 4's NoPE layers scale q up: llama4_attn_scale

# %%
scout = configs.load("llama4_scout")
positions = [0, scout["floor_scale"] - 2, scout["floor_scale"] - 1, 131_071, ex.LLAMA4_FAR_POSITION]
for p, scale in zip(positions, hybrid.llama4_attn_scale(positions, scout["floor_scale"], scout["attn_scale"])):
    print(f"位置 {p:>10,}: q × {scale:.4f}")

# %% [markdown]
# ## 9. MLA 的吸收为什么容不下 RoPE：absorption_demo
#
# 一个小的随机注意力头：不加 RoPE 时，先把 $(W^{\text{up}}_q)^\top W^{\text{up}}_k$ 乘好（吸收）和先还原 k 再打分，结果只差舍入误差；RoPE 加在压缩后的 key 上，固定矩阵就算错了；把 RoPE 挪到单独的 $q^{\text{rope}}$、$k^{\text{rope}}$ 上（解耦），又对了。

# %% [markdown] lang="en"
# ## 9. Why MLA's absorption has no room for RoPE: absorption_demo
#
# A small random attention head: without RoPE, multiplying out $(W^{\text{up}}_q)^\top W^{\text{up}}_k$ first (absorption) and rebuilding k before scoring agree up to rounding error; with RoPE on the compressed key, the fixed matrix gets it wrong; move RoPE onto a separate $q^{\text{rope}}$ and $k^{\text{rope}}$ (decoupling), and it is right again.

# %%
demo = mla.absorption_demo(base=ex.DEFAULT_BASE, **ex.MLA_DEMO)
print(f"不加 RoPE:            最大差 {demo.plain:.1e}")
print(f"RoPE 加在压缩后的 key 上: 最大差 {demo.rope_on_keys:.2f}（分数绝对值最大 {demo.max_score:.2f}）")
print(f"解耦 RoPE:            最大差 {demo.decoupled:.1e}")

# %% [markdown]
# ## 10. DeepSeek-V3 每个 token 缓存多少：for_model

# %% [markdown] lang="en"
# ## 10. How much DeepSeek-V3 caches per token: for_model

# %%
cmp = mla.for_model(configs.load(ex.MLA_MODEL))
for name, b in cmp.bytes("bf16").items():
    print(f"{name:>14}: {getattr(cmp, name):>10,} 个数, {b / 1024:>10,.1f} KiB（bf16）")
print(f"同样的头做多头注意力是 MLA 的 {cmp.mha_full_keys / cmp.mla:.1f} 倍")

# %% [markdown]
# ## 练习 Exercises
#
# 1. 如果把 GLM-4.5 的指数错误地按 head_dim 而不是旋转维数来算，最慢一对的波长会变成多少？和正确值比较。这个「错误」的结果，恰好是 p-RoPE 留下的那些频率：用 `hybrid.p_rope_frequencies` 验证一下。
# 2. 第 5 节里，换一个种子，或者把 q 的分量都放到最快的一对上：分数曲线怎么变？
# 3. 第 6 节里，SmolLM3 哪几层不加 RoPE？把 `nope_layer_interval` 想成 3，数一数会有几层。
# 4. 第 9 节里，把 `rope_head_dim` 改大或改小，解耦之后的差还是舍入误差吗？

# %% [markdown] lang="en"
# ## Exercises
#
# 1. If GLM-4.5's exponent were wrongly computed with head_dim instead of the number of rotating dimensions, what would the slowest pair's wavelength become? Compare it with the right value. This "wrong" result is exactly the set of frequencies p-RoPE keeps: check it with `hybrid.p_rope_frequencies`.
# 2. In section 5, try another seed, or put all of q's weight on the fastest pair: how does the score curve change?
# 3. In section 6, which of SmolLM3's layers have no RoPE? Imagine `nope_layer_interval` were 3 and count how many layers that would give.
# 4. In section 9, make `rope_head_dim` larger or smaller: is the difference after decoupling still rounding error?

# %%
# 练习 1：起点（错误的写法：指数除以 head_dim）
wrong = cfg["rope_theta"] ** (-2.0 * np.arange(rdim // 2) / hd)
print(f"{rope.wavelengths(wrong)[-1]:,.0f}", "对比", f"{rope.wavelengths(inv_partial)[-1]:,.0f}")
