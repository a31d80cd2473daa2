# prep: two commands. `make run` serves the app; `make test` checks the layer contracts
# (import-linter, pyproject.toml) and runs the whole suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 5000

.PHONY: run test test-fast install install-test browser clean bench screenshots

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install --quiet -e .

install-test: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'

browser:
	@if [ ! -x /usr/bin/chromium ] || [ ! -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ]; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "installing Debian's chromium and a CJK font for the browser tests"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-microhei) >/dev/null; \
	  else echo "chromium or the CJK font missing and not root: browser tests may be skipped"; fi; \
	fi
	@if ! command -v go >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "installing Debian's Go toolchain for the explanations' Go code"; \
	    (DEBIAN_FRONTEND=noninteractive apt-get install -y -qq golang-go || \
	     (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq golang-go)) >/dev/null \
	     || echo "golang-go could not be installed: the Go code test is skipped"; \
	  else echo "go missing and not root: the Go code test is skipped"; fi; \
	fi

run: install
	$(BIN)/prep init
	@echo "prep: open http://$(HOST):$(PORT)/"
	$(BIN)/prep serve --host $(HOST) --port $(PORT)

# The whole suite on every core (pytest-xdist; a module's tests, or a class's, on one worker: the
# tests of one file share its Redis database; modules handed out in the order tests/conftest.py
# sets, long ones first), with pip-audit (a warning only) running alongside.
# Python may be told not to write bytecode (PYTHONDONTWRITEBYTECODE): the test run writes it, so that
# every worker and every `prep` process a test starts reads the compiled modules and the rewritten
# test files instead of compiling them again (__pycache__ is ignored by git).
unexport PYTHONDONTWRITEBYTECODE
PYTEST_ARGS ?= -n auto --dist loadscope --no-loadscope-reorder --durations=20

test: install-test browser
	@mkdir -p test-artifacts
	@(timeout 180 $(BIN)/pip-audit --progress-spinner off > test-artifacts/pip-audit.txt 2>&1 \
	  && echo "pip-audit finished (packages it could not look up are listed): test-artifacts/pip-audit.txt" \
	  || echo "pip-audit (warning only): see test-artifacts/pip-audit.txt") & audit=$$!; \
	$(BIN)/lint-imports && $(BIN)/python -m pytest $(PYTEST_ARGS); status=$$?; wait $$audit; exit $$status

# What a change touches: the test folders of the features it changed (all of them when shared code
# changed), SQLite only, no browser. CI still runs everything (`make test`).
BASE ?= main

test-fast: install-test
	$(BIN)/python -m pytest -n auto --dist loadscope --no-loadscope-reorder -m "not postgres and not browser" \
	  $$($(BIN)/python scripts/touched_tests.py $(BASE))

clean:
	rm -rf $(VENV) instance test-artifacts .pytest_cache

# Benchmark suite: BENCH_ARGS="--scale 0.05 --db sqlite" for a quick run.
bench: install
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python -m bench.run $(BENCH_ARGS)

# The README screenshots (docs/screenshots/*.png), from a seeded app in headless Chromium.
screenshots: install-test browser
	PYTHONPATH=$(CURDIR) $(BIN)/python scripts/screenshots.py
