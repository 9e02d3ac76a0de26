"""Witnessing is joint (issue 29 follow-up): a look ``Observe(agents=M, witnesses=W)`` is common knowledge among
W (M included) as a look by M. A chain ``(x1, .., xk)`` is made aware by it iff every ``xi`` is in W and ``xk``
is in M (it saw the value); docs/logic.md, "Awareness". Every answer below is worked out by hand from that rule.
"""

from __future__ import annotations

import pytest

from belief.truth.checker import check
from belief.truth.trace import Enter, Exit, Move, Observe, Possible, Trace

F = ("in", "ball")


def _look(witnesses, agents=("c",), extra=()):
    """a, b, c see the ball put in the box, leave, the ball is moved unseen to the bag (a change nobody saw), then
    c looks (witnessed by ``witnesses``)."""
    return check(Trace([
        Enter(agents=("a", "b", "c", "d"), room="hall"),
        Move(agent="d", object="ball", to="box"),
        Exit(agents=("a",)), Exit(agents=("b",)), Exit(agents=("c",)),
        Move(agent="d", object="ball", to="bag"),
        *extra,
        Observe(agents=agents, fluents=(F,), witnesses=witnesses),
    ]))


AWARE = [("c",), ("b", "c"), ("a", "c"), ("a", "b", "c"), ("c", "b", "c"), ("b", "a", "c"), ("a", "b", "a", "c"),
         ("c", "a", "b", "c"), ("b", "c", "a", "c")]
NOT_AWARE = [("a",), ("b",), ("a", "b"), ("a", "c", "b"), ("c", "b"), ("b", "a"), ("a", "b", "c", "a"),
             ("d", "c"), ("a", "d", "c")]


@pytest.mark.parametrize("chain", AWARE)
def test_a_look_witnessed_jointly_makes_every_chain_over_the_witnesses_ending_with_the_looker_aware(chain):
    truth = _look(("a", "b", "c"))
    assert truth.knows_chain(chain, F)


@pytest.mark.parametrize("chain", NOT_AWARE)
def test_a_chain_ending_with_an_agent_who_did_not_see_or_passing_through_a_non_witness_is_not(chain):
    # b and a never saw the ball in the bag; d (who moved it) knows of no look
    truth = _look(("a", "b", "c"))
    assert not truth.knows_chain(chain, F)


def test_a_non_witness_in_the_middle_breaks_the_chain():
    truth = _look(("a", "c"))
    assert truth.knows_chain(("a", "c"), F)
    assert truth.knows_chain(("c", "a", "c"), F)
    assert not truth.knows_chain(("a", "b", "c"), F)   # b did not witness the look
    assert not truth.knows_chain(("b", "c"), F)
    assert not truth.knows_chain(("b", "a", "c"), F)    # b knows of no look at all


def test_two_observers_and_a_witness():
    # c and b look together, a witnesses: (a, b, c) also holds through the joint observation of b and c
    truth = _look(("a", "b", "c"), agents=("b", "c"))
    for chain in [("a", "b"), ("a", "c"), ("a", "b", "c"), ("a", "c", "b"), ("b", "a", "c"), ("c", "a", "b"),
                  ("a", "b", "a", "c")]:
        assert truth.knows_chain(chain, F), chain
    assert not truth.knows_chain(("b", "c", "a"), F)  # a never saw the bag


def test_witnesses_hold_no_belief_about_the_value_but_their_stale_record_does_not_defeat_awareness():
    """(a, b, c) holds "box" (a, b and c saw it there together, before the unseen move); the joint witnessed look
    came after that record: a knows b knows c saw what is there now, so the stale "box" does not deny awareness
    (the staleness rule, generalised as awareness is)."""
    truth = _look(("a", "b", "c"))
    assert truth.value(("a", "b", "c"), F) == "box"
    assert truth.value(("c",), F) == "bag"
    assert truth.knows_chain(("a", "b", "c"), F)
    # without b as a witness, (a, b, c)'s record is not stale: it believes c believes "box", which is false
    assert not _look(("a", "c")).knows_chain(("a", "b", "c"), F)


def test_a_later_change_the_chain_knows_of_undoes_the_awareness():
    # after c's witnessed look, a and b see d (back in the hall with c) possibly move the ball
    truth = _look(("a", "b", "c"), extra=())
    events = list(truth.events) + [Possible(agent="d", observers=("a", "b", "d"), fluents=(F,))]
    after = check(Trace([e.model_copy(update={"t": None}) for e in events]))
    assert not after.knows_chain(("a", "b", "c"), F)
    assert not after.knows_chain(("b", "c"), F)


def test_with_a_secret_observer_the_witnesses_still_know_together_and_know_nothing_of_the_peek():
    """s peeks secretly at c's look (``secret_observers``): s's view of the look is c's (plus s itself); the
    witnesses' view is c's only. Joint witnessing carries through the views: (a, b, c) and (s, a, c) are aware
    (s saw a and b watch c look), (a, s) and (a, s, c) are not (nobody but s knows s was there)."""
    truth = _look(("a", "b", "c"), extra=(Enter(agents=("s",), room="garden"),))
    events = list(truth.events[:-1]) + [truth.events[-1].model_copy(update={"secret_observers": ("s",), "t": None})]
    truth = check(Trace([e.model_copy(update={"t": None}) for e in events]))
    for chain in [("c",), ("s",), ("s", "c"), ("a", "b", "c"), ("s", "a", "c"), ("s", "a", "b", "c"), ("b", "s", "c")]:
        assert truth.knows_chain(chain, F) == (chain != ("b", "s", "c")), chain
    for chain in [("a", "s"), ("a", "s", "c"), ("c", "s"), ("a", "b", "s")]:
        assert not truth.knows_chain(chain, F), chain


RULES = [{"kind": "domain", "predicate": "in", "values": ["box", "bag", "basket"]}]


def test_the_possible_set_of_a_chain_made_aware_is_what_the_chain_before_the_looker_can_tell():
    """With the world's rules declared (a domain): a alone saw the ball in the box (before anything moved it);
    then c looks, witnessed by a, b and c. "a knows c saw": a's own set, {box}. "a knows b knows c saw": what a
    and b can tell together, nothing: the domain. Both chains are aware all the same (they know that c knows)."""
    events = [Enter(agents=("a", "b", "c", "d"), room="hall"), Exit(agents=("b",)), Exit(agents=("c",)),
              Move(agent="d", object="ball", to="box"), Exit(agents=("a",)),
              Observe(agents=("c",), fluents=(F,), witnesses=("a", "b", "c"))]
    truth = check(Trace(events, meta={"constraints": RULES}))
    domain = frozenset({"box", "bag", "basket"})
    assert truth.possible(("c",), F) == {"box"}
    assert truth.possible(("a",), F) == {"box"}
    assert truth.possible(("a", "c"), F) == {"box"}
    assert truth.possible(("b", "c"), F) == domain
    assert truth.possible(("a", "b", "c"), F) == domain
    assert truth.possible(("c", "b", "c"), F) == domain
    assert truth.possible(("b", "a", "c"), F) == domain  # what b and a can tell together: nothing
    for chain in [("a", "c"), ("b", "c"), ("a", "b", "c"), ("c", "b", "c"), ("b", "a", "c")]:
        assert truth.knows_chain(chain, F), chain
    assert not truth.knows_chain(("a", "b"), F)
