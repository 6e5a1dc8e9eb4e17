"""第二步：两种写法（interleaved 和 rotate_half）是不是同一个旋转？"""
import torch

from posenc.examples import CONVENTION_DIM, CONVENTION_SEED, CONVENTION_TOKENS
from posenc.sinusoidal import DEFAULT_BASE

d = CONVENTION_DIM
torch.manual_seed(CONVENTION_SEED)
inv_freq = 1.0 / DEFAULT_BASE ** (torch.arange(0, d, 2, dtype=torch.float64) / d)


def rope_interleaved(x, positions):
    """一对 = 相邻两维 (2i, 2i+1)：RoFormer 论文、Meta 的 Llama 代码的写法。"""
    ang = positions[:, None].double() * inv_freq
    a, b = x[..., 0::2], x[..., 1::2]
    return torch.stack((a * ang.cos() - b * ang.sin(), a * ang.sin() + b * ang.cos()), dim=-1).flatten(-2)


def rope_half(x, positions):
    """一对 = 第 i 维和第 i + d/2 维：transformers 里 rotate_half 的写法。"""
    ang = positions[:, None].double() * inv_freq
    a, b = x[..., : d // 2], x[..., d // 2 :]
    return torch.cat((a * ang.cos() - b * ang.sin(), a * ang.sin() + b * ang.cos()), dim=-1)


perm = torch.cat((torch.arange(0, d, 2), torch.arange(1, d, 2)))  # 把相邻的一对挪成「前一半 + 后一半」
print("排列 perm:", perm.tolist())

pos = torch.arange(CONVENTION_TOKENS)
q, k = torch.randn(CONVENTION_TOKENS, d, dtype=torch.float64), torch.randn(CONVENTION_TOKENS, d, dtype=torch.float64)
s_inter = rope_interleaved(q, pos) @ rope_interleaved(k, pos).T
s_half_perm = rope_half(q[:, perm], pos) @ rope_half(k[:, perm], pos).T  # 先按 perm 换位，再用 rotate_half
s_half_raw = rope_half(q, pos) @ rope_half(k, pos).T                     # 不换位，直接换写法
print("先换位再用 rotate_half，分数最大差:", f"{(s_inter - s_half_perm).abs().max().item():.1e}")
print("不换位直接换写法，分数最大差:    ", f"{(s_inter - s_half_raw).abs().max().item():.2f}")
print("旋转后的向量逐维对应:", torch.allclose(rope_interleaved(q, pos)[:, perm], rope_half(q[:, perm], pos)))
