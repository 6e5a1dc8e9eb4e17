// t5-buckets (lesson 3b): T5's relative position buckets. A relative position j − i goes to
// one of num_buckets learned scalars: one bucket per distance below max_exact, then buckets
// that widen logarithmically up to max_distance, then one bucket for everything farther.
// The formulas are posenc/relative.py's (posenc-math.js t5Args, t5Bucket, t5BucketEdges).
//
// The page passes every starting value (data-*, all required; this file holds no defaults):
//   data-num-buckets    num_buckets, an integer ≥ 2 (T5: 32)
//   data-max-distance   max_distance, an integer > max_exact (T5: 128)
//   data-bidirectional  "true" (encoder: keys on both sides) or "false" (decoder: causal)
//   data-distance       the relative position j − i looked up, an integer (negative: the key is before the query)
// Bad input (num_buckets < 2, max_distance ≤ max_exact, no exact bucket, non-integers) shows a
// message at the field and keeps the last valid result; nothing is clamped.
import { formatInt, MAX_INPUT } from "../posenc-math/format.js";
import { t5Args, t5Bucket, t5BucketEdges } from "../posenc-math/relative.js";
import { activate, chartWidth, fill, frame, h, num, numberField, pageOptions, s, scroller, setNum, showFailure, uid } from "./_ui.js";

const MAX_BUCKETS = 4096; // the table lists every bucket
const MAX_DISTANCE = 1_000_000; // the edges are found by looking up every distance up to max_distance
const W = chartWidth(480); // 400 on a phone: its text stays legible (_ui.js)
const H = 250;
const PAD = { l: 44, r: 14, t: 14, b: 42 };

