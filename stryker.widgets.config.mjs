// Mutation testing of one in-page widget (docs/javascripts/widgets/<name>.js) against the browser tests that drive it:
// `make mutation-widgets WIDGETS=sin-heatmap`. For each mutant, tests/js/mutation/widget_mutant.sh serves the site built
// from this checkout with the sandbox's instrumented widget files and runs the browser tests named after the widget
// (sin-heatmap → pytest -k "sin_heatmap or …", with the two cheap every-widget tests below; the shared _ui.js → every
// widget test). A mutant costs a test run with page loads, 10-30 s, so a widget of 100-300 lines takes about an hour;
// not part of `make test`.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = dirname(fileURLToPath(import.meta.url));
const WIDGET = process.env.POSENC_WIDGET;
if (!WIDGET) throw new Error("set POSENC_WIDGET to a file name of docs/javascripts/widgets/ without .js, e.g. sin-heatmap");
const SITE = process.env.POSENC_MUTATION_SITE || join(ROOT, "site");
// The tests named after the widget, and the two every-widget tests that mount each widget bare on one page (its page
// options, and a changed example reaching it: a few seconds). The every-widget tests that load every lesson page
// (spacing, labels and sliders; the phone, dark and print checks) are left to the full suite: each would add about
// 15 s to every mutant.
const SHARED = "every_widget_needs_its_page_options or a_changed_example_reaches_every_widget";
const TESTS = process.env.POSENC_WIDGET_TESTS ?? (WIDGET === "_ui" ? "" : `${WIDGET.replaceAll("-", "_")} or ${SHARED}`);

export default {
  testRunner: "command",
  commandRunner: {
    command: `POSENC_ROOT=${ROOT} POSENC_MUTATION_SITE=${SITE} POSENC_WIDGET_TESTS="${TESTS}" bash ${join(ROOT, "tests/js/mutation/widget_mutant.sh")}`,
  },
  mutate: [`docs/javascripts/widgets/${WIDGET}.js`],
  // the sandbox needs only the widget files: the tests run from the repository root, against the built site
  ignorePatterns: ["/*", "!/docs", "/docs/*", "!/docs/javascripts", "/docs/javascripts/*", "!/docs/javascripts/widgets", "!/package.json"],
  coverageAnalysis: "off", // the command runner cannot tell which test covers which mutant
  concurrency: 1, // a shared two-core machine, and each run starts a browser
  timeoutMS: 180000,
  reporters: ["clear-text", "json", "progress"],
  jsonReporter: { fileName: `tests/js/mutation/widgets/${WIDGET}.json` },
  thresholds: { high: 90, low: 80, break: null },
};
