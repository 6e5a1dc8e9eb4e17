// rope-pair (lesson 4): one rotating pair of a query and a key.
// RoPE turns q (at position m) by m·ω and k (at position n) by n·ω, so
//   q_m · k_n = |q||k| cos((m − n)·ω + φ_q − φ_k)
// depends on the distance m − n only (the course's sign: positive when the key comes first, as under a
// causal mask): shift both and the score stays. The comparison adds the
// sinusoidal pair (sin pω, cos pω) to q and k instead (lesson 3's way of adding
// position, here added straight to the pair); its score changes with the shift.
// The page passes every starting value (data-*, all required; this file holds no defaults;
// posenc/examples.py WIDGET_DEFAULTS["rope-pair"] is what the widget() macro writes):
//   data-d, data-base   the head's width and base (ω_i = base^(−2i/d)); data-pair  the pair i shown first
//   data-m, data-n      the positions of q and k;  data-shift  how far one press moves both
//   data-q, data-k      the pair's two numbers of q and of k ("1,0.4")
// Every word comes from strings/<lang>.js (keys "rope-pair.*") through t().
import { formatInt, formatNumber, formatSci, MAX_INPUT } from "../posenc-math/format.js";
import { vdot } from "../posenc-math/sinusoidal.js";
import { inverseFrequencies, rotatePair } from "../posenc-math/rope.js";
import { activate, fill, frame, h, limitedButton, num, numberField, pageOptionsOrFail, refuse, s, scroller, selectField, t, loadWidgetStrings } from "./_ui.js";

await loadWidgetStrings("rope-pair"); // this widget's words in the page's language (strings/<lang>/rope-pair.js)

const HISTORY = 6;
const R = 70; // SVG radius of length 1