export function mount(el) {
  let opt;
  try {
    opt = pageOptions(el, { numBuckets: "int", maxDistance: "int", bidirectional: "bool", distance: "int" });
    t5Args(opt.numBuckets, opt.maxDistance, opt.bidirectional);
  } catch (err) {
    showFailure(el, err.message.includes("页内实验") ? err.message : `页面传入的参数不合要求：${err.message}。下面是构建时画好的静态图。`);
    throw err;
  }
  const state = { nb: opt.numBuckets, md: opt.maxDistance, bi: opt.bidirectional, rel: opt.distance };
  const root = frame(el, "试一试：相对位置 j − i 落进 T5 的哪个桶");

  const nbField = numberField({ label: "桶数 num_buckets", kind: "int", min: 2, max: MAX_BUCKETS }, state.nb, apply, { name: "num-buckets", size: 6 });
  const mdField = numberField({ label: "max_distance", kind: "int", min: 1, max: MAX_DISTANCE }, state.md, apply, { name: "max-distance", size: 8 });
  const relField = numberField({ label: "相对位置 j − i", kind: "int", min: -MAX_INPUT, max: MAX_INPUT }, state.rel, apply, {
    name: "distance",
    size: 8,
    hint: "负数：键在查询前面",
  });
  const modeName = uid("mode");
  const modes = h(
    "fieldset",
    { class: "pe-radios" },
    h("legend", {}, "方向"),
    [
      [true, "双向（编码器：前后的键都看）"],
      [false, "单向（解码器：只看前面的键）"],
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
  const tableBox = scroller("每个桶管的距离（可滚动）", table);
  tableBox.classList.add("pe-scroll--tall");
  root.append(
    h("div", { class: "pe-controls" }, nbField.wrap, mdField.wrap),
    modes,
    h("div", { class: "pe-controls" }, relField.wrap),
    h("div", { class: "pe-readout", "aria-live": "polite" }, lookup, summary),
    h("figure", { class: "pe-plotbox pe-plotbox--wide" }, h("figcaption", {}, "距离 → 桶（键在查询前面的一侧；横轴是对数刻度）"), plot),
    h("details", {}, h("summary", {}, "每个桶管哪些距离"), tableBox),
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
    try {
      t5Args(nb.value, md.value, bi);
    } catch (err) {
      (Math.floor(oneSide / 2) < 1 ? nbField : mdField).showError(`${err.message}。`);
      return;
    }
    Object.assign(state, { nb: nb.value, md: md.value, bi, rel: rel.value });
    render();
  }

  function render() {
    const { nb, md, bi, rel } = state;
    const { oneSide, maxExact } = t5Args(nb, md, bi);
    const edges = t5BucketEdges(bi, nb, md);
    const bucket = t5Bucket(rel, bi, nb, md);
    const after = rel > 0;
    const r = Math.abs(rel);
    // the bucket's range of distances on its own side (buckets of keys after the query are the same shifted by oneSide)
    const own = after && bi ? bucket - oneSide : bucket;
    const [, first, last] = after && !bi ? edges[0] : edges.find(([b]) => b === own);
    const isLast = own === edges[edges.length - 1][0];
    setNum(out.rel, rel, formatInt(rel));
    setNum(out.bucket, bucket, formatInt(bucket));
    setNum(out.first, first, formatInt(first));
    setNum(out.last, last, formatInt(last));
    const side = rel < 0 ? `键在查询前面 ${formatInt(r)} 个 token` : rel === 0 ? "键就是查询自己" : `键在查询后面 ${formatInt(r)} 个 token`;
    let where;
    if (after && !bi) where = ["单向模式下，查询后面的键都进桶 0，和距离 0 同桶（因果掩码反正会遮住它们）。"];
    else if (r < maxExact) where = ["精确区：一个距离一个桶（这个桶只管距离 ", out.first, "）。"];
    else if (isLast) where = ["最后一个桶：距离 ", out.first, " 起，包括 max_distance = ", formatInt(md), " 和更远的，都在这里，不再区分。"];
    else where = ["对数区：这个桶管距离 ", out.first, " … ", out.last, "，共 ", formatInt(last - first + 1), " 个距离共用一个数。"];
    fill(lookup,
      "j − i = ", out.rel, `：${side}，进桶 `, out.bucket, "。", ...where,
      after && bi ? `（查询后面的键用另一半桶：桶号加 ${formatInt(oneSide)}。）` : "",
    );
    const logEdges = edges.filter(([b]) => b >= maxExact);
    const widest = logEdges.length > 1 ? logEdges[logEdges.length - 2] : null;
    fill(summary,
      bi ? `双向：${formatInt(nb)} 个桶对半分，每个方向 ` : "单向：",
      num(oneSide, formatInt(oneSide), { "data-pe-out": "one-side" }),
      " 个桶。精确桶 0 … ", formatInt(maxExact - 1), " 各管一个距离，精确区到距离 ",
      num(maxExact - 1, formatInt(maxExact - 1), { "data-pe-out": "exact-end" }), " 为止（max_exact = ", formatInt(maxExact), "）；",
      logEdges.length > 1
        ? ["对数桶越往后越宽，倒数第二个桶已经管 ", num(widest[2] - widest[1] + 1, formatInt(widest[2] - widest[1] + 1), { "data-pe-out": "widest" }), " 个距离；"]
        : "",
      "最后一个桶从距离 ", num(edges[edges.length - 1][1], formatInt(edges[edges.length - 1][1]), { "data-pe-out": "last-first" }), " 起收下所有更远的距离。",
      edges.length < oneSide ? `（有 ${formatInt(oneSide - edges.length)} 个桶一个距离也分不到：max_distance 离 max_exact 太近，对数区太窄。）` : "",
    );
    drawTable(edges, maxExact, md);
    drawPlot(edges, maxExact, md, after && !bi ? 0 : r, own);
  }

  function drawTable(edges, maxExact, md) {
    fill(table,
      h("caption", {}, "键在查询前面的一侧（另一侧的桶号加每个方向的桶数）"),
      h("thead", {}, h("tr", {}, ["桶", "距离从", "到", "个数", "区"].map((t) => h("th", { scope: "col" }, t)))),
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
            h("td", {}, end ? "更远" : num(last, formatInt(last), { "data-pe-col": "last" })),
            h("td", {}, end ? "∞" : num(last - first + 1, formatInt(last - first + 1), { "data-pe-col": "width" })),
            h("td", {}, b < maxExact ? "精确" : end ? `≥ ${formatInt(first)}` : "对数"),
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
    plot.setAttribute("aria-label", `阶梯图：距离 0 到 ${formatInt(maxExact - 1)} 每个距离一个桶，之后台阶越来越宽，距离 ${formatInt(md)} 起都是桶 ${formatInt(top)}`);
    fill(plot,
      [0, Math.round(top / 2), top].map((b) => [
        s("line", { class: "pe-plot__grid", x1: PAD.l, x2: W - PAD.r, y1: y(b), y2: y(b) }),
        s("text", { class: "pe-plot__tick", x: PAD.l - 6, y: y(b) + 5, "text-anchor": "end" }, formatInt(b)),
      ]),
      ticks.map((d) => [
        s("line", { class: "pe-plot__ref", x1: x(d), x2: x(d), y1: PAD.t, y2: H - PAD.b }),
        s("text", { class: "pe-plot__tick", x: x(d), y: H - PAD.b + 18, "text-anchor": "middle" }, formatInt(d)),
      ]),
      s("text", { class: "pe-plot__tick", x: (W + PAD.l) / 2, y: H - 4, "text-anchor": "middle" }, "距离 |j − i|（虚线：0、max_exact、max_distance）"),
      s("polyline", { class: "pe-plot__line pe-plot__line--step", points: points.join(" ") }),
      s("circle", { class: "pe-plot__dot", cx: x(shown), cy: y(own), r: 5.5 }),
    );
  }

  render();
  activate(el, root);
}
