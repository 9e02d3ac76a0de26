"""The world-independent selector: gold from the checker, phenomena by their definitions, balance per template.

Gold and phenomena are derived here from the checker's own queries (``value``, ``knows_chain``, ``lookup``,
``reality``), never from :func:`belief.grading.questions.gold_answer`, which the selector uses.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from hypothesis import HealthCheck, given, settings, strategies as st

from belief.grading.questions import NO, YES
from belief.grading.selector import (PHENOMENA, Cell, Limits, Selector, chains, needs_tom, phenomena, select,
                                     template_of)
from belief.testing.strategies import traces
from belief.truth.checker import check
from belief.truth.index import HOW_TOLD, OPAQUE, is_marker
from belief.truth.trace import (Action, Content, Effect, Enter, Exit, Move, Observe, Tell, Trace)

DEPTH = 3


def _cells(truth, every: int = 2) -> list[Cell]:
    fluents = [f for f in truth.fluents() if f[0] == "in"]
    out = []
    for t in range(0, truth.end + 1, every):
        for f in fluents:
            for c in chains(truth.agents, DEPTH):
                out.append(Cell(t, "value", c, f))
                out.append(Cell(t, "knows" if len(c) == 1 else "aware", c, f))
    return out


def _expected_gold(truth, q) -> str:
    """The checker's answer, asked directly."""
    if q.kind == "value":
        v = truth.value(q.chain, q.fluent, q.time)
        assert isinstance(v, str) and not is_marker(v), "a value question is asked only with a definite answer"
        return v
    return YES if truth.knows_chain(q.chain, q.fluent, q.time) else NO


def _holds(truth, q, gold: str, name: str) -> bool:
    """Each phenomenon by its definition (PHENOMENA), from the checker's queries."""
    f, at, chain = q.fluent, q.time, q.chain
    real = truth.reality(f, at)
    prov = truth.lookup(chain, f, at) if chain else None
    held = prov is not None and prov.value is not None and not is_marker(prov.value)
    if name == "secret_observation":
        return any((p := truth.lookup((a,), f, at)) is not None and p.event is not None and a in p.event.secret
                   for a in chain)
    if name == "elimination":
        last = truth.lookup(chain[-1:], f, at)
        return (q.kind != "value" and gold == YES and truth.constraints is not None and truth.constraints.constrained(f)
                and not (last is not None and (last.value is OPAQUE or last.value == real)))
    if name == "message_borne":
        return held and prov.how == HOW_TOLD and (gold == YES or q.kind == "value")
    if name == "divergent_second_order":
        def alone(c):
            if q.kind == "value":
                v = truth.value(c, f, at)
                return v if isinstance(v, str) and not is_marker(v) else "unknown"
            return YES if truth.knows_chain(c, f, at) else NO
        return len(chain) >= 2 and {alone(chain[:1]), alone(chain[-1:])} != {gold}
    if name == "missed_change":
        return q.kind != "value" and gold == NO and held and truth.changed_between(f, prov.t, at)
    if name == "false_belief":
        return q.kind == "value" and gold not in ("unknown", "nowhere") and gold != ("nowhere" if real is None else real)
    raise AssertionError(name)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(traces(n_agents=3, n_rooms=2, max_steps=14, perception=True), st.sampled_from([0.6, 0.9]))
def test_selected_gold_is_the_checkers_and_templates_are_balanced(trace, high):
    truth = check(trace)
    picked = select(truth, _cells(truth), limits=Limits(high=high, examined=12), seed=0)
    fresh = check(trace)  # an independent run of the checker
    by_template = defaultdict(list)
    for c in picked:
        q = c.question
        assert c.gold == _expected_gold(fresh, q)
        assert needs_tom(c)
        assert q.template == template_of(Cell(q.time, q.kind, q.chain, q.fluent))
        assert q.phenomenon == (c.phenomena[0] if c.phenomena else None)
        by_template[q.template].append(c)
    for template, cs in by_template.items():  # every template within the limits after the trim
        n = len(cs)
        for i, name in enumerate(cs[0].shortcuts):
            assert sum(c.right()[i] for c in cs) <= high * n + 1e-9, (template, name)
        assert max(Counter(c.gold for c in cs).values()) <= high * n + 1e-9


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(traces(n_agents=3, n_rooms=2, max_steps=14, perception=True))
def test_phenomena_are_exactly_those_whose_definition_holds(trace):
    from belief.grading.questions import Question, gold_answer

    truth = check(trace)
    fresh = check(trace)
    for cell in _cells(truth, every=3)[::5]:
        q = Question(id="q", kind=cell.kind, chain=cell.chain, fluent=cell.fluent, time=cell.time)
        gold = gold_answer(truth, q)
        if q.kind == "value" and gold == "unknown":
            continue
        names = phenomena(truth, q, gold)
        assert list(names) == [n for n in PHENOMENA if _holds(fresh, q, gold, n)], q