export function mount(el) {
  const opt = pageOptionsOrFail(el, { d: "int", base: "number", pair: "int", m: "int", n: "int", shift: "int", q: "numbers", k: "numbers" }, {
    d: { kind: "dim", max: 4096 },
    base: { kind: "base" },
    pair: { kind: "int", min: 0 },
    m: { kind: "position" },
    n: { kind: "position" },
    shift: { kind: "int", min: 1 },
  });
  const omegas = inverseFrequencies(opt.d, opt.base);
  if (opt.pair >= omegas.length) refuse(el, t("rope-pair.bad_pair", { d: opt.d, pairs: omegas.length, last: omegas.length - 1, pair: opt.pair }));
  if (opt.q.length !== 2 || opt.k.length !== 2) refuse(el, t("rope-pair.bad_qk", { q: opt.q.length, k: opt.k.length }));
  const state = { m: opt.m, n: opt.n, pair: opt.pair, history: [] };
  const root = frame(el, t("rope-pair.title", { shift: opt.shift }));

  const mField = numberField({ label: t("rope-pair.m"), kind: "position" }, state.m, (v) => edit({ m: v }), { name: "m", size: 7 });
  const nField = numberField({ label: t("rope-pair.n"), kind: "position" }, state.n, (v) => edit({ n: v }), { name: "n", size: 7 });
  const pairs = Array.from(omegas, (w, i) => [String(i), t("rope-pair.pair_option", { i, omega: w < 0.01 ? w.toExponential(2) : formatNumber(w, 4) })]);
  const pairField = selectField(t("rope-pair.pair"), pairs, state.pair, (v) => edit({ pair: Number(v) }), "pair");
  const shiftBtn = limitedButton(t("rope-pair.shift", { shift: opt.shift }), shift, { "data-pe-shift": "" });

  const arrows = {
    q: s("line", { class: "pe-pair__q", x1: 0, y1: 0 }),
    k: s("line", { class: "pe-pair__k", x1: 0, y1: 0 }),
    qLabel: s("text", { class: "pe-pair__text" }, "q"),
    kLabel: s("text", { class: "pe-pair__text" }, "k"),
  };
  const svg = s(
    "svg",
    { class: "pe-pair", viewBox: "-100 -100 200 200", role: "img", "aria-label": t("rope-pair.circle") },
    s("circle", { class: "pe-pair__circle", cx: 0, cy: 0, r: R }),
    s("line", { class: "pe-pair__axis", x1: -95, y1: 0, x2: 95, y2: 0 }),
    s("line", { class: "pe-pair__axis", x1: 0, y1: -95, x2: 0, y2: 95 }),
    arrows.q,
    arrows.k,
    arrows.qLabel,
    arrows.kLabel,
  );

  const now = h("p", {});
  const table = h("table", { class: "pe-table" });
  const note = h("p", {});
  root.append(
    h("div", { class: "pe-controls" }, mField.wrap, nField.wrap, pairField.wrap),
    h("div", { class: "pe-controls" }, shiftBtn.wrap),
    svg,
    h("div", { class: "pe-readout" }, h("div", { "aria-live": "polite" }, now, note), scroller(t("rope-pair.history"), table)),
  );

  function scores(m, n) {
    const w = omegas[state.pair];
    const rope = vdot(rotatePair(opt.q, m * w), rotatePair(opt.k, n * w));
    const qa = [opt.q[0] + Math.sin(m * w), opt.q[1] + Math.cos(m * w)];
    const ka = [opt.k[0] + Math.sin(n * w), opt.k[1] + Math.cos(n * w)];
    return { m, n, rope, added: vdot(qa, ka) };
  }

  function edit(patch) {
    Object.assign(state, patch);
    state.history = [scores(state.m, state.n)];
    render();
  }

  function shift() {
    state.m += opt.shift;
    state.n += opt.shift;
    mField.set(state.m);
    nField.set(state.n);
    state.history = [...state.history, scores(state.m, state.n)].slice(-HISTORY);
    render();
  }

  function render() {
    const top = Math.max(state.m, state.n) + opt.shift;
    shiftBtn.disable(top > MAX_INPUT ? t("rope-pair.limit", { shift: opt.shift, max: formatInt(MAX_INPUT) }) : "");
    const w = omegas[state.pair];
    const q = rotatePair(opt.q, state.m * w);
    const k = rotatePair(opt.k, state.n * w);
    for (const [key, v] of [["q", q], ["k", k]]) {
      arrows[key].setAttribute("x2", (v[0] * R).toFixed(2));
      arrows[key].setAttribute("y2", (-v[1] * R).toFixed(2));
      arrows[`${key}Label`].setAttribute("x", (v[0] * R * 1.2 - 4).toFixed(2));
      arrows[`${key}Label`].setAttribute("y", (-v[1] * R * 1.2 + 4).toFixed(2));
    }
    const cur = state.history[state.history.length - 1];
    fill(now,
      t("rope-pair.now_1"), num(state.m - state.n, formatInt(state.m - state.n), { "data-pe-out": "offset" }),
      t("rope-pair.now_2"), num(cur.rope, formatNumber(cur.rope, 4), { "data-pe-out": "rope" }),
      t("rope-pair.now_3"), num(cur.added, formatNumber(cur.added, 4), { "data-pe-out": "added" }), t("rope-pair.now_4"),
    );
    fill(table,
      h("caption", {}, t("rope-pair.caption")),
      h("thead", {}, h("tr", {}, ["m", "n", t("rope-pair.col_rope"), t("rope-pair.col_added")].map((c) => h("th", { scope: "col" }, c)))),
      h(
        "tbody",
        {},
        state.history.map((r, row) =>
          h(
            "tr",
            { "data-pe-row": row },
            h("td", {}, num(r.m, formatInt(r.m), { "data-pe-col": "m" })),
            h("td", {}, num(r.n, formatInt(r.n), { "data-pe-col": "n" })),
            h("td", {}, num(r.rope, formatNumber(r.rope, 4), { "data-pe-col": "rope" })),
            h("td", {}, num(r.added, formatNumber(r.added, 4), { "data-pe-col": "added" })),
          ),
        ),
      ),
    );
    const first = state.history[0];
    const dRope = Math.max(...state.history.map((r) => Math.abs(r.rope - first.rope)));
    const dAdded = Math.max(...state.history.map((r) => Math.abs(r.added - first.added)));
    fill(note,
      state.history.length < 2
        ? t("rope-pair.hint", { shift: opt.shift })
        : h(
            "span",
            {},
            t("rope-pair.change_1"), num(dRope, formatSci(dRope, 1), { "data-pe-out": "rope-change" }),
            t("rope-pair.change_2"), num(dAdded, formatNumber(dAdded, 4), { "data-pe-out": "added-change" }), t("rope-pair.change_3"),
          ),
    );
  }

  state.history = [scores(state.m, state.n)];
  render();
  activate(el, root);
}
