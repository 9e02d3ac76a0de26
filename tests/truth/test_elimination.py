"""Knowledge by elimination (docs/logic.md): world constraints + per-chain possible-value sets.

Minimal traces for the bomb cases of issue 19 (a)-(e) and a Hanabi colour known from four negative hints.
Each case also checks that without the constraints the checker does not derive it (the test can fail).
"""

import pytest

from belief.errors import TraceError
from belief.truth.checker import check
from belief.truth.trace import Action, Announce, Condition, Content, Effect, Observe, Possible, Trace

EVERYONE = ("alpha", "bravo", "charlie")
ROOMS = ["room_0", "room_5", "room_6"]
BOMBS = ["bomb_1", "bomb_2"]
BOMB_RULES = [
    {"kind": "domain", "predicate": "in", "values": ROOMS + ["defused"], "initial": ROOMS},
    {"kind": "domain", "predicate": "contents", "values": BOMBS + ["none"]},
    {"kind": "inverse", "forward": "in", "backward": "contents", "empty": "none"},
    {"kind": "domain", "predicate": "last_defusal", "values": ["never"] + [f"turn_{k}" for k in range(10)]},
]
#: the same rules with "defused" declared as no place (as the bomb world declares them)
BOMB_RULES_OUTSIDE = [dict(r, outside=["defused"]) if r["kind"] == "inverse" else r for r in BOMB_RULES]


def eff(pred, subj, v):
    return Effect(predicate=pred, subject=(subj,), value=v)


def setup(**where):
    """The hidden initial world: bomb -> room (seen by nobody)."""
    effects = [eff("in", b, r) for b, r in where.items()]
    held = {r: b for b, r in where.items()}
    effects += [eff("contents", r, held.get(r, "none")) for r in ROOMS]
    return Action(name="setup", effects=tuple(effects), visible_to=())


def vanish(actor, bomb, room, seen_by=None):
    """A full defusal: the actor sees it; everyone sees the room's bomb go (the public score)."""
    return [Action(name="apply", agent=actor, visible_to=seen_by or (actor,),
                   effects=(eff("in", bomb, "defused"), eff("contents", room, "none"), eff("seq", bomb, "none"))),
            Observe(agents=EVERYONE, fluents=(("in", bomb), ("seq", bomb)),
                    given=Condition(fluent=("in", bomb), values=(room,))),
            Observe(agents=EVERYONE, fluents=(("contents", room),))]


def cut_seen_shorter() -> list:
    """Bravo reads bomb 2's sequence; alpha may cut it (a possible change all see) and does, at turn 6, unseen;
    bravo reads the shorter sequence."""
    return [setup(bomb_1="room_0", bomb_2="room_5"),
            Observe(agents=("bravo",), fluents=(("seq", "bomb_2"),), values=("red,red",)),
            Possible(agent="alpha", observers=EVERYONE,
                     fluents=(("seq", "bomb_2"), ("last_defusal", "bomb_2"), ("last_defuser", "bomb_2")),
                     values=(None, "turn_6", "alpha")),
            Action(name="apply", agent="alpha", visible_to=("alpha",),
                   effects=(eff("seq", "bomb_2", "red"), eff("last_defusal", "bomb_2", "turn_6"),
                            eff("last_defuser", "bomb_2", "alpha"))),
            Observe(agents=("bravo",), fluents=(("seq", "bomb_2"),))]


def both(events, rules=BOMB_RULES):
    return check(Trace(events, meta={"constraints": rules})), check(Trace(events))


def test_a_last_bomb_located_by_elimination_then_known_defused():
    events = [setup(bomb_1="room_0", bomb_2="room_5"),
              Observe(agents=("bravo",), fluents=(("contents", "room_0"), ("in", "bomb_1"))),
              Observe(agents=("bravo",), fluents=(("contents", "room_6"),))]
    with_rules, without = both(events + vanish("charlie", "bomb_2", "room_5"))
    assert with_rules.possible("bravo", ("in", "bomb_2"), at=2) == {"room_5"}
    assert without.possible("bravo", ("in", "bomb_2"), at=2) is None
    assert with_rules.knows("bravo", ("in", "bomb_2")) and with_rules.knows("bravo", ("seq", "bomb_2"))
    assert not without.knows("bravo", ("in", "bomb_2"))
    # alpha located nothing: two rooms remain possible, and it learns nothing from the score
    assert with_rules.possible("alpha", ("in", "bomb_2"), at=2) == {"room_0", "room_5", "room_6"}
    assert not with_rules.knows("alpha", ("in", "bomb_2"))


