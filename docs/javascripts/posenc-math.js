// posenc-math.js: the course's formulas for the in-page experiments.
//
// A plain ES module (no framework, no CDN) that mirrors the Python package
// posenc line by line, so the reader's browser computes what the tests verify:
//   sinusoidal  posenc/sinusoidal.py  ω_i = base^(−2i/d), sin on even dims, cos on odd
//   RoPE        posenc/rope.py        inverse frequencies, rotation (interleaved / half)
//   scaling     posenc/scaling.py     PI, NTK-aware, dynamic NTK, YaRN, Llama 3:
//                                     each returns { invFreq, attentionFactor }
//   relative    posenc/relative.py    ALiBi slopes, bias, weight factor and reach; T5's buckets
//                                     (float32 logarithm like the reference, via Math.fround)
// tests/js/posenc-math.test.mjs checks every function against posenc's numbers.
//
// Functions throw an Error with a Chinese message on bad arguments; widgets
// call parseInput() first, so a reader sees the message, never NaN or Infinity.

export const DEFAULT_BASE = 10000; // Vaswani et al. 2017 §3.5
export const MAX_INPUT = 1e9; // the largest number a reader may type
export const YARN_BETA_FAST = 32; // YaRN paper: α=1, β=32 for Llama
export const YARN_BETA_SLOW = 1;
const TAU = 2 * Math.PI;

// --- formatting ----------------------------------------------------------------------------

const MINUS = "\u2212";

/** Text for a finite number: thousands separators, `digits` decimals, "−" for minus. Never "NaN". */
export function formatNumber(x, digits = 3) {
  if (typeof x !== "number" || !Number.isFinite(x)) return "—";
  const text = x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return text === "-0" || /^-0\.0*$/.test(text) ? text.slice(1) : text.replace("-", MINUS);
}

/** Scientific text such as "1.8e−15" (or "0" for zero), for rounding-size differences. */
export function formatSci(x, digits = 1) {
  if (typeof x !== "number" || !Number.isFinite(x)) return "—";
  if (x === 0) return "0";
  const [m, e] = x.toExponential(digits).split("e");
  return `${m.replace("-", MINUS)}e${e.replace("+", "").replace("-", MINUS)}`;
}

/** Integer text with thousands separators ("100,000"). */
export function formatInt(x) {
  return formatNumber(x, 0);
}

/** Full precision for data-value attributes: the shortest text that reads back to the same double. */
export function fullPrecision(x) {
  return Number.isFinite(x) ? String(x) : "";
}

// --- input validation ------------------------------------------------------------------------

const NUMBER_RE = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** Normalise what a reader types: full-width digits and signs, thousands separators, spaces. */
function normalise(text) {
  return String(text ?? "")
    .replace(/[\uFF10-\uFF19]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xff10 + 48))
    .replace(/\uFF0E|\u3002/g, ".")
    .replace(/[\uFF0D\u2212]/g, "-")
    .replace(/\uFF0B/g, "+")
    .replace(/[,\uFF0C_\s]/g, "");
}

/**
 * Read one number from an input box.
 *   kind "position"  non-negative integer          "dim"  positive even integer
 *        "base"      real > 1                      "factor" real ≥ 1
 *        "int"       integer in [min, max]         "real"  real in [min, max]
 * Returns { ok: true, value } or { ok: false, message } with a Chinese message
 * that says what was wrong and what to type instead.
 */
