# besm_nb: `make run` serves the dashboards, `make test` runs every check. Both set up .venv first.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SITE := _site

.PHONY: run test docs bench lab export sync-check nbtest pytest install clean

$(STAMP): setup.py settings.ini pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[dev]"
	@touch $(STAMP)

install: $(STAMP)

## serve the dashboards at http://127.0.0.1:8866/
run: $(STAMP)
	$(BIN)/besm-dashboards nbs/dashboards

## every check: export in sync, notebook tests, docs build (-W), pytest incl. the browser tests
test: $(STAMP)
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory sync-check nbtest docs pytest && \
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

nbtest: $(STAMP)
	$(BIN)/nbdev_test --n_workers 2

pytest: $(STAMP)
	$(BIN)/python -m pytest -q

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
