# The two commands of the README:  `make run`  and  `make test`.
# `make run` opens JupyterLab on the getting-started notebook (the simulated world is its
# default); headless machines get the URL printed.
# Both create ./.venv on first use and reinstall when pyproject.toml changes.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run demo notebooks test lint pytest addon-test bench bench-peers bench-answers soak clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,repl,lab]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/jupyter lab notebooks/01_getting_started.ipynb $(if $(filter 0,$(shell id -u)),--allow-root,)

# The same first look without a browser: a bridge and a simulated world in the terminal.
demo: $(STAMP)
	$(BIN)/python -m mcbews_repl demo

# Re-run every notebook against the simulated world and save its outputs.
notebooks: $(STAMP)
	MCBEWS_PORT=19131 $(BIN)/jupyter nbconvert --to notebook --execute --inplace notebooks/*.ipynb

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

# Command throughput beside bedrockpy, fcwslib and mcpews, one emulated game for all; the
# peers install themselves into .bench-cache/ on the first run. ARGS=--quick for a short look.
bench-peers: $(STAMP)
	$(BIN)/python benchmarks/bench_peers.py $(ARGS)

# Inventory snapshots of 1, 10 and 50 full inventories through the simulated world.
bench-answers: $(STAMP)
	$(BIN)/python benchmarks/bench_answers.py $(ARGS)

# Ten minutes of worlds coming and going, notebook traffic and a hostile peer; prints a
# table (docs/benchmarks.md). ARGS=--quick runs it for 60 s.
soak: $(STAMP)
	$(BIN)/python benchmarks/bench_soak.py $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
