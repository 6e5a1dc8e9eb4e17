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
# # 第 1 课 动手：注意力为什么不认识顺序
#
# 这本笔记本配合[第 1 课](https://posenc.github.io/posenc/lessons/01-order-blind/)使用：亲手交换句子里的两个字，看自注意力的输出只是跟着换了位置；多头注意力也一样；加上位置向量后才真正变了；最后从 padding 掩码算出正确的位置编号。
#
# 每个代码格都调用课程自己的 `posenc` 库，也就是课程网页上每个数字和每张图背后的同一份代码。网站构建时这本笔记本会被完整运行一遍，你在网页上看到的输出就是那次运行的结果；任何一格报错，网站就构建失败。
#
# 在自己电脑上运行：克隆课程仓库，执行 `make setup`，再用 Jupyter 打开 `docs/notebooks/` 下的这个文件，或者在这个页面上下载 `.ipynb`。最后一节是本课的练习，改一改代码格里的参数，看看结果怎么变。

# %% [markdown] lang="en"
# # Lesson 1, hands on: why attention cannot see order
#
# This notebook goes with [lesson 1](https://posenc.github.io/posenc/en/lessons/01-order-blind/): swap two tokens of a sentence yourself and watch self-attention's output merely trade rows; see that multi-head attention does the same; see the output really change once position vectors are added; and finally compute the right position IDs from a padding mask.
#
# Every code cell calls the course's own `posenc` library, the same code behind every number and figure of the course pages. The site runs this notebook from top to bottom when it is built, and the outputs you see on the page are that run's; if any cell fails, the site build fails.
#
# The English edition's example sentences are English, one word (or punctuation mark) per token, as on the lesson page: “the dog bit the man .” and “the man bit the dog .”, the full stop a token of its own.
#
# To run it on your own computer: clone the course repository, run `make setup`, then open this file under `docs/notebooks/` with Jupyter, or download the `.ipynb` from this page. The last section holds the lesson's exercises: change the parameters in its code cells and see how the results change.

# %%
# posenc: include _setup.py

# %% [markdown]
# ## 1. 一句话，一个注意力头：attend
#
# 课程的分词器很简单：一个字就是一个 token，token ID 就是这个字的 Unicode 码位。每个 token ID 对应一个固定的随机向量（同一个字在哪句话里都是同一个向量），注意力头的三个矩阵 $W_q, W_k, W_v$ 也用固定的种子生成，所以每次运行结果都一样。

# %% [markdown] lang="en"
# ## 1. One sentence, one attention head: attend
#
# The course's tokenizer is as simple as it gets: one word (or punctuation mark) is one token, and its token ID is a number computed from its letters (a hash of the word, so no vocabulary is needed). Each token ID has a fixed random vector (the same word is the same vector in any sentence), and the head's three matrices $W_q, W_k, W_v$ are drawn from a fixed seed too, so every run gives the same results.

# %%
from posenc import attention as at
from posenc import tokenize
from posenc import examples as ex

t = ex.texts("zh")                 # 本版的例句（posenc/examples.py）
text, i, j = t.swap_main           # 主例句，以及要交换的两个位置
print("句子:", tokenize.join(text), " token:", tokenize.tokens(text))
print("token ID:", tokenize.token_ids(text))

d, seed = ex.ATTN_D, ex.ATTN_SEED     # 注意力头的维度和随机种子（posenc/examples.py）
head = at.make_head(d, seed)
x = at.sentence_input(text, d, seed)   # 每个字一行向量，形状 (句长, d)
print("输入 X 的形状:", x.shape)

# %% [markdown]
# 注意力按公式一步步算：$Q = XW_q$，$K = XW_k$，$V = XW_v$，分数 $S = QK^\top/\sqrt{d_{head}}$，每一行做 softmax 得到权重 $A$，输出 $AV$。

# %% [markdown] lang="en"
# Attention follows the formula step by step: $Q = XW_q$, $K = XW_k$, $V = XW_v$, the scores $S = QK^\top/\sqrt{d_{head}}$, softmax on each row gives the weights $A$, and the output is $AV$.

# %%
res = at.attend(x, head)
print("分数 S 的形状:", res.scores.shape)
print("权重 A（每行是一个字看其他字的比例）:")
print(res.weights)
print("每行之和:", res.weights.sum(axis=1))

