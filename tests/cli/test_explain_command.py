"""`belief explain TRACE QUERY`: the exact answer and the events behind it."""

import json
import subprocess
import sys

from belief.truth.trace import Enter, Exit, Move, Statement, Trace


def belief(*args):
    return subprocess.run([sys.executable, "-m", "belief", *args], capture_output=True, text=True, timeout=120)


def test_explain_names_the_setting_event_and_the_missed_change(tmp_path):
    t = Trace()
    t.append(Enter(agents=("A", "B"), room="r"))
    t.append(Statement(subject=("apple",), value="box", room="r"))
    t.append(Exit(agents=("B",), room="r"))
    t.append(Move(agent="A", object="apple", to="bag"))
    path = tmp_path / "t.trace.jsonl"
    t.write(path)
    r = belief("explain", str(path), "? A BELIEVE B BELIEVE apple IN ?c")
    assert r.returncode == 0, r.stderr
    assert "box" in r.stdout.splitlines()[0]
    assert "not followed: t=3 A moved the apple to the bag" in r.stdout and "absent: B" in r.stdout
    rows = json.loads(belief("explain", str(path), "? B BELIEVE apple IN bag", "--json").stdout)
    assert rows[0]["holds"] is False and rows[0]["value"] == "box"
    assert rows[0]["explanation"]["set_by"]["t"] == 1
    early = json.loads(belief("explain", str(path), "? A BELIEVE apple IN ?c", "--at", "2", "--json").stdout)
    assert early[0]["value"] == "box"


def test_explain_bad_input_is_one_error_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    r = belief("explain", str(bad), "? A BELIEVE apple IN ?c")
    assert r.returncode == 1 and r.stderr.startswith("error:") and "Traceback" not in r.stderr


# --- issue 27: the docs' perception examples, knowledge, bounded output, hostile rules ----------------------
import re  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from tests.cli.test_bad_input import _run, assert_one_error_line  # noqa: E402

LOGIC = Path(__file__).resolve().parents[2] / "docs" / "logic.md"


def docs_trace(tmp_path, marker: str) -> Path:
    """The trace of the docs/logic.md example whose code contains ``marker``, written to a file."""
    blocks = re.findall(r"```python\n(.*?)```", LOGIC.read_text(encoding="utf-8"), re.S)
    (block,) = [b for b in blocks if marker in b]
    scope: dict = {}
    exec(block, scope)  # the example runs as written (its asserts included)
    path = tmp_path / "docs.trace.jsonl"
    scope["truth"].trace.write(path)
    return path


def explain_in_process(tmp_path, path: Path, *args):
    r = _run(tmp_path, {}, ["explain", str(path), *args])
    assert r.exit_code == 0, r.stderr
    return r.stdout


def test_a_distracted_bystander_is_inattentive_not_absent(tmp_path):
    """It printed 'absent: Dana' and then Dana in the kitchen."""
    path = docs_trace(tmp_path, '"to": "box", "inattentive": ["Dana"]')
    out = explain_in_process(tmp_path, path, "? Dana BELIEVE ball IN ?c")
    assert out.splitlines()[0] == "believes basket   {'c': 'basket'}"
    assert ("not followed: t=2 Anne moved the ball to the box -> box; inattentive: Dana (there, but did not "
            "perceive it)") in out
    assert "absent" not in out
    knows = explain_in_process(tmp_path, path, "? Anne BELIEVE Dana BELIEVE ball IN ?c", "--knows")
    assert "Anne is aware that Dana knows where the ball is: no (Anne thinks Dana holds box; the real value: box)" in knows
    assert "  Dana knows where the ball is: no (Dana holds basket)" in knows


def test_a_peek_names_the_move_the_chain_missed(tmp_path):
    """It omitted the move: every chain agent was among the perceivers, but Anne does not know Carl peeked."""
    path = docs_trace(tmp_path, '"secret_observers": ["Carl"]')
    out = explain_in_process(tmp_path, path, "? Anne BELIEVE Carl BELIEVE ball IN ?c")
    assert ("not followed: t=3 Anne moved the ball to the box -> box; Anne does not believe Carl perceived it "
            "(Carl perceived it secretly)") in out
    assert "not followed" not in explain_in_process(tmp_path, path, "? Carl BELIEVE Anne BELIEVE ball IN ?c")
    rows = json.loads(explain_in_process(tmp_path, path, "? Carl BELIEVE Anne BELIEVE ball IN ?c", "--knows", "--json"))
    assert rows[0]["knows"] is True and rows[0]["knowledge"]["steps"][0] == {
        "chain": ["Anne"], "knows": True, "holds": "box", "possible": None}
    rows = json.loads(explain_in_process(tmp_path, path, "? Anne BELIEVE Carl BELIEVE ball IN ?c", "--knows", "--json"))
    assert rows[0]["knows"] is False and rows[0]["explanation"]["not_followed"][0]["t"] == 3


