# Papercuts task runner. `make help` lists the targets.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.DEFAULT_GOAL := help
.PHONY: help site check test serve bench vendor browser bytecode lint clean calibrate mutate golden

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-8s %s\n", $$1, $$2}'

# pyvips comes as source only: it is built with the lock's setuptools, wheel and cffi, installed
# first (requirements-build.lock), not with whatever build isolation would fetch unchecked.
$(STAMP): pyproject.toml requirements.lock requirements-build.lock
	@echo "papercuts: installing the pinned Python packages into $(VENV) (first run: about 30 s)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check --require-hashes -r requirements-build.lock
	$(BIN)/pip install --quiet --disable-pip-version-check --require-hashes --no-build-isolation -r requirements.lock
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $@

vendor: $(STAMP) ## fetch the pinned Vega bundles (npm) and check their SHA-256
	$(BIN)/papercuts vendor

# Papercuts' own modules compiled once, where Python caches them: with PYTHONDONTWRITEBYTECODE
# set (as on CI machines) every build compiled them again (importing them: 0.70-0.76 s, 0.52-0.61 s
# so). Up to date, this takes 0.06 s; a module edited since is compiled again by Python in memory.
# As wherever Python caches bytecode, a module rewritten to the same size within the second it was
# compiled is not seen (its .pyc holds the source's size and mtime in seconds).
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q pipelines/papercuts

site: vendor bytecode ## build the site from data/ into public/
	$(BIN)/papercuts build

check: $(STAMP) ## validate data/ and print every problem
	$(BIN)/papercuts check

browser: ## install Chromium for the browser tests when missing
	@bash site/install-chromium.sh

test: vendor browser bytecode ## run every test (unit, golden, site build, browser)
	$(BIN)/pytest

lint: $(STAMP) ## ruff on the Python code (also part of make test)
	$(BIN)/ruff check pipelines tests

serve: site ## serve public/ on http://127.0.0.1:1313/ with the production headers
	$(BIN)/papercuts serve

calibrate: $(STAMP) ## measure this machine (ut_delay, PAUSE, PRNG) into data/calibrations/; SERVER=id
	$(BIN)/papercuts calibrate $(if $(SERVER),--server $(SERVER))

bench: vendor browser bytecode ## time each build stage, the explorer in Chromium and change-point detection; SCALE=1|10|100: the whole build at scale
	$(BIN)/papercuts bench $(if $(SCALE),--scale $(SCALE))

golden: $(STAMP) ## accept reviewed golden-file changes (the -changed copies a test run wrote)
	$(BIN)/python tests/golden/accept.py

mutate: $(STAMP) ## plant each bug of tests/mutation/mutants.toml and count what the tests catch
	$(BIN)/python tests/mutation/run.py

clean: ## remove build outputs
	rm -rf build public .pytest_cache
