"""第二步：两句话用的是同一组字（第 1 课的短例句和它交换后的句子），加上位置编码后还一样吗？"""
import torch

from lesson3_table import sinusoidal_table  # 第一步里的函数（同一目录）
from posenc import examples as ex
from posenc.tokenize import join

text, i, j = ex.texts("zh").swap_short        # 本版的例句，以及要交换的两个位置
order = list(range(len(text)))
order[i], order[j] = j, i                    # 交换后的第 t 个字，是原句的第 order[t] 个字
swapped = [text[t] for t in order]

torch.manual_seed(ex.WALKTHROUGH_SEED)
vocab = {tok: k for k, tok in enumerate(dict.fromkeys(text))}
d_model = ex.WALKTHROUGH_DIM
embedding = torch.nn.Embedding(len(vocab), d_model)  # 词向量：一张按字查的表，和位置无关
pe = sinusoidal_table(ex.WALKTHROUGH_TABLE_LEN, d_model)


def embed(sentence, with_position: bool) -> torch.Tensor:
    ids = torch.tensor([vocab[tok] for tok in sentence])
    x = embedding(ids)                   # (句长, d_model)
    if with_position:
        x = x + pe[: len(sentence)]      # 第 t 个字加上 PE(t)
    return x


with torch.no_grad():
    for with_position in (False, True):
        a = embed(text, with_position)
        b = embed(swapped, with_position)
        tok_a, tok_b = a[i], b[j]        # 同一个字「text[i]」：一句里在位置 i，另一句里在位置 j
        print("加位置编码" if with_position else "只有词向量",
              f"| 两句里「{text[i]}」的向量最大差值:", round((tok_a - tok_b).abs().max().item(), 4),
              f"| {join(swapped)}是否就是把{join(text)}的行换了顺序:", torch.equal(a[order], b))
