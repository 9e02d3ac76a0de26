"""The strategies users import generate valid values only."""

from hypothesis import given, settings

from belief.checker import check
from belief.grammar import parse_fact
from belief.testing import strategies as bst
from belief.trace import Enter, Exit, Trace


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