export function parseInput(text, { label = "这个值", kind = "real", min = -MAX_INPUT, max = MAX_INPUT } = {}) {
  const raw = String(text ?? "").trim();
  label = /[A-Za-z0-9)]$/.test(label) ? `${label} ` : label; // "位置 p 不能…": a space after a Latin letter
  const s = normalise(raw);
  if (s === "") return fail(`请填写${label.trim()}。`);
  if (!NUMBER_RE.test(s)) return fail(`${label}要填数字，「${raw}」不是数字。`);
  const v = Number(s);
  if (!Number.isFinite(v)) return fail(`${label}要填数字，「${raw}」不是数字。`);
  if (Math.abs(v) > MAX_INPUT) return fail(`${label}不能超过 1,000,000,000（10⁹），收到 ${raw}。`);
  const integer = kind === "position" || kind === "dim" || kind === "int";
  if (kind === "position" || kind === "dim") min = Math.max(min, kind === "dim" ? 2 : 0);
  if (v < 0 && min >= 0) {
    return fail(kind === "position" ? `${label}不能是负数：位置从 0 开始数。` : `${label}不能是负数，收到 ${raw}。`);
  }
  if (integer && !Number.isInteger(v)) return fail(`${label}要是整数，收到 ${raw}。`);
  if (kind === "dim" && v % 2 !== 0) {
    return fail(`${label}要是正偶数（sin、cos 成对出现），收到 ${formatInt(v)}；试试 ${formatInt(v + 1)}。`);
  }
  if (kind === "base" && v <= 1) {
    return fail(`${label}要大于 1（否则频率不会一对比一对慢），收到 ${raw}；论文用 10,000。`);
  }
  if (kind === "factor" && v < 1) {
    return fail(`${label}要不小于 1（新上下文 ÷ 原上下文），收到 ${raw}；例如 4 把 32,768 拉长到 131,072。`);
  }
  if (v < min) return fail(`${label}最小是 ${formatNumber(min, Number.isInteger(min) ? 0 : 2)}，收到 ${raw}。`);
  if (v > max) return fail(`${label}在这个演示里最大是 ${formatNumber(max, Number.isInteger(max) ? 0 : 2)}，收到 ${raw}。`);
  return { ok: true, value: v };
}

function fail(message) {
  return { ok: false, message };
}

// --- argument checks (posenc/_check.py) ---------------------------------------------------------

function evenDim(name, d) {
  if (!Number.isInteger(d) || d <= 0 || d % 2) throw new Error(`${name} 要是正偶数，收到 ${d}`);
  return d;
}

function checkBase(name, b) {
  if (typeof b !== "number" || !Number.isFinite(b) || b <= 1) throw new Error(`${name} 要是大于 1 的有限数，收到 ${b}`);
  return b;
}

function position(name, p) {
  if (!Number.isInteger(p) || p < 0) throw new Error(`${name} 要是非负整数位置，收到 ${p}`);
  return p;
}

function positive(name, x) {
  if (typeof x !== "number" || !Number.isFinite(x) || x <= 0) throw new Error(`${name} 要是正的有限数，收到 ${x}`);
  return x;
}

function factorArg(name, s) {
  if (typeof s !== "number" || !Number.isFinite(s) || s < 1) throw new Error(`${name} 要是不小于 1 的有限数，收到 ${s}`);
  return s;
}

function context(name, L) {
  if (!Number.isInteger(L) || L <= 0) throw new Error(`${name} 要是正整数（token 数），收到 ${L}`);
  return L;
}

// --- sinusoidal (posenc/sinusoidal.py) --------------------------------------------------------------

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

// --- RoPE (posenc/rope.py) ------------------------------------------------------------------------------

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

// --- scaling (posenc/scaling.py) ---------------------------------------------------------------------

/** Position Interpolation: ω_i' = ω_i / s; attention factor 1. */
export function linear(headDim, base, factor, rotaryFraction = 1.0) {
  const s = factorArg("factor", factor);
  return { invFreq: inverseFrequencies(headDim, base, rotaryFraction).map((w) => w / s), attentionFactor: 1.0 };
}

/** θ' = θ · s^(d/(d−2)) (YaRN paper Eq. 16). */
export function ntkAwareBase(base, factor, dim) {
  checkBase("base", base);
  const s = factorArg("factor", factor);
  evenDim("dim", dim);
  if (dim < 4) throw new Error(`NTK-aware 需要 dim ≥ 4，收到 ${dim}`);
  return base * s ** (dim / (dim - 2));
}

/** Static NTK-aware scaling: ω_i' = θ'^(−2i/d); attention factor 1. */
export function ntkAware(headDim, base, factor, rotaryFraction = 1.0) {
  const dim = rotaryDim(headDim, rotaryFraction);
  return { invFreq: inverseFrequencies(headDim, ntkAwareBase(base, factor, dim), rotaryFraction), attentionFactor: 1.0 };
}

