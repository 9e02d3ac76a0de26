"""transport_v0's selected ToM questions: gold worked out by hand on a scripted message, and by the batch checker
on the written trace (not by the stream that selected them); agents answer from their own belief store."""

import json

from belief.agents.transport.cobel import TransportAgent
from belief.app.runners.transport import play_episode
from belief.envs.base.selected import believed_answer
from belief.envs.transport import environment as tv
from belief.grading.questions import Question, gold_answer, question_from_dict
from belief.grading.report import read_answer
from belief.truth.checker import check
from belief.truth.trace import Trace


def test_a_told_place_is_known_to_the_hearer_who_says_so_from_its_store():
    env = tv.parallel_env(seed=1)
    obs, infos = env.reset()
    w = env.world
    t0, room = w.targets[0], w.location[w.targets[0]]
    bob = TransportAgent("bob")
    bob.reset(infos["bob"]["task"])
    bob.perceive((), infos["bob"])
    for acts in ({"alice": (tv.A_SEND, f"{t0} IN {room}"), "bob": tv.A_WAIT}, {a: tv.A_WAIT for a in env.agents}):
        obs, _, _, _, infos = env.step(acts)
        bob.perceive((), infos["bob"])
    truth = check(env.trace)
    fluent = ("in", t0)
    # by hand: the message was true, so bob (who trusts it) knows; alice knows what she told him
    assert gold_answer(truth, Question(id="a", kind="knows", chain=("bob",), fluent=fluent)) == "yes"
    assert gold_answer(truth, Question(id="b", kind="value", chain=("alice", "bob"), fluent=fluent)) == room
    for kind, gold in (("value", room), ("knows", "yes")):
        q = Question(id="c", kind=kind, chain=("bob",), fluent=fluent, agent="bob")
        assert read_answer(q, bob.answer({"question": q.to_json()}), (room, "bed")) == gold


def test_believed_answer_reads_a_belief_table_worked_by_hand():
    held = {("me",): "kitchen", ("me", "bob"): "office"}
    ask = lambda kind, chain: believed_answer(Question(id="x", kind=kind, chain=chain, fluent=("in", "o"),
                                                       agent="me"), "me", lambda c, f: held.get(c))
    assert ask("value", ("bob",)) == "office" and ask("value", ("me",)) == "kitchen"
    assert ask("knows", ("bob",)) == "no"          # bob holds another place than mine
    assert ask("knows", ("me",)) == "yes"
    assert ask("aware", ("me", "bob")) == "no"
    assert ask("value", ("bob", "me")) == "unknown"  # no belief that deep
    held[("me", "bob")] = "kitchen"
    assert ask("knows", ("bob",)) == "yes" and ask("aware", ("me", "bob")) == "yes"


def test_episode_questions_are_regraded_from_the_files_alone():
    r = play_episode({"agents": "cobel", "tom_rows": True, "files": True, "max_steps": 40}, 5)
    rows, files = r["tom_rows"], r["_files"]
    assert len(rows) == r["tom_questions"] > 0
    truth = check(Trace.loads(files["transport_5.trace.jsonl"]))
    qs = [question_from_dict(json.loads(line))[0] for line in files["transport_5.questions.jsonl"].splitlines()]
    assert [gold_answer(truth, q) for q in qs] == [row["gold"] for row in rows]
    assert all({"cobel", "reality", "as_self", "depth_collapse", "public_record"} <= set(row["answers"])
               for row in rows)