def test_perceived_as_is_named_as_the_reason(tmp_path):
    t = Trace([{"kind": "enter", "agents": ["Anne", "Bob", "Carl"], "room": "kitchen"},
               {"kind": "move", "agent": "Anne", "object": "ball", "to": "basket"},
               {"kind": "move", "agent": "Anne", "object": "ball", "to": "box", "perceived_as": {"Bob": ["Anne"]}}])
    path = tmp_path / "t.jsonl"
    t.write(path)
    out = explain_in_process(tmp_path, path, "? Bob BELIEVE Carl BELIEVE ball IN ?c")
    assert ("not followed: t=2 Anne moved the ball to the box -> box; Bob does not believe Carl perceived it "
            "(perceived_as: Bob believes Anne perceived it)") in out


def test_the_output_is_capped(tmp_path):
    """A query with a variable subject printed one explanation per fluent, each with every change missed."""
    events = [Enter(agents=("A", "B"), room="r")]
    events += [Statement(subject=(f"o{i}",), value="box", room="r") for i in range(30)]
    events += [Exit(agents=("B",), room="r")] + [Move(agent="A", object="o0", to=f"c{i}") for i in range(25)]
    path = tmp_path / "t.jsonl"
    Trace(events).write(path)
    out = explain_in_process(tmp_path, path, "? B BELIEVE ?o IN ?c")
    assert out.count("believes box") == 20 and out.rstrip().endswith("... 10 more answer(s) (--limit 20)")
    assert out.count("not followed:") == 20 and "  ... 5 more change(s) not followed" in out
    out = explain_in_process(tmp_path, path, "? B BELIEVE ?o IN ?c", "--limit", "3")
    assert out.count("believes box") == 3 and out.count("not followed:") == 3 and "27 more answer(s)" in out
    rows = json.loads(explain_in_process(tmp_path, path, "? B BELIEVE ?o IN ?c", "--limit", "2", "--json"))
    assert len(rows) == 2 and rows[0]["answers_total"] == 30 and rows[0]["explanation"]["not_followed_more"] == 23


def test_hostile_rules_end_in_one_error_line_quickly(tmp_path):
    """A 401-byte trace whose indicator rule named its own fluent took 116 s; malformed rules exited 0."""
    head = {"schema_version": 1, "meta": {"constraints": [
        {"kind": "domain", "predicate": "c", "values": ["v0", "v1"]},
        {"kind": "indicator", "fluent": "c", "indicator": "c"}]}}
    events = [{"kind": "enter", "agents": ["A"], "room": "r"},
              {"kind": "set", "predicate": "c", "subject": ["x"], "value": "v0"},
              {"kind": "observe", "agents": ["A"], "fluents": [["c", "x"]], "given": {"fluent": ["c", "x"], "values": ["v0"]}}]
    text = "\n".join(json.dumps(x) for x in [head, *events, {"end": {"events": 3}}]) + "\n"
    start = time.process_time()
    r = _run(tmp_path, {"t.jsonl": text}, ["explain", "@t.jsonl", "? A BELIEVE c(x, ?v)"])
    assert time.process_time() - start < 10
    assert_one_error_line(r.exit_code, r.stdout, r.stderr, 1, "constraint 2 ('indicator'): the indicator predicate")
    head["meta"]["constraints"] = [{"kind": "domain", "predicate": "c", "values": "boxbag"}]
    text = "\n".join(json.dumps(x) for x in [head, *events, {"end": {"events": 3}}]) + "\n"
    r = _run(tmp_path, {"t.jsonl": text}, ["explain", "@t.jsonl", "? A BELIEVE c(x, ?v)"])
    assert_one_error_line(r.exit_code, r.stdout, r.stderr, 1, "values must be a list of values, not 'boxbag'")
