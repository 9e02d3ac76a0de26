"""Perception that is not common knowledge: the worked examples of docs/logic.md, and bad perception fields."""

import json

import pytest

from belief.errors import TraceError
from belief.truth.checker import check
from belief.truth.trace import Trace

BALL = ("in", "ball")


def _values(truth, *chains):
    return [truth.value(c, BALL) for c in chains]


def test_peek_through_the_window():
    truth = check(Trace([
        {"kind": "enter", "agents": ["Anne", "Bob", "Carl"], "room": "kitchen"},
        {"kind": "move", "agent": "Anne", "object": "ball", "to": "basket"},
        {"kind": "enter", "agents": ["Carl"], "room": "garden"},
        {"kind": "move", "agent": "Anne", "object": "ball", "to": "box", "secret_observers": ["Carl"]},
    ]))
    assert _values(truth, ("Carl",), ("Carl", "Anne"), ("Anne", "Carl"), ("Carl", "Anne", "Carl"),
                   ("Carl", "Anne", "Bob"), ("Bob", "Anne")) == ["box", "box", "basket", "basket", "box", "box"]
    assert truth.knows("Carl", BALL) and truth.aware_that_knows("Carl", "Anne", BALL)
    assert not truth.aware_that_knows("Anne", "Carl", BALL)


def test_distracted_bystander():
    truth = check(Trace([
        {"kind": "enter", "agents": ["Anne", "Bob", "Dana"], "room": "kitchen"},
        {"kind": "move", "agent": "Anne", "object": "ball", "to": "basket"},
        {"kind": "move", "agent": "Anne", "object": "ball", "to": "box", "inattentive": ["Dana"]},
    ]))
    assert _values(truth, ("Dana",), ("Anne", "Dana"), ("Dana", "Anne"), ("Anne", "Dana", "Anne"),
                   ("Dana", "Anne", "Dana")) == ["basket", "box", "basket", "box", "basket"]
    assert not truth.knows("Dana", BALL) and not truth.aware_that_knows("Anne", "Dana", BALL)


def test_hidden_listener():
    truth = check(Trace([
        {"kind": "enter", "agents": ["Anne", "Bob", "Carl"], "room": "kitchen"},
        {"kind": "move", "agent": "Anne", "object": "ball", "to": "basket"},
        {"kind": "exit", "agents": ["Bob", "Carl"]},
        {"kind": "move", "agent": "Anne", "object": "ball", "to": "drawer"},
        {"kind": "tell", "sender": "Anne", "recipients": ["Bob"], "content": "ball IN drawer",
         "overheard_by": ["Carl"]},
    ]))
    assert _values(truth, ("Bob",), ("Carl",), ("Carl", "Bob"), ("Bob", "Carl"), ("Anne", "Carl"),
                   ("Carl", "Anne", "Carl")) == ["drawer", "drawer", "drawer", "basket", "basket", "basket"]
    assert truth.knows("Carl", BALL) and truth.aware_that_knows("Carl", "Bob", BALL)
    assert not truth.aware_that_knows("Anne", "Carl", BALL)  # Anne saw a change Carl missed, not his overhearing
    # under the hitom policy the hidden listener is a listener like the others, and nobody models it
    hitom = check(truth.trace, "hitom")
    assert hitom.value(("Carl",), BALL) == "drawer" and hitom.value(("Anne", "Carl"), BALL) == "basket"


def _container(opaque: bool):
    move = {"kind": "move", "agent": "Anne", "object": "ball", "to": "box"}
    if opaque:
        move["opaque"] = True
    return check(Trace([
        {"kind": "enter", "agents": ["Anne", "Bob", "Carl"], "room": "kitchen"},
        {"kind": "move", "agent": "Anne", "object": "ball", "to": "basket"},
        {"kind": "exit", "agents": ["Carl"]},
        move,
        {"kind": "enter", "agents": ["Carl"], "room": "kitchen"},
    ]))


def test_opaque_container():
    truth = _container(opaque=True)
    assert _values(truth, ("Bob",), ("Carl",), ("Carl", "Bob"), ("Bob", "Carl", "Bob")) == \
        ["box", "basket", "basket", "basket"]
    # a transparent container is re-shown to Carl as he comes in, with everyone present
    assert _values(_container(opaque=False), ("Carl",), ("Carl", "Bob"), ("Bob", "Carl", "Bob")) == \
        ["box", "box", "box"]


def _entry(quiet: bool):
    enter = {"kind": "enter", "agents": ["Anne"], "room": "kitchen"}
    if quiet:
        enter["quiet"] = True
    return check(Trace([
        {"kind": "enter", "agents": ["Anne", "Bob"], "room": "kitchen"},
        {"kind": "move", "agent": "Bob", "object": "ball", "to": "basket"},
        {"kind": "exit", "agents": ["Anne"]},
        {"kind": "move", "agent": "Bob", "object": "ball", "to": "box"},
        enter,
    ]))


def test_quiet_entry():
    truth = _entry(quiet=True)
    assert _values(truth, ("Anne",), ("Bob", "Anne"), ("Anne", "Bob"), ("Anne", "Bob", "Anne")) == \
        ["box", "basket", "basket", "basket"]
    assert truth.value(("Bob", "Anne"), ("at", "Anne")) == "kitchen"  # Bob still sees her come in
    assert _values(_entry(quiet=False), ("Bob", "Anne"), ("Anne", "Bob"), ("Anne", "Bob", "Anne")) == \
        ["box", "box", "box"]


