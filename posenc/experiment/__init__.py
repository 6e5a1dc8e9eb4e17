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

Timings. On the project's 2-core AMD EPYC (AVX2, no native bf16), shared with
other work, one fp32 training step of the full preset took 3–8 s, so
``--preset full`` takes hours per seed (the results file records the exact
compute time). bf16 autocast is about 2× faster than fp32 only on CPUs with
native bf16 (AVX512-BF16/AMX); on AVX2 it is emulated and tens of times slower,
which is why the presets use fp32.
"""
