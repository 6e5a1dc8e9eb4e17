// The site's languages (tools/build/i18n.py), read from the selector the build writes: the default at the root.
// - The selector lands on the same page in the other language; instant navigation keeps the first page's
//   header, so its links are rewritten here from the current address.
// - A link into another language is a full page load: <html lang> (widgets, search, screen readers) and
//   the header would otherwise stay the old page's.
(() => {
  const select = () => [...document.querySelectorAll(".md-select__link[hreflang]")];
  const LANGUAGES = select().map((a) => a.hreflang); // the first is the default, at the root

  // The site's root path, from the build's own selector links: /posenc/x/ (default) and /posenc/<lang>/x/.
  function siteRoot() {
    const links = Object.fromEntries(select().map((a) => [a.hreflang, new URL(a.href, location.href).pathname]));
    const home = links[LANGUAGES[0]], lang = LANGUAGES[1], other = links[lang];
    if (!home || !other) return null;
    const prefix = `${lang}/`;
    for (let i = 0; i <= home.length; i++) {
      if (other.slice(i, i + prefix.length) === prefix && other.slice(0, i) === home.slice(0, i) && other.slice(i + prefix.length) === home.slice(i)) return home.slice(0, i);
    }
    return null;
  }
  const root = siteRoot();
  if (root === null) return;

  const languageOf = (path) => LANGUAGES.slice(1).find((l) => path.startsWith(`${root}${l}/`)) || LANGUAGES[0];
  const pagePath = (path) => {
    const lang = languageOf(path);
    return path.slice(root.length + (lang === LANGUAGES[0] ? 0 : lang.length + 1));
  };
  const counterpart = (url, lang) => root + (lang === LANGUAGES[0] ? "" : `${lang}/`) + pagePath(url.pathname) + url.hash;

  function refresh() {
    for (const a of select()) a.href = counterpart(new URL(location.href), a.hreflang);
  }

  document.addEventListener("click", (ev) => {
    const a = ev.target instanceof Element ? ev.target.closest("a[href]") : null;
    if (!a || ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey || a.target) return;
    if (a.matches(".md-select__link[hreflang]")) refresh();
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || !url.pathname.startsWith(root)) return;
    if (languageOf(url.pathname) === languageOf(location.pathname)) return;
    ev.preventDefault();
    ev.stopImmediatePropagation(); // before Material's instant navigation, which listens on the body
    location.assign(url.href);
  }, true);

  if (window.document$) window.document$.subscribe(refresh);
})();
