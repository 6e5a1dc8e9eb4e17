# posenc: two commands do everything on a fresh Debian/Ubuntu machine.
#   make serve   set up, then serve the site at http://127.0.0.1:8000
#   make test    set up, then run every test (the same command CI runs)
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
PYTHON ?= python3
export NO_MKDOCS_2_WARNING := 1
# The site generator: ProperDocs, the maintained fork of MkDocs 1.x, reading mkdocs.yml. Run as a module
# (`python -m`), which puts the repository on the import path; its console script does not, and the hooks
# import posenc (MAINTAINING.md, "Maintenance").
SITEGEN := $(PY) -m properdocs
SITECONFIG := -f mkdocs.yml
# Node.js and npm are the lock's (tools/scripts/install_venv.sh links them into the virtualenv): one exact
# version for every target here, on any machine, whatever node the system has.
# Setup itself (system packages, the virtualenv) runs with the PATH as it was, so it finds the system's Python.
SYSTEM_PATH := $(PATH)
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: setup system serve serve-zh build test test-fast figures notebooks lint experiment-quick experiment-full bench mutation mutation-js mutation-widgets clean

setup: system $(VENV)/.installed node_modules/.installed

system:
	@PATH="$(SYSTEM_PATH)" bash tools/scripts/setup_system.sh

# The virtualenv is rebuilt whenever the lock file changes: uv, installed by pip, installs the lock, every
# file checked against the lock's hashes, from PyPI (or the mirror and wheel folders this machine's pip is
# configured with); torch's pinned CPU build (torch==…+cpu), which PyPI does not carry, is read from the
# torch page of PyTorch's CPU index where those places lack it, and nothing else is; Node.js, pinned in the
# lock as a wheel, is linked into the virtualenv's bin/ (tools/scripts/install_venv.sh).
TORCH_CPU_INDEX := https://download.pytorch.org/whl/cpu
$(VENV)/.installed: requirements.lock pyproject.toml tools/scripts/install_venv.sh
	@PATH="$(SYSTEM_PATH)" bash tools/scripts/install_venv.sh "$(PYTHON)" $(VENV) requirements.lock $(TORCH_CPU_INDEX)
	@touch $@

node_modules/.installed: package.json package-lock.json | $(VENV)/.installed  # npm is the lock's, linked into the virtualenv
	@echo "setup: npm ci (KaTeX, from package-lock.json, each package checked against its integrity hash)"
	@npm ci --ignore-scripts --no-audit --no-fund --omit=dev  # no install script runs: KaTeX needs none; StrykerJS (dev) only for mutation-js
	@touch $@

# Rebuilds on every save under docs/, posenc/, figures_src/ and tools/, importing changed code again
# and drawing figures in a fresh process, so it serves what a clean build would (CONTRIBUTING.md: make serve). A save
# that changes only existing pages' Markdown rebuilds those pages alone (tools/build/serve_pages.py).
serve: setup
	$(SITEGEN) serve $(SITECONFIG) -a 127.0.0.1:8000

# The Chinese site alone: each rebuild about half as long, for editing the Chinese pages (mkdocs.yml).
serve-zh: setup
	POSENC_BUILD_ENGLISH=false $(SITEGEN) serve $(SITECONFIG) -a 127.0.0.1:8000

build: setup
	$(SITEGEN) build $(SITECONFIG) --strict

# Two pytest-xdist workers, whole files to one worker (module fixtures stay shared); the site is built
# once for both, in the background while the other tests run; tests/conftest.py orders the files and
# pyproject's addopts keeps that order (--no-loadscope-reorder). Its time in a fresh clone on 2 cores is in
# MAINTAINING.md.
test: setup
	$(PY) -m pytest -n 2 --dist loadfile

# After editing a lesson (its prose, numbers, facts, figures or notebook), in about half a minute on two cores:
# every guard the build runs, in a strict, quiet, prose-only build (typed numbers, unknown names, stale notebooks,
# widget defaults; figures not drawn, notebooks not run), then the registry, data and notebook checks and every
# lesson's own tests (its numbers, snippets and figures). `pytest -m "not build and not browser"` runs all the
# tests that need no site build and no browser (a few minutes).
FAST_TESTS := tests/test_numbers.py tests/test_number_formats.py tests/test_facts.py tests/test_examples.py \
	tests/test_notebooks.py tests/test_glossary.py tests/test_timeline.py tests/test_lesson*.py \
	tests/test_concept_order.py tests/test_notation.py tests/test_universal_claims.py tests/test_reading_time.py
