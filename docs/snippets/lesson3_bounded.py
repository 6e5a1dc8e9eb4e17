"""第三步：位置拉到几千，编码的数值会不会失控？"""
from lesson3_table import sinusoidal_table
from posenc.examples import WALKTHROUGH_DIM, WALKTHROUGH_FIRST_LEN, WALKTHROUGH_MAX_LEN

d_model = WALKTHROUGH_DIM
for max_len in (WALKTHROUGH_FIRST_LEN, WALKTHROUGH_MAX_LEN):
    pe = sinusoidal_table(max_len, d_model)
    norms = pe.norm(dim=1)               # 每个位置向量的长度
    print(f"前 {max_len:>5,} 个位置: 最小值 {pe.min().item():+.4f}  最大值 {pe.max().item():+.4f}  "
          f"向量长度 {norms.min().item():.4f} ~ {norms.max().item():.4f}")
print(f"理论长度 √(d_model/2) = {(d_model / 2) ** 0.5:.4f}")
