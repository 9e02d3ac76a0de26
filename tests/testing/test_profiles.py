"""The hypothesis profiles of tests/conftest.py: ``ci`` replays, ``deep`` (``make test-deep``) explores more."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STRATEGIES = "tests/testing/test_strategies.py"


def passing_examples(test: str, *options: str, profile: str = "ci") -> int:
    """Run one property test in a fresh pytest; how many passing examples hypothesis reports for it."""
    env = {**os.environ, "HYPOTHESIS_PROFILE": profile}
    run = subprocess.run([sys.executable, "-m", "pytest", f"{STRATEGIES}::{test}", "-q", "-p", "no:cacheprovider",
                          "-p", "no:xdist", "--hypothesis-show-statistics", *options],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    (n,) = re.findall(r"(\d+) passing", run.stdout)
    return int(n)


@pytest.mark.slow
@pytest.mark.parametrize("how", ["environment", "option"])
def test_the_deep_profile_runs_ten_times_the_examples_chosen_either_way(how):
    deep = {"profile": "deep"} if how == "environment" else {"options": ["--hypothesis-profile=deep"]}
    # a test under the profile's max_examples (100), and one that sets its own (50): both are multiplied
    test, own = (("test_generated_facts_print_and_parse_back", 100) if how == "environment"
                 else ("test_single_agent_traces_check", 50))
    assert passing_examples(test, *deep.get("options", ()), profile=deep.get("profile", "ci")) == own * 10


def test_the_ci_profile_replays_the_same_examples_and_keeps_no_database():
    from hypothesis import settings

    ci = settings.get_profile("ci")
    assert ci.derandomize and ci.database is None
    deep = settings.get_profile("deep")
    assert not deep.derandomize and Path(deep.database.path) == ROOT / ".hypothesis" / "examples"
