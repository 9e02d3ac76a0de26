"""Private traces with messages (every perception field) and at orders >= 2 (issue 28: the filter's properties
used to exclude messages, and to look at zero-order beliefs only).

* A message reaches an agent's private trace iff the agent sent it, is in its audience (and not inattentive),
  overheard it or secretly observed it; then the agent's zero-order beliefs from its private trace equal those
  of the global check (on traces where no arrival follows a message: the known limit of docs/logic.md,
  "Private traces").
* Arriving in a room, an agent sees who is there: its private record places there exactly the agents really
  there, and (for an entry that says nothing of who perceived it) its model of who saw it arrive (order 2:
  ``(agent, X)`` on ``at(agent)``) is the global check's.
"""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from belief.testing.traces import traces
from belief.truth.checker import check
from belief.truth.filter import PrivateTrace, private_trace
from belief.truth.trace import Trace


def _sibling(name: str):
    """A module beside this one (the suite imports in importlib mode: no sibling imports by name)."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(f"_truth_{name}", Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_filter_tests = _sibling("test_filter")
_enters_after_a_possible_change = _filter_tests._enters_after_a_possible_change
_observes_an_unknown_value = _filter_tests._observes_an_unknown_value


def _hears(ev, agent: str, world_loc: dict) -> bool:
    """Does ``agent`` perceive message ``ev`` (by the event model of docs/logic.md)?"""
    if agent in (ev.inattentive or ()):
        return False
    if agent == ev.sender or agent in ev.secret:
        return True
    if ev.kind == "tell":
        return agent in ev.recipients
    if ev.audience is not None:
        return agent in ev.audience
    room = world_loc.get(ev.sender)
    return room is None or world_loc.get(agent) == room


@settings(max_examples=200, deadline=None)
@given(trace=traces(n_agents=3, n_rooms=2, max_steps=24, perception=True), data=st.data())
def test_a_message_reaches_exactly_the_private_traces_of_those_who_perceive_it(trace, data):
    agents = sorted(trace.agents())
    assume(agents and any(ev.kind in ("tell", "announce") for ev in trace))
    agent = data.draw(st.sampled_from(agents))
    world = check(trace)
    p = PrivateTrace(agent)
    for ev in trace:
        gained = p.perceive(ev)
        if ev.kind not in ("tell", "announce"):
            continue
        loc = {a: world.location(a, ev.t) for a in world.agents}
        got = [g for g in gained if g.kind == ev.kind]
        assert len(got) == (1 if _hears(ev, agent, loc) else 0), (agent, ev.describe(), ev.model_dump(exclude_none=True))
        if got:
            assert got[0].content == ev.content


@settings(max_examples=200, deadline=None)
@given(trace=traces(n_agents=3, n_rooms=2, max_steps=24, perception=True), data=st.data())
def test_private_trace_with_messages_gives_the_agent_its_global_beliefs(trace, data):
    """Zero-order beliefs, messages included (hidden listeners, secret observers, inattentive listeners,
    perceived_as), where no arrival follows the first message (docs/logic.md: a private trace's world is the
    world as its owner last saw it; an arrival re-shows that view over a newer belief it was told)."""
    kinds = [ev.kind for ev in trace]
    assume("tell" in kinds or "announce" in kinds)
    first = min(k for k, kind in enumerate(kinds) if kind in ("tell", "announce"))
    end = next((k for k in range(first, len(kinds)) if kinds[k] == "enter"), len(kinds))
    trace = Trace(trace[:end])  # up to the first arrival after a message
    assume(not _observes_an_unknown_value(trace) and not _enters_after_a_possible_change(trace))
    agents = sorted(trace.agents())
    agent = data.draw(st.sampled_from(agents))
    world = check(trace)
    p = PrivateTrace(agent)
    for ev in trace:
        p.perceive(ev)
    mine = check(p.trace)
    for f in world.fluents():
        assert mine.value((agent,), f) == world.value((agent,), f), (agent, f)


@settings(max_examples=200, deadline=None)
@given(trace=traces(n_agents=3, n_rooms=2, max_steps=24, perception=True), data=st.data())
def test_an_arrival_shows_who_is_there_and_who_saw_it_arrive(trace, data):
    """At each of its own arrivals, the agent's private record places in the room exactly the agents the world
    has there (it learns that agents it thought were there are gone), and at order 2 its model of who saw it
    arrive, ``(agent, X)`` on ``at(agent)``, is the global check's."""
    agents = sorted(trace.agents())
    assume(agents)
    agent = data.draw(st.sampled_from(agents))
    world = check(trace)
    p = PrivateTrace(agent)
    arrivals = 0
    for ev in trace:
        p.perceive(ev)
        if ev.kind != "enter" or agent not in ev.agents:
            continue
        arrivals += 1
        mine = check(p.trace)
        room = ev.room
        assert set(mine.present(room)) == set(world.present(room, ev.t)), (agent, ev.t, room)
        if ev.has_perception:  # (perceived_as and the like: who the agent believes saw it may differ by design)
            continue
        for x in agents:
            if x != agent:
                assert mine.value((agent, x), ("at", agent)) == world.value((agent, x), ("at", agent), ev.t), (
                    agent, x, ev.t)
    assume(arrivals)


def test_an_arrival_learns_that_agents_it_thought_there_are_gone():
    """C left G in r0; G left unseen; C comes back: C's record no longer places G in r0, and C does not believe G
    saw it come back (the filter adds an exit of G, unseen by C, before C's entry)."""
    trace = Trace([{"kind": "enter", "agents": ["C", "G"], "room": "r0"},
                   {"kind": "enter", "agents": ["C"], "room": "r1"},
                   {"kind": "exit", "agents": ["G"]},
                   {"kind": "enter", "agents": ["C"], "room": "r0"}])
    world, mine = check(trace), check(private_trace(trace, "C"))
    assert mine.present("r0") == world.present("r0") == ["C"]
    # G saw C leave (nowhere, as far as G knows), and did not see it come back
    assert mine.value(("C", "G"), ("at", "C")) is world.value(("C", "G"), ("at", "C")) is None
