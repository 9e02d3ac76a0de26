"""Trace.loads reads well-formed files in bulk; the result is the line-by-line reader's, and anything unusual
goes to the line-by-line reader (which names the line at fault)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import belief.truth.trace as trace_module
from belief.errors import TraceError
from belief.testing.traces import build_trace, steps_st
from belief.truth.trace import Trace


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
    assert (fast.ended, fast.meta) == (slow.ended, slow.meta) == (ended, {"seed": 3})


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