test-fast: setup
	@site=$$(mktemp -d) && POSENC_SKIP_FIGURES=1 POSENC_EXECUTE_NOTEBOOKS=false $(SITEGEN) build $(SITECONFIG) --strict -q -d "$$site"; \
		status=$$?; rm -rf "$$site"; exit $$status
	$(PY) -m pytest -n 2 --dist loadfile -m "not build and not browser" $(FAST_TESTS)

figures: setup
	$(PY) -m figures_src.build

# Write docs/notebooks/lessonN.ipynb from its source docs/notebooks/lessonN.py (jupytext percent format).
notebooks: setup
	$(PY) -m tools.build.notebooks

# The prose lint also runs inside every build (a hook); this runs it alone.
lint: setup
	$(PY) -m tools.guards.prose_lint

# The training experiment (long work, never part of `make test`; `make test` only verifies the committed results).
experiment-quick: setup
	$(PY) -m posenc.experiment run --preset quick --jobs 2 --threads 1

experiment-full: setup
	$(PY) -m posenc.experiment run --preset full --seeds 16 --jobs 2 --threads 1

# How long the site takes to build (tools/scripts/bench_build.py, in a temporary copy), then the built site's first
# load on a slow phone against its budget (tools/scripts/phone_load.py, on site/, which `build` writes).
bench: build
	$(PY) -m tools.scripts.bench_build
	$(PY) -m tools.scripts.phone_load --check

# Mutation testing (mutmut; long, never part of `make test`) of posenc's core against the fast core tests, and
# of posenc/experiment/ against its behaviour tests (the results file's code hash neutralised, so that only
# behaviour counts). Prints the score per module and the surviving mutants; the reports are
# tests/mutation/latest.txt (core) and latest-experiment.txt. `make mutation MODULES="scaling experiment.train"`
# runs only those modules (each report still covers its whole suite).
mutation: setup
	$(PY) tests/mutation/run.py $(MODULES)

clean:
	rm -rf site .cache

# Mutation testing of the widgets' math (docs/javascripts/posenc-math/) with StrykerJS, a dev dependency that
# setup leaves out: this installs it from package-lock.json first (long, never part of `make test`).
# `make mutation-js MODULES=_check,rope` runs only those modules; the report is tests/js/mutation/README.md.
mutation-js: setup
	@npm ci --ignore-scripts --no-audit --no-fund --include=dev
	POSENC_MUTATE=$(MODULES) npx stryker run
	node tests/js/mutation/summarize.mjs
	@rm -f node_modules/.installed  # node_modules now holds dev packages: the next setup reinstalls without them

# Mutation testing of the widgets' own JavaScript (docs/javascripts/widgets/: what they draw and how they answer input)
# with StrykerJS, against the browser tests of each widget, on a site built from this checkout into .cache/mutation-site:
# for each widget, tests/js/mutation/widget_server.py keeps one test session and browser open and runs the widget's
# tests for each mutant Stryker asks about (stryker.widgets.config.mjs; a killed mutant costs a test or two, a
# survivor every test of its widget: about 15-40 minutes a widget on two cores, and _ui.js, which every widget test
# drives, hours). Name the widgets: `make mutation-widgets WIDGETS="sin-heatmap t5-buckets"`; the report is
# tests/js/mutation/widgets/README.md.
mutation-widgets: setup
	$(if $(strip $(WIDGETS)),,$(error name the widgets to mutate, e.g. WIDGETS="sin-heatmap t5-buckets"; one of: $(filter-out index,$(basename $(notdir $(wildcard docs/javascripts/widgets/*.js))))))
	@npm ci --ignore-scripts --no-audit --no-fund --include=dev
	$(SITEGEN) build $(SITECONFIG) --strict -q -d .cache/mutation-site
	@for w in $(WIDGETS); do \
		POSENC_SITE_DIR=$(CURDIR)/.cache/mutation-site nice -n 19 $(PY) tests/js/mutation/widget_server.py $$w || exit 1; \
	done
	node tests/js/mutation/summarize.mjs tests/js/mutation/widgets
	@rm -f node_modules/.installed  # as mutation-js
