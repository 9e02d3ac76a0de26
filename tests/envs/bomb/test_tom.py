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
