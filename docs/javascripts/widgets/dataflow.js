// dataflow (top of every lesson, and the home page): the decoder's path from token IDs to logits as a
// row of stages. The stages taught up to this lesson are learned, the rest greyed; a stage shows its
// input and output shapes and its parameters for the chosen model, and where that model's position
// method enters. Nothing is computed here: posenc/dataflow.py computes every shape and count and the
// build writes them to assets/dataflow.json (tools/build/pre_build.py), which this file only shows.
// Its words: the panel's from strings/<lang>/dataflow.js, the data's in the data, one per language (an English
// page fetches en/assets/dataflow.json).
//
// The page passes every starting value (data-*, all required; this file holds no defaults;
// posenc/examples.py WIDGET_DEFAULTS["dataflow"] is what the widget() macro writes):
//   data-lesson  the lesson whose state is shown ("1" … "6", "3b", "6b"), or "all" on the home page
//   data-model   the model shown first, or "" for the page's own (dataflow.json "start")
//   data-data    the panel's data as JSON, or "" to fetch assets/dataflow.json
//
// On a phone (NARROW) the panel starts folded to one button naming the stage it opens on; a tap unfolds it.
import { formatInt } from "../posenc-math/format.js";
import { activate, fill, h, num, pageLanguage, pageOptionsOrFail, refuse, selectField, t, uid, loadWidgetStrings } from "./_ui.js";

await loadWidgetStrings("dataflow");

const NARROW = "(max-width: 44.984375em)"; // Material's phone and small-tablet layout

const DATA = { zh: "../../assets/dataflow.json", en: "../../en/assets/dataflow.json" };
const shape = (dims) => dims.map((d) => (typeof d === "string" ? d : formatInt(d))).join(" × "); // "N", the sequence length, is a symbol

// The page language's data, fetched once per visit: instant navigation reuses it on the next page (a link
// into the other language is a full page load, so the language never changes under this module).
let shared = null;

const dataUrl = () => new URL(DATA[pageLanguage()], import.meta.url);

async function load(raw) {
  if (raw) return JSON.parse(raw);
  shared ??= fetch(dataUrl()).then((res) => {
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return res.json();
  });
  try {
    return structuredClone(await shared);
  } catch (err) {
    shared = null; // try again on the next page
    throw err;
  }
}

