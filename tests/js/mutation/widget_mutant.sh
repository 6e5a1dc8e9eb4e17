#!/bin/bash
# StrykerJS's command for one run of the widgets' JavaScript (stryker.widgets.config.mjs): the built site with this
# sandbox's instrumented widget files, each told the active mutant (a browser has no process.env, where Stryker's
# header looks for it), then the browser tests of the widget under mutation. Run from Stryker's sandbox.
set -euo pipefail
site=$(mktemp -d "$POSENC_MUTATION_SITE.run.XXXX")  # beside the site: hard links stay on one file system
trap 'rm -rf "$site"' EXIT
cp -al "$POSENC_MUTATION_SITE"/. "$site"  # hard links: fast; the widget files are replaced, never written through
for file in docs/javascripts/widgets/*.js; do
  out="$site/javascripts/widgets/$(basename "$file")"
  rm -f "$out"
  {
    if [ -n "${__STRYKER_ACTIVE_MUTANT__:-}" ]; then
      printf 'globalThis.__stryker__ = Object.assign(globalThis.__stryker__ || {}, {activeMutant: "%s"});\n' "$__STRYKER_ACTIVE_MUTANT__"
    fi
    cat "$file"
  } > "$out"
done
cd "$POSENC_ROOT"
POSENC_SITE_DIR="$site" CI=true .venv/bin/python -m pytest -q -x -p no:cacheprovider -o addopts= -k "$POSENC_WIDGET_TESTS" \
  tests/browser/test_widget_drawings.py tests/browser/test_widgets.py tests/browser/test_widgets_prose.py tests/browser/test_dataflow_panel.py
