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
# # 第 5 课 动手：超长上下文：位置插值、YaRN、调底数与有效长度
#
# 这本笔记本配合[第 5 课](https://posenc.github.io/posenc/lessons/05-long-context/)使用：按真实模型的配置逐对算出 YaRN 之后的频率，和位置插值（PI）、NTK-aware 对照；算 LongRoPE 的两套倍数；再算真实训练配方里的调底数（ABF）对每个频率对做了什么，前人的临界维度和底数下界，RULER 测出的有效长度占声称窗口的多少，以及 bf16 下角度差多少。
#
# 每个代码格都调用课程自己的 `posenc` 库，也就是课程网页上每个数字和每张图背后的同一份代码。网站构建时这本笔记本会被完整运行一遍，你在网页上看到的输出就是那次运行的结果；任何一格报错，网站就构建失败。
#
# 在自己电脑上运行：克隆课程仓库，执行 `make setup`，再用 Jupyter 打开 `docs/notebooks/` 下的这个文件，或者在这个页面上下载 `.ipynb`。最后一节是本课的练习，改一改代码格里的参数，看看结果怎么变。

# %% [markdown] lang="en"
# # Lesson 5, hands on — long context: position interpolation, YaRN, raising the base, and effective length
#
# This notebook goes with [lesson 5](https://posenc.github.io/posenc/en/lessons/05-long-context/): it computes, pair by pair and from a real model's config, the frequencies after YaRN, and compares them with position interpolation (PI) and NTK-aware; it computes LongRoPE's two sets of factors; then what raising the base (ABF) in real training recipes does to each frequency pair; the earlier critical dimension and lower bound on the base; what share of the claimed length RULER's effective lengths are; and how far the angles drift in bf16.
#
# Every code cell calls the course's own `posenc` library, the same code behind every number and figure on the course site. The site build runs this notebook from top to bottom, and the outputs you see on the web page are that run's; if any cell fails, the site build fails.
#
# To run it on your own machine: clone the course repository, run `make setup`, then open this file under `docs/notebooks/` in Jupyter, or download the `.ipynb` from this page. The last section holds the lesson's exercises: change the parameters in the code cells and see how the results change.

# %%
# posenc: include _setup.py

# %% [markdown]
# ## 1. 配置：configs.load
#
# Qwen3-8B 训练长度之外，官方文档让用户自己加上 YaRN 配置（`scaling_opt_in`）。缩放倍数 $s$ = 新长度 ÷ 训练长度。

# %% [markdown] lang="en"
# ## 1. The config: configs.load
#
# Beyond Qwen3-8B's training length, the official documentation has users add the YaRN config themselves (`scaling_opt_in`). The scaling factor is $s$ = new length ÷ training length.

# %%
from posenc import configs, long_context, rope, scaling

cfg = configs.load("qwen3_8b")
sc = cfg["scaling"]
print("scaling:", sc, "（核实标签", cfg.field("scaling").tag + "）")
print("需要用户自己加:", cfg["scaling_opt_in"])
head_dim, theta, s, L = cfg["head_dim"], cfg["rope_theta"], sc["factor"], sc["original_max_position_embeddings"]
print(f"head_dim={head_dim}, θ={theta:,}, s={s}, 训练长度 L={L:,}, 目标长度 {cfg['scaled_context']:,}")

# %% [markdown]
# ## 2. YaRN 逐对算：yarn_pairs_for_model
#
# 对第 $j$ 对，先算它在训练长度里转了多少圈 $r_j = L/\lambda_j$。转得多的（快频率对）保持原频率，一圈都转不满的（慢频率对）除以 $s$，和位置插值一样；中间按编号线性过渡：$\omega_j' = (1 - \text{ramp}_j)\,\omega_j + \text{ramp}_j\,\omega_j / s$。另外 $\cos$、$\sin$ 都乘上注意力系数 $0.1\ln s + 1$。`yarn_pairs_for_model` 用的是模型自己的 YaRN 设置（betas、是否取整、mscale）。

# %% [markdown] lang="en"
# ## 2. YaRN pair by pair: yarn_pairs_for_model
#
# For pair $j$, first count how many turns it makes within the training length, $r_j = L/\lambda_j$. Pairs that turn many times (the fast pairs) keep their frequency, pairs that never complete a turn (the slow pairs) are divided by $s$, as in position interpolation, and those in between blend linearly in the pair index: $\omega_j' = (1 - \text{ramp}_j)\,\omega_j + \text{ramp}_j\,\omega_j / s$. On top of that, $\cos$ and $\sin$ are both multiplied by the attention factor $0.1\ln s + 1$. `yarn_pairs_for_model` uses the model's own YaRN settings (betas, rounding or not, mscale).

