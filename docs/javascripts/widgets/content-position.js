// content-position (lesson 2): pick a position p. The naive design adds p to every dim of the token
// vector, so content (RMS σ per dim) is σ / p of the position signal (posenc/naive.py); a learned
// table such as GPT-2's has rows 0 … rows − 1 and no row past them (posenc/learned.py).
//
// The page passes every starting value (data-*, all required; this file holds no defaults;
// posenc/examples.py WIDGET_DEFAULTS["content-position"] is what the widget() macro writes):
//   data-position  the position shown first;  data-presets  preset positions ("0,37,1023,1024,100000")
//   data-rms       the content RMS values offered, the first one shown first ("1,0.02")
//   data-max       the plot's right end at the start (it widens to reach a larger p)
//   data-rows, data-width   the learned table looked up (GPT-2's: rows = context, width = hidden)
import { formatInt, formatNumber, formatPercent } from "../posenc-math/format.js";
import { hasRow, tableParameters } from "../posenc-math/learned.js";
import { rawIndexContentRatio } from "../posenc-math/naive.js";
import { activate, button, chartWidth, fill, frame, h, num, numberField, pageOptionsOrFail, refuse, s, selectField, setNum, t, loadWidgetStrings } from "./_ui.js";

await loadWidgetStrings("content-position"); // this widget's words in the page's language (strings/<lang>/content-position.js)

const W = chartWidth(480); // 400 on a phone: its text stays legible (_ui.js)
const H = 230;
const PAD = { l: 56, r: 12, t: 12, b: 38 };
const SAMPLES = 160;

const sigma = (r) => String(r); // as the page wrote it: 1, 0.02
const percentTick = (k) => (k >= -2 ? `${formatNumber(10 ** k, Math.max(0, -k))}%` : `10${sup(k)}%`); // 10^k %
const sup = (e) => String(e).replace(/[-0-9]/g, (c) => "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"["-0123456789".indexOf(c)]);

