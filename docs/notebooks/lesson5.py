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
# # 第 5 课 动手：超长上下文：PI、NTK-aware、YaRN
#
# 这本笔记本配合[第 5 课](https://posenc.github.io/posenc/lessons/05-long-context/)使用：按一个真实模型的配置（Qwen3-8B 的 YaRN 设置）逐对算出 YaRN 之后的频率，并和 PI、NTK-aware 对照。
#
# 每个代码格都调用课程自己的 `posenc` 库，也就是课程网页上每个数字和每张图背后的同一份代码。网站构建时这本笔记本会被完整运行一遍，你在网页上看到的输出就是那次运行的结果；任何一格报错，网站就构建失败。
#
# 在自己电脑上运行：克隆课程仓库，执行 `make setup`，再用 Jupyter 打开 `docs/notebooks/` 下的这个文件，或者在这个页面上下载 `.ipynb`。最后一节是本课的练习，改一改代码格里的参数，看看结果怎么变。

# %%
# posenc: include _setup.py

# %% [markdown]
# ## 1. 配置：configs.load
#
# Qwen3-8B 原生训练长度之外，官方文档让用户自己加上 YaRN 配置（`scaling_opt_in`）。缩放因子 $s$ = 新长度 ÷ 原长度。

# %%
from posenc import configs, rope, scaling

cfg = configs.load("qwen3_8b")
sc = cfg["scaling"]
print("scaling:", sc, "（核实标签", cfg.field("scaling").tag + "）")
print("需要用户自己加:", cfg["scaling_opt_in"])
head_dim, theta, s, L = cfg["head_dim"], cfg["rope_theta"], sc["factor"], sc["original_max_position_embeddings"]
print(f"head_dim={head_dim}, θ={theta:,}, s={s}, 原长度 L={L:,}, 目标长度 {cfg['scaled_context']:,}")

# %% [markdown]
# ## 2. YaRN 逐对算：yarn_pairs
#
# 对第 $j$ 对，先算它在原长度里转了多少圈 $r_j = L/\lambda_j$。转得多的（快的对）保持原频率，一圈都转不完的（慢的对）除以 $s$，和 PI 一样；中间的用斜坡线性混合：$\omega_j' = (1 - \gamma_j)\,\omega_j + \gamma_j\,\omega_j / s$。另外注意力的温度乘上 $0.1\ln s + 1$。

# %%
t = scaling.yarn_pairs(head_dim, theta, s, L)
print(f"斜坡区间（对的编号）: {t.low:.2f} ~ {t.high:.2f}")
print(f"保持不变 {t.kept} 对，完全除以 s 的 {t.interpolated} 对，混合 {t.blended} 对")
print(f"注意力因子 {t.attention_factor:.4f}")
print(" 对  波长(token)   圈数 r     斜坡γ   ω'/ω")
for j in list(range(0, len(t.pair), 8)) + [len(t.pair) - 1]:
    print(f"{j:>3}  {t.wavelength[j]:>11,.1f}  {t.rotations[j]:>9.2f}  {t.ramp[j]:>6.3f}  {t.inv_freq[j] * t.wavelength[j] / (2 * np.pi):.4f}")

# %% [markdown]
# `scaling.for_model` 直接从配置算出同样的频率，和 transformers 的 `ROPE_INIT_FUNCTIONS` 返回的形式一样：`(inv_freq, attention_factor)`。

# %%
inv_freq, att = scaling.for_model(cfg)
print("与逐对表一致:", np.allclose(inv_freq, t.inv_freq), " 注意力因子一致:", att == t.attention_factor)

# %% [markdown]
# ## 3. 和 PI、NTK-aware 比：linear、ntk_aware
#
# PI 把每一对都除以 $s$（快的对也被压慢，近距离的分辨率变差）；NTK-aware 改大基数 θ，快的对几乎不动、慢的对压得最多。YaRN 按「转了几圈」分段处理。下面比较每种方法下，最快、中间、最慢一对的频率变成原来的几分之几：

# %%
omega = rope.inverse_frequencies(head_dim, theta)
methods = {
    "PI": scaling.linear(head_dim, theta, s)[0],
    "NTK-aware": scaling.ntk_aware(head_dim, theta, s)[0],
    "YaRN": inv_freq,
}
mid = len(omega) // 2
for name, w in methods.items():
    r = w / omega
    print(f"{name:>10}: 第 0 对 ×{r[0]:.4f}  第 {mid} 对 ×{r[mid]:.4f}  最后一对 ×{r[-1]:.4f}")
print("NTK-aware 的新基数:", f"{scaling.ntk_aware_base(theta, s, head_dim):,.0f}")

# %% [markdown]
# ## 练习 Exercises
#
# 1. DeepSeek-V3（`configs.load("deepseek_v3")`）的 YaRN 因子大得多。用 `scaling.yarn_pairs` 算它的表：多少对保持不变？注意它的 `mscale`。
# 2. 改 `beta_fast`、`beta_slow`，斜坡区间怎么移动？哪个参数决定「快的对」的边界？
# 3. Llama 3.1 的缩放按波长分三段（`scaling.llama3_split`）。算出 Llama 3.1 8B 三段各有几对，和 YaRN 的划分比较。

# %%
# 练习 1、3：起点
ds = configs.load("deepseek_v3")
print(ds["scaling"])
ll = configs.load("llama31_8b")
lsc = ll["scaling"]
print(scaling.llama3_split(ll["head_dim"], ll["rope_theta"], lsc["low_freq_factor"], lsc["high_freq_factor"],
                           lsc["original_max_position_embeddings"]))
