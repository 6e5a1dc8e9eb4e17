// Sinusoidal position encoding (posenc/sinusoidal.py): ω_i = base^(−2i/d), sin on even dims, cos on odd.
import { checkBase, evenDim, position } from "./_check.js";

export const DEFAULT_BASE = 10000; // Vaswani et al. 2017 §3.5
const TAU = 2 * Math.PI;

/** ω_i = base^(−2i/d), i = 0 … d/2 − 1, radians per token. */
export function angularFrequencies(d, base = DEFAULT_BASE) {
  evenDim("d", d);
  checkBase("base", base);
  const out = new Float64Array(d / 2);
  for (let i = 0; i < out.length; i++) out[i] = base ** ((-2.0 * i) / d);
  return out;
}

/** λ_i = 2π / ω_i: tokens per full turn of pair i. */
export function periods(d, base = DEFAULT_BASE) {
  return angularFrequencies(d, base).map((w) => TAU / w);
}

/** PE(p): sin(p·ω_i) on dim 2i, cos(p·ω_i) on dim 2i+1. */
export function encode(p, d, base = DEFAULT_BASE) {
  position("p", p);
  const w = angularFrequencies(d, base);
  const pe = new Float64Array(d);
  for (let i = 0; i < w.length; i++) {
    const a = p * w[i];
    pe[2 * i] = Math.sin(a);
    pe[2 * i + 1] = Math.cos(a);
  }
  return pe;
}

/** Angle of each clock hand at position p: p·ω_i reduced to [0, 2π). */
export function handAngles(p, d, base = DEFAULT_BASE) {
  position("p", p);
  return angularFrequencies(d, base).map((w) => (p * w) % TAU);
}

export function vdot(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** PE(a)·PE(b), from the two encodings. */
export function dot(a, b, d, base = DEFAULT_BASE) {
  return vdot(encode(a, d, base), encode(b, d, base));
}

/** Σ_i cos(k·ω_i): what PE(p)·PE(p+k) equals for every p. */
export function dotClosedForm(k, d, base = DEFAULT_BASE) {
  if (!Number.isInteger(k)) throw new Error(`k 要是整数距离，收到 ${k}`);
  let s = 0;
  for (const w of angularFrequencies(d, base)) s += Math.cos(k * w);
  return s;
}

/** All pairwise PE(a)·PE(b) for a list of positions (array of rows). */
export function dotMatrix(positions, d, base = DEFAULT_BASE) {
  const rows = positions.map((p) => encode(p, d, base));
  return rows.map((a) => rows.map((b) => vdot(a, b)));
}

/** Largest |entry| difference between two equally sized matrices. */
export function maxAbsDiff(m1, m2) {
  let best = 0;
  m1.forEach((row, a) => row.forEach((v, b) => (best = Math.max(best, Math.abs(v - m2[a][b])))));
  return best;
}
