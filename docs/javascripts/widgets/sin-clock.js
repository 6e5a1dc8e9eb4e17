// sin-clock (lesson 3): d/2 clock hands of the sinusoidal encoding at position p.
// Hand i points at p·ω_i (mod 2π), clockwise from 12 o'clock, ω_i = base^(−2i/d).
// Options (data-* on the mount point): d, base, position, presets ("3,1024,100000"),
// defaults as posenc/demo.py (DEMO_DIM, DEFAULT_BASE, NEAR_POSITION, encoding_positions()).
// Never autoplays: ▶ starts the animation, and it stops when the page changes.
import { angularFrequencies, encode, formatInt, formatNumber, handAngles, MAX_INPUT, periods } from "../posenc-math.js";
import { activate, fill, animation, button, frame, h, num, numberField, options, s, selectField, setNum } from "./_ui.js";

const DEFAULTS = { d: 16, base: 10000, position: 3, presets: [3, 1024, 100000] };
const MAX_DIM = 64; // 32 clock faces still fit on a phone
const SPEEDS = [
  ["1", "每秒 1 个 token"],
  ["10", "每秒 10 个 token"],
  ["100", "每秒 100 个 token"],
  ["1000", "每秒 1,000 个 token"],
];

export function mount(el) {
  const opt = options(el, DEFAULTS);
  const state = { d: opt.d, base: opt.base, p: opt.position, rate: 10, carry: 0 };
  const root = frame(el, "试一试：每根指针的角度 = p × ωᵢ");

  const pField = numberField({ label: "位置 p", kind: "position" }, state.p, (v) => setP(v), { name: "position" });
  const dField = numberField({ label: "维度 d", kind: "dim", max: MAX_DIM }, state.d, (v) => update({ d: v }), { name: "d", size: 4 });
  const bField = numberField({ label: "base", kind: "base" }, state.base, (v) => update({ base: v }), { name: "base", size: 8 });
  const presets = h(
    "div",
    { class: "pe-presets", role: "group", "aria-label": "预设位置" },
    h("span", { class: "pe-presets__label" }, "预设："),
    opt.presets.map((p) => button(formatInt(p), () => setP(p, true), { "data-preset": p })),
  );
  const play = button("▶ 播放", () => (anim.running ? anim.stop() : startPlaying()), { "aria-pressed": "false", "data-pe-play": "" });
  const speed = selectField("速度", SPEEDS, String(state.rate), (v) => (state.rate = Number(v)), "speed");

  const faces = s("svg", { class: "pe-clock", role: "img" });
  const pShown = num(state.p, formatInt(state.p), { "data-pe-out": "position" });
  const maxAbs = num(0, "", { "data-pe-out": "max-abs" });
  const grid = h("div", { class: "pe-encoding" });
  // Only the sentence is announced; the numbers themselves are in the grid below it.
  const live = h("p", { "aria-live": "polite" }, "位置 p = ", pShown, " 的编码：", h("span", { "data-pe-out": "dims" }), " 个数，每个都在 [−1, 1] 之内（绝对值最大的是 ", maxAbs, "）。");
  const readout = h("div", { class: "pe-readout" }, live, grid);
  root.append(
    h("div", { class: "pe-controls" }, pField.wrap, presets),
    h("div", { class: "pe-controls" }, play, speed.wrap, dField.wrap, bField.wrap),
    faces,
    readout,
  );

  const anim = animation(el, (dt) => {
    state.carry += dt * state.rate;
    const step = Math.floor(state.carry);
    if (step > 0) {
      state.carry -= step;
      setP(Math.min(MAX_INPUT, state.p + step));
    }
  }, () => {
    play.textContent = "▶ 播放";
    play.setAttribute("aria-pressed", "false");
    live.setAttribute("aria-live", "polite");
  });

  function startPlaying() {
    state.carry = 0;
    play.textContent = "■ 暂停";
    play.setAttribute("aria-pressed", "true");
    live.setAttribute("aria-live", "off"); // no announcement per frame; the final value is announced on pause
    anim.start();
  }

  function setP(p, fromPreset = false) {
    state.p = p;
    if (fromPreset || anim.running) pField.set(p);
    render();
  }

  function update(patch) {
    Object.assign(state, patch);
    drawFaces();
    render();
  }

  let hands = [];
  function drawFaces() {
    const n = state.d / 2;
    const cols = n <= 8 ? 4 : 8;
    const rows = Math.ceil(n / cols);
    const cell = 100;
    faces.setAttribute("viewBox", `0 0 ${cols * cell} ${rows * (cell + 22)}`);
    faces.setAttribute("aria-label", `${n} 个钟面，第 i 个钟面的指针指向 p × ωᵢ；周期从 ${formatNumber(periods(state.d, state.base)[0], 2)} 到 ${formatInt(periods(state.d, state.base)[n - 1])} 个 token`);
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
        s("text", { class: "pe-clock__label", x: cx, y: cy + 52 }, "周期 ", s("tspan", { "data-value": String(per[i]), "data-pe-period": i }, formatNumber(per[i], per[i] < 100 ? 2 : 0))),
      );
    }
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
    readout.querySelector("[data-pe-out=dims]").textContent = String(d);
    const m = pe.reduce((a, v) => Math.max(a, Math.abs(v)), 0);
    setNum(maxAbs, m, formatNumber(m, 3));
    const w = angularFrequencies(d, base);
    fill(grid,
      ...Array.from(pe, (v, j) => {
        const fn = j % 2 ? "cos" : "sin";
        return h(
          "div",
          { class: "pe-encoding__item" },
          h("span", { class: "pe-encoding__dim" }, `${j} · ${fn}(p·ω${Math.floor(j / 2)})`),
          num(v, formatNumber(v, 3), { "data-pe-dim": j }),
          h(
            "span",
            { class: "pe-gauge", "aria-hidden": "true", title: `范围 [−1, 1]，ω = ${w[Math.floor(j / 2)].toExponential(3)}` },
            h("span", { class: "pe-gauge__end" }, "−1"),
            h("span", { class: "pe-gauge__track" }, h("span", { class: "pe-gauge__mark", style: `left:${((v + 1) / 2) * 100}%` })),
            h("span", { class: "pe-gauge__end" }, "1"),
          ),
        );
      }),
    );
  }

  drawFaces();
  render();
  activate(el, root);
}
