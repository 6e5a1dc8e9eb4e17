// swap-attention (lesson 1): swap two tokens and compare each token's attention output.
//
// The same algorithm as posenc/attention.py: one head, no mask,
//   Out = softmax(Q Kᵀ / √d) V,  Q = X W_q, K = X W_k, V = X W_v,
// W_* with N(0, 1/d) entries, a N(0, 1) vector per character, and, with
// positions, the sinusoidal row PE(p) added to the token at position p.
// Where the numbers come from:
//   * data-head (JSON {w_q, w_k, w_v, vectors: {char: [...]}}), written at build
//     from posenc.attention.make_head / token_vectors: then the page shows
//     exactly posenc's numbers for every character listed there;
//   * otherwise (and for characters the JSON lacks) the browser draws them with
//     mulberry32 (posenc-math.js), since numpy's generator is not available here:
//     weights from mulberry32(seed) in the order W_q, W_k, W_v (row by row), the
//     vector of code point t from mulberry32(imul(seed, 0x9E3779B1) ^ t). The
//     numbers then differ from the static figure; the property does not.
// The live root carries what it used in data-weights / data-inputs (JSON), so
// the browser tests recompute every output with posenc.
// The page passes every starting value (data-*, all required; this file holds no defaults;
// posenc/examples.py WIDGET_DEFAULTS["swap-attention"] is what the widget() macro writes):
//   data-sentence, data-swap-i, data-swap-j   the sentence and the two positions swapped first
//   data-d, data-seed   the head's width (even: the positions are lesson 3's sinusoidal rows) and seed
//   data-presets        the preset sentences, "sentence:i:j,sentence:i:j"
//   data-head           posenc's weights and vectors as JSON, or "" to draw them in the browser
// Tokens (posenc/tokenize.py). On a Chinese page one character is one token, its vector seeded by its code
// point; on an English page one word (or punctuation mark) is one token, its vector seeded by the 32-bit FNV-1a
// hash of the word. data-sentence and data-presets are the page's edition's own examples (posenc.examples.texts).
import { formatNumber, formatTiny } from "../posenc-math/format.js";
import { encode } from "../posenc-math/sinusoidal.js";
import { attention, mulberry32, randomMatrix } from "../posenc-math/attention.js";
import { activate, fill, button, frame, h, num, pageLanguage, pageOptionsOrFail, refuse, scroller, selectField, t, uid, loadWidgetStrings } from "./_ui.js";

await loadWidgetStrings("swap-attention"); // this widget's words in the page's language (strings/<lang>/swap-attention.js)

const MAX_TOKENS = 12;

/** Whether a token is a word (an English page) or a character (a Chinese page); asked at each use, since
 * instant navigation keeps this module loaded from one page to the next. */
function inWords() {
  return pageLanguage() === "en";
}

/** The tokens of a sentence as the page writes it: words on an English page, characters on a Chinese one. */
function tokensOf(text) {
  return inWords() ? (text || "").trim().split(/\s+/).filter(Boolean) : Array.from((text || "").trim());
}

function joinTokens(tokens) {
  return tokens.join(inWords() ? " " : "");
}

/** Why (tokens, i, j) cannot start the widget, or "" when it can. */
function swapError(tokens, i, j) {
  const n = tokens.length;
  if (n < 2 || n > MAX_TOKENS) return t("swap-attention.count_bad", { max: MAX_TOKENS, n });
  if (![i, j].every((k) => Number.isInteger(k) && k >= 0 && k < n) || i === j) return t("swap-attention.positions_bad", { last: n - 1, i, j });
  return "";
}

/** FNV-1a over the UTF-16 code units: a word's stand-in for a code point when it seeds the browser's vector. */
function hashWord(word) {
  let x = 0x811c9dc5;
  for (let k = 0; k < word.length; k += 1) x = Math.imul(x ^ word.charCodeAt(k), 0x01000193);
  return x >>> 0;
}

function head(d, seed) {
  const rand = mulberry32(seed);
  const std = 1 / Math.sqrt(d);
  return { wq: randomMatrix(rand, d, d, std), wk: randomMatrix(rand, d, d, std), wv: randomMatrix(rand, d, d, std) };
}

/** The vector of token ``key``: a character (seeded by its code point) or a word (by its hash), as posenc.tokenize. */
function tokenVector(key, d, seed, given) {
  if (given && given.vectors && given.vectors[key]) return Float64Array.from(given.vectors[key]);
  const id = inWords() ? hashWord(key) : key.codePointAt(0);
  return randomMatrix(mulberry32(Math.imul(seed, 0x9e3779b1) ^ id), 1, d)[0];
}

function inputs(keys, d, seed, withPositions, given) {
  return keys.map((key, p) => {
    const x = tokenVector(key, d, seed, given);
    if (withPositions) encode(p, d).forEach((v, c) => (x[c] += v));
    return x;
  });
}

