"""A value another agent saw, masked in the owner's private record (OPAQUE), is not defeated by the owner's own
narrowed possible set (docs/logic.md, "Private traces").

Hanabi's shape, by hand: Bob sees Alice's card drawn (Alice witnesses the look, without the value); a public
negative hint then narrows the card for both. Alice does not know the colour; Bob does, and Alice knows he does
(he saw it, and nothing Alice knows of changed it since). The record used to pin the colour to "no value" (the
masked value's reality in Alice's trace) and read Bob's later "not red" as contradicting it. Every expected answer
below is worked out from the rule, not read from the checker.
"""

from __future__ import annotations

import pytest

from belief.truth.checker import check
from belief.truth.filter import private_trace
from belief.truth.record import PrivateRecord
from belief.truth.trace import Action, Effect, Observe, Tell, Content, Trace

COLOURS = ["red", "green", "blue", "yellow", "white"]
RULES = [{"kind": "domain", "predicate": "colour", "values": COLOURS},
         {"kind": "indicator", "fluent": "colour", "indicator": "has_colour"}]
CARD = "card_3"
F = ("colour", CARD)
HAS = tuple(("has_colour", CARD, c) for c in COLOURS)


def _deal(colour="white"):
    """The deck, seen by nobody; then the card in Alice's hand, seen by Bob, the look witnessed by both."""
    effects = (Effect(predicate="colour", subject=(CARD,), value=colour),
               *(Effect(predicate="has_colour", subject=(CARD, c), value="yes" if c == colour else "no")
                 for c in COLOURS))
    return [Action(name="setup", visible_to=(), effects=effects),
            Observe(agents=("bob",), fluents=(F, *HAS), witnesses=("alice", "bob"))]


def _not(colour):
    """A public negative hint: the card is not ``colour`` (seen by both)."""
    return Observe(agents=("alice", "bob"), fluents=(("has_colour", CARD, colour),), values=("no",))


def _both(events):
    trace = Trace(events, meta={"constraints": RULES})
    return check(trace), check(private_trace(trace, "alice"))


@pytest.mark.parametrize("hints", [(), ("red",), ("red", "green"), ("red", "green", "blue")])
def test_the_owner_knows_the_other_saw_the_card_whatever_the_hints_leave_it(hints):
    world, mine = _both(_deal() + [_not(c) for c in hints])
    left = frozenset(COLOURS) - set(hints)
    assert mine.possible("alice", F) == left  # the hints narrowed Alice's own set (by the rules), not to one
    assert not mine.knows("alice", F)
    for truth in (world, mine):
        assert truth.knows_chain(("bob",), F)
        assert truth.knows_chain(("alice", "bob"), F)
        assert truth.knows_chain(("bob", "bob"), F)


def test_the_incremental_record_answers_as_the_filtered_trace():
    trace = Trace(_deal() + [_not("red"), _not("blue")], meta={"constraints": RULES})
    record = PrivateRecord("alice", meta={"constraints": RULES})
    record.add(private_trace(trace, "alice"))
    assert record.knows_chain(("alice", "bob"), F) and record.knows_chain(("bob",), F)


def test_a_change_the_owner_knows_of_after_the_look_still_makes_the_sighting_stale():
    """Alice alone sees the card repainted after Bob's look: Bob's sighting is stale, in both traces."""
    repaint = Action(name="repaint", agent="alice", visible_to=("alice",),
                     effects=(Effect(predicate="colour", subject=(CARD,), value="red"),
                              *(Effect(predicate="has_colour", subject=(CARD, c), value="yes" if c == "red" else "no")
                                for c in COLOURS)))
    world, mine = _both(_deal() + [_not("green"), repaint])
    for truth in (world, mine):
        assert truth.knows("alice", F)
        assert not truth.knows_chain(("bob",), F)
        assert not truth.knows_chain(("alice", "bob"), F)


def test_a_later_belief_the_owner_knows_is_false_still_defeats():
    """The hints leave Alice white alone (she knows it by elimination); she then tells Bob "not white": Bob's
    later belief contradicts every value Alice holds possible, so in her record he does not know (nor in the
    world's, where the card is white)."""
    lie = Tell(sender="alice", recipients=("bob",),
               content=(Content(predicate="has_colour", subject=(CARD, "white"), value="no"),))
    world, mine = _both(_deal() + [_not(c) for c in ("red", "green", "blue", "yellow")] + [lie])
    assert mine.possible("alice", F) == {"white"} and mine.knows("alice", F)
    for truth in (world, mine):
        assert not truth.knows_chain(("bob",), F)
        assert not truth.knows_chain(("alice", "bob"), F)
    # before the message, Bob knows in both
    world_before, mine_before = _both(_deal() + [_not(c) for c in ("red", "green", "blue", "yellow")])
    assert mine_before.knows_chain(("alice", "bob"), F) and world_before.knows_chain(("alice", "bob"), F)


def test_possible_for_a_masked_sighting_is_not_the_empty_value():
    """Without rules for the fluent, a chain that knows it directly has the real value's set; in the owner's
    record the masked value is not "none" (a value no card has) but unknown."""
    events = _deal()
    world = check(Trace(events))
    mine = check(private_trace(Trace(events), "alice"))
    assert world.possible("bob", F) == {"white"}
    assert mine.knows("bob", F)
    assert mine.possible("bob", F) is None  # any value: Alice cannot say which Bob saw


@pytest.mark.parametrize("colour", ["white", "yellow"])
def test_a_later_belief_that_fits_some_owner_values_does_not_defeat_in_the_record(colour):
    """The partial case of the rule (docs/logic.md, "Which later beliefs defeat"): the hints leave Alice white or
    yellow; she tells Bob "not white". Bob's later belief contradicts white but fits yellow, so in Alice's record
    (where either may stand for the real value) it does not contradict every value she cannot rule out: Bob's
    sighting stands, and she is aware of it. The world measures against the real card: white, and Bob's belief
    defeats his sighting; yellow, and it fits."""
    tell = Tell(sender="alice", recipients=("bob",),
                content=(Content(predicate="has_colour", subject=(CARD, "white"), value="no"),))
    world, mine = _both(_deal(colour) + [_not(c) for c in ("red", "green", "blue")] + [tell])
    assert mine.possible("alice", F) == {"white", "yellow"} and not mine.knows("alice", F)
    assert mine.knows_chain(("bob",), F) and mine.knows_chain(("alice", "bob"), F)
    fits = colour == "yellow"
    assert world.knows_chain(("bob",), F) is fits
    assert world.knows_chain(("alice", "bob"), F) is fits
