"""Rooms declared up front (``meta["room_names"]``): a move into a room nobody has entered yet moves the object into
that room (seen there by later arrivals), not into a container of that name in the mover's room. Golds worked by
hand from docs/logic.md: a chain holds the value of the latest update all its agents observed together (none:
no value); an arrival sees what its room holds."""

from __future__ import annotations

import json
from itertools import product

import pytest

from belief import Tracker
from belief.errors import TraceError
from belief.truth.checker import check
from belief.truth.filter import private_trace
from belief.truth.index import HOW_ENTERED, HOW_SEEN
from belief.truth.trace import Trace

APPLE = ("in", "apple")
ROOMS = {"room_names": ["porch", "garden"]}

# Kate and Maya are on the porch and see the apple in the closet; Kate takes it out to the garden (nobody has
# entered the garden yet); Tara comes onto the porch.
STORY = [
    {"kind": "enter", "agents": ["Kate", "Maya"], "room": "porch"},
    {"kind": "statement", "subject": ["apple"], "value": "closet", "room": "porch"},
    {"kind": "move", "agent": "Kate", "object": "apple", "to": "garden"},
    {"kind": "enter", "agents": ["Tara"], "room": "porch"},
]
# then Leo walks into the garden, and later Tara follows him
LATER = [
    {"kind": "enter", "agents": ["Leo"], "room": "garden"},
    {"kind": "enter", "agents": ["Tara"], "room": "garden"},
]


def test_an_arrival_in_the_old_room_does_not_see_an_object_taken_to_a_declared_room():
    truth = check(Trace(STORY, meta=ROOMS))
    assert truth.reality(APPLE) == "garden"
    assert truth.value(("Kate",), APPLE) == truth.value(("Maya",), APPLE) == "garden"  # they saw it go
    assert truth.value(("Kate", "Maya"), APPLE) == "garden"
    assert truth.lookup(("Kate",), APPLE).how == HOW_SEEN
    # Tara never saw the apple: no value, at any order that starts or ends with her
    assert truth.value(("Tara",), APPLE) is None
    assert truth.value(("Kate", "Tara"), APPLE) is None and truth.value(("Tara", "Kate"), APPLE) is None
    assert not truth.knows("Tara", APPLE)
    assert truth.answer("? Tara BELIEVE apple IN ?c").value is None


def test_a_later_arrival_in_the_declared_room_sees_the_object_there():
    truth = check(Trace(STORY + LATER, meta=ROOMS))
    leo = truth.lookup(("Leo",), APPLE, 4)
    assert (leo.value, leo.how, leo.t) == ("garden", HOW_ENTERED, 4)
    assert truth.value(("Tara",), APPLE, 4) is None       # still on the porch
    assert truth.value(("Tara",), APPLE) == "garden"      # walked into the garden and saw it
    assert truth.value(("Tara", "Leo"), APPLE) == "garden"  # Leo was there when she came: they see it together
    assert truth.value(("Leo", "Tara"), APPLE) == "garden"
    assert truth.value(("Kate", "Leo"), APPLE) is None    # Kate saw neither arrival
    assert truth.knows("Tara", APPLE) and truth.knows("Leo", APPLE)


def test_an_undeclared_room_nobody_named_stays_a_container_in_the_movers_room():
    """Backward compatible (docs/trace-format.md): without ``meta["room_names"]`` the ``garden`` of the move is a
    container on the porch, so Tara sees it "in the garden" on the porch and Leo does not see it in the garden."""
    truth = check(Trace(STORY + LATER))
    assert truth.value(("Tara",), APPLE, 3) == "garden"
    assert truth.lookup(("Tara",), APPLE, 3).how == HOW_ENTERED
    assert truth.value(("Leo",), APPLE) is None


def test_a_room_entered_before_the_move_needs_no_declaration():
    entered = [STORY[0], {"kind": "enter", "agents": ["Leo"], "room": "garden"},
               {"kind": "exit", "agents": ["Leo"]}, *STORY[1:]]
    truth = check(Trace(entered))
    assert truth.value(("Tara",), APPLE) is None


