"""第一步：用 torch 写 RoPE（rotate_half 写法），再把整句往后平移，看分数变不变。"""
import torch

from posenc.examples import L4_DIM, L4_SEED, TORCH_SHIFTS, texts
from posenc.shift import head_and_tokens
from posenc.sinusoidal import DEFAULT_BASE


def rope_cos_sin(positions: torch.Tensor, d_rot: int, base: float = DEFAULT_BASE, dtype=torch.float32):
    """每个位置、每一对的 cos(mω_i)、sin(mω_i)，按 rotate_half 的排法复制成 d_rot 列。"""
    inv_freq = 1.0 / base ** (torch.arange(0, d_rot, 2, dtype=dtype) / d_rot)  # ω_i = base^(−2i/d_rot)
    angles = positions.to(dtype)[:, None] * inv_freq[None, :]         # (句长, d_rot/2)：m·ω_i
    emb = torch.cat((angles, angles), dim=-1)                          # 第 i 维和第 i+d_rot/2 维用同一个角
    return emb.cos(), emb.sin()


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def apply_rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    # 每一对 (a, b) 变成 (a·cos − b·sin, a·sin + b·cos)：二维旋转
    return x * cos + rotate_half(x) * sin


if __name__ == "__main__":
    sentence = texts("zh").sentence
    d_head, N = L4_DIM, len(sentence)            # 每个头的维数（真实模型常见 128）；例句每个字一个 token
    head, tokens = head_and_tokens(sentence, d_head, L4_SEED)  # 上面实测用的同一个头、同一句话
    x = torch.tensor(tokens, dtype=torch.float32)         # (句长, d_head)：每个字的向量
    q = x @ torch.tensor(head.w_q, dtype=torch.float32)   # 投影后的 query，一行一个字
    k = x @ torch.tensor(head.w_k, dtype=torch.float32)   # 投影后的 key

    def scores(start: int) -> torch.Tensor:
        cos, sin = rope_cos_sin(torch.arange(N) + start, d_head)  # 整个头都转：d_rot = d_head
        return apply_rope(q, cos, sin) @ apply_rope(k, cos, sin).T / d_head**0.5

    base_scores = scores(0)
    for start in TORCH_SHIFTS:
        diff = (scores(start) - base_scores).abs().max().item()
        print(f"整句从位置 {start} 开始：分数最大变化 {diff:.1e}")
    cos, sin = rope_cos_sin(torch.arange(N), d_head)
    print("旋转前后向量长度的最大差:", f"{(apply_rope(q, cos, sin).norm(dim=-1) - q.norm(dim=-1)).abs().max().item():.1e}")