# %% [markdown]
# ## 2. 交换两个字：swap
#
# 把两个位置上的字对调，得到一个新句子。没有位置信息时，注意力只知道「有哪些字」，不知道「谁在哪」：新句子里每个字的输出，和它在原句里的输出完全一样，只是换了一行。

# %% [markdown] lang="en"
# ## 2. Swap two tokens: swap
#
# Trade the tokens at two positions to get a new sentence. Without position information, attention knows only which tokens are there, not where each one is: every token's output in the new sentence is exactly its output in the original, only on another row.

# %% [markdown]
# 课程网页上展示的那段代码就是下面这一格：同一个字对同一个字比较，看输出差多少。

# %% [markdown] lang="en"
# The code shown on the lesson page is the next cell: each token compared with itself, to see how much its output differs.

# %%
# posenc: include lesson1_swap.py

# %% [markdown]
# 同一个实验，posenc 把两句话和两次注意力的全部中间结果放在一个 `Swap` 里，课程的数字和图读的都是它：

# %% [markdown] lang="en"
# For the same experiment, posenc keeps both sentences and every intermediate result of both attention runs in one `Swap`, which the course's numbers and figures read:

# %%
sw = at.swap_experiment(text, i, j, head, seed)
print(f"{tokenize.join(sw.text)} → {tokenize.join(sw.swapped)}，同一个字输出的最大差值 {sw.moved:.3g}")

# %% [markdown]
# 用排列矩阵 $\Pi$ 写出来就是：输入换成 $\Pi X$，权重变成 $\Pi A\Pi^\top$，输出变成 $\Pi\cdot\mathrm{Out}$。这叫排列等变（permutation equivariance）。

# %% [markdown] lang="en"
# Written with a permutation matrix $\Pi$: the input becomes $\Pi X$, the weights become $\Pi A\Pi^\top$, and the output becomes $\Pi\cdot\mathrm{Out}$. This is called permutation equivariance.

# %%
Pi = at.permutation_matrix(sw.perm)
a = at.attend(at.sentence_input(text, d, seed), head)
b = at.attend(Pi @ at.sentence_input(text, d, seed), head)
print("max |A(ΠX) − Π A(X) Πᵀ| =", np.abs(b.weights - Pi @ a.weights @ Pi.T).max())
print("max |Out(ΠX) − Π Out(X)| =", np.abs(b.out - Pi @ a.out).max())
print("同样的两个数，posenc 直接给出:", sw.weights_error, sw.out_error)

# %% [markdown]
# ## 3. 多头注意力：multi_head_attend
#
# 真实模型有好几个头：把向量分给 $H$ 个头，各自做一遍注意力，拼起来再乘输出矩阵 $W_o$。它会把各个 token 混在一起（改一个字，别的字的输出也变），可每个头都排列等变，整层也就等变。LayerNorm 只看自己那一行，改一个字，别的字一位不变。

# %% [markdown] lang="en"
# ## 3. Multi-head attention: multi_head_attend
#
# Real models have several heads: the vector is shared out among $H$ heads, each runs attention on its own, and the results are concatenated and multiplied by the output matrix $W_o$. It mixes the tokens (change one token and the others' outputs change too), yet each head is permutation equivariant, and so is the whole layer. LayerNorm looks only at its own row: change one token and no other token's output moves by a single bit.

# %%
mh = at.make_multi_head(d, ex.MHA_HEADS, seed)
x = at.sentence_input(text, d, seed)
print("MHA(ΠX) 与 Π·MHA(X) 的最大差值:", np.abs(at.multi_head_attend(Pi @ x, mh) - Pi @ at.multi_head_attend(x, mh)).max())

vecs = at.token_vectors([tokenize.token_ids(t.mix_token)[0], tokenize.token_ids(text)[ex.MIX_ROW]], d, seed)
change = vecs[0] - vecs[1]                     # 把第 MIX_ROW 个字换成 t.mix_token
print(f"把「{text[ex.MIX_ROW]}」换成「{tokenize.join(t.mix_token)}」之后，其余字的输出最多变了：")
print("  多头注意力:", round(at.others_moved(lambda h: at.multi_head_attend(h, mh), x, ex.MIX_ROW, change), 4))
print("  LayerNorm: ", at.others_moved(at.layer_norm, x, ex.MIX_ROW, change))

