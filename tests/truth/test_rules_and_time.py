"""Single rules against brute force, times counted from the end, and "knows that" questions (issue 28's mutants).

* Each rule kind alone (count with ``at_most``/``at_least``, indicator, implies), propagated by arc consistency
  only, keeps exactly the values some assignment satisfying the rule gives (for one rule, arc consistency is
  complete): a count's ``at_least`` forces the value when only that many fluents may take it.
* A negative ``at`` counts from the end (-1: the last event), for every query.
* "Does A know that F?" is "F holds, and A knows its fluent" (general grading and the bomb game alike).
"""

from __future__ import annotations

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from belief.logic import constraints as rules_module
from belief.logic.constraints import Constraints
from belief.testing.traces import build_trace, steps_st
from belief.truth.checker import check

VALUES = ["a", "b", "c"]
FAM = [("col", "x"), ("col", "y"), ("col", "z")]


def _brute(rules: Constraints, sets: dict, holds) -> dict:
    fluents = list(sets)
    out: dict = {f: set() for f in fluents}
    for combo in product(*(sorted(sets[f]) for f in fluents)):
        a = dict(zip(fluents, combo))
        if holds(a):
            for f, v in a.items():
                out[f].add(v)
    return out


def _arc_consistency(rules: Constraints, sets: dict) -> dict:
    """What each rule's propagator does itself (no exact pass over the assignments)."""
    saved, rules_module.MAX_WORLDS = rules_module.MAX_WORLDS, 0
    try:
        return rules.propagate(sets)
    finally:
        rules_module.MAX_WORLDS = saved


sets_st = st.lists(st.sets(st.sampled_from(VALUES), min_size=1), min_size=3, max_size=3)


@settings(max_examples=300)
@given(sets=sets_st, at_most=st.none() | st.integers(0, 3), at_least=st.none() | st.integers(0, 3),
       value=st.sampled_from(VALUES))
def test_a_count_rule_alone_keeps_exactly_what_some_assignment_gives(sets, at_most, at_least, value):
    if at_most is None and at_least is None:
        at_least = 1
    rules = Constraints([{"kind": "domain", "predicate": "col", "values": VALUES},
                         {"kind": "count", "fluents": [list(f) for f in FAM], "value": value,
                          "at_most": at_most, "at_least": at_least}])
    given_sets = dict(zip(FAM, (frozenset(s) for s in sets)))

    def holds(a):
        n = sum(1 for v in a.values() if v == value)
        return (at_most is None or n <= at_most) and (at_least is None or n >= at_least)

    want = _brute(rules, given_sets, holds)
    got = _arc_consistency(rules, given_sets)
    if not all(want.values()):  # no assignment: the propagation finds the contradiction
        assert any(not got[f] for f in FAM), (given_sets, got)
    else:
        assert {f: set(got[f]) for f in FAM} == want, (given_sets, at_most, at_least, value)


@settings(max_examples=200)
@given(colour=st.sets(st.sampled_from(VALUES), min_size=1), hints=st.lists(st.sets(st.sampled_from(["yes", "no"]),
                                                                                   min_size=1), min_size=3, max_size=3))
def test_an_indicator_rule_alone_keeps_exactly_what_some_assignment_gives(colour, hints):
    rules = Constraints([{"kind": "domain", "predicate": "col", "values": VALUES},
                         {"kind": "indicator", "fluent": "col", "indicator": "is"}])
    sets = {("col", "x"): frozenset(colour), **{("is", "x", v): frozenset(h) for v, h in zip(VALUES, hints)}}
    want = _brute(rules, sets, lambda a: all((a[("is", "x", v)] == "yes") == (a[("col", "x")] == v) for v in VALUES))
    got = _arc_consistency(rules, sets)
    if all(want.values()):
        assert {f: set(v) for f, v in got.items()} == want
    else:
        assert any(not v for v in got.values())


@settings(max_examples=200)
@given(left=st.sets(st.sampled_from(VALUES), min_size=1), right=st.sets(st.sampled_from(VALUES), min_size=1),
       iff=st.booleans())
