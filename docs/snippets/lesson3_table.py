"""第一步：按 Vaswani et al. 2017 §3.5 的公式，用 torch 算出整张正弦位置表。"""
import math

import torch

from posenc.examples import WALKTHROUGH_DIM, WALKTHROUGH_FIRST_LEN
from posenc.sinusoidal import DEFAULT_BASE

d_model = WALKTHROUGH_DIM  # 演示用的小维度；原论文是 512，写法完全一样
max_len = WALKTHROUGH_FIRST_LEN  # 先算前几个位置，用多少取多少


def sinusoidal_table(max_len: int, d_model: int, base: float = DEFAULT_BASE) -> torch.Tensor:
    """返回形状 (max_len, d_model) 的表：第 p 行就是位置 p 的编码 PE(p)。"""
    p = torch.arange(max_len, dtype=torch.float32).unsqueeze(1)  # (max_len, 1)：一列位置
    two_i = torch.arange(0, d_model, 2, dtype=torch.float32)     # 0, 2, 4, …：每对的 2i
    omega = torch.exp(-math.log(base) * two_i / d_model)           # ω_i = θ^(−2i/d_model)，θ 即 base；取对数再指数，避免算大数的幂
    pe = torch.zeros(max_len, d_model)
    pe[:, 0::2] = torch.sin(p * omega)  # 偶数维放 sin
    pe[:, 1::2] = torch.cos(p * omega)  # 奇数维放 cos
    return pe


if __name__ == "__main__":
    torch.set_printoptions(precision=4, sci_mode=False)
    pe = sinusoidal_table(max_len, d_model)
    print("表的形状:", tuple(pe.shape))
    print("位置 0、1、2 的编码:")
    print(pe[:3])
