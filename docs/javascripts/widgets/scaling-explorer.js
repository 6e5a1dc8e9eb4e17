// scaling-explorer (lesson 5): a real model's RoPE frequencies before and after PI, NTK-aware or YaRN.
// Model configs come from posenc/data/models.yaml through the build: the mount
// point's data-models (JSON), or else assets/models.json next to the site root
// ({"models": [{key, name, context, head_dim, rope_theta, rotary_fraction?, scaling?, ...}]}).
// The formulas are posenc/scaling.py's (posenc-math.js scaleModel()); YaRN uses the
// model's own beta_fast / beta_slow / truncate / mscale when its config has a YaRN dict.
// The page passes every starting value (data-*, all required; this file holds no defaults;
// posenc/examples.py WIDGET_DEFAULTS["scaling-explorer"] is what the widget() macro writes):
//   data-model    the model shown first (its key in models.json)
//   data-method   "yarn", "linear" or "ntk"
//   data-factor   the extension factor s ≥ 1, or 0 for the model's own (its config's, else 4)
//   data-models   the configs as JSON, or "" to fetch assets/models.json
import { formatInt, formatNumber, formatSci } from "../posenc-math/format.js";
import { inverseFrequencies, wavelengths } from "../posenc-math/rope.js";
import { angleOvershoot, pairsBeyondTrainedAngles, scaleModel } from "../posenc-math/scaling.js";
import { activate, chartWidth, fill, frame, h, num, numberField, pageOptionsOrFail, refuse, s, scroller, selectField, slider, t, loadWidgetStrings } from "./_ui.js";

await loadWidgetStrings("scaling-explorer"); // this widget's words in the page's language (strings/<lang>/scaling-explorer.js)

const METHODS = ["yarn", "linear", "ntk"]; // named by t(`scaling-explorer.method_${key}`)
const COLUMNS = ["pair", "omega", "omega_scaled", "ratio", "lambda", "lambda_scaled", "turn", "turn_scaled", "overshoot"];
const FACTOR_RANGE = { min: 1, max: 64 }; // the box and the slider take the same range (real models use ≤ 40)
const W = chartWidth(480); // 400 on a phone: its text stays legible (_ui.js)
const H = 280;
const PAD = { l: 52, r: 12, t: 14, b: 36 };

async function loadModels(el, raw) {
  const data = raw ? JSON.parse(raw) : await fetchJson(new URL("../../assets/models.json", import.meta.url));
  const models = (data.models || []).filter((m) => m.head_dim && m.rope_theta && m.context);
  if (!models.length) throw new Error(t("scaling-explorer.no_models"));
  return models;
}