# %% [markdown]
# ## 4. 加上位置向量：positions=True
#
# 给第 $p$ 行加上一个只和位置 $p$ 有关的向量（这里借用第 3 课的正弦公式来造，此刻只需要知道每个位置的向量都不同），再做同样的比较：同一个字换了位置，输出就不一样了。

# %% [markdown] lang="en"
# ## 4. Add position vectors: positions=True
#
# Add to row $p$ a vector that depends only on position $p$ (built here with lesson 3's sine formula; for now all that matters is that every position's vector is different), then make the same comparison: once a token moves, its output is no longer the same.

# %%
with_pos = at.swap_experiment(text, i, j, head, seed, positions=True)
print("加位置向量后，同一个字在两种顺序下输出的最大差值:", round(with_pos.moved, 4))

# %% [markdown]
# 同一句里出现两次的字也一样：没有位置信息时，它的两次输出完全相同；加上位置后才分得开。

# %% [markdown] lang="en"
# The same goes for a token that occurs twice in one sentence: without position information its two outputs are identical; only with positions added can they be told apart.

# %%
ch = next(c for c in text if text.count(c) > 1)
pa, pb = [k for k, c in enumerate(text) if c == ch]
for positions in (False, True):
    out = at.attend(at.sentence_input(text, d, seed, positions=positions), head).out
    print(f"加位置向量={positions!s:5}  「{ch}」在位置 {pa} 和 {pb} 的输出最大差值: {np.abs(out[pa] - out[pb]).max():.4g}")

# %% [markdown]
# ## 5. padding 之后的位置编号：from_mask
#
# 一批句子长短不一，要补齐（padding）到同样长，再用注意力掩码标出哪些是真的 token（1）、哪些是补的（0）。真 token 的位置，是它前面真 token 的个数：`position_ids = cumsum(mask) − 1`，补齐处随便填一个合法值（transformers 填 1）。直接用 `arange(n)` 编号就错了：左侧补齐时每个真 token 都被往后推。

# %% [markdown] lang="en"
# ## 5. Position IDs after padding: from_mask
#
# The sentences of a batch differ in length, so they are padded to the same length, and the attention mask marks which slots are real tokens (1) and which are padding (0). A real token's position is the number of real tokens before it: `position_ids = cumsum(mask) − 1`, with any valid value at the padding (transformers puts 1). Numbering with `arange(n)` is wrong: with left padding, every real token is pushed back.

# %%
from posenc import position_ids as pid

ids, mask = pid.pad_batch(t.batch, side="left")
print("token ID（0 是 padding）:\n", ids)
print("attention_mask:\n", mask)
print("cumsum 规则得到的 position_ids:\n", pid.from_mask(mask))
print("arange 得到的 position_ids（忽略 mask）:\n", pid.naive_position_ids(mask))
print("arange 把每个真 token 推后了几格:\n", pid.shift(mask))

# %% [markdown]
# 位置编号错了，输出就错了。用同一个注意力头，比较短句单独算和放进左补齐的批里算：

# %% [markdown] lang="en"
# Wrong position IDs give wrong outputs. With the same attention head, compare the short sentence computed alone and inside the left-padded batch:

# %%
short = t.batch[0]
alone = at.attend(at.sentence_input(short, d, seed, positions=True), head).out
row_ids, row_mask = ids[0], mask[0]
good = at.attend_padded(row_ids, row_mask, pid.from_mask(row_mask), head, seed)
bad = at.attend_padded(row_ids, row_mask, pid.naive_position_ids(row_mask), head, seed)
print("由 mask 算位置：与单独计算的最大差值", np.abs(good - alone).max())
print("arange 当位置：与单独计算的最大差值", round(float(np.abs(bad - alone).max()), 4))

# %% [markdown]
# transformers 里是用 torch 这样写的（课程网页上展示的也是这一段），位置编号和上面一样；续写时新 token 的位置也由 mask 算出：

# %% [markdown] lang="en"
# In transformers it is written with torch like this (the lesson page shows the same code), and the position IDs are the same as above; when generation continues, the new token's position also comes from the mask:

# %%
# posenc: include lesson1_position_ids.py

# %% [markdown]
# ## 6. 选读：几篇文档拼成一行：pack、packed_position_ids、document_mask
#
# 预训练常把几篇文档首尾相接拼成一行（序列打包）。后一篇能不能看见前一篇，由文档内掩码决定；它的位置编号接着数还是每篇从 0 数，由 `reset` 决定。两样都做，每篇文档的输出才和它单独算时一样。

