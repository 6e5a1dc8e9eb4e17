// t5-buckets (lesson 3b): T5's relative position buckets. A distance m − n (the lesson's: the query's position
// minus the key's; T5's code looks up its negative, n − m) goes to
// one of num_buckets learned scalars: one bucket per distance below max_exact, then buckets
// that widen logarithmically up to max_distance, then one bucket for everything farther.
// The formulas are posenc/relative.py's (posenc-math.js t5Args, t5Bucket, t5BucketEdges).
//
// The page passes every starting value (data-*, all required; this file holds no defaults):
//   data-num-buckets    num_buckets, an integer ≥ 2 (T5: 32)
//   data-max-distance   max_distance, an integer > max_exact (T5: 128)
//   data-bidirectional  "true" (encoder: keys on both sides) or "false" (decoder: causal)
//   data-distance       the distance m − n looked up, an integer (positive: the key is before the query; negative:
//                       after it, which only the bidirectional encoder sees)
// Bad input (num_buckets < 2, max_distance ≤ max_exact, no exact bucket, non-integers) shows a
// message at the field and keeps the last valid result; nothing is clamped.
import { formatInt, MAX_INPUT } from "../posenc-math/format.js";
import { t5Args, t5Bucket, t5BucketEdges } from "../posenc-math/relative.js";
import { activate, chartWidth, fill, frame, h, num, numberField, pageOptions, s, scroller, setNum, showFailure, t, uid, loadWidgetStrings } from "./_ui.js";

await loadWidgetStrings("t5-buckets"); // this widget's words in the page's language (strings/<lang>/t5-buckets.js)

const MAX_BUCKETS = 4096; // the table lists every bucket
const MAX_DISTANCE = 1_000_000; // the edges are found by looking up every distance up to max_distance
const W = chartWidth(480); // 400 on a phone: its text stays legible (_ui.js)
const H = 250;
const PAD = { l: 44, r: 14, t: 14, b: 42 };

/**
 * Why num_buckets, max_distance and the direction do not fit together, in the page's language, or null when
 * they do. posenc-math's t5Args judges; this only words its verdict (its own messages are Chinese).
 */
function misfit(nb, md, bi) {
  try {
    t5Args(nb, md, bi);
    return null;
  } catch {
    const side = bi ? t("t5-buckets.per_side") : "";
    if (!Number.isInteger(nb) || nb < 2) return t("t5-buckets.at_least", { name: "num_buckets", min: 2, raw: nb });
    const maxExact = Math.floor((bi ? Math.floor(nb / 2) : nb) / 2);
    if (maxExact < 1) return t("t5-buckets.no_exact", { nb, side });
    if (!Number.isInteger(md) || md < 1) return t("t5-buckets.at_least", { name: "max_distance", min: 1, raw: md });
    return t("t5-buckets.too_near", { md, max_exact: maxExact, side });
  }
}

