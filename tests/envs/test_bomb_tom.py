import json

import pytest

from belief.agents.bomb_belief import BeliefAgent
from belief.envs import bomb_v0
from belief.envs.bomb_map import World
from belief.envs.bomb_text import TextInterface, parse_message_facts
from belief.envs.bomb_tom import LEVELS, TEMPLATES, questions, truth
from belief.errors import TraceError
from belief.trace import Trace


def _drive(e, agents, scripted):
    """One turn: scripted agents speak free text, belief agents act on their own observations."""
    name = e.agent_selection
    if name in scripted:
        TextInterface(e).step(scripted[name].pop(0))
        return name
    ag = agents[name]
    action, msg = ag.act(e.infos[name]["obs"])
    e.say(msg)
    e.step(action)
    ag.observe_result(e.infos[name]["result"], msg)
    return name


def _q(level, target, template, subject, turn):
    return {"level": level, "target": target, "template": template, "subject": subject, "turn": turn}


def test_study_hard_case_announced_move_that_failed():
    """A announced a move to Room 8 but could not get there; X, who sees A's real location, is not aware
    that A knows Room 8's contents, because A does not."""
    seed = 4
    assert World.generate(seed).locations["alpha"] == 5  # Room 5 is not adjacent to Room 8
    e = bomb_v0.raw_env(seed=seed)
    bravo, charlie = BeliefAgent("bravo"), BeliefAgent("charlie")
    agents = {"bravo": bravo, "charlie": charlie}
    scripted = {"alpha": ["Move to Room 8\nMessage: I am moving to Room 8.", "Inspect Bomb",
                          "Move to Room 0", "Move to Room 8", "Inspect Bomb"]}
    _drive(e, agents, scripted)  # alpha, turn 0: the failed move
    assert "You can not directly move to Room 8 because it is not adjacent to your current location, Room 5." \
        in e.infos["alpha"]["result"]["feedback"]
    assert parse_message_facts("I am moving to Room 8.") == []
    while e.round < 2 or e.agent_selection != "alpha":
        _drive(e, agents, scripted)
    _drive(e, agents, scripted)  # alpha, turn 3 (round 2), after the message was delivered
    k = 3
    assert e.world.locations["alpha"] == 5
    assert truth(e.trace, "introspection", "alpha", "bravo", "contents", 8, k) is False
    assert truth(e.trace, "second_order", "alpha", "bravo", "contents", 8, k) is False
    # bravo's turn: asked about alpha from its own beliefs
    kb = e.turn
    _drive(e, agents, scripted)
    assert truth(e.trace, "first_order", "bravo", "alpha", "contents", 8, kb) is False
    assert bravo.answer(_q("first_order", "alpha", "contents", 8, kb)).startswith("No")
    # contrast: alpha really goes to Room 8 (via Room 0) and observes it at the start of its next turn
    while e.world.locations["alpha"] != 8 or e.agent_selection != "alpha":
        _drive(e, agents, scripted)
    _drive(e, agents, scripted)  # alpha's turn in Room 8: it sees the contents
    ka = e.turn - 1
    assert truth(e.trace, "introspection", "alpha", "bravo", "contents", 8, ka) is True
    assert truth(e.trace, "second_order", "alpha", "bravo", "contents", 8, ka) is True
    kb = e.turn
    _drive(e, agents, scripted)
    assert truth(e.trace, "first_order", "bravo", "alpha", "contents", 8, kb) is True
    assert bravo.answer(_q("first_order", "alpha", "contents", 8, kb)).startswith("Yes")