def test_chains_never_repeat_an_agent_in_a_row():
    cs = chains("ABC", 4)
    assert len(cs) == 3 + 6 + 12 + 24 and ("A", "B", "A") in cs and ("A", "A") not in cs
    assert chains("AB", 3, first="B") == [("B",), ("B", "A"), ("B", "A", "B")]


def _sally_anne() -> Trace:
    return Trace([Enter(agents=("Sally", "Anne"), room="room"), Move(agent="Sally", object="marble", to="basket"),
                  Exit(agents=("Sally",)), Move(agent="Anne", object="marble", to="box")])


def _named(truth, kind, chain, at=None):
    from belief.grading.questions import Question, gold_answer

    q = Question(id="q", kind=kind, chain=chain, fluent=("in", "marble"), time=truth.end if at is None else at)
    gold = gold_answer(truth, q)
    return gold, phenomena(truth, q, gold)


def test_sally_anne_phenomena_hand_worked():
    truth = check(_sally_anne())
    assert _named(truth, "value", ("Sally",)) == ("basket", ("false_belief",))
    assert _named(truth, "knows", ("Sally",)) == ("no", ("missed_change",))
    gold, names = _named(truth, "value", ("Anne", "Sally"))
    assert gold == "basket" and names[0] == "divergent_second_order" and "false_belief" in names
    assert _named(truth, "value", ("Anne",)) == ("box", ())  # a true belief: nothing to name


def test_message_and_secret_observation_hand_worked():
    trace = Trace([Enter(agents=("Sally", "Anne"), room="room"), Enter(agents=("Carl",), room="hall"),
                   Move(agent="Anne", object="marble", to="box"), Exit(agents=("Sally",)),
                   Move(agent="Anne", object="marble", to="bag"),
                   Tell(sender="Anne", recipients=("Sally",), content=(Content(subject=("marble",), value="bag"),)),
                   Observe(agents=("Anne",), fluents=(("in", "marble"),), secret_observers=("Carl",))])
    truth = check(trace)
    assert _named(truth, "knows", ("Sally",))[0] == "yes" and "message_borne" in _named(truth, "knows", ("Sally",))[1]
    gold, names = _named(truth, "knows", ("Carl",))
    assert gold == "yes" and names[0] == "secret_observation"
    gold, names = _named(truth, "aware", ("Anne", "Carl"))  # Anne does not know Carl peeked
    assert gold == "no" and names[0] == "secret_observation" and "divergent_second_order" in names


def test_elimination_hand_worked():
    rules = [{"kind": "domain", "predicate": "colour", "values": ["red", "blue"]},
             {"kind": "indicator", "fluent": "colour", "indicator": "has_colour"}]
    setup = Action(name="setup", visible_to=(), effects=(
        Effect(predicate="colour", subject=("c1",), value="blue"),
        Effect(predicate="has_colour", subject=("c1", "red"), value="no"),
        Effect(predicate="has_colour", subject=("c1", "blue"), value="yes")))
    trace = Trace([setup, Enter(agents=("A", "B"), room="r"),
                   Observe(agents=("A", "B"), fluents=(("has_colour", "c1", "red"),))], meta={"constraints": rules})
    truth = check(trace)
    from belief.grading.questions import Question, gold_answer

    q = Question(id="q", kind="knows", chain=("A",), fluent=("colour", "c1"), time=truth.end)
    assert gold_answer(truth, q) == "yes" and phenomena(truth, q)[0] == "elimination"
    sel = Selector()
    asked = sel.offer(truth, [Cell(truth.end, "knows", ("A",), ("colour", "c1")),
                              Cell(truth.end, "value", ("A",), ("colour", "c1"))])
    assert [c.question.kind for c in asked] == ["knows"]  # the value question's gold is "unknown": never asked
    assert sel.finish() == []  # one "yes" alone is no balanced template: the trim drops it