export function mount(el) {
  const opt = pageOptionsOrFail(el, { position: "int", rms: "numbers", max: "int", presets: "numbers", rows: "int", width: "int" }, {
    position: { kind: "position" },
    max: { kind: "int", min: 10 },
    presets: { kind: "position" },
    rows: { kind: "int", min: 1 },
    width: { kind: "int", min: 1 },
  });
  if (!opt.rms.every((r) => r > 0)) refuse(el, t("content-position.bad_rms", { rms: opt.rms.join(",") }));
  const state = { p: opt.position, rms: opt.rms[0] };
  const root = frame(el, t("content-position.title"));

  const pField = numberField({ label: t("content-position.position"), kind: "position" }, state.p, (v) => setP(v, false), { name: "position" });
  const presets = h(
    "div",
    { class: "pe-presets", role: "group", "aria-label": t("content-position.presets") },
    h("span", { class: "pe-presets__label" }, t("content-position.presets_label")),
    opt.presets.map((p) => button(formatInt(p), () => setP(p, true), { "data-preset": p })),
  );
  const rmsField = selectField(t("content-position.rms"), opt.rms.map((r) => [String(r), `σ = ${sigma(r)}`]), String(state.rms), (v) => {
    state.rms = Number(v);
    render();
  }, "rms");

  const out = {
    p: num(0, "", { "data-pe-out": "position" }),
    rms: num(0, "", { "data-pe-out": "rms" }),
    ratio: num(0, "", { "data-pe-out": "ratio" }),
    rows: num(opt.rows, formatInt(opt.rows), { "data-pe-out": "rows" }),
    last: num(opt.rows - 1, formatInt(opt.rows - 1), { "data-pe-out": "last-row" }),
    params: num(tableParameters(opt.rows, opt.width), formatInt(tableParameters(opt.rows, opt.width)), { "data-pe-out": "table-parameters" }),
  };
  const naive = h("p", {});
  const lookup = h("p", {});
  const svg = s("svg", { class: "pe-plot", viewBox: `0 0 ${W} ${H}`, role: "img" });
  root.append(
    h("div", { class: "pe-controls" }, pField.wrap, presets),
    h("div", { class: "pe-controls" }, rmsField.wrap),
    h("div", { class: "pe-readout", "aria-live": "polite" }, naive, lookup),
    svg,
  );

  function setP(p, fromButton) {
    state.p = p;
    if (fromButton) pField.set(p);
    render();
  }

  function render() {
    const { p, rms } = state;
    setNum(out.p, p, formatInt(p));
    setNum(out.rms, rms, sigma(rms));
    if (p === 0) {
      setNum(out.ratio, NaN, "");
      fill(naive, t("content-position.p_is"), out.p, t("content-position.zero"));
    } else {
      const r = rawIndexContentRatio(p, rms);
      setNum(out.ratio, r, formatPercent(r));
      fill(naive, t("content-position.p_is"), out.p, t("content-position.ratio_1"), formatInt(p), t("content-position.ratio_2"), out.rms, t("content-position.ratio_3"), out.ratio, t("content-position.ratio_4"));
    }
    const ok = hasRow(opt.rows, p);
    const shortBy = p - opt.rows + 1;
    fill(lookup,
      t("content-position.table_1"), out.rows, t("content-position.table_2"), out.last, t("content-position.table_3"), formatInt(opt.rows), " × ", formatInt(opt.width), " = ", out.params, t("content-position.table_4"),
      h("strong", { "data-pe-out": "has-row", "data-value": ok ? "1" : "0" }, ok ? t("content-position.has_row") : t("content-position.no_row")),
      ok ? t("content-position.found_end") : [t("content-position.missing_1"), formatInt(p + 1), t("content-position.missing_2"), num(shortBy, formatInt(shortBy), { "data-pe-out": "rows-short" }), t("content-position.missing_3")],
    );
    drawPlot();
  }

  function drawPlot() {
    const top = Math.max(opt.max, state.p);
    const decades = Math.floor(Math.log10(top));
    const xs = Array.from({ length: SAMPLES + 1 }, (_, i) => Math.max(1, Math.round(10 ** ((i / SAMPLES) * Math.log10(top)))));
    const ys = opt.rms.map((r) => xs.map((p) => rawIndexContentRatio(p, r)));
    const lo = Math.floor(Math.log10(Math.min(...ys.flat())));
    const hi = Math.max(0, Math.ceil(Math.log10(Math.max(...ys.flat()))));
    const x = (p) => PAD.l + (Math.log10(p) / Math.log10(top)) * (W - PAD.l - PAD.r);
    const y = (v) => PAD.t + ((hi - Math.log10(v)) / (hi - lo || 1)) * (H - PAD.t - PAD.b);
    svg.setAttribute("aria-label", t("content-position.plot", { top: formatInt(top) }));
    const line = (r, i) => s("polyline", { class: `pe-plot__line${r === state.rms ? "" : " pe-plot__line--before"}`, points: xs.map((p, k) => `${x(p).toFixed(1)},${y(ys[i][k]).toFixed(1)}`).join(" ") });
    fill(svg,
      Array.from({ length: hi - lo + 1 }, (_, k) => lo + k).map((e) => [
        s("line", { class: "pe-plot__grid", x1: PAD.l, x2: W - PAD.r, y1: y(10 ** e), y2: y(10 ** e) }),
        s("text", { class: "pe-plot__tick", x: PAD.l - 6, y: y(10 ** e) + 5, "text-anchor": "end" }, percentTick(e + 2)),
      ]),
      Array.from({ length: decades + 1 }, (_, e) => s("text", { class: "pe-plot__tick", x: x(10 ** e), y: H - PAD.b + 17, "text-anchor": "middle" }, e > 3 ? `10${sup(e)}` : formatInt(10 ** e))),
      s("text", { class: "pe-plot__tick", x: (W + PAD.l) / 2, y: H - 4, "text-anchor": "middle" }, t("content-position.x_axis")),
      opt.rms.map(line),
      state.p >= 1 ? s("circle", { class: "pe-plot__dot", r: 5, cx: x(state.p), cy: y(rawIndexContentRatio(state.p, state.rms)), "data-pe-out": "point" }) : null,
    );
  }

  render();
  activate(el, root);
}
