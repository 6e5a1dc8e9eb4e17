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
# 这本笔记本配合[第 6 课](https://posenc.github.io/posenc/lessons/06-partial-nope/)使用：从真实配置算出部分 RoPE 到底旋转了几维、留下几维不带位置，并验证不旋转的那几维对注意力分数的贡献和位置无关。
#
# 每个代码格都调用课程自己的 `posenc` 库，也就是课程网页上每个数字和每张图背后的同一份代码。网站构建时这本笔记本会被完整运行一遍，你在网页上看到的输出就是那次运行的结果；任何一格报错，网站就构建失败。
#
# 在自己电脑上运行：克隆课程仓库，执行 `make setup`，再用 Jupyter 打开 `docs/notebooks/` 下的这个文件，或者在这个页面上下载 `.ipynb`。最后一节是本课的练习，改一改代码格里的参数，看看结果怎么变。

# %%
# posenc: include _setup.py

# %% [markdown]
# ## 1. 配置里的 partial_rotary_factor
#
# transformers 用 `partial_rotary_factor` 表示只旋转每个头的前 `int(head_dim × factor)` 维，其余维度原样通过，完全不带位置信号（NoPE）。注意核实标签：有的字段只找到了同系列模型的配置（U）。

# %%
from posenc import configs, rope

for key in ("qwen3_next_80b_a3b", "glm45"):
    cfg = configs.load(key)
    hd, frac = cfg.field("head_dim"), cfg.field("rotary_fraction")
    rdim = rope.rotary_dim(hd.value, frac.value)
    print(f"{cfg.name}: head_dim {hd.value}（{hd.tag}）× {frac.value}（{frac.tag}）"
          f"= 旋转 {rdim} 维（{rdim // 2} 对），不带位置 {hd.value - rdim} 维")

# %% [markdown]
# ## 2. 频率按旋转维数算：rotary_dim
#
# 部分 RoPE 的指数除以旋转维数 $d_{rot}$，而不是 head_dim：$\omega_i = \theta^{-2i/d_{rot}}$，所以最慢一对仍然接近 $\theta$ 决定的那个波长。

# %%
cfg = configs.load("glm45")
inv_partial = rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"], cfg["rotary_fraction"])
print("旋转的对数:", len(inv_partial))
print("最快与最慢一对的波长:", f"{rope.wavelengths(inv_partial)[0]:.2f}", f"{rope.wavelengths(inv_partial)[-1]:,.0f}")
print(f"训练长度 {cfg['context']:,} 内转不完一圈的对数:", rope.pairs_not_completing_turn(inv_partial, cfg["context"]))

# %% [markdown]
# ## 3. 不旋转的维度不带位置：NoPE
#
# 把同一对 q、k 放在不同位置上：旋转部分的分数随相对距离变化，不旋转部分的分数和位置完全无关。

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
# ## 4. DeepSeek-V3：把位置拆成单独一块
#
# DeepSeek-V3 的 MLA 换了个做法：每个头有一块不带位置的维度（`nope_head_dim`），再拼上一块专门旋转的维度（配置里的 `head_dim`，即 `qk_rope_head_dim`）。

# %%
ds = configs.load("deepseek_v3")
rope_part, nope_part = ds["head_dim"], ds["nope_head_dim"]
print(f"{ds.name}: 旋转 {rope_part} 维 + 不旋转 {nope_part} 维 = 每个头 {rope_part + nope_part} 维，"
      f"旋转占 {rope_part / (rope_part + nope_part):.1%}")

# %% [markdown]
# ## 练习 Exercises
#
# 1. 如果把 GLM-4.5 的指数错误地按 head_dim 而不是旋转维数来算，最慢一对的波长会变成多少？和正确值比较。
# 2. 第 3 节里，把不旋转部分的 q、k 清零，只剩旋转部分：分数还和绝对位置无关吗？
# 3. 算出 Qwen3-Next 的旋转维数占整个头的比例，和 DeepSeek-V3 比较。哪个模型留给「纯内容」的维度更多？

# %%
# 练习 1：起点（错误的写法：指数除以 head_dim）
wrong = cfg["rope_theta"] ** (-2.0 * np.arange(rdim // 2) / hd)
print(f"{rope.wavelengths(wrong)[-1]:,.0f}", "对比", f"{rope.wavelengths(inv_partial)[-1]:,.0f}")
