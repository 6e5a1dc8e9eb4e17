"""第一步：用 torch 写 RoPE（rotate_half 写法），再把整句往后平移，看分数变不变。"""
import torch

from posenc.examples import L4_DIM, SENTENCE, TORCH_SEED, TORCH_SHIFTS
from posenc.sinusoidal import DEFAULT_BASE

d = L4_DIM            # 每个头的维数；真实模型常见 128
n = len(SENTENCE)     # 例句，每个字一个 token


def rope_cos_sin(positions: torch.Tensor, d: int, base: float = DEFAULT_BASE):
    """每个位置、每一对的 cos(mω_i)、sin(mω_i)，按 rotate_half 的排法复制成 d 列。"""
    inv_freq = 1.0 / base ** (torch.arange(0, d, 2, dtype=torch.float32) / d)  # ω_i = base^(−2i/d)
    angles = positions.float()[:, None] * inv_freq[None, :]                  # (n, d/2)：m·ω_i
    emb = torch.cat((angles, angles), dim=-1)                                 # 第 i 维和第 i+d/2 维用同一个角
    return emb.cos(), emb.sin()


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def apply_rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    # 每一对 (a, b) 变成 (a·cos − b·sin, a·sin + b·cos)：二维旋转
    return x * cos + rotate_half(x) * sin


torch.manual_seed(TORCH_SEED)
q = torch.randn(n, d)  # 已经过 W_q 投影的 query，一行一个 token
k = torch.randn(n, d)  # 已经过 W_k 投影的 key


def scores(start: int) -> torch.Tensor:
    cos, sin = rope_cos_sin(torch.arange(n) + start, d)
    return apply_rope(q, cos, sin) @ apply_rope(k, cos, sin).T


base_scores = scores(0)
for start in TORCH_SHIFTS:
    diff = (scores(start) - base_scores).abs().max().item()
    print(f"整句从位置 {start} 开始：分数最大变化 {diff:.1e}")
cos, sin = rope_cos_sin(torch.arange(n), d)
print("旋转前后向量长度的最大差:", f"{(apply_rope(q, cos, sin).norm(dim=-1) - q.norm(dim=-1)).abs().max().item():.1e}")
