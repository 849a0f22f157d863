# besm_nb: `make run` serves the dashboards, `make test` runs every check. Both set up .venv first.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SITE := _site

PORT ?= 8866

.PHONY: run run-lan test docs bench lab export sync-check nbtest pytest install chromium clean

$(STAMP): setup.py settings.ini pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[dev]"
	@touch $(STAMP)

install: $(STAMP)

## serve the dashboards at http://127.0.0.1:8866/ (make run PORT=9000 for another port; Ctrl-C stops)
run: $(STAMP)
	$(BIN)/besm-dashboards nbs/dashboards --port $(PORT)

## serve them to the local network too (tablets at the table): only on a network you trust
run-lan: $(STAMP)
	$(BIN)/besm-dashboards nbs/dashboards --port $(PORT) --lan

## every check: export in sync, the docs build (which runs every notebook once: its tests), pytest incl. the browser tests
TEST_STAGES := sync-check docs pytest
test: $(STAMP)
	@start=$$(date +%s); times=""; \
	for stage in $(TEST_STAGES); do \
	  s=$$(date +%s); $(MAKE) --no-print-directory $$stage; rc=$$?; times="$$times $$stage $$(( $$(date +%s) - s )) s;"; \
	  if [ $$rc -ne 0 ]; then echo "make test: $$stage failed; stage times:$$times"; exit $$rc; fi; \
	done; \
	echo "make test: stage times:$$times"; \
	echo "make test: all checks passed in $$(( $$(date +%s) - start )) s"

# the package and notebooks must already be what nbdev_export and nbdev_clean make of them
TREE_HASH = find besm_nb nbs -type f \( -name '*.py' -o -name '*.ipynb' \) -not -path '*/.ipynb_checkpoints/*' | sort | xargs sha1sum | sha1sum
sync-check: $(STAMP)
	@before=$$($(TREE_HASH)); \
	$(BIN)/nbdev_export && $(BIN)/nbdev_clean && \
	after=$$($(TREE_HASH)); \
	if [ "$$before" != "$$after" ]; then \
	  echo "sync-check: nbdev_export / nbdev_clean changed besm_nb/ or nbs/: commit what they made"; git status --short besm_nb nbs; exit 1; \
	else echo "sync-check: besm_nb/ and nbs/ are in sync"; fi

export: $(STAMP)
	$(BIN)/nbdev_export && $(BIN)/nbdev_clean

# every notebook's own checks, in-process (quick while writing; `make test` runs them in the docs build instead)
nbtest: $(STAMP)
	$(BIN)/nbdev_test --n_workers 2

# two workers (pytest-xdist), a test module on one worker: each worker starts its own dashboards server and browser the
# first time a test needs them; a browser test spends much of its time waiting on a page, so the two overlap
PYTEST_WORKERS ?= 2
pytest: $(STAMP) chromium
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist loadfile

## the browser tests' Chromium (Debian's): installed when missing and this machine allows it, else one clear line
chromium:
	@[ -n "$$CHROMIUM" ] || command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
	  if command -v apt-get >/dev/null 2>&1 && { [ "$$(id -u)" = 0 ] || sudo -n true 2>/dev/null; }; then \
	    s=""; [ "$$(id -u)" = 0 ] || s="sudo -n"; echo "make: installing Debian's chromium for the browser tests"; \
	    $$s env DEBIAN_FRONTEND=noninteractive apt-get update -qq && $$s env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "make: the browser tests need Chromium: run 'sudo apt-get install -y chromium' (or set CHROMIUM=/path/to/chromium)"; exit 1; fi; }

## the rules-reference site, into _site/ (opens from disk, no network needed)
docs: $(STAMP)
	$(BIN)/python docs/build.py --out $(SITE)

## performance figures
bench: $(STAMP)
	$(BIN)/python tests/bench.py

## the authoring environment
lab: $(STAMP)
	$(BIN)/jupyter lab nbs $$([ "$$(id -u)" = 0 ] && echo --allow-root)

clean:
	rm -rf _proc _docs $(SITE) .pytest_cache .hypothesis build *.egg-info
