// Relative position in the attention score (posenc/relative.py): ALiBi's slopes, bias, weight factor
// and reach; T5's buckets, with the float32 logarithm of the reference (Math.fround at each step).
import { count, nonNegative, positive } from "./_check.js";

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
  const args = t5Args(numBuckets, maxDistance, bidirectional);
  if (!Number.isInteger(relative)) throw new Error(`相对位置 j − i 要是整数，收到 ${relative}`);
  return bucketOf(relative, bidirectional, args);
}

function bucketOf(relative, bidirectional, { maxDistance: md, oneSide, maxExact }) {
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
 * from the bucket of every distance 0 … max_distance (the last bucket also holds every longer distance).
 */
export function t5BucketEdges(bidirectional, numBuckets, maxDistance) {
  const args = t5Args(numBuckets, maxDistance, bidirectional);
  const edges = [];
  for (let r = 0; r <= args.maxDistance; r++) {
    const b = bucketOf(-r, bidirectional, args);
    const last = edges[edges.length - 1];
    if (last && last[0] === b) last[2] = r;
    else edges.push([b, r, r]);
  }
  return edges;
}
