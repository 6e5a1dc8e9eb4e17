"""The pre-registered claim set: the claims, their checks and margins, frozen in a committed file before
the seeds that test them are run, and judged on those seeds claim by claim.

The 16 seeds of results/full.json were already known when the claims and their margins were
written, so they cannot test them. The replication can: the claim set is frozen in
preregistration/<date>.json (sentences, checks, margins, the constants the checks read, and a
sha256 over all of that), committed, and only then are new seeds run
(``python -m posenc.experiment run --preset full --first-seed 16 --seeds 8 --out
posenc/experiment/results/replication.json``). ``judge`` reads the frozen checks from the file, not
from claims.py, so a claim reworded after the replication is still judged as it was frozen.

Write a new freeze with ``python -c "from posenc.experiment import frozen; frozen.freeze('<date>')"``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from . import claims, stats

DIRECTORY = Path(__file__).parent / "preregistration"
REPLICATION_FILE = claims.RESULTS_FILE.parent / "replication.json"


def claim_set() -> dict:
    """What is frozen: every claim's sentences and checks, the margins and words, the constants the checks read."""
    return {
        "margins": {"CLEARLY": stats.CLEARLY, "SAME": stats.SAME, "DIFFERENT": stats.DIFFERENT, "LEVEL": stats.LEVEL},
        "words": dict(stats.RULES),
        "constants": {"TRAIN_LEN": claims.TRAIN_LEN, "LATE_IN_DISTRIBUTION": list(claims.LATE_IN_DISTRIBUTION),
                      "EARLY": claims.EARLY, "STALL": claims.STALL, "RECOVERED": claims.RECOVERED,
                      "TWO_GROUPS": list(claims.TWO_GROUPS)},
        "claims": {name: c.as_dict() for name, c in claims.CLAIMS.items()},
    }


def digest(frozen_set: dict) -> str:
    """sha256 of the claim set in a canonical form (sorted keys, no spaces, UTF-8)."""
    text = json.dumps(frozen_set, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def freeze(date: str, replication: dict | None = None) -> Path:
    """Write preregistration/<date>.json from the current claims (refuses to overwrite a freeze)."""
    path = DIRECTORY / f"{date}.json"
    if path.exists():
        raise FileExistsError(f"{path} exists: a freeze is never rewritten; freeze under a new date")
    frozen_set = claim_set()
    record = {
        "date": date,
        "note": "Frozen before the replication seeds were run. The claims were written with seeds 0-15 "
                "(results/full.json, sealed as below) already known, so those seeds do not test them; the replication does.",
        "written_from": {"results": "posenc/experiment/results/full.json", "seeds": claims.seeds(),
                         "seal_sha256": claims.results()["seal_sha256"]},
        "replication": replication or {
            "preset": "full", "first_seed": 16, "seeds": 8,
            "command": "python -m posenc.experiment run --preset full --first-seed 16 --seeds 8 "
                       "--out posenc/experiment/results/replication.json",
        },
        "sha256": digest(frozen_set),
        "claim_set": frozen_set,
    }
    DIRECTORY.mkdir(exist_ok=True)
    path.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path


def latest() -> Path:
    """The newest freeze (file names are ISO dates)."""
    files = sorted(DIRECTORY.glob("*.json"))
    if not files:
        raise FileNotFoundError(f"no pre-registration in {DIRECTORY}; write one with frozen.freeze(date)")
    return files[-1]


def load(path: Path | str | None = None) -> dict:
    """The freeze, after checking that its hash matches the claim set it holds."""
    p = latest() if path is None else Path(path)
    record = json.loads(p.read_text(encoding="utf-8"))
    if digest(record["claim_set"]) != record["sha256"]:
        raise ValueError(f"{p}: the claim set does not match its sha256; a frozen file is never edited")
    return record


@dataclass(frozen=True)
class Replicated:
    name: str
    zh: str  # the frozen sentence (template)
    en: str
    verdict: str  # "holds", "FAILS" or "cannot judge"
    detail: str


def judge(results_path=None, frozen_path=None) -> list[Replicated]:
    """Each frozen claim judged, with its frozen checks, on ``results_path`` (default the replication file)."""
    record = load(frozen_path)
    margins = record["claim_set"]["margins"]
    current = {"CLEARLY": stats.CLEARLY, "SAME": stats.SAME, "DIFFERENT": stats.DIFFERENT, "LEVEL": stats.LEVEL}
    if margins != current:
        raise ValueError(f"the frozen margins {margins} differ from stats.py's {current}: judge with the code of the freeze")
    path = REPLICATION_FILE if results_path is None else results_path
    out = []
    for name, c in record["claim_set"]["claims"].items():
        checks = [claims.Check.from_dict(d) for d in c["checks"]]
        try:
            outcomes = [claims.judge(ch, path) for ch in checks]
            verdict = "holds" if all(o.ok for o in outcomes) else "FAILS"
            detail = "; ".join(str(o) for o in outcomes)
        except stats.TooFewSeeds as err:
            verdict, detail = "cannot judge", str(err).split(";")[0]
        out.append(Replicated(name, c["zh"], c["en"], verdict, detail))
    return out


def replication_available(path=None) -> bool:
    return Path(REPLICATION_FILE if path is None else path).is_file()