export function mount(el) {
  const opt = pageOptionsOrFail(
    el,
    { sentence: "text", swapI: "int", swapJ: "int", d: "int", seed: "int", presets: "text", head: "text?" },
    { d: { kind: "dim", max: 64 }, seed: { kind: "int", min: 0 } },
  );
  const bad = (what) => refuse(el, t("swap-attention.bad", { what }));
  const presetList = opt.presets.split(",").map((item) => {
    const [raw, i, j] = item.split(":");
    const text = raw;
    const why = swapError(tokensOf(text), Number(i), Number(j));
    if (why) bad(t("swap-attention.bad_preset", { item, why }));
    return [text, Number(i), Number(j)];
  });
  const start = opt.sentence;
  const why = swapError(tokensOf(start), opt.swapI, opt.swapJ);
  if (why) bad(t("swap-attention.bad_start", { why }));
  let given = null;
  try {
    given = opt.head ? JSON.parse(opt.head) : null;
  } catch (err) {
    bad(t("swap-attention.bad_head", { error: err.message }));
  }
  const w = given ? { wq: given.w_q, wk: given.w_k, wv: given.w_v } : head(opt.d, opt.seed);
  const state = { text: start, i: opt.swapI, j: opt.swapJ, mode: "nopos" };
  const root = frame(el, t("swap-attention.title"));
  root.dataset.weights = JSON.stringify({ w_q: w.wq.map((r) => Array.from(r)), w_k: w.wk.map((r) => Array.from(r)), w_v: w.wv.map((r) => Array.from(r)) });

  const textId = uid("in");
  const textErr = h("span", { class: "pe-field__error", id: `${textId}-err`, "aria-live": "polite", "data-pe-error": "sentence" });
  const textInput = h("input", {
    id: textId,
    type: "text",
    size: inWords() ? 24 : 12,
    value: state.text,
    autocomplete: "off",
    "data-pe-input": "sentence",
    "aria-describedby": textErr.id,
    oninput: () => setText(textInput.value),
  });
  const presets = h(
    "div",
    { class: "pe-presets", role: "group", "aria-label": t("swap-attention.presets") },
    h("span", { class: "pe-presets__label" }, t("swap-attention.presets_label")),
    presetList.map(([text, i, j]) =>
      button(text, () => {
        textInput.value = text;
        [state.i, state.j] = [i, j];
        setText(text);
      }, { "data-preset": text }),
    ),
  );
  const pickers = h("div", { class: "pe-controls" });
  const modeName = uid("mode");
  const modes = h(
    "fieldset",
    { class: "pe-radios" },
    h("legend", {}, t("swap-attention.modes")),
    [
      ["nopos", t("swap-attention.mode_nopos")],
      ["pos", t("swap-attention.mode_pos")],
    ].map(([value, text]) =>
      h(
        "label",
        {},
        h("input", { type: "radio", name: modeName, value, checked: value === state.mode, "data-pe-input": `mode-${value}`, onchange: () => ((state.mode = value), render()) }),
        ` ${text}`,
      ),
    ),
  );
  const sentences = h("p", { class: "pe-sentences" });
  // on a phone, one card per character (extra.css, table[data-pe-cards]): each value after its column's name
  const table = h("table", { class: "pe-table pe-swap", "data-pe-cards": "" });
  const summary = h("p", {});
  const source = h("p", { class: "pe-note", "data-pe-out": "source" });
  const readout = h("div", { class: "pe-readout" }, h("div", { "aria-live": "polite" }, sentences, summary), scroller(t("swap-attention.table_label"), table), source);
  root.append(
    h("div", { class: "pe-controls" }, h("div", { class: "pe-field" }, h("label", { for: textId }, t("swap-attention.sentence", { max: MAX_TOKENS })), textInput, textErr), presets),
    pickers,
    modes,
    readout,
  );

  function setText(raw) {
    const tokens = tokensOf(raw);
    let message = "";
    if (tokens.length < 2) message = t("swap-attention.too_short");
    else if (tokens.length > MAX_TOKENS) message = t("swap-attention.too_long", { max: MAX_TOKENS, n: tokens.length });
    textInput.setAttribute("aria-invalid", message ? "true" : "false");
    textErr.textContent = message ? t("kept_last", { message, last: t("swap-attention.quoted", { text: state.text }) }) : "";
    if (message) return;
    state.text = joinTokens(tokens);
    state.i = Math.min(state.i, tokens.length - 1);
    state.j = Math.min(state.j, tokens.length - 1);
    if (state.i === state.j) [state.i, state.j] = [0, tokens.length - 1];
    drawPickers();
    render();
  }

  function drawPickers() {
    const tokens = tokensOf(state.text);
    const list = tokens.map((c, k) => [String(k), t("swap-attention.pick", { k, token: c })]);
    const a = selectField(t("swap-attention.swap_at"), list, state.i, (v) => ((state.i = Number(v)), render()), "i");
    const b = selectField(t("swap-attention.swap_with"), list, state.j, (v) => ((state.j = Number(v)), render()), "j");
    fill(pickers, a.wrap, b.wrap);
  }

  function render() {
    const headers = ["head_token", "head_nopos", "head_pos", "head_out_a", "head_out_b"].map((k) => t(`swap-attention.${k}`));
    const chars = tokensOf(state.text); // the tokens: characters, or words on an English page
    const perm = chars.map((_, k) => (k === state.i ? state.j : k === state.j ? state.i : k)); // row k of B = row perm[k] of A
    const swapped = perm.map((k) => chars[k]);
    const where = chars.map((_, k) => perm.indexOf(k)); // original row k now sits at where[k]
    const results = {};
    const data = {};
    for (const [mode, withPos] of [["nopos", false], ["pos", true]]) {
      const xa = inputs(chars, opt.d, opt.seed, withPos, given);
      const xb = inputs(swapped, opt.d, opt.seed, withPos, given);
      results[mode] = { a: attention(xa, w.wq, w.wk, w.wv).out, b: attention(xb, w.wq, w.wk, w.wv).out };
      data[mode] = { a: xa.map((r) => Array.from(r)), b: xb.map((r) => Array.from(r)) };
    }
    root.dataset.inputs = JSON.stringify({ text: state.text, swapped: joinTokens(swapped), tokens: chars, perm, ...data });
    const diffs = {};
    for (const mode of ["nopos", "pos"]) {
      const { a, b } = results[mode];
      diffs[mode] = chars.map((_, k) => a[k].reduce((m, v, c) => Math.max(m, Math.abs(b[where[k]][c] - v)), 0));
    }
    fill(sentences,
      t("swap-attention.said_1"), h("strong", { "data-pe-out": "sentence-a" }, state.text), t("swap-attention.said_2"), String(state.i),
      t("swap-attention.said_3"), String(state.j), t("swap-attention.said_4"),
      h("strong", { "data-pe-out": "sentence-b" }, joinTokens(swapped)), t("swap-attention.said_5"),
    );
    const { a, b } = results[state.mode];
    fill(table,
      h("caption", {}, t("swap-attention.caption", { d: opt.d, mode: t(state.mode === "pos" ? "swap-attention.caption_pos" : "swap-attention.caption_nopos") })),
      h(
        "thead",
        {},
        h("tr", {}, headers.map((text) => h("th", { scope: "col" }, text))),
      ),
      h(
        "tbody",
        {},
        chars.map((c, k) =>
          h(
            "tr",
            { "data-pe-row": k },
            h("th", { scope: "row" }, `${c} ${k}→${where[k]}`),
            h("td", { "data-label": headers[1] }, num(diffs.nopos[k], formatTiny(diffs.nopos[k]), { "data-pe-diff": `nopos-${k}` })),
            h("td", { "data-label": headers[2] }, num(diffs.pos[k], formatNumber(diffs.pos[k], 3), { "data-pe-diff": `pos-${k}` })),
            h("td", { class: "pe-vec", "data-label": headers[3] }, ...vecNums(a[k], `a-${k}`)),
            h("td", { class: "pe-vec", "data-label": headers[4] }, ...vecNums(b[where[k]], `b-${k}`)),
          ),
        ),
      ),
    );
    table.dataset.mode = state.mode;
    const exact = given && chars.every((c) => given.vectors && given.vectors[c]);
    source.dataset.exact = exact ? "1" : "0";
    source.textContent = t(exact ? "swap-attention.exact" : "swap-attention.drawn", { seed: opt.seed });
    const maxNo = Math.max(...diffs.nopos);
    const maxPos = Math.max(...diffs.pos);
    fill(summary,
      // float64's machine epsilon, the bound the lesson's text quotes for this column (posenc's l1_float_eps)
      t("swap-attention.summary_1"), num(maxNo, formatTiny(maxNo), { "data-pe-out": "max-nopos" }),
      t("swap-attention.summary_eps"), num(Number.EPSILON, formatTiny(Number.EPSILON), { "data-pe-out": "eps" }),
      t("swap-attention.summary_2"), num(maxPos, formatNumber(maxPos, 3), { "data-pe-out": "max-pos" }), t("swap-attention.summary_3"),
    );
  }

  function vecNums(v, key) {
    // two lines of d/2 numbers, so a row fits a phone
    const half = Math.ceil(v.length / 2);
    return Array.from(v, (x, c) => [c === half ? h("br") : c ? ", " : "", num(x, formatNumber(x, 2), { "data-pe-vec": `${key}-${c}` })]).flat();
  }

  drawPickers();
  render();
  activate(el, root);
}
