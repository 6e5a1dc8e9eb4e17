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
# # 第 4 课 动手：RoPE 到底旋转了什么
#
# 这本笔记本配合[第 4 课](https://posenc.github.io/posenc/lessons/04-rope/)使用：亲手把 query 和 key 按位置旋转，验证注意力分数只取决于相对距离；用 torch 写一遍 RoPE，对照两种代码写法；再数一数真实模型有多少个频率对在原生上下文里一圈都转不满。
#
# 每个代码格都调用课程自己的 `posenc` 库，也就是课程网页上每个数字和每张图背后的同一份代码。网站构建时这本笔记本会被完整运行一遍，你在网页上看到的输出就是那次运行的结果；任何一格报错，网站就构建失败。
#
# 在自己电脑上运行：克隆课程仓库，执行 `make setup`，再用 Jupyter 打开 `docs/notebooks/` 下的这个文件，或者在这个页面上下载 `.ipynb`。最后一节是本课的练习，改一改代码格里的参数，看看结果怎么变。

# %% [markdown] lang="en"
# # Lesson 4, hands on: what RoPE actually rotates
#
# This notebook goes with [lesson 4](https://posenc.github.io/posenc/en/lessons/04-rope/): rotate a query and a key by their positions yourself, and check that the attention score depends only on the relative distance; write RoPE once in torch and compare the two layouts (half-split and interleaved); then count how many frequency pairs of real models never complete a turn within their native context.
#
# Every code cell calls the course's own `posenc` library, the same code behind every number and every figure of the course pages. When the site is built this notebook is run from top to bottom, and the output you see on the page is that run's; if any cell fails, the site fails to build.
#
# To run it on your own computer: clone the course repository, run `make setup`, then open this file under `docs/notebooks/` in Jupyter, or download the `.ipynb` from this page. The last section holds the lesson's exercises: change the parameters in the code cells and see how the results change.

# %%
# posenc: include _setup.py

# %% [markdown]
# ## 1. 每个频率对一个角速度：inverse_frequencies
#
# RoPE（Su et al. 2021, RoFormer）把 query/key 的维度两两配成频率对，第 $i$ 对以 $\omega_i = \theta^{-2i/d_{rot}}$ 的角速度旋转（本课转整个头，$d_{rot} = d_{head}$）：位置 $m$ 上的 token 转过 $m\,\omega_i$。下面用网页实测的那个头的维数：

# %% [markdown] lang="en"
# ## 1. One angular speed per frequency pair: inverse_frequencies
#
# RoPE (Su et al. 2021, RoFormer) pairs the dimensions of the query and the key into frequency pairs, and pair $i$ turns at angular speed $\omega_i = \theta^{-2i/d_{rot}}$ (this lesson turns the whole head, $d_{rot} = d_{head}$): a token at position $m$ is turned by $m\,\omega_i$. Below we use the width of the head measured on the lesson page:

# %%
from posenc import examples as ex
from posenc import rope, shift
from posenc.sinusoidal import DEFAULT_BASE

head_dim = ex.L4_DIM
inv_freq = rope.inverse_frequencies(head_dim, DEFAULT_BASE)
print("ω_i:", inv_freq)
print("转一圈要多少个 token（λ_i = 2π/ω_i）:", rope.wavelengths(inv_freq))

# %% [markdown]
# ## 2. 旋转 q 和 k，分数只看距离：rotate
#
# 取网页实测的那个头和例句里的第一个字，算出投影后的 $q$、$k$。查询在位置 $m$、键在位置 $n$；同一对向量放在不同的绝对位置上，只要距离 $m - n$ 相同，旋转后的点积就相同：

# %% [markdown] lang="en"
# ## 2. Rotate q and k, and the score sees only the distance: rotate
#
# Take the head measured on the lesson page and the first token of the example sentence, and compute the projected $q$ and $k$. The query is at position $m$, the key at position $n$; put the same pair of vectors at different absolute positions, and as long as the distance $m - n$ is the same, the dot product after rotation is the same:

