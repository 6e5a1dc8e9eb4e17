"""第二步：两种写法（interleaved 和 rotate_half）是不是同一个旋转？"""
import torch

from lesson4_rope_torch import apply_rope, rope_cos_sin  # 第一步里的 rotate_half 写法（同一目录）
from posenc.examples import L4_DIM, L4_SEED, texts
from posenc.shift import head_and_tokens

d_head = L4_DIM  # 整个头都转：d_rot = d_head
sentence = texts("zh").sentence
head, tokens = head_and_tokens(sentence, d_head, L4_SEED)  # 还是上面实测用的同一个头、同一句话
x = torch.tensor(tokens)                              # float64：只看写法的差别，不掺 float32 的舍入
w_q, w_k = torch.tensor(head.w_q), torch.tensor(head.w_k)
pos = torch.arange(len(sentence))


def rope_half(x, positions):
    """一对 = 第 i 维和第 i + d_rot/2 维：transformers 里 rotate_half 的写法。"""
    cos, sin = rope_cos_sin(positions, x.shape[-1], dtype=x.dtype)
    return apply_rope(x, cos, sin)


def rope_interleaved(x, positions):
    """一对 = 相邻两维 (2i, 2i+1)：RoFormer 论文、Meta 的 Llama 代码的写法。"""
    cos, sin = rope_cos_sin(positions, x.shape[-1], dtype=x.dtype)
    c, s = cos[..., : x.shape[-1] // 2], sin[..., : x.shape[-1] // 2]  # 每一对一个角
    a, b = x[..., 0::2], x[..., 1::2]
    return torch.stack((a * c - b * s, a * s + b * c), dim=-1).flatten(-2)


def scores(rope, w_q, w_k):
    q, k = rope(x @ w_q, pos), rope(x @ w_k, pos)
    return q @ k.T / d_head**0.5


perm = torch.cat((torch.arange(0, d_head, 2), torch.arange(1, d_head, 2)))  # 把相邻的一对挪成「前一半 + 后一半」
print("排列 perm:", perm.tolist())
s_inter = scores(rope_interleaved, w_q, w_k)
s_half_perm = scores(rope_half, w_q[:, perm], w_k[:, perm])  # 权重的输出维度先按 perm 换位，再用 rotate_half
s_half_raw = scores(rope_half, w_q, w_k)                     # 权重不换位，直接换写法
print("先换位再用 rotate_half，分数最大差:", f"{(s_inter - s_half_perm).abs().max().item():.1e}")
print("不换位直接换写法，分数最大差:    ", f"{(s_inter - s_half_raw).abs().max().item():.2f}")
q_i = rope_interleaved(x @ w_q, pos)
print("旋转后的 q 逐维对应:", torch.allclose(q_i[:, perm], rope_half(x @ w_q[:, perm], pos)))
