"""Write requirements.lock's hashes again for the versions it pins (after a pin changed):

    python -m tools.scripts.lock [--torch-index URL]

First, pyproject.toml's direct pins (`name==version`) are taken into the lock: pyproject.toml is the lock's
source for them, and what Dependabot updates (torch keeps the lock's +cpu label). Every package but torch gets the sha256 of every file PyPI serves for its pinned version
(`uv pip compile --no-deps --generate-hashes`). torch, pinned as its CPU build (torch==X+cpu), gets
the +cpu wheels for the Pythons pyproject.toml allows from the torch page of PyTorch's CPU index
(the sha256 in each link), plus PyPI's macOS arm64 wheels of X (macOS has no +cpu build; MAINTAINING.md,
"Installing elsewhere"). Then the lock must be closed: resolved with dependencies, the pins give
the same set of packages; a dependency the lock lacks is named (add it with its version, run again).
Needs the network (PyPI and PyTorch's index) and uv (.venv/bin/uv after `make setup`, or POSENC_UV=PATH).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements.lock"
PYPROJECT = ROOT / "pyproject.toml"
UV = Path(os.environ.get("POSENC_UV", ROOT / ".venv" / "bin" / "uv"))
PYPI = "https://pypi.org/simple"
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"
PYTHONS = ("cp311", "cp312")  # pyproject.toml: requires-python >=3.11.5,<3.13
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)", re.M)


def header(text: str) -> str:
    return "".join(line + "\n" for line in text.splitlines() if line.startswith("#") and not line.startswith("#  "))


def pins(text: str) -> dict[str, str]:
    return {name.lower().replace("_", "-"): version for name, version in PIN.findall(text)}


def direct_pins(pyproject: str) -> dict[str, str]:
    """name → version of each `name==version` among pyproject.toml's dependencies and optional dependencies."""
    project = tomllib.loads(pyproject)["project"]
    out = {}
    for dep in project["dependencies"] + [d for extra in project["optional-dependencies"].values() for d in extra]:
        m = re.fullmatch(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*([^\s;]+)\s*", dep)
        if m:
            out[m.group(1).lower().replace("_", "-")] = m.group(2)
    return out


def follow_pyproject(pinned: dict[str, str], direct: dict[str, str]) -> list[str]:
    """Set the lock's version of each direct dependency to pyproject.toml's, keeping a local label the lock gives
    it (torch's +cpu); returns what changed, `name old → new`."""
    changed = []
    for name, version in sorted(direct.items()):
        old = pinned.get(name)
        local = old.partition("+")[2] if old else ""
        new = version if "+" in version or not local else f"{version}+{local}"
        if old != new:
            pinned[name] = new
            changed.append(f"{name} {old or '(not in the lock)'} → {new}")
    return changed


def uv(*args: str) -> str:
    return subprocess.run([str(UV), "pip", "compile", "--quiet", "--no-header", "--no-annotate", "--index-url", PYPI,
                           "--python-version", "3.11.5", *args], check=True, capture_output=True, text=True).stdout


def entries(compiled: str) -> dict[str, str]:
    """name → its entry (the pin line and its --hash lines) in uv's output."""
    out, name = {}, None
    for line in compiled.splitlines(keepends=True):
        m = PIN.match(line)
        if m:
            name = m.group(1).lower().replace("_", "-")
            out[name] = ""
        if name:
            out[name] += line
    return out


def torch_entry(version: str, index: str) -> str:
    base = version.split("+")[0]
    page = urllib.request.urlopen(f"{index.rstrip('/')}/torch/", timeout=60).read().decode()
    wanted = re.compile(rf"torch-{re.escape(base)}(?:%2B|\+)cpu-({'|'.join(PYTHONS)})-")
    cpu = sorted({h for href, h in re.findall(r'href="([^"#]+)#sha256=([0-9a-f]{64})"', page) if wanted.search(href)})
    pypi = json.load(urllib.request.urlopen("https://pypi.org/pypi/torch/json", timeout=120))
    mac = sorted(f["digests"]["sha256"] for f in pypi["releases"].get(base, [])
                 if "macosx" in f["filename"] and "arm64" in f["filename"] and re.search(rf"-({'|'.join(PYTHONS)})-", f["filename"]))
    if not cpu or not mac:
        raise SystemExit(f"torch {version}: found {len(cpu)} +cpu wheels on {index}/torch/ and {len(mac)} macOS wheels on PyPI")
    return f"torch=={version} \\\n" + " \\\n".join(f"    --hash=sha256:{h}" for h in sorted(cpu + mac)) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--torch-index", default=TORCH_CPU_INDEX, help="PyTorch's CPU index (default: %(default)s)")
    args = parser.parse_args(argv)
    text = LOCK.read_text(encoding="utf-8")
    pinned = pins(text)
    for line in follow_pyproject(pinned, direct_pins(PYPROJECT.read_text(encoding="utf-8"))):
        print(f"requirements.lock: {line} (pyproject.toml)")
    with tempfile.TemporaryDirectory() as tmp:
        others = Path(tmp, "others.in")
        others.write_text("".join(f"{n}=={v}\n" for n, v in pinned.items() if n != "torch"), encoding="utf-8")
        body = entries(uv("--no-deps", "--generate-hashes", str(others)))
        body["torch"] = torch_entry(pinned["torch"], args.torch_index)
        allpins = Path(tmp, "all.in")
        allpins.write_text("".join(f"{n}=={v}\n" for n, v in pinned.items()), encoding="utf-8")
        closed = pins(uv("--find-links", f"{args.torch_index.rstrip('/')}/torch/", "--python-platform",
                         "x86_64-manylinux_2_28", str(allpins)))
    missing = sorted(set(closed) - set(pinned))
    if missing:
        print("requirements.lock lacks these dependencies (add each with its version, then run again):",
              *(f"{n}=={closed[n]}" for n in missing), sep="\n  ")
        return 1
    LOCK.write_text(header(text) + "".join(body[n] for n in sorted(body)), encoding="utf-8")
    from tools.build import notebooks  # the notebooks' share of the lock (docs/notebooks/requirements.txt)

    notebooks.REQUIREMENTS.write_text(notebooks.requirements(), encoding="utf-8")
    print(f"requirements.lock: {len(body)} packages, {sum(e.count('--hash') for e in body.values())} hashes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
