// Shared building blocks of the in-page experiments (not a widget: nothing mounts "_ui").
//
// Progressive enhancement: a widget builds its interactive part next to the
// static build-time figure, then activate() adds .pe-widget--live, which hides
// that figure on screen only (widgets.css shows it again in print). Until then,
// and whenever a widget fails, the static figure is the content.
//
// Words: every text a widget shows comes from the string table of the page's language,
// strings/<lang>.js (<html lang>: "zh" on the Chinese pages, "en" under en/), through t(key, values).
import { fillText, fullPrecision, parseInput as parseNumber } from "../posenc-math/format.js";

// The site's languages from the selector the build writes (checked against posenc/formatting.py), default first.
const LANGUAGES = [...document.querySelectorAll(".md-select__link[hreflang]")].map((a) => a.hreflang);
if (!LANGUAGES.length) throw new Error("posenc widgets: no language selector on this page (mkdocs.yml extra.alternate)");

/** The page's language, as the build wrote it into <html lang> (tools/build/i18n.py); the default if it is not one of ours. */
export function pageLanguage() {
  const lang = (document.documentElement.lang || "").toLowerCase().split("-")[0];
  return LANGUAGES.includes(lang) ? lang : LANGUAGES[0];
}

// Only the page's own language is fetched, and of it only the shared words (strings/<lang>.js) and the
// words of the widgets the page mounts (strings/<lang>/<widget>.js, which each widget loads: loadWidgetStrings): every widget's words
// in every language would cost a phone on a slow network bytes it never shows. A link into the other
// language is a full page load (docs/javascripts/alternate.js), so the language cannot change under this module.
const STRINGS = { ...(await import(`./strings/${pageLanguage()}.js`)).default };

/** Adds widget ``name``'s words in the page's language to the table; each widget module awaits it at its top. */
export async function loadWidgetStrings(name) {
  Object.assign(STRINGS, (await import(`./strings/${pageLanguage()}/${name}.js`)).default);
}

/** The page language's string table. */
export function strings() {
  return STRINGS;
}

/** t("sin-clock.rate", { n: 10 }): a text of the page's language with its {fields} filled in (and its plural
 *  choices, {n:token|tokens}, made: posenc-math/format.js fillText). */
export function t(key, values = {}) {
  const text = strings()[key];
  if (text === undefined) throw new Error(`docs/javascripts/widgets/strings/${pageLanguage()}.js has no ${key}`);
  return fillText(text, values, pageLanguage());
}

/** posenc-math's parseInput with its messages in the page's language. */
export function parseInput(text, spec) {
  return parseNumber(text, spec, strings());
}

const SVG_NS = "http://www.w3.org/2000/svg";
let counter = 0;

/** A page-unique id (instant navigation keeps the counter, so ids never repeat). */
export function uid(prefix) {
  counter += 1;
  return `pe-${prefix}-${counter}`;
}

function build(el, props, children) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") el.textContent = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** h("p", { class: "x", onclick: f }, "text", child): an HTML element. */
export function h(tag, props, ...children) {
  return build(document.createElement(tag), props, children);
}

/** Replace el's children (arrays are flattened, null/false skipped). */
export function fill(el, ...children) {
  el.replaceChildren();
  return build(el, {}, children);
}

/** The same for SVG elements. */
export function s(tag, props, ...children) {
  return build(document.createElementNS(SVG_NS, tag), props, children);
}

/**
 * A displayed number: formatted text plus its full-precision copy in data-value
 * (what the browser tests compare with posenc).
 */
export function num(value, text, props = {}) {
  const span = h("span", { class: "pe-num", ...props });
  setNum(span, value, text);
  return span;
}

export function setNum(span, value, text) {
  span.dataset.value = fullPrecision(value);
  span.textContent = Number.isFinite(value) ? text : "—";
}

/** A button with visible text (type=button so it never submits anything). */
export function button(text, onClick, props = {}) {
  return h("button", { type: "button", class: "md-button pe-button", onclick: onClick, ...props }, text);
}

/** The phone keyboard for a kind of number: decimals, whole numbers, or (when it may be negative) full text for the minus sign. */
function inputMode({ kind, min = -1 }) {
  if (kind === "base" || kind === "factor" || kind === "real") return "decimal";
  return kind === "int" && min < 0 ? "text" : "numeric";
}

/**
 * A labelled number box with its own inline error message.
 * spec is parseInput's { label, kind, min, max }; onValue(value) runs for each valid entry.
 * kept() names what the result was computed from, for a widget that needs all boxes valid (default: this box's last entry).
 * Returns { wrap, input, read(), set(value), showError(message) }: showError flags a valid
 * number that does not fit the other inputs (or clears the flag with "").
 */
