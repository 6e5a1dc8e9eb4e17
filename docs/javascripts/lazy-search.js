// The search index is fetched when the reader opens the search, not on every first page load.
//
// Material's bundle requests search/search_index.json (≈1.1 MB, ≈190 KB gzipped) as soon as it
// starts, with an XMLHttpRequest, whether or not anyone searches: on a slow phone that is most of
// what a first page load moves. Material itself waits for the search to open when it runs from a
// file:// URL; it has no setting for that over HTTP. This script runs just before the bundle
// (overrides/main.html) and holds that one request back until the reader opens the search: a tap
// on the search icon (the #__search toggle), focus in the search box (a click, or Material's
// keyboard shortcuts f, s and /), or a page opened from a search result (?h=…, which
// search.highlight marks with the index). Every other request goes out as before. Until the index
// arrives, Material shows its own "initialising" line in the result list.
//
// Each language has its own index (tools/build/i18n.py): Material asks for the root's, search/search_index.json
// (Chinese, segmented with jieba); a page in another language (<html lang="en">) gets en/search/… instead
// (English, stemmed), so a search lists the pages of the reader's language.
(() => {
  const INDEX = "search/search_index.json";
  const LANGUAGE = document.documentElement.lang;
  const OWN_INDEX = LANGUAGE && LANGUAGE !== "zh";
  const { open, send } = XMLHttpRequest.prototype;
  const held = [];
  let released = false;

  function release() {
    if (released) return;
    released = true;
    for (const [xhr, args] of held.splice(0)) send.apply(xhr, args);
  }

  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    const target = new URL(url, location.href);
    this.peSearchIndex = target.pathname.endsWith(INDEX);
    if (this.peSearchIndex && OWN_INDEX && !target.pathname.endsWith(`/${LANGUAGE}/${INDEX}`)) {
      target.pathname = target.pathname.slice(0, -INDEX.length) + `${LANGUAGE}/${INDEX}`;
      url = target.href;
    }
    return open.call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (...args) {
    if (this.peSearchIndex && !released) held.push([this, args]);
    else send.apply(this, args);
  };

  if (new URLSearchParams(location.search).has("h")) release();
  const inSearch = (target) => target instanceof Element && target.closest(".md-search, label[for='__search']");
  document.addEventListener("pointerdown", (ev) => { if (inSearch(ev.target)) release(); }, true);
  document.addEventListener("focusin", (ev) => { if (inSearch(ev.target)) release(); }, true);
  document.addEventListener("change", (ev) => { if (ev.target.id === "__search" && ev.target.checked) release(); }, true);
})();
