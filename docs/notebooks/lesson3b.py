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
# # 第 3 课·续 动手：在注意力分数里按距离加偏置
#
# 这本笔记本配合[第 3 课·续](https://posenc.github.io/posenc/lessons/03b-relative-bias/)使用：算出距离矩阵，看 Shaw 怎么截断距离、T5 怎么分桶、ALiBi 的斜率怎么定；把偏置加到例句的注意力上，验证整句挪到很远的位置时分数一位不差；再数一数真实模型的每个头大概看多远、每种做法要学多少参数。
#
# 每个代码格都调用课程自己的 `posenc` 库，也就是课程网页上每个数字和每张图背后的同一份代码。网站构建时这本笔记本会被完整运行一遍，你在网页上看到的输出就是那次运行的结果。
#
# 在自己电脑上运行：克隆课程仓库，执行 `make setup`，再用 Jupyter 打开 `docs/notebooks/` 下的这个文件，或者在这个页面上下载 `.ipynb`。最后一节是本课的练习，改一改代码格里的参数，看看结果怎么变。

# %% [markdown] lang="en"
# # Lesson 3b, hands on: a bias on the attention scores by distance
#
# This notebook goes with [lesson 3b](https://posenc.github.io/posenc/en/lessons/03b-relative-bias/). It computes the distance matrix, shows how Shaw clips distances, how T5 buckets them and how ALiBi's slopes are set; adds the bias to the example sentence's attention and checks that the scores do not change by a single bit when the sentence moves far away; then counts how far each head of real models looks, and how many parameters each approach learns.
#
# Every code cell calls the course's own `posenc` library, the same code behind every number and figure on the course pages. The site runs this notebook from top to bottom when it is built, and the outputs you see on the page are from that run.
#
# To run it on your own machine: clone the course repository, run `make setup`, and open this file under `docs/notebooks/` with Jupyter, or download the `.ipynb` from this page. The last section holds the lesson's exercises: change the parameters in the code cells and see how the results change.

# %%
# posenc: include _setup.py

# %% [markdown]
# ## 1. 距离矩阵：relative_positions
#
# 三种做法都只用到距离 $m - n$（查询的位置 $m$ 减键的位置 $n$）。`relative.relative_positions` 按 T5 和 Shaw 代码的习惯给出 $n - m$，取负就是本课的距离。行是查询、列是键，正数表示键在查询前面。例句来自 `posenc.examples`：

# %% [markdown] lang="en"
# ## 1. The distance matrix: relative_positions
#
# All three approaches use only the distance $m - n$ (the query's position $m$ minus the key's position $n$). `relative.relative_positions` gives $n - m$, as T5's and Shaw's code do; its negative is this lesson's distance. Rows are queries, columns keys, and a positive number means the key is before the query. The example sentence comes from `posenc.examples`:

# %%
from posenc import examples as ex
from posenc import relative

sentence = ex.texts("zh").sentence  # 本版的例句
n = len(sentence)
print("例句的 token:", list(sentence))
distance = -relative.relative_positions(n)  # m − n
print(distance)

# 整句挪到很远的位置，用绝对位置重新算一遍，矩阵一格不变：
far = relative.relative_positions_at(np.arange(n) + ex.FAR_POSITION)
print("挪到", ex.FAR_POSITION, "起之后，矩阵一样吗:", np.array_equal(far, relative.relative_positions(n)))

# %% [markdown]
# ## 2. Shaw 的截断：shaw_clipped
#
# Shaw et al. 2018 把超过 $c$ 的距离都当作 $c$：$\mathrm{clip}(x, c) = \max(-c, \min(c, x))$，于是键、值各只需要 $2c+1$ 个向量（论文把 $c$ 记作 $k$）。取一个很小的 $c$，例句里前面几个字就分不出远近了：

# %% [markdown] lang="en"
# ## 2. Shaw's clipping: shaw_clipped
#
# Shaw et al. 2018 treat every distance beyond $c$ as $c$: $\mathrm{clip}(x, c) = \max(-c, \min(c, x))$, so keys and values each need only $2c+1$ vectors (the paper calls $c$ by the letter $k$). With a small $c$, the first few tokens of the example sentence can no longer be told apart by distance:

# %%
c = ex.SHAW_SENTENCE_K
print(f"c = {c}:")
print(relative.shaw_clipped(distance, c))

# %% [markdown]
# ## 3. T5 的桶：t5_bucket
#
# 下面这一格就是网页上那段 torch 代码（`docs/snippets/lesson3b_t5_buckets.py`）：自己写出分桶函数，打印每个桶管哪些距离，再和 `posenc.relative.t5_bucket` 对照。

# %% [markdown] lang="en"
# ## 3. T5's buckets: t5_bucket
#
# The next cell is the torch code from the lesson page (`docs/snippets/lesson3b_t5_buckets.py`): it writes the bucketing function, prints which distances each bucket holds, and checks it against `posenc.relative.t5_bucket`.

