// A display formula, a table, a notebook's code or a row of tab labels wider than the page scrolls
// sideways (a table of 64 frequency pairs does on a phone; code wraps there instead, extra.css;
// Material handles its own code blocks). Where it does, it is marked .pe-scroll (extra.css draws a
// shadow at the edge of a formula with more to see) and made focusable, so arrow keys scroll it
// (axe-core scrollable-region-focusable); a display formula is also named and gets a visible hint
// under it. Checked once the page has loaded and its fonts (KaTeX's among them: the build sets every
// formula, tools/build/katex_render.py) are in, since they change the formulas' widths; again whenever a
// width changes (rotating a phone) and when a skipped block comes near the screen.
const SCROLLERS = "div.arithmatex, .md-typeset__scrollwrap, .md-typeset .tabbed-labels, .jupyter-wrapper pre";
// The page's language picks the words (the English edition's pages are lang="en").
const SCROLL_WORDS = {
  zh: { hint: "公式较宽，可左右滑动查看", label: "公式（可左右滚动）" },
  en: { hint: "Wide formula: scroll sideways to see all of it", label: "Formula (scrolls sideways)" },
};
const scrollWords = () => SCROLL_WORDS[document.documentElement.lang.startsWith("en") ? "en" : "zh"];

function markScroller(el) {
  const scrolls = el.scrollWidth > el.clientWidth + 1;
  if (scrolls === el.classList.contains("pe-scroll")) return;
  el.classList.toggle("pe-scroll", scrolls);
  const formula = el.matches("div.arithmatex");
  if (scrolls) {
    el.tabIndex = 0;
    if (formula) {
      el.setAttribute("role", "group");
      el.setAttribute("aria-label", scrollWords().label);
    }
  } else {
    for (const name of ["tabindex", "role", "aria-label"]) el.removeAttribute(name);
  }
  if (!formula) return;
  let hint = el.nextElementSibling;
  if (!hint || !hint.classList.contains("pe-scroll-hint")) {
    hint = document.createElement("p");
    hint.className = "pe-scroll-hint";
    hint.setAttribute("aria-hidden", "true"); // the formula's own label says that it scrolls
    hint.textContent = scrollWords().hint;
    el.after(hint);
  }
  hint.hidden = !scrolls;
}

const resized = new ResizeObserver((entries) => entries.forEach((entry) => markScroller(entry.target)));

// A block the browser skips until it comes near the screen (extra.css, content-visibility) reports no
// overflow while skipped: measure it again when it is rendered.
document.addEventListener("contentvisibilityautostatechange", (ev) => {
  if (!ev.skipped && ev.target.matches(SCROLLERS)) markScroller(ev.target);
}, true);

// After the load event, a few at a time while the browser is idle: measuring an element lays out its
// block, which a long lesson otherwise skips until it comes near the screen (extra.css,
// content-visibility); measuring them all at once held the page still for a second on a slow phone.
const pageLoaded = new Promise((resolve) => {
  if (document.readyState === "complete") resolve();
  else window.addEventListener("load", resolve, { once: true });
});
const idle = window.requestIdleCallback || ((run) => setTimeout(() => run({ timeRemaining: () => 8 }), 1));

document$.subscribe(({ body }) => {
  resized.disconnect(); // the last page's elements are gone
  Promise.all([pageLoaded, document.fonts.ready]).then(() => {
    const todo = [...body.querySelectorAll(SCROLLERS)];
    const work = (deadline) => {
      while (todo.length && deadline.timeRemaining() > 2) {
        const el = todo.shift();
        if (!el.isConnected) continue; // instant navigation has shown another page
        markScroller(el);
        resized.observe(el);
      }
      if (todo.length) idle(work, { timeout: 1000 });
      else document.documentElement.dataset.peScrollers = "checked"; // the browser tests wait for this
    };
    delete document.documentElement.dataset.peScrollers;
    idle(work, { timeout: 1000 });
  });
});
