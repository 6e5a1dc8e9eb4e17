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
# # 第 3 课 动手：用公式算位置：正弦位置编码
#
# 这本笔记本配合[第 3 课](https://posenc.github.io/posenc/lessons/03-sinusoidal/)使用：用 torch 一步步搭出正弦位置表，看同一组字换了顺序、加上位置之后怎么分开，验证编码在几千个位置上都有界、两个位置的点积只取决于距离、平移就是旋转。
#
# 每个代码格都调用课程自己的 `posenc` 库，也就是课程网页上每个数字和每张图背后的同一份代码。网站构建时这本笔记本会被完整运行一遍，你在网页上看到的输出就是那次运行的结果。
#
# 在自己电脑上运行：克隆课程仓库，执行 `make setup`，再用 Jupyter 打开 `docs/notebooks/` 下的这个文件，或者在这个页面上下载 `.ipynb`。最后一节是本课的练习，改一改代码格里的参数，看看结果怎么变。

# %% [markdown] lang="en"
# # Lesson 3, hands on: positions from a formula: sinusoidal positional encoding
#
# This notebook goes with [lesson 3](https://posenc.github.io/posenc/en/lessons/03-sinusoidal/): build the sinusoidal position table step by step in torch, see how the same tokens in a different order come apart once positions are added, and check that the encoding stays bounded over thousands of positions, that the dot product of two positions depends only on their distance, and that a shift is a rotation.
#
# Every code cell calls the course's own `posenc` library, the same code behind every number and figure on the course's pages. The notebook is run from start to end when the site is built, and the outputs you see on the page are that run's.
#
# To run it on your own computer: clone the course repository, run `make setup`, then open this file under `docs/notebooks/` in Jupyter, or download the `.ipynb` from this page. The last section holds the lesson's exercises: change the parameters in the code cells and see how the results change.

# %%
# posenc: include _setup.py

# %% [markdown]
# ## 1. 一步步搭出位置表：sinusoidal_table
#
# Vaswani et al. 2017 §3.5 的公式：$\mathrm{PE}(p)_{2i} = \sin(p\,\omega_i)$，$\mathrm{PE}(p)_{2i+1} = \cos(p\,\omega_i)$，$\omega_i = \theta^{-2i/d_{model}}$（$\theta$ 是底数，代码里叫 `base`）。先算一列位置，再算每一对的角速度 $\omega_i$（取对数再指数，避免算大数的幂）；`p * omega` 靠广播得到 (位置数, 对数) 的角度矩阵，偶数维放 sin，奇数维放 cos。下面这一格就是第 3 课网页上的代码（`docs/snippets/lesson3_table.py`）：

# %% [markdown] lang="en"
# ## 1. The position table step by step: sinusoidal_table
#
# The formula of Vaswani et al. 2017 §3.5: $\mathrm{PE}(p)_{2i} = \sin(p\,\omega_i)$, $\mathrm{PE}(p)_{2i+1} = \cos(p\,\omega_i)$, $\omega_i = \theta^{-2i/d_{model}}$ ($\theta$ is the base, `base` in the code). First a column of positions, then each pair's angular speed $\omega_i$ (through a logarithm and an exponential, to avoid raising a large number to a power); broadcasting `p * omega` gives the matrix of angles, (positions, pairs); the even dimensions take sin, the odd ones cos. The next cell is the code on lesson 3's page (`docs/snippets/lesson3_table.py`):

# %%
# posenc: include lesson3_table.py

# %% [markdown]
# 课程的 `posenc.sinusoidal` 用同一个公式；torch 版是 float32，numpy 版是 float64：

# %% [markdown] lang="en"
# The course's `posenc.sinusoidal` uses the same formula; the torch version is float32, the numpy version float64:

# %%
import torch

from posenc import sinusoidal
from posenc import examples as ex

pe = sinusoidal_table(max_len, d_model)
print("与 posenc.sinusoidal.table_torch 的最大差值:", (pe - sinusoidal.table_torch(max_len, d_model)).abs().max().item())
print("与 numpy 版 sinusoidal.table（float64）的最大差值:",
      float(np.abs(pe.double().numpy() - sinusoidal.table(max_len, d_model)).max()))

# %% [markdown]
# ## 2. 同一组字，换个顺序：nn.Embedding
#
# 词向量是一张按字查的表，和位置无关。只用词向量时，对调两个字的句子就是原句的行换了顺序；加上位置编码后，同一个字在两个位置上的向量就不同了（`docs/snippets/lesson3_cat_fish.py`）：

# %% [markdown] lang="en"
# ## 2. The same words in another order: nn.Embedding
#
# Token embeddings are a table looked up by token, with no position in it. With token embeddings alone, a sentence with two words swapped is the original sentence's rows in another order; once positional encodings are added, the same word gets different vectors at its two positions (`docs/snippets/lesson3_cat_fish.py`):

# %%
# posenc: include lesson3_cat_fish.py

# %% [markdown]
# ## 3. 位置拉到几千，数值会失控吗：pe.norm
#
# sin 和 cos 都在 $[-1, 1]$ 里，每一对 $(\sin, \cos)$ 的长度恒为 1，所以整个向量的长度恒为 $\sqrt{d_{model}/2}$，不管位置多大（`docs/snippets/lesson3_bounded.py`）：

# %% [markdown] lang="en"
# ## 3. Positions in the thousands: do the values run away? pe.norm
#
# sin and cos both lie in $[-1, 1]$, each $(\sin, \cos)$ pair has length 1, so the whole vector's length is always $\sqrt{d_{model}/2}$, however large the position (`docs/snippets/lesson3_bounded.py`):

# %%
# posenc: include lesson3_bounded.py