def test_b_cut_turn_known_from_a_shorter_sequence():
    rules = BOMB_RULES
    events = cut_seen_shorter()
    with_rules, without = both(events, rules)
    assert with_rules.knows("bravo", ("last_defusal", "bomb_2"))
    assert with_rules.possible("bravo", ("last_defusal", "bomb_2")) == {"turn_6"}
    assert not without.knows("bravo", ("last_defusal", "bomb_2"))
    # before bravo reads the shorter sequence, the cut may not have happened
    assert not with_rules.knows("bravo", ("last_defusal", "bomb_2"), at=3)
    # charlie never read the sequence: it cannot tell
    assert not with_rules.knows("charlie", ("last_defusal", "bomb_2"))


def test_c_aware_that_the_lone_defuser_knows():
    events = [setup(bomb_1="room_0", bomb_2="room_5"),
              Observe(agents=("bravo",), fluents=(("contents", "room_5"), ("in", "bomb_2"))),
              Observe(agents=("alpha",), fluents=(("contents", "room_5"), ("in", "bomb_2")), witnesses=EVERYONE),
              *vanish("alpha", "bomb_2", "room_5")]
    with_rules, without = both(events)
    assert with_rules.knows_chain(("bravo", "alpha"), ("seq", "bomb_2"))
    assert not without.knows_chain(("bravo", "alpha"), ("seq", "bomb_2"))
    assert not with_rules.knows_chain(("charlie", "alpha"), ("seq", "bomb_2"))  # charlie never located it


def test_d_a_true_message_counts_as_its_senders_sighting():
    events = [setup(bomb_1="room_0", bomb_2="room_5"),
              Observe(agents=("alpha",), fluents=(("seq", "bomb_2"),), values=("blue",)),
              Announce(sender="alpha", audience=("bravo", "charlie"),
                       content=(Content(predicate="seq", subject=("bomb_2",), value="blue"),))]
    truth = check(Trace(events))
    assert truth.knows_chain(("bravo", "alpha"), ("seq", "bomb_2"))
    later = check(Trace(events + [Possible(agent="charlie", observers=EVERYONE, fluents=(("seq", "bomb_2"),))]))
    assert not later.knows_chain(("bravo", "alpha"), ("seq", "bomb_2"))
    false = check(Trace(events[:2] + [Announce(sender="alpha", audience=("bravo",), content=(
        Content(predicate="seq", subject=("bomb_2",), value="red"),))]))
    assert not false.knows_chain(("bravo", "alpha"), ("seq", "bomb_2"))


def test_e_a_stale_message_defeats_knowledge_of_the_room():
    events = [setup(bomb_1="room_6", bomb_2="room_5"),
              *vanish("alpha", "bomb_1", "room_6", seen_by=("alpha",)),
              Observe(agents=("bravo",), fluents=(("contents", "room_6"),)),
              Announce(sender="charlie", audience=("bravo",),
                       content=(Content(predicate="in", subject=("bomb_1",), value="room_6"),))]
    with_rules, without = both(events)
    assert without.knows("bravo", ("contents", "room_6"))
    assert not with_rules.knows("bravo", ("contents", "room_6"))   # it believes bomb 1 is there
    assert with_rules.value("bravo", ("in", "bomb_1")) == "room_6"  # believed, never known
    assert not with_rules.knows("bravo", ("in", "bomb_1"))
    # the room seen again after the message: known again
    again = check(Trace(events + [Observe(agents=("bravo",), fluents=(("contents", "room_6"),))],
                        meta={"constraints": BOMB_RULES}))
    assert again.knows("bravo", ("contents", "room_6"))


COLOURS = ["red", "green", "blue", "yellow", "white"]
HANABI_RULES = [{"kind": "domain", "predicate": "colour", "values": COLOURS},
                {"kind": "indicator", "fluent": "colour", "indicator": "is"}]


def negative_hint(colour, card="card_3"):
    """'None of these cards is <colour>', seen by everyone: (is card colour) = no."""
    return Observe(agents=("alice", "bob"), fluents=(("is", card, colour),), values=("no",))


