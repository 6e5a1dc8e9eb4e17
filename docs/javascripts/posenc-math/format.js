// What a reader sees and types: number formatting ("19,869", "−0.990", "1.8e−15", the same in every
// language) and the parsing of an input box into a number or a message that says what to type instead,
// in the words of a string table (docs/javascripts/widgets/strings/<lang>.js), which the caller passes:
// a page loads only its own language's table (widgets/_ui.js).

export const MAX_INPUT = 1e9; // the largest number a reader may type

const MINUS = "\u2212";

// 12 significant digits first, so a value computed two ways (ALiBi's 2^−7) prints the same; not for whole numbers ≥ 1e12.
const clean = (x) => (Math.abs(x) >= 1e12 ? x : Number(x.toPrecision(12)));

/** Text for a finite number: thousands separators, `digits` decimals, "−" for minus. Never "NaN". */
export function formatNumber(x, digits = 3) {
  if (typeof x !== "number" || !Number.isFinite(x)) return "—";
  const text = exactly(x, digits);
  return text === "-0" || /^-0\.0*$/.test(text) ? text.slice(1) : text.replace("-", MINUS);
}

// Python's format (the prose) rounds a float's exact binary value, a tie to even (0.05 → "0.1", 0.03125 → "0.0312");
// Intl rounds a number's shortest decimal ("0.05"), so it is given the exact value as a decimal string.
// One Intl.NumberFormat per form: building one per call was most of the sin-clock's frame time at d = 64.
const FORMATS = new Map();
function exactly(x, digits, scientific = false) {
  const key = `${digits}${scientific ? "e" : ""}`;
  if (!FORMATS.has(key)) {
    const options = { minimumFractionDigits: digits, maximumFractionDigits: digits, roundingMode: "halfEven" };
    FORMATS.set(key, new Intl.NumberFormat("en-US", scientific ? { ...options, notation: "scientific", useGrouping: false } : options));
  }
  const v = clean(x);
  return FORMATS.get(key).format(scientific ? v.toExponential(100) : v.toFixed(100));
}

/** Scientific text such as "1.8e−15" (or "0" for zero), for rounding-size differences. */
export function formatSci(x, digits = 1) {
  if (typeof x !== "number" || !Number.isFinite(x)) return "—";
  if (x === 0) return "0";
  const [m, e] = exactly(x, digits, true).split("E");
  return `${m.replace("-", MINUS)}e${e.replace("-", MINUS)}`;
}

const SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

/** A rounding-sized number as the prose prints it ("2.2×10⁻¹⁶", "0"; posenc/quantities/lesson1.py tiny()). */
export function formatTiny(x) {
  if (typeof x !== "number" || !Number.isFinite(x)) return "—";
  if (x === 0) return "0";
  const [m, e] = exactly(x, 1, true).split("E");
  return `${m.replace("-", MINUS)}×10${e.replace(/[-0-9]/g, (c) => SUPERSCRIPT[c])}`;
}

/** A share as the prose prints it (posenc's two-figure percent): "2.7%", "0.054%", "0.0020%", "100%". */
export function formatPercent(x) {
  if (typeof x !== "number" || !Number.isFinite(x)) return "—";
  if (x === 0) return "0%";
  const p = x * 100;
  // the exponent after rounding to two figures: 0.0999 rounds to 0.10, two figures at the same place
  const exponent = Math.floor(Math.log10(Math.abs(Number(p.toPrecision(2)))));
  return `${formatNumber(p, Math.max(0, 1 - exponent))}%`;
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
 * Returns { ok: true, value } or { ok: false, message } with a message from `strings` (the widgets'
 * string table of the page's language; Chinese by default) that says what was wrong and what to type instead.
 */
export function parseInput(text, { label, kind = "real", min = -MAX_INPUT, max = MAX_INPUT } = {}, strings) {
  if (!strings || typeof strings.input_label !== "string") {
    throw new TypeError("parseInput(text, spec, strings) needs a string table (docs/javascripts/widgets/strings/<lang>.js); widgets/_ui.js parseInput passes the page's");
  }
  const raw = String(text ?? "").trim();
  const name = label ?? strings.input_label;
  // Chinese next to a Latin letter or digit gets a space: "位置 p 不能…", "请填写 base。"
  const values = {
    raw,
    lead: /^[A-Za-z0-9]/.test(name) ? " " : "",
    label: /[A-Za-z0-9)]$/.test(name) ? `${name} ` : name,
    label_bare: name,
    Label: name.charAt(0).toUpperCase() + name.slice(1),
  };
  const fail = (key, more = {}) => ({ ok: false, message: fillText(strings[key], { ...values, ...more }) });
  const s = normalise(raw);
  if (s === "") return fail("input_empty");
  if (!NUMBER_RE.test(s)) return fail("input_nan");
  const v = Number(s);
  if (!Number.isFinite(v)) return fail("input_nan");
  if (Math.abs(v) > MAX_INPUT) return fail("input_too_big");
  const integer = kind === "position" || kind === "dim" || kind === "int";
  if (kind === "position" || kind === "dim") min = Math.max(min, kind === "dim" ? 2 : 0);
  if (v < 0 && min >= 0) return fail(kind === "position" ? "input_negative_position" : "input_negative");
  if (integer && !Number.isInteger(v)) return fail("input_integer");
  if (kind === "dim" && v % 2 !== 0) return fail("input_even", { value: formatInt(v), next: formatInt(v + 1) });
  if (kind === "base" && v <= 1) return fail("input_base");
  if (kind === "factor" && v < 1) return fail("input_factor");
  if (v < min) return fail("input_min", { min: formatNumber(min, Number.isInteger(min) ? 0 : 2) });
  if (v > max) return fail("input_max", { max: formatNumber(max, Number.isInteger(max) ? 0 : 2) });
  return { ok: true, value: v };
}

/** A string table's text with its {name} fields filled in (a field with no value stays as written); a choice
 *  {n:token|tokens} takes the word that agrees with field n's number under `lang`'s Intl.PluralRules. */
export function fillText(template, values = {}, lang = undefined) {
  if (typeof template !== "string") throw new Error(`no such text in the widgets' string table: ${template}`);
  const chosen = template.replace(/\{(\w+):([^{}|]*)\|([^{}|]*)\}/g, (m, k, one, other) => {
    if (!(k in values)) throw new Error(`the text ${JSON.stringify(template)} chooses a word by {${k}}, which has no value`);
    if (!lang) throw new Error(`the text ${JSON.stringify(template)} chooses a word by number: pass fillText its language`);
    const n = Number(String(values[k]).replaceAll(",", "").replace(MINUS, "-"));
    return new Intl.PluralRules(lang).select(n) === "one" ? one : other;
  });
  return chosen.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}
