// Tapping a figure opens it at full size. Each figure image is a link to its SVG
// (tools/build/macros.py figure()): without JavaScript the browser opens the SVG itself. Here the SVG
// opens instead in a modal dialog on the page's own background, at its natural size (scrolling
// and pinch-zoom work there), so the dark variant stays readable in the dark scheme.
// Keyboard: Enter on the focused figure opens it; Esc or the close button closes it, and focus
// returns to the figure (the browser's behaviour for a modal <dialog>).
// One listener on the document: it serves every page Material's instant navigation shows.

// The page's language picks the words (the English edition's pages are lang="en").
const FIGURE_WORDS = { zh: { dialog: "原尺寸大图", close: "关闭" }, en: { dialog: "Figure at full size", close: "Close" } };
const figureWords = () => FIGURE_WORDS[document.documentElement.lang.startsWith("en") ? "en" : "zh"];

function figureDialog() {
  let dialog = document.querySelector("dialog.pe-lightbox");
  if (dialog) return dialog;
  dialog = document.createElement("dialog");
  dialog.className = "pe-lightbox";
  dialog.setAttribute("aria-label", figureWords().dialog);
  const close = document.createElement("button");
  close.type = "button";
  close.className = "pe-lightbox__close md-button";
  close.textContent = figureWords().close;
  close.addEventListener("click", () => dialog.close());
  const frame = document.createElement("div");
  frame.className = "pe-lightbox__frame";
  const img = document.createElement("img");
  frame.append(img);
  dialog.append(close, frame);
  // a click on the backdrop (outside the frame and the button) closes the dialog
  dialog.addEventListener("click", (ev) => { if (ev.target === dialog) dialog.close(); });
  dialog.addEventListener("close", () => { img.removeAttribute("src"); });
  document.body.append(dialog);
  return dialog;
}

document.addEventListener("click", (ev) => {
  const link = ev.target.closest && ev.target.closest("a.pe-zoom");
  if (!link || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
  if (typeof HTMLDialogElement !== "function") return; // the link opens the SVG
  ev.preventDefault();
  const source = link.querySelector("img");
  const dialog = figureDialog();
  const img = dialog.querySelector("img");
  img.alt = source ? source.alt : "";
  img.src = link.href;
  dialog.showModal();
  dialog.querySelector(".pe-lightbox__close").focus();
});
