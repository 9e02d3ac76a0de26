import inspect

import pytest

from belief.agents import bomb_belief
from belief.agents.bomb_runner import run_episode
from belief.grading import grade


@pytest.mark.parametrize("seed", [0, 7, 13])
def test_belief_team_full_score_and_exact_tom(seed):
    m = run_episode("belief", seed)
    assert m["score"] == 90 and m["completed"] and m["valid_action_pct"] == 100.0
    rep = grade(m["_questions"], m["_answers"])
    assert rep.accuracy() == 100.0 and not rep.unparseable


def test_belief_team_random_maps_exact_tom():
    m = run_episode("belief", 3, random_maps=True)
    assert m["score"] == 90
    assert grade(m["_questions"], m["_answers"]).accuracy() == 100.0


def test_belief_agent_uses_no_global_state():
    src = inspect.getsource(bomb_belief)
    for forbidden in (".world", "Trace", "questions(", "truth(", "import checker", "belief.checker"):
        assert forbidden not in src


def test_planner_and_random_run():
    p = run_episode("planner", 1)
    assert p["score"] == 90 and p["rounds"] <= 10
    r = run_episode("random", 1)
    assert 0 <= r["score"] <= 90 and r["valid_action_pct"] == 100.0


def test_mixed_team_runs():
    m = run_episode(["belief", "random", "belief"], 5)
    assert m["questions"] == 3 * m["actions"]
