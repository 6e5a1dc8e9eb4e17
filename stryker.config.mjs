// Mutation testing of the in-page formulas (docs/javascripts/posenc-math/) against their unit tests
// (tests/js/, node --test). Not part of `make test`: it runs the whole JS suite once per mutant.
//
//   nice -n 19 npx stryker run        (from the repository root; ~1 s per mutant)
//
// The test file asks posenc (Python) for its reference numbers; POSENC_JS_REFERENCE keeps them in a
// file after the first run, so each mutant costs node alone. The sandbox holds only what the tests
// read, and the Python the tests call is the project's (.venv), run from the real repository root.
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = dirname(fileURLToPath(import.meta.url));
const REFERENCE = join(ROOT, ".stryker-tmp", "posenc-reference.json");
rmSync(REFERENCE, { force: true }); // computed afresh by each run's first test run: posenc or the tests may have changed

export default {
  $schema: "./node_modules/@stryker-mutator/core/schema/stryker-schema.json",
  testRunner: "command",
  commandRunner: {
    command: `POSENC_PYTHON=${join(ROOT, ".venv", "bin", "python")} POSENC_JS_REFERENCE=${REFERENCE} node --test tests/js/`,
  },
  mutate: ["docs/javascripts/posenc-math/*.js"],
  // only what the tests import: the formulas, the string tables, the tests themselves, and posenc for the reference
  ignorePatterns: ["/*", "!/docs", "/docs/*", "!/docs/javascripts", "!/tests", "/tests/*", "!/tests/js", "!/package.json", "!/posenc", "/posenc/experiment/results"],
  coverageAnalysis: "off", // the command runner cannot tell which test covers which mutant
  concurrency: 1, // a shared two-core machine
  timeoutMS: 20000,
  reporters: ["clear-text", "html", "json", "progress"],
  htmlReporter: { fileName: "tests/js/mutation/report.html" },
  jsonReporter: { fileName: "tests/js/mutation/report.json" },
  thresholds: { high: 90, low: 80, break: null },
};
