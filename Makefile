# Two commands on a fresh machine:
#   make build   builds every print-and-play PDF from the shipped data into build/
#   make test    runs the whole test suite (what .ci/run calls)
# Both set up what they need first: Debian libraries (tools/system-deps.sh) and a
# virtual environment in .venv with the package and its test extra.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: build test quick lint validate fmt bench clean

$(STAMP): pyproject.toml tools/system-deps.sh
	bash tools/system-deps.sh
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

build: $(STAMP)
	$(BIN)/wastools build

test: $(STAMP)
	$(BIN)/wastools validate --quiet
	$(BIN)/wastools fmt --check
	$(MAKE) --no-print-directory lint
	$(BIN)/python -m pytest -n 2
	$(BIN)/python tools/check_reproducible.py

# Code checks: ruff (lint and layout, line length 120) and mypy on wastools/.
lint: $(STAMP)
	$(BIN)/ruff check wastools tools tests
	$(BIN)/ruff format --check wastools tools tests
	$(BIN)/mypy

quick: $(STAMP)
	$(BIN)/python -m pytest -n 2 -m "not slow"

validate: $(STAMP)
	$(BIN)/wastools validate

fmt: $(STAMP)
	$(BIN)/wastools fmt

bench: $(STAMP)
	$(BIN)/python tools/benchmark.py

clean:
	rm -rf build .venv
