// Lesson 1: a tiny seeded PRNG and one head of self-attention (posenc/attention.py).
import { vdot } from "./sinusoidal.js";

const TAU = 2 * Math.PI;

/**
 * mulberry32: a 32-bit seeded generator (public domain, Tommy Ettinger). Same
 * seed, same numbers in every browser. Returns a function giving [0, 1).
 */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal samples from a [0, 1) generator (Box–Muller). */
export function gaussian(rand) {
  const u = 1 - rand();
  const v = rand();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(TAU * v);
}

/** rows × cols matrix of N(0, std²) entries from `rand`. */
export function randomMatrix(rand, rows, cols, std = 1) {
  return Array.from({ length: rows }, () => Float64Array.from({ length: cols }, () => std * gaussian(rand)));
}

/** x (n × a) times w (a × b). */
export function matmul(x, w) {
  const cols = w[0].length;
  return x.map((row) => {
    const out = new Float64Array(cols);
    row.forEach((v, k) => {
      for (let j = 0; j < cols; j++) out[j] += v * w[k][j];
    });
    return out;
  });
}

/** softmax of one row, shifted by its maximum so exp never overflows. */
export function softmax(row) {
  const m = Math.max(...row);
  const e = row.map((v) => Math.exp(v - m));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / z);
}

/**
 * One head of self-attention without a mask: softmax(Q Kᵀ / √d_k) V with
 * Q = X W_q, K = X W_k, V = X W_v. Returns { weights, out } (rows per token).
 */
export function attention(x, wq, wk, wv) {
  const q = matmul(x, wq);
  const k = matmul(x, wk);
  const v = matmul(x, wv);
  const scale = 1 / Math.sqrt(wq[0].length);
  const weights = q.map((qi) => softmax(k.map((kj) => vdot(qi, kj) * scale)));
  const out = weights.map((row) => {
    const o = new Float64Array(v[0].length);
    row.forEach((a, j) => v[j].forEach((vj, c) => (o[c] += a * vj)));
    return o;
  });
  return { weights, out };
}

/** Euclidean length of a − b. */
export function distance(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] - b[i]) ** 2;
  return Math.sqrt(s);
}
