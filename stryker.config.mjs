// Mutation testing of the in-page formulas (docs/javascripts/posenc-math/) against their unit tests
// (tests/js/, node --test). Not part of `make test`: it runs the whole JS suite once per mutant.
//
//   nice -n 19 npx stryker run        (from the repository root; 1–6 s per mutant, ~1,100 mutants)
//   POSENC_MUTATE=_check,rope nice -n 19 npx stryker run     (only those modules of posenc-math/)
//
// Each run writes tests/js/mutation/<modules>.json ("all" without POSENC_MUTATE); node
// tests/js/mutation/summarize.mjs gathers them into tests/js/mutation/README.md (score per module, survivors).
//
// The test file asks posenc (Python) for its reference numbers; POSENC_JS_REFERENCE keeps them in a
// file after the first run, so each mutant costs node alone. The sandbox holds only what the tests
// read, and the Python the tests call is the project's (.venv), run from the real repository root.
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = dirname(fileURLToPath(import.meta.url));
const ONLY = process.env.POSENC_MUTATE ? process.env.POSENC_MUTATE.split(",") : null;
const REFERENCE = join(ROOT, ".stryker-tmp", `posenc-reference-${ONLY ? ONLY.join("+") : "all"}.json`); // one per run: runs may overlap
rmSync(REFERENCE, { force: true }); // computed afresh by each run's first test run: posenc or the tests may have changed

export default {
  $schema: "./node_modules/@stryker-mutator/core/schema/stryker-schema.json",
  testRunner: "command",
  commandRunner: {
    command: `POSENC_PYTHON=${join(ROOT, ".venv", "bin", "python")} POSENC_JS_REFERENCE=${REFERENCE} node --test tests/js/*.test.mjs`,
  },
  mutate: ONLY ? ONLY.map((m) => `docs/javascripts/posenc-math/${m}.js`) : ["docs/javascripts/posenc-math/*.js"],
  // only what the tests import: the formulas, the string tables, the tests themselves, and posenc for the reference
  ignorePatterns: ["/*", "!/docs", "/docs/*", "!/docs/javascripts", "!/tests", "/tests/*", "!/tests/js", "!/package.json", "!/posenc", "/posenc/experiment/results"],
  coverageAnalysis: "off", // the command runner cannot tell which test covers which mutant
  concurrency: 1, // a shared two-core machine
  timeoutMS: 20000,
  reporters: ["clear-text", "json", "progress"],
  jsonReporter: { fileName: `tests/js/mutation/${ONLY ? ONLY.join("+") : "all"}.json` },
  thresholds: { high: 90, low: 80, break: null },
};
