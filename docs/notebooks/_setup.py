# 准备：让 Python 找到本课程的 posenc 库（以及课程网页上展示的代码片段 docs/snippets/）。
# 在仓库里的任何目录运行都行：从当前目录往上找到含 posenc/ 的仓库根目录，加进搜索路径。
# 不在仓库里（从网页下载的 .ipynb，或在 Colab 里打开）：import posenc 会失败，于是下载构建网页时所用那次提交的课程代码，
# 解压到当前目录的 posenc-<提交号>/；缺 numpy、PyYAML 或 torch 时，按课程锁定的版本和哈希用 pip 装上
# （torch 装 CPU 版，约 200 MB）。
import importlib.util
import json
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

REPO_URL = "https://github.com/posenc/posenc"  # 与 mkdocs.yml 的 repo_url 相同
SITE_URL = "https://posenc.github.io/posenc/"  # 与 mkdocs.yml 的 site_url 相同
COMMIT = None  # 网页上下载的 .ipynb 里，这里是构建网页时所用的提交号
TORCH_CPU = "https://download.pytorch.org/whl/cpu/torch/"  # 只从这里取 CPU 版 torch

here = Path.cwd().resolve()
root = next((p for p in (here, *here.parents) if (p / "posenc" / "__init__.py").is_file()), None)
if root is None:
    if COMMIT is None and "google.colab" in sys.modules:  # Colab 打开的是仓库里的文件：提交号问网站
        with urllib.request.urlopen(SITE_URL + "notebooks/build.json", timeout=60) as answer:
            COMMIT = json.load(answer)["commit"]
    if COMMIT is None:
        raise ModuleNotFoundError("找不到 posenc：请在课程仓库里运行本笔记本（git clone 之后，make setup 装好环境），"
                                  "或者从课程网页下载 .ipynb")
    root = here / f"posenc-{COMMIT}"
    if not (root / "posenc" / "__init__.py").is_file():
        print(f"下载课程代码（提交 {COMMIT[:12]}）……")
        archive, _ = urllib.request.urlretrieve(f"{REPO_URL}/archive/{COMMIT}.zip")
        with zipfile.ZipFile(archive) as z:
            z.extractall(here)  # 压缩包里的目录就叫 posenc-<提交号>
    missing = [name for name in ("numpy", "yaml", "torch") if importlib.util.find_spec(name) is None]
    if missing:
        if sys.version_info[:2] not in ((3, 11), (3, 12)):
            raise RuntimeError(f"课程锁定的包只有 Python 3.11 和 3.12 的版本，这里是 {sys.version.split()[0]}")
        wanted = root / "docs" / "notebooks" / "requirements.txt"
        if sys.platform == "darwin":  # macOS 没有 +cpu 版；PyPI 上的 macOS torch 本来就只用 CPU
            (root / "requirements-macos.txt").write_text(wanted.read_text().replace("+cpu ", " "))
            wanted = root / "requirements-macos.txt"
        print("安装", "、".join(missing), "……")
        subprocess.run([sys.executable, "-m", "pip", "install", "--require-hashes", "--find-links", TORCH_CPU,
                        "-r", str(wanted)], check=True)
        importlib.invalidate_caches()  # 让这个进程看见刚装上的包
for folder in (root, root / "docs" / "snippets"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import numpy as np

np.set_printoptions(precision=4, suppress=True, linewidth=100)
print("posenc 就绪")