def test_an_implies_rule_alone_keeps_exactly_what_some_assignment_gives(left, right, iff):
    rules = Constraints([{"kind": "domain", "predicate": "col", "values": VALUES},
                         {"kind": "domain", "predicate": "mark", "values": VALUES},
                         {"kind": "implies", "if": {"predicate": "col", "values": ["a"]},
                          "then": {"predicate": "mark", "values": ["a", "b"]}, "iff": iff}])
    f, g = ("col", "x"), ("mark", "x")
    sets = {f: frozenset(left), g: frozenset(right)}

    def holds(a):
        return (a[f] != "a" or a[g] in ("a", "b")) and (not iff or a[g] not in ("a", "b") or a[f] == "a")

    want = _brute(rules, sets, holds)
    got = _arc_consistency(rules, sets)
    if all(want.values()):
        assert {k: set(v) for k, v in got.items()} == want
    else:
        assert any(not v for v in got.values())


def test_the_exact_pass_finds_a_case_split():
    """Two objects, two places, and a third place that may hold either: knowing that one of the two places is
    empty does not tell by arc consistency which object is where, but an assignment search does when only one
    remains (each place holds at most one)."""
    rules = Constraints([{"kind": "domain", "predicate": "in", "values": ["p", "q"]},
                         {"kind": "domain", "predicate": "contents", "values": ["o1", "o2", "none"]},
                         {"kind": "inverse", "forward": "in", "backward": "contents"}])
    sets = {("in", "o1"): frozenset({"p", "q"}), ("in", "o2"): frozenset({"p", "q"}),
            ("contents", "p"): frozenset({"o1", "o2"}), ("contents", "q"): frozenset({"o1"})}
    got = rules.propagate(sets)
    assert got[("in", "o1")] == {"q"} and got[("in", "o2")] == {"p"} and got[("contents", "p")] == {"o2"}


def test_the_exact_pass_keeps_at_least():
    """x, y, z each a or b; at least one a among x, y; at least one a among y, z; at most one a among all three.
    Each rule alone forces nothing (two may be a, none is yet), but together exactly one is a, and it is in both
    pairs: y is a, x and z are b. Only the assignment search sees it, and only if it checks at_least."""
    fam = [["col", "x"], ["col", "y"], ["col", "z"]]
    rules = Constraints([{"kind": "domain", "predicate": "col", "values": ["a", "b"]},
                         {"kind": "count", "fluents": fam[:2], "value": "a", "at_least": 1},
                         {"kind": "count", "fluents": fam[1:], "value": "a", "at_least": 1},
                         {"kind": "count", "fluents": fam, "value": "a", "at_most": 1}])
    sets = {("col", v): frozenset({"a", "b"}) for v in "xyz"}
    assert {f: set(v) for f, v in _arc_consistency(rules, sets).items()} == {f: {"a", "b"} for f in sets}
    got = rules.propagate(sets)
    assert {f: set(v) for f, v in got.items()} == {("col", "x"): {"b"}, ("col", "y"): {"a"}, ("col", "z"): {"b"}}


# --- a negative at counts from the end ------------------------------------------------------------------------

@settings(max_examples=100)
@given(steps=steps_st, n_agents=st.integers(2, 3))
def test_a_negative_at_counts_from_the_end(steps, n_agents):
    trace = build_trace(n_agents, 2, steps)
    truth = check(trace)
    n = len(trace)
    fluents = truth.fluents()
    for agent in truth.agents:
        for f in fluents:
            for k in range(1, n + 1):
                assert truth.value((agent,), f, at=-k) == truth.value((agent,), f, at=n - k), (agent, f, k)
                assert truth.knows_chain((agent,), f, at=-k) == truth.knows_chain((agent,), f, at=n - k)
            assert truth.value((agent,), f, at=-n - 1) is None  # before anything


# --- "knows that": the fact must hold ---------------------------------------------------------------------------

def test_knows_that_needs_the_fact_to_hold():
    """Alice knows where the apple is (the box): "does Alice know that the apple is in the basket?" is No,
    though she knows the fluent; "... in the box?" is Yes."""
    from belief.grading.questions import Question, gold_answer
    from belief.truth.trace import Trace

    truth = check(Trace([{"kind": "enter", "agents": ["Alice"], "room": "kitchen"},
                         {"kind": "move", "agent": "Alice", "object": "apple", "to": "box"}]))
    assert truth.knows("Alice", ("in", "apple"))
    ask = dict(kind="knows", chain=("Alice",), fluent=("in", "apple"))
    assert gold_answer(truth, Question(id="q1", values=("basket",), **ask)) == "no"
    assert gold_answer(truth, Question(id="q2", values=("box",), **ask)) == "yes"
    assert gold_answer(truth, Question(id="q3", **ask)) == "yes"
