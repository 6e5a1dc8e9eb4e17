// posenc-math.js: the course's formulas for the in-page experiments, in one import.
//
// Plain ES modules (no framework, no CDN) that mirror the Python package posenc line by line,
// so the reader's browser computes what the tests verify. One module per posenc module, so a
// page loads only the formulas its widgets use (widgets import from posenc-math/<module>.js);
// this file gathers them for the tests and for anything that wants them all:
//   format      what a reader sees and types: formatNumber, parseInput (Chinese messages), MAX_INPUT
//   sinusoidal  posenc/sinusoidal.py  ω_i = base^(−2i/d), sin on even dims, cos on odd
//   rope        posenc/rope.py        inverse frequencies, rotation (interleaved / half)
//   scaling     posenc/scaling.py     PI, NTK-aware, dynamic NTK, YaRN, Llama 3:
//                                     each returns { invFreq, attentionFactor }
//   attention   posenc/attention.py   one head of self-attention, a seeded PRNG (lesson 1)
//   relative    posenc/relative.py    ALiBi slopes, bias, weight factor and reach; T5's buckets
//                                     (float32 logarithm like the reference, via Math.fround)
//   naive       posenc/naive.py       lesson 2's raw index: content RMS / p
//   learned     posenc/learned.py     lesson 2's position table: which positions have a row, its size
// tests/js/posenc-math.test.mjs checks every function against posenc's numbers.
//
// Functions throw an Error with a Chinese message on bad arguments (posenc-math/_check.js); widgets
// call parseInput() first, so a reader sees the message, never NaN or Infinity.

export * from "./posenc-math/format.js";
export * from "./posenc-math/sinusoidal.js";
export * from "./posenc-math/rope.js";
export * from "./posenc-math/scaling.js";
export * from "./posenc-math/attention.js";
export * from "./posenc-math/relative.js";
export * from "./posenc-math/naive.js";
export * from "./posenc-math/learned.js";