/** Dynamic NTK: θ' = θ · (s·ℓ/L − (s − 1))^(d/(d−2)), ℓ = max(seqLen, L). */
export function dynamicNtk(headDim, base, factor, maxPositionEmbeddings, seqLen = null, rotaryFraction = 1.0) {
  checkBase("base", base);
  const s = factorArg("factor", factor);
  const L = context("max_position_embeddings", maxPositionEmbeddings);
  const ell = seqLen === null ? L : Math.max(context("seq_len", seqLen), L);
  const dim = rotaryDim(headDim, rotaryFraction);
  const newBase = base * ((s * ell) / L - (s - 1)) ** (dim / (dim - 2));
  return { invFreq: inverseFrequencies(headDim, newBase, rotaryFraction), attentionFactor: 1.0 };
}

/** 0.1 · mscale · ln s + 1 (1 when s ≤ 1): YaRN Eq. 22. */
export function yarnMscale(factor, mscale = 1.0) {
  const s = factorArg("factor", factor);
  const m = positive("mscale", mscale);
  return s <= 1 ? 1.0 : 0.1 * m * Math.log(s) + 1.0;
}

/** transformers' default attention_factor: mscale / mscale_all_dim when both are given, else Eq. 22. */
export function yarnAttentionFactor(factor, mscale = null, mscaleAllDim = null) {
  if (mscale != null) positive("mscale", mscale);
  if (mscaleAllDim != null) positive("mscale_all_dim", mscaleAllDim);
  if (mscale != null && mscaleAllDim != null) return yarnMscale(factor, mscale) / yarnMscale(factor, mscaleAllDim);
  return yarnMscale(factor);
}

/** The fractional pair index that turns `rotations` times in the original context. */
export function yarnCorrectionDim(rotations, dim, base, originalContext) {
  const r = positive("rotations", rotations);
  evenDim("dim", dim);
  checkBase("base", base);
  const L = context("original_context", originalContext);
  return (dim * Math.log(L / (r * 2 * Math.PI))) / (2 * Math.log(base));
}

/** [low, high] pair range of YaRN's ramp; floored/ceiled when truncate, clamped to [0, dim − 1]. */
export function yarnCorrectionRange(dim, base, originalContext, betaFast = YARN_BETA_FAST, betaSlow = YARN_BETA_SLOW, truncate = true) {
  const fast = positive("beta_fast", betaFast);
  const slow = positive("beta_slow", betaSlow);
  if (fast < slow) throw new Error(`beta_fast 要不小于 beta_slow，收到 ${fast} 和 ${slow}`);
  let low = yarnCorrectionDim(fast, dim, base, originalContext);
  let high = yarnCorrectionDim(slow, dim, base, originalContext);
  if (truncate) {
    low = Math.floor(low);
    high = Math.ceil(high);
  }
  return [Math.max(low, 0), Math.min(high, dim - 1)];
}

/** Interpolation weight per pair: clamp((j − low)/(high − low), 0, 1); 0 keeps ω_j, 1 uses ω_j / s. */
export function yarnRamp(low, high, nPairs) {
  if (!Number.isInteger(nPairs) || nPairs <= 0) throw new Error(`n_pairs 要是正整数，收到 ${nPairs}`);
  if (high === low) high += 0.001;
  return Float64Array.from({ length: nPairs }, (_, j) => Math.min(1, Math.max(0, (j - low) / (high - low))));
}

/**
 * YaRN: ω_j' = (1 − ramp_j)·ω_j + ramp_j·ω_j/s, plus attention factor.
 * opts: { betaFast, betaSlow, truncate, mscale, mscaleAllDim, attentionFactor, rotaryFraction }.
 * Returns { invFreq, attentionFactor, low, high, ramp }.
 */
export function yarn(headDim, base, factor, originalContext, opts = {}) {
  const {
    betaFast = YARN_BETA_FAST,
    betaSlow = YARN_BETA_SLOW,
    truncate = true,
    mscale = null,
    mscaleAllDim = null,
    attentionFactor = null,
    rotaryFraction = 1.0,
  } = opts;
  const s = factorArg("factor", factor);
  const dim = rotaryDim(headDim, rotaryFraction);
  const omega = inverseFrequencies(headDim, base, rotaryFraction);
  const [low, high] = yarnCorrectionRange(dim, base, originalContext, betaFast, betaSlow, truncate);
  const ramp = yarnRamp(low, high, dim / 2);
  const invFreq = omega.map((w, j) => w * (1.0 - ramp[j]) + (w / s) * ramp[j]);
  const att = attentionFactor == null ? yarnAttentionFactor(s, mscale, mscaleAllDim) : positive("attention_factor", attentionFactor);
  return { invFreq, attentionFactor: att, low, high, ramp };
}

