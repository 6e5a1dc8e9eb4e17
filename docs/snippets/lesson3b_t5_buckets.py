"""用 torch 写 T5 的分桶：近处一个距离一个桶，远处按对数变宽，max_distance 以外并进最后一个桶。"""
import math

import torch

from posenc.examples import t5_buckets

num_buckets, max_distance = t5_buckets()  # T5-Base 的配置


def t5_bucket(relative_position: torch.Tensor, bidirectional: bool, num_buckets: int, max_distance: int) -> torch.Tensor:
    """relative_position 是 n − m（键的位置减查询的位置，T5 代码的写法），返回同形状的桶号。"""
    bucket = torch.zeros_like(relative_position)
    if bidirectional:  # 编码器：配置的 num_buckets 是两个方向合起来的，对半分；从这里起它是一个方向的桶数
        num_buckets //= 2
        bucket += (relative_position > 0).long() * num_buckets
        distance = relative_position.abs()
    else:  # 解码器：只看前面；后面的键都算距离 0（反正会被因果掩码遮住）
        distance = (-relative_position).clamp(min=0)  # m − n
    max_exact = num_buckets // 2  # 精确区（本课的 D_exact）：距离 0 … max_exact − 1 各占一个桶
    # 对数区：把 [max_exact, max_distance) 按对数均匀切成 num_buckets − max_exact 份
    # （先把精确区的距离垫到 max_exact，免得算 log 0；它们走的是上面那条路）
    scaled = torch.log(distance.clamp(min=max_exact).float() / max_exact) / math.log(max_distance / max_exact)
    far = (max_exact + (scaled * (num_buckets - max_exact)).long()).clamp(max=num_buckets - 1)
    return bucket + torch.where(distance < max_exact, distance, far)


for bidirectional, name in ((True, "编码器（双向）"), (False, "解码器（单向）")):
    distances = torch.arange(2 * max_distance)
    buckets = t5_bucket(-distances, bidirectional, num_buckets, max_distance)  # relative_position = −(m − n)：键在查询前面 m − n 个 token
    print(f"{name}，键在前面的一侧：")
    row = []
    for b in buckets.unique().tolist():
        hit = distances[buckets == b]
        first, last = hit.min().item(), hit.max().item()
        if b == buckets.max().item():
            row.append(f"桶{b}:{first} 起")  # 最后一个桶：再远也在这里
        else:
            row.append(f"桶{b}:{first}" + ("" if last == first else f"–{last}"))
    for start in range(0, len(row), 6):
        print("  " + "  ".join(row[start:start + 6]))

from posenc import relative  # 课程自己的实现，对照一下

r = torch.arange(-1000, 1001)
for bidirectional in (True, False):
    mine = t5_bucket(r, bidirectional, num_buckets, max_distance)
    theirs = torch.from_numpy(relative.t5_bucket(r.numpy(), bidirectional, num_buckets, max_distance))
    print(f"bidirectional={bidirectional}：距离 −1000 … 1000 里和 posenc.relative.t5_bucket 不一样的个数:",
          int((mine != theirs).sum()))
