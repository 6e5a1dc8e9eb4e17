"""第二步：「猫吃鱼」和「鱼吃猫」用的是同一组字，加上位置编码后还一样吗？"""
import torch

from lesson3_table import sinusoidal_table  # 第一步里的函数（同一目录）
from posenc.demo import WALKTHROUGH_DIM

torch.manual_seed(0)
vocab = {"猫": 0, "吃": 1, "鱼": 2}
d_model = WALKTHROUGH_DIM
embedding = torch.nn.Embedding(len(vocab), d_model)  # 词向量：一张按字查的表，和位置无关
pe = sinusoidal_table(16, d_model)


def embed(sentence: str, with_position: bool) -> torch.Tensor:
    ids = torch.tensor([vocab[ch] for ch in sentence])
    x = embedding(ids)                   # (句长, d_model)
    if with_position:
        x = x + pe[: len(sentence)]      # 第 t 个字加上 PE(t)
    return x


with torch.no_grad():
    for with_position in (False, True):
        a = embed("猫吃鱼", with_position)
        b = embed("鱼吃猫", with_position)
        cat_a, cat_b = a[0], b[2]        # 同一个「猫」：一个在位置 0，一个在位置 2
        print("加位置编码" if with_position else "只有词向量",
              "| 两句里「猫」的向量最大差值:", round((cat_a - cat_b).abs().max().item(), 4),
              "| 鱼吃猫是否就是把猫吃鱼的行倒过来:", torch.equal(a.flip(0), b))