/** Llama 3.1: keep λ < L/hf, divide λ > L/lf by s, blend in between; attention factor 1. */
export function llama3(headDim, base, factor, lowFreqFactor, highFreqFactor, originalContext, rotaryFraction = 1.0) {
  const s = factorArg("factor", factor);
  const lf = positive("low_freq_factor", lowFreqFactor);
  const hf = positive("high_freq_factor", highFreqFactor);
  if (hf <= lf) throw new Error(`high_freq_factor 要大于 low_freq_factor，收到 ${hf} 和 ${lf}`);
  const L = context("original_context", originalContext);
  const omega = inverseFrequencies(headDim, base, rotaryFraction);
  const lam = wavelengths(omega);
  const invFreq = omega.map((w, i) => {
    if (lam[i] < L / hf) return w;
    if (lam[i] > L / lf) return w / s;
    const smooth = (L / lam[i] - lf) / (hf - lf);
    return ((1 - smooth) * w) / s + smooth * w;
  });
  return { invFreq, attentionFactor: 1.0 };
}

/**
 * One method applied to a model config from assets/models.json (fields as in
 * posenc/data/models.yaml): method "none" | "linear" | "ntk" | "yarn" | "model".
 * "model" uses the model's own scaling dict (like posenc.scaling.for_model);
 * the others use `factor` over the native context with the model's YaRN betas.
 */
export function scaleModel(model, method, factor) {
  const headDim = model.head_dim;
  const theta = model.rope_theta;
  const frac = model.rotary_fraction ?? 1.0;
  const sc = model.scaling ?? null;
  if (method === "none") return { invFreq: inverseFrequencies(headDim, theta, frac), attentionFactor: 1.0 };
  if (method === "linear") return linear(headDim, theta, factor, frac);
  if (method === "ntk") return ntkAware(headDim, theta, factor, frac);
  if (method === "yarn") {
    const y = sc && sc.rope_type === "yarn" ? sc : {};
    return yarn(headDim, theta, factor, model.context, {
      betaFast: y.beta_fast || YARN_BETA_FAST,
      betaSlow: y.beta_slow || YARN_BETA_SLOW,
      truncate: y.truncate ?? true,
      mscale: y.mscale ?? null,
      mscaleAllDim: y.mscale_all_dim ?? null,
      rotaryFraction: frac,
    });
  }
  if (method === "model") {
    if (!sc) return { invFreq: inverseFrequencies(headDim, theta, frac), attentionFactor: 1.0 };
    switch (sc.rope_type) {
      case "linear":
        return linear(headDim, theta, sc.factor, frac);
      case "dynamic":
        return dynamicNtk(headDim, theta, sc.factor, model.max_position_embeddings ?? model.context, null, frac);
      case "yarn":
        return yarn(headDim, theta, sc.factor, sc.original_max_position_embeddings, {
          betaFast: sc.beta_fast || YARN_BETA_FAST,
          betaSlow: sc.beta_slow || YARN_BETA_SLOW,
          truncate: sc.truncate ?? true,
          mscale: sc.mscale ?? null,
          mscaleAllDim: sc.mscale_all_dim ?? null,
          attentionFactor: sc.attention_factor ?? null,
          rotaryFraction: frac,
        });
      case "llama3":
        return llama3(headDim, theta, sc.factor, sc.low_freq_factor, sc.high_freq_factor, sc.original_max_position_embeddings, frac);
      default:
        throw new Error(`还没实现 rope_type ${sc.rope_type}`);
    }
  }
  throw new Error(`未知的方法 ${method}`);
}

// --- a tiny seeded PRNG and single-head attention (lesson 1) ------------------------------------------

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

// --- relative position in the attention score (posenc/relative.py) --------------------------------------

function count(name, n, minimum = 1) {
  if (!Number.isInteger(n) || n < minimum) throw new Error(`${name} 要是不小于 ${minimum} 的整数，收到 ${n}`);
  return n;
}