def test_sequence_knowledge_needs_no_stationary_teammate():
    """Alpha inspects; bravo then stays in the room (it might have cut a phase): alpha no longer knows."""
    e = bomb_v0.raw_env(seed=0)
    ti = TextInterface(e)
    bomb = e.world.bomb_in(e.world.locations["alpha"]).id
    ti.step("Inspect Bomb")                       # alpha, turn 0
    assert truth(e.trace, "introspection", "alpha", "bravo", "sequence", bomb, 0) is True
    assert truth(e.trace, "first_order", "alpha", "bravo", "sequence", bomb, 0) is False
    ti.step("Inspect Bomb")                       # bravo, turn 1 (stationary)
    assert truth(e.trace, "introspection", "bravo", "alpha", "sequence", bomb, 1) is True
    assert truth(e.trace, "first_order", "bravo", "alpha", "sequence", bomb, 1) is False
    assert truth(e.trace, "second_order", "bravo", "alpha", "sequence", bomb, 1) is False  # no message yet


def test_message_makes_teammates_aware():
    e = bomb_v0.raw_env(seed=0)
    ti = TextInterface(e)
    here = e.world.locations["alpha"]
    b = e.world.bomb_in(here)
    ti.step("Inspect Bomb")                                       # alpha t0
    ti.step(f"Move to Room {e.world.map.neighbours(here)[0]}")    # bravo t1 leaves
    ti.step(f"Move to Room {e.world.map.neighbours(here)[0]}")    # charlie t2 leaves
    seq = ", ".join(b.remaining)
    ti.step(f"Move to Room {e.world.map.neighbours(here)[0]}\nMessage: Bomb {b.id} (in Room {here}) remaining "
            f"sequence: {seq}.")                                  # alpha t3
    assert truth(e.trace, "second_order", "alpha", "bravo", "sequence", b.id, 3) is False  # not delivered yet
    ti.step("Inspect Bomb")  # bravo t4 (probably invalid: no matter)
    ti.step("Inspect Bomb")  # charlie t5
    ti.step("Inspect Bomb")  # alpha t6: round 3, message delivered at its start
    assert truth(e.trace, "first_order", "alpha", "bravo", "sequence", b.id, 6) is True
    assert truth(e.trace, "second_order", "alpha", "bravo", "sequence", b.id, 6) is True


def test_questions_pure_and_complete(tmp_path):
    from belief.app.bomb_runner import run_episode

    m = run_episode("belief", 2, out=tmp_path)
    trace = Trace.read(m["files"]["trace"])
    q1 = [q.to_json() for q in questions(trace)]
    q2 = [q.to_json() for q in questions(Trace.read(m["files"]["trace"]))]
    assert q1 == q2 and len(q1) == 3 * m["actions"]
    assert {q["level"] for q in q1} == set(LEVELS)
    assert {q["template"] for q in q1} <= set(TEMPLATES)
    assert all(q["target"] != q["asked"] for q in q1)
    assert all(isinstance(q["answer"], bool) for q in q1)


def test_questions_reject_other_traces():
    with pytest.raises(TraceError):
        questions(Trace(meta={"env": "other"}))


def test_malformed_trace_is_a_trace_error(tmp_path):
    """Regression: a bomb_v0 trace missing meta keys or event params raised a bare KeyError (a raw
    traceback from `belief grade`); it is a TraceError naming the place."""
    from belief.envs import bomb_v0
    from belief.errors import TraceError
    from belief.trace import Trace

    e = bomb_v0.raw_env(seed=0)
    for _ in range(3):
        e.step(5)
    path = tmp_path / "t.jsonl"
    e.trace.write(path)
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    del head["meta"]["bombs"]
    bad_meta = tmp_path / "m.jsonl"
    bad_meta.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")
    with pytest.raises(TraceError, match="malformed bomb_v0 trace in its header"):
        questions(Trace.read(bad_meta))
    ev = json.loads(lines[2])
    del ev["params"]["turn"]
    bad_ev = tmp_path / "e.jsonl"
    bad_ev.write_text("\n".join(lines[:2] + [json.dumps(ev)] + lines[3:]) + "\n")
    with pytest.raises(TraceError, match="at event t=1"):
        questions(Trace.read(bad_ev))
