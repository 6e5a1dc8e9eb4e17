// Mounts every in-page experiment on the current page. Material's instant
// navigation swaps pages without a reload, so mount on each page it shows.
// Each widget is docs/javascripts/widgets/<name>.js exporting mount(element)
// (sync or async); _ui.js holds their shared parts and is not a widget.
//
// Widgets mount once the page has loaded (the window's load event; at once for a page that
// instant navigation shows): on a slow phone the text, the formulas and the figures come first,
// and a widget's scripts and data do not hold back the load. Until it mounts, a widget's static
// figure stands in for it.
const loaded = new Map();

// Each widget mounts on its own: one that waits for data (dataflow, scaling-explorer fetch JSON)
// or fails does not hold back the others on the page.
async function mountOne(el) {
  const name = el.dataset.peWidget;
  el.dataset.peMounted = "1";
  try {
    if (!loaded.has(name)) loaded.set(name, import(`./${name}.js`));
    const mod = await loaded.get(name);
    await mod.mount(el); // a widget may be async (scaling-explorer loads model configs)
  } catch (err) {
    // Keep the static figure: the page stays readable even if a widget fails.
    el.classList.add("pe-widget--failed");
    console.error(`widget ${name} failed to mount`, err);
  }
}

function mountAll(root) {
  return Promise.all([...root.querySelectorAll("[data-pe-widget]:not([data-pe-mounted])")].map(mountOne));
}

const pageLoaded = new Promise((resolve) => {
  if (document.readyState === "complete") resolve();
  else window.addEventListener("load", resolve, { once: true });
});

document$.subscribe(({ body }) => pageLoaded.then(() => mountAll(body)));
