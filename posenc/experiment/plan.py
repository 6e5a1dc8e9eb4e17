"""What a sweep would do, before it does it: the units already cached and those it would compute.

``python -m posenc.experiment run`` prints this plan first; with ``--dry-run`` it prints only the plan.
It reads the cache the way sweep.py does (the same unit list and unit keys) and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import sweep
from .config import Config


@dataclass(frozen=True)
class Plan:
    preset: str
    cache: Path  # the folder of this preset's units, one subfolder per unit key
    cached: tuple[tuple[str, str, int], ...]  # (kind, name, seed), in the order run() would compute them
    todo: tuple[tuple[str, str, int], ...]


def plan(cfg: Config, seeds, methods, variants, cache_dir: Path = sweep.CACHE_DIR, compute_seeds=None) -> Plan:
    keys = sweep.unit_keys(cfg, methods, variants)
    units = sweep.units(methods, variants, seeds if compute_seeds is None else compute_seeds)
    done = [u for u in units if sweep.unit_path(cache_dir, cfg, keys[u[0], u[1]], *u).exists()]
    return Plan(cfg.preset, Path(cache_dir) / cfg.preset, tuple(done), tuple(u for u in units if u not in done))


def spans(seeds) -> str:
    """Seeds as ranges: [16, 17, 18, 20] → "16–18, 20"."""
    out, seeds = [], sorted(seeds)
    for s in seeds:
        if out and s == out[-1][1] + 1:
            out[-1][1] = s
        else:
            out.append([s, s])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in out)


def describe(p: Plan) -> str:
    """The plan as the CLI prints it: one summary line, then one line per method or extension still to compute."""
    total = len(p.cached) + len(p.todo)
    lines = [f"plan for preset {p.preset}: {len(p.cached)} of {total} unit(s) cached in {p.cache}, {len(p.todo)} to compute"]
    names = dict.fromkeys((kind, name) for kind, name, _ in p.todo)  # in run order, each once
    for kind, name in names:
        label = name if kind == "train" else f"extend {name}"
        seeds = [s for k, n, s in p.todo if (k, n) == (kind, name)]
        lines.append(f"  {label}: seed{'s' if len(seeds) > 1 else ''} {spans(seeds)}")
    return "\n".join(lines)
