// Mutation testing of one in-page widget (docs/javascripts/widgets/<name>.js) against the browser tests that drive it:
// `make mutation-widgets WIDGETS=sin-heatmap`, which starts tests/js/mutation/widget_server.py: one pytest session with
// the widget's browser tests, a browser and the site built from this checkout, which starts this Stryker run and runs
// the tests for each mutant that the command below asks about (the instrumented widget files served from Stryker's
// sandbox, the mutant switched on in them). Not part of `make test`.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = dirname(fileURLToPath(import.meta.url));
const WIDGET = process.env.POSENC_WIDGET;
if (!WIDGET) throw new Error("run `make mutation-widgets WIDGETS=sin-heatmap` (it sets POSENC_WIDGET and starts the test session this run talks to)");

export default {
  testRunner: "command",
  commandRunner: {
    command: `${join(ROOT, ".venv/bin/python")} ${join(ROOT, "tests/js/mutation/widget_client.py")}`,
  },
  mutate: [`docs/javascripts/widgets/${WIDGET}.js`],
  // the sandbox needs only the widget files: the tests run from the repository root, against the built site
  ignorePatterns: ["/*", "!/docs", "/docs/*", "!/docs/javascripts", "/docs/javascripts/*", "!/docs/javascripts/widgets", "!/package.json"],
  coverageAnalysis: "off", // the command runner cannot tell which test covers which mutant
  concurrency: 1, // one test session answers the commands, one mutant at a time
  timeoutMS: 180000,
  reporters: ["clear-text", "json", "progress"],
  jsonReporter: { fileName: `tests/js/mutation/widgets/${WIDGET}.json` },
  thresholds: { high: 90, low: 80, break: null },
};
