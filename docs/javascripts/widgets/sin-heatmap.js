// sin-heatmap (lesson 3): PE(a)·PE(b) for every pair of characters in a sentence.
// "整句往后平移" adds `shift` to every position; the colours are set by a scale
// that depends on the distance only (Σ cos(kω_i) for |k| < n), so equal values
// keep equal colours, and the widget prints the largest change it computed.
// The page passes every starting value (data-*, all required; this file holds no defaults;
// posenc/examples.py WIDGET_DEFAULTS["sin-heatmap"] is what the widget() macro writes):
//   data-sentence  the characters, one per position (at most MAX_CHARS)
//   data-shift     how far one press of the shift button moves the sentence (≥ 1)
//   data-d, data-base   the encoding (d even, base > 1);  data-start  the first character's position
import { formatInt, formatNumber, formatSci, MAX_INPUT } from "../posenc-math/format.js";
import { dotClosedForm, dotMatrix, maxAbsDiff } from "../posenc-math/sinusoidal.js";
import { activate, fill, button, frame, h, limitedButton, num, numberField, pageOptionsOrFail, refuse, scroller, setNum, viridis } from "./_ui.js";

const MAX_CHARS = 16; // a row of the table still fits a phone's scroll box

export function mount(el) {
  const opt = pageOptionsOrFail(el, { sentence: "text", shift: "int", d: "int", base: "number", start: "int" }, {
    shift: { kind: "int", min: 1 },
    d: { kind: "dim", max: 4096 },
    base: { kind: "base" },
    start: { kind: "position" },
  });
  const chars = Array.from(opt.sentence);
  if (chars.length > MAX_CHARS) refuse(el, `页内实验的参数不合要求：data-sentence 有 ${chars.length} 个字，这个演示最多 ${MAX_CHARS} 个。下面是构建时画好的静态图。`);
  const n = chars.length;
  const state = { start: opt.start };
  const root = frame(el, `试一试：「${opt.sentence}」两两位置的点积 PE(a)·PE(b)`);

  const startField = numberField({ label: "第一个字的位置", kind: "position" }, state.start, (v) => setStart(v, false), { name: "start" });
  const shiftBtn = limitedButton(`整句往后平移 +${opt.shift}`, () => setStart(state.start + opt.shift, true), { "data-pe-shift": "" });
  const resetBtn = button("回到位置 0", () => setStart(0, true), { "data-pe-reset": "" });

  // One colour scale for every start: entry (a, b) equals Σ cos((b − a)ω_i), a function of the distance.
  const byDistance = Array.from({ length: n }, (_, k) => dotClosedForm(k, opt.d, opt.base));
  const lo = Math.min(...byDistance);
  const hi = Math.max(...byDistance);
  const reference = dotMatrix(chars.map((_, j) => j), opt.d, opt.base);

  const table = h("table", { class: "pe-heatmap" });
  const diff = num(0, "0", { "data-pe-out": "max-diff" });
  const startShown = num(state.start, "0", { "data-pe-out": "start" });
  const readout = h(
    "div",
    { class: "pe-readout", "aria-live": "polite" },
    h("p", {}, "整句从位置 ", startShown, " 开始。和从位置 0 开始相比，", `${n}×${n} = ${n * n}`, " 格里最大的差值是 ", diff, "：只是浮点舍入，颜色一格不变。"),
  );
  root.append(h("div", { class: "pe-controls" }, startField.wrap, shiftBtn.wrap, resetBtn), scroller("点积表（可左右滚动）", table), readout);

  function setStart(start, fromButton) {
    state.start = start;
    if (fromButton) startField.set(start);
    render();
  }

  function render() {
    const pos = chars.map((_, j) => state.start + j);
    const m = dotMatrix(pos, opt.d, opt.base);
    const caption = h("caption", {}, `PE(a)·PE(b)（d = ${opt.d}，base = ${formatInt(opt.base)}）；行和列标出每个字和它的位置。`);
    const head = h("tr", {}, h("td", {}), pos.map((p, j) => h("th", { scope: "col" }, chars[j], h("br"), h("small", {}, formatInt(p)))));
    const rows = m.map((row, a) =>
      h(
        "tr",
        {},
        h("th", { scope: "row" }, `${chars[a]} `, h("small", {}, formatInt(pos[a]))),
        row.map((v, b) => {
          const c = viridis((v - lo) / (hi - lo));
          return h(
            "td",
            { style: `background:${c.fill};color:${c.dark ? "#fff" : "#111"}`, "data-a": a, "data-b": b },
            num(v, formatNumber(v, 2), { "data-pe-cell": `${a},${b}` }),
          );
        }),
      ),
    );
    fill(table, caption, h("thead", {}, head), h("tbody", {}, rows));
    const d = maxAbsDiff(m, reference);
    setNum(diff, d, formatSci(d, 1));
    setNum(startShown, state.start, formatInt(state.start));
    shiftBtn.disable(
      state.start + opt.shift > MAX_INPUT ? `再平移 +${opt.shift}，第一个字的位置就超过这个演示的最大值 ${formatInt(MAX_INPUT)}（10⁹），按钮先停用；把位置改小一些再试。` : "",
    );
  }

  render();
  activate(el, root);
}
