import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

FIXTURES = Path(__file__).parent / "fixtures"
SHARED = Path(__file__).resolve().parents[2] / "shared"

settings.register_profile("ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


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
