// alibi-bias (lesson 3b): ALiBi's slope for every head, and for one head the bias −m·r and the
// weight factor exp(−m·r) it puts on a key r tokens back, with the distance ln(f)/m at which the
// bias alone has cut that key's weight f times. The formulas are posenc/relative.py's
// (posenc-math.js alibiSlopes, alibiBias, alibiWeightRatio, alibiReach).
//
// The page passes every starting value (data-*, all required; this file holds no defaults):
//   data-heads     head count n, a positive integer (not only powers of two: 12, BLOOM's 112)
//   data-head      the head shown, h = 1 … n (h = 1 has the largest slope)
//   data-distance  the distance r read out, an integer 0 … span
//   data-span      the plots' distance axis, 0 … span tokens (integer ≥ 1)
//   data-factor    the reach's factor f > 1 (the lesson uses 10: ln 10 / m)
import { formatInt, formatNumber, formatSci } from "../posenc-math/format.js";
import { alibiBias, alibiReach, alibiSlopes, alibiWeightRatio } from "../posenc-math/relative.js";
import { activate, chartWidth, fill, frame, h, num, numberField, pageOptions, s, scroller, selectField, setNum, showFailure, slider, t, loadWidgetStrings } from "./_ui.js";

await loadWidgetStrings("alibi-bias"); // this widget's words in the page's language (strings/<lang>/alibi-bias.js)

const MAX_HEADS = 1024; // a table and a plot of every head still load at once
const MAX_CURVES = 64; // faint weight curves drawn for the other heads (evenly spaced beyond that)
const W = chartWidth(480); // 400 on a phone: its text stays legible (_ui.js)
const H = 220;
const PAD = { l: 52, r: 14, t: 14, b: 40 };

const fmtSlope = (m) => (m >= 0.01 ? formatNumber(m, 4) : formatSci(m, 3));
const fmtWeight = (w) => (w >= 0.001 || w === 0 ? formatNumber(w, 4) : formatSci(w, 2));
const fmtReach = (r) => formatNumber(r, 1);

