// sin-clock (lesson 3): d/2 clock hands of the sinusoidal encoding at position p.
// Hand i points at p·ω_i (mod 2π), clockwise from 12 o'clock, ω_i = base^(−2i/d).
// The page passes every starting value (data-*, all required; this file holds no defaults;
// posenc/examples.py WIDGET_DEFAULTS["sin-clock"] is what the widget() macro writes):
//   data-d         the encoding's width d, an even number 2 … 64
//   data-base      the base of ω_i = base^(−2i/d), > 1
//   data-position  the position shown first
//   data-presets   the preset positions, comma-separated ("3,1024,100000")
// Never autoplays: ▶ starts the animation, and it stops when the page changes, or with a
// message when p reaches the largest position the demo takes (MAX_INPUT).
// While it plays, each frame only moves the hands and rewrites the numbers in place: the
// grid of d numbers is built once per d (rebuilding it every frame cost ~4× the time at d = 64).
import { formatInt, formatNumber, MAX_INPUT } from "../posenc-math/format.js";
import { angularFrequencies, encode, handAngles, periods } from "../posenc-math/sinusoidal.js";
import { activate, fill, animation, button, frame, h, num, numberField, pageOptionsOrFail, s, selectField, setNum, t, loadWidgetStrings } from "./_ui.js";

await loadWidgetStrings("sin-clock"); // this widget's words in the page's language (strings/<lang>/sin-clock.js)

const NARROW = window.matchMedia("(max-width: 30em)").matches;

const MAX_DIM = 64; // 32 clock faces still fit on a phone
const SPEEDS = [1, 10, 100, 1000]; // tokens a second

