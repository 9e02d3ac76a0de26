"""Compact storage (issue 32): the replay's position arrays, shared while equal, hold what the masks say, after
any mix of witnessed, perceived and refused events; events share fields sets, short name tuples and message
contents without changing what they are, dump or copy to."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belief.errors import TraceError
from belief.logic.policies import get_policy
from belief.testing.traces import build_trace, perceived_steps_st
import belief.truth.index as index_module
from belief.truth.checker import check
from belief.truth.index import HOWS, IndexBuilder
from belief.truth.trace import Content, Enter, Move, Tell, Trace
from belief.truth.tracker import Tracker
from tests.truth.test_red_team import HalfWay  # a policy that writes, then fails


def positions_hold_the_masks(b: IndexBuilder) -> None:
    """Each agent's observed (witnessed) positions are exactly the updates whose mask (wmask) names it."""
    for f, idx in b.index.items():
        n = len(idx.times)
        assert len(idx.masks) == len(idx.wmasks) == len(idx.events) == len(idx.seqs) == len(idx.hows) == n, f
        for column, positions in ((idx.masks, idx.by_agent), (idx.wmasks, idx.wit_by_agent)):
            expected: dict = {}
            for j, m in enumerate(column):
                for i in range(m.bit_length()):
                    if m >> i & 1:
                        expected.setdefault(i, []).append(j)
            assert {i: list(p) for i, p in positions.items()} == expected, f
        for i, p in idx.wit_by_agent.items():  # a shared array is only ever shared while both lists are equal
            if p is idx.by_agent.get(i):
                assert list(p) == list(idx.by_agent[i])
        assert all(0 <= h < len(HOWS) for h in idx.hows)


@settings(max_examples=150, deadline=None)
@given(steps=perceived_steps_st, n_agents=st.integers(1, 4))
def test_position_arrays_hold_the_masks_after_witnessed_and_perceived_events(steps, n_agents):
    trace = build_trace(n_agents, 3, steps)
    positions_hold_the_masks(IndexBuilder(trace, get_policy("strict-truthful")).run())


@settings(max_examples=60, deadline=None)
@given(steps=perceived_steps_st, n_agents=st.integers(2, 4), data=st.data())
def test_a_refused_event_leaves_the_position_arrays_as_they_were(steps, n_agents, data):
    trace = build_trace(n_agents, 3, steps)
    tracker = Tracker(HalfWay())
    for ev in trace:
        if data.draw(st.booleans()) and tracker.replay.agents:
            a = tracker.replay.agents[0]
            before = {f: ({i: list(p) for i, p in idx.by_agent.items()},
                          {i: list(p) for i, p in idx.wit_by_agent.items()}, list(idx.wmasks))
                      for f, idx in tracker.replay.index.items()}
            with pytest.raises(TraceError):
                tracker.append(Tell(sender=a, recipients=(a,), content=(Content(subject=("o1",), value="b"),)))
            after = {f: ({i: list(p) for i, p in idx.by_agent.items()},
                         {i: list(p) for i, p in idx.wit_by_agent.items()}, list(idx.wmasks))
                     for f, idx in tracker.replay.index.items()}
            assert after == before
        if ev.kind in ("tell", "announce"):
            continue  # (the half-way policy refuses every message)
        tracker.append(ev, renumber=True)
        positions_hold_the_masks(tracker.replay)


def test_events_share_fields_sets_and_name_tuples_but_keep_their_own_fields():
    a, b = Enter(agents=("x", "y"), room="r"), Enter(agents=["x", "y"], room="r", t=0)
    assert a.agents is b.agents and a.agents == ("x", "y")  # one tuple for the same names
    assert a.model_fields_set == {"agents", "room"} and b.model_fields_set == {"agents", "room", "t"}
    c = Enter(agents=("x", "y"), room="s")
    assert a.__pydantic_fields_set__ is c.__pydantic_fields_set__
    copied = a.model_copy(update={"quiet": True})
    assert copied.model_fields_set == {"agents", "room", "quiet"} and a.model_fields_set == {"agents", "room"}
    assert c.model_fields_set == {"agents", "room"}  # the copy's set is its own: the shared one did not grow
    assert a.model_dump(exclude_unset=True) == {"agents": ("x", "y"), "room": "r"}
    long = tuple(f"a{i}" for i in range(10))
    assert Enter(agents=long, room="r").agents is not Enter(agents=long, room="r").agents  # long ones: not kept