// start · ratio^h with start = ratio = 2^(−8/n), in the order the authors' get_slopes evaluates it
// (posenc.relative._geometric_slopes). Python's ** is the C library's pow, correctly rounded here;
// V8's is not (up to 38 ulp off for ratio^h at large h), so both powers are computed with BigInt and
// rounded once: every slope is the same double as posenc's (tests/js checks n = 1 … 1,024 heads).
function geometricSlopes(n) {
  const start = powTwo(-(2.0 ** -(log2Exact(n) - 3)));
  const { m, e } = toRational(start);
  const slopes = [];
  let p = 1n; // start^h = p·2^pe, kept to POW_BITS bits: the truncation (< h·2^−500 relative, and only
  let pe = 0; // ever downwards) could flip a rounding only that close to a tie between two doubles
  for (let h = 0; h < n; h++) {
    slopes.push(start * roundRational(p, pe));
    p *= m;
    pe += e;
    const extra = bitLength(p) - POW_BITS;
    if (extra > 0) {
      p >>= BigInt(extra);
      pe += extra;
    }
  }
  return slopes;
}
const POW_BITS = 512;

function bitLength(m) {
  const hex = m.toString(16);
  return 4 * (hex.length - 1) + (32 - Math.clz32(parseInt(hex[0], 16)));
}

/** log₂ n for n a power of two, exactly. */
function log2Exact(n) {
  let k = 0;
  while (2 ** k < n) k += 1;
  if (2 ** k !== n) throw new Error(`${n} 不是 2 的幂`);
  return k;
}

/** A finite double as m·2^e with m a BigInt (exact). */
function toRational(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const exp = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  const m = exp === 0 ? frac : frac | (1n << 52n);
  return { m: x < 0 ? -m : m, e: (exp === 0 ? 1 : exp) - 1075 };
}

/** m·2^e (m > 0) rounded to the nearest double, ties to even (normal range only, which is all we need). */
function roundRational(m, e) {
  const shift = bitLength(m) - 53;
  if (shift <= 0) return Number(m) * 2 ** e;
  let q = m >> BigInt(shift);
  const rem = m - (q << BigInt(shift));
  const half = 1n << BigInt(shift - 1);
  if (rem > half || (rem === half && (q & 1n) === 1n)) q += 1n;
  return Number(q) * 2 ** (e + shift);
}

/** 2^y, correctly rounded, for y an integer or −1/2^j (the only exponents ALiBi's start takes). */
function powTwo(y) {
  if (Number.isInteger(y)) return 2 ** y; // exact
  const j = log2Exact(-1 / y); // y = −1/2^j: the answer t satisfies t^(2^j) = 1/2, and t ∈ (1/2, 1)
  // t > midpoint m·2^−54  ⟺  m^(2^j) < 2^(54·2^j − 1); walk from V8's value to the correctly rounded one
  const below = (mid) => {
    let p = mid;
    for (let i = 0; i < j; i++) p *= p;
    return p < 1n << BigInt(54 * 2 ** j - 1);
  };
  let c = 2 ** y;
  for (;;) {
    const m = toRational(c).m << BigInt(toRational(c).e + 54); // c·2^54, an integer since c ≥ 1/2
    if (below(m + 1n)) c += 2 ** -53; // t is above the upper midpoint
    else if (!below(m - 1n)) c -= 2 ** -53; // t is below the lower midpoint
    else return c;
  }
}

/**
 * ALiBi's slope m_h for each of n heads (Press et al. 2022 §3; posenc.relative.alibi_slopes).
 * n a power of two: 2^(−8h/n), h = 1 … n. Otherwise the slopes of the nearest lower power of
 * two n', then every other slope of 2n' heads (the 1st, 3rd, …), the first n − n' of them.
 */
export function alibiSlopes(nHeads) {
  const n = count("n_heads", nHeads);
  let closest = 1; // 2^⌊log₂ n⌋
  while (closest * 2 <= n) closest *= 2;
  const slopes = geometricSlopes(closest);
  if (closest !== n) slopes.push(...geometricSlopes(2 * closest).filter((_, i) => i % 2 === 0).slice(0, n - closest));
  return Float64Array.from(slopes);
}