# %%
sentence = ex.texts("zh").sentence  # 本版的例句
head, tokens = shift.head_and_tokens(sentence, head_dim, ex.L4_SEED)
q_vec, k_vec = tokens[0] @ head.w_q, tokens[0] @ head.w_k


def score(m, n):
    qm = rope.rotate(q_vec[None, :], [m], inv_freq)[0]
    kn = rope.rotate(k_vec[None, :], [n], inv_freq)[0]
    return float(qm @ kn)


m, n = ex.PAIR_M, ex.PAIR_N
for a, b in ((m, n), (m + ex.SHIFT, n + ex.SHIFT), (m + ex.FAR_POSITION, n + ex.FAR_POSITION), (m + 1, n)):
    print(f"q 在位置 {a:>7,}，k 在位置 {b:>7,}（距离 m − n = {a - b}）: 分数 {score(a, b):+.6f}")
print("旋转不改变长度:", np.allclose(np.linalg.norm(rope.rotate(q_vec[None, :], [ex.FAR_POSITION], inv_freq)), np.linalg.norm(q_vec)))

# %% [markdown]
# ## 3. 整句平移：shift.scores
#
# 三种给位置的方式，整句平移前后逐格相减（第 4 课「实测」一节的表）：

# %% [markdown] lang="en"
# ## 3. Shifting the whole sentence: shift.scores
#
# Three ways of bringing position in, each computed before and after the whole sentence shifts, subtracted cell by cell (the table of the measurement section of lesson 4):

# %%
for method in shift.METHODS:
    print(f"{method:>5}: 平移 {ex.SHIFT} 后分数的最大变化 {shift.shift_change(sentence, ex.SHIFT, method, head_dim, ex.L4_SEED):.2e}")
print(f"只看位置部分（第 3 课证据二）: {shift.position_part_shift_change(sentence, ex.SHIFT, head_dim, ex.L4_SEED):.2f}")

# %% [markdown]
# ## 4. 用 torch 写一遍：apply_rope
#
# 这一格就是第 4 课网页上的代码（`docs/snippets/lesson4_rope_torch.py`）：先为每个位置算好 $\cos(m\,\omega_i)$、$\sin(m\,\omega_i)$，再用 `x * cos + rotate_half(x) * sin` 完成旋转。

# %% [markdown] lang="en"
# ## 4. Writing it in torch: apply_rope
#
# This cell is the code on the lesson 4 page (`docs/snippets/lesson4_rope_torch.py`): first compute $\cos(m\,\omega_i)$ and $\sin(m\,\omega_i)$ for every position, then rotate with `x * cos + rotate_half(x) * sin`.

# %%
# posenc: include lesson4_rope_torch.py

# %% [markdown]
# 和课程的 `posenc.rope.apply_rotary_torch` 比一比（同样是 rotate_half 的排法）：

# %% [markdown] lang="en"
# Compare it with the course's `posenc.rope.apply_rotary_torch` (the same rotate_half layout):

# %%
q_proj = torch.tensor(tokens @ head.w_q, dtype=torch.float32)
cos_t, sin_t = rope_cos_sin(torch.arange(len(sentence)), head_dim)
mine = apply_rope(q_proj, cos_t, sin_t)
ref = rope.apply_rotary_torch(q_proj, torch.arange(len(sentence)), torch.tensor(inv_freq), convention="half")
print("与 posenc.rope.apply_rotary_torch 的最大差值:", (mine - ref).abs().max().item())

# %% [markdown]
# ## 5. 两种写法只差一个排列：convention_permutation
#
# 这一格是网页上的第二段代码（`docs/snippets/lesson4_conventions.py`），它用的是上一格定义的 `rope_cos_sin` 和 `apply_rope`：

# %% [markdown] lang="en"
# ## 5. The two layouts differ by a permutation: convention_permutation
#
# This cell is the second program on the page (`docs/snippets/lesson4_conventions.py`); it uses the `rope_cos_sin` and `apply_rope` defined in the cell before:

# %%
# posenc: include lesson4_conventions.py

# %% [markdown]
# 课程的 `posenc.shift.convention_scores` 做的是同一件事，网页上引用的数也出自它：

