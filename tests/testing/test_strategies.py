"""The strategies users import generate valid values only."""

from hypothesis import given, settings

from belief.truth.checker import check
from belief.grammar import parse_fact
from belief.testing import strategies as bst
from belief.truth.trace import Enter, Exit, Trace


@given(bst.facts(max_depth=4))
def test_generated_facts_print_and_parse_back(fact):
    assert parse_fact(str(fact)) == fact


@settings(max_examples=60)
@given(bst.traces(n_agents=3, n_rooms=2))
def test_generated_traces_are_consistent_and_checkable(trace):
    inside = set()
    for ev in trace:
        if isinstance(ev, Enter):  # entering another room moves an agent there
            inside |= set(ev.agents)
        elif isinstance(ev, Exit):
            assert set(ev.agents) <= inside, "an agent exited a room it was not in"
            inside -= set(ev.agents)
    assert Trace.loads(trace.dumps()).dumps() == trace.dumps()
    check(trace)  # never raises on a consistent trace


def test_single_agent_traces_build():
    """Regression: traces(n_agents=1) is allowed but a private tell divided by n_agents - 1 (ZeroDivisionError)."""
    from belief.testing.traces import build_trace

    trace = build_trace(1, 1, [(0, 0, 0, 0), (5, 0, 0, 0), (6, 0, 0, 8), (6, 0, 0, 0)])
    assert [type(e).__name__ for e in trace] == ["Enter", "Noop", "Announce", "Announce"]
    assert all(not getattr(e, "audience", None) for e in trace)  # never the sender's own audience
    check(trace)


@settings(max_examples=50, deadline=None)
@given(bst.traces(n_agents=1, n_rooms=1))
def test_single_agent_traces_check(trace):
    check(trace)


@settings(max_examples=100, deadline=None)
@given(bst.traces(n_agents=4, n_rooms=2, perception=True))
def test_generated_traces_with_perception_round_trip_and_check(trace):
    assert Trace.loads(trace.dumps()).dumps() == trace.dumps()
    check(trace)  # the perception fields are always valid for the events they decorate
    check(trace, "hitom")