/** The bias ALiBi adds to a score at distance r back from the query: −m·r (0 at r = 0, never −0). */
export function alibiBias(slope, distance) {
  return 0.0 - positive("slope", slope) * nonNegative("distance", distance);
}

/** exp(−m·r): how much the bias alone scales a key's weight at distance r against one at distance 0. */
export function alibiWeightRatio(slope, distance) {
  return Math.exp(-positive("slope", slope) * nonNegative("distance", distance));
}

/** r = ln(factor) / m: the distance at which the bias alone cuts a weight by `factor` (> 1). */
export function alibiReach(slope, factor) {
  const m = positive("slope", slope);
  const f = positive("factor", factor);
  if (f <= 1) throw new Error(`factor 要大于 1（权重缩小的倍数），收到 ${f}`);
  return Math.log(f) / m;
}

function nonNegative(name, x) {
  if (typeof x !== "number" || !Number.isFinite(x) || x < 0) throw new Error(`${name} 要是不小于 0 的有限数（往前数的 token 数），收到 ${x}`);
  return x;
}

/**
 * T5's bucket arguments checked as posenc.relative does: { numBuckets, maxDistance, oneSide, maxExact }.
 * oneSide = buckets per direction (half of num_buckets when bidirectional); maxExact = oneSide / 2 (floored).
 * Throws with a message that names the argument and the fix.
 */
export function t5Args(numBuckets, maxDistance, bidirectional) {
  const nb = count("num_buckets", numBuckets, 2);
  if (typeof bidirectional !== "boolean") throw new Error(`bidirectional 只能是 true（编码器）或 false（解码器），收到 ${bidirectional}`);
  const oneSide = bidirectional ? Math.floor(nb / 2) : nb;
  const maxExact = Math.floor(oneSide / 2);
  if (maxExact < 1) throw new Error(`num_buckets = ${nb} 时${bidirectional ? "每个方向" : ""}一个精确桶也没有；T5 用 32`);
  const md = count("max_distance", maxDistance);
  if (md <= maxExact) {
    throw new Error(`max_distance = ${md} 要大于精确区的长度 max_exact = ${maxExact}（${bidirectional ? "每个方向" : ""}桶数的一半），否则对数桶没有位置；T5 用 128`);
  }
  return { numBuckets: nb, maxDistance: md, oneSide, maxExact };
}

/**
 * T5's bucket for one relative position j − i (posenc.relative.t5_bucket; transformers'
 * _relative_position_bucket). The logarithmic branch runs in float32 like the reference:
 * Math.fround after every step numpy takes in float32, and truncation toward zero as astype(int64).
 */
export function t5Bucket(relative, bidirectional, numBuckets, maxDistance) {
  const { maxDistance: md, oneSide, maxExact } = t5Args(numBuckets, maxDistance, bidirectional);
  if (!Number.isInteger(relative)) throw new Error(`相对位置 j − i 要是整数，收到 ${relative}`);
  let bucket = 0;
  let r;
  if (bidirectional) {
    if (relative > 0) bucket += oneSide;
    r = Math.abs(relative);
  } else r = -Math.min(relative, 0);
  if (r < maxExact) return bucket + r;
  const f32 = Math.fround;
  const ratio = f32(f32(r) / f32(maxExact));
  const scaled = f32(f32(Math.log(ratio)) / f32(Math.log(md / maxExact)));
  const large = maxExact + Math.trunc(f32(scaled * f32(oneSide - maxExact)));
  return bucket + Math.min(large, oneSide - 1);
}

/**
 * [bucket, first distance, last distance] for each bucket of one direction (keys before the query),
 * from t5Bucket itself, distances 0 … max_distance (the last bucket also holds every longer distance).
 */
export function t5BucketEdges(bidirectional, numBuckets, maxDistance) {
  const { maxDistance: md } = t5Args(numBuckets, maxDistance, bidirectional);
  const edges = [];
  for (let r = 0; r <= md; r++) {
    const b = t5Bucket(-r, bidirectional, numBuckets, md);
    const last = edges[edges.length - 1];
    if (last && last[0] === b) last[2] = r;
    else edges.push([b, r, r]);
  }
  return edges;
}