def test_hanabi_colour_known_from_four_negative_hints():
    hidden = Action(name="deal", effects=(Effect(predicate="colour", subject=("card_3",), value="white"),),
                    visible_to=("alice",))  # bob holds the card and does not see it
    events = [hidden] + [negative_hint(c) for c in ("red", "green", "blue", "yellow")]
    truth = check(Trace(events, meta={"constraints": HANABI_RULES}))
    assert truth.possible("bob", ("colour", "card_3")) == {"white"}
    assert truth.knows("bob", ("colour", "card_3"))
    assert truth.knows_chain(("alice", "bob"), ("colour", "card_3"))  # the hints were public
    assert truth.possible("bob", ("colour", "card_3"), at=3) == {"yellow", "white"}
    assert not truth.knows("bob", ("colour", "card_3"), at=3)
    assert not check(Trace(events)).knows("bob", ("colour", "card_3"))


def test_count_constraint_and_bad_declarations():
    rules = HANABI_RULES + [{"kind": "count", "fluents": [["colour", "card_1"], ["colour", "card_2"]],
                             "value": "red", "at_most": 1}]
    events = [Action(name="deal", effects=(Effect(predicate="colour", subject=("card_1",), value="red"),
                                           Effect(predicate="colour", subject=("card_2",), value="blue")),
                     visible_to=()),
              Observe(agents=("bob",), fluents=(("colour", "card_1"),))]
    truth = check(Trace(events, meta={"constraints": rules}))
    assert "red" not in truth.possible("bob", ("colour", "card_2"))
    with pytest.raises(TraceError, match="unknown kind"):
        check(Trace(events, meta={"constraints": [{"kind": "nope"}]}))
    with pytest.raises(TraceError, match="missing field 'values'"):
        check(Trace(events, meta={"constraints": [{"kind": "domain", "predicate": "colour"}]}))


# --- an agent's private record reasons as the global check does for its own chain ---------------------------
from belief.truth.filter import private_trace  # noqa: E402


def _mine(events, agent, rules=BOMB_RULES):
    """The global truth and ``agent``'s private record (its private trace, with the world's rules)."""
    trace = Trace(events, meta={"constraints": rules})
    return check(trace), check(private_trace(trace, agent))


def test_private_record_knows_a_value_it_was_told_truly():
    """Messages never write a private trace's reality: the owner's belief stands for it in elimination too
    (the record used to find a told, true value "contradicted" by a missing reality: not known)."""
    events = [setup(bomb_1="room_0", bomb_2="room_5"),
              Observe(agents=("alpha",), fluents=(("contents", "room_0"), ("in", "bomb_1"))),
              Announce(sender="alpha", audience=("bravo",),
                       content=(Content(predicate="contents", subject=("room_0",), value="bomb_1"),)),
              Observe(agents=("bravo",), fluents=(("contents", "room_5"), ("in", "bomb_2")))]  # a later belief
    world, mine = _mine(events, "bravo")
    f = ("contents", "room_0")
    assert mine.reality(f) is None  # the private trace's world: bravo never saw room 0
    assert world.knows("bravo", f) and mine.knows("bravo", f)
    assert world.possible("bravo", f) == mine.possible("bravo", f) == {"bomb_1"}


def test_private_record_knows_the_cut_turn_by_elimination():
    """After a possible change the owner's record is unsure; elimination leaves one value, which stands for the
    real one in its private trace (whose reality never saw the cut)."""
    events = cut_seen_shorter()
    world, mine = _mine(events, "bravo")
    f = ("last_defusal", "bomb_2")
    assert mine.reality(f) is None
    assert world.possible("bravo", f) == mine.possible("bravo", f) == {"turn_6"}
    assert world.knows("bravo", f) and mine.knows("bravo", f)
    # before the shorter sequence is read: unsure in both
    world3, mine3 = _mine(events[:4], "bravo")
    assert not world3.knows("bravo", f) and not mine3.knows("bravo", f)