# %%
# posenc: include lesson3b_t5_buckets.py

# %%
# 最后一个桶没有上界：相隔 max_distance 和相隔十万个 token 的键落进同一个桶。
from posenc import configs

t5 = configs.load(ex.T5_MODEL)
nb, md = t5["relative_attention_num_buckets"], t5["relative_attention_max_distance"]
for r in (md - 1, md, 10 * md, ex.FAR_POSITION):
    print(f"键在前面 {r:>7,} 个 token：编码器桶 {int(relative.t5_bucket(np.array(-r), True, nb, md)):>2}，"
          f"解码器桶 {int(relative.t5_bucket(np.array(-r), False, nb, md)):>2}")

# %% [markdown]
# ## 4. ALiBi 的斜率：alibi_slopes
#
# Press et al. 2022：头数 $H$ 是 2 的幂时 $a_h = 2^{-8h/H}$；不是 2 的幂时，先用最近的较小的 2 的幂，剩下的头从两倍头数那组里隔一个取一个。三个真实模型的头数来自 `posenc/data/models_relative.yaml`：

# %% [markdown] lang="en"
# ## 4. ALiBi's slopes: alibi_slopes
#
# Press et al. 2022: when the number of heads $H$ is a power of 2, $a_h = 2^{-8h/H}$; when it is not, the nearest smaller power of 2 is used first, and the remaining heads take every other slope of the set for twice as many heads. The three real models' head counts come from `posenc/data/models_relative.yaml`:

# %%
for key in ex.ALIBI_MODELS:
    cfg = configs.load(key)
    slopes = relative.alibi_slopes(cfg["heads"])
    extra = relative.alibi_extra_heads(cfg["heads"])
    print(f"{cfg.name}: {cfg['heads']} 个头，补上的 {int(extra.sum())} 个；"
          f"第 1 个头 {slopes[0]:.4f}，最大 {slopes.max():.4f}（第 {int(slopes.argmax()) + 1} 个头），最小 {slopes.min():.6f}")

# BLOOM 补上的头，斜率正好插在原有斜率的缝里：是相邻两个原有斜率的几何平均
# （第一个补上的，夹在 2^0 = 1 和第 1 个头之间）：
bloom = relative.alibi_slopes(configs.load("bloom_176b")["heads"])
p = int((~relative.alibi_extra_heads(len(bloom))).sum())
for t in range(3):
    upper = 1.0 if t == 0 else bloom[t - 1]
    print(f"补上的第 {t + 1} 个: {bloom[p + t]:.4f}；夹在 {upper:.4f} 和 {bloom[t]:.4f} 之间，两者的几何平均 {np.sqrt(upper * bloom[t]):.4f}")

# %% [markdown]
# ## 5. 用 torch 写 ALiBi：alibi_causal_bias
#
# 网页上的那段 torch 代码（`docs/snippets/lesson3b_alibi_torch.py`）：写出斜率和偏置矩阵，把整句挪远，再和课程的实现对照。

# %% [markdown] lang="en"
# ## 5. ALiBi in torch: alibi_causal_bias
#
# The torch code from the lesson page (`docs/snippets/lesson3b_alibi_torch.py`): it writes the slopes and the bias matrix, moves the whole sentence far away, and checks against the course's implementation.

# %%
# posenc: include lesson3b_alibi_torch.py

# %% [markdown]
# ## 6. 例句的注意力权重：biased_weights
#
# 拿第 1 课那个随机注意力头的内容打分，先只加因果掩码，再加上 ALiBi 偏置，比较最后一个字的那一行：

# %% [markdown] lang="en"
# ## 6. The example sentence's attention weights: biased_weights
#
# Take the content scores of lesson 1's random attention head, add the causal mask alone, then the ALiBi bias as well, and compare the row of the last token:

# %%
scores = relative.content_scores(sentence, ex.ATTN_D, ex.ATTN_SEED)
plain = relative.biased_weights(scores, relative.causal_bias(n))
bias = relative.alibi_causal_bias_at(ex.ALIBI_HEADS, np.arange(n))[ex.ALIBI_SENTENCE_HEAD - 1]
with_alibi = relative.biased_weights(scores, bias)
print("只有因果掩码:", plain[-1])
print("加上 ALiBi:  ", with_alibi[-1])

# 整句挪到很远的位置、偏置按绝对位置重新算，分数的最大变化：
before = scores + relative.alibi_causal_bias_at(ex.ALIBI_HEADS, np.arange(n))
after = scores + relative.alibi_causal_bias_at(ex.ALIBI_HEADS, np.arange(n) + ex.FAR_POSITION)
print("ALiBi，所有头:", relative.score_change(before, after))