# %% [markdown]
# ## 4. 点积只取决于距离：clock.dot_curve
#
# 每一对贡献 $\sin\varphi\sin\varphi' + \cos\varphi\cos\varphi' = \cos(\varphi - \varphi')$，所以 $PE(p)\cdot PE(p+k) = \sum_i \cos(k\,\omega_i)$，和 $p$ 无关。网页上那几个起点各算一遍（`clock.dots_from` 直接拿向量点乘，`clock.dot_curve` 用右边的公式）：

# %% [markdown] lang="en"
# ## 4. The dot product depends only on the distance: clock.dot_curve
#
# Each pair contributes $\sin\varphi\sin\varphi' + \cos\varphi\cos\varphi' = \cos(\varphi - \varphi')$, so $PE(p)\cdot PE(p+k) = \sum_i \cos(k\,\omega_i)$, with no $p$ in it. Compute it once from each start the page uses (`clock.dots_from` takes the dot products of the vectors, `clock.dot_curve` uses the formula on the right):

# %%
from posenc import clock

d = ex.SIN_DIM
curve = clock.dot_curve(ex.MAX_DISTANCE, d)
for p0 in ex.DOT_STARTS:
    direct = clock.dots_from(p0, ex.MAX_DISTANCE, d)
    print(f"起点 p = {p0:>7,}: 与 Σcos(kω_i) 的最大差值 {np.abs(direct - curve).max():.1e}")

# %% [markdown]
# 这条曲线不是单调下降的。在画出来的范围里找最低点，再看范围之外：

# %% [markdown] lang="en"
# The curve does not fall monotonically. Find its lowest point in the range drawn, then look beyond it:

# %%
k_min, low = clock.lowest_dot(ex.MAX_DISTANCE, d)
print(f"k ≤ {ex.MAX_DISTANCE}: 最低点 k = {k_min}，点积 {low:.3f}")
k_below = clock.first_dot_below(low, d, limit=ex.FAR_POSITION)
print(f"第一次比它更低: k = {k_below}，点积 {clock.dot_curve(k_below, d)[k_below]:.3f}")
k_far, far_low = clock.lowest_dot(ex.FAR_POSITION, d)
print(f"k ≤ {ex.FAR_POSITION:,}: 最低点 k = {k_far:,}，点积 {far_low:.3f}（下限是 −d_model/2 = {-d / 2}）")

# %% [markdown]
# ## 5. 平移就是旋转：shift_rotation
#
# §3.5 说 $PE(p+k)$ 是 $PE(p)$ 的线性函数。这个线性函数是一个分块对角的旋转矩阵 $M_k$，每一对转过固定角度 $k\,\omega_i$，只和 $k$ 有关：

# %% [markdown] lang="en"
# ## 5. A shift is a rotation: shift_rotation
#
# §3.5 says $PE(p+k)$ is a linear function of $PE(p)$. That linear function is a block-diagonal rotation matrix $M_k$ that turns each pair through a fixed angle $k\,\omega_i$, which depends only on $k$:

# %%
k = ex.SHIFT
M = sinusoidal.shift_rotation(k, d)
for p0 in ex.encoding_positions():
    print(f"max |M_k·PE({p0:,}) − PE({p0 + k:,})| = {clock.rotation_error(p0, k, d):.2e}")
print("M_k 是正交矩阵（Mᵀ M = I）:", np.allclose(M.T @ M, np.eye(d)))
print("每一对转过的角度（度）:", np.degrees(clock.turn_angles(k, d)).round(1))

# %% [markdown]
# ## 练习 Exercises
#
# 1. 把底数 `base`（$\theta$）改成别的值（比如大十倍），最慢一对转一圈要多少个 token？用 `sinusoidal.periods` 验证。
# 2. 第 2 节里，如果位置编码只用第一对（最快的一对），同一个字在位置 0 和位置 `2π` 附近的整数位置上还分得开吗？
# 3. 距离 $k$ 越大，点积一定越小吗？改 `clock.lowest_dot` 的范围，看最低点怎么变。
# 4. 验证 $M_a M_b = M_{a+b}$：两次平移等于一次平移。
# 5. 本课程训练的小模型 $d_{model}$ 更大：用 `clock.pairs_not_turning(ex.PROJECT_TRAIN_LEN, ex.PROJECT_D_MODEL)` 数一数，训练长度之内有多少对一圈都没转满。

# %% [markdown] lang="en"
# ## Exercises
#
# 1. Change the base `base` ($\theta$) to another value (ten times larger, say): how many tokens does the slowest pair need for one turn? Check with `sinusoidal.periods`.
# 2. In section 2, if the positional encoding used only the first pair (the fastest), could the same word still be told apart at position 0 and at the whole-number positions near `2π`?
# 3. Does a larger distance $k$ always mean a smaller dot product? Change the range of `clock.lowest_dot` and watch how the lowest point moves.
# 4. Check that $M_a M_b = M_{a+b}$: two shifts make one shift.
# 5. The small model this course trains has a larger $d_{model}$: count with `clock.pairs_not_turning(ex.PROJECT_TRAIN_LEN, ex.PROJECT_D_MODEL)` how many pairs do not complete a single turn within the training length.

# %%
# 练习 1、3、4、5：起点
print(sinusoidal.periods(d, base=sinusoidal.DEFAULT_BASE))
print(clock.lowest_dot(ex.MAX_DISTANCE, d))
a, b = ex.NEAR_POSITION, ex.SHIFT
print(np.allclose(sinusoidal.shift_rotation(a, d) @ sinusoidal.shift_rotation(b, d), sinusoidal.shift_rotation(a + b, d)))
print(clock.pairs_not_turning(ex.PROJECT_TRAIN_LEN, ex.PROJECT_D_MODEL), "/", ex.PROJECT_D_MODEL // 2)