# %%
t = scaling.yarn_pairs_for_model(cfg)
print(f"过渡区间（对的编号）: {t.low:.2f} ~ {t.high:.2f}（取整前 {t.low_exact:.2f} ~ {t.high_exact:.2f}）")
print(f"保持不变 {t.kept} 对，完全除以 s 的 {t.interpolated} 对，过渡 {t.blended} 对")
print(f"注意力系数 {t.attention_factor:.4f}")
print(" 对  周期(token)    圈数 r    代码ramp  论文1-γ   ω'/ω")
for j in list(range(0, len(t.pair), 8)) + [len(t.pair) - 1]:
    print(f"{j:>3}  {t.wavelength[j]:>11,.1f}  {t.rotations[j]:>9.2f}  {t.ramp[j]:>8.3f}  {t.paper_ramp[j]:>7.3f}"
          f"  {t.inv_freq[j] * t.wavelength[j] / (2 * np.pi):.4f}")

# %% [markdown]
# `scaling.for_model` 从配置算出同样的频率：它按 `rope_type` 在登记表 `scaling.SCALINGS` 里找到对应的函数，和 transformers 的 `ROPE_INIT_FUNCTIONS` 一样返回 `(inv_freq, attention_factor)`。

# %% [markdown] lang="en"
# `scaling.for_model` computes the same frequencies from the config: it looks up the function for the `rope_type` in the registry `scaling.SCALINGS` and, like transformers' `ROPE_INIT_FUNCTIONS`, returns `(inv_freq, attention_factor)`.

# %%
inv_freq, att = scaling.for_model(cfg)
print("登记表:", list(scaling.SCALINGS))
print("与逐对表一致:", np.array_equal(inv_freq, t.inv_freq), " 注意力系数一致:", att == t.attention_factor)

# %% [markdown]
# ## 3. 和位置插值、NTK-aware 比：methods_for、angle_overshoot
#
# 位置插值把每一对都除以 $s$（快频率对也被压慢，近距离的分辨率变差）；NTK-aware 改大底数 θ，快频率对几乎不动、慢的压得最多；YaRN 按「转了几圈」分段处理。下面先看每种方法下，最快、中间、最慢一对的频率变成原来的几分之几，再数一数扩到 $s$ 倍长以后有几对越界（转到比训练时见过的最大角度还大的角度）。

# %% [markdown] lang="en"
# ## 3. Against position interpolation and NTK-aware: methods_for, angle_overshoot
#
# Position interpolation divides every pair by $s$ (the fast pairs are slowed too, and short distances get harder to tell apart); NTK-aware raises the base θ, so the fast pairs barely move and the slow ones are squeezed the most; YaRN treats the pairs by how many turns they make. First, under each method, what fraction of its original frequency the fastest, the middle and the slowest pair keep; then how many pairs overshoot at $s$ times the length (reach angles larger than the largest seen in training).

# %%
m = scaling.methods_for(cfg)
mid = len(m["none"]) // 2
for name in scaling.COMPARED_METHODS[1:]:
    r = m[name] / m["none"]
    beyond = scaling.pairs_beyond_trained_angles(m["none"], m[name], L, s)
    print(f"{name:>6}: 第 0 对 ×{r[0]:.4f}  第 {mid} 对 ×{r[mid]:.4f}  最后一对 ×{r[-1]:.4f}  越界 {beyond} 对")
print("不缩放时越界:", scaling.pairs_beyond_trained_angles(m["none"], m["none"], L, s), "对")
print("NTK-aware 的新底数:", f"{scaling.ntk_aware_base(theta, s, head_dim):,.0f}")

# %% [markdown]
# ## 4. LongRoPE：scaling.longrope
#
# Phi-3.5-mini-instruct 的配置带两套倍数（每一对一个）：序列长过训练长度时用 `long_factor`，否则用 `short_factor`。注意力系数 $\sqrt{1 + \ln s / \ln L}$ 只看 $s$，不看当前长度。`seq_len` 传进去，就是 transformers 在推理时做的那次切换。

# %% [markdown] lang="en"
# ## 4. LongRoPE: scaling.longrope
#
# Phi-3.5-mini-instruct's config carries two sets of factors (one per pair): `long_factor` when the sequence is longer than the training length, `short_factor` otherwise. The attention factor $\sqrt{1 + \ln s / \ln L}$ depends only on $s$, not on the current length. Passing `seq_len` makes the same switch transformers makes at inference.

