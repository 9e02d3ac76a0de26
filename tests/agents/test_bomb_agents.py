import inspect

import pytest

from belief.agents import bomb_belief
from belief.app.bomb_runner import run_episode
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


def test_belief_agents_expose_their_beliefs_as_a_typed_store():
    """Each agent's belief_store() holds its own zero- and first-order beliefs, valid in the bomb domain,
    and agrees with its ToM answers."""
    from belief import Stance
    from belief.envs import bomb_v0

    e = bomb_v0.raw_env(seed=3)
    agents = {a: bomb_belief.BeliefAgent(a, e.world.map, e.world.cutters) for a in e.possible_agents}
    seen_first_order = 0
    for _ in range(12):
        name = e.agent_selection
        action, message = agents[name].act(e.infos[name]["obs"])
        e.say(message)
        e.step(action)
        agents[name].observe_result(e.infos[name]["result"], message)
        store = agents[name].belief_store()
        facts = list(store.facts())
        assert facts and all(f.chain[0] == name for f in facts)  # only its own perspective
        assert store.ask(f"? {name} BELIEVE {name} AT ?r").bindings == {"r": f"room_{e.world.locations[name]}"}
        for f in facts:
            if len(f.chain) == 2 and f.atom.pred == "seq":
                x, b = f.chain[1], int(f.atom.args[0].split("_")[1])
                q = {"turn": agents[name].k, "level": "first_order", "template": "sequence", "subject": b,
                     "target": x}
                assert agents[name].answer(q).startswith("Yes")
                seen_first_order += 1
        assert all(f.stance is Stance.BELIEVES for f in facts)
    assert seen_first_order > 0
