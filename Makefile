# Two commands set everything up on a fresh machine with Python >= 3.11:
#   make demo   - the main job (offline, deterministic)
#   make test   - the linter, the type checker and the whole test suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test test-deep bench install clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python >= 3.11 is required (set PYTHON=...)")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	CMAKE_POLICY_VERSION_MINIMUM=3.5 $(BIN)/python -m pip install --quiet -e '.[all,hle]'  # hle: an sdist that builds with cmake
	@touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/belief run bomb --agents belief --episodes 20 --seed 0 --out runs/bomb --force
	$(BIN)/belief grade runs/bomb/bomb_0.trace.jsonl runs/bomb/bomb_0.answers.jsonl

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/mypy grammar
	$(BIN)/python -m pytest -q -n 2

# random seeds, ten times the examples, failures kept under .hypothesis/ and replayed first (tests/conftest.py)
test-deep: $(STAMP)
	HYPOTHESIS_PROFILE=deep $(BIN)/python -m pytest -q -n 2 -m hypothesis

bench: $(STAMP)
	$(BIN)/belief bench parse

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
