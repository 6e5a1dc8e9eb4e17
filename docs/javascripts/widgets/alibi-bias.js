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
import { activate, chartWidth, fill, frame, h, num, numberField, pageOptions, s, scroller, selectField, setNum, showFailure, slider } from "./_ui.js";

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
      throw new Error(`页面传入的参数不合要求：要 1 ≤ data-head ≤ data-heads ≤ ${formatInt(MAX_HEADS)}，0 ≤ data-distance ≤ data-span，data-factor > 1。下面是构建时画好的静态图。`);
    }
  } catch (err) {
    showFailure(el, err.message);
    throw err;
  }
  const state = { n: opt.heads, h: opt.head, r: opt.distance, slopes: alibiSlopes(opt.heads) };
  const f = opt.factor;
  const fText = formatNumber(f, Number.isInteger(f) ? 0 : 2);
  const root = frame(el, "试一试：选头数和其中一个头，看偏置怎样随距离压低注意力权重");

  const headsField = numberField({ label: "头数 H", kind: "int", min: 1, max: MAX_HEADS }, state.n, (v) => setHeads(v), { name: "heads", size: 5 });
  const headPicker = h("div", { class: "pe-field-slot" });
  const headNote = h("p", { class: "pe-status", role: "status", "data-pe-status": "" });
  const range = { min: 0, max: opt.span, step: 1 };
  const rField = numberField({ label: "距离 m − n（往前数几个 token）", kind: "int", min: 0, max: opt.span }, state.r, (v) => setR(v, false), { name: "distance", size: 6 });
  const rSlider = slider("距离 m − n（滑块）", range, state.r, (v) => setR(v, true), "distance-slider");

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
    h("p", {}, "第 ", out.h, " 个头的斜率 a_h = ", out.slope, "（约 1/", out.inverse, "）。距离 m − n = ", out.r, " 时，偏置 −a_h·(m − n) = ", out.bias, "，权重因子 exp(−a_h·(m − n)) = ", out.weight, "。"),
    h("p", {}, `只靠偏置，把一个键的权重压到 1/${fText} 的距离是 ln ${fText} / a_h = `, out.reach, " 个 token", reachNote, "。"),
    rule,
  );

  const slopePlot = s("svg", { class: "pe-plot", viewBox: `0 0 ${W} ${H}`, role: "img" });
  const biasPlot = s("svg", { class: "pe-plot", viewBox: `0 0 ${W} ${H}`, role: "img" });
  const weightPlot = s("svg", { class: "pe-plot", viewBox: `0 0 ${W} ${H}`, role: "img" });
  const table = h("table", { class: "pe-table" });
  const tableBox = scroller("每个头的斜率表（可滚动）", table);
  tableBox.classList.add("pe-scroll--tall");
  root.append(
    h("div", { class: "pe-controls" }, headsField.wrap, headPicker),
    headNote,
    h("div", { class: "pe-controls" }, rField.wrap, h("div", { class: "pe-field pe-field--slider" }, rSlider)),
    readout,
    h("div", { class: "pe-plots" },
      h("figure", { class: "pe-plotbox pe-plotbox--wide" }, h("figcaption", {}, "每个头的斜率 a_h（纵轴是 log₂ a_h）"), slopePlot),
      h("figure", { class: "pe-plotbox" }, h("figcaption", {}, "所选的头：偏置 −a_h·(m − n)"), biasPlot),
      h("figure", { class: "pe-plotbox" },
        h("figcaption", {}, "权重因子 exp(−a_h·(m − n))"),
        h("ul", { class: "pe-legend", "aria-label": "图例" },
          h("li", {}, h("span", { class: "pe-legend__line", "aria-hidden": "true" }), "所选的头"),
          h("li", {}, h("span", { class: "pe-legend__line pe-legend__line--faint", "aria-hidden": "true" }), "其他头"),
          h("li", {}, h("span", { class: "pe-legend__ref", "aria-hidden": "true" }), `1/${fText} 和它的距离`),
        ),
        weightPlot,
      ),
    ),
    h("details", {}, h("summary", {}, "每个头的斜率和“压到 1/", fText, "”的距离"), tableBox),
  );

  function setHeads(n) {
    const slopes = alibiSlopes(n);
    let note = "";
    if (state.h > n) {
      note = `原来看的第 ${state.h} 个头在 ${n} 个头里没有了，改看最后一个头（第 ${n} 个）。`;
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
    const options = Array.from(state.slopes, (m, i) => [String(i + 1), `第 ${i + 1} 个头（a_h = ${fmtSlope(m)}）`]);
    fill(headPicker, selectField("看第几个头", options, state.h, (v) => setHead(Number(v)), "head").wrap);
  }

  function renderAll() {
    const { n, slopes } = state;
    const p = powerOfTwoPart(n);
    fill(rule,
      n === p
        ? `H = ${formatInt(n)} 是 2 的幂：斜率是首项和公比都为 2^(−8/${formatInt(n)}) 的等比数列，第 h 个头 a_h = 2^(−8h/${formatInt(n)})。`
        : `H = ${formatInt(n)} 不是 2 的幂：前 ${formatInt(p)} 个头用 ${formatInt(p)} 个头的那组斜率，后 ${formatInt(n - p)} 个头取 ${formatInt(2 * p)} 个头那组斜率里的第 1、3、5…… 个，正好插在前面的斜率之间。`,
    );
    fill(table,
      h("caption", {}, `${formatInt(n)} 个头的斜率；“压到 1/${fText}”的距离 = ln ${fText} / a_h${n === p ? "" : "；＊：H 不是 2 的幂时补上的头"}`),
      h("thead", {}, h("tr", {}, ["头 h", "斜率 a_h", "1/a_h", `压到 1/${fText} 的距离`].map((t) => h("th", { scope: "col" }, t)))),
      h(
        "tbody",
        {},
        Array.from(slopes, (m, i) => {
          const reach = alibiReach(m, f);
          return h(
            "tr",
            { "data-pe-row": i + 1 },
            h("th", { scope: "row" }, String(i + 1), i >= p ? "＊" : ""),
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
    reachNote.textContent = reach > opt.span ? `（比图的横轴 ${formatInt(opt.span)} 还远）` : "";
    drawBias(m);
    drawWeights(m, reach);
  }

  const x = (r) => PAD.l + (r / opt.span) * (W - PAD.l - PAD.r);
  const xAxis = (svg) => [
    [0, opt.span / 2, opt.span].map((r) => s("text", { class: "pe-plot__tick", x: x(r), y: H - PAD.b + 18, "text-anchor": "middle" }, formatInt(r))),
    s("text", { class: "pe-plot__tick", x: (W + PAD.l) / 2, y: H - 4, "text-anchor": "middle" }, "距离 m − n（token）"),
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
    slopePlot.setAttribute("aria-label", `${formatInt(n)} 个头的斜率，从第 1 个头的 ${fmtSlope(slopes[0])} 到最小的 ${fmtSlope(Math.min(...slopes))}；选中的是第 ${state.h} 个头`);
    fill(slopePlot,
      ticks.map((v) => [
        s("line", { class: "pe-plot__grid", x1: PAD.l, x2: W - PAD.r, y1: py(v), y2: py(v) }),
        s("text", { class: "pe-plot__tick", x: PAD.l - 6, y: py(v) + 5, "text-anchor": "end" }, `2${toSup(v)}`),
      ]),
      logs.map((v, i) => s("circle", { class: i >= p ? "pe-plot__point pe-plot__point--extra" : "pe-plot__point", cx: px(i), cy: py(v), r: radius })),
      s("circle", { class: "pe-plot__dot", cx: px(state.h - 1), cy: py(logs[state.h - 1]), r: radius + 3 }),
      s("text", { class: "pe-plot__tick", x: (W + PAD.l) / 2, y: H - 4, "text-anchor": "middle" }, n === p ? `头 h = 1 … ${formatInt(n)}` : `头 h = 1 … ${formatInt(n)}（空心：补上的 ${formatInt(n - p)} 个头）`),
    );
  }

  function drawBias(m) {
    const low = -m * opt.span;
    const py = (v) => PAD.t + (v / low) * (H - PAD.t - PAD.b);
    biasPlot.setAttribute("aria-label", `一条直线：偏置从距离 0 的 0 降到距离 ${formatInt(opt.span)} 的 ${formatNumber(low, 2)}，斜率 −a_h`);
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
    weightPlot.setAttribute("aria-label", `曲线 exp(−a_h·(m − n))：所选的头从 1 降到距离 ${formatInt(opt.span)} 的 ${fmtWeight(alibiWeightRatio(m, opt.span))}；虚线标出 1/${fText} 和它出现的距离 ${fmtReach(reach)}`);
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