def test_messages_share_a_content_only_when_claims_and_given_fields_are_the_same():
    one = Tell(sender="x", recipients=("y",), content=({"subject": "o", "value": "b"},))
    two = Tell(sender="x", recipients=("z",), content=({"subject": ["o"], "value": "b"},))
    three = Tell(sender="x", recipients=("z",), content=({"predicate": "in", "subject": "o", "value": "b"},))
    four = Tell(sender="x", recipients=("z",), content=({"subject": "o", "value": "c"},))
    assert one.content is two.content
    assert three.content is not one.content and three.content == one.content  # predicate given: its own
    assert three.content[0].model_dump(exclude_unset=True) == {"predicate": "in", "subject": ("o",), "value": "b"}
    assert one.content[0].model_dump(exclude_unset=True) == {"subject": ("o",), "value": "b"}
    assert four.content != one.content


def test_compact_events_dump_and_read_back_as_before():
    events = [Enter(agents=("x",), room="r"), Move(agent="x", object="o", to="b"),
              Tell(sender="x", recipients=("x",), content=("o IN b",))]
    trace = Trace(events)
    again = Trace.loads(trace.dumps())
    assert again.events == trace.events and again.dumps() == trace.dumps()
    assert [e.model_dump(exclude_unset=True) for e in again] == [
        {"kind": "enter", "agents": ("x",), "room": "r", "t": 0},
        {"kind": "move", "agent": "x", "object": "o", "to": "b", "predicate": "in", "t": 1},
        {"kind": "tell", "sender": "x", "recipients": ("x",), "t": 2,
         "content": ({"predicate": "in", "subject": ("o",), "value": "b", "fact": "o IN b"},)}]


def index_values(b: IndexBuilder) -> dict:
    return {f: (list(i.times), list(i.masks), list(i.wmasks), list(i.values), list(i.events), list(i.hows),
                list(i.seqs), list(i.changes), {k: list(v) for k, v in i.by_agent.items()},
                {k: list(v) for k, v in i.wit_by_agent.items()}, list(i.real_t), list(i.real_v), list(i.real_e))
            for f, i in b.index.items()}


@settings(max_examples=60, deadline=None)
@given(steps=perceived_steps_st, n_agents=st.integers(1, 4), limit=st.integers(0, 12))
def test_past_the_narrow_limit_the_arrays_widen_and_hold_the_same(steps, n_agents, limit):
    trace = build_trace(n_agents, 3, steps)
    policy = get_policy("strict-truthful")
    narrow = IndexBuilder(trace, policy).run()
    old = index_module.NARROW_LIMIT
    index_module.NARROW_LIMIT = limit  # as if this many updates (or events) were 2**31
    try:
        wide = IndexBuilder(trace, policy).run()
        tracker = Tracker()
        for ev in trace:
            tracker.append(ev)
    finally:
        index_module.NARROW_LIMIT = old
    assert index_values(wide) == index_values(tracker.replay) == index_values(narrow)
    for b in (wide, tracker.replay):
        positions_hold_the_masks(b)
        arrays = [a for i in b.index.values()
                  for a in (i.seqs, i.events, i.real_e, *i.by_agent.values(), *i.wit_by_agent.values())]
        if any(x >= limit for a in arrays for x in a):  # a number a narrow array could not hold: all wide
            assert all(a.typecode == "q" for a in arrays) and all(i.code == "q" for i in b.index.values())
    assert all(a.typecode == "i" for i in narrow.index.values() for a in (i.seqs, i.events, *i.by_agent.values()))
    truth, again = check(trace), tracker.truth()
    for f in narrow.index:
        for chain in (("A",), ("B", "A"), ("A", "B", "A")):
            assert again.value(chain, f) == truth.value(chain, f)
