// sin-heatmap (lesson 3): PE(a)·PE(b) for every pair of characters in a sentence.
// The shift button adds `shift` to every position; the colours are set by a scale
// that depends on the distance only (Σ cos(kω_i) for |k| < n), so equal values
// keep equal colours, and the widget prints the largest change it computed.
// The page passes every starting value (data-*, all required; this file holds no defaults;
// posenc/examples.py WIDGET_DEFAULTS["sin-heatmap"] is what the widget() macro writes):
//   data-sentence  the page's edition's sentence: its characters, or on an English page its words separated by
//                  spaces, one token per position (at most MAX_CHARS)
//   data-shift     how far one press of the shift button moves the sentence (≥ 1)
//   data-d, data-base   the encoding (d even, base > 1);  data-start  the first character's position
import { formatInt, formatNumber, formatSci, MAX_INPUT } from "../posenc-math/format.js";
import { dotClosedForm, dotMatrix, maxAbsDiff } from "../posenc-math/sinusoidal.js";
import { activate, fill, button, frame, h, limitedButton, num, numberField, pageLanguage, pageOptionsOrFail, refuse, scroller, setNum, t, viridis, loadWidgetStrings } from "./_ui.js";

await loadWidgetStrings("sin-heatmap"); // this widget's words in the page's language (strings/<lang>/sin-heatmap.js)

const MAX_CHARS = 16; // a row of the table still fits a phone's scroll box

export function mount(el) {
  const opt = pageOptionsOrFail(el, { sentence: "text", shift: "int", d: "int", base: "number", start: "int" }, {
    shift: { kind: "int", min: 1 },
    d: { kind: "dim", max: 4096 },
    base: { kind: "base" },
    start: { kind: "position" },
  });
  const chars = pageLanguage() === "en" ? opt.sentence.trim().split(/\s+/) : Array.from(opt.sentence); // posenc/tokenize.py
  if (chars.length > MAX_CHARS) refuse(el, t("sin-heatmap.too_long", { n: chars.length, max: MAX_CHARS }));
  const n = chars.length;
  const state = { start: opt.start };
  const root = frame(el, t("sin-heatmap.title", { sentence: opt.sentence }));

  const startField = numberField({ label: t("sin-heatmap.start"), kind: "position" }, state.start, (v) => setStart(v, false), { name: "start" });
  const shiftBtn = limitedButton(t("sin-heatmap.shift", { shift: opt.shift }), () => setStart(state.start + opt.shift, true), { "data-pe-shift": "" });
  const resetBtn = button(t("sin-heatmap.reset"), () => setStart(0, true), { "data-pe-reset": "" });

  // One colour scale for every start: entry (a, b) equals Σ cos((b − a)ω_i), a function of the distance.
  const byDistance = Array.from({ length: n }, (_, k) => dotClosedForm(k, opt.d, opt.base));
  const lo = Math.min(...byDistance);
  const hi = Math.max(...byDistance);
  const reference = dotMatrix(chars.map((_, j) => j), opt.d, opt.base);

  const table = h("table", { class: "pe-heatmap" });
  const diff = num(0, "0", { "data-pe-out": "max-diff" });
  const startShown = num(state.start, "0", { "data-pe-out": "start" });
  // At start 0 the table is the reference itself: comparing it with itself would say nothing, so the readout says what
  // to do instead, and the comparison shows once the sentence has moved.
  const reference0 = h("p", {}, t("sin-heatmap.readout_reference"));
  const compared = h("p", {}, t("sin-heatmap.readout_1"), startShown, t("sin-heatmap.readout_2", { n, cells: n * n }), diff, t("sin-heatmap.readout_3"));
  const readout = h("div", { class: "pe-readout", "aria-live": "polite" }, reference0, compared);
  root.append(h("div", { class: "pe-controls" }, startField.wrap, shiftBtn.wrap, resetBtn), scroller(t("sin-heatmap.table"), table), readout);

  function setStart(start, fromButton) {
    state.start = start;
    if (fromButton) startField.set(start);
    render();
  }

  function render() {
    const pos = chars.map((_, j) => state.start + j);
    const m = dotMatrix(pos, opt.d, opt.base);
    const caption = h("caption", {}, t("sin-heatmap.caption", { d: opt.d, base: formatInt(opt.base) }));
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
    reference0.hidden = state.start !== 0;
    compared.hidden = state.start === 0;
    shiftBtn.disable(
      state.start + opt.shift > MAX_INPUT ? t("sin-heatmap.at_limit", { shift: opt.shift, max: formatInt(MAX_INPUT) }) : "",
    );
  }

  render();
  activate(el, root);
}
