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

// A formula or table wider than the page scrolls sideways: let keyboard users reach it
// (axe-core scrollable-region-focusable).
// Checked once KaTeX's fonts have loaded, since they change the formulas' widths.
document$.subscribe(({ body }) => {
  document.fonts.ready.then(() => {
    for (const el of body.querySelectorAll("div.arithmatex, .md-typeset__scrollwrap")) {
      if (el.scrollWidth > el.clientWidth) el.tabIndex = 0;
    }
  });
});
