"""python -m posenc.experiment {run,verify,summary,corpus} — see ``--help`` of each."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from .config import EXTENSIONS, METHODS, PRECISIONS, PRESETS, check_extensions, check_methods, preset
from ..formatting import count_words
from .course import PAGE_SEEDS


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m posenc.experiment",
        description=f"The course's training experiment: one small Transformer, {count_words(len(METHODS))['en']} position methods, "
        "trained at length 128 and evaluated per position up to 512; then the RoPE model extended to 512 "
        "by continued training (plain, PI, NTK-aware, YaRN, ABF) and evaluated to 1,024.",
    )
    sub = p.add_subparsers(dest="command", required=True)

    r = sub.add_parser("run", help="train and evaluate, write results/<preset>.json")
    r.add_argument("--preset", choices=sorted(PRESETS), default="full", help="full: the lessons' setting (hours on a CPU); quick: a smaller, shorter run that tells the same story (≈4 min on 2 cores)")
    r.add_argument("--seeds", type=int, default=1, help="how many seeds: K … K+N−1 for --first-seed K (the pages use 16)")
    r.add_argument("--first-seed", type=int, default=0, metavar="K", help="the first seed (default 0); another K gives seeds the claims were not written from")
    r.add_argument("--seed", type=int, action="append", dest="compute_seeds", metavar="K",
                   help="compute only seed K (repeatable), e.g. to split seeds across processes; "
                   "the results file is written once all --seeds are cached")
    r.add_argument("--methods", default=",".join(METHODS), help=f"comma-separated subset of {','.join(METHODS)}")
    r.add_argument("--extensions", default=",".join(EXTENSIONS),
                   help=f"comma-separated subset of {','.join(EXTENSIONS)} ('' for none); they continue the RoPE model")
    r.add_argument("--jobs", type=int, default=1, help="worker processes, each with --threads threads (on 2 cores: --jobs 2 --threads 1)")
    r.add_argument("--device", default="cpu", help="cpu, cuda or auto (default cpu); a GPU gives the same story, its last bits differ from a CPU run")
    r.add_argument("--threads", type=int, default=2, help="torch threads (default 2)")
    r.add_argument("--precision", choices=PRECISIONS, help="override the preset's precision (the result then no longer verifies as the preset)")
    r.add_argument("--out", type=Path, help="results file (default posenc/experiment/results/<preset>.json)")
    r.add_argument("--cache", type=Path, metavar="DIR",
                   help="where finished units are kept, and where a stopped run resumes from (default experiment_runs/, git-ignored)")
    r.add_argument("--no-progress", action="store_true", help="no progress bar (for logs)")
    r.add_argument("--dry-run", action="store_true", help="print the plan (units cached, units to compute) and stop")

    v = sub.add_parser("verify", help="check committed results against the current code, config and corpus, re-running the first steps")
    v.add_argument("--results", type=Path, help="results file (default posenc/experiment/results/full.json)")
    v.add_argument("--threads", type=int, default=2)
    v.add_argument("--steps", type=int, help="how many first training steps to re-run per method (default 2)")
    v.add_argument("--no-rerun", action="store_true", help="only check hashes and seal, skip re-running the first steps")
    v.add_argument("--deep", action="store_true", help="also re-train the first seed's RoPE model and re-run the first extension steps (minutes)")

    s = sub.add_parser("summary", help="per-method losses (mean ± 95%% interval over seeds) and which lesson claims hold; exits 1 if one fails")
    s.add_argument("--results", type=Path, help="results file (default posenc/experiment/results/full.json)")
    s.add_argument("--frozen", action="store_true", help="judge the latest pre-registered (frozen) claims instead of claims.py's")

    c = sub.add_parser("corpus", help="rebuild the corpus from the installed fortunes-zh and check its sha256")
    c.add_argument("--rebuild", action="store_true", help="overwrite data/corpus.txt (after changing the cleaning rules on purpose)")
    for sub_parser in sub.choices.values():  # a bad value is reported with its command's usage
        sub_parser.set_defaults(parser=sub_parser)
    return p


class InputError(Exception):
    """A command-line value the run cannot use; the message names the option and a value it accepts."""


def _positive(option: str, value: int | None) -> None:
    if value is not None and value < 1:
        raise InputError(f"{option} must be at least 1, got {value}")


def _names(option: str, text: str, check, choices) -> tuple[str, ...]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names and option == "--methods":
        raise InputError(f"{option} is empty; choose from {','.join(choices)}")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise InputError(f"{option} names {', '.join(repeated)} twice; list each once")
    try:
        return check(names)
    except ValueError as err:
        raise InputError(f"{option}: {err}") from None


def _run_arguments(args) -> dict:
    """The ``run`` options checked and converted, before any work starts."""
    from .sweep import CACHE_DIR
    from .runtime import resolve_device

    _positive("--seeds", args.seeds)
    if args.first_seed < 0:
        raise InputError(f"--first-seed must be 0 or more, got {args.first_seed}")
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    repeated = sorted({k for k in args.compute_seeds or () if args.compute_seeds.count(k) > 1})
    if repeated:
        raise InputError(f"--seed {repeated[0]} is given twice; name each seed once")
    outside = [k for k in args.compute_seeds or () if k not in seeds]
    if outside:
        raise InputError(f"--seed {outside[0]} is not one of this run's seeds {seeds.start}…{seeds.stop - 1} "
                         f"(--first-seed {args.first_seed} --seeds {args.seeds}); pass a seed in that range, or raise --seeds")
    methods = _names("--methods", args.methods, check_methods, METHODS)
    variants = _names("--extensions", args.extensions, check_extensions, EXTENSIONS)
    if variants and "rope" not in methods:
        raise InputError("--extensions continue the RoPE model: add rope to --methods, or pass --extensions ''")
    _positive("--jobs", args.jobs)
    _positive("--threads", args.threads)
    try:
        resolve_device(args.device)
    except ValueError as err:  # CUDA asked for, none seen
        raise InputError(str(err)) from None
    except RuntimeError:  # torch's message names neither the option nor the choices that make sense here
        raise InputError(f"--device {args.device} is not a device torch knows; use cpu, cuda, cuda:N or auto") from None
    return dict(seeds=seeds, methods=methods, variants=variants, device=args.device, threads=args.threads, jobs=args.jobs,
                out=args.out, compute_seeds=args.compute_seeds, progress=not args.no_progress,
                cache_dir=CACHE_DIR if args.cache is None else args.cache)


def _readable(path: Path | None) -> dict:
    """The results file as the readers below need it: valid JSON, an object, sealed and complete with finite numbers.

    Raises StaleResults naming the file and the fix, so ``summary`` and ``verify`` print one line, not a traceback.
    """
    from . import verify as v
    from .sweep import results_path

    path = results_path("full") if path is None else Path(path)
    results = v.load(path)
    seeds = results.get("seeds")
    fix = v._fix(str(results.get("preset", "full")), len(seeds) if isinstance(seeds, list) and seeds else PAGE_SEEDS)
    try:
        v.check_seal(results, path)
        v.check_complete(results, path)
        v.check_consistent(results, path)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as err:
        raise v.StaleResults(f"{path}: not a results file this code can read ({type(err).__name__}: {err}); {fix}") from None
    return results


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    try:
        return _command(args)
    except InputError as err:
        args.parser.error(str(err))  # the subcommand's usage and the one line; exits 2
    return 2


def _command(args) -> int:
    if args.command == "run":
        from .plan import describe, plan
        from .sweep import run

        cfg = preset(args.preset)
        if args.precision:
            cfg = dataclasses.replace(cfg, precision=args.precision)
        kw = _run_arguments(args)
        print(describe(plan(cfg, kw["seeds"], kw["methods"], kw["variants"], kw["cache_dir"], kw["compute_seeds"])), flush=True)
        if not args.dry_run:
            run(cfg, **kw)
        return 0
    if args.command == "verify":
        from .verify import StaleResults, verify

        _positive("--threads", args.threads)
        _positive("--steps", args.steps)
        try:
            results = _readable(args.results)
            if args.steps is not None and args.steps > PRESETS[results["preset"]].steps:
                raise InputError(f"--steps {args.steps} is more than the {PRESETS[results['preset']].steps} steps preset "
                                 f"{results['preset']!r} trains; pass at most that")
            report = verify(args.results, threads=args.threads, rerun=not args.no_rerun, steps=args.steps, deep=args.deep)
        except StaleResults as err:
            print(f"FAILED: {err}", file=sys.stderr)
            return 1
        print(report)
        return 0
    if args.command == "summary" and args.frozen:
        from . import claims, frozen

        try:
            text, all_hold = frozen.summary(args.results)
        except claims.ResultsMissing as err:
            print(f"FAILED: {err}", file=sys.stderr)
            return 1
        print(text)
        return 0 if all_hold else 1
    if args.command == "summary":
        from . import claims
        from .verify import StaleResults

        try:
            _readable(args.results)
            print(claims.summary(args.results))
            # a claim the results contradict fails the command; one a single seed cannot judge does not
            return 1 if any(verdict == "FAILS" for verdict, _ in claims.verdicts(args.results).values()) else 0
        except (StaleResults, claims.ResultsMissing, claims.ClaimFailed) as err:
            print(f"FAILED: {err}", file=sys.stderr)
            return 1
    if args.command == "corpus":
        from . import corpus

        digest = corpus.rebuild(write=args.rebuild)
        print(f"{'wrote' if args.rebuild else 'rebuilt and checked'} {corpus.CORPUS_FILE}: sha256 {digest}")
        if args.rebuild and digest != corpus.CORPUS_SHA256:
            print(f"now set CORPUS_SHA256 = {digest!r} in {Path(corpus.__file__).name}")
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