export function numberField(spec, initial, onValue, { name = "", size = 9, hint = "", kept = null } = {}) {
  const id = uid("in");
  const errId = `${id}-err`;
  const hintId = hint ? `${id}-hint` : null;
  const input = h("input", {
    id,
    type: "text",
    inputmode: inputMode(spec),
    autocomplete: "off",
    spellcheck: "false",
    size,
    value: String(initial),
    "data-pe-input": name,
    "aria-describedby": [hintId, errId].filter(Boolean).join(" "),
  });
  const error = h("span", { id: errId, class: "pe-field__error", "data-pe-error": name, "aria-live": "polite" });
  const wrap = h(
    "div",
    { class: "pe-field" },
    h("label", { for: id }, spec.label),
    input,
    hint ? h("span", { id: hintId, class: "pe-field__hint" }, hint) : null,
    error,
  );
  // recomputed per key: under a bad entry the result is the last entry taken (50 on the way to 500), named
  let lastGood = String(initial);
  function showError(message) {
    input.setAttribute("aria-invalid", message ? "true" : "false");
    error.textContent = message ? t("kept_last", { message, last: kept ? kept() : lastGood }) : "";
    wrap.classList.toggle("pe-field--invalid", Boolean(message));
  }
  function read() {
    const r = parseInput(input.value, spec);
    showError(r.ok ? "" : r.message);
    return r;
  }
  input.addEventListener("input", () => {
    const r = read();
    if (r.ok) {
      lastGood = input.value.trim();
      onValue(r.value);
    }
  });
  return {
    wrap,
    input,
    read,
    showError,
    set(value) {
      input.value = String(value);
      if (read().ok) lastGood = input.value.trim();
    },
  };
}

/**
 * A range slider that moves with a numberField: the same min, max and step, so every value
 * the slider can reach the box accepts and the other way round. Returns the <input>.
 */
export function slider(label, { min, max, step = 1 }, initial, onValue, name = "") {
  const el = h("input", {
    type: "range",
    min,
    max,
    step,
    value: initial,
    "aria-label": label,
    "data-pe-input": name,
    oninput: () => onValue(Number(el.value)),
  });
  return el;
}

/**
 * A button that may reach a limit: disable(message) greys it out and shows why next to it
 * (the note is the button's description, so a screen reader reads it too); disable("") enables it.
 * Returns { wrap, button, disable }.
 */
export function limitedButton(text, onClick, props = {}) {
  const note = h("span", { id: uid("limit"), class: "pe-limit", "data-pe-limit": "", "aria-live": "polite" });
  const btn = button(text, onClick, { ...props, "aria-describedby": note.id });
  return {
    wrap: h("span", { class: "pe-limited" }, btn, note),
    button: btn,
    disable(message) {
      // A keyboard user who just pressed it keeps their place: focus moves to the explanation.
      const hadFocus = message && document.activeElement === btn;
      btn.disabled = Boolean(message);
      note.textContent = message || "";
      if (hadFocus) {
        note.tabIndex = -1;
        note.focus();
      }
    },
  };
}

/** A labelled <select>; options are [value, text] pairs. */
export function selectField(label, options, initial, onValue, name = "") {
  const id = uid("sel");
  const select = h(
    "select",
    { id, "data-pe-input": name, onchange: () => onValue(select.value) },
    options.map(([value, text]) => h("option", { value, selected: String(value) === String(initial) }, text)),
  );
  return { wrap: h("div", { class: "pe-field" }, h("label", { for: id }, label), select), select };
}

/**
 * A chart's viewBox width: `wide` units, or 5/6 of it on a phone. A chart shrinks to its column (about
 * 300–330 px at 390 px), so a 480-unit chart set its 15-unit labels under 10 px there; at 400 units
 * they stay at 11 px or more (tests/browser/page_checks.py). Decided when the widget's module loads.
 */
export function chartWidth(wide) {
  return window.matchMedia("(max-width: 30em)").matches ? Math.round((wide * 5) / 6) : wide;
}

/** The interactive part's frame: a titled group; returns { root, title }. */
export function frame(el, title) {
  const titleId = uid("title");
  const root = h("div", { class: "pe-live", role: "group", "aria-labelledby": titleId });
  root.append(h("p", { class: "pe-live__title", id: titleId }, title));
  return root;
}

/** Show the interactive part and hide the static figure (screen only; print keeps the figure). */
export function activate(el, root) {
  el.append(root);
  el.classList.add("pe-widget--live");
}

/**
 * A horizontally scrolling box for a wide table: focusable, so keyboard users can scroll it
 * (axe: scrollable-region-focusable), and named, so a screen reader says what it holds.
 */