async function fetchJson(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} → HTTP ${res.status}`);
  return res.json();
}

// The config's factor is s only for PI (linear) and YaRN; else s is the extended over the trained length (lesson 5).
function defaultFactor(m) {
  const sc = m.scaling;
  if (sc && sc.factor && (sc.rope_type === "linear" || sc.rope_type === "yarn")) return sc.factor;
  const longer = m.scaled_context || m.max_position_embeddings;
  return longer > m.context ? longer / m.context : 4;
}

const fmtOmega = (w) => (w >= 0.01 ? formatNumber(w, 4) : formatSci(w, 3));
const fmtLambda = (x) => formatNumber(x, x < 100 ? 2 : 0);

export async function mount(el) {
  const opt = pageOptionsOrFail(el, { model: "text", method: "text", factor: "number", models: "text?" }, { factor: { kind: "real", min: 0, max: FACTOR_RANGE.max } });
  let models;
  try {
    models = await loadModels(el, opt.models);
  } catch (err) {
    refuse(el, t("scaling-explorer.load_failed", { error: err.message }));
  }
  const first = models.find((m) => m.key === opt.model);
  const bad = (what) => refuse(el, t("scaling-explorer.bad_option", { what }));
  const join = t("scaling-explorer.join");
  if (!first) bad(t("scaling-explorer.bad_model", { model: opt.model, models: models.map((m) => m.key).join(join) }));
  if (!METHODS.includes(opt.method)) bad(t("scaling-explorer.bad_method", { method: opt.method, methods: METHODS.join(join) }));
  if (opt.factor !== 0 && opt.factor < FACTOR_RANGE.min) bad(t("scaling-explorer.bad_factor", { factor: opt.factor }));
  const state = { model: first, method: opt.method, factor: opt.factor || defaultFactor(first) };
  const root = frame(el, t("scaling-explorer.title"));

  const modelField = selectField(t("scaling-explorer.model"), models.map((m) => [m.key, m.name]), state.model.key, (k) => {
    state.model = models.find((m) => m.key === k);
    setFactor(defaultFactor(state.model), true);
  }, "model");
  const methods = METHODS.map((k) => [k, t(`scaling-explorer.method_${k}`)]);
  const methodField = selectField(t("scaling-explorer.method"), methods, state.method, (v) => ((state.method = v), render()), "method");
  const factorField = numberField({ label: t("scaling-explorer.factor"), kind: "factor", ...FACTOR_RANGE }, state.factor, (v) => setFactor(v, false), { name: "factor", size: 6 });
  const factorSlider = slider(t("scaling-explorer.factor_slider"), { ...FACTOR_RANGE, step: 1 }, state.factor, (v) => setFactor(v, true), "factor-slider");

  const svg = s("svg", { class: "pe-plot", viewBox: `0 0 ${W} ${H}`, role: "img" });
  const legend = h(
    "ul",
    { class: "pe-legend", "aria-label": t("scaling-explorer.legend") },
    h("li", {}, h("span", { class: "pe-legend__dot pe-legend__dot--before", "aria-hidden": "true" }), t("scaling-explorer.legend_before")),
    h("li", {}, h("span", { class: "pe-legend__dot pe-legend__dot--after", "aria-hidden": "true" }), t("scaling-explorer.legend_after")),
    h("li", {}, h("span", { class: "pe-legend__ref", "aria-hidden": "true" }), t("scaling-explorer.legend_ref")),
  );
  const summary = h("div", {});
  const table = h("table", { class: "pe-table" });
  root.append(
    h("div", { class: "pe-controls" }, modelField.wrap, methodField.wrap),
    h("div", { class: "pe-controls" }, factorField.wrap, h("div", { class: "pe-field pe-field--slider" }, factorSlider)),
    legend,
    svg,
    h("div", { class: "pe-readout", "aria-live": "polite" }, summary),
    h("details", {}, h("summary", {}, t("scaling-explorer.details")), scroller(t("scaling-explorer.table"), table)),
  );

  function setFactor(v, fromControl) {
    state.factor = v;
    if (fromControl) factorField.set(v);
    factorSlider.value = String(v);
    render();
  }

  function render() {
    const m = state.model;
    const s_ = state.factor;
    const frac = m.rotary_fraction ?? 1.0;
    const before = inverseFrequencies(m.head_dim, m.rope_theta, frac);
    const res = scaleModel(m, state.method, s_);
    const after = res.invFreq;
    const lamB = wavelengths(before);
    const lamA = wavelengths(after);
    const L = m.context;
    const target = Math.round(s_ * L);
    const notB = lamB.filter((x) => x > L).length;
    // Overshoot, the lesson's measure: a pair that never turns within L saw only angles up to L·ω in training;
    // after scaling it reaches s·L·ω′, and above 1× it points where training never pointed it (posenc/scaling.py).
    const over = angleOvershoot(before, after, L, s_);
    const beyond = pairsBeyondTrainedAngles(before, after, L, s_);
    // No pair overshooting is said in words ("none of them overshoot", not "0 of them …"): a word, so not a .pe-num.
    const beyondOut = beyond === 0
      ? h("span", { "data-pe-out": "beyond", "data-value": "0" }, t("scaling-explorer.beyond_none"))
      : num(beyond, formatInt(beyond), { "data-pe-out": "beyond" });
    const worst = notB ? Math.max(...over.filter((r) => !Number.isNaN(r))) : NaN;
    const n = before.length;
    fill(summary,
      h(
        "p",
        {},
        t("scaling-explorer.summary_rotates", { model: m.name }), num(2 * n, formatInt(2 * n), { "data-pe-out": "rotary-dim" }),
        t("scaling-explorer.summary_dims", { pairs: formatInt(n) }),
        num(m.rope_theta, formatInt(m.rope_theta), { "data-pe-out": "theta" }), t("scaling-explorer.summary_context"), num(L, formatInt(L), { "data-pe-out": "context" }),
        t("scaling-explorer.summary_target"), num(target, formatInt(target), { "data-pe-out": "target" }), t("scaling-explorer.end"),
      ),
      h(
        "p",
        {},
        t("scaling-explorer.turns_before"), num(notB, formatInt(notB), { "data-pe-out": "not-before" }), t("scaling-explorer.turns_after"),
        beyondOut, t("scaling-explorer.turns_beyond"),
        num(worst, formatNumber(worst, 2), { "data-pe-out": "max-overshoot" }), t("scaling-explorer.turns_factor"),
        num(res.attentionFactor, formatNumber(res.attentionFactor, 4), { "data-pe-out": "attention-factor" }), t("scaling-explorer.end"),
      ),
      state.method === "yarn"
        ? h(
            "p",
            {},
            t("scaling-explorer.yarn_1"), num(res.low, formatNumber(res.low, Number.isInteger(res.low) ? 0 : 2), { "data-pe-out": "yarn-low" }), t("scaling-explorer.yarn_2"),
            num(res.high, formatNumber(res.high, Number.isInteger(res.high) ? 0 : 2), { "data-pe-out": "yarn-high" }), t("scaling-explorer.yarn_3"),
          )
        : null,
    );
    drawPlot(lamB, lamA, L, target);
    fill(table,
      h("thead", {}, h("tr", {}, COLUMNS.map((key) => h("th", { scope: "col" }, t(`scaling-explorer.col_${key}`))))),
      h(
        "tbody",
        {},
        Array.from(before, (w, i) =>
          h(
            "tr",
            { "data-pe-row": i },
            h("td", {}, String(i)),
            h("td", {}, num(w, fmtOmega(w), { "data-pe-col": "omega" })),
            h("td", {}, num(after[i], fmtOmega(after[i]), { "data-pe-col": "omega-scaled" })),
            h("td", {}, num(w / after[i], formatNumber(w / after[i], 3), { "data-pe-col": "ratio" })),
            h("td", {}, num(lamB[i], fmtLambda(lamB[i]), { "data-pe-col": "lambda" })),
            h("td", {}, num(lamA[i], fmtLambda(lamA[i]), { "data-pe-col": "lambda-scaled" })),
            h("td", { class: lamB[i] <= L ? "pe-yes" : "pe-no" }, t(lamB[i] <= L ? "scaling-explorer.yes" : "scaling-explorer.no")),
            h("td", { class: lamA[i] <= target ? "pe-yes" : "pe-no" }, t(lamA[i] <= target ? "scaling-explorer.yes" : "scaling-explorer.no")),
            Number.isNaN(over[i]) // a pair that turns within L has seen every angle: nothing to overshoot
              ? h("td", {}, h("span", { "data-pe-col": "overshoot" }, "—"))
              : h("td", { class: over[i] > 1 + 1e-9 ? "pe-no" : "pe-yes" }, num(over[i], formatNumber(over[i], 2), { "data-pe-col": "overshoot" }), "×"),
          ),
        ),
      ),
    );
  }

  function drawPlot(lamB, lamA, L, target) {
    const n = lamB.length;
    const all = [...lamB, ...lamA, L, target];
    const lo = Math.floor(Math.log10(Math.min(...all)));
    const hi = Math.ceil(Math.log10(Math.max(...all)));
    const x = (i) => PAD.l + ((i + 0.5) / n) * (W - PAD.l - PAD.r);
    const y = (v) => PAD.t + ((hi - Math.log10(v)) / (hi - lo || 1)) * (H - PAD.t - PAD.b);
    const decades = Array.from({ length: hi - lo + 1 }, (_, k) => lo + k);
    // Labels at the left end of their dashed line (where the points, the short periods, sit low):
    // the upper one above it, the lower one below it when the two lines are closer than two
    // labels' height, so they never overlap.
    const LABEL = 17; // px: one 15 px line of text and a gap
    const close = target !== L && Math.abs(y(L) - y(target)) < 2 * LABEL;
    const ref = (v, text, below) => [
      s("line", { class: "pe-plot__ref", x1: PAD.l, x2: W - PAD.r, y1: y(v), y2: y(v) }),
      s("text", { class: "pe-plot__label", x: PAD.l + 4, y: below ? y(v) + LABEL - 2 : y(v) - 5, "data-pe-ref": text.split(" ")[0] }, text),
    ];
    svg.setAttribute("aria-label", t("scaling-explorer.plot", { length: formatInt(L), target: formatInt(target) }));
    fill(svg,
      decades.map((e) => [
        s("line", { class: "pe-plot__grid", x1: PAD.l, x2: W - PAD.r, y1: y(10 ** e), y2: y(10 ** e) }),
        s("text", { class: "pe-plot__tick", x: PAD.l - 6, y: y(10 ** e) + 4, "text-anchor": "end" }, `10${toSup(e)}`),
      ]),
      ref(L, `L = ${formatInt(L)}`, close && y(L) > y(target)),
      target !== L ? ref(target, `s·L = ${formatInt(target)}`, close && y(target) > y(L)) : null,
      Array.from(lamB, (v, i) => s("circle", { class: "pe-plot__point", cx: x(i), cy: y(v), r: 2.6 })),
      Array.from(lamA, (v, i) => s("circle", { class: "pe-plot__point pe-plot__point--after", cx: x(i), cy: y(v), r: 2.6 })),
      s("text", { class: "pe-plot__tick", x: (W + PAD.l) / 2, y: H - 6, "text-anchor": "middle" }, t("scaling-explorer.axis", { last: n - 1 })),
    );
  }

  render();
  activate(el, root);
}

function toSup(e) {
  return String(e).replace(/[-0-9]/g, (c) => "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"["-0123456789".indexOf(c)]);
}
