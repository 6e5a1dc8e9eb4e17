// swap-attention (lesson 1): swap two characters and compare each character's attention output.
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
import { formatNumber, formatSci } from "../posenc-math/format.js";
import { encode } from "../posenc-math/sinusoidal.js";
import { attention, mulberry32, randomMatrix } from "../posenc-math/attention.js";
import { activate, fill, button, frame, h, num, pageOptionsOrFail, refuse, scroller, selectField, uid } from "./_ui.js";

const MAX_CHARS = 12;
const HEADERS = ["字 原→新位置", "差值（不加位置）", "差值（加位置）", "原句里的输出", "交换后的输出"];

/** Why (sentence, i, j) cannot start the widget, or "" when it can. */
function swapError(text, i, j) {
  const n = Array.from(text || "").length;
  if (n < 2 || n > MAX_CHARS) return `要 2 … ${MAX_CHARS} 个字，收到 ${n} 个`;
  if (![i, j].every((k) => Number.isInteger(k) && k >= 0 && k < n) || i === j) return `要两个不同的位置 0 … ${n - 1}，收到 ${i} 和 ${j}`;
  return "";
}

function head(d, seed) {
  const rand = mulberry32(seed);
  const std = 1 / Math.sqrt(d);
  return { wq: randomMatrix(rand, d, d, std), wk: randomMatrix(rand, d, d, std), wv: randomMatrix(rand, d, d, std) };
}

function tokenVector(ch, d, seed, given) {
  if (given && given.vectors && given.vectors[ch]) return Float64Array.from(given.vectors[ch]);
  return randomMatrix(mulberry32(Math.imul(seed, 0x9e3779b1) ^ ch.codePointAt(0)), 1, d)[0];
}

