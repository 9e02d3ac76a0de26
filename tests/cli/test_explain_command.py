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
