"""Lesson 3's training experiment: which position method does a small model actually use?

One decoder-only Transformer (d_model 256, 4 pre-LN layers, ≈3.7M parameters,
token embedding N(0, 0.02²)) is trained five times on the same classical
Chinese text, differing only in how it learns about order: none (NoPE),
a learned table, the sinusoidal table added to the input, the same with the
embedding multiplied by √d_model, and RoPE. Each trains 400 steps of 16
sequences of length 128 and is then evaluated per position on length-512
windows; the trained RoPE model is also evaluated with PI, NTK-aware and
YaRN scaling applied at evaluation time.

    python -m posenc.experiment run --preset full --seeds 3   # writes results/full.json
    python -m posenc.experiment verify                        # in the test suite
    python -m posenc.experiment summary                       # the numbers and claims

Modules, one job each:

    corpus     fortunes-zh → data/corpus.txt (cleaning rules, checksum)
    data       characters → ids, split, batches, evaluation windows, baselines
    model      the Transformer and its five position methods
    train      one (method, seed) training run
    evaluate   loss at every position; RoPE scaling at evaluation time
    run        all units → results/<preset>.json, cached and resumable
    provenance code/encodings/corpus hashes, environment, the seal
    verify     is the committed file what the current code produces?
    claims     numbers and checked sentences for the lessons
    figures    arrays for figures_src/

Timings, measured on the project's 2-core AMD EPYC (AVX2, no native bf16), fp32:

    --preset quick             3.5 min wall for all five methods, 2 threads, machine otherwise idle
    --preset full  (one unit)  ≈7 min train + 0.3–1.4 min eval per (method, seed), 1 thread
    verify                     ≈20 s (hashes + the first 2 steps of each method)

A full step (batch 16) takes 0.68 s on 2 threads or ≈1.0 s on 1 thread, so two
1-thread processes (``--seed 1`` / ``--seed 2``) use both cores best. Behind
the committed 3-seed results: seeds 1 and 2 (ten units) took ≈80 min of compute
on a quiet machine, seed 0 far longer on a busy one; the file records each
unit's time and the total (``wall_seconds``). bf16
autocast is ≈2× faster than fp32 only on CPUs with native bf16
(AVX512-BF16/AMX); on AVX2 it is emulated and far slower, so the presets use fp32.
"""