# %%
phi = configs.load("phi35_mini")
kind, kw = scaling.scaling_arguments(phi)
omega = rope.inverse_frequencies(phi["head_dim"], phi["rope_theta"])
for seq_len in (None, phi["context"], phi["context"] + 1):
    w, att = scaling.longrope(**{**kw, "seq_len": seq_len})
    print(f"seq_len={seq_len}: 第 0 对 ÷{omega[0] / w[0]:.2f}  最慢一对 ÷{omega[-1] / w[-1]:.2f}  注意力系数 {att:.4f}")

# %% [markdown]
# ## 5. 调底数（ABF）：base_change、turn_fraction、ntk_factor_for_base
#
# 真实的长上下文模型常在**训练时**就把底数调大，再在更长的序列上继续训练。`long_context.base_raises()` 列出本课算的几份配方（每个值都来自带出处的数据文件；Llama 3 从头就用大底数，不是配方里的一步，不在其中）；`base_change` 数出训练长度里转满一圈的对、最慢一对转过的比例；`ntk_factor_for_base` 给出同样频率对应的 NTK-aware 倍数 $s$。

# %% [markdown] lang="en"
# ## 5. Raising the base (ABF): base_change, turn_fraction, ntk_factor_for_base
#
# Real long-context models often raise the base **at training time** and continue training on longer sequences. `long_context.base_raises()` lists the recipes this lesson computes (every value comes from a data file with its source; Llama 3 uses a large base from the start, which is not a step of a recipe, so it is not among them); `base_change` counts the pairs that complete a turn within the training length and how much of a turn the slowest pair covers; `ntk_factor_for_base` gives the NTK-aware factor $s$ with the same frequencies.

# %%
for case in long_context.base_raises():
    ch = case.change()
    print(f"{case.label:<16} θ {case.base:>11,.0f} → {case.new_base:>11,.0f}   长度 {case.length:>6,} → {case.new_length:>6,}   "
          f"转满一圈 {ch.turned_before:>2} → {ch.turned_after:>2} / {ch.pairs}   "
          f"最慢一对 {ch.slowest_fraction_before:7.2%} → {ch.slowest_fraction_after:6.2%}   NTK 的 s ≈ {case.ntk_factor():.3g}")

# %% [markdown]
# 远处的位置：Code Llama 自报在更长的输入上仍然稳定。到那个位置，每个频率对转过了自己一圈的多少？（`turn_fraction` 在 1 处封顶：转满一圈以后，每个角度都出现过。）

# %% [markdown] lang="en"
# Distant positions: Code Llama reports that it stays stable on longer inputs. By that position, how much of its own turn has each frequency pair covered? (`turn_fraction` stops at 1: after a full turn, every angle has occurred.)

# %%
code = long_context.base_raise("codellama")
before = rope.inverse_frequencies(code.head_dim, code.base)
after = rope.inverse_frequencies(code.head_dim, code.new_base)
for name, w in (("调底数前", before), ("调底数后", after)):
    f = scaling.turn_fraction(w, code.far)
    print(f"{name}: 到位置 {code.far:,}，转满一圈的对 {scaling.pairs_completing_turn(w, code.far)} / {len(w)}，"
          f"最慢一对转过 {f[-1]:.2%}")
print(f"这个位置是新训练长度的 {code.far / code.new_length:.1f} 倍")

# %% [markdown]
# SmolLM3 第一段的新底数，训练配置和发布博客说法不一（2,000,000 和 1.5M）。`smollm3_blog_variant()` 用博客的值再算一遍同一行。

# %% [markdown] lang="en"
# For SmolLM3's first stage, the training config and the release blog disagree about the new base (2,000,000 and 1.5M). `smollm3_blog_variant()` computes the same row again with the blog's value.

# %%
for case in (long_context.base_raise("smollm3_32k"), long_context.smollm3_blog_variant()):
    ch = case.change()
    print(f"{case.label:<16} θ' = {case.new_base:>11,.0f}  转满一圈 {ch.turned_before} → {ch.turned_after}  NTK 的 s ≈ {case.ntk_factor():.3g}")

# %% [markdown]
# ## 6. 临界维度与底数下界：rope_bounds
#
# Liu et al. 2023 的临界维度 $d_{\text{extra}}$：在训练长度里转得满一圈的维数。Men et al. 2024 的检验：$B = \sum_i \cos(k\,\omega_i)$ 在距离 $0$ 到 $L$ 上都不小于 $0$。能通过的底数连不成一段，所以只能逐个试。

