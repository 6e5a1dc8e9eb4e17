"""Write the lessons' hands-on notebooks, docs/notebooks/lesson1.ipynb … lesson6.ipynb.

The notebooks are generated, never edited by hand: this file is their source.
Each is stored without outputs, with cell ids derived from the notebook's name
and the cell's index ("lesson3-07"), and serialised with sorted keys, so the
same source always gives the same bytes. MkDocs (mkdocs-jupyter) executes them
at build time; a cell that raises fails the build.

    python -m tools.make_notebooks           # (re)write every notebook
    python -m tools.make_notebooks --check   # exit 1 if a committed notebook differs from this source

Every notebook starts with the same setup cell (find the repository, import
posenc), shows its lesson's key computation step by step with posenc, and ends
with the lesson's exercises. Markdown cells type no derived number: the code
cells compute and print them, like the lessons' {{ num(...) }} macros.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "notebooks"


def _site_url() -> str:
    m = re.search(r"^site_url:\s*(\S+)", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M)
    return m.group(1).rstrip("/") + "/" if m else ""


# The lesson each notebook belongs to: (number, page in docs/lessons/ without .md, title).
LESSONS = {
    1: ("01-order-blind", "注意力为什么不认识顺序"),
    2: ("02-learned-table", "直接加编号，和可学习的位置表"),
    3: ("03-sinusoidal", "用公式算位置：正弦位置编码"),
    4: ("04-rope", "RoPE 到底旋转了什么"),
    5: ("05-long-context", "超长上下文：PI、NTK-aware、YaRN"),
    6: ("06-partial-nope", "部分 RoPE，还是干脆不要"),
}

SETUP = '''\
# 准备：让 Python 找到本课程的 posenc 库。
# 在仓库里的任何目录运行都行：从当前目录往上找到含 posenc/ 的仓库根目录，加进搜索路径。
import sys
from pathlib import Path

here = Path.cwd().resolve()
root = next((p for p in (here, *here.parents) if (p / "posenc" / "__init__.py").is_file()), None)
if root is None:
    raise ModuleNotFoundError("找不到 posenc：请在课程仓库里运行本笔记本（git clone 之后，make setup 装好环境）")
if str(root) not in sys.path:
    sys.path.insert(0, str(root))

import numpy as np

np.set_printoptions(precision=4, suppress=True, linewidth=100)
print("posenc 就绪")'''


def _intro(n: int, what: str) -> str:
    page, title = LESSONS[n]
    url = f"{_site_url()}lessons/{page}/"
    return (
        f"# 第 {n} 课 动手：{title}\n\n"
        f"这本笔记本配合[第 {n} 课]({url})使用：{what}\n\n"
        "每个代码格都调用课程自己的 `posenc` 库，也就是课程网页上每个数字和每张图背后的同一份代码。"
        "网站构建时这本笔记本会被完整运行一遍，你在网页上看到的输出就是那次运行的结果；"
        "任何一格报错，网站就构建失败。\n\n"
        "在自己电脑上运行：克隆课程仓库，执行 `make setup`，再用 Jupyter 打开 `docs/notebooks/` 下的这个文件，"
        "或者在这个页面上下载 `.ipynb`。最后一节是本课的练习，改一改代码格里的参数，看看结果怎么变。"
    )


# --- lesson 1 ------------------------------------------------------------------------------------

LESSON1 = [
    ("md", _intro(1, "亲手交换句子里的两个字，看自注意力的输出只是跟着换了位置；加上位置向量后才真正变了；最后从 padding 掩码算出正确的位置编号。")),
    ("code", SETUP),
    ("md", "## 1. 一句话，一个注意力头：attend\n\n"
           "课程的分词器很简单：一个字就是一个 token，token ID 就是这个字的 Unicode 码位。"
           "每个 token ID 对应一个固定的随机向量（同一个字在哪句话里都是同一个向量），"
           "注意力头的三个矩阵 $W_q, W_k, W_v$ 也用固定的种子生成，所以每次运行结果都一样。"),
    ("code", '''\
from posenc import attention as at
from posenc import demo12, tokenize

text, i, j = demo12.SWAP_MAIN          # 主例句，以及要交换的两个位置
print("句子:", text, " token:", tokenize.tokens(text))
print("token ID:", tokenize.token_ids(text))

head = at.make_head(d=demo12.ATTN_D, seed=demo12.ATTN_SEED)
x = at.sentence_input(text)            # 每个字一行向量，形状 (句长, d)
print("输入 X 的形状:", x.shape)'''),
    ("md", "注意力按公式一步步算：$Q = XW_q$，$K = XW_k$，$V = XW_v$，"
           "分数 $S = QK^\\top/\\sqrt{d}$，每一行做 softmax 得到权重 $A$，输出 $AV$。"),
    ("code", '''\
res = at.attend(x, head)
print("分数 S 的形状:", res.scores.shape)
print("权重 A（每行是一个字看其他字的比例）:")
print(res.weights)
print("每行之和:", res.weights.sum(axis=1))'''),
    ("md", "## 2. 交换两个字：swap\n\n"
           "把两个位置上的字对调，得到一个新句子。没有位置信息时，注意力只知道「有哪些字」，不知道「谁在哪」："
           "新句子里每个字的输出，和它在原句里的输出完全一样，只是换了一行。"),
    ("code", '''\
perm = at.swap(len(text), i, j)
swapped = at.permute_text(text, perm)
print(f"交换位置 {i} 和 {j}: {text} → {swapped}")

out_a = at.attend(at.sentence_input(text), head).out
out_b = at.attend(at.sentence_input(swapped), head).out
# 新句子的第 r 行是原句第 perm[r] 行那个字：同一个字对同一个字比较
print("同一个字在两种顺序下输出的最大差值:", at.matched_difference(out_a, out_b, perm))
print("float64 机器精度:", np.finfo(np.float64).eps)'''),
    ("md", "用排列矩阵 $P$ 写出来就是：输入换成 $PX$，权重变成 $PAP^\\top$，输出变成 $P\\cdot\\mathrm{Out}$。"
           "这叫置换等变（permutation equivariance）。"),
    ("code", '''\
P = at.permutation_matrix(perm)
a = at.attend(at.sentence_input(text), head)
b = at.attend(P @ at.sentence_input(text), head)
print("max |A(PX) − P A(X) Pᵀ| =", np.abs(b.weights - P @ a.weights @ P.T).max())
print("max |Out(PX) − P Out(X)| =", np.abs(b.out - P @ a.out).max())'''),
    ("md", "## 3. 加上位置向量：positions=True\n\n"
           "给第 $p$ 行加上一个只和位置 $p$ 有关的向量（这里用第 3 课的正弦位置编码，此刻只需要知道每个位置的向量都不同），"
           "再做同样的比较：同一个字换了位置，输出就不一样了。"),
    ("code", '''\
out_a = at.attend(at.sentence_input(text, positions=True), head).out
out_b = at.attend(at.sentence_input(swapped, positions=True), head).out
print("加位置向量后，同一个字在两种顺序下输出的最大差值:", round(at.matched_difference(out_a, out_b, perm), 4))'''),
    ("md", "同一句里出现两次的字也一样：没有位置信息时，两个「小」的输出完全相同；加上位置后才分得开。"),
    ("code", '''\
ch = next(c for c in text if text.count(c) > 1)
pa, pb = [k for k, c in enumerate(text) if c == ch]
for positions in (False, True):
    out = at.attend(at.sentence_input(text, positions=positions), head).out
    print(f"加位置向量={positions!s:5}  「{ch}」在位置 {pa} 和 {pb} 的输出最大差值: {np.abs(out[pa] - out[pb]).max():.4g}")'''),
    ("md", "## 4. padding 之后的位置编号：from_mask\n\n"
           "一批句子长短不一，要补齐（padding）到同样长，再用注意力掩码标出哪些是真的 token（1）、哪些是补的（0）。"
           "真 token 的位置，是它前面真 token 的个数：`position_ids = cumsum(mask) − 1`，补齐处随便填一个合法值"
           "（transformers 填 1）。直接用 `arange(n)` 编号就错了：左侧补齐时每个真 token 都被往后推。"),
    ("code", '''\
from posenc import position_ids as pid

ids, mask = pid.pad_batch(demo12.BATCH, side="left")
print("token ID（0 是 padding）:\\n", ids)
print("attention_mask:\\n", mask)
print("cumsum 规则得到的 position_ids:\\n", pid.from_mask(mask))
print("arange 得到的 position_ids（忽略 mask）:\\n", pid.naive_position_ids(mask))
print("arange 把每个真 token 推后了几格:\\n", pid.shift(mask))'''),
    ("md", "位置编号错了，输出就错了。用同一个注意力头，比较短句单独算和放进左补齐的批里算："),
    ("code", '''\
short = demo12.BATCH[0]
alone = at.attend(at.sentence_input(short, positions=True), head).out
row_ids, row_mask = ids[0], mask[0]
good = at.attend_padded(row_ids, row_mask, pid.from_mask(row_mask), head)
bad = at.attend_padded(row_ids, row_mask, pid.naive_position_ids(row_mask), head)
print("由 mask 算位置：与单独计算的最大差值", np.abs(good - alone).max())
print("arange 当位置：与单独计算的最大差值", round(float(np.abs(bad - alone).max()), 4))'''),
    ("md", "## 练习 Exercises\n\n"
           "1. 把 `demo12.SWAP_MAIN` 换成你自己的句子和另一对位置（改下面一格的 `my_text, my_i, my_j`），"
           "验证：不加位置时差值仍是机器精度量级，加上位置后不是。\n"
           "2. 因果掩码（`at.causal_mask(n)`）下，一层注意力里最后一个字能看到所有字。交换前面两个字，它的输出变不变？"
           "叠两层（`at.stack`）再看。\n"
           "3. 把第 4 节的批改成右侧补齐（`side=\"right\"`）：`arange` 还会出错吗？为什么？\n"
           "4. 用 KV cache 续写时，下一个 token 的位置是多少？用 `pid.next_position_ids(mask)` 算，"
           "再和「缓存长度」比较，说说左补齐的短句会错几格。"),
    ("code", '''\
# 练习 1：改这里
my_text, my_i, my_j = "猫吃鱼", 0, 2
my_perm = at.swap(len(my_text), my_i, my_j)
for positions in (False, True):
    a = at.attend(at.sentence_input(my_text, positions=positions), head).out
    b = at.attend(at.sentence_input(at.permute_text(my_text, my_perm), positions=positions), head).out
    print(f"加位置向量={positions!s:5}  最大差值 {at.matched_difference(a, b, my_perm):.3g}")'''),
    ("code", '''\
# 练习 2：起点。causal 是一个 (n, n) 的布尔矩阵，True 表示可以看
c_text, c_i, c_j = demo12.CAUSAL
causal = at.causal_mask(len(c_text))
print(causal.astype(int))
# 提示：at.attend(x, head, mask=causal).out[-1]，以及 at.stack(x, [head, at.make_head(seed=demo12.SECOND_LAYER_SEED)], causal)'''),
    ("code", '''\
# 练习 3、4：起点
ids_r, mask_r = pid.pad_batch(demo12.BATCH, side="right")
print(mask_r)
print(pid.next_position_ids(mask))'''),
]

# --- lesson 2 ------------------------------------------------------------------------------------

LESSON2 = [
    ("md", _intro(2, "算一算「直接加编号」让内容信号变得多小，看归一化编号为什么随长度漂移，"
                     "再查 GPT-2 和 BERT 的可学习位置表有多大、查到表外会发生什么。")),
    ("code", SETUP),
    ("md", "## 1. 直接把编号加到词向量上：raw_index_content_ratio\n\n"
           "设词向量每个分量的均方根（RMS）是 $r$，位置 $p$ 直接以数字 $p$ 加上去。"
           "内容和位置信号之比是 $r/p$：位置越靠后，内容越被淹没。"),
    ("code", '''\
from posenc import demo, demo12, naive

positions = [1, 10, 100, demo12.RATIO_MAX_POSITION]
for rms, label in ((1.0, "RMS = 1"), (demo.PROJECT_EMBED_STD, f"初始化尺度 std = {demo.PROJECT_EMBED_STD}")):
    ratios = naive.raw_index_content_ratios(positions, rms)
    print(label.ljust(22), "  ".join(f"p={p}: {r:.4%}" for p, r in zip(positions, ratios)))'''),
    ("md", "## 2. 把编号压到 [0, 1]：normalised_index\n\n"
           "另一个直觉是用 $p/(n-1)$，把位置压进 $[0, 1]$。问题是：同一个数值在不同长度下表示的距离不一样，"
           "而且每生成一个新 token，之前所有 token 的编号都会变。"),
    ("code", '''\
short, long = demo12.NORMALISED_SHORT, demo12.NORMALISED_LONG
print(f"长度 {short}:", naive.normalised_index(short))
print(f"长度 {short} 时相邻 token 相隔 {naive.normalised_step(short):.3f}，长度 {long} 时相隔 {naive.normalised_step(long):.3f}")
gap = naive.normalised_step(short)
print(f"短序列里「相邻」的那段间隔，放到长度 {long} 的序列里跨 {naive.normalised_gap_in_tokens(gap, long):.0f} 个 token")

probe = demo12.NORMALISED_PROBE
print(f"位置 {probe}：长度 {short} 时是 {naive.normalised_value(probe, short):.3f}，"
      f"再生成一个 token 后是 {naive.normalised_value(probe, short + 1):.3f}")'''),
    ("md", "## 3. 可学习的位置表有多大：table_parameters\n\n"
           "GPT-2 和 BERT 给每个位置学一行向量：表有「上下文长度 × 隐藏维」个参数。"
           "数字来自 `posenc/data/models.yaml`，每个字段都带着来源和核实标签（V 为一手来源核实）。"),
    ("code", '''\
from posenc import configs, learned

for key in ("gpt2", "bert_base"):
    cfg = configs.load(key)
    ctx, hid = cfg.field("context"), cfg.field("hidden")
    print(f"{cfg.name}: {ctx.value:,} 行 × {hid.value:,} 列 = {learned.table_parameters(cfg):,} 个参数"
          f"  （核实标签 {ctx.tag}/{hid.tag}）")'''),
    ("md", "## 4. 查到表外：IndexError\n\n"
           "位置表就是一个 `nn.Embedding(上下文长度, 隐藏维)`。最后一行能查到，再往后一行就没有了："),
    ("code", '''\
import torch

cfg = configs.load("gpt2")
torch.manual_seed(0)
wpe = torch.nn.Embedding(cfg["context"], cfg["hidden"])
print("位置表形状:", tuple(wpe.weight.shape))
last = cfg["context"] - 1
print(f"查位置 {last}: 得到形状", tuple(wpe(torch.tensor([last])).shape))
for p in (cfg["context"], demo12.LOOKUP_FAR):
    try:
        wpe(torch.tensor([p]))
    except IndexError as err:
        print(f"查位置 {p:,}: IndexError: {err}")
print("posenc 的判断:", learned.probe_rows(cfg, [0, last, cfg["context"], demo12.LOOKUP_FAR]))'''),
    ("md", "表里有这一行，也不代表这一行学过东西：如果训练时的句子都只有 `train_len` 长，"
           "更靠后的行一次梯度也拿不到，永远停在随机初始值。"),
    ("code", '''\
got = learned.rows_with_gradient(rows=16, train_len=demo.PROJECT_TRAIN_LEN // 16)
print("每一行有没有收到梯度:", got.astype(int))
print("收到梯度的行数:", int(got.sum()), "/", got.size)'''),
    ("md", "## 练习 Exercises\n\n"
           "1. 在第 1 节里换一个 RMS：内容信号要多大，才能在最后一个位置上仍和位置信号一样大？用 `naive.raw_index_content_ratio` 验证你的答案。\n"
           "2. 归一化编号下，长序列里数值相差一个「短序列步长」的两个 token 相隔多远？换几组长度算一算（`naive.normalised_gap_in_tokens`）。\n"
           "3. 如果把 GPT-2 的上下文加长到四倍、隐藏维不变，位置表要多多少参数？先心算，再用代码算。\n"
           "4. 改 `rows_with_gradient` 的 `train_len`，验证收到梯度的行数总是等于 `train_len`。"),
    ("code", '''\
# 练习 1、3、4：起点
print(naive.raw_index_content_ratio(demo12.RATIO_MAX_POSITION, 1.0))
print(configs.load("gpt2")["context"] * configs.load("gpt2")["hidden"])
print(learned.rows_with_gradient(rows=12, train_len=5).astype(int))'''),
]

# --- lesson 3 ------------------------------------------------------------------------------------

LESSON3 = [
    ("md", _intro(3, "用 torch 一步步搭出正弦位置表，看「猫吃鱼」和「鱼吃猫」加上位置后怎么分开，"
                     "验证编码在几千个位置上都有界、两个位置的点积只取决于距离、平移就是旋转。")),
    ("code", SETUP),
    ("md", "## 1. 一步步搭出位置表：table_torch\n\n"
           "Vaswani et al. 2017 §3.5 的公式：$PE(p, 2i) = \\sin(p\\,\\omega_i)$，"
           "$PE(p, 2i+1) = \\cos(p\\,\\omega_i)$，$\\omega_i = \\mathrm{base}^{-2i/d}$。"
           "先算一列位置，再算每一对的角速度 $\\omega_i$（取对数再指数，避免算大数的幂）："),
    ("code", '''\
import math

import torch

from posenc import demo, sinusoidal

d_model, max_len, base = demo.WALKTHROUGH_DIM, 10, demo.DEFAULT_BASE
p = torch.arange(max_len, dtype=torch.float32).unsqueeze(1)     # (max_len, 1)：一列位置
two_i = torch.arange(0, d_model, 2, dtype=torch.float32)        # 每一对的 2i
omega = torch.exp(-math.log(base) * two_i / d_model)            # ω_i = base^(−2i/d)
print("位置列的形状:", tuple(p.shape))
print("角速度 ω_i:", omega)'''),
    ("md", "`p * omega` 靠广播得到 (位置数, 对数) 的角度矩阵；偶数维放 sin，奇数维放 cos："),
    ("code", '''\
pe = torch.zeros(max_len, d_model)
pe[:, 0::2] = torch.sin(p * omega)
pe[:, 1::2] = torch.cos(p * omega)
torch.set_printoptions(precision=4, sci_mode=False)
print("表的形状:", tuple(pe.shape))
print("位置 0、1、2 的编码:")
print(pe[:3])
print("与 posenc.sinusoidal.table_torch 的最大差值:", (pe - sinusoidal.table_torch(max_len, d_model)).abs().max().item())
print("与 numpy 版 sinusoidal.table（float64）的最大差值:",
      float(np.abs(pe.double().numpy() - sinusoidal.table(max_len, d_model)).max()))'''),
    ("md", "## 2. 猫吃鱼，鱼吃猫：nn.Embedding\n\n"
           "词向量是一张按字查的表，和位置无关。只用词向量时，「鱼吃猫」就是把「猫吃鱼」的行倒过来；"
           "加上位置编码后，同一个「猫」在位置 0 和位置 2 的向量就不同了。"),
    ("code", '''\
torch.manual_seed(0)
vocab = {"猫": 0, "吃": 1, "鱼": 2}
embedding = torch.nn.Embedding(len(vocab), d_model)


def embed(sentence, with_position):
    x = embedding(torch.tensor([vocab[ch] for ch in sentence]))
    return x + pe[: len(sentence)] if with_position else x


with torch.no_grad():
    for with_position in (False, True):
        a, b = embed("猫吃鱼", with_position), embed("鱼吃猫", with_position)
        print("加位置编码" if with_position else "只有词向量",
              "| 两句里「猫」的向量最大差值:", round((a[0] - b[2]).abs().max().item(), 4),
              "| 鱼吃猫是否就是猫吃鱼倒过来:", torch.equal(a.flip(0), b))'''),
    ("md", "## 3. 位置拉到几千，数值会失控吗：pe.norm\n\n"
           "sin 和 cos 都在 $[-1, 1]$ 里，每一对 $(\\sin, \\cos)$ 的长度恒为 1，"
           "所以整个向量的长度恒为 $\\sqrt{d/2}$，不管位置多大。"),
    ("code", '''\
big = sinusoidal.table_torch(demo.WALKTHROUGH_MAX_LEN, d_model)
norms = big.norm(dim=1)
print(f"前 {demo.WALKTHROUGH_MAX_LEN:,} 个位置: 最小值 {big.min().item():+.4f}  最大值 {big.max().item():+.4f}")
print(f"向量长度 {norms.min().item():.4f} ~ {norms.max().item():.4f}，理论值 √(d/2) = {math.sqrt(d_model / 2):.4f}")'''),
    ("md", "## 4. 点积只取决于距离：dot_closed_form\n\n"
           "每一对贡献 $\\sin x\\sin y + \\cos x\\cos y = \\cos(x - y)$，所以 "
           "$PE(p)\\cdot PE(p+k) = \\sum_i \\cos(k\\,\\omega_i)$，和 $p$ 无关。换几个起点验证："),
    ("code", '''\
d = sinusoidal.DEMO_DIM
for k in (1, 5, 20):
    dots = [sinusoidal.dot(p0, p0 + k, d) for p0 in (0, 7, 1000)]
    print(f"距离 k={k:>2}: 起点 0/7/1000 的点积 {[round(v, 6) for v in dots]}，闭式 {sinusoidal.dot_closed_form(k, d):.6f}")'''),
    ("md", "## 5. 平移就是旋转：shift_rotation\n\n"
           "§3.5 说 $PE(p+k)$ 是 $PE(p)$ 的线性函数。这个线性函数是一个分块对角的旋转矩阵 $M_k$，"
           "每一对转过固定角度 $k\\,\\omega_i$，只和 $k$ 有关："),
    ("code", '''\
k = demo.SHIFT
M = sinusoidal.shift_rotation(k, d)
for p0 in (0, 3, 500):
    err = np.abs(M @ sinusoidal.encode(p0, d) - sinusoidal.encode(p0 + k, d)).max()
    print(f"max |M_k·PE({p0}) − PE({p0 + k})| = {err:.2e}")
print("M_k 是正交矩阵（Mᵀ M = I）:", np.allclose(M.T @ M, np.eye(d)))'''),
    ("md", "## 练习 Exercises\n\n"
           "1. 把 `base` 改成别的值（比如大十倍），最慢一对转一圈要多少个 token？用 `sinusoidal.periods` 验证。\n"
           "2. 第 2 节里，如果位置编码只用第一对（最快的一对），「猫」在位置 0 和位置 `2π` 附近的整数位置上还分得开吗？\n"
           "3. 距离 $k$ 越大，点积一定越小吗？画出或打印 `sinusoidal.dot_closed_form(k, d)` 在 $k$ 从 0 到几百上的值。\n"
           "4. 验证 $M_a M_b = M_{a+b}$：两次平移等于一次平移。"),
    ("code", '''\
# 练习 1、3、4：起点
print(sinusoidal.periods(d, base=demo.DEFAULT_BASE))
print([round(sinusoidal.dot_closed_form(k, d), 3) for k in range(0, demo.MAX_DISTANCE + 1, 25)])
print(np.allclose(sinusoidal.shift_rotation(2, d) @ sinusoidal.shift_rotation(3, d), sinusoidal.shift_rotation(5, d)))'''),
]

# --- lesson 4 ------------------------------------------------------------------------------------

LESSON4 = [
    ("md", _intro(4, "亲手把 query 和 key 按位置旋转，验证注意力分数只取决于相对距离；"
                     "再数一数 Qwen3 有多少对维度在训练长度里一圈都转不完。")),
    ("code", SETUP),
    ("md", "## 1. 每一对维度一个角速度：inverse_frequencies\n\n"
           "RoPE（Su et al. 2021, RoFormer）把 query/key 的维度两两配对，第 $i$ 对以 $\\omega_i = \\theta^{-2i/d}$ "
           "的角速度旋转：位置 $m$ 上的 token 转过 $m\\,\\omega_i$。"),
    ("code", '''\
from posenc import rope

head_dim, theta = 8, 10_000.0
inv_freq = rope.inverse_frequencies(head_dim, theta)
print("ω_i:", inv_freq)
print("转一圈要多少个 token（λ_i = 2π/ω_i）:", rope.wavelengths(inv_freq))'''),
    ("md", "## 2. 旋转 q 和 k，分数只看距离：rotate\n\n"
           "同一对 query、key 向量放在不同的绝对位置上，只要距离 $n - m$ 相同，旋转后的点积就相同。"),
    ("code", '''\
rng = np.random.default_rng(0)
q, k = rng.standard_normal(head_dim), rng.standard_normal(head_dim)


def score(m, n):
    qm = rope.rotate(q[None, :], [m], inv_freq)[0]
    kn = rope.rotate(k[None, :], [n], inv_freq)[0]
    return float(qm @ kn)


for m, n in ((3, 7), (10, 14), (1000, 1004), (3, 8)):
    print(f"q 在位置 {m:>4}，k 在位置 {n:>4}（距离 {n - m}）: 分数 {score(m, n):+.6f}")
print("旋转不改变长度:", np.allclose(np.linalg.norm(rope.rotate(q[None, :], [123], inv_freq)), np.linalg.norm(q)))'''),
    ("md", "## 3. torch 版本，和两种维度排布：apply_rotary_torch\n\n"
           "transformers 的 `rotate_half` 把第 $i$ 对放在维度 $(i, i + d/2)$；RoFormer 原文和 Meta 的 Llama 代码放在 $(2i, 2i+1)$。"
           "两者只差一个固定的维度重排："),
    ("code", '''\
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
      float(np.abs(rope.rotate(x[:, perm], pos, inv_freq, convention="half") - inter[:, perm]).max()))'''),
    ("md", "## 4. Qwen3 有多少对一圈都转不完：pairs_not_completing_turn\n\n"
           "波长 $\\lambda_i$ 比训练长度还长的那些对，在训练时从没转完一圈，它们的角度其实在充当粗略的绝对位置。"
           "第 5 课的长上下文方法正是对这些对动手。配置来自 `posenc/data/models.yaml`，带核实标签。"),
    ("code", '''\
from posenc import configs

cfg = configs.load("qwen3_8b")
for name in ("head_dim", "rope_theta", "context"):
    f = cfg.field(name)
    print(f"{name}: {f.value:,}（核实标签 {f.tag}）")
inv = rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"])
lam = rope.wavelengths(inv)
n_slow = rope.pairs_not_completing_turn(inv, cfg["context"])
print(f"{cfg.name}: {len(inv)} 对里有 {n_slow} 对在 {cfg['context']:,} 个 token 内转不完一圈")
print("第一对转不完的是第", int(np.argmax(lam > cfg["context"])), "对，波长", f"{lam[lam > cfg['context']][0]:,.0f}", "个 token")'''),
    ("md", "## 练习 Exercises\n\n"
           "1. 验证第 2 节的结论对任何 $q, k$ 都成立：换几个随机种子，也换几组同距离的位置。\n"
           "2. 距离变大时，分数会怎样变化？固定 $q = k$，打印 `score(0, n)` 随 $n$ 的变化。\n"
           "3. 换成 Llama 2 7B 和 Llama 3 8B（`configs.load(\"llama2_7b\")`、`\"llama3_8b\"`），"
           "各有多少对转不完一圈？基数 θ 变大，这个数怎么变？"),
    ("code", '''\
# 练习 3：起点
for key in ("llama2_7b", "llama3_8b", "qwen3_8b"):
    c = configs.load(key)
    print(c.name, rope.pairs_not_completing_turn(rope.inverse_frequencies(c["head_dim"], c["rope_theta"]), c["context"]))'''),
]

# --- lesson 5 ------------------------------------------------------------------------------------

LESSON5 = [
    ("md", _intro(5, "按一个真实模型的配置（Qwen3-8B 的 YaRN 设置）逐对算出 YaRN 之后的频率，"
                     "并和 PI、NTK-aware 对照。")),
    ("code", SETUP),
    ("md", "## 1. 配置：configs.load\n\n"
           "Qwen3-8B 原生训练长度之外，官方文档让用户自己加上 YaRN 配置（`scaling_opt_in`）。"
           "缩放因子 $s$ = 新长度 ÷ 原长度。"),
    ("code", '''\
from posenc import configs, rope, scaling

cfg = configs.load("qwen3_8b")
sc = cfg["scaling"]
print("scaling:", sc, "（核实标签", cfg.field("scaling").tag + "）")
print("需要用户自己加:", cfg["scaling_opt_in"])
head_dim, theta, s, L = cfg["head_dim"], cfg["rope_theta"], sc["factor"], sc["original_max_position_embeddings"]
print(f"head_dim={head_dim}, θ={theta:,}, s={s}, 原长度 L={L:,}, 目标长度 {cfg['scaled_context']:,}")'''),
    ("md", "## 2. YaRN 逐对算：yarn_pairs\n\n"
           "对第 $j$ 对，先算它在原长度里转了多少圈 $r_j = L/\\lambda_j$。转得多的（快的对）保持原频率，"
           "一圈都转不完的（慢的对）除以 $s$，和 PI 一样；中间的用斜坡线性混合："
           "$\\omega_j' = (1 - \\gamma_j)\\,\\omega_j + \\gamma_j\\,\\omega_j / s$。"
           "另外注意力的温度乘上 $0.1\\ln s + 1$。"),
    ("code", '''\
t = scaling.yarn_pairs(head_dim, theta, s, L)
print(f"斜坡区间（对的编号）: {t.low:.2f} ~ {t.high:.2f}")
print(f"保持不变 {t.kept} 对，完全除以 s 的 {t.interpolated} 对，混合 {t.blended} 对")
print(f"注意力因子 {t.attention_factor:.4f}")
print(" 对  波长(token)   圈数 r     斜坡γ   ω'/ω")
for j in list(range(0, len(t.pair), 8)) + [len(t.pair) - 1]:
    print(f"{j:>3}  {t.wavelength[j]:>11,.1f}  {t.rotations[j]:>9.2f}  {t.ramp[j]:>6.3f}  {t.inv_freq[j] * t.wavelength[j] / (2 * np.pi):.4f}")'''),
    ("md", "`scaling.for_model` 直接从配置算出同样的频率，和 transformers 的 `ROPE_INIT_FUNCTIONS` 返回的形式一样：`(inv_freq, attention_factor)`。"),
    ("code", '''\
inv_freq, att = scaling.for_model(cfg)
print("与逐对表一致:", np.allclose(inv_freq, t.inv_freq), " 注意力因子一致:", att == t.attention_factor)'''),
    ("md", "## 3. 和 PI、NTK-aware 比：linear、ntk_aware\n\n"
           "PI 把每一对都除以 $s$（快的对也被压慢，近距离的分辨率变差）；NTK-aware 改大基数 θ，"
           "快的对几乎不动、慢的对压得最多。YaRN 按「转了几圈」分段处理。下面比较每种方法下，最快、中间、最慢一对的频率变成原来的几分之几："),
    ("code", '''\
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
print("NTK-aware 的新基数:", f"{scaling.ntk_aware_base(theta, s, head_dim):,.0f}")'''),
    ("md", "## 练习 Exercises\n\n"
           "1. DeepSeek-V3（`configs.load(\"deepseek_v3\")`）的 YaRN 因子大得多。用 `scaling.yarn_pairs` 算它的表：多少对保持不变？注意它的 `mscale`。\n"
           "2. 改 `beta_fast`、`beta_slow`，斜坡区间怎么移动？哪个参数决定「快的对」的边界？\n"
           "3. Llama 3.1 的缩放按波长分三段（`scaling.llama3_split`）。算出 Llama 3.1 8B 三段各有几对，和 YaRN 的划分比较。"),
    ("code", '''\
# 练习 1、3：起点
ds = configs.load("deepseek_v3")
print(ds["scaling"])
ll = configs.load("llama31_8b")
lsc = ll["scaling"]
print(scaling.llama3_split(ll["head_dim"], ll["rope_theta"], lsc["low_freq_factor"], lsc["high_freq_factor"],
                           lsc["original_max_position_embeddings"]))'''),
]

# --- lesson 6 ------------------------------------------------------------------------------------

LESSON6 = [
    ("md", _intro(6, "从真实配置算出部分 RoPE 到底旋转了几维、留下几维不带位置，"
                     "并验证不旋转的那几维对注意力分数的贡献和位置无关。")),
    ("code", SETUP),
    ("md", "## 1. 配置里的 partial_rotary_factor\n\n"
           "transformers 用 `partial_rotary_factor` 表示只旋转每个头的前 `int(head_dim × factor)` 维，其余维度原样通过，"
           "完全不带位置信号（NoPE）。注意核实标签：有的字段只找到了同系列模型的配置（U）。"),
    ("code", '''\
from posenc import configs, rope

for key in ("qwen3_next_80b_a3b", "glm45"):
    cfg = configs.load(key)
    hd, frac = cfg.field("head_dim"), cfg.field("rotary_fraction")
    rdim = rope.rotary_dim(hd.value, frac.value)
    print(f"{cfg.name}: head_dim {hd.value}（{hd.tag}）× {frac.value}（{frac.tag}）"
          f"= 旋转 {rdim} 维（{rdim // 2} 对），不带位置 {hd.value - rdim} 维")'''),
    ("md", "## 2. 频率按旋转维数算：rotary_dim\n\n"
           "部分 RoPE 的指数除以旋转维数 $d_{rot}$，而不是 head_dim：$\\omega_i = \\theta^{-2i/d_{rot}}$，"
           "所以最慢一对仍然接近 $\\theta$ 决定的那个波长。"),
    ("code", '''\
cfg = configs.load("glm45")
inv_partial = rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"], cfg["rotary_fraction"])
print("旋转的对数:", len(inv_partial))
print("最快与最慢一对的波长:", f"{rope.wavelengths(inv_partial)[0]:.2f}", f"{rope.wavelengths(inv_partial)[-1]:,.0f}")
print(f"训练长度 {cfg['context']:,} 内转不完一圈的对数:", rope.pairs_not_completing_turn(inv_partial, cfg["context"]))'''),
    ("md", "## 3. 不旋转的维度不带位置：NoPE\n\n"
           "把同一对 q、k 放在不同位置上：旋转部分的分数随相对距离变化，不旋转部分的分数和位置完全无关。"),
    ("code", '''\
hd = cfg["head_dim"]
rdim = rope.rotary_dim(hd, cfg["rotary_fraction"])
rng = np.random.default_rng(0)
q, k = rng.standard_normal(hd), rng.standard_normal(hd)
for m, n in ((0, 0), (0, 50), (1000, 1050), (0, 5000)):
    qm = rope.rotate(q[None, :], [m], inv_partial, convention="half")[0]
    kn = rope.rotate(k[None, :], [n], inv_partial, convention="half")[0]
    print(f"q@{m:>4}, k@{n:>4}: 旋转部分 {qm[:rdim] @ kn[:rdim]:+8.4f}   不旋转部分 {qm[rdim:] @ kn[rdim:]:+8.4f}")'''),
    ("md", "## 4. DeepSeek-V3：把位置拆成单独一块\n\n"
           "DeepSeek-V3 的 MLA 换了个做法：每个头有一块不带位置的维度（`nope_head_dim`），再拼上一块专门旋转的维度"
           "（配置里的 `head_dim`，即 `qk_rope_head_dim`）。"),
    ("code", '''\
ds = configs.load("deepseek_v3")
rope_part, nope_part = ds["head_dim"], ds["nope_head_dim"]
print(f"{ds.name}: 旋转 {rope_part} 维 + 不旋转 {nope_part} 维 = 每个头 {rope_part + nope_part} 维，"
      f"旋转占 {rope_part / (rope_part + nope_part):.1%}")'''),
    ("md", "## 练习 Exercises\n\n"
           "1. 如果把 GLM-4.5 的指数错误地按 head_dim 而不是旋转维数来算，最慢一对的波长会变成多少？和正确值比较。\n"
           "2. 第 3 节里，把不旋转部分的 q、k 清零，只剩旋转部分：分数还和绝对位置无关吗？\n"
           "3. 算出 Qwen3-Next 的旋转维数占整个头的比例，和 DeepSeek-V3 比较。哪个模型留给「纯内容」的维度更多？"),
    ("code", '''\
# 练习 1：起点（错误的写法：指数除以 head_dim）
wrong = cfg["rope_theta"] ** (-2.0 * np.arange(rdim // 2) / hd)
print(f"{rope.wavelengths(wrong)[-1]:,.0f}", "对比", f"{rope.wavelengths(inv_partial)[-1]:,.0f}")'''),
]

NOTEBOOKS = {f"lesson{n}": cells for n, cells in enumerate((LESSON1, LESSON2, LESSON3, LESSON4, LESSON5, LESSON6), start=1)}


HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.M)


def heading_anchors(markdown: str) -> list[str]:
    """The ids mkdocs-jupyter gives the headings of a Markdown cell.

    It keeps only ASCII word characters (mkdocs_jupyter.utils.slugify), so a heading written only
    in Chinese gets an empty id, and two headings that differ only in Chinese get the same one;
    the page's table of contents then links to anchors that do not exist. Every heading therefore
    carries an ASCII part of its own (the lesson number, or the posenc function the section uses),
    written as plain text: inline `code` in a heading is dropped from the table of contents' anchor.
    """
    from mkdocs_jupyter.utils import slugify

    return [slugify(re.sub(r"[`*]|\[([^\]]*)\]\([^)]*\)", r"\1", m.group(2))) for m in HEADING.finditer(markdown)]


def _check_headings(name: str, cells) -> None:
    coded = [m.group(2) for kind, src in cells if kind == "md" for m in HEADING.finditer(src) if "`" in m.group(2)]
    if coded:
        raise ValueError(f"{name}: no `code` in headings {coded}: the page's table of contents drops it from the anchor, "
                         f"the heading's own id keeps it, and the two no longer match")
    anchors = [a for kind, src in cells if kind == "md" for a in heading_anchors(src)]
    dup = sorted({a for a in anchors if anchors.count(a) > 1})
    if "" in anchors or dup:
        raise ValueError(f"{name}: every heading needs a unique ASCII part for its anchor (empty: {'' in anchors}, "
                         f"repeated: {dup}); add the posenc function the section uses, e.g. '## 2. 交换两个字：swap'")


def build(name: str, cells) -> nbformat.NotebookNode:
    """One notebook, no outputs, cell ids "<name>-<index>"."""
    _check_headings(name, cells)
    nb = new_notebook(
        metadata={
            "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        }
    )
    for index, (kind, source) in enumerate(cells):
        cell_id = f"{name}-{index:02d}"
        if kind == "md":
            nb.cells.append(new_markdown_cell(source, id=cell_id))
        elif kind == "code":
            nb.cells.append(new_code_cell(source, id=cell_id))
        else:
            raise ValueError(f"{name} cell {index}: kind must be 'md' or 'code', got {kind!r}")
    nbformat.validate(nb)
    return nb


def render(nb) -> str:
    return nbformat.writes(nb, version=4) + "\n"


def expected() -> dict[Path, str]:
    """The bytes every notebook should have, by path."""
    return {OUT / f"{name}.ipynb": render(build(name, cells)) for name, cells in NOTEBOOKS.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 when a notebook is stale")
    args = parser.parse_args(argv)
    stale = []
    for path, text in expected().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    rel = [p.relative_to(ROOT).as_posix() for p in stale]
    if args.check:
        if rel:
            print("stale notebooks (run python -m tools.make_notebooks):", *rel, sep="\n  ")
            return 1
        print("notebooks up to date")
        return 0
    print(f"wrote {len(rel)} notebook(s)", *rel, sep="\n  ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
