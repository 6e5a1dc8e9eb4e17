# 第 1 课：padding 之后的 position_ids，用 attention_mask 的累加和来算。
# 规则与 transformers 的 prepare_inputs_for_generation 相同：cumsum(mask) − 1，padding 处填 1。
import torch

from posenc import examples as ex
from posenc.position_ids import pad_batch

for side in ("right", "left"):
    ids, mask = pad_batch(ex.texts("zh").batch, side=side)  # 本版的两句例句
    mask = torch.tensor(mask)
    position_ids = mask.long().cumsum(-1) - 1
    position_ids.masked_fill_(mask == 0, 1)
    print(f"== {side} padding ==")
    print("attention_mask\n", mask)
    print("position_ids (cumsum 规则)\n", position_ids)
    print("position_ids (arange，忽略 mask)\n", torch.arange(mask.shape[1]).expand_as(mask))

# 用 KV cache 续写一个 token：先给 mask 接上一列 1，再取最后一列
_, mask = pad_batch(ex.texts("zh").batch, side="left")
mask = torch.cat([torch.tensor(mask), torch.ones(len(mask), 1, dtype=torch.long)], dim=-1)
next_pos = (mask.cumsum(-1) - 1)[:, -1:]
print("续写时新 token 的位置\n", next_pos)
