// Render $…$ and $$…$$ with the KaTeX the site serves itself (no CDN).
// Material's instant navigation swaps pages without a reload, so render on
// every page it shows (document$), not once on load.
document$.subscribe(({ body }) => {
  renderMathInElement(body, {
    delimiters: [
      { left: "$$", right: "$$", display: true },
      { left: "$", right: "$", display: false },
      { left: "\\(", right: "\\)", display: false },
      { left: "\\[", right: "\\]", display: true },
    ],
    throwOnError: false,
  });
});

// A display formula, a table or a row of tab labels wider than the page scrolls sideways (a
// lesson's step tabs do on a 390 px phone). Where it does, it is marked .pe-scroll (extra.css
// draws a shadow at the edge of a formula with more to see) and made focusable, so arrow keys
// scroll it (axe-core scrollable-region-focusable); a display formula is also named and gets a
// visible hint under it. Checked once KaTeX's fonts have loaded, since they change the formulas'
// widths, and again whenever a width changes (rotating a phone).
const SCROLLERS = "div.arithmatex, .md-typeset__scrollwrap, .md-typeset .tabbed-labels";
const HINT = "公式较宽，可左右滑动查看";

function markScroller(el) {
  const scrolls = el.scrollWidth > el.clientWidth + 1;
  if (scrolls === el.classList.contains("pe-scroll")) return;
  el.classList.toggle("pe-scroll", scrolls);
  const formula = el.matches("div.arithmatex");
  if (scrolls) {
    el.tabIndex = 0;
    if (formula) {
      el.setAttribute("role", "group");
      el.setAttribute("aria-label", "公式（可左右滚动）");
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
    hint.textContent = HINT;
    el.after(hint);
  }
  hint.hidden = !scrolls;
}

const resized = new ResizeObserver((entries) => entries.forEach((entry) => markScroller(entry.target)));

document$.subscribe(({ body }) => {
  resized.disconnect(); // the last page's elements are gone
  document.fonts.ready.then(() => {
    for (const el of body.querySelectorAll(SCROLLERS)) {
      markScroller(el);
      resized.observe(el);
    }
  });
});