def _chains(agents, depth):
    return [c for k in range(1, depth + 1) for c in product(agents, repeat=k)]


def test_the_tracker_equals_the_batch_check_after_every_event():
    events = STORY + LATER
    tracker = Tracker(meta=ROOMS)
    agents = ("Kate", "Maya", "Tara", "Leo")
    for k, ev in enumerate(events):
        tracker.append(ev)
        batch = check(Trace(events[:k + 1], meta=ROOMS))
        for chain in _chains([a for a in agents if a in batch.agents], 3):
            for f in (APPLE, *(("at", a) for a in batch.agents)):
                assert tracker.value(chain, f) == batch.value(chain, f), (k, chain, f)
                assert tracker.knows_chain(chain, f) == batch.knows_chain(chain, f), (k, chain, f)
    assert tracker.value(("Tara",), APPLE, 3) is None and tracker.value(("Leo",), APPLE) == "garden"


def test_private_traces_keep_the_declared_rooms():
    trace = Trace(STORY + LATER, meta=ROOMS)
    truth = check(trace)
    for agent in ("Kate", "Maya", "Tara", "Leo"):
        mine = private_trace(trace, agent)
        assert mine.meta["room_names"] == ROOMS["room_names"]
        assert check(mine).value((agent,), APPLE) == truth.value((agent,), APPLE), agent
    assert check(private_trace(Trace(STORY, meta=ROOMS), "Tara")).value(("Tara",), APPLE) is None


def test_a_declared_room_made_a_container_is_refused_naming_the_event():
    bad = {"kind": "move", "agent": "Kate", "object": "apple", "to": "garden", "to_room": "porch"}
    with pytest.raises(TraceError, match=r"t=2: the garden is a room \(meta room_names\) but to_room makes it a "
                                         r"container in the porch"):
        check(Trace([*STORY[:2], bad], meta=ROOMS))
    tracker = Tracker(meta=ROOMS)
    tracker.extend(STORY[:2])
    with pytest.raises(TraceError, match="to_room makes it a container"):
        tracker.append(bad)
    assert len(tracker) == 2 and tracker.replay.container_room == {"closet": "porch"}
    tracker.append(STORY[2])  # still usable, and the move to the room is taken
    assert tracker.reality(APPLE) == "garden"
    # an undeclared room may still be given a container place (as before)
    assert check(Trace([*STORY[:2], bad])).reality(APPLE) == "garden"


@pytest.mark.parametrize("rooms, message", [
    ("garden", "room_names must be a list of room names, got 'garden'"),
    ({"garden": 1}, "room_names must be a list of room names"),
    (["porch", 3], r"room_names\[1\] must be a room name \(a string\), got int"),
    (["back yard"], r"room_names\[0\]: invalid name 'back yard'"),
    ([""], r"room_names\[0\]: invalid name"),
])
def test_malformed_declared_rooms_are_one_error(rooms, message):
    with pytest.raises(TraceError, match=message):
        Trace(STORY, meta={"room_names": rooms})
    with pytest.raises(TraceError, match=message):
        Tracker(meta={"room_names": rooms})
    text = json.dumps({"format": "belief-trace", "meta": {"room_names": rooms}, "schema_version": 1}) + "\n"
    with pytest.raises(TraceError, match=r"^t\.jsonl:1: header: meta: " + message):
        Trace.loads(text, source="t.jsonl")


def test_declared_rooms_survive_the_file():
    trace = Trace(STORY, meta=ROOMS)
    again = Trace.loads(trace.dumps())
    assert again.meta == ROOMS and check(again).value(("Tara",), APPLE) is None


def test_a_rooms_key_of_another_kind_is_carried_along_unread():
    """``rooms`` (a room count in some environments' meta) is not ``room_names``: nothing is declared."""
    truth = check(Trace(STORY, meta={"rooms": 2}))
    assert truth.value(("Tara",), APPLE) == "garden"  # the undeclared garden: a container on the porch
