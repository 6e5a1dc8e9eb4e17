"""用 torch 从零写一遍 YaRN 的频率（Peng et al. 2023），参数取 Qwen3-8B 文档给的 ×4 设置。"""
import math

import torch

from posenc import configs, scaling

cfg = configs.load("qwen3_8b")                # 数值来自 posenc/data/models.yaml，各字段带出处
d_rot = cfg["head_dim"]                       # 每个头转 d_rot 维，d_rot/2 对
theta = cfg["rope_theta"]
s = cfg["scaling"]["factor"]                  # 扩展倍数
L = cfg["scaling"]["original_max_position_embeddings"]  # 训练长度
beta_fast, beta_slow = scaling.YARN_BETA_FAST, scaling.YARN_BETA_SLOW  # 论文的 β、α：转满 β 圈的保持，转不满 α 圈的插值


def pair_index_for_turns(r: float) -> float:
    """在 L 个 token 里正好转 r 圈的是第几对：解 L / (2π θ^(2i/d_rot)) = r。"""
    return d_rot * math.log(L / (2 * math.pi * r)) / (2 * math.log(theta))


def yarn_inv_freq() -> tuple[torch.Tensor, float, int, int]:
    i = torch.arange(d_rot // 2, dtype=torch.float64)
    omega = theta ** (-2 * i / d_rot)                          # 原来的 ω_i
    low = math.floor(pair_index_for_turns(beta_fast))          # 这一对以前：转得够多，保持不变
    high = math.ceil(pair_index_for_turns(beta_slow))          # 这一对以后：一圈都转不满，除以 s
    ramp = ((i - low) / (high - low)).clamp(0, 1)              # 0 = 原频率，1 = ω/s，中间按编号线性过渡
    inv_freq = omega * (1 - ramp) + omega / s * ramp
    attention_factor = 0.1 * math.log(s) + 1                   # 论文 Eq. 22：乘在 cos、sin 上
    return inv_freq, attention_factor, low, high


if __name__ == "__main__":
    inv_freq, att, low, high = yarn_inv_freq()
    omega = theta ** (-2 * torch.arange(d_rot // 2, dtype=torch.float64) / d_rot)
    print(f"Qwen3-8B: d_rot = {d_rot}, θ = {theta:,}, s = {s:g}, L = {L:,} → {int(s * L):,}")
    print(f"边界: low = {low}, high = {high}；注意力系数 = {att:.4f}（logit 放大 {att ** 2:.4f} 倍）")
    for i in (0, low, (low + high) // 2, high, d_rot // 2 - 1):
        print(f"  第 {i:2d} 对: ω/ω' = {float(omega[i] / inv_freq[i]):.3f}")
    ours, our_att = scaling.yarn(d_rot, theta, s, L)
    print(f"和 posenc.scaling.yarn 的最大相对差: {float(abs(inv_freq.numpy() / ours - 1).max()):.1e}；"
          f"注意力系数相同: {abs(our_att - att) < 1e-12}")