export function mount(el) {
  let opt;
  try {
    opt = pageOptions(el, { numBuckets: "int", maxDistance: "int", bidirectional: "bool", distance: "int" });
    const problem = misfit(opt.numBuckets, opt.maxDistance, opt.bidirectional);
    if (problem) throw new Error(t("t5-buckets.bad_options", { message: problem }));
  } catch (err) {
    showFailure(el, err.message);
    throw err;
  }
  const state = { nb: opt.numBuckets, md: opt.maxDistance, bi: opt.bidirectional, rel: opt.distance };
  const root = frame(el, t("t5-buckets.title"));

  // computed only when every input fits: a message names them all
  const kept = () => t(state.bi ? "t5-buckets.kept_bi" : "t5-buckets.kept_uni", { nb: formatInt(state.nb), md: formatInt(state.md), rel: formatInt(state.rel) });
  const nbField = numberField({ label: t("t5-buckets.num_buckets"), kind: "int", min: 2, max: MAX_BUCKETS }, state.nb, apply, { name: "num-buckets", size: 6, kept });
  const mdField = numberField({ label: "max_distance", kind: "int", min: 1, max: MAX_DISTANCE }, state.md, apply, { name: "max-distance", size: 8, kept });
  const relField = numberField({ label: t("t5-buckets.relative"), kind: "int", min: -MAX_INPUT, max: MAX_INPUT }, state.rel, apply, {
    kept,
    name: "distance",
    size: 8,
    hint: t("t5-buckets.relative_hint"),
  });
  const modeName = uid("mode");
  const modes = h(
    "fieldset",
    { class: "pe-radios" },
    h("legend", {}, t("t5-buckets.direction")),
    [
      [true, t("t5-buckets.bidirectional")],
      [false, t("t5-buckets.unidirectional")],
    ].map(([value, text]) =>
      h(
        "label",
        {},
        h("input", { type: "radio", name: modeName, value: String(value), checked: value === state.bi, "data-pe-input": `bidirectional-${value}`, onchange: apply }),
        ` ${text}`,
      ),
    ),
  );

  const out = {
    rel: num(0, "", { "data-pe-out": "distance" }),
    bucket: num(0, "", { "data-pe-out": "bucket" }),
    first: num(0, "", { "data-pe-out": "bucket-first" }),
    last: num(0, "", { "data-pe-out": "bucket-last" }),
  };
  const lookup = h("p", {});
  const summary = h("p", {});
  const plot = s("svg", { class: "pe-plot", viewBox: `0 0 ${W} ${H}`, role: "img" });
  const table = h("table", { class: "pe-table" });
  const tableBox = scroller(t("t5-buckets.table_scroll"), table);
  tableBox.classList.add("pe-scroll--tall");
  root.append(
    h("div", { class: "pe-controls" }, nbField.wrap, mdField.wrap),
    modes,
    h("div", { class: "pe-controls" }, relField.wrap),
    h("div", { class: "pe-readout", "aria-live": "polite" }, lookup, summary),
    h("figure", { class: "pe-plotbox pe-plotbox--wide" }, h("figcaption", {}, t("t5-buckets.plot_caption")), plot),
    h("details", {}, h("summary", {}, t("t5-buckets.table_summary")), tableBox),
  );

  /** Read every control; render only when all of them, together, are valid. */
  function apply() {
    const nb = nbField.read();
    const md = mdField.read();
    const rel = relField.read();
    const bi = root.querySelector(`input[name="${modeName}"]:checked`).value === "true";
    if (!(nb.ok && md.ok && rel.ok)) return;
    // the two numbers can each be fine and still not fit together
    const oneSide = bi ? Math.floor(nb.value / 2) : nb.value;
    const problem = misfit(nb.value, md.value, bi);
    if (problem) {
      (Math.floor(oneSide / 2) < 1 ? nbField : mdField).showError(t("t5-buckets.field_error", { message: problem }));
      return;
    }
    Object.assign(state, { nb: nb.value, md: md.value, bi, rel: rel.value });
    render();
  }

  function render() {
    const { nb, md, bi, rel } = state;
    const { oneSide, maxExact } = t5Args(nb, md, bi);
    const edges = t5BucketEdges(bi, nb, md);
    const bucket = t5Bucket(-rel, bi, nb, md); // T5's code takes n − m, the negative of the lesson's distance
    const after = rel < 0;
    const r = Math.abs(rel);
    // the bucket's range of distances on its own side (buckets of keys after the query are the same shifted by oneSide)
    const own = after && bi ? bucket - oneSide : bucket;
    const [, first, last] = after && !bi ? edges[0] : edges.find(([b]) => b === own);
    const isLast = own === edges[edges.length - 1][0];
    setNum(out.rel, rel, formatInt(rel));
    setNum(out.bucket, bucket, formatInt(bucket));
    setNum(out.first, first, formatInt(first));
    setNum(out.last, last, formatInt(last));
    const side = rel > 0 ? t("t5-buckets.side_before", { r: formatInt(r) }) : rel === 0 ? t("t5-buckets.side_self") : t("t5-buckets.side_after", { r: formatInt(r) });
    let where;
    if (after && !bi) where = [t("t5-buckets.where_after_causal")];
    else if (r < maxExact) where = [t("t5-buckets.where_exact_1"), out.first, t("t5-buckets.where_exact_2")];
    else if (isLast) where = [t("t5-buckets.where_last_1"), out.first, t("t5-buckets.where_last_2", { md: formatInt(md) })];
    else where = [t("t5-buckets.where_log_1"), out.first, " … ", out.last, t("t5-buckets.where_log_2", { n: formatInt(last - first + 1) })];
    fill(lookup,
      "m − n = ", out.rel, t("t5-buckets.lookup_1", { side }), out.bucket, t("t5-buckets.lookup_2"), ...where,
      after && bi ? t("t5-buckets.other_half", { n: formatInt(oneSide) }) : "",
    );
    const logEdges = edges.filter(([b]) => b >= maxExact);
    const widest = logEdges.length > 1 ? logEdges[logEdges.length - 2] : null;
    fill(summary,
      bi ? t("t5-buckets.summary_bi", { nb: formatInt(nb) }) : t("t5-buckets.summary_uni"),
      num(oneSide, formatInt(oneSide), { "data-pe-out": "one-side" }),
      maxExact === 1 ? t("t5-buckets.summary_exact_one") : t("t5-buckets.summary_exact_1", { last: formatInt(maxExact - 1) }),
      num(maxExact - 1, formatInt(maxExact - 1), { "data-pe-out": "exact-end" }),
      t(maxExact === 1 ? "t5-buckets.summary_exact_one_2" : "t5-buckets.summary_exact_2", { max_exact: formatInt(maxExact) }),
      logEdges.length > 1
        ? [t("t5-buckets.summary_widest_1"), num(widest[2] - widest[1] + 1, formatInt(widest[2] - widest[1] + 1), { "data-pe-out": "widest" }), t("t5-buckets.summary_widest_2")]
        : "",
      t("t5-buckets.summary_last_1"), num(edges[edges.length - 1][1], formatInt(edges[edges.length - 1][1]), { "data-pe-out": "last-first" }), t("t5-buckets.summary_last_2"),
      edges.length < oneSide ? t("t5-buckets.summary_empty", { n: formatInt(oneSide - edges.length) }) : "",
      bi && nb % 2 === 1 ? t("t5-buckets.summary_odd", { nb: formatInt(nb), last: formatInt(nb - 1) }) : "", // T5's code halves num_buckets with //
    );
    drawTable(edges, maxExact, md);
    drawPlot(edges, maxExact, md, after && !bi ? 0 : r, own);
  }

  function drawTable(edges, maxExact, md) {
    fill(table,
      h("caption", {}, t("t5-buckets.table_caption")),
      h("thead", {}, h("tr", {}, ["col_bucket", "col_from", "col_to", "col_count", "col_range"].map((k) => h("th", { scope: "col" }, t(`t5-buckets.${k}`))))),
      h(
        "tbody",
        {},
        edges.map(([b, first, last], k) => {
          const end = k === edges.length - 1;
          return h(
            "tr",
            { "data-pe-row": b },
            h("th", { scope: "row" }, formatInt(b)),
            h("td", {}, num(first, formatInt(first), { "data-pe-col": "first" })),
            h("td", {}, end ? t("t5-buckets.farther") : num(last, formatInt(last), { "data-pe-col": "last" })),
            h("td", {}, end ? "∞" : num(last - first + 1, formatInt(last - first + 1), { "data-pe-col": "width" })),
            h("td", {}, b < maxExact ? t("t5-buckets.range_exact") : end ? `≥ ${formatInt(first)}` : t("t5-buckets.range_log")),
          );
        }),
      ),
    );
  }

  function drawPlot(edges, maxExact, md, r, own) {
    const top = edges[edges.length - 1][0];
    const xMax = Math.log10(md * 2 + 1);
    const x = (d) => PAD.l + (Math.log10(d + 1) / xMax) * (W - PAD.l - PAD.r);
    const y = (b) => PAD.t + (1 - b / (top || 1)) * (H - PAD.t - PAD.b);
    // the staircase: each bucket is a flat step over its distances, drawn up to 2·max_distance
    const points = [];
    edges.forEach(([b, first, last], k) => {
      const end = k === edges.length - 1 ? md * 2 : last + 1;
      points.push(`${x(first).toFixed(1)},${y(b).toFixed(1)}`, `${x(end).toFixed(1)},${y(b).toFixed(1)}`);
    });
    const shown = Math.min(r, md * 2);
    const ticks = [0, maxExact, md].filter((v, i, a) => a.indexOf(v) === i);
    // the top bucket starts at its own first distance, which can be well short of max_distance (it is with T5's own settings)
    const start = edges[edges.length - 1][1];
    plot.setAttribute("aria-label", t("t5-buckets.plot_aria", { last: formatInt(maxExact - 1), start: formatInt(start), top: formatInt(top) }));
    fill(plot,
      [0, Math.round(top / 2), top].map((b) => [
        s("line", { class: "pe-plot__grid", x1: PAD.l, x2: W - PAD.r, y1: y(b), y2: y(b) }),
        s("text", { class: "pe-plot__tick", x: PAD.l - 6, y: y(b) + 5, "text-anchor": "end" }, formatInt(b)),
      ]),
      ticks.map((d) => [
        s("line", { class: "pe-plot__ref", x1: x(d), x2: x(d), y1: PAD.t, y2: H - PAD.b }),
        s("text", { class: "pe-plot__tick", x: x(d), y: H - PAD.b + 18, "text-anchor": "middle" }, formatInt(d)),
      ]),
      s("text", { class: "pe-plot__tick", x: (W + PAD.l) / 2, y: H - 4, "text-anchor": "middle" }, t("t5-buckets.axis_distance")),
      s("polyline", { class: "pe-plot__line pe-plot__line--step", points: points.join(" ") }),
      s("circle", { class: "pe-plot__dot", cx: x(shown), cy: y(own), r: 5.5 }),
    );
  }

  render();
  activate(el, root);
}