# %% [markdown] lang="en"
# ## 6. Critical dimension and lower bound on the base: rope_bounds
#
# Liu et al. 2023's critical dimension $d_{\text{extra}}$: the number of dimensions that complete a turn within the training length. Men et al. 2024's test: $B = \sum_i \cos(k\,\omega_i)$ is at least $0$ at every distance from $0$ to $L$. The bases that pass do not form one interval, so they have to be tried one by one.

# %%
from posenc import rope_bounds

for key in ("llama2_7b", "llama3_8b", "qwen3_8b"):
    c = configs.load(key)
    chk = rope_bounds.check_base(c["head_dim"], c["rope_theta"], c["context"])
    print(f"{c.name:<10} d_extra = {rope_bounds.critical_dimension(c['head_dim'], c['rope_theta'], c['context'])}"
          f"  B 最小 {chk.minimum:6.2f}  第一次小于 0 的距离 {chk.first_negative}")
for base in (6.3e5, 6.4e5):
    print(f"底数 {base:,.0f} 在 32,768 上通过: {rope_bounds.check_base(128, base, 32_768).passes}")

# %% [markdown]
# ## 7. bf16 下的角度：numerics
#
# 同一个角度 $p\,\omega_i$，按 bf16 和 fp32 各算一遍，和 float64 比。

# %% [markdown] lang="en"
# ## 7. Angles in bf16: numerics
#
# The same angle $p\,\omega_i$, computed once in bf16 and once in fp32, compared with float64.

# %%
from posenc import numerics

for p in (4_095, 32_767, 131_071):
    bf = numerics.angle_errors(p, 128, 1e6, "bfloat16")
    f32 = numerics.angle_errors(p, 128, 1e6, "float32")
    print(f"位置 {p:>7,}: bf16 间隔 {numerics.bf16_spacing(p):>3}  bf16 最大误差 {bf.max():7.2f} 弧度  fp32 最大误差 {f32.max():.1e}")

# %% [markdown]
# ## 8. 声称长度 ≠ 有效长度：ruler_rows
#
# RULER（Hsieh et al. 2024）把「有效长度」定义为分数仍不低于门槛的最长长度。下面是本课列出的几行，以及有效长度占声称窗口的比例（RULER 表里的 K 按 1,024 个 token 算）。

# %% [markdown] lang="en"
# ## 8. A claimed length is not an effective length: ruler_rows
#
# RULER (Hsieh et al. 2024) defines the effective length as the longest length at which the score stays at or above the threshold. Below are the rows this lesson lists, and the share of the claimed window the effective length is (a K in the RULER table counts as 1,024 tokens).

# %%
for r in long_context.ruler_rows():
    print(f"{r.model:<28} 声称 {r.claimed:>5}  有效 {r.effective:>4}  有效 ÷ 声称 = {r.share:.1%}")

# %% [markdown]
# ## 练习 Exercises
#
# 1. DeepSeek-V3（`configs.load("deepseek_v3")`）的 YaRN 倍数大得多。用 `scaling.yarn_pairs_for_model` 算它的表：多少对保持不变？注意它的 `mscale`。
# 2. 改 `beta_fast`、`beta_slow`（用 `scaling.yarn_pairs` 直接传参），过渡区间怎么移动？哪个参数决定「快频率对」的边界？
# 3. Llama 3.1 的缩放按周期分三段（`scaling.llama3_bands_for_model`）。算出 Llama 3.1 8B 三段各有几对，和 YaRN 的划分比较。
# 4. 给 Qwen3 的长上下文阶段换一个底数（`scaling.base_change`），训练长度里转满一圈的对会怎么变？相当于 NTK-aware 取多大的 $s$？

# %% [markdown] lang="en"
# ## Exercises
#
# 1. DeepSeek-V3's (`configs.load("deepseek_v3")`) YaRN factor is much larger. Compute its table with `scaling.yarn_pairs_for_model`: how many pairs are kept as they are? Mind its `mscale`.
# 2. Change `beta_fast` and `beta_slow` (pass them to `scaling.yarn_pairs` directly): how does the transition band move? Which parameter sets the edge of the fast pairs?
# 3. Llama 3.1's scaling splits the pairs into three bands by period (`scaling.llama3_bands_for_model`). Count the pairs in each band for Llama 3.1 8B, and compare with YaRN's split.
# 4. Give Qwen3's long-context stage another base (`scaling.base_change`): how does the number of pairs that complete a turn within the training length change? Which NTK-aware $s$ does it correspond to?

# %%
# 练习 1、3：起点
ds = configs.load("deepseek_v3")
print(ds["scaling"])
bands = scaling.llama3_bands_for_model(configs.load("llama31_8b"))
print({band: int((bands == band).sum()) for band in scaling.LLAMA3_BANDS})