export function scroller(label, ...children) {
  return h("div", { class: "pe-scroll", tabindex: "0", role: "region", "aria-label": label }, ...children);
}

export class MissingOptions extends Error {}

/**
 * The data-* options a widget needs from its page: every starting value comes from there, written
 * by {{ widget("name", key=value, …) }} from posenc/examples.py WIDGET_DEFAULTS, and no widget keeps
 * a default of its own. spec maps each dataset key to a reader:
 *   "int", "number"    one number                 "numbers"  comma-separated numbers ("3,1024,100000")
 *   "bool"             "true" or "false" (any case) "text"    any text but empty
 *   "text?"            text that may be empty ("" means none: the widget computes or fetches it)
 * limits maps a numeric key to parseInput's { kind, min, max }: a value outside is refused too.
 * Throws MissingOptions naming every attribute that is missing, unreadable or out of range; the
 * caller shows it with showFailure (the static figure stays).
 */
export function pageOptions(el, spec, limits = {}) {
  const out = {};
  const problems = [];
  for (const [key, kind] of Object.entries(spec)) {
    const attr = `data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    const raw = el.getAttribute(attr);
    if (raw === null || (raw.trim() === "" && kind !== "text?")) {
      problems.push(t("option_missing", { attr }));
      continue;
    }
    const text = raw.trim();
    if (kind === "bool") {
      if (!/^(true|false)$/i.test(text)) problems.push(t("option_bool", { attr, raw }));
      else out[key] = text.toLowerCase() === "true";
    } else if (kind === "int" || kind === "number" || kind === "numbers") {
      const list = (kind === "numbers" ? text.split(",") : [text]).map((x) => (x.trim() === "" ? NaN : Number(x)));
      const bad = list.some((v) => !Number.isFinite(v) || (kind === "int" && !Number.isInteger(v)));
      if (bad) problems.push(t(`option_${kind}`, { attr, raw }));
      else {
        const check = limits[key];
        const wrong = check && list.map((v) => parseInput(String(v), { label: attr, ...check })).find((r) => !r.ok);
        if (wrong) problems.push(wrong.message.replace(/[\u3002.]$/, ""));
        else out[key] = kind === "numbers" ? list : list[0];
      }
    } else out[key] = text;
  }
  if (problems.length) throw new MissingOptions(t("options_failed", { problems: problems.join(t("list_join")) }));
  return out;
}

/**
 * pageOptions, or (when the page's options are missing or wrong) the message in the mount point
 * and an error for index.js to log: the widget does not start and the static figure stays.
 */
export function pageOptionsOrFail(el, spec, limits = {}) {
  try {
    return pageOptions(el, spec, limits);
  } catch (err) {
    return refuse(el, err.message);
  }
}

/** Options that do not fit together (or data that cannot be used): say so in the mount point, and stop. */
export function refuse(el, message) {
  showFailure(el, message);
  throw new MissingOptions(message);
}

/** Show why a widget did not start, inside its mount point (the static figure stays). */
export function showFailure(el, message) {
  el.append(h("p", { class: "pe-field__error", role: "status", "data-pe-failure": "" }, message));
}

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * An animation loop that calls step(dtSeconds) every frame while running and
 * stops for good once `el` has left the document (Material's instant
 * navigation swaps the page without a reload). Nothing starts it but start().
 */
export function animation(el, step, onStop = () => {}) {
  let frame = 0;
  let last = 0;
  const tick = (now) => {
    if (!el.isConnected) return stop();
    const dt = last ? Math.min(0.1, (now - last) / 1000) : 0;
    last = now;
    step(dt);
    if (frame) frame = requestAnimationFrame(tick);
  };
  function start() {
    if (frame || !el.isConnected) return;
    last = 0;
    frame = requestAnimationFrame(tick);
  }
  function stop() {
    if (!frame) return;
    cancelAnimationFrame(frame);
    frame = 0;
    onStop();
  }
  return { start, stop, get running() { return frame !== 0; } };
}

/** Fill colour for t in [0, 1]: viridis, readable on light and dark backgrounds. */
const VIRIDIS = ["#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779", "#6ece58", "#b5de2b", "#fde725"];
export function viridis(t) {
  const x = Math.min(1, Math.max(0, t)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(x));
  const f = x - i;
  const a = VIRIDIS[i].match(/\w\w/g).map((c) => parseInt(c, 16));
  const b = VIRIDIS[i + 1].match(/\w\w/g).map((c) => parseInt(c, 16));
  const rgb = a.map((v, j) => Math.round(v + (b[j] - v) * f));
  // relative luminance (WCAG); below 0.179 white text contrasts more than black
  const lin = rgb.map((c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4));
  const lum = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
  return { fill: `rgb(${rgb.join(",")})`, dark: lum < 0.179 };
}
