# 第 2 课：GPT-2 的位置表就是一个 nn.Embedding（行数 = 上下文长度，列数 = 隐藏维）。
import torch

from posenc import configs
from posenc import examples as ex

cfg = configs.load("gpt2")
wpe = torch.nn.Embedding(cfg["context"], cfg["hidden"])      # 位置表
print("位置表形状:", tuple(wpe.weight.shape), " 参数量:", wpe.weight.numel())

last = cfg["context"] - 1
print(f"查位置 {last}: 得到形状 {tuple(wpe(torch.tensor([last])).shape)}")   # 最后一行，查得到

for p in (cfg["context"], ex.FAR_POSITION):
    try:
        wpe(torch.tensor([p]))
    except IndexError as err:                                 # 表里没有这一行
        print(f"查位置 {p}: {type(err).__name__}: {err}")