def test_a_stale_message_is_believed_never_known_even_when_elimination_pins_the_value():
    """Bravo saw every room and bomb 1 vanish from room 6, then is told (stale) that bomb 1 is in room 6: the
    rules still leave only "defused", but bravo believes room 6, so it does not know (knowledge is factive)."""
    events = [setup(bomb_1="room_6", bomb_2="room_5"),
              Observe(agents=("bravo",), fluents=(("contents", "room_0"), ("contents", "room_5"), ("contents", "room_6"))),
              *vanish("alpha", "bomb_1", "room_6"),
              Announce(sender="charlie", audience=("bravo",),
                       content=(Content(predicate="in", subject=("bomb_1",), value="room_6"),))]
    truth = check(Trace(events, meta={"constraints": BOMB_RULES}))
    f = ("in", "bomb_1")
    assert truth.knows("bravo", f, at=4)  # before the message
    # the message (formed when it is delivered: it says no earlier as_of) is bravo's latest-formed record
    assert truth.value("bravo", f) == "room_6" and truth.possible("bravo", f) == {"room_6"}
    assert not truth.knows("bravo", f)
    # posted before the vanish (as_of): the sighting is the newer record, so the rules still leave "defused";
    # but bravo believes room 6 (the belief is the latest delivered), so it does not know either
    early = check(Trace(events[:-1] + [events[-1].model_copy(update={"as_of": 0})], meta={"constraints": BOMB_RULES}))
    assert early.value("bravo", f) == "room_6" and early.possible("bravo", f) == {"defused"}
    assert not early.knows("bravo", f)


# --- later beliefs that contradict each other defeat only what a consistent part of them rules out ----------
def _mixed_message():
    """Bravo saw Bomb 2 in Room 5; Charlie then tells it "Room 6 is empty" (stale) and "Bomb 1 is in Room 6"
    (current): the message contradicts itself through the rules, and says nothing against Room 5."""
    return [setup(bomb_1="room_6", bomb_2="room_5"),
            Observe(agents=("bravo",), fluents=(("contents", "room_5"), ("in", "bomb_2"))),
            Announce(sender="charlie", audience=("bravo",),
                     content=(Content(predicate="contents", subject=("room_6",), value="none"),
                              Content(predicate="in", subject=("bomb_1",), value="room_6")))]


def test_self_contradictory_later_beliefs_do_not_defeat_an_unrelated_fluent():
    truth = check(Trace(_mixed_message(), meta={"constraints": BOMB_RULES}))
    assert truth.value("bravo", ("contents", "room_6")) == "none"
    assert truth.value("bravo", ("in", "bomb_1")) == "room_6"
    assert truth.knows("bravo", ("in", "bomb_2")) and truth.knows("bravo", ("contents", "room_5"))


def test_a_consistent_later_belief_still_defeats_after_a_self_contradictory_one():
    """Newer beliefs prevail: the false "Bomb 2 is in Room 0" told after the mixed message defeats Room 5."""
    events = _mixed_message() + [Announce(sender="charlie", audience=("bravo",), content=(
        Content(predicate="in", subject=("bomb_2",), value="room_0"),))]
    truth = check(Trace(events, meta={"constraints": BOMB_RULES}))
    f = ("contents", "room_5")
    assert truth.knows("bravo", f, at=2) and not truth.knows("bravo", f)


def test_outside_values_of_an_inverse_are_not_places():
    """"defused" is where a bomb goes, not a room: two defused bombs do not contradict "one bomb per place", so
    an agent that saw both go knows by elimination that a room it never saw holds none."""
    events = [setup(bomb_1="room_0", bomb_2="room_5")]
    events += vanish("alpha", "bomb_1", "room_0", seen_by=EVERYONE) + vanish("bravo", "bomb_2", "room_5", seen_by=EVERYONE)
    with_rules, _ = both(events, BOMB_RULES_OUTSIDE)
    assert with_rules.possible("alpha", ("contents", "room_6")) == {"none"}
    assert with_rules.knows("alpha", ("contents", "room_6"))
    # declared without "outside", "defused" counts as a place holding at most one bomb: the rules contradict
    # what alpha saw, and it gets no elimination for that group
    without_outside, _ = both(events)
    assert without_outside.possible("alpha", ("contents", "room_6")) != {"none"}
    assert not without_outside.knows("alpha", ("contents", "room_6"))


def test_outside_must_be_a_list():
    rules = [{"kind": "inverse", "forward": "in", "backward": "contents", "outside": "defused"}]
    with pytest.raises(TraceError, match="outside must be a list"):
        check(Trace([], meta={"constraints": rules}))
