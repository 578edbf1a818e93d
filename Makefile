# Two commands for a fresh machine with Python 3.11+:
#   make run    set everything up and open the workbench on the shipped sample suite
#   make test   set everything up and run the tests
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast lint bench clean package-check

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,serve,ocr,hires,report,extractors,pymupdf4llm,docling-parse,pdftext,agents]"
	touch $(STAMP)

# Bytecode first (only what changed is compiled): every start after the first has it cached, as pip
# writes it for an installed package; a checkout writes it on first import, unless
# PYTHONDONTWRITEBYTECODE is set (it is on this project's machines), so it is written here.
run: $(STAMP)
	$(BIN)/python -m compileall -q workbench > /dev/null
	$(BIN)/pdfworkbench

# The tests run on every core and one worker more (pytest-xdist, at most 5): a fifth of a worker's
# time is waiting (deadlines that must pass, child processes, a screen's pauses), which the extra
# worker fills. `make test-fast` on an idle 2-core machine: 134.5 s with 2 workers, 124 s with 3,
# 125 s with 4. Work stealing: a worker that runs out takes tests still waiting on another, so
# none is left alone with a queue at the end (test-fast 125.8 s with xdist's default chunks,
# 120.6 s so, load 1.1-2.1). PYTEST_JOBS= runs them in one process.
PYTEST_JOBS ?= -n $(shell $(PYTHON) -c "import os; print(min((os.cpu_count() or 1) + 1, 5))") --dist worksteal

# PYTHONDONTWRITEBYTECODE cleared for the tests: pytest keeps each test module's rewritten
# asserts in __pycache__ only where bytecode may be written, else rewrites all of them in every
# worker of every run (half of collection's CPU time, 3.1 s against 6.9 on a 2-core machine).
TEST_ENV := PYTHONDONTWRITEBYTECODE=

test: $(STAMP)
	$(BIN)/ruff check workbench tests benchmarks
	$(BIN)/lint-imports
	$(TEST_ENV) $(BIN)/python -m pytest $(PYTEST_JOBS)

# The tests without the `slow` ones (each over 2 s: fuzzers, the browser, big documents, screens
# that lint a whole suite): the loop while working; `make test` runs them all, the slow ones first
# (tests/conftest.py), so no worker is left with a long one at the end.
test-fast: $(STAMP)
	$(TEST_ENV) $(BIN)/python -m pytest $(PYTEST_JOBS) -m "not slow"

# make bench [BENCH_ARGS=--quick]: one table of every measurement, figures in bench-results.json
bench: $(STAMP)
	$(BIN)/python -m compileall -q workbench > /dev/null
	$(BIN)/python -m benchmarks $(BENCH_ARGS)

# Build the sdist and the wheel, install each in a fresh virtualenv, run the installed command.
package-check: $(STAMP)
	PYTHON=$(BIN)/python .ci/package-check

clean:
	rm -rf $(VENV) .pytest_cache
