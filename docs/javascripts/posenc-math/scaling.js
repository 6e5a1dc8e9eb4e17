// Context extension (posenc/scaling.py): PI, NTK-aware, dynamic NTK, YaRN, Llama 3, LongRoPE; each returns
// { invFreq, attentionFactor }, and scaleModel applies one to a model config from assets/models.json.
import { checkBase, context, evenDim, factorArg, positive } from "./_check.js";
import { inverseFrequencies, rotaryDim, wavelengths } from "./rope.js";

export const YARN_BETA_FAST = 32; // YaRN paper: α=1, β=32 for Llama
export const YARN_BETA_SLOW = 1;

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

/** LongRoPE's default attention factor √(1 + ln s / ln L) (1 when s ≤ 1). */
export function longropeAttentionFactor(factor, originalContext) {
  const s = factorArg("factor", factor);
  const L = context("original_context", originalContext);
  return s <= 1 ? 1.0 : Math.sqrt(1 + Math.log(s) / Math.log(L));
}

/**
 * LongRoPE (Phi-3): ω_i' = ω_i / λ_i with the long list when seqLen > L, else the short one;
 * s = factor, else maxPositionEmbeddings ÷ L; attention factor from s (not from seqLen).
 */
export function longrope(headDim, base, shortFactor, longFactor, originalContext, opts = {}) {
  const { maxPositionEmbeddings = null, factor = null, seqLen = null, attentionFactor = null, rotaryFraction = 1.0 } = opts;
  const omega = inverseFrequencies(headDim, base, rotaryFraction);
  const L = context("original_context", originalContext);
  for (const [name, list] of [["short_factor", shortFactor], ["long_factor", longFactor]]) {
    if (!Array.isArray(list) || list.length !== omega.length || !list.every((v) => Number.isFinite(v) && v > 0)) {
      throw new Error(`${name} 要是 ${omega.length} 个正数（每个频率对一个）`);
    }
  }
  const s = factor ?? context("max_position_embeddings", maxPositionEmbeddings) / L;
  const att = attentionFactor == null ? longropeAttentionFactor(s, L) : positive("attention_factor", attentionFactor);
  const ext = seqLen !== null && context("seq_len", seqLen) > L ? longFactor : shortFactor;
  return { invFreq: omega.map((w, i) => w / ext[i]), attentionFactor: att };
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
      case "longrope":
        return longrope(headDim, theta, sc.short_factor, sc.long_factor, sc.original_max_position_embeddings, {
          maxPositionEmbeddings: model.max_position_embeddings ?? null,
          factor: sc.factor ?? null,
          attentionFactor: sc.attention_factor ?? null,
          rotaryFraction: frac,
        });
      default:
        throw new Error(`还没实现 rope_type ${sc.rope_type}`);
    }
  }
  throw new Error(`未知的方法 ${method}`);
}

/**
 * Per pair: the largest angle reached in s·L tokens after scaling ÷ the largest reached in L tokens before,
 * s·ω'_j/ω_j, for a pair that never completes a turn within L (λ_j > L); NaN for a pair that does (it has
 * seen every angle). Above 1 the pair points where training never pointed it: it overshoots (YaRN §3.1).
 */
export function angleOvershoot(omega, scaled, originalContext, factor) {
  const lam = wavelengths(omega);
  const lamScaled = wavelengths(scaled);
  if (lam.length !== lamScaled.length) {
    throw new Error(`omega 和 scaled 要每对一个频率，收到 ${lam.length} 个和 ${lamScaled.length} 个；传同一个模型扩展前后的频率`);
  }
  const L = context("original_context", originalContext);
  const s = factorArg("factor", factor);
  return Float64Array.from(lam, (x, j) => (x > L ? (s * scaled[j]) / omega[j] : NaN));
}

/** How many never-turning pairs overshoot: angleOvershoot > 1 (float slack 1e-9), as posenc counts them. */
export function pairsBeyondTrainedAngles(omega, scaled, originalContext, factor) {
  return angleOvershoot(omega, scaled, originalContext, factor).filter((r) => r > 1 + 1e-9).length;
}