/** 2^⌊log₂ n⌋: the heads that take the power-of-two sequence. */
function powerOfTwoPart(n) {
  let p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

export function mount(el) {
  let opt;
  try {
    opt = pageOptions(el, { heads: "int", head: "int", distance: "int", span: "int", factor: "number" });
    if (opt.heads < 1 || opt.heads > MAX_HEADS || opt.head < 1 || opt.head > opt.heads || opt.span < 1 || opt.distance < 0 || opt.distance > opt.span || !(opt.factor > 1)) {
      throw new Error(t("alibi-bias.bad_options", { max: formatInt(MAX_HEADS) }));
    }
  } catch (err) {
    showFailure(el, err.message);
    throw err;
  }
  const state = { n: opt.heads, h: opt.head, r: opt.distance, slopes: alibiSlopes(opt.heads) };
  const f = opt.factor;
  const fText = formatNumber(f, Number.isInteger(f) ? 0 : 2);
  const root = frame(el, t("alibi-bias.title"));

  const headsField = numberField({ label: t("alibi-bias.heads"), kind: "int", min: 1, max: MAX_HEADS }, state.n, (v) => setHeads(v), { name: "heads", size: 5 });
  const headPicker = h("div", { class: "pe-field-slot" });
  const headNote = h("p", { class: "pe-status", role: "status", "data-pe-status": "" });
  const range = { min: 0, max: opt.span, step: 1 };
  const rField = numberField({ label: t("alibi-bias.distance"), kind: "int", min: 0, max: opt.span }, state.r, (v) => setR(v, false), { name: "distance", size: 6 });
  const rSlider = slider(t("alibi-bias.distance_slider"), range, state.r, (v) => setR(v, true), "distance-slider");

  const out = {
    h: num(0, "", { "data-pe-out": "head" }),
    slope: num(0, "", { "data-pe-out": "slope" }),
    inverse: num(0, "", { "data-pe-out": "inverse-slope" }),
    r: num(0, "", { "data-pe-out": "distance" }),
    bias: num(0, "", { "data-pe-out": "bias" }),
    weight: num(0, "", { "data-pe-out": "weight" }),
    reach: num(0, "", { "data-pe-out": "reach" }),
  };
  const rule = h("p", { "data-pe-out": "rule" });
  const reachNote = h("span", {});
  const readout = h(
    "div",
    { class: "pe-readout", "aria-live": "polite" },
    h("p", {}, t("alibi-bias.readout_1"), out.h, t("alibi-bias.readout_2"), out.slope, t("alibi-bias.readout_3"), out.inverse,
      t("alibi-bias.readout_4"), out.r, t("alibi-bias.readout_5"), out.bias, t("alibi-bias.readout_6"), out.weight, t("alibi-bias.readout_7")),
    h("p", {}, t("alibi-bias.reach_1", { f: fText }), out.reach, t("alibi-bias.reach_2"), reachNote, t("alibi-bias.reach_3")),
    rule,
  );

  const slopePlot = s("svg", { class: "pe-plot", viewBox: `0 0 ${W} ${H}`, role: "img" });
  const biasPlot = s("svg", { class: "pe-plot", viewBox: `0 0 ${W} ${H}`, role: "img" });
  const weightPlot = s("svg", { class: "pe-plot", viewBox: `0 0 ${W} ${H}`, role: "img" });
  const table = h("table", { class: "pe-table" });
  const tableBox = scroller(t("alibi-bias.table_scroll"), table);
  tableBox.classList.add("pe-scroll--tall");
  root.append(
    h("div", { class: "pe-controls" }, headsField.wrap, headPicker),
    headNote,
    h("div", { class: "pe-controls" }, rField.wrap, h("div", { class: "pe-field pe-field--slider" }, rSlider)),
    readout,
    h("div", { class: "pe-plots" },
      h("figure", { class: "pe-plotbox pe-plotbox--wide" }, h("figcaption", {}, t("alibi-bias.slopes_caption")), slopePlot),
      h("figure", { class: "pe-plotbox" }, h("figcaption", {}, t("alibi-bias.bias_caption")), biasPlot),
      h("figure", { class: "pe-plotbox" },
        h("figcaption", {}, t("alibi-bias.weights_caption")),
        h("ul", { class: "pe-legend", "aria-label": t("alibi-bias.legend") },
          h("li", {}, h("span", { class: "pe-legend__line", "aria-hidden": "true" }), t("alibi-bias.legend_chosen")),
          h("li", {}, h("span", { class: "pe-legend__line pe-legend__line--faint", "aria-hidden": "true" }), t("alibi-bias.legend_others")),
          h("li", {}, h("span", { class: "pe-legend__ref", "aria-hidden": "true" }), t("alibi-bias.legend_ref", { f: fText })),
        ),
        weightPlot,
      ),
    ),
    h("details", {}, h("summary", {}, t("alibi-bias.table_summary", { f: fText })), tableBox),
  );

  function setHeads(n) {
    const slopes = alibiSlopes(n);
    let note = "";
    if (state.h > n) {
      note = t("alibi-bias.head_gone", { h: state.h, n });
      state.h = n;
    }
    Object.assign(state, { n, slopes });
    headNote.textContent = note;
    drawHeadPicker();
    renderAll();
  }

  function setHead(hIndex) {
    state.h = hIndex;
    headNote.textContent = "";
    renderHead();
    drawSlopes();
  }

  function setR(r, fromSlider) {
    state.r = r;
    if (fromSlider) rField.set(r);
    else rSlider.value = String(r);
    renderHead();
  }

  function drawHeadPicker() {
    const options = Array.from(state.slopes, (m, i) => [String(i + 1), t("alibi-bias.head_option", { h: i + 1, m: fmtSlope(m) })]);
    fill(headPicker, selectField(t("alibi-bias.head_pick"), options, state.h, (v) => setHead(Number(v)), "head").wrap);
  }

  function renderAll() {
    const { n, slopes } = state;
    const p = powerOfTwoPart(n);
    fill(rule,
      n === p
        ? t("alibi-bias.rule_power", { n: formatInt(n) })
        : t("alibi-bias.rule_other", { n: formatInt(n), p: formatInt(p), rest: formatInt(n - p), double: formatInt(2 * p) }),
    );
    fill(table,
      h("caption", {}, t("alibi-bias.table_caption", { n: formatInt(n), f: fText }), n === p ? "" : t("alibi-bias.table_caption_extra", { mark: t("alibi-bias.extra_mark") })),
      h("thead", {}, h("tr", {}, [t("alibi-bias.col_head"), t("alibi-bias.col_slope"), "1/a_h", t("alibi-bias.col_reach", { f: fText })].map((c) => h("th", { scope: "col" }, c)))),
      h(
        "tbody",
        {},
        Array.from(slopes, (m, i) => {
          const reach = alibiReach(m, f);
          return h(
            "tr",
            { "data-pe-row": i + 1 },
            h("th", { scope: "row" }, String(i + 1), i >= p ? t("alibi-bias.extra_mark") : ""),
            h("td", {}, num(m, fmtSlope(m), { "data-pe-col": "slope" })),
            h("td", {}, num(1 / m, formatNumber(1 / m, 1), { "data-pe-col": "inverse-slope" })),
            h("td", {}, num(reach, fmtReach(reach), { "data-pe-col": "reach" })),
          );
        }),
      ),
    );
    renderHead();
    drawSlopes();
  }

  function renderHead() {
    const m = state.slopes[state.h - 1];
    const reach = alibiReach(m, f);
    setNum(out.h, state.h, formatInt(state.h));
    setNum(out.slope, m, fmtSlope(m));
    setNum(out.inverse, 1 / m, formatNumber(1 / m, 1));
    setNum(out.r, state.r, formatInt(state.r));
    const b = alibiBias(m, state.r);
    const w = alibiWeightRatio(m, state.r);
    setNum(out.bias, b, formatNumber(b, 3));
    setNum(out.weight, w, fmtWeight(w));
    setNum(out.reach, reach, fmtReach(reach));
    reachNote.textContent = reach > opt.span ? t("alibi-bias.reach_beyond", { span: formatInt(opt.span) }) : "";
    drawBias(m);
    drawWeights(m, reach);
  }

  const x = (r) => PAD.l + (r / opt.span) * (W - PAD.l - PAD.r);
  const xAxis = (svg) => [
    [0, opt.span / 2, opt.span].map((r) => s("text", { class: "pe-plot__tick", x: x(r), y: H - PAD.b + 18, "text-anchor": "middle" }, formatInt(r))),
    s("text", { class: "pe-plot__tick", x: (W + PAD.l) / 2, y: H - 4, "text-anchor": "middle" }, t("alibi-bias.axis_distance")),
  ];

  function drawSlopes() {
    const { n, slopes } = state;
    const p = powerOfTwoPart(n);
    const logs = Array.from(slopes, Math.log2);
    const lo = Math.floor(Math.min(...logs));
    const hi = Math.ceil(Math.max(...logs, 0));
    const px = (i) => PAD.l + ((i + 0.5) / n) * (W - PAD.l - PAD.r);
    const py = (v) => PAD.t + ((hi - v) / (hi - lo || 1)) * (H - PAD.t - PAD.b);
    const radius = Math.max(1.2, Math.min(4, 160 / n));
    const ticks = Array.from({ length: hi - lo + 1 }, (_, k) => lo + k).filter((v, _, all) => all.length <= 9 || v % 2 === 0);
    slopePlot.setAttribute("aria-label", t("alibi-bias.slopes_aria", { n: formatInt(n), first: fmtSlope(slopes[0]), min: fmtSlope(Math.min(...slopes)), h: state.h }));
    fill(slopePlot,
      ticks.map((v) => [
        s("line", { class: "pe-plot__grid", x1: PAD.l, x2: W - PAD.r, y1: py(v), y2: py(v) }),
        s("text", { class: "pe-plot__tick", x: PAD.l - 6, y: py(v) + 5, "text-anchor": "end" }, `2${toSup(v)}`),
      ]),
      logs.map((v, i) => s("circle", { class: i >= p ? "pe-plot__point pe-plot__point--extra" : "pe-plot__point", cx: px(i), cy: py(v), r: radius })),
      s("circle", { class: "pe-plot__dot", cx: px(state.h - 1), cy: py(logs[state.h - 1]), r: radius + 3 }),
      s("text", { class: "pe-plot__tick", x: (W + PAD.l) / 2, y: H - 4, "text-anchor": "middle" }, n === p ? t("alibi-bias.axis_heads", { n: formatInt(n) }) : t("alibi-bias.axis_heads_extra", { n: formatInt(n), extra: formatInt(n - p) })),
    );
  }

  function drawBias(m) {
    const low = -m * opt.span;
    const py = (v) => PAD.t + (v / low) * (H - PAD.t - PAD.b);
    biasPlot.setAttribute("aria-label", t("alibi-bias.bias_aria", { span: formatInt(opt.span), low: formatNumber(low, 2) }));
    fill(biasPlot,
      [0, low / 2, low].map((v) => [
        s("line", { class: "pe-plot__grid", x1: PAD.l, x2: W - PAD.r, y1: py(v), y2: py(v) }),
        s("text", { class: "pe-plot__tick", x: PAD.l - 6, y: py(v) + 5, "text-anchor": "end" }, formatNumber(v, Math.abs(low) >= 10 ? 0 : 2)),
      ]),
      xAxis(biasPlot),
      s("line", { class: "pe-plot__line", x1: x(0), y1: py(0), x2: x(opt.span), y2: py(low) }),
      cursor(state.r, py(alibiBias(m, state.r))),
    );
  }

  function drawWeights(m, reach) {
    const py = (v) => PAD.t + (1 - v) * (H - PAD.t - PAD.b);
    const steps = 240;
    const curve = (slope) => Array.from({ length: steps + 1 }, (_, k) => {
      const r = (k / steps) * opt.span;
      return `${x(r).toFixed(1)},${py(alibiWeightRatio(slope, r)).toFixed(1)}`;
    }).join(" ");
    const every = Math.ceil(state.n / MAX_CURVES);
    const others = Array.from(state.slopes).filter((_, i) => i !== state.h - 1 && i % every === 0);
    weightPlot.setAttribute("aria-label", t("alibi-bias.weights_aria", { span: formatInt(opt.span), end: fmtWeight(alibiWeightRatio(m, opt.span)), f: fText, reach: fmtReach(reach) }));
    fill(weightPlot,
      [0, 0.5, 1].map((v) => [
        s("line", { class: "pe-plot__grid", x1: PAD.l, x2: W - PAD.r, y1: py(v), y2: py(v) }),
        s("text", { class: "pe-plot__tick", x: PAD.l - 6, y: py(v) + 5, "text-anchor": "end" }, String(v)),
      ]),
      xAxis(weightPlot),
      others.map((slope) => s("polyline", { class: "pe-plot__faint", points: curve(slope) })),
      s("line", { class: "pe-plot__ref", x1: PAD.l, x2: W - PAD.r, y1: py(1 / f), y2: py(1 / f) }),
      reach <= opt.span ? s("line", { class: "pe-plot__ref", x1: x(reach), x2: x(reach), y1: PAD.t, y2: H - PAD.b }) : null,
      s("polyline", { class: "pe-plot__line", points: curve(m) }),
      cursor(state.r, py(alibiWeightRatio(m, state.r))),
    );
  }

  function cursor(r, y) {
    return [
      s("line", { class: "pe-plot__cursor", x1: x(r), x2: x(r), y1: PAD.t, y2: H - PAD.b }),
      s("circle", { class: "pe-plot__dot", cx: x(r), cy: y, r: 5 }),
    ];
  }

  drawHeadPicker();
  renderAll();
  activate(el, root);
}

function toSup(e) {
  return String(e).replace(/[-0-9]/g, (c) => "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"["-0123456789".indexOf(c)]);
}
