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
