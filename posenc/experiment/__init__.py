"""Lesson 3's training experiment: which position method does a small model actually use?

One decoder-only Transformer (d_model 256, 4 pre-LN layers, 4 heads, ≈3.7M
parameters, token embedding N(0, 0.02²)) is trained once per position method on the same
classical Chinese text, differing only in how it learns about order: none
(NoPE), a learned table, the sinusoidal table added to the input, the same with
the embedding multiplied by √d_model, ALiBi's distance bias on the scores,
RoPE, and RoPE on a quarter of each head's dims. Each trains 400 steps of 16
sequences of length 128 (validation loss every 25 steps) and is then evaluated
per position on length-512 windows; the trained RoPE model is also evaluated
with PI, NTK-aware and YaRN applied at evaluation time, and then extended to
length 512 by 100 steps of continued training with plain RoPE, PI, NTK-aware,
YaRN or a raised base (ABF), evaluated to position 1,023 before and after.

    python -m posenc.experiment run --preset full --seeds 16 --jobs 2 --threads 1  # results/full.json (hours)
    python -m posenc.experiment run --preset full --seeds 16 --device cuda --jobs 14 --threads 1  # minutes on a GPU
    python -m posenc.experiment verify [--deep]               # in the test suite (without --deep)
    python -m posenc.experiment summary                       # the numbers and claims

Modules, one job each:

    corpus     fortunes-zh → data/corpus.txt (cleaning rules, checksum)
    data       characters → ids, split, batches, evaluation windows, baselines
    model      the Transformer and its position methods
    train      one (method, seed) training run, with its learning curve
    evaluate   loss at every position; RoPE scaling at evaluation time
    scalings   the RoPE frequencies of PI, NTK-aware, YaRN and ABF (from posenc.scaling)
    extend     the continued-training stage from a trained RoPE model
    run        one unit: a method trained from a seed, or the RoPE model extended, and what it measures
    sweep      all units → results/<preset>.json, each cached under its own key, resumable, in parallel processes
    plan       what a sweep would compute, before it does
    runtime    threads, determinism, device
    provenance code/encodings/corpus hashes, environment, the seal
    verify     is the committed file what the current code produces?
    stats      a mean over seeds with its 95% t interval; the margins words mean
    claims     numbers and checked sentences for the lessons
    figures    arrays for figures_src/
    course     each method and RoPE variant as the pages show it: names, colours, family, lesson

Timings, measured on the project's 2-core AMD EPYC (AVX2, no native bf16), fp32,
one thread per process (each unit records its CPU seconds; the file sums them):

    --preset full, one (method, seed) unit     ≈7.2 CPU-min (6.6–8.7)
    --preset full, one extension unit          ≈3.7 CPU-min (3.5–3.8)
    --preset full --seeds 3 (36 units)         3.5 CPU-hours: 1 h 52 min 34 s wall with --jobs 2 (2026-12-03)
    --preset full --seeds 16, one H200 GPU     535 s for 173 units with --jobs 14, 107 s for the other 19 (2026-12-04)
    --preset quick (12 units, --jobs 2)        4 min 6 s wall on an idle machine (CONTRIBUTING.md)
    verify                                     ≈20 s (hashes, self-consistency, the first 2 steps of each method)
    verify --deep                              + one RoPE model re-trained and the first extension steps

The committed results are the 16-seed GPU run's; re-run on a CPU, its first
training steps agree within 7e-7 nats (verify.py). bf16 autocast is ≈2× faster than fp32 only on CPUs with native bf16
(AVX512-BF16/AMX); on AVX2 it is emulated and far slower, so the presets use fp32.
"""
