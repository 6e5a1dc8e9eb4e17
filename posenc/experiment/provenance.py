"""What produced a results file: code, encodings, corpus, environment; and a seal over its numbers.

The code hash has two halves:

- ``source``: sha256 of the experiment modules that decide the numbers
  (``NUMBER_FILES``), docstrings and comments excluded (``code_text``).
  claims.py, figures.py and the CLI only read results and are left out, so
  editing a lesson's claim or a comment does not invalidate a run of hours;
  so is config.py's PRESETS table, whose values verify compares one by one.
- ``encodings``: sha256 of what posenc's own encodings *compute* for this
  config (the sinusoidal table, RoPE frequencies and rotation, ALiBi's bias,
  the PI/NTK/YaRN/ABF frequencies), not of their source files. posenc/rope.py and friends are
  shared with the lessons and get docstring edits and refactors; a change that
  moves any number the model uses changes this hash, a comment does not.
  Values are rounded (1e-7 absolute for O(1) entries, 10 significant digits for
  frequencies) so that last-bit libm differences between CPUs do not count.

A unit's cache key (``unit_key``, for sweep.py) hashes the same things, except that
the lists naming which methods or variants exist (``MEMBERSHIP_LISTS``) are cut down
to what that unit runs: adding a method to them leaves every other unit's key alone.
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import os
import platform
import sys
import tokenize
from pathlib import Path

import numpy as np

PACKAGE_DIR = Path(__file__).parent
# Modules whose code decides the trained numbers. tests/test_experiment.py checks
# that the training and evaluation path imports no other posenc module except
# the encodings fingerprinted below.
NUMBER_FILES = ("config.py", "corpus.py", "data.py", "model.py", "train.py", "evaluate.py", "scalings.py", "extend.py", "run.py", "runtime.py")
FINGERPRINTED_MODULES = ("posenc.sinusoidal", "posenc.rope", "posenc.scaling", "posenc.relative", "posenc._check")
# Module-level tuples of names that the number files only ask "is this name in it?" (or print in an error), so a unit's
# numbers depend on them only through whether its own names are in them (tests/test_experiment_provenance.py checks
# every use). A unit's key sees each cut down to those names: a new method joins config.METHODS and, if rotary,
# model.ROTARY_METHODS without changing the key of any unit already computed. (A name added to a list typed inline in
# the code, such as model.py's table methods, changes that file's code, and so every unit's key.)
MEMBERSHIP_LISTS = {"config.py": ("METHODS", "EXTENSIONS"), "model.py": ("ROTARY_METHODS",)}
# Results made by code whose source hash was the key are the current code's results when the value is the current
# source hash: sweep.py left run.py on 2026-12-06 (commit SWEEP_MOVED_AT's run.py held it), and every statement that
# computes a number stayed as it was. tests/test_experiment_provenance.py derives both hashes from that commit's files.
SUPERSEDED = {"e9599f38d3aa8130b12d3f89de685db2c56528fe32cea3e6d2ae83df6ee93580": "c7d9d81c1031d432534b73b02f7609647563492013b5959766941a935fd0091f"}
SWEEP_MOVED_AT = "de604becbaee05fe6693d19a016acc93ca64ab37"


def code_text(source: str) -> str:
    """Python source without docstrings, comments, trailing spaces and blank lines.

    Fixing the prose of an experiment that takes hours should not make its
    results stale; everything else (code, constants, string literals) counts.
    Docstrings are located with ast and comments with tokenize, both by
    position in the source, so the result is the same on every Python version.
    """
    lines = source.splitlines()
    # Docstrings: a string constant as the first statement of a module, class or function.
    # Replaced by "" (not removed) so the body stays valid Python for tokenize below.
    spans = []
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body:
            first = body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                spans.append((first.lineno, first.col_offset, first.end_lineno, first.end_col_offset))
    for l0, c0, l1, c1 in sorted(spans, reverse=True):
        # ast offsets count UTF-8 bytes; slice bytes, not characters.
        head = lines[l0 - 1].encode()[:c0].decode()
        tail = lines[l1 - 1].encode()[c1:].decode()
        lines[l0 - 1 : l1] = [head + '""' + tail]
    text = "\n".join(lines) + "\n"
    lines = text.splitlines()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            row, col = tok.start
            lines[row - 1] = lines[row - 1][:col]
    return "\n".join(line.rstrip() for line in lines if line.strip())


def without_presets(text: str) -> str:
    """config.py's code without the module-level ``PRESETS = {...}`` table.

    A preset's values are checked field by field against the results' config
    (verify.check_provenance), so the table needs no hash of its own; leaving it
    out lets a cheaper ``quick`` preset change without staling ``full`` results.
    """
    lines = text.splitlines()
    for node in ast.parse(text).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == "PRESETS" for t in targets):
            del lines[node.lineno - 1 : node.end_lineno]
            return "\n".join(lines)
    raise ValueError("config.py defines no PRESETS table; update provenance.without_presets")


def source_sha256(files: dict[str, str] | None = None, names: set[str] | None = None) -> str:
    """sha256 over NUMBER_FILES (``files`` maps a name to its source, for hashing another version). With ``names``, each
    of MEMBERSHIP_LISTS keeps only those of its entries in ``names`` (for one unit's key)."""
    h = hashlib.sha256()
    for name in NUMBER_FILES:
        source = files[name] if files is not None else (PACKAGE_DIR / name).read_text(encoding="utf-8")
        if names is not None:
            source = only_names(source, MEMBERSHIP_LISTS.get(name, ()), names)
        text = code_text(source)
        if name == "config.py":
            text = without_presets(text)
        h.update(name.encode() + b"\0" + text.encode() + b"\0")
    return h.hexdigest()


def only_names(source: str, lists: tuple[str, ...], names: set[str]) -> str:
    """``source`` with each module-level tuple in ``lists`` cut down to its entries in ``names`` (order kept)."""
    lines = source.splitlines()
    found = set()
    body = ast.parse(source).body
    for node in reversed(body):  # bottom up: replacing lines keeps the line numbers above valid
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and getattr(node.targets[0], "id", None) in lists:
            # whole lines are replaced: code sharing one with the list would drop out of the hash
            if any(o is not node and o.lineno <= node.end_lineno and o.end_lineno >= node.lineno for o in body):
                raise ValueError(f"{node.targets[0].id} shares a line with other code; give it lines of its own")
            entries = [ast.literal_eval(e) for e in node.value.elts]
            kept = ", ".join(repr(e) for e in entries if e in names)
            lines[node.lineno - 1 : node.end_lineno] = [f"{node.targets[0].id} = ({kept}{',' if kept else ''})"]
            found.add(node.targets[0].id)
    if found != set(lists):
        raise ValueError(f"no module-level tuple {sorted(set(lists) - found)} to cut down; update provenance.MEMBERSHIP_LISTS")
    return "\n".join(lines) + "\n"


def unit_names(kind: str, name: str) -> set[str]:
    """The method and variant names one unit runs: a method; or an extension variant and the RoPE model it continues."""
    return {name} if kind == "train" else {"rope", name}


def unit_key(cfg, kind: str, name: str, encodings: str | None = None, files: dict[str, str] | None = None) -> str:
    """The cache key of one unit: its config, the corpus, posenc's encodings (``encodings``: encodings_sha256(cfg), if
    already computed) and the number files as that unit sees them (source_sha256 with its names; ``files``: another
    version of them, as source_sha256 takes it)."""
    from . import corpus

    body = {"config": cfg.to_dict(), "corpus": corpus.CORPUS_SHA256,
            "encodings": encodings_sha256(cfg) if encodings is None else encodings,
            "source": source_sha256(files, names=unit_names(kind, name))}
    return hashlib.sha256(canonical(body)).hexdigest()[:16]


def _round(values, absolute: float | None = None, digits: int | None = None) -> list[str]:
    arr = np.asarray(values, dtype=np.float64).ravel()
    if absolute is not None:
        # "+0.0" for −0.0 too, so a sign-of-zero difference is not a difference
        return [f"{v + 0.0:.7f}" for v in np.round(arr / absolute) * absolute]
    return [f"{v:.{digits - 1}e}" for v in arr]


def encodings_fingerprint(cfg) -> dict:
    """The numbers posenc's encodings give this config, rounded as described above."""
    import torch

    from .. import relative, rope, sinusoidal
    from . import scalings

    inv = rope.inverse_frequencies(cfg.head_dim, cfg.rope_base, rotary_fraction=1.0)
    positions = np.arange(cfg.eval_len)
    # A fixed input for the rotation: no RNG, so no dependence on a generator.
    x = np.cos(np.arange(cfg.eval_len * cfg.head_dim, dtype=np.float64) * 0.37).reshape(cfg.eval_len, cfg.head_dim)
    rotated = rope.rotate(x, positions, inv, convention="half")
    torch_rotated = rope.apply_rotary_torch(
        torch.tensor(x, dtype=torch.float32), torch.arange(cfg.eval_len), torch.tensor(inv, dtype=torch.float32), convention="half"
    ).double().numpy()
    out = {
        "sinusoidal.table": _round(sinusoidal.table(cfg.eval_len, cfg.d_model, cfg.sin_base), absolute=1e-7),
        # The bias is −m_h·|i − j|: the slopes and a 16-token corner pin it down.
        "relative.alibi_slopes": _round(relative.alibi_slopes(cfg.n_heads), digits=10),
        "relative.alibi_bias[:16, :16]": _round(relative.alibi_bias(cfg.n_heads, 16), absolute=1e-7),
        "rope.inverse_frequencies": _round(inv, digits=10),
        "rope.inverse_frequencies(partial)": _round(
            rope.inverse_frequencies(cfg.head_dim, cfg.rope_base, rotary_fraction=cfg.partial_rotary_fraction), digits=10),
        "rope.rotate(half)": _round(rotated, absolute=1e-7),
        # The model calls the torch rotation. Its float32 angles (up to 511 rad) carry
        # ~3e-5 error, so it is held to the float64 rotation at 1e-3 rather than hashed:
        # a changed layout, sign or frequency fails this, CPU rounding does not.
        "rope.apply_rotary_torch matches rope.rotate": bool(np.max(np.abs(torch_rotated - rotated)) < 1e-3),
    }
    for name in scalings.FREQUENCIES:  # posenc.scaling's (inv_freq, attention_factor), as evaluated and as extended
        for stage, (freqs, factor) in (("eval", scalings.evaluation_time(cfg, name)), ("extend", scalings.extension(cfg, name))):
            out[f"scaling.{name}.{stage}"] = _round(freqs, digits=6) + [f"{factor:.10f}"]
    return out


def encodings_sha256(cfg) -> str:
    return hashlib.sha256(json.dumps(encodings_fingerprint(cfg), sort_keys=True).encode()).hexdigest()


def code_hash(cfg) -> dict:
    return {"source_sha256": source_sha256(), "encodings_sha256": encodings_sha256(cfg)}


def environment(device: str, threads: int, jobs: int = 1) -> dict:
    import torch

    return {
        "torch": torch.__version__,
        "numpy": np.__version__,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": _cpu_name(),
        "device": device,
        "threads": threads,  # per process
        "jobs": jobs,  # worker processes
        "deterministic_algorithms": bool(torch.are_deterministic_algorithms_enabled()),
    }


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def canonical(obj) -> bytes:
    """JSON bytes independent of key order and whitespace, for hashing."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def seal(results: dict) -> str:
    """sha256 of everything in a results dict except the seal itself.

    Not security: a tamper-evident check that the numbers are the ones the run
    wrote, so a hand edit (or a bad merge) fails verify instead of reaching a page.
    """
    body = {k: v for k, v in results.items() if k != "seal_sha256"}
    return hashlib.sha256(canonical(body)).hexdigest()


def command_line() -> str:
    return " ".join([os.path.basename(sys.executable), "-m", "posenc.experiment", *sys.argv[1:]])
