"""What the partial view logs (envs/overcooked/events.py), on hand-made kitchens: a change two chefs see while
seeing each other is one joint event (common knowledge between them), seen apart it is two (each knows, neither
knows the other does); what comes into their common sight is one joint observation; what one sees while the other
watches it is witnessed (the watcher knows it knows, without the value); the score is public. The answers are the
checker's on the logged trace, against what the rules say (worked by hand)."""

from belief.envs.overcooked.events import (F_DELIVERED, f_at, f_counter, f_holds, setup_events, sight_events,
                                           step_events)
from belief.truth.checker import check
from belief.truth.filter import private_trace
from belief.truth.trace import Action, Observe, Trace

FOV = 1
X = (1, 0)
FX = f_counter(X)


def fluents(alice, bob, x="empty", served="0"):
    return {f_at("alice"): (f"{alice[0]}_{alice[1]}", alice), f_holds("alice"): ("nothing", alice),
            f_at("bob"): (f"{bob[0]}_{bob[1]}", bob), f_holds("bob"): ("nothing", bob),
            FX: (x, X), F_DELIVERED: (served, None)}


def run(alice0, bob0, alice1, bob1, x1="onion", served1="0"):
    """Set up with the chefs at alice0/bob0 (counter X empty), then one step to alice1/bob1 with X now x1."""
    pos0, pos1 = {"alice": alice0, "bob": bob0}, {"alice": alice1, "bob": bob1}
    before, after = fluents(alice0, bob0), fluents(alice1, bob1, x1, served1)
    events = setup_events(before, pos0, FOV) + step_events(before, after, pos0, pos1, FOV, "step 0")
    trace = Trace(events)
    return events, trace, check(trace)


def ticks_of(events, fluent):
    return [e.visible_to for e in events if isinstance(e, Action) and e.name == "tick"
            and any((x.predicate, *x.subject) == fluent for x in e.effects)]


def test_a_change_seen_while_the_chefs_see_each_other_is_common_knowledge():
    # alice (0, 1) and bob (1, 1) are one step apart: each sees the other and X (1, 0)
    events, _, truth = run((0, 1), (1, 1), (0, 1), (1, 1))
    assert ticks_of(events, FX) == [("alice", "bob")]
    for chain in [("alice",), ("bob",), ("alice", "bob"), ("bob", "alice"), ("alice", "bob", "alice")]:
        assert truth.knows_chain(chain, FX), chain


def test_a_change_seen_apart_is_known_by_each_but_not_that_the_other_knows():
    # alice (0, 1) and bob (2, 1) both see X (1, 0) but not each other (2 steps apart, fov 1)
    events, _, truth = run((0, 1), (2, 1), (0, 1), (2, 1))
    assert sorted(ticks_of(events, FX)) == [("alice",), ("bob",)]
    assert truth.knows_chain(("alice",), FX) and truth.knows_chain(("bob",), FX)
    assert not truth.knows_chain(("alice", "bob"), FX) and not truth.knows_chain(("bob", "alice"), FX)


def test_coming_into_common_sight_is_one_joint_observation():
    # bob, at (3, 1) out of sight of X and of alice, is next at (1, 1): both see X and each other, so X (unchanged)
    # becomes common knowledge between them
    pos0, pos1 = {"alice": (0, 1), "bob": (3, 1)}, {"alice": (0, 1), "bob": (1, 1)}
    before, after = fluents((0, 1), (3, 1)), fluents((0, 1), (1, 1))
    events = setup_events(before, pos0, FOV) + step_events(before, after, pos0, pos1, FOV, "step 0")
    joint = [e for e in events if isinstance(e, Observe) and set(e.agents) == {"alice", "bob"} and FX in e.fluents]
    assert len(joint) == 1
    truth = check(Trace(events))
    assert truth.knows_chain(("bob", "alice"), FX) and truth.knows_chain(("alice", "bob", "alice"), FX)
    # at the start, bob (3, 1) did not see X, nor alice him: only alice knew X
    start = len(setup_events(before, pos0, FOV)) - 1
    assert truth.knows_chain(("alice",), FX, start) and not truth.knows_chain(("bob",), FX, start)


def test_what_one_sees_while_the_other_watches_it_is_witnessed():
    # bob (2, 1) sees X (1, 0); alice (3, 1) sees bob but not X (2 steps away): she knows he knows, not the value
    pos = {"alice": (3, 1), "bob": (2, 1)}
    now = fluents((3, 1), (2, 1), "onion")
    events = sight_events(None, now, None, pos, FOV, set(), "setup")
    witnessed = [e for e in events if isinstance(e, Observe) and e.witnesses]
    assert [(e.agents, e.fluents) for e in witnessed] == [(("bob",), (FX,))]
    truth = check(Trace([Action(name="setup", effects=(), visible_to=()), *events]))
    assert truth.knows_chain(("bob",), FX) and truth.knows_chain(("alice", "bob"), FX)
    assert not truth.knows_chain(("alice",), FX)
    # her own record says the same: Bob knows what is on X, she does not
    record = check(private_trace(Trace([Action(name="setup", effects=(), visible_to=()), *events]), "alice"))
    assert record.knows_chain(("bob",), FX) and record.value(("alice",), FX) is None


def test_the_score_is_public_even_apart():
    events, _, truth = run((0, 1), (3, 1), (0, 1), (3, 1), x1="empty", served1="1")
    assert ticks_of(events, F_DELIVERED) == [("alice", "bob")]
    assert truth.knows_chain(("alice", "bob"), F_DELIVERED) and truth.knows_chain(("bob", "alice"), F_DELIVERED)
