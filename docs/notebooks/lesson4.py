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
# 这本笔记本配合[第 4 课](https://posenc.github.io/posenc/lessons/04-rope/)使用：亲手把 query 和 key 按位置旋转，验证注意力分数只取决于相对距离；再数一数 Qwen3 有多少对维度在训练长度里一圈都转不完。
#
# 每个代码格都调用课程自己的 `posenc` 库，也就是课程网页上每个数字和每张图背后的同一份代码。网站构建时这本笔记本会被完整运行一遍，你在网页上看到的输出就是那次运行的结果；任何一格报错，网站就构建失败。
#
# 在自己电脑上运行：克隆课程仓库，执行 `make setup`，再用 Jupyter 打开 `docs/notebooks/` 下的这个文件，或者在这个页面上下载 `.ipynb`。最后一节是本课的练习，改一改代码格里的参数，看看结果怎么变。

# %%
# posenc: include _setup.py

# %% [markdown]
# ## 1. 每一对维度一个角速度：inverse_frequencies
#
# RoPE（Su et al. 2021, RoFormer）把 query/key 的维度两两配对，第 $i$ 对以 $\omega_i = \theta^{-2i/d}$ 的角速度旋转：位置 $m$ 上的 token 转过 $m\,\omega_i$。

# %%
from posenc import rope

head_dim, theta = 8, 10_000.0
inv_freq = rope.inverse_frequencies(head_dim, theta)
print("ω_i:", inv_freq)
print("转一圈要多少个 token（λ_i = 2π/ω_i）:", rope.wavelengths(inv_freq))

# %% [markdown]
# ## 2. 旋转 q 和 k，分数只看距离：rotate
#
# 同一对 query、key 向量放在不同的绝对位置上，只要距离 $n - m$ 相同，旋转后的点积就相同。

# %%
rng = np.random.default_rng(0)
q, k = rng.standard_normal(head_dim), rng.standard_normal(head_dim)


def score(m, n):
    qm = rope.rotate(q[None, :], [m], inv_freq)[0]
    kn = rope.rotate(k[None, :], [n], inv_freq)[0]
    return float(qm @ kn)


for m, n in ((3, 7), (10, 14), (1000, 1004), (3, 8)):
    print(f"q 在位置 {m:>4}，k 在位置 {n:>4}（距离 {n - m}）: 分数 {score(m, n):+.6f}")
print("旋转不改变长度:", np.allclose(np.linalg.norm(rope.rotate(q[None, :], [123], inv_freq)), np.linalg.norm(q)))

# %% [markdown]
# ## 3. torch 版本，和两种维度排布：apply_rotary_torch
#
# transformers 的 `rotate_half` 把第 $i$ 对放在维度 $(i, i + d/2)$；RoFormer 原文和 Meta 的 Llama 代码放在 $(2i, 2i+1)$。两者只差一个固定的维度重排：

# %%
import torch

T = 6
x = rng.standard_normal((T, head_dim))
pos = np.arange(T)
half_torch = rope.apply_rotary_torch(torch.tensor(x), torch.arange(T), torch.tensor(inv_freq), convention="half").numpy()
half_np = rope.rotate(x, pos, inv_freq, convention="half")
print("torch 与 numpy（half 排布）的最大差值:", float(np.abs(half_torch - half_np).max()))

perm = rope.convention_permutation(head_dim)
print("重排下标:", perm)
inter = rope.rotate(x, pos, inv_freq, convention="interleaved")
print("rotate_half(x[perm]) 与 interleaved(x)[perm] 的最大差值:",
      float(np.abs(rope.rotate(x[:, perm], pos, inv_freq, convention="half") - inter[:, perm]).max()))

# %% [markdown]
# ## 4. Qwen3 有多少对一圈都转不完：pairs_not_completing_turn
#
# 波长 $\lambda_i$ 比训练长度还长的那些对，在训练时从没转完一圈，它们的角度其实在充当粗略的绝对位置。第 5 课的长上下文方法正是对这些对动手。配置来自 `posenc/data/models.yaml`，带核实标签。

# %%
from posenc import configs

cfg = configs.load("qwen3_8b")
for name in ("head_dim", "rope_theta", "context"):
    f = cfg.field(name)
    print(f"{name}: {f.value:,}（核实标签 {f.tag}）")
inv = rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"])
lam = rope.wavelengths(inv)
n_slow = rope.pairs_not_completing_turn(inv, cfg["context"])
print(f"{cfg.name}: {len(inv)} 对里有 {n_slow} 对在 {cfg['context']:,} 个 token 内转不完一圈")
print("第一对转不完的是第", int(np.argmax(lam > cfg["context"])), "对，波长", f"{lam[lam > cfg['context']][0]:,.0f}", "个 token")

# %% [markdown]
# ## 练习 Exercises
#
# 1. 验证第 2 节的结论对任何 $q, k$ 都成立：换几个随机种子，也换几组同距离的位置。
# 2. 距离变大时，分数会怎样变化？固定 $q = k$，打印 `score(0, n)` 随 $n$ 的变化。
# 3. 换成 Llama 2 7B 和 Llama 3 8B（`configs.load("llama2_7b")`、`"llama3_8b"`），各有多少对转不完一圈？基数 θ 变大，这个数怎么变？

# %%
# 练习 3：起点
for key in ("llama2_7b", "llama3_8b", "qwen3_8b"):
    c = configs.load(key)
    print(c.name, rope.pairs_not_completing_turn(rope.inverse_frequencies(c["head_dim"], c["rope_theta"]), c["context"]))