# %% [markdown] lang="en"
# ## 6. Optional: several documents packed into one row: pack, packed_position_ids, document_mask
#
# Pre-training often lays several documents end to end in one row (sequence packing). Whether a later document can see the one before it is decided by the intra-document mask; whether its position IDs continue or start again from 0 for each document is decided by `reset`. Only with both does each document's output match what it gives when computed alone.

# %%
pids, doc = pid.pack(t.packed)
print("属于第几篇文档:", doc)
print("位置接着数:    ", pid.packed_position_ids(doc, reset=False))
print("每篇从 0 数:   ", pid.packed_position_ids(doc, reset=True))
print("文档内掩码（1 = 看得见）:\n", pid.document_mask(doc).astype(int))

# %%
from posenc import sinusoidal

second = tokenize.token_ids(t.packed[1])
alone2 = at.attend(at.token_vectors(second, d, seed) + sinusoidal.table(np.arange(second.size), d), head, at.causal_mask(second.size)).out
for reset in (False, True):
    x = at.token_vectors(pids, d, seed) + sinusoidal.table(pid.packed_position_ids(doc, reset=reset), d)
    for name, m in (("整行因果掩码", at.causal_mask(pids.size)), ("文档内掩码", pid.document_mask(doc))):
        out = at.attend(x, head, m).out[doc == 1]
        print(f"reset={reset!s:5} {name}：第二篇与单独算的最大差值 {np.abs(out - alone2).max():.3g}")

# %% [markdown]
# ## 练习 Exercises
#
# 1. 把 `t.swap_main` 换成你自己的句子和另一对位置（改下面一格的 `my_text, my_i, my_j`），验证：不加位置时差值仍是机器精度量级，加上位置后不是。
# 2. 因果掩码（`at.causal_mask(n)`）下，一层注意力里最后一个字能看到所有字。交换前面两个字，它的输出变不变？叠两层（`at.stack`）再看。
# 3. 把第 5 节的批改成右侧补齐（`side="right"`）：`arange` 还会出错吗？为什么？
# 4. 用 KV cache 续写时，下一个 token 的位置是多少？用 `pid.next_position_ids(mask)` 算，再和「缓存长度」比较，说说左补齐的短句会错几格。

# %% [markdown] lang="en"
# ## Exercises
#
# 1. Replace `t.swap_main` with a sentence of your own and another pair of positions (change `my_text, my_i, my_j` in the next cell), and check: without positions the difference is still of the order of machine epsilon, with positions it is not.
# 2. Under a causal mask (`at.causal_mask(n)`), the last token of a one-layer attention sees every token. Swap two tokens before it: does its output change? Then stack two layers (`at.stack`) and look again.
# 3. Pad the batch of section 5 on the right instead (`side="right"`): does `arange` still go wrong? Why?
# 4. When generation continues with a KV cache, what is the next token's position? Compute it with `pid.next_position_ids(mask)`, compare it with "the cache length", and say by how many places the left-padded short sentence would be off.

# %%
# 练习 1：改这里
my_text, my_i, my_j = t.swap_short   # 换成你自己的句子和一对位置，例如 "狗咬人", 0, 2
my_perm = at.swap(len(my_text), my_i, my_j)
for positions in (False, True):
    a = at.attend(at.sentence_input(my_text, d, seed, positions=positions), head).out
    b = at.attend(at.sentence_input(at.permute_text(my_text, my_perm), d, seed, positions=positions), head).out
    print(f"加位置向量={positions!s:5}  最大差值 {at.matched_difference(a, b, my_perm):.3g}")

# %%
# 练习 2：起点。causal 是一个 (n, n) 的布尔矩阵，True 表示可以看
c_text, c_i, c_j = t.causal
causal = at.causal_mask(len(c_text))
print(causal.astype(int))
# 提示：at.attend(x, head, mask=causal).out[-1]，以及 at.stack(x, [head, at.make_head(d, ex.SECOND_LAYER_SEED)], causal)

# %%
# 练习 3、4：起点
ids_r, mask_r = pid.pad_batch(t.batch, side="right")
print(mask_r)
print(pid.next_position_ids(mask))