# %% [markdown]
# ## 7. 每个头看多远：alibi_reaches
#
# 内容打分相同时，距离 $m - n$ 处的键权重被乘上 $e^{-a_h (m-n)}$；把权重压到 $1/f$ 的距离是 $\ln f / a_h$。数一数有几个头的作用范围够得到训练长度：

# %% [markdown] lang="en"
# ## 7. How far each head looks: alibi_reaches
#
# With equal content scores, a key at distance $m - n$ has its weight multiplied by $e^{-a_h (m-n)}$; the distance at which the weight drops to $1/f$ is $\ln f / a_h$. Count the heads whose reach gets to the training length:

# %%
for key in ex.REACH_MODELS:
    cfg = configs.load(key)
    reach = relative.alibi_reaches(cfg["heads"], ex.ALIBI_FACTOR)
    print(f"{cfg.name}: 作用范围 {reach.min():.1f} … {reach.max():.0f} 个 token；"
          f"不到 {ex.REACH_NEAR} 的头 {int((reach < ex.REACH_NEAR).sum())} 个，超过 {ex.REACH_FAR} 的 {int((reach > ex.REACH_FAR).sum())} 个，"
          f"够到训练长度 {cfg['context']:,} 的 {int((reach >= cfg['context']).sum())} 个")

# %% [markdown]
# ## 8. 各方案要学多少参数：added_parameters
#
# 同样加到 GPT-2（small）这样大小的模型上：

# %% [markdown] lang="en"
# ## 8. How many parameters each approach learns: added_parameters
#
# Each added to a model the size of GPT-2 (small):

# %%
gpt2 = configs.load(ex.PARAMETER_MODEL)
from posenc import facts

shaw_k = facts.get("shaw_k_base").value
for scheme in ("learned", "sinusoidal", "shaw", "t5", "alibi", "rope"):
    extra = {"max_relative_position": shaw_k} if scheme == "shaw" else {}
    print(f"{scheme:>10}: {relative.added_parameters(scheme, gpt2, **extra):>9,}")
for key in ("t5_base",) + ex.ALIBI_MODELS:
    print(f"{configs.load(key).name} 自己的位置方案: {relative.model_position_parameters(configs.load(key)):,}")

# %% [markdown]
# ## 练习 Exercises
#
# 1. Baichuan-13B 的头数不是 2 的幂。第二个补上的头斜率是多少？按斜率排，它夹在哪两个头之间？
# 2. 键在查询前面 `ex.EX_T5_DISTANCE` 个 token。它在 T5-Base 的解码器里落进哪个桶？这个桶管几个距离？换成编码器呢？
# 3. MPT-7B 最平缓的头：一个远在训练长度之前的键，内容打分至少要比眼前的键高多少，才能拿到同样的权重？

# %% [markdown] lang="en"
# ## Exercises
#
# 1. Baichuan-13B's number of heads is not a power of 2. What is the slope of the second added head? Sorted by slope, which two heads does it sit between?
# 2. A key is `ex.EX_T5_DISTANCE` tokens before the query. Which bucket does it land in, in T5-Base's decoder? How many distances does that bucket hold? And in the encoder?
# 3. MPT-7B's gentlest head: a key as far back as the training length, how much higher must its content score be than the nearest key's to get the same weight?

# %%
# 练习 1
baichuan = configs.load("baichuan_13b")
s = relative.alibi_slopes(baichuan["heads"])
i = int(np.argmax(relative.alibi_extra_heads(baichuan["heads"]))) + 1  # 第二个补上的头（从 0 数）
above = int(np.argmin(np.where(s > s[i], s, np.inf)))
below = int(np.argmax(np.where(s < s[i], s, -np.inf)))
print(f"练习 1｜第 {i + 1} 个头: {s[i]:.4f}，夹在第 {above + 1} 个（{s[above]:.4f}）和第 {below + 1} 个（{s[below]:.4f}）之间")

# 练习 2
r = ex.EX_T5_DISTANCE
dec = int(relative.t5_bucket(np.array(-r), False, nb, md))
edge = next(e for e in relative.t5_bucket_edges(False, nb, md) if e[0] == dec)
print(f"练习 2｜解码器：桶 {dec}，管距离 {edge[1]} … {edge[2]}，共 {edge[2] - edge[1] + 1} 个")
print(f"练习 2｜编码器：桶 {int(relative.t5_bucket(np.array(-r), True, nb, md))}")

# 练习 3
mpt = configs.load("mpt_7b")
a_min = relative.alibi_slopes(mpt["heads"]).min()
print(f"练习 3｜要高出 a_h·L = {float(relative.alibi_score_gap(a_min, mpt['context'])):.1f}；"
      f"内容分一样时，权重只剩 {float(relative.alibi_weight_ratio(a_min, mpt['context'])):.2%}")
