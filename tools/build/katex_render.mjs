// The build's math renderer (tools/build/katex_render.py starts it once per build): KaTeX from node_modules,
// the version package-lock.json pins. Reads one job per line on stdin, {"tex": "...", "display": bool},
// and answers each on one line of stdout: {"html": "..."} or {"error": "KaTeX's message"}.
// The first line it writes is {"version": "<KaTeX's version>"}, part of the cache key.
import readline from "node:readline";
import katex from "katex";

const OPTIONS = { output: "htmlAndMathml", throwOnError: true, strict: "ignore" };
// KaTeX copies each formula's TeX source into its MathML as an annotation: screen readers read the MathML and
// skip it, the page offers no copy-as-TeX, and on a formula-heavy lesson it is some 19 KB a phone downloads.
const TEX_ANNOTATION = /<annotation encoding="application\/x-tex">[^<]*<\/annotation>/g;

process.stdout.write(JSON.stringify({ version: katex.version }) + "\n");
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  const { tex, display } = JSON.parse(line);
  let answer;
  try {
    answer = { html: katex.renderToString(tex, { ...OPTIONS, displayMode: display }).replace(TEX_ANNOTATION, "") };
  } catch (err) {
    answer = { error: err instanceof katex.ParseError ? err.message : String(err) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
});