export function mount(el) {
  const opt = pageOptionsOrFail(el, { d: "int", base: "number", position: "int", presets: "numbers" }, {
    d: { kind: "dim", max: MAX_DIM },
    base: { kind: "base" },
    position: { kind: "position" },
    presets: { kind: "position" },
  });
  const state = { d: opt.d, base: opt.base, p: opt.position, rate: 10, carry: 0 };
  const root = frame(el, t("sin-clock.title"));

  const pField = numberField({ label: t("sin-clock.position"), kind: "position" }, state.p, (v) => setP(v), { name: "position" });
  const dField = numberField({ label: t("sin-clock.dim"), kind: "dim", max: MAX_DIM }, state.d, (v) => update({ d: v }), { name: "d", size: 4 });
  const bField = numberField({ label: t("sin-clock.base"), kind: "base" }, state.base, (v) => update({ base: v }), { name: "base", size: 8 });
  const presets = h(
    "div",
    { class: "pe-presets", role: "group", "aria-label": t("sin-clock.presets") },
    h("span", { class: "pe-presets__label" }, t("sin-clock.presets_label")),
    opt.presets.map((p) => button(formatInt(p), () => setP(p, true), { "data-preset": p })),
  );
  const play = button(t("sin-clock.play"), () => (anim.running ? anim.stop() : startPlaying()), { "aria-pressed": "false", "data-pe-play": "" });
  const speeds = SPEEDS.map((n) => [String(n), t("sin-clock.rate", { n: formatInt(n) })]);
  const speed = selectField(t("sin-clock.speed"), speeds, String(state.rate), (v) => (state.rate = Number(v)), "speed");

  const faces = s("svg", { class: "pe-clock", role: "img" });
  const pShown = num(state.p, formatInt(state.p), { "data-pe-out": "position" });
  const maxAbs = num(0, "", { "data-pe-out": "max-abs" });
  const grid = h("div", { class: "pe-encoding" });
  const dims = h("span", { "data-pe-out": "dims" });
  // Only the sentence is announced; the numbers themselves are in the grid below it.
  const live = h("p", { "aria-live": "polite" },
    t("sin-clock.readout_1"), pShown, t("sin-clock.readout_2"), dims, t("sin-clock.readout_3"), maxAbs, t("sin-clock.readout_4"));
  const status = h("p", { class: "pe-status", role: "status", "data-pe-status": "" });
  const readout = h("div", { class: "pe-readout" }, live, grid);
  root.append(
    h("div", { class: "pe-controls" }, pField.wrap, presets),
    h("div", { class: "pe-controls" }, play, speed.wrap, dField.wrap, bField.wrap),
    status,
    faces,
    readout,
  );

  const atEnd = t("sin-clock.at_end", { max: formatInt(MAX_INPUT) });
  const anim = animation(el, (dt) => {
    state.carry += dt * state.rate;
    const step = Math.floor(state.carry);
    if (step > 0) {
      state.carry -= step;
      if (state.p + step >= MAX_INPUT) {
        setP(MAX_INPUT);
        anim.stop();
        status.textContent = atEnd;
      } else setP(state.p + step);
    }
  }, () => {
    play.textContent = t("sin-clock.play");
    play.setAttribute("aria-pressed", "false");
    live.setAttribute("aria-live", "polite");
  });

  function startPlaying() {
    if (state.p >= MAX_INPUT) {
      status.textContent = atEnd;
      return;
    }
    status.textContent = "";
    state.carry = 0;
    play.textContent = t("sin-clock.pause");
    play.setAttribute("aria-pressed", "true");
    live.setAttribute("aria-live", "off"); // no announcement per frame; the final value is announced on pause
    anim.start();
  }

  function setP(p, fromPreset = false) {
    state.p = p;
    if (!anim.running && p < MAX_INPUT) status.textContent = "";
    if (fromPreset || anim.running) pField.set(p);
    render();
  }

  function update(patch) {
    Object.assign(state, patch);
    drawFaces();
    buildGrid();
    render();
  }

  let hands = [];
  function drawFaces() {
    const n = state.d / 2;
    const cols = n <= 8 || NARROW ? 4 : 8; // on a phone four to a row, so each face (and its text) stays readable
    const rows = Math.ceil(n / cols);
    const cell = 100;
    faces.setAttribute("viewBox", `0 0 ${cols * cell} ${rows * (cell + 22)}`);
    faces.setAttribute("aria-label", t("sin-clock.faces", {
      n, shortest: formatNumber(periods(state.d, state.base)[0], 2), longest: formatInt(periods(state.d, state.base)[n - 1]) }));
    faces.replaceChildren();
    hands = [];
    const per = periods(state.d, state.base);
    for (let i = 0; i < n; i++) {
      const cx = (i % cols) * cell + cell / 2;
      const cy = Math.floor(i / cols) * (cell + 22) + 14 + 38;
      const hand = s("line", { class: "pe-clock__hand", x1: cx, y1: cy, x2: cx, y2: cy - 32, "data-pe-hand": i });
      hands.push({ hand, tip: s("circle", { class: "pe-clock__tip", r: 3.5, cx, cy: cy - 32 }), cx, cy });
      faces.append(
        s("text", { class: "pe-clock__label", x: cx, y: cy - 42 }, `i = ${i}`),
        s("circle", { class: "pe-clock__face", cx, cy, r: 36 }),
        s("line", { class: "pe-clock__tick", x1: cx, y1: cy - 36, x2: cx, y2: cy - 30 }),
        hand,
        hands[i].tip,
        s("circle", { class: "pe-clock__hub", cx, cy, r: 2.5 }),
        s("text", { class: "pe-clock__label", x: cx, y: cy + 52 }, t("sin-clock.period"), s("tspan", { "data-value": String(per[i]), "data-pe-period": i }, formatNumber(per[i], per[i] < 100 ? 2 : 0))),
      );
    }
  }

  // One item per dimension: its label, its number and a gauge; render() only rewrites them.
  let cells = [];
  function buildGrid() {
    const { d, base } = state;
    const w = angularFrequencies(d, base);
    cells = [];
    fill(grid,
      ...Array.from({ length: d }, (_, j) => {
        const value = num(0, "", { "data-pe-dim": j });
        const mark = h("span", { class: "pe-gauge__mark" });
        cells.push({ value, mark });
        return h(
          "div",
          { class: "pe-encoding__item" },
          h("span", { class: "pe-encoding__dim" }, `${j} · ${j % 2 ? "cos" : "sin"}(p·ω${Math.floor(j / 2)})`),
          value,
          h(
            "span",
            { class: "pe-gauge", "aria-hidden": "true", title: t("sin-clock.gauge", { omega: w[Math.floor(j / 2)].toExponential(3) }) },
            h("span", { class: "pe-gauge__end" }, "−1"),
            h("span", { class: "pe-gauge__track" }, mark),
            h("span", { class: "pe-gauge__end" }, "1"),
          ),
        );
      }),
    );
    dims.textContent = String(d);
  }

  function render() {
    const { p, d, base } = state;
    const angles = handAngles(p, d, base);
    hands.forEach(({ hand, tip, cx, cy }, i) => {
      const x = cx + 32 * Math.sin(angles[i]);
      const y = cy - 32 * Math.cos(angles[i]);
      hand.setAttribute("x2", x.toFixed(2));
      hand.setAttribute("y2", y.toFixed(2));
      hand.dataset.value = String(angles[i]); // the angle in radians, for the tests
      tip.setAttribute("cx", x.toFixed(2));
      tip.setAttribute("cy", y.toFixed(2));
    });
    const pe = encode(p, d, base);
    setNum(pShown, p, formatInt(p));
    const m = pe.reduce((a, v) => Math.max(a, Math.abs(v)), 0);
    setNum(maxAbs, m, formatNumber(m, 3));
    pe.forEach((v, j) => {
      setNum(cells[j].value, v, formatNumber(v, 3));
      cells[j].mark.style.left = `${((v + 1) / 2) * 100}%`;
    });
  }

  drawFaces();
  buildGrid();
  render();
  activate(el, root);
}