# %% [markdown] lang="en"
# The course's `posenc.shift.convention_scores` does the same thing, and the numbers the page quotes come from it:

# %%
s_a, s_b = shift.convention_scores(sentence, d=head_dim, seed=ex.L4_SEED)
s_c, s_d = shift.convention_scores(sentence, d=head_dim, seed=ex.L4_SEED, permute_weights=False)
print("换位后两种写法的最大差:", float(np.abs(s_a - s_b).max()))
print("不换位的最大差:", round(float(np.abs(s_c - s_d).max()), 2))
print("与上一格 torch 代码的分数一致:", np.allclose(s_a, s_inter.numpy()), np.allclose(s_d, s_half_raw.numpy()))

# %% [markdown]
# ## 6. 真实模型有多少对一圈都转不满：model_spectrum
#
# 波长 $\lambda_i$ 比训练长度还长的那些对，在训练时从没转完一圈，它们的角度其实在充当粗略的绝对位置。第 5 课的长上下文方法正是对这些对动手。配置来自 `posenc/data/models.yaml`，带核实标签。

# %% [markdown] lang="en"
# ## 6. How many pairs of a real model never complete a turn: model_spectrum
#
# The pairs whose wavelength $\lambda_i$ is longer than the training length never completed a turn in training; their angles in effect act as a rough absolute position. Lesson 5's long-context methods work on exactly these pairs. The configuration comes from `posenc/data/models.yaml`, with verification tags.

# %%
from posenc import configs

cfg = configs.load("qwen3_8b")
for name in ("head_dim", "rope_theta", "context"):
    f = cfg.field(name)
    print(f"{name}: {f.value:,}（核实标签 {f.tag}）")
sp = rope.model_spectrum(cfg)
print(f"{cfg.name}: {sp.pairs} 对里有 {sp.count_not_turning} 对在 {sp.context:,} 个 token 内转不满一圈")
print(f"第一个转不满的是第 {sp.first_not_turning} 对，波长 {sp.first_not_turning_wavelength:,.0f} 个 token")

# %% [markdown]
# 本课程自己训练的小模型（第 3 课的项目实测）也一样，只是尺度小得多：

# %% [markdown] lang="en"
# The small model this course trains (lesson 3's project measurement) is no different, only at a much smaller scale:

# %%
P = ex.PROJECT
sp = rope.spectrum(rope.inverse_frequencies(P.head_dim, P.rope_base), P.train_len)
print(f"项目模型每个头 {P.head_dim} 维、{sp.pairs} 对，训练长度 {P.train_len} 内有 {sp.count_not_turning} 对转不满一圈")

# %% [markdown]
# ## 练习 Exercises
#
# 1. 验证第 2 节的结论对任何 $q, k$ 都成立：换几个随机种子，也换几组同距离的位置。
# 2. 距离变大时，分数会怎样变化？固定 $q = k$，打印 `score(0, n)` 随 $n$ 的变化（`shift.same_vector_scores` 给出每一对都是 $(1, 0)$ 时的曲线）。
# 3. 换成表里的其他模型（`ex.ROPE_TABLE_MODELS`），各有多少对转不满一圈？底数 θ 变大，这个数怎么变？

# %% [markdown] lang="en"
# ## Exercises
#
# 1. Check that section 2's conclusion holds for any $q$ and $k$: try a few other random seeds, and a few other pairs of positions at the same distance.
# 2. How does the score change as the distance grows? Fix $q = k$ and print `score(0, n)` as $n$ grows (`shift.same_vector_scores` gives the curve when every pair is $(1, 0)$).
# 3. Switch to the other models of the table (`ex.ROPE_TABLE_MODELS`): how many pairs of each never complete a turn? How does that number change as the base θ grows?

# %%
# 练习 3：起点
for key in ex.ROPE_TABLE_MODELS:
    c = configs.load(key)
    s = rope.model_spectrum(c)
    print(f"{c.name}: θ = {c['rope_theta']:,.0f}，{s.count_not_turning}/{s.pairs}")
