import json

import pytest

from belief.envs.bomb.tom import LEVELS, SETS, TEMPLATES, questions
from belief.errors import TraceError
from belief.truth.trace import Trace


def test_questions_pure_and_complete(tmp_path):
    from belief.app.runners.bomb import run_episode

    m = run_episode("belief", 2, out=tmp_path)
    trace = Trace.read(m["files"]["trace"])
    q1 = [q.to_json() for q in questions(trace)]
    q2 = [q.to_json() for q in questions(Trace.read(m["files"]["trace"]))]
    assert q1 == q2 and len(q1) == 3 * len(SETS) * m["actions"]
    assert {q["set"] for q in q1} == set(SETS)
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
    from belief.envs.bomb import environment as bomb_v0
    from belief.errors import TraceError
    from belief.truth.trace import Trace

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
    with pytest.raises(TraceError, match="malformed bomb_v0 trace"):
        questions(Trace.read(bad_meta))
    acts = [i for i, line in enumerate(lines) if '"name": "move"' in line or '"name": "inspect"' in line]
    ev = json.loads(lines[acts[0]])
    ev["params"] = {}
    bad_ev = tmp_path / "e.jsonl"
    bad_ev.write_text("\n".join(lines[:acts[0]] + [json.dumps(ev)] + lines[acts[0] + 1:]) + "\n")
    with pytest.raises(TraceError, match="malformed bomb_v0 trace"):
        questions(Trace.read(bad_ev))


def test_knows_that_a_bomb_changed_needs_the_change():
    """"Do you know that Bomb 1 has changed?" is No while it has not, though everyone knows it has not (the
    rules say bombs start unchanged); once Alpha has cut a phase of it, Alpha knows that it has."""
    from belief.envs.bomb import environment as bomb_v0
    from belief.envs.bomb.events import f_changed
    from belief.envs.bomb.text import TextInterface
    from belief.envs.bomb.tom import answer
    from belief.envs.bomb.world import DEFAULT_MAP, Bomb, World
    from belief.truth.checker import check

    bombs = {1: (5, ("red", "green")), 2: (3, ("blue",)), 3: (0, ("green", "green", "blue")), 4: (6, ("red",)),
             5: (8, ("blue", "red"))}
    w = World(DEFAULT_MAP, {b: Bomb(b, r, s) for b, (r, s) in bombs.items()}, {a: 5 for a in ("alpha", "bravo", "charlie")})
    e = bomb_v0.raw_env(seed=0)
    e.reset(options={"world": w})
    ti = TextInterface(e)
    ti.step("Inspect Bomb")
    truth = check(e.trace)
    at = len(e.trace) - 1
    assert truth.reality(f_changed(1), at) == "no" and truth.knows_chain(("alpha",), f_changed(1), at)
    for level in ("introspection", "first_order", "second_order"):
        assert answer(truth, level, "alpha", "bravo", "changed", 1, 0, at) is False
    ti.step("Inspect Bomb")
    ti.step("Inspect Bomb")
    ti.step("Apply Red Tool")  # alpha cuts the red phase
    truth = check(e.trace)
    at = len(e.trace) - 1
    assert answer(truth, "introspection", "alpha", "bravo", "changed", 1, 3, at) is True
