import pytest

from belief.truth.checker import check
from belief.errors import BeliefError, QueryError, TraceError
from belief.truth.explain import explain
from belief.logic.policies import (ChainEffect, GroupEffect, PolicyError, TrustPolicy, get_policy, policy_names,
                             register_policy)
from belief.truth.trace import Announce, Enter, Exit, Move, Noise, Observe, Set, Statement, Tell, Trace

APPLE = ("in", "apple")


def sally_anne() -> Trace:
    return Trace([
        Enter(agents=("Sally", "Anne"), room="kitchen"),         # 0
        Statement(subject="apple", value="basket", room="kitchen"),  # 1
        Exit(agent="Sally"),                                      # 2
        Move(agent="Anne", object="apple", to="box"),             # 3
        Enter(agent="Bob", room="kitchen"),                       # 4  Bob sees the apple in the box, with Anne
    ])


def test_first_and_second_order_false_belief():
    truth = check(sally_anne())
    assert truth.value((), APPLE) == "box"
    assert truth.value(("Sally",), APPLE) == "basket"
    assert truth.value(("Anne",), APPLE) == "box"
    assert truth.value(("Anne", "Sally"), APPLE) == "basket"
    assert truth.value(("Sally", "Anne"), APPLE) == "basket"
    assert truth.value(("Bob",), APPLE) == "box"
    assert truth.value(("Bob", "Anne"), APPLE) == "box"
    assert truth.value(("Anne", "Bob", "Anne"), APPLE) == "box"
    assert truth.value(("Bob", "Sally"), APPLE) is None  # never together
    assert truth.initial(APPLE) == "basket"
    assert [h.value for h in truth.history(APPLE)] == ["basket", "box"]


def test_time_travel_and_provenance():
    tr = sally_anne()
    truth = check(tr)
    assert truth.value(("Anne",), APPLE, at=2) == "basket"
    assert truth.value(("Anne",), APPLE, at=3) == "box"
    assert truth.value(("Bob",), APPLE, at=3) is None
    assert truth.value((), APPLE, at=0) is None
    p = truth.provenance(("Bob", "Anne"), APPLE)
    assert p.event is tr[4] and p.how == "seen-on-entering" and set(p.observers) == {"Anne", "Bob"}
    p = truth.provenance(("Sally",), APPLE)
    assert p.event is tr[1] and p.t == 1
    assert truth.location("Sally") is None and truth.location("Bob") == "kitchen"
    assert truth.value(("Anne",), ("at", "Sally")) is None and truth.known(("Anne",), ("at", "Sally"))
    assert truth.value(("Sally",), ("at", "Anne")) == "kitchen"   # Sally last saw Anne in the kitchen


def test_adjacent_duplicates_are_normalised():
    truth = check(sally_anne())
    assert truth.value(("Anne", "Anne", "Sally", "Sally"), APPLE) == truth.value(("Anne", "Sally"), APPLE)
    assert truth.value(("Sally", "Anne", "Sally"), APPLE) == "basket"


def test_check_is_pure():
    tr = sally_anne()
    before = tr.dumps()
    check(tr)
    check(tr, "hitom")
    assert tr.dumps() == before


def test_queries_in_the_belief_language():
    truth = check(sally_anne())
    a = truth.answer("? Anne BELIEVE Sally BELIEVE apple IN ?c")
    assert a.bindings == {"c": "basket"} and a.stance == "believes" and a.holds is None
    assert a.provenance.t == 1
    a = truth.answer("? Bob BELIEVE Sally BELIEVE apple IN ?c")
    assert a.bindings == {} and a.stance == "unsure" and not a.known
    assert truth.answer("Sally BELIEVE apple IN basket").holds is True
    assert truth.answer("Sally BELIEVE apple IN box").holds is False
    assert truth.answer("Sally BELIEVE NOT apple IN box").holds is True
    assert truth.answer("Bob UNSURE apple IN box").holds is False
    assert truth.answer("Bob BELIEVE Sally UNSURE apple IN box").holds is True
    assert truth.answer("apple IN box").holds is True
    assert truth.answer("? Anne BELIEVE apple IN ?c", at=2).bindings == {"c": "basket"}
    a = truth.answer("? Anne BELIEVE Sally AT ?r")  # Anne saw Sally leave: Sally is nowhere (None), and known
    assert a.bindings == {"r": None} and a.stance == "believes"
    assert not truth.answer("? Bob BELIEVE Sally AT ?r").known
    with pytest.raises(QueryError):
        truth.answer("? ?x BELIEVE apple IN box")
    with pytest.raises(QueryError):
        truth.answer("? Anne BELIEVE ?o IN box")


def test_yes_no_knowledge():
    truth = check(sally_anne())
    assert truth.knows("Anne", APPLE) and not truth.knows("Sally", APPLE)
    # is Anne aware that Sally knows where the apple is? Anne thinks Sally thinks basket, Anne thinks box: no
    assert not truth.aware_that_knows("Anne", "Sally", APPLE)
    assert truth.aware_that_knows("Bob", "Anne", APPLE)
    assert not truth.knows("Carol", APPLE)
    assert truth.believes(("Anne", "Sally"), APPLE, "basket")


