// RoPE (posenc/rope.py): inverse frequencies, partial RoPE, rotation (interleaved / half).
import { checkBase, context, position, positive } from "./_check.js";

const TAU = 2 * Math.PI;

/** int(head_dim · fraction): how many dims RoPE turns (must be even and ≥ 2). */
export function rotaryDim(headDim, rotaryFraction = 1.0) {
  if (!Number.isInteger(headDim) || headDim <= 0) throw new Error(`head_dim 要是正整数，收到 ${headDim}`);
  if (!(rotaryFraction > 0 && rotaryFraction <= 1)) throw new Error(`rotary_fraction 要在 (0, 1] 之间，收到 ${rotaryFraction}`);
  const dim = Math.trunc(headDim * rotaryFraction);
  if (dim < 2 || dim % 2) throw new Error(`head_dim × rotary_fraction = ${dim} 维，RoPE 要正偶数维`);
  return dim;
}

/** ω_i = base^(−2i/d), d = rotaryDim(headDim, rotaryFraction). */
export function inverseFrequencies(headDim, base, rotaryFraction = 1.0) {
  const dim = rotaryDim(headDim, rotaryFraction);
  checkBase("base", base);
  const out = new Float64Array(dim / 2);
  for (let i = 0; i < out.length; i++) out[i] = base ** ((-2.0 * i) / dim);
  return out;
}

/** λ_i = 2π / ω_i. */
export function wavelengths(invFreq) {
  return Float64Array.from(invFreq, (w) => TAU / positive("inv_freq", w));
}

/** #{i : λ_i > L}: pairs that do not finish one turn within `ctx` tokens. */
export function pairsNotCompletingTurn(invFreq, ctx) {
  context("context", ctx);
  let n = 0;
  for (const lam of wavelengths(invFreq)) if (lam > ctx) n++;
  return n;
}

/** Turn the 2-D vector (a, b) by `angle`: (a cos − b sin, a sin + b cos). */
export function rotatePair([a, b], angle) {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return [a * c - b * s, a * s + b * c];
}

/**
 * R_{Θ,m} x for one token at position m: pair i is turned by m·ω_i. Only the
 * first 2·len(invFreq) dims turn. Pair i is dims (2i, 2i+1) ("interleaved") or
 * (i, i + d/2) within the rotary dims ("half", transformers' rotate_half).
 */
export function rotate(x, m, invFreq, convention = "interleaved") {
  position("m", m);
  if (convention !== "interleaved" && convention !== "half") throw new Error(`convention 只能是 interleaved 或 half，收到 ${convention}`);
  const rdim = 2 * invFreq.length;
  if (rdim > x.length) throw new Error(`inv_freq 有 ${invFreq.length} 对，但向量只有 ${x.length} 维`);
  const out = Float64Array.from(x);
  const h = rdim / 2;
  for (let i = 0; i < invFreq.length; i++) {
    const [ia, ib] = convention === "interleaved" ? [2 * i, 2 * i + 1] : [i, i + h];
    const [a, b] = rotatePair([x[ia], x[ib]], m * invFreq[i]);
    out[ia] = a;
    out[ib] = b;
  }
  return out;
}