function inputs(chars, d, seed, withPositions, given) {
  return chars.map((ch, p) => {
    const x = tokenVector(ch, d, seed, given);
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
  const bad = (what) => refuse(el, `页内实验的参数不合要求：${what}。下面是构建时画好的静态图。`);
  const presetList = opt.presets.split(",").map((item) => {
    const [t, i, j] = item.split(":");
    if (swapError(t, Number(i), Number(j))) bad(`data-presets 里的「${item}」${swapError(t, Number(i), Number(j))}`);
    return [t, Number(i), Number(j)];
  });
  if (swapError(opt.sentence, opt.swapI, opt.swapJ)) bad(`data-sentence、data-swap-i、data-swap-j ${swapError(opt.sentence, opt.swapI, opt.swapJ)}`);
  let given = null;
  try {
    given = opt.head ? JSON.parse(opt.head) : null;
  } catch (err) {
    bad(`data-head 不是 JSON（${err.message}）`);
  }
  const w = given ? { wq: given.w_q, wk: given.w_k, wv: given.w_v } : head(opt.d, opt.seed);
  const state = { text: opt.sentence, i: opt.swapI, j: opt.swapJ, mode: "nopos" };
  const root = frame(el, "试一试：交换两个字，看每个字的注意力输出变不变");
  root.dataset.weights = JSON.stringify({ w_q: w.wq.map((r) => Array.from(r)), w_k: w.wk.map((r) => Array.from(r)), w_v: w.wv.map((r) => Array.from(r)) });

  const textId = uid("in");
  const textErr = h("span", { class: "pe-field__error", id: `${textId}-err`, "aria-live": "polite", "data-pe-error": "sentence" });
  const textInput = h("input", {
    id: textId,
    type: "text",
    size: 12,
    value: state.text,
    autocomplete: "off",
    "data-pe-input": "sentence",
    "aria-describedby": textErr.id,
    oninput: () => setText(textInput.value),
  });
  const presets = h(
    "div",
    { class: "pe-presets", role: "group", "aria-label": "预设句子" },
    h("span", { class: "pe-presets__label" }, "预设："),
    presetList.map(([t, i, j]) =>
      button(t, () => {
        textInput.value = t;
        [state.i, state.j] = [i, j];
        setText(t);
      }, { "data-preset": t }),
    ),
  );
  const pickers = h("div", { class: "pe-controls" });
  const modeName = uid("mode");
  const modes = h(
    "fieldset",
    { class: "pe-radios" },
    h("legend", {}, "表格里的输出向量"),
    [
      ["nopos", "不加位置"],
      ["pos", "加上位置向量 PE(p)"],
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
  const readout = h("div", { class: "pe-readout" }, h("div", { "aria-live": "polite" }, sentences, summary), scroller("每个字的输出表（可左右滚动）", table), source);
  root.append(
    h("div", { class: "pe-controls" }, h("div", { class: "pe-field" }, h("label", { for: textId }, "句子"), textInput, textErr), presets),
    pickers,
    modes,
    readout,
  );

  function setText(raw) {
    const chars = Array.from(raw.trim());
    let message = "";
    if (chars.length < 2) message = "句子至少要两个字，才有东西可以交换。";
    else if (chars.length > MAX_CHARS) message = `句子在这个演示里最多 ${MAX_CHARS} 个字，现在是 ${chars.length} 个。`;
    textInput.setAttribute("aria-invalid", message ? "true" : "false");
    textErr.textContent = message ? `${message}（下面仍是上一次有效输入的结果。）` : "";
    if (message) return;
    state.text = chars.join("");
    state.i = Math.min(state.i, chars.length - 1);
    state.j = Math.min(state.j, chars.length - 1);
    if (state.i === state.j) [state.i, state.j] = [0, chars.length - 1];
    drawPickers();
    render();
  }

  function drawPickers() {
    const chars = Array.from(state.text);
    const list = chars.map((c, k) => [String(k), `${k}：${c}`]);
    const a = selectField("交换位置", list, state.i, (v) => ((state.i = Number(v)), render()), "i");
    const b = selectField("和位置", list, state.j, (v) => ((state.j = Number(v)), render()), "j");
    fill(pickers, a.wrap, b.wrap);
  }

  function render() {
    const chars = Array.from(state.text);
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
    root.dataset.inputs = JSON.stringify({ text: state.text, swapped: swapped.join(""), perm, ...data });
    const diffs = {};
    for (const mode of ["nopos", "pos"]) {
      const { a, b } = results[mode];
      diffs[mode] = chars.map((_, k) => a[k].reduce((m, v, c) => Math.max(m, Math.abs(b[where[k]][c] - v)), 0));
    }
    fill(sentences,
      "原句「", h("strong", { "data-pe-out": "sentence-a" }, state.text), "」，交换位置 ", String(state.i), " 和 ", String(state.j), " 后是「",
      h("strong", { "data-pe-out": "sentence-b" }, swapped.join("")), "」。",
    );
    const { a, b } = results[state.mode];
    fill(table,
      h("caption", {}, `同一个字在两种顺序下输出的最大差值，以及它的输出向量（d = ${opt.d}，${state.mode === "pos" ? "加上位置向量" : "不加位置"}）`),
      h(
        "thead",
        {},
        h("tr", {}, HEADERS.map((t) => h("th", { scope: "col" }, t))),
      ),
      h(
        "tbody",
        {},
        chars.map((c, k) =>
          h(
            "tr",
            { "data-pe-row": k },
            h("th", { scope: "row" }, `${c} ${k}→${where[k]}`),
            h("td", { "data-label": HEADERS[1] }, num(diffs.nopos[k], formatSci(diffs.nopos[k], 1), { "data-pe-diff": `nopos-${k}` })),
            h("td", { "data-label": HEADERS[2] }, num(diffs.pos[k], formatNumber(diffs.pos[k], 3), { "data-pe-diff": `pos-${k}` })),
            h("td", { class: "pe-vec", "data-label": HEADERS[3] }, ...vecNums(a[k], `a-${k}`)),
            h("td", { class: "pe-vec", "data-label": HEADERS[4] }, ...vecNums(b[where[k]], `b-${k}`)),
          ),
        ),
      ),
    );
    table.dataset.mode = state.mode;
    const exact = given && chars.every((c) => given.vectors && given.vectors[c]);
    source.dataset.exact = exact ? "1" : "0";
    source.textContent = exact
      ? `权重和字向量与本页静态图相同（posenc 用 numpy 生成，种子 ${opt.seed}）。`
      : `这里的随机权重和字向量由浏览器里的 mulberry32 生成（种子 ${opt.seed}），数值和静态图不同；要看的性质一样：不加位置时差值只是舍入，加上位置就不是。`;
    const maxNo = Math.max(...diffs.nopos);
    const maxPos = Math.max(...diffs.pos);
    fill(summary,
      "不加位置：每个字的输出在两种顺序下完全一样（最大差值 ", num(maxNo, formatSci(maxNo, 1), { "data-pe-out": "max-nopos" }),
      "，只是浮点舍入）。加上位置向量：同一个字换了位置，输出就变了（最大差值 ", num(maxPos, formatNumber(maxPos, 3), { "data-pe-out": "max-pos" }), "）。",
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
