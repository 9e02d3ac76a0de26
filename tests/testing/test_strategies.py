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


def _event_lines(trace: Trace) -> list[str]:
    """The events' lines of the JSONL form (header and end marker left out)."""
    return trace.dumps().splitlines()[1:-1]


@settings(max_examples=40)
@given(bst.traces(n_agents=3, n_rooms=2, perception=True))
def test_the_repr_of_a_generated_trace_shows_each_event_as_its_json_line(trace):
    shown = repr(trace)
    lines = _event_lines(trace)
    assert shown.startswith(f"Trace({len(trace)} events") and len(lines) == len(trace)
    assert [line.strip() for line in shown.splitlines()[1:-1]] == lines


def test_a_long_trace_is_summed_up():
    from belief.testing.traces import build_trace

    long = build_trace(2, 1, [(0, 0, 0, 0)] + [(10, 0, 0, 0)] * Trace.REPR_EVENTS)
    assert len(long) > Trace.REPR_EVENTS and repr(long) == f"Trace({len(long)} events)"
    assert repr(Trace(meta={"seed": 1})) == "Trace(0 events)"
    assert '"seed": 1' in repr(Trace(long.events[:2], meta={"seed": 1}))


def _report_of_a_failure(test, seen: list) -> tuple[str, Trace]:
    """Run a hypothesis test that fails once a trace has two events, appending each trace it builds to
    ``seen``: the failure's report and the reported trace."""
    import pytest

    with pytest.raises(AssertionError) as failed:
        settings(max_examples=200, database=None, derandomize=True)(test)()
    return "\n".join(getattr(failed.value, "__notes__", [])), seen[-1]  # the last run is the reported one


def test_a_failing_example_of_traces_reports_the_events_as_json_lines():
    seen = []

    @given(trace=bst.traces(n_agents=2, n_rooms=1))
    def fails_on_two_events(trace):
        seen.append(trace)
        assert len(trace) < 2

    report, trace = _report_of_a_failure(fails_on_two_events, seen)
    assert len(trace) == 2 and "build_trace(" not in report
    assert all(line in report for line in _event_lines(trace)), report


def test_a_trace_built_in_a_test_is_noted_with_its_json_lines():
    from belief.testing.traces import build_trace, steps_st

    seen = []

    @given(steps=steps_st)
    def fails_on_two_events(steps):
        seen.append(build_trace(2, 1, steps))
        assert len(seen[-1]) < 2

    report, trace = _report_of_a_failure(fails_on_two_events, seen)
    assert len(trace) == 2
    assert all(line in report for line in _event_lines(trace)), report
