# The two commands of the README:  `make run`  and  `make test`.
# Both create ./.venv on first use and reinstall when pyproject.toml changes.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint pytest addon-test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,repl]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m mcbews_repl demo

lint: $(STAMP)
	$(BIN)/ruff check mcbews_repl tests benchmarks
	$(BIN)/ruff format --check mcbews_repl tests benchmarks
	$(BIN)/mypy mcbews_repl

pytest: $(STAMP)
	$(BIN)/pytest

test: lint pytest addon-test

addon-test:
	cd addon && npm ci --no-audit --no-fund && npm test

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_sansio.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