def test_depth_is_unbounded():
    agents = [f"a{i}" for i in range(8)]
    tr = Trace([Enter(agents=tuple(agents), room="r"), Statement(subject="apple", value="box", room="r"),
                Exit(agent="a7"), Move(agent="a0", object="apple", to="bag")])
    truth = check(tr)
    assert truth.value(tuple(agents[:7]) * 3, APPLE) == "bag"
    assert truth.value(tuple(agents), APPLE) == "box"
    assert truth.value(tuple(reversed(agents)) + tuple(agents), APPLE) == "box"


def test_strict_truthful_messages():
    tr = Trace([
        Enter(agent="A", room="r1"), Statement(subject="apple", value="box", room="r1"), Exit(agent="A"),
        Enter(agents=("B", "C"), room="r2"),
        Tell(sender="A", recipient="B", content="apple IN box"),
        Announce(sender="C", content="apple IN bag"),   # C is in r2 with B: B hears it
    ])
    truth = check(tr)
    assert truth.value(("B",), APPLE, at=4) == "box"
    assert truth.value(("A", "B"), APPLE, at=4) == "box"
    assert truth.value(("B", "A"), APPLE, at=4) == "box"
    assert truth.value(("C",), APPLE, at=4) is None
    assert truth.value(("B",), APPLE) == "bag" and truth.value(("B", "C"), APPLE) == "bag"
    assert truth.value(("C", "B"), APPLE) == "bag"
    assert truth.value(("C",), APPLE) is None           # speaking does not change the speaker's own belief
    assert truth.value(("A",), APPLE) == "box"
    assert truth.provenance(("B",), APPLE).how == "told"


def hitom_chapter() -> Trace:
    """A chapter with exit order A, B, C; D was not in it."""
    return Trace([
        Enter(agents=("A", "B", "C"), room="hall", chapter=1),
        Statement(subject="apple", value="red", room="hall", chapter=1),
        Exit(agent="A", chapter=1), Exit(agent="B", chapter=1),
        Move(agent="C", object="apple", to="green", chapter=1), Exit(agent="C", chapter=1),
        Enter(agents=("A", "B", "C", "D"), room="waiting_room"),
    ])


def test_hitom_private_tell():
    tr = hitom_chapter()
    tr.append(Tell(sender="B", recipient="A", content="apple IN blue", chapter=1))   # A exited before B: trusts
    tr.append(Tell(sender="A", recipient="C", content="apple IN pink", chapter=1))   # C exited after A: no trust
    tr.append(Tell(sender="C", recipient="D", content="apple IN gold", chapter=1))   # D not in the chapter: trusts
    truth = check(tr, "hitom")
    assert truth.value(("A",), APPLE) == "blue" and truth.value(("A", "B"), APPLE) == "blue"
    assert truth.value(("B", "A"), APPLE) == "blue"
    assert truth.value(("B",), APPLE) == "red"
    assert truth.value(("C",), APPLE) == "green" and truth.value(("C", "A"), APPLE) == "red"
    assert truth.value(("A", "C"), APPLE) == "pink"
    assert truth.value(("D",), APPLE) == "gold" and truth.value(("D", "C"), APPLE) == "gold"
    assert truth.value(("C", "D"), APPLE) == "gold"
    # messages change no other chain
    assert truth.value(("A", "B", "A"), APPLE) == "red"
    assert truth.value(("D", "A"), APPLE) is None


def test_hitom_public_claim():
    tr = hitom_chapter()
    tr.append(Announce(sender="B", content="apple IN blue", chapter=1))
    truth = check(tr, "hitom")
    # believers: A (exited before B) and D (not in the chapter)
    for b in ("A", "D"):
        assert truth.value((b,), APPLE) == "blue"
        assert truth.value((b, "B"), APPLE) == "blue"
        assert truth.value(("B", b), APPLE) == "blue"
    # C is a listener, not a believer: only "B thinks C thinks"
    assert truth.value(("C",), APPLE) == "green" and truth.value(("C", "B"), APPLE) == "red"
    assert truth.value(("B", "C"), APPLE) == "blue"
    assert truth.value(("B",), APPLE) == "red"
    assert truth.value(("A", "D"), APPLE) is None
    ex = explain(truth, ("A", "B"), APPLE)
    assert "hitom" in ex.text and ex.to_dict()["set_by"]["how"] == "told"


def test_hitom_override_is_superseded_by_later_observation():
    tr = hitom_chapter()
    tr.append(Tell(sender="B", recipient="A", content="apple IN blue", chapter=1))
    tr.append(Enter(agents=("A", "B"), room="hall", chapter=2))
    truth = check(tr, "hitom")
    assert truth.value(("A",), APPLE) == "green"
    assert truth.value(("A", "B"), APPLE) == "green"
    assert truth.value(("A",), APPLE, at=7) == "blue"


