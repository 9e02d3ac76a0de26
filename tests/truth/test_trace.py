import json

import pytest
from pydantic import ValidationError

from belief.errors import BeliefError, TraceError
from belief.truth.trace import (SCHEMA_VERSION, Action, Announce, Content, Effect, Enter, Exit, Move, Noise, Noop, Observe,
                          Set, Statement, Tell, Trace, parse_event)


def sample_trace() -> Trace:
    tr = Trace(meta={"story": "sally-anne"})
    tr.append(Enter(agents=("Sally", "Anne"), room="kitchen", chapter=1, source_line=1, source="x.txt"))
    tr.append(Statement(subject="marble", value="basket", room="kitchen"))
    tr.append(Exit(agent="Sally"))
    tr.append(Move(agent="Anne", object="marble", to="box"))
    tr.append(Set(predicate="open", subject="box", value="yes", agent="Anne"))
    tr.append(Observe(agent="Anne", fluents=[["in", "marble"]]))
    tr.append(Tell(sender="Anne", recipient="Sally", content="marble IN box"))
    tr.append(Announce(sender="Anne", content={"subject": "marble", "value": "box"}))
    tr.append(Noop(agent="Anne"))
    tr.append(Noise(text="Sally likes the box"))
    tr.append(Action(name="paint", agent="Anne", params={"colour": "red"},
                     effects=[Effect(predicate="colour", subject="box", value="red")]))
    return tr


def test_append_assigns_t_and_events_are_frozen():
    tr = sample_trace()
    assert [e.t for e in tr] == list(range(len(tr)))
    with pytest.raises(ValidationError, match=r"(?s)\nroom\n.*Instance is frozen"):
        tr[0].room = "hall"
    with pytest.raises(TraceError, match="t=5"):
        tr.append(Noise(t=5, text="late"))


def test_jsonl_round_trip(tmp_path):
    tr = sample_trace()
    p = tmp_path / "t.jsonl"
    tr.write(p)
    lines = p.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["schema_version"] == SCHEMA_VERSION and header["meta"] == {"story": "sally-anne"}
    back = Trace.read(p)
    assert back.events == tr.events
    assert back.meta == tr.meta
    assert back.dumps() == tr.dumps()


def test_event_kinds_and_conveniences():
    tr = sample_trace()
    assert [e.kind for e in tr] == ["enter", "statement", "exit", "move", "set", "observe", "tell", "announce",
                                    "noop", "noise", "action"]
    assert tr[1].fluent == ("in", "marble")
    assert tr[6].content[0].fluent == ("in", "marble") and tr[6].content[0].value == "box"
    assert tr.agents() == ["Sally", "Anne"]
    assert "Sally and Anne entered the kitchen" in tr[0].describe()
    assert tr[0].where() == "x.txt:1"


def test_content_needs_a_plain_relation():
    with pytest.raises(TraceError, match="plain relation"):
        parse_event({"kind": "tell", "sender": "A", "recipients": ["B"], "content": "A BELIEVE apple IN box"})
    with pytest.raises(ValueError):
        Content()


@pytest.mark.parametrize("line, message", [
    ('{"kind": "teleport", "agent": "A"}', "unknown event kind 'teleport'"),
    ('{"kind": "move", "agent": "A"}', "invalid move event: object: Field required"),
    ('{"kind": "enter", "agents": [], "room": "k"}', "agents"),
    ('{"kind": "exit", "agents": ["A"], "colour": "red"}', "colour"),
    ('[1, 2]', "JSON object"),
    ('{"kind": ', "invalid JSON"),
])
def test_invalid_lines_name_the_line(line, message):
    text = json.dumps({"schema_version": SCHEMA_VERSION}) + "\n" + \
        '{"kind": "enter", "agents": ["A"], "room": "k"}\n' + line + "\n"
    with pytest.raises(TraceError) as ei:
        Trace.loads(text, source="t.jsonl")
    assert "t.jsonl:3" in str(ei.value) and message in str(ei.value)
    assert isinstance(ei.value, BeliefError)


def test_header_is_required_and_versioned():
    with pytest.raises(TraceError, match="header"):
        Trace.loads('{"kind": "noise"}\n', source="t.jsonl")
    with pytest.raises(TraceError, match="unsupported schema_version 99"):
        Trace.loads('{"schema_version": 99}\n')
    with pytest.raises(TraceError, match="empty"):
        Trace.loads("\n\n")
    with pytest.raises(TraceError, match="has t=3"):
        Trace.loads('{"schema_version": 1}\n{"kind": "noise", "t": 3}\n', source="t.jsonl")


def test_read_missing_file(tmp_path):
    with pytest.raises(TraceError, match="cannot read"):
        Trace.read(tmp_path / "nope.jsonl")


def test_unset_values_survive_a_jsonl_round_trip():
    """Regression: JSONL omits None fields, so an unset value must read back as None."""
    from belief.truth.trace import Action, Effect, Set, Trace

    t = Trace()
    t.append(Set(t=0, predicate="in", subject=("apple",), value=None))
    t.append(Action(t=1, agent="alpha", name="defuse", room="r1",
                    effects=[Effect(predicate="present", subject=("bomb1",), value=None)]))
    again = Trace.loads(t.dumps())
    assert [e.model_dump() for e in again] == [e.model_dump() for e in t]


@pytest.mark.parametrize("line,phrase", [
    ('{"kind": "noop", "agent": "A", "x": ' + "[" * 50_000 + "]" * 50_000 + "}", "nested too deeply"),
    ('{"kind": "noop", "agent": "A", "chapter": ' + "9" * 5000 + "}", "an integer of 5000 digits"),
    ('{"kind": "noop", "agent": "A", "chapter": NaN}', "NaN"),
    ('{"kind": "enter", "agents": ["Ali ce"], "room": "r"}', "invalid name 'Ali ce'"),
    ('{"kind": "enter", "agents": ["A"], "room": ""}', "invalid name ''"),
    ('{"kind": "move", "agent": "A", "object": "x\\u0000", "to": "b"}', "invalid name"),
    ('{"kind": "set", "predicate": "p", "subject": "s", "value": "two words"}', "invalid name 'two words'"),
    ('{"kind": ' + '"k' * 2 + '"}', "invalid JSON"),
])
def test_malformed_lines_are_trace_errors_naming_the_line(line, phrase):
    with pytest.raises(TraceError) as e:
        Trace.loads('{"schema_version": 1}\n' + line + "\n", source="t.jsonl")
    assert str(e.value).startswith("t.jsonl:2: ") and phrase in str(e.value)
    assert len(str(e.value)) < 1000


def test_header_meta_must_be_an_object_and_a_bom_is_accepted():
    with pytest.raises(TraceError, match="meta must be a JSON object, got list"):
        Trace.loads('{"schema_version": 1, "meta": [1]}\n')
    with pytest.raises(TraceError, match="nested too deeply"):
        Trace.loads('{"schema_version": 1, "meta": ' + "[" * 50_000 + "]" * 50_000 + "}\n")
    with pytest.raises(TraceError, match="meta must be a dict"):
        Trace(meta="abc")
    text = sample_trace().dumps()
    assert Trace.loads("\ufeff" + text).events == sample_trace().events
    assert Noise(text="free text, with spaces").text.startswith("free")  # only names are restricted
