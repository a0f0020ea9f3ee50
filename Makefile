# The two commands of the README:  `make run`  and  `make test`.
# `make run` installs what running needs (not the test tools) and opens JupyterLab on the
# getting-started notebook (the simulated world is its default); on a machine without a
# browser it prints that notebook's URL.
# `make test` installs everything, test tools included, and runs every check.
# Both create ./.venv on first use and reinstall when pyproject.toml changes.
# Without make (Windows too): python -m pip install ".[lab]", then mcbews-repl lab (README).
PYTHON ?= python3
VENV   ?= .venv
# The oldest Python the package runs on (pyproject's requires-python), and the versions
# `make wheel-smoke` installs the wheel on (pyproject's classifiers name the same).
PYTHON_MIN    ?= 3.11
SMOKE_PYTHONS := 3.11 3.12 3.13
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip --disable-pip-version-check
STAMP_RUN := $(VENV)/.installed-run
STAMP  := $(VENV)/.installed
NOTEBOOK := 01_getting_started.ipynb

.PHONY: run demo notebooks captures test test-fast lint pytest addon-test wheel wheel-smoke bench bench-peers bench-answers bench-transports bench-events bench-build bench-worlds bench-languages bench-mcpi soak clean

# An older Python is refused here, before the venv and pip: pip's resolver can search for
# minutes before it says so. (sys.exit with a message prints it and exits 1.)
comma := ,
CHECK_PYTHON = import sys; need = tuple(int(n) for n in "$(PYTHON_MIN)".split(".")); \
	have = sys.version_info[:2]; sys.exit(0 if have >= need else \
	"mcbews_repl needs Python $(PYTHON_MIN) or newer; $(PYTHON) is Python %d.%d. " % have + \
	"Tested: $(subst $() ,$(comma) ,$(SMOKE_PYTHONS)). " + \
	"Pick one: make $(or $(firstword $(MAKECMDGOALS)),run) PYTHON=python3.12")

$(BIN)/python:
	@$(PYTHON) -c '$(CHECK_PYTHON)'
	$(PYTHON) -m venv $(VENV)

# What running needs: the package, JupyterLab and the notebooks' libraries.
$(STAMP_RUN): pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e '.[lab]'
	touch $(STAMP_RUN)

# Everything: the above plus pytest, mypy, ruff, playwright, hypothesis ...
$(STAMP): pyproject.toml | $(BIN)/python
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -e '.[dev,repl,lab]'
	touch $(STAMP) $(STAMP_RUN)

# default_url makes JupyterLab open, and print, the notebook itself rather than the Launcher.
# It serves the repository, so the notebooks' links to ../docs/ open too.
run: $(STAMP_RUN)
	$(BIN)/jupyter lab --ServerApp.root_dir=. \
		--LabApp.default_url=/lab/tree/notebooks/$(NOTEBOOK) \
		$(if $(filter 0,$(shell id -u)),--allow-root,)

# The same first look without a browser: a bridge and a simulated world in the terminal.
demo: $(STAMP_RUN)
	$(BIN)/python -m mcbews_repl demo

