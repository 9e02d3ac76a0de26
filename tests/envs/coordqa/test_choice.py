"""Multiple-choice CoordinationQA: lettered options, one gold, the source's three categories."""
import random

from belief.app.runners.coordqa import choice_questions, random_state
from belief.app.runners.maze import snapshot
from belief.envs.coordqa.choice import LETTERS, ec_question, jp_gold, legal_actions, tom_question
from belief.envs.maze import escape as escape_v0
from belief.envs.maze.world import MOVES, USE


def _state(e):
    s = snapshot(e, "escape")
    s["round_start"] = dict(e.round_start)
    return s


def test_ec_has_one_reachable_room_among_four():
    e = escape_v0.raw_env(seed=0)
    q = ec_question(_state(e), "alice", "q1", random.Random(0))
    assert len(q.options) == 4 and q.category == "EC"
    reachable = set(e.maze.open_neighbours(e.maze.pos["alice"]))
    assert [o in reachable for o in q.options].count(True) == 1 and q.gold_text in reachable
    assert q.prompt().splitlines()[1].startswith("A. ") and q.gold_letter in LETTERS[:4]


def test_tom_options_are_the_partners_legal_actions_and_gold_its_choice():
    e = escape_v0.raw_env(seed=0)
    state = _state(e)
    q = tom_question(state, "alice", "bob", MOVES["east"], "q2", random.Random(1))
    assert q.gold_text == "move to room_3"
    assert len(q.options) == len(legal_actions(state, "bob"))
    assert tom_question(state, "alice", "bob", USE, "q3", random.Random(1)) is None  # not legal for bob


def test_jp_in_escape_follows_the_team_assignment():
    e = escape_v0.raw_env(seed=0)
    state = _state(e)  # alice on the room_1 generator, bob beside it: bob's generator is room_5
    joint, alone = jp_gold(state, "bob", "room_1")
    assert joint == {MOVES["east"]} and alone == {MOVES["west"]}


def test_questions_of_random_states_carry_every_answerer():
    rows = choice_questions("escape", 3, "source", states=4)
    cats = {r["category"] for r in rows}
    assert {"EC", "ToM"} <= cats
    for r in rows:
        assert r["gold"] in r["options"] and {"belief", "random"} <= set(r["answers"])
        assert r["answers"]["random"] in r["options"]
    assert rows == choice_questions("escape", 3, "source", states=4)  # deterministic


def test_the_tom_gold_is_a_partner_of_another_kind_not_the_answering_agents_own_policy():
    """The ToM question's gold is what a baseline partner does; the belief answerer predicts with a copy of its
    own policy, so the two can differ (they did not, by construction, when the gold was the belief policy)."""
    from belief.app.runners.coordqa import random_state
    from belief.envs.coordqa.choice import action_text

    rows = [r for seed in range(3) for r in choice_questions("escape", seed, "source", states=6)
            if r["category"] == "ToM"]
    assert rows and any(r["answers"]["belief"] != r["gold"] for r in rows)
    e, agents, others = random_state("escape", "source", 0, 0)  # the gold, derived here from the baseline
    partner = "bob"
    act = others[partner].choose(e.infos[partner]["obs"], e.infos[partner]["action_mask"])
    gold = action_text(e.maze, e.maze.pos[partner], act, "escape")
    mine = [r for r in choice_questions("escape", 0, "source", states=1) if r["id"] == "0-0-alice-tom"]
    assert mine and mine[0]["gold"] == gold


def test_random_states_are_known_to_both_players_in_full_view():
    e, agents, _ = random_state("capture", "source", 1, 0)
    for name, ag in agents.items():
        assert ag.tracker.where("thief") == e.maze.pos["thief"]
        assert ag.tracker.where(next(p for p in agents if p != name)) == e.maze.pos[next(p for p in agents if p != name)]