export async function mount(el) {
  const opt = pageOptionsOrFail(el, { lesson: "text", model: "text?", data: "text?" });
  let data;
  try {
    data = await load(opt.data);
  } catch (err) {
    refuse(el, t("dataflow.no_data", { error: err.message }));
  }
  const bad = (what) => refuse(el, t("dataflow.bad", { what }));
  const names = (list) => list.join(t("dataflow.name_join"));
  const { lessons, topics, stages, models } = data;
  if (![...lessons, "all"].includes(opt.lesson)) bad(t("dataflow.bad_lesson", { lesson: opt.lesson, choices: names([...lessons, "all"]) }));
  const first = opt.model || data.start[opt.lesson];
  if (!models.some((m) => m.key === first)) bad(t("dataflow.bad_model", { model: first, models: names(models.map((m) => m.key)) }));
  for (const m of models) {
    const missing = stages.filter(([key]) => !m.stages[key]).map(([key]) => key);
    if (missing.length) bad(t("dataflow.missing_stages", { model: m.key, stages: names(missing) }));
  }

  const here = lessons.indexOf(opt.lesson);
  const lessonOf = (topic) => topics[topic][0];
  const state = (topic) => (opt.lesson === "all" || lessons.indexOf(lessonOf(topic)) < here ? "learned" : lessonOf(topic) === opt.lesson ? "new" : "later");
  // "6b" named as its page names itself
  const lessonName = (n) => (n.endsWith("b") ? t("dataflow.lesson_sequel", { n: n.slice(0, -1) }) : t("dataflow.lesson", { n }));
  const lessonText = (topic) => lessonName(lessonOf(topic));
  // home: nothing is learned yet
  const stateText = (st) => t(opt.lesson === "all" ? "dataflow.state_map" : `dataflow.state_${st}`);
  const ui = { model: models.find((m) => m.key === first), stage: null };
  const title = opt.lesson === "all" ? t("dataflow.title_home") : t("dataflow.title_lesson", { lesson: lessonName(opt.lesson) });
  const bodyId = uid("flow");
  const titleId = uid("title");
  const toggle = h("button", { type: "button", class: "pe-flow__toggle", "aria-controls": bodyId, "data-pe-toggle": "" });
  const body = h("div", { class: "pe-flow__body", id: bodyId });
  const root = h("div", { class: "pe-live pe-flowpanel", role: "group", "aria-labelledby": titleId },
    h("p", { class: "pe-live__title pe-flow__head", id: titleId }, toggle), body);

  const picker = selectField(t("dataflow.model"), models.map((m) => [m.key, m.name]), first, (key) => {
    ui.model = models.find((m) => m.key === key);
    render();
  }, "model");
  const summary = h("div", { class: "pe-readout", "aria-live": "polite", "data-pe-out": "summary" });
  const row = h("ol", { class: "pe-flow", "aria-label": t("dataflow.stages_label"), onkeydown: moveFocus });
  const detail = h("div", { class: "pe-readout pe-flow__detail", "aria-live": "polite", "data-pe-out": "detail" });
  const fields = h("ul", {});
  body.append(
    h("p", { class: "pe-flow__title" }, title),
    h("div", { class: "pe-controls" }, picker.wrap),
    summary,
    row,
    h("p", { class: "pe-note" }, t("dataflow.legend")),
    detail,
    h("details", {}, h("summary", {}, t("dataflow.config")), fields),
  );

  function entryLine([topic, text], i) {
    const later = state(topic) === "later";
    return h("li", { "data-pe-entry": i, "data-state": state(topic) }, text, t(later ? "dataflow.entry_later" : "dataflow.entry_lesson", { lesson: lessonText(topic) }));
  }

  function render() {
    const m = ui.model;
    const entries = stages.flatMap(([key, name]) => m.stages[key].entries.map((e) => [name, e]));
    fill(summary,
      h("p", {}, t("dataflow.summary_1", { model: m.name, method: m.method_name }), num(m.position_parameters, formatInt(m.position_parameters), { "data-pe-out": "position-parameters" }),
        t("dataflow.summary_2"), num(m.total, formatInt(m.total), { "data-pe-out": "total" }), t("dataflow.summary_3")),
      h("p", {}, t("dataflow.where")),
      h("ul", {}, entries.length ? entries.map(([name, e], i) => entryLine([e[0], t("dataflow.stage_entry", { stage: name, text: e[1] })], i)) : entryLine(m.note, 0)),
    );
    fill(row, stages.map(([key, name, topic, perLayer]) => {
      const s = m.stages[key];
      const st = state(topic);
      const later = s.entries.length > 0 && s.entries.every(([t]) => state(t) === "later");
      return h("li", { class: `pe-flow__item pe-flow__item--${st}${perLayer ? " pe-flow__item--layer" : ""}` },
        h("button", { type: "button", class: "pe-flow__stage", "aria-pressed": String(key === ui.stage), tabindex: key === ui.stage ? "0" : "-1",
          "data-pe-stage": key, "data-state": st, onclick: () => select(key) },
          h("span", { class: "pe-flow__name" }, name),
          h("span", { class: "pe-flow__meta" }, `${lessonText(topic)} · ${stateText(st)}${perLayer ? t("dataflow.per_layer", { n: m.layers }) : ""}`),
          s.entries.length ? h("span", { class: "pe-flow__pos", "data-pe-pos": later ? "later" : "" },
            t("dataflow.enters_here") + (later ? t("dataflow.enters_later", { lesson: lessonText(s.entries[0][0]) }) : "")) : null,
        ));
    }));
    // as in the text, a tag links to its source (relative to the data's file); the course's models have none
    fill(fields, m.fields.map(([label, value, tag, link]) => h("li", {}, t("dataflow.field", { label, value: typeof value === "number" ? formatInt(value) : value }),
      tag ? h("a", { class: `pe-tag pe-tag--${tag.toLowerCase()}`, href: new URL(link, dataUrl()).href, "aria-label": t("dataflow.tag_link", { label: t(`dataflow.tag_${tag}`), field: label }) }, t(`dataflow.tag_${tag}`)) : null)));
    showStage();
  }

  function select(key) {
    ui.stage = key;
    row.querySelectorAll("[data-pe-stage]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.peStage === key)));
    showStage();
  }

  // One Tab stop for the stages (a roving tabindex): the arrow keys, Home and End move focus, Enter or Space chooses.
  function moveFocus(ev) {
    const buttons = [...row.querySelectorAll("[data-pe-stage]")];
    const at = buttons.indexOf(document.activeElement);
    if (at < 0) return;
    const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: buttons.length - 1 }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    const next = buttons[Math.max(0, Math.min(buttons.length - 1, to))];
    for (const b of buttons) b.tabIndex = b === next ? 0 : -1;
    next.focus();
  }

  // Folded on a phone: one line that names this page's stage; the reader unfolds it. The page's width
  // decides until the reader has used the button (rotating a phone folds or unfolds it then).
  const narrow = window.matchMedia(NARROW);
  let chosen = false;
  function setOpen(open) {
    toggle.setAttribute("aria-expanded", String(open));
    body.hidden = !open;
    root.classList.toggle("pe-flowpanel--folded", !open);
  }
  toggle.addEventListener("click", () => {
    chosen = true;
    setOpen(body.hidden);
  });
  narrow.addEventListener("change", function follow() {
    if (!el.isConnected) return narrow.removeEventListener("change", follow); // instant navigation left the page
    if (!chosen) setOpen(!narrow.matches);
  });

  function showStage() {
    const [key, name, topic] = stages.find(([k]) => k === ui.stage);
    const s = ui.model.stages[key];
    const tensors = (list, side) => list.map(([n, dims], i) => [i ? t("dataflow.tensor_join") : "", n,
      dims.length ? [t("dataflow.tensor_shape"), h("span", { class: "pe-num", "data-pe-shape": `${side}-${i}` }, shape(dims))] : ""]);
    const parts = s.parts.map(([n, factors, count]) =>
      h("li", { "data-pe-part": n }, t("dataflow.part", { name: n, factors: factors.map(formatInt).join(" × ") }), num(count, formatInt(count), { "data-pe-out": "part" })));
    const each = s.repeat > 1 ? t("dataflow.each", { n: formatInt(s.parameters / s.repeat), layers: s.repeat }) : "";
    fill(detail,
      h("p", {}, h("strong", { "data-pe-out": "stage-name" }, name), t("dataflow.stage_where", { lesson: lessonText(topic), state: stateText(state(topic)) })),
      h("p", {}, t("dataflow.inputs"), tensors(s.inputs, "in")),
      h("p", {}, t("dataflow.outputs"), tensors(s.outputs, "out")),
      h("p", {}, t("dataflow.params_1", { each }), num(s.parameters, formatInt(s.parameters), { "data-pe-out": "stage-parameters" }),
        t(parts.length ? "dataflow.params_list" : "dataflow.params_end")),
      parts.length ? h("ul", {}, parts) : null,
      s.entries.length ? h("ul", { class: "pe-flow__entries" }, s.entries.map((e, i) => entryLine([e[0], t("dataflow.entry_detail", { text: e[1] })], i))) : null,
      s.note ? h("p", { class: "pe-note" }, s.note) : null,
    );
  }

  // Open on the first stage this lesson adds, else the first where position enters, else the first.
  const m0 = ui.model;
  ui.stage = (stages.find(([, , topic]) => state(topic) === "new") ||
    stages.find(([key]) => m0.stages[key].entries.some(([t]) => state(t) !== "later")) || stages[0])[0];
  const stageName = stages.find(([k]) => k === ui.stage)[1];
  toggle.append(
    h("span", { class: "pe-flow__toggle-name" }, t("dataflow.toggle")),
    h("span", { class: "pe-flow__toggle-here" }, opt.lesson === "all" ? t("dataflow.toggle_home") : t("dataflow.toggle_lesson", { stage: stageName })),
    h("span", { class: "pe-flow__toggle-icon", "aria-hidden": "true" }),
  );
  setOpen(!narrow.matches);
  render();
  activate(el, root);
}