def test_perceived_as_general_form():
    """Anne believes only Bob saw it with her; Bob believes Dana did too; Dana, distracted, saw nothing.

    Each agent's view of the event is the same in everybody's model: Anne believes Bob saw it, and Bob (in
    anybody's model) believes Dana saw it, so "Anne believes Bob believes Dana believes" is updated."""
    truth = check(Trace([
        {"kind": "enter", "agents": ["Anne", "Bob", "Dana"], "room": "kitchen"},
        {"kind": "move", "agent": "Anne", "object": "ball", "to": "basket"},
        {"kind": "move", "agent": "Anne", "object": "ball", "to": "box", "inattentive": ["Dana"],
         "perceived_as": {"Anne": ["Anne", "Bob"], "Bob": ["Anne", "Bob", "Dana"]}},
    ]))
    assert _values(truth, ("Anne", "Dana"), ("Bob", "Dana"), ("Anne", "Bob", "Dana"), ("Bob", "Dana", "Anne"),
                   ("Dana",)) == ["basket", "box", "box", "box", "basket"]


def test_default_is_unchanged_by_empty_fields():
    events = [{"kind": "enter", "agents": ["Anne", "Bob"], "room": "kitchen"},
              {"kind": "move", "agent": "Anne", "object": "ball", "to": "box"}]
    plain, empty = check(Trace(events)), check(Trace([*events[:1], {**events[1], "secret_observers": []}]))
    assert plain.value(("Anne", "Bob"), BALL) == empty.value(("Anne", "Bob"), BALL) == "box"


def test_fields_round_trip_through_jsonl():
    trace = Trace([
        {"kind": "enter", "agents": ["Anne", "Bob"], "room": "kitchen", "quiet": True},
        {"kind": "move", "agent": "Anne", "object": "ball", "to": "box", "opaque": True, "inattentive": ["Bob"],
         "perceived_as": {"Anne": ["Anne", "Bob"]}},
        {"kind": "tell", "sender": "Anne", "recipients": ["Bob"], "content": "ball IN box", "overheard_by": ["Carl"]},
    ])
    again = Trace.loads(trace.dumps())
    assert list(again) == list(trace)
    assert trace.agents() == ["Anne", "Bob", "Carl"]


BASE = [{"kind": "enter", "agents": ["Anne", "Bob"], "room": "kitchen"},
        {"kind": "enter", "agents": ["Carl"], "room": "garden"}]


@pytest.mark.parametrize("extra, message", [
    ({"secret_observers": ["Zed"]}, "unknown agent 'Zed'"),
    ({"secret_observers": ["Bob"]}, "Bob is a secret observer but also a plain observer"),
    ({"inattentive": ["Carl"]}, "Carl is inattentive but does not observe the event"),
    ({"perceived_as": {"Carl": ["Anne"]}}, "perceived_as: Carl does not perceive the event"),
    ({"perceived_as": {"Anne": ["Zed"]}}, "unknown agent 'Zed'"),
    ({"inattentive": ["Bob"], "secret_observers": ["Bob"]}, "cannot be both a secret observer and inattentive"),
    ({"inattentive": ["Bob"], "perceived_as": {"Bob": ["Anne"]}}, "Bob is inattentive"),
    ({"overheard_by": ["Carl"]}, "overheard_by"),  # only messages have hidden listeners
    ({"inattentive": ["Anne"]}, "Anne acts in the event, so it cannot be inattentive to it"),
])
def test_bad_perception_fields_are_one_line_errors(extra, message):
    """Each error is one line that says where: the trace file's line (a field alone is wrong) or the event."""
    events = [*BASE, {"kind": "move", "agent": "Anne", "object": "ball", "to": "box", **extra}]
    text = "\n".join([json.dumps({"schema_version": 1}), *map(json.dumps, events)]) + "\n"
    with pytest.raises(TraceError) as e:
        check(Trace.loads(text, source="story.jsonl"))
    assert message in str(e.value) and "\n" not in str(e.value)
    assert "story.jsonl:4" in str(e.value) or "t=2" in str(e.value)


def test_bad_hidden_listener_is_an_error():
    events = [*BASE, {"kind": "tell", "sender": "Anne", "recipients": ["Bob"], "content": "ball IN box",
                      "overheard_by": ["Bob"]}]
    with pytest.raises(TraceError, match="Bob is a secret observer but also a plain observer"):
        check(Trace(events))


def test_a_secret_observers_view_of_who_perceived_includes_itself():
    """The event model of a peek (issue 28): Carl, peeking from the garden, takes the move to have been perceived
    by those in the kitchen (Anne, Bob) and by himself; Anne and Bob take it to have been perceived by themselves
    only. Normalised chains never ask a view about its own agent, so this is checked on the model itself: it is
    what :class:`~belief.truth.index.Perception` says a view is (whom its agent believes perceived the event)."""
    truth = check(Trace([
        {"kind": "enter", "agents": ["Anne", "Bob", "Carl"], "room": "kitchen"},
        {"kind": "enter", "agents": ["Carl"], "room": "garden"},
        {"kind": "move", "agent": "Anne", "object": "ball", "to": "box", "secret_observers": ["Carl"]},
    ]))
    idx = truth._index[BALL]
    (perc,) = idx.percs.values()

    def names(mask):
        return {a for a, i in truth._aid.items() if mask >> i & 1}

    def view(a):
        return names(perc.views.get(truth._aid[a], perc.default))

    assert names(perc.perceivers) == {"Anne", "Bob", "Carl"}
    assert view("Carl") == {"Anne", "Bob", "Carl"}
    assert view("Anne") == view("Bob") == {"Anne", "Bob"}
