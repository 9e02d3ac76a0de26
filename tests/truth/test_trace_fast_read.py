"""Trace.loads reads well-formed files in bulk; the result is the line-by-line reader's, and anything unusual
goes to the line-by-line reader (which names the line at fault)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

import belief.truth.trace as trace_module
from belief.errors import TraceError
from belief.testing.traces import build_trace, perceived_steps_st, steps_st
from belief.truth.trace import Move, Trace


def read_line_by_line(text: str) -> Trace:
    fast = trace_module._read_fast
    trace_module._read_fast = lambda *a: False
    try:
        return Trace.loads(text)
    finally:
        trace_module._read_fast = fast


@settings(max_examples=100, deadline=None)
@given(steps=steps_st, n_agents=st.integers(1, 4), ended=st.booleans())
def test_the_bulk_reader_gives_what_the_line_reader_gives(steps, n_agents, ended):
    trace = build_trace(n_agents, 2, steps)
    trace.meta["seed"] = 3
    text = trace.dumps()
    if not ended:
        text = text.rsplit("\n", 2)[0] + "\n\n"
    assert trace_module._read_fast(Trace(), text.splitlines()[1:]) is True
    fast, slow = Trace.loads(text), read_line_by_line(text)
    assert fast.events == slow.events == trace.events
    assert [e.model_fields_set for e in fast] == [e.model_fields_set for e in slow]
    assert [e.model_dump() for e in fast] == [e.model_dump() for e in slow]
    assert (fast.ended, fast.meta) == (slow.ended, slow.meta) == (ended, {"seed": 3})


@settings(max_examples=100, deadline=None)
@given(steps=perceived_steps_st, n_agents=st.integers(1, 4))
def test_the_bulk_reader_gives_what_the_line_reader_gives_with_perception_fields(steps, n_agents):
    trace = build_trace(n_agents, 3, steps)
    text = trace.dumps()
    assert trace_module._read_fast(Trace(), text.splitlines()[1:]) is True
    fast, slow = Trace.loads(text), read_line_by_line(text)
    assert fast.events == slow.events == trace.events
    assert [e.model_fields_set for e in fast] == [e.model_fields_set for e in slow]
    assert [e.model_dump(exclude_unset=True) for e in fast] == [e.model_dump(exclude_unset=True) for e in slow]


def test_events_read_in_bulk_share_their_fields_set_safely():
    moves = [Move(agent="a", object="x", to=f"b{i}") for i in range(3)]
    again = Trace.loads(Trace(moves).dumps())
    a, b, c = again
    assert a.__pydantic_fields_set__ is b.__pydantic_fields_set__  # one set for the events giving the same fields
    with pytest.raises(ValidationError, match=r"(?s)\nto\n.*Instance is frozen"):
        a.to = "elsewhere"  # frozen: the shared set cannot grow by assignment
    copied = a.model_copy(update={"room": "r"})
    assert "room" in copied.model_fields_set and "room" not in b.model_fields_set
    assert b.model_dump(exclude_unset=True) == {"kind": "move", "agent": "a", "object": "x", "to": "b1",
                                                 "predicate": "in", "t": 1}
    assert list(again) == [m.model_copy(update={"t": i}) for i, m in enumerate(moves)]


def test_names_are_checked_once_shared_and_still_refused_when_invalid(monkeypatch):
    text = Trace([Move(agent="a", object="x", to="box"), Move(agent="a", object="x", to="box")]).dumps()
    first, second = Trace.loads(text)
    assert first.to is second.to and first.agent is second.agent  # one string per name
    for _ in range(2):  # a refused name is not kept: refused again, the same way
        with pytest.raises(TraceError, match=r"f.jsonl:2: invalid move event: to: .*invalid name 'b x'"):
            Trace.loads(HEADER + '\n{"kind": "move", "agent": "a", "object": "x", "to": "b x"}\n', source="f.jsonl")
    monkeypatch.setattr(trace_module, "_NAMES", trace_module._Names())
    monkeypatch.setattr(trace_module, "MAX_KEPT_NAMES", 2)
    names = trace_module._NAMES
    assert [names[n] for n in ("n1", "n2", "n3", "n3")] == ["n1", "n2", "n3", "n3"]
    assert set(names) == {"n1", "n2"}  # at most MAX_KEPT_NAMES kept; the others still checked
    with pytest.raises(ValueError, match="invalid name"):
        names["n 4"]


HEADER = json.dumps({"schema_version": 1, "format": "belief-trace"})
NOOP = '{"kind": "noop", "agent": "a"}'


@pytest.mark.parametrize("body, message", [
    # two lines that only make events together (a split object) are two bad lines, not one event
    ('{"kind": "noop", "agent": "a"}, {"kind": "noop",\n"agent": "b"}', ":2: invalid JSON"),
    (NOOP + "\n" + '{"kind": "noop", "agent": "b", "t": 5}', ":3: t=5: event has t=5"),
    (NOOP + "\n" + '{"end": {"events": 2}}', ":3: the end marker"),
    ('{"end": {"events": 0}}\n' + NOOP, ":3: nothing may follow the end marker"),
    (NOOP + "\n" + '{"kind": "noop", "agent": "a", "t": 1' + "1" * 30 + "}", ":3: invalid JSON"),
    (NOOP + "\n" + '{"kind": "fly", "agent": "a"}', ":3: unknown event kind"),
])
def test_unusual_files_are_read_line_by_line_and_the_line_named(body, message):
    with pytest.raises(TraceError, match=message):
        Trace.loads(HEADER + "\n" + body + "\n", source="f.jsonl")


@settings(max_examples=50, deadline=None)
@given(steps=perceived_steps_st, chunk=st.integers(1, 5), bad=st.integers(0, 40))
def test_the_bulk_reader_reads_in_chunks_and_falls_back_at_a_bad_line_in_any_chunk(steps, chunk, bad):
    trace = build_trace(3, 2, steps)
    lines = trace.dumps().splitlines()
    kept = trace_module._CHUNK
    trace_module._CHUNK = chunk
    try:
        assert Trace.loads("\n".join(lines)).events == trace.events
        n = 1 + bad % len(trace)  # an event line made invalid: its line number is n + 1
        lines[n] = lines[n].replace('"kind": ', '"kind": "x", "y": ', 1)
        with pytest.raises(TraceError, match=f"f.jsonl:{n + 1}: "):
            Trace.loads("\n".join(lines), source="f.jsonl")
    finally:
        trace_module._CHUNK = kept
