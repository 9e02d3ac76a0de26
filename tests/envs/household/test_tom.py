"""household_v0's selected ToM questions: gold worked out by hand on a scripted story, and by the batch checker
on the finished trace (not by the stream that selected them); the agents answer from their own record."""

import json

from belief.agents.household.agent import HouseholdAgent
from belief.app.runners.household import play_episode
from belief.envs.household import environment as hv
from belief.envs.household import world as hw
from belief.envs.household.tom import selected_set
from belief.grading.questions import Question, gold_answer, question_from_dict
from belief.grading.report import read_answer
from belief.truth.checker import check
from belief.truth.trace import Trace


def _world():
    """apartment_0; the cupcake on the kitchen table, the fridge closed, alice and bob in the kitchen."""
    furniture = hw._furniture(hw.LAYOUTS[0])
    location = {"cupcake_1": "kitchentable_1", "book_1": "sofa_1"}
    return hw.World(layout="apartment_0", doors=hw.LAYOUTS[0].doors, furniture=furniture, task="put_groceries",
                    goals=(hw.Goal("IN", "cupcake", "fridge_1", 1),), objects=tuple(sorted(location)),
                    location=location,
                    is_open={f: False for f, (k, _) in furniture.items() if hw.FURNITURE_KINDS[k] == hw.CONTAINER},
                    agent_room={"alice": "kitchen", "bob": "kitchen"})


def _story():
    """Sally-Anne in the kitchen: both see the cupcake on the table; bob walks to the living room; alice puts
    the cupcake into the fridge (bob does not see it). Alice's record is fed what she perceived."""
    env = hv.parallel_env(walk_steps=1, scale="small")
    obs, infos = env.reset(options={"world": _world()})
    alice = HouseholdAgent("alice", infos["alice"]["task"])
    alice.take_in(infos["alice"], 0)
    for step, act in enumerate(({"bob": "walk to livingroom"}, {"alice": "grasp cupcake_1"},
                                {"alice": "open fridge_1"}, {"alice": "put hand 0 in fridge_1"}), 1):
        acts = {a: env.action_index(act.get(a, "wait")) for a in env.agents}
        obs, _, _, _, infos = env.step(acts)
        alice.take_in(infos["alice"], step)
    return env, alice


def _ask(alice, kind, chain, fluent):
    q = Question(id="q", kind=kind, chain=chain, fluent=fluent, agent="alice")
    return q, read_answer(q, alice.answer({"question": q.to_json()}), ("kitchentable_1", "fridge_1", "alice"))


def test_sally_anne_gold_by_hand_and_alice_answers_from_her_record():
    env, alice = _story()
    truth = check(env.trace)
    cup = ("in", "cupcake_1")
    # worked by hand: bob last saw the cupcake on the table; alice moved it where he could not see
    hand = {("knows", ("bob",)): "no", ("knows", ("alice",)): "yes", ("value", ("bob",)): "kitchentable_1",
            ("value", ("alice", "bob")): "kitchentable_1", ("value", ("alice",)): "fridge_1",
            ("aware", ("alice", "bob")): "no"}
    for (kind, chain), gold in hand.items():
        q, reading = _ask(alice, kind, chain, cup)
        assert gold_answer(truth, q) == gold, (kind, chain)
        assert reading == gold, (kind, chain, reading)
    # the fridge was opened out of bob's sight: bob does not know it is open, alice does
    assert _ask(alice, "knows", ("bob",), ("open", "fridge_1"))[1] == "no"
    assert gold_answer(truth, Question(id="f", kind="knows", chain=("bob",), fluent=("open", "fridge_1"))) == "no"


def test_selected_questions_gold_is_the_batch_checkers_and_they_are_balanced():
    env, _ = _story()
    sel = selected_set(env.trace.meta, env.possible_agents, env.world.objects, sorted(env.world.is_open), seed=0)
    sel.feed(env.trace)
    picked = sel.ask(4, "alice") + sel.ask(4, "bob")
    assert picked
    truth = check(env.trace)
    for q in picked:
        assert q.gold == gold_answer(truth, q.question)
        assert q.question.chain and q.question.agent == q.asked and q.text.endswith("?")
    kept = sel.kept()
    assert kept <= {q.id for q in picked}


def test_episode_rows_name_every_shortcut_and_gold_matches_the_trace():
    r = play_episode({"agent": "cobel", "tom_rows": True, "files": True}, 3)
    rows = r["tom_rows"]
    assert len(rows) == r["tom_questions"] > 0
    for row in rows:
        assert {"cobel", "reality", "as_self", "depth_collapse", "public_record"} <= set(row["answers"])
    files = r["_files"]
    truth = check(Trace.loads(files["household_3.trace.jsonl"]))
    qs = [question_from_dict(json.loads(line))[0] for line in files["household_3.questions.jsonl"].splitlines()]
    assert len(qs) == len(rows)
    assert [gold_answer(truth, q) for q in qs] == [row["gold"] for row in rows]
