"""用 torch 写 ALiBi：每个头一个固定斜率，偏置加在分数上；再把整句挪到很远的位置，看偏置变不变。"""
import math

import torch

from posenc.examples import ALIBI_HEADS, ALIBI_SENTENCE_HEAD, FAR_POSITION, texts


def alibi_slopes(n_heads: int) -> torch.Tensor:
    """Press et al. 2022 §3：头数 H 是 2 的幂时，斜率 a_h 是首项和公比都为 2^(−8/H) 的等比数列。"""
    def geometric(count: int) -> list[float]:
        ratio = 2 ** (-8 / count)
        return [ratio ** h for h in range(1, count + 1)]

    closest = 2 ** math.floor(math.log2(n_heads))  # 不是 2 的幂：先用最近的、较小的 2 的幂
    slopes = geometric(closest)
    if closest != n_heads:  # 其余的头从两倍头数那组斜率里隔一个取一个
        slopes += geometric(2 * closest)[0::2][: n_heads - closest]
    return torch.tensor(slopes)


def alibi_bias(n_heads: int, positions: torch.Tensor) -> torch.Tensor:
    """(头, 查询, 键)：a_h·(n − m) = −a_h·(m − n)，m 是查询的位置、n 是键的位置；键在查询之后的格子填 −∞，这就是因果掩码。"""
    offset = positions[None, :] - positions[:, None]  # n − m：键在查询前面时是负数
    bias = alibi_slopes(n_heads)[:, None, None] * offset
    return bias.masked_fill(offset > 0, float("-inf"))


N = len(texts("zh").sentence)  # 本版例句的 token 数
torch.set_printoptions(precision=4, sci_mode=False)
print(f"{ALIBI_HEADS} 个头的斜率:", alibi_slopes(ALIBI_HEADS))
bias = alibi_bias(ALIBI_HEADS, torch.arange(N))
print(f"第 {ALIBI_SENTENCE_HEAD} 个头的偏置（行是查询，列是键）:")
print(bias[ALIBI_SENTENCE_HEAD - 1])

far = alibi_bias(ALIBI_HEADS, torch.arange(N) + FAR_POSITION)  # 整句挪到位置 FAR_POSITION 起
seen = torch.isfinite(bias)
print("整句挪远之后，偏置的最大变化:", (far[seen] - bias[seen]).abs().max().item())
print("被遮住的格子还是同一批:", bool((torch.isfinite(far) == seen).all()))

from posenc import relative  # 课程自己的实现（float64），对照一下

print("与 posenc.relative.alibi_causal_bias 的最大差:",
      float((bias.double()[seen] - torch.from_numpy(relative.alibi_causal_bias(ALIBI_HEADS, N))[seen]).abs().max()))