def test_custom_policy_registry():
    @register_policy("gullible-test")
    class Gullible(TrustPolicy):
        name = "gullible-test"

        def effects(self, event, ctx):
            for c in event.content:
                for r in ctx.listeners:
                    yield ChainEffect((r,), c.fluent, c.value)

    assert "gullible-test" in policy_names() and "hitom" in policy_names()
    tr = hitom_chapter()
    tr.append(Tell(sender="A", recipient="C", content="apple IN pink"))
    truth = check(tr, "gullible-test")
    assert truth.value(("C",), APPLE) == "pink" and truth.value(("A", "C"), APPLE) == "red"
    assert check(tr, Gullible()).value(("C",), APPLE) == "pink"
    with pytest.raises(PolicyError, match="unknown trust policy 'nope'"):
        check(tr, "nope")
    assert isinstance(get_policy(None), TrustPolicy)


def test_bad_policy_effect_is_reported():
    class Broken(TrustPolicy):
        def effects(self, event, ctx):
            yield "oops"

    tr = Trace([Enter(agent="A", room="r"), Tell(sender="A", recipient="B", content="apple IN box")])
    with pytest.raises(TraceError, match="not a GroupEffect"):
        check(tr, Broken())
    assert GroupEffect(frozenset({"A"}), APPLE, "x").except_solo is None


@pytest.mark.parametrize("events, message", [
    ([Exit(agent="A", source_line=7, source="s.txt")], "s.txt:7: A exits but is in no room"),
    ([Enter(agent="A", room="r"), Exit(agent="A", room="q")], "A exits the q but is in the r"),
    ([Move(agent="A", object="apple", to="box")], "A acts but is in no room"),
    ([Statement(subject="apple", value="box")], "needs the room"),
    ([Enter(agent="A", room="r"), Move(agent="A", object="o", to="b", room="q")], "acts in the q"),
])
def test_inconsistent_traces(events, message):
    with pytest.raises(TraceError, match=message):
        check(Trace(events))


def test_observe_set_and_action():
    from belief.truth.trace import Action, Effect

    tr = Trace([
        Enter(agents=("A", "B"), room="r"),
        Statement(subject="apple", value="box", room="r"),
        Exit(agent="B"),
        Move(agent="A", object="apple", to="bag"),
        Observe(agent="B", fluents=[["in", "apple"]]),  # B peeks from outside
        Set(predicate="colour", subject="bag", value="red", agent="A"),
        Action(name="paint", agent="A", effects=[Effect(predicate="colour", subject="bag", value="blue")],
               visible_to=("B",)),
        Noise(text="x"),
    ])
    truth = check(tr)
    assert truth.value(("B",), APPLE) == "bag"
    assert truth.value(("A", "B"), APPLE) == "box"
    assert truth.value(("A",), ("colour", "bag")) == "red"
    assert truth.value(("B",), ("colour", "bag")) == "blue"
    assert truth.reality("colour bag") == "blue"
    assert set(truth.fluents()) >= {APPLE, ("colour", "bag"), ("at", "A")}


def test_explain_text_and_dict():
    truth = check(sally_anne())
    ex = explain(truth, ("Anne", "Sally"), APPLE)
    assert ex.value == "basket" and ex.known
    d = ex.to_dict()
    assert d["set_by"]["t"] == 1 and d["not_followed"][0]["absent"] == ["Sally"]
    assert "not followed" in ex.text and "Anne moved the apple to the box" in ex.text
    ex = explain(truth, ("Bob", "Sally"), APPLE)
    assert not ex.known and "unknown" in ex.text
    ex = explain(truth, (), APPLE)
    assert "reality" in ex.text and ex.value == "box"
    import json

    json.dumps(ex.to_dict())


def test_errors_are_belief_errors():
    assert issubclass(PolicyError, BeliefError)
    truth = check(sally_anne())
    with pytest.raises(QueryError):
        truth.value(("A",), 42)


def test_variable_subjects_give_one_answer_per_matching_fluent():
    from belief.truth.trace import Enter, Exit, Move, Statement, Trace

    t = Trace()
    t.append(Enter(agents=("A", "B"), room="r"))
    t.append(Statement(subject=("apple",), value="box", room="r"))
    t.append(Statement(subject=("pear",), value="box", room="r"))
    t.append(Exit(agents=("B",), room="r"))
    t.append(Move(agent="A", object="pear", to="bag"))
    truth = check(t)
    got = {(a.bindings["o"], a.value) for a in truth.answers("? A BELIEVE B BELIEVE ?o IN ?c")}
    assert got == {("apple", "box"), ("pear", "box")}  # B left before the pear moved
    assert {a.bindings["o"]: a.holds for a in truth.answers("? A BELIEVE ?o IN box")} == {"apple": True,
                                                                                          "pear": False}
    assert [a.value for a in truth.answers("? A BELIEVE pear IN ?c")] == ["bag"]


def test_knows_as_the_readme_calls_it_and_rejects_a_chain_as_agent():
    """Regression: the README called truth.knows(("B",), fluent), which silently answered False."""
    tr = Trace()
    tr.append(Enter(agents=("A", "B"), room="r"))
    tr.append(Move(agent="A", object="apple", to="box"))
    truth = check(tr)
    assert truth.knows("B", ("in", "apple")) is True
    with pytest.raises(QueryError, match="one agent name"):
        truth.knows(("B",), ("in", "apple"))
