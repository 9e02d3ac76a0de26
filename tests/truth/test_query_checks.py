"""Queries from people are checked against the trace or scenario: unknown names, times out of range, domains."""

import pytest

from belief.truth.checker import check
from belief.logic.domain import named_domain
from belief.errors import QueryError, TraceError
from belief.logic.scenario import load_scenario
from belief.truth.trace import Enter, Exit, Move, Statement, Trace
from belief.truth.typed_trace import type_check, type_problems


def story() -> Trace:
    return Trace([Enter(agents=("Alice", "Bob"), room="kitchen"), Statement(subject="apple", value="box", room="kitchen"),
                  Exit(agents=("Bob",), room="kitchen"), Move(agent="Alice", object="apple", to="basket")])


@pytest.mark.parametrize("query,message", [
    ("? Aliec BELIEVE apple IN ?c", "no such agent 'Aliec' (did you mean 'Alice'?)"),
    ("? Alice BELIEVE Bbo BELIEVE apple IN ?c", "no such agent 'Bbo' (did you mean 'Bob'?)"),
    ("? Alice BELIEVE aple IN ?c", "no such entity 'aple' (did you mean 'apple'?)"),
    ("? Alice BELIEVE apple IN baskte", "no such entity 'baskte' (did you mean 'basket'?)"),
    ("? kitchen BELIEVE apple IN ?c", "'kitchen' is not an agent of this trace (agents: Alice, Bob)"),
    ("? Alice BELIEVE near(apple, ?c)", "no such predicate 'near'"),
])
def test_a_name_the_trace_never_mentions_is_an_error_not_a_silent_unknown(query, message):
    truth = check(story())
    with pytest.raises(QueryError) as e:
        truth.answer(query)
    assert str(e.value) == message or str(e.value).startswith(message)
    with pytest.raises(QueryError):
        truth.answers(query)


def test_names_the_trace_knows_are_answered_even_when_never_observed_by_the_chain():
    truth = check(story())
    assert truth.answer("? Bob BELIEVE apple IN ?c").value == "box"
    assert truth.answer("? Bob BELIEVE apple IN basket").holds is False  # a known value, a real "no"
    late = story()
    late.append(Enter(agents=("Carol",), room="hall"))
    assert check(late).answer("? Carol BELIEVE apple IN ?c").known is False  # Carol is in the trace: unknown
    assert truth.value(("Nobody",), ("in", "apple")) is None  # the programmatic API stays lenient


@pytest.mark.parametrize("at,ok", [(3, True), (-1, True), (-5, True), (0, True), (4, False), (99, False), (-6, False)])
def test_a_time_outside_the_trace_is_an_error(at, ok):
    truth = check(story())
    if ok:
        truth.answer("? Alice BELIEVE apple IN ?c", at=at)
    else:
        with pytest.raises(QueryError, match=f"at={at} is out of range: the trace has 4 event"):
            truth.answer("? Alice BELIEVE apple IN ?c", at=at)


def test_an_untyped_scenario_checks_the_names_of_a_query():
    sc = load_scenario("Alice BELIEVE apple IN box\nBob BELIEVE apple IN bag\n", source="f")
    sc.check_query_names(sc.init[0].formula)
    from belief.grammar import parse_query
    with pytest.raises(QueryError, match="no such agent 'Aliec' \\(did you mean 'Alice'\\?\\)"):
        sc.check_query_names(parse_query("? Aliec BELIEVE apple IN ?c"))
    with pytest.raises(QueryError, match="no such entity 'bxo'"):
        sc.check_query_names(parse_query("? Alice BELIEVE apple IN bxo"))


def test_traces_are_type_checked_against_a_domain_when_one_is_given():
    tomi = named_domain("tomi")
    entities = {"Alice": "agent", "Bob": "agent", "kitchen": "room", "box": "container", "basket": "container",
                "apple": "item"}
    assert type_problems(story(), tomi, entities) == []
    check(story(), domain=tomi, entities=entities)
    bad = story()
    bad.append(Move(agent="Alice", object="apple", to="Bob"))
    bad.append(Move(agent="Carl", object="kitchen", to="box"))
    problems = type_problems(bad, tomi, entities)
    assert any("t=4" in p and "argument 2 of in must be a place, but 'Bob' is an agent" in p for p in problems)
    assert any("t=5" in p and "no such agent 'Carl'" in p for p in problems)
    assert any("t=5" in p and "'kitchen' is a room" in p for p in problems)
    with pytest.raises(TraceError, match="does not fit domain tomi: t=4"):
        check(bad, domain=tomi, entities=entities)
    unknown_predicate = Trace([Statement(predicate="near", subject="apple", value="box", room="kitchen")])
    with pytest.raises(TraceError, match="unknown predicate 'near'"):
        type_check(unknown_predicate, tomi)  # without entities: predicates and arity only


def test_chains_longer_than_the_formula_limit_are_refused_by_the_programmatic_api_too():
    from belief.logic.formula import MAX_DEPTH

    truth = check(story())
    long_chain = tuple(("Alice", "Bob")) * 10_000
    with pytest.raises(QueryError, match=f"longer than the limit {MAX_DEPTH}"):
        truth.knows_chain(long_chain, ("in", "apple"))
    assert truth.knows_chain(("Alice", "Bob") * (MAX_DEPTH // 2), ("in", "apple")) is False


def test_agents_in_perception_fields_are_type_checked_against_a_domain():
    tomi = named_domain("tomi")
    entities = {"Alice": "agent", "Bob": "agent", "kitchen": "room", "box": "container", "basket": "container",
                "apple": "item"}
    peek = story()
    peek.append(Move(agent="Alice", object="apple", to="box", secret_observers=("Bbo",)))
    peek.append(Move(agent="Alice", object="apple", to="basket", inattentive=("box",)))
    problems = type_problems(peek, tomi, entities)
    assert any("no such agent 'Bbo' (did you mean 'Bob'?)" in p for p in problems)
    assert any("'box' is named as perceiving the event but is 'container'" in p for p in problems)
