import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, is_hypothesis_test, settings
from hypothesis.database import DirectoryBasedExampleDatabase

FIXTURES = Path(__file__).parent / "fixtures"
SHARED = Path(__file__).resolve().parents[2] / "shared"

ROOT = Path(__file__).resolve().parents[1]

#: under the ``deep`` profile every property test runs this many times its examples (``make test-deep``)
DEEP_FACTOR = 10

# Profiles (docs/testing.md): ``ci`` (the default; ``make test``) replays the same examples on every run, keeping
# no database; ``dev`` draws random seeds; ``deep`` explores: random seeds, DEEP_FACTOR times the examples, and
# the failures found kept under .hypothesis/ to be replayed first. Chosen by HYPOTHESIS_PROFILE=... or
# pytest's --hypothesis-profile=...
_QUIET = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", derandomize=True, database=None, **_QUIET)
settings.register_profile("dev", **_QUIET)
settings.register_profile("deep", derandomize=False, print_blob=True, **_QUIET,
                          database=DirectoryBasedExampleDatabase(ROOT / ".hypothesis" / "examples"))
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_collection_modifyitems(items):
    """Under ``deep``, multiply each property test's max_examples by DEEP_FACTOR, its own ``@settings``
    value included (otherwise a test that sets one would only run other seeds, not more of them)."""
    if not settings.get_current_profile_name().startswith("deep"):  # also deep-with-...-verbosity
        return
    done = set()
    for item in items:
        test = getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None))
        if not is_hypothesis_test(test) or id(test) in done:  # a parametrized test is one function
            continue
        done.add(id(test))
        own = test._hypothesis_internal_use_settings  # where @given keeps the settings it runs under
        test._hypothesis_internal_use_settings = settings(own, max_examples=own.max_examples * DEEP_FACTOR)


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture
def shared() -> Path:
    if not SHARED.is_dir():
        pytest.skip("../shared is not present beside the checkout")
    return SHARED


@pytest.fixture(autouse=True)
def no_llm_settings_from_the_shell(monkeypatch):
    """A developer's BELIEF_LLM_* / OPENAI_* variables must not reach the tests (they would pick an endpoint)."""
    for name in list(os.environ):
        if name.startswith(("BELIEF_LLM_", "OPENAI_")) or name == "BELIEF_MODEL":
            monkeypatch.delenv(name)


@pytest.fixture
def shut_door_maze():
    """A CollabCapture maze whose only way from room ``a`` to room ``b`` is a shut door opened by a button in
    ``a``: ``(maze, a, b)``."""
    from belief.envs.maze import capture

    for seed in range(40):
        m = capture.raw_env(rules="project", seed=seed).maze
        door = next(d for d, o in m.open.items() if not o)
        room = next(r for r, d in m.buttons.items() if d == door)
        a, b = m.doors[door]
        if room == a and b not in m.reachable(a):
            return m, a, b
    raise AssertionError("no maze with the button beside its shut door")