# The notebooks as committed: without outputs (an old /connect token, old times).
# The tests run every notebook; JupyterLab runs them afresh for a reader.
notebooks: $(STAMP_RUN)
	$(BIN)/python tests/notebooks/clean.py notebooks/*.ipynb

# Record tests/captures/ again (the notebook flows and a few scripted sessions); every
# capture there is replayed by the test suite. Only after a deliberate change: read the diff.
captures: $(STAMP)
	$(BIN)/python tests/captures/make_captures.py

lint: $(STAMP)
	$(BIN)/ruff check mcbews_repl tests benchmarks tools build_hooks.py
	$(BIN)/ruff format --check mcbews_repl tests benchmarks tools build_hooks.py
	$(BIN)/mypy mcbews_repl

# The addon's toolchain (npm ci) before pytest too: the `%%mc capability --ts` test compiles
# with it, and must not skip on a clean checkout.
ADDON_DEPS := addon/node_modules/.installed
$(ADDON_DEPS): addon/package-lock.json
	cd addon && npm ci --no-audit --no-fund
	touch $(ADDON_DEPS)

pytest: $(STAMP) $(ADDON_DEPS)
	$(BIN)/pytest

test: lint pytest addon-test

# The inner loop: lint and every test but the ones marked slow or browser (real kernels,
# terminals, notebooks, chromium); `make test` still runs everything.
test-fast: lint
	$(BIN)/pytest -m "not slow and not browser"

addon-test: $(ADDON_DEPS)
	cd addon && npm test

# The sdist and the wheel built from it, in dist/: what `pip install` takes without a clone.
wheel: $(STAMP)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .

# The wheel installed as a user installs it: for each of SMOKE_PYTHONS a fresh venv outside
# the checkout, pip install "WHEEL[lab]", then a real kernel, the simulated world, an
# inventory, the map widget, addon export, mcbews-repl lab and docs/windows.md replayed from
# there (tests/packaging/drive.py; its time is in docs/windows.md). CI runs it after `make test`.
wheel-smoke: $(STAMP)
	$(BIN)/python -m tests.packaging.drive $(SMOKE_PYTHONS)

# For the tests: the value of a variable (make print-SMOKE_PYTHONS).
print-%:
	@echo $($*)

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_sansio.py
	$(BIN)/python benchmarks/bench_repl.py

# Command throughput beside bedrockpy, fcwslib and mcpews, one emulated game for all; the
# peers install themselves into .bench-cache/ on the first run. ARGS=--quick for a short look.
bench-peers: $(STAMP)
	$(BIN)/python benchmarks/bench_peers.py $(ARGS)

# Inventory snapshots of 1, 10 and 50 full inventories through the simulated world.
bench-answers: $(STAMP)
	$(BIN)/python benchmarks/bench_answers.py $(ARGS)

# Both transports side by side (pull: custom-command results; chat: the bridge player's
# whispers): a small call, snapshots of 1, 10 and 50 full inventories, the cost at idle.
bench-transports: $(STAMP)
	$(BIN)/python benchmarks/bench_transports.py $(ARGS)

# Game events: a thousand a second through each transport (the WebSocket's, and the addon's
# every-player kind once the vocabulary has one), latency in ticks, the event log's memory
# per 10,000, and the map's and a track's commands polled against pushed.
bench-events: $(STAMP)
	$(BIN)/python benchmarks/bench_events.py $(ARGS)

# Building: blocks written per second with set_blocks, one setblock per position and a greedy
# fill planner (16x16x16, 32x32x32, 64x32x64: terrain, a pixel-art wall, a hollow sphere),
# commands and bytes sent, game ticks on both clocks, the ticks' script work, and an undo.
bench-build: $(STAMP)
	$(BIN)/python benchmarks/bench_build.py $(ARGS)

# mcpi lessons through the facade on the simulated world at the game's clock: a 20x20x20
# cube by a setBlock loop and by setBlocks, getBlocks, 100 getTilePos, against one command
# per block (docs/benchmarks.md). ARGS=--quick for one round.
bench-mcpi: $(STAMP)
	$(BIN)/python benchmarks/bench_mcpi.py $(ARGS)

# A classroom at scale: 1, 10, 30 and 50 simulated worlds on one bridge; mc.each.players()
# and mc.each.inventory() times, commands per second, bridge memory per world.
bench-worlds: $(STAMP)
	$(BIN)/python benchmarks/bench_worlds.py $(ARGS)

# The toolkit's readers in each of the game's 29 languages, against a simulated world in
# that language: known / unknown / wrong per language (docs/benchmarks.md).
bench-languages: $(STAMP)
	$(BIN)/python benchmarks/readers_languages.py $(ARGS)

# Ten minutes of worlds coming and going, notebook traffic and a hostile peer; prints a
# table (docs/benchmarks.md). ARGS=--quick runs it for 60 s.
soak: $(STAMP)
	$(BIN)/python benchmarks/bench_soak.py $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build dist
