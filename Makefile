# Two commands set everything up on a fresh machine with Python >= 3.11:
#   make demo   - the main job (offline, deterministic)
#   make test   - the linter, the type checker and the whole test suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test test-compiled test-deep bench install clean

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

# the compiled build (setup.py: BELIEF_COMPILE=1 compiles the replay with mypyc) in a venv of its own, whose
# dependencies are the main venv's (a path file), against the replay's tests; -P: the compiled package installed,
# not the sources in this folder (so the one red-team test that imports the checkout's envs/ is left out)
COMPILED_VENV := .venv-compiled
test-compiled: $(STAMP)
	rm -rf $(COMPILED_VENV)
	$(PYTHON) -m venv $(COMPILED_VENV)
	$(COMPILED_VENV)/bin/python -m pip install --quiet "setuptools>=77" wheel
	$(BIN)/python -c 'import sys; print(*(p for p in sys.path if p.endswith("-packages")), sep="\n")' \
	    > "$$($(COMPILED_VENV)/bin/python -c 'import site; print(site.getsitepackages()[0])')/zz_belief_deps.pth"
	BELIEF_COMPILE=1 $(COMPILED_VENV)/bin/python -m pip install --quiet --no-build-isolation --no-deps .
	BELIEF_EXPECT_COMPILED=1 $(COMPILED_VENV)/bin/python -P -m pytest -q -n 2 -p no:cacheprovider \
	    tests/truth/test_compiled_build.py tests/truth/test_tracker.py tests/truth/test_red_team.py \
	    tests/truth/test_compact_storage.py tests/truth/test_checker_properties.py tests/truth/test_perception.py \
	    tests/truth/test_joint_witnessing.py tests/truth/test_message_fast_path.py \
	    --deselect tests/truth/test_red_team.py::test_the_legitimate_worlds_rules_are_read_as_before

# random seeds, ten times the examples, failures kept under .hypothesis/ and replayed first (tests/conftest.py)
test-deep: $(STAMP)
	HYPOTHESIS_PROFILE=deep $(BIN)/python -m pytest -q -n 2 -m hypothesis

bench: $(STAMP)
	$(BIN)/belief bench parse

clean:
	rm -rf $(VENV) $(COMPILED_VENV) .pytest_cache .hypothesis build *.egg-info
