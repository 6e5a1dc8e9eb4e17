// What a reader sees and types: number formatting ("19,869", "−0.990", "1.8e−15") and the parsing of
// an input box into a number or a Chinese message that says what to type instead.

export const MAX_INPUT = 1e9; // the largest number a reader may type

const MINUS = "\u2212";

/** Text for a finite number: thousands separators, `digits` decimals, "−" for minus. Never "NaN". */
export function formatNumber(x, digits = 3) {
  if (typeof x !== "number" || !Number.isFinite(x)) return "—";
  const text = formatter(digits).format(x);
  return text === "-0" || /^-0\.0*$/.test(text) ? text.slice(1) : text.replace("-", MINUS);
}

// One Intl.NumberFormat per number of decimals: building one per call (what toLocaleString does)
// was most of the sin-clock's frame time at d = 64.
const FORMATTERS = new Map();
function formatter(digits) {
  if (!FORMATTERS.has(digits)) FORMATTERS.set(digits, new Intl.NumberFormat("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }));
  return FORMATTERS.get(digits);
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
  // Chinese next to a Latin letter or digit gets a space: "位置 p 不能…", "请填写 base。"
  const lead = /^[A-Za-z0-9]/.test(label) ? " " : "";
  label = /[A-Za-z0-9)]$/.test(label) ? `${label} ` : label;
  const s = normalise(raw);
  if (s === "") return fail(`请填写${lead}${label.trim()}。`);
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
