// Mounts every in-page experiment on the current page. Material's instant
// navigation swaps pages without a reload, so mount on each page it shows.
// Each widget is docs/javascripts/widgets/<name>.js exporting mount(element)
// (sync or async); _ui.js holds their shared parts and is not a widget.
//
// Widgets mount once the page has loaded (the window's load event; at once for a page that
// instant navigation shows): on a slow phone the text, the formulas and the figures come first,
// and a widget's scripts, styles and data do not hold back the load. Until it mounts, a widget's
// static figure stands in for it.
const loaded = new Map();

// The widgets' stylesheet, loaded with the widgets (not before the first paint: a slow phone draws the
// text sooner without it); a widget mounts once it has loaded, or failed to. Instant navigation drops
// stylesheets the next page does not link, so each page asks for it again (from the browser's cache).
function widgetStyles() {
  const href = new URL("../../stylesheets/widgets.css", import.meta.url).href;
  let link = [...document.querySelectorAll('link[rel="stylesheet"]')].find((l) => l.href === href);
  if (link && link.sheet) return Promise.resolve();
  if (!link) {
    link = Object.assign(document.createElement("link"), { rel: "stylesheet", href });
    document.head.append(link);
  }
  return new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", () => { link.remove(); resolve(); }, { once: true }); // the next page tries again
  });
}

// Each widget mounts on its own: one that waits for data (dataflow, scaling-explorer fetch JSON)
// or fails does not hold back the others on the page.
async function mountOne(el) {
  const name = el.dataset.peWidget;
  el.dataset.peMounted = "1";
  try {
    if (!loaded.has(name)) loaded.set(name, import(`./${name}.js`)); // it loads its own words (strings/<lang>/<name>.js)
    const [mod] = await Promise.all([loaded.get(name), widgetStyles()]);
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
