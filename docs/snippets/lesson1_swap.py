# 第 1 课：交换两个字，看单头自注意力的输出怎么变。
# 注意力本身在 posenc/attention.py：Q = XW_q, K = XW_k, V = XW_v, softmax(QKᵀ/√d_head)·V。
import numpy as np

from posenc import attention as at
from posenc import examples as ex
from posenc.tokenize import join

text, i, j = ex.texts("zh").swap_main          # 本版的主例句，以及要交换的两个位置
perm = at.swap(len(text), i, j)               # 交换第 i、j 个位置
swapped = at.permute_text(text, perm)
head = at.make_head(d=ex.ATTN_D, seed=ex.ATTN_SEED)

for positions in (False, True):
    x_a = at.sentence_input(text, ex.ATTN_D, ex.ATTN_SEED, positions)     # 每个字一行向量（可选：加上位置向量）
    x_b = at.sentence_input(swapped, ex.ATTN_D, ex.ATTN_SEED, positions)
    out_a = at.attend(x_a, head).out
    out_b = at.attend(x_b, head).out
    # 同一个字对同一个字：B 的第 r 行，是 A 的第 perm[r] 行那个字
    diff = np.abs(out_b - out_a[perm]).max()
    print(f"加位置向量={positions!s:5}  {join(text)} → {join(swapped)}  同一个字输出的最大差值 = {diff:.3g}")

print("float64 机器精度 =", np.finfo(np.float64).eps)
