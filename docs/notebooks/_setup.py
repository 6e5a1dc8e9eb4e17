# 准备：让 Python 找到本课程的 posenc 库（以及课程网页上展示的代码片段 docs/snippets/）。
# 在仓库里的任何目录运行都行：从当前目录往上找到含 posenc/ 的仓库根目录，加进搜索路径。
# 在 Google Colab 里打开时手边没有仓库：先把课程仓库浅克隆到 /content/posenc，再用它。
import importlib.util
import subprocess
import sys
from pathlib import Path

REPO_URL = "https://github.com/posenc/posenc"  # 与 mkdocs.yml 的 repo_url 相同

here = Path.cwd().resolve()
root = next((p for p in (here, *here.parents) if (p / "posenc" / "__init__.py").is_file()), None)
if root is None and "google.colab" in sys.modules and importlib.util.find_spec("posenc") is None:
    root = Path("/content/posenc")
    if not (root / "posenc" / "__init__.py").is_file():
        subprocess.run(["git", "clone", "--depth", "1", REPO_URL, str(root)], check=True)
if root is None:
    raise ModuleNotFoundError("找不到 posenc：请在课程仓库里运行本笔记本（git clone 之后，make setup 装好环境）")
for folder in (root, root / "docs" / "snippets"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import numpy as np

np.set_printoptions(precision=4, suppress=True, linewidth=100)
print("posenc 就绪")
