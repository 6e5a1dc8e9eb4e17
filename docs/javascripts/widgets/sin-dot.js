// sin-dot (lesson 3): PE(p)·PE(p+k) against the distance k, for a start p the reader picks.
// The wide faint line is Σ_i cos(k·ω_i), which has no p in it; whatever p is,
// the curve computed from the encodings lies on it.
// The page passes every starting value (data-*, all required; this file holds no defaults;
// posenc/examples.py WIDGET_DEFAULTS["sin-dot"] is what the widget() macro writes):
//   data-d, data-base   the encoding (d even, base > 1)
//   data-max            the largest distance k on the plot (1 … 10,000)
//   data-position       the start p shown first;  data-presets  the preset starts ("0,300,100000")
//   data-k              the distance read out first, 0 … max
import { formatInt, formatNumber, formatSci } from "../posenc-math/format.js";
import { dot, dotClosedForm } from "../posenc-math/sinusoidal.js";
import { activate, button, chartWidth, frame, h, num, numberField, pageOptionsOrFail, refuse, s, setNum, t, loadWidgetStrings } from "./_ui.js";

await loadWidgetStrings("sin-dot"); // this widget's words in the page's language (strings/<lang>/sin-dot.js)

const MAX_K = 10000; // the curve is recomputed for every k on each change of p
const W = chartWidth(480); // 400 on a phone: its text stays legible (_ui.js)
const H = 240;
const PAD = { l: 40, r: 10, t: 12, b: 34 };

export function mount(el) {
  const opt = pageOptionsOrFail(el, { d: "int", base: "number", max: "int", position: "int", presets: "numbers", k: "int" }, {
    d: { kind: "dim", max: 4096 },
    base: { kind: "base" },
    max: { kind: "int", min: 1, max: MAX_K },
    position: { kind: "position" },
    presets: { kind: "position" },
    k: { kind: "int", min: 0, max: MAX_K },
  });
  if (opt.k > opt.max) refuse(el, t("sin-dot.k_over_max", { k: opt.k, max: opt.max }));
  const state = { p: opt.position, k: opt.k };
  const root = frame(el, t("sin-dot.title"));
  const closed = Array.from({ length: opt.max + 1 }, (_, k) => dotClosedForm(k, opt.d, opt.base));
  const lo = Math.min(0, Math.floor(Math.min(...closed)));
  const hi = opt.d / 2;
  const x = (k) => PAD.l + (k / opt.max) * (W - PAD.l - PAD.r);
  const y = (v) => PAD.t + ((hi - v) / (hi - lo)) * (H - PAD.t - PAD.b);

  const pField = numberField({ label: t("sin-dot.position"), kind: "position" }, state.p, (v) => setP(v, false), { name: "position" });
  const kField = numberField({ label: t("sin-dot.distance"), kind: "int", min: 0, max: opt.max }, state.k, (v) => setK(v, false), { name: "k", size: 5 });
  const slider = h("input", {
    type: "range",
    min: 0,
    max: opt.max,
    step: 1,
    value: state.k,
    "aria-label": t("sin-dot.slider"),
    "data-pe-input": "k-slider",
    oninput: () => setK(Number(slider.value), true),
  });
  const presets = h(
    "div",
    { class: "pe-presets", role: "group", "aria-label": t("sin-dot.presets") },
    h("span", { class: "pe-presets__label" }, t("sin-dot.presets_label")),
    opt.presets.map((p) => button(formatInt(p), () => setP(p, true), { "data-preset": p })),
  );

  const yTicks = [0, hi / 2, hi];
  const svg = s(
    "svg",
    { class: "pe-plot", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("sin-dot.plot", { max: opt.max }) },
    yTicks.map((v) => [
      s("line", { class: "pe-plot__grid", x1: PAD.l, x2: W - PAD.r, y1: y(v), y2: y(v) }),
      s("text", { class: "pe-plot__tick", x: PAD.l - 6, y: y(v) + 4, "text-anchor": "end" }, String(v).replace("-", "−")),
    ]),
    [0, opt.max / 2, opt.max].map((k) => s("text", { class: "pe-plot__tick", x: x(k), y: H - PAD.b + 16, "text-anchor": "middle" }, formatInt(k))),
    s("text", { class: "pe-plot__tick", x: (W + PAD.l) / 2, y: H - 4, "text-anchor": "middle" }, t("sin-dot.axis")),
    s("polyline", { class: "pe-plot__ghost", points: closed.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" ") }),
  );
  const curve = s("polyline", { class: "pe-plot__line" });
  const cursor = s("line", { class: "pe-plot__cursor", y1: PAD.t, y2: H - PAD.b });
  const dotMark = s("circle", { class: "pe-plot__dot", r: 5 });
  svg.append(curve, cursor, dotMark);

  const out = {
    p: num(0, "", { "data-pe-out": "position" }),
    k: num(0, "", { "data-pe-out": "k" }),
    dot: num(0, "", { "data-pe-out": "dot" }),
    closed: num(0, "", { "data-pe-out": "closed" }),
    maxDiff: num(0, "", { "data-pe-out": "max-diff" }),
  };
  const readout = h(
    "div",
    { class: "pe-readout", "aria-live": "polite" },
    h("p", {}, "p = ", out.p, t("sin-dot.readout_k"), out.k, t("sin-dot.readout_dot"), out.dot, t("sin-dot.readout_closed"), out.closed, t("sin-dot.readout_end")),
    h("p", {}, t("sin-dot.curve_1", { max: formatInt(opt.max) }), out.maxDiff, t("sin-dot.curve_2")),
  );
  root.append(
    h("div", { class: "pe-controls" }, pField.wrap, presets),
    h("div", { class: "pe-controls" }, kField.wrap, h("div", { class: "pe-field pe-field--slider" }, slider)),
    svg,
    readout,
  );

  let dots = [];
  function setP(p, fromButton) {
    state.p = p;
    if (fromButton) pField.set(p);
    renderCurve();
  }
  function setK(k, fromSlider) {
    state.k = k;
    if (fromSlider) kField.set(k);
    else slider.value = String(k);
    renderPoint();
  }

  function renderCurve() {
    dots = closed.map((_, k) => dot(state.p, state.p + k, opt.d, opt.base));
    curve.setAttribute("points", dots.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
    const m = dots.reduce((a, v, k) => Math.max(a, Math.abs(v - closed[k])), 0);
    setNum(out.p, state.p, formatInt(state.p));
    setNum(out.maxDiff, m, formatSci(m, 1));
    renderPoint();
  }

  function renderPoint() {
    const { k } = state;
    cursor.setAttribute("x1", x(k));
    cursor.setAttribute("x2", x(k));
    dotMark.setAttribute("cx", x(k));
    dotMark.setAttribute("cy", y(dots[k]));
    setNum(out.k, k, formatInt(k));
    setNum(out.dot, dots[k], formatNumber(dots[k], 4));
    setNum(out.closed, closed[k], formatNumber(closed[k], 4));
  }

  renderCurve();
  activate(el, root);
}
