"""The replay as the compiled build (``BELIEF_COMPILE=1``, setup.py) runs it: its classes are mypyc's native
classes, which copy and pickle only through ``__reduce__`` and a default ``__init__``. These tests run in both
builds; CI runs them (with the replay's other tests) against the compiled one too, where
``BELIEF_EXPECT_COMPILED=1`` makes the first one check that the compiled module is the one imported."""

import copy
import importlib.machinery
import os
import pickle

import pytest

import belief.truth.index as index_module
from belief.truth.tracker import Tracker

EVENTS = [
    {"kind": "enter", "agents": ["Anne", "Bob", "Carl", "Dana"], "room": "kitchen", "chapter": 1},
    {"kind": "move", "agent": "Anne", "object": "ball", "to": "basket"},
    {"kind": "move", "agent": "Anne", "object": "ball", "to": "box", "inattentive": ["Dana"]},
    {"kind": "exit", "agents": ["Bob", "Carl"]},
    {"kind": "move", "agent": "Anne", "object": "ball", "to": "drawer", "secret_observers": ["Carl"]},
    {"kind": "tell", "sender": "Anne", "recipients": ["Bob"], "content": "ball IN drawer", "overheard_by": ["Carl"]},
]
LATER = [
    {"kind": "enter", "agents": ["Bob"], "room": "kitchen"},
    {"kind": "move", "agent": "Bob", "object": "ball", "to": "basket", "inattentive": ["Anne"]},
]
CHAINS = [("Anne",), ("Bob",), ("Carl",), ("Dana",), ("Carl", "Anne"), ("Anne", "Carl"), ("Bob", "Carl", "Anne"),
          ("Dana", "Anne"), ("Anne", "Dana", "Bob")]
BALL = ("in", "ball")


def _answers(tracker: Tracker) -> list:
    return [(tracker.value(c, BALL), tracker.knows_chain(c, BALL)) for c in CHAINS]


@pytest.mark.skipif(os.environ.get("BELIEF_EXPECT_COMPILED") != "1", reason="set BELIEF_EXPECT_COMPILED=1 to "
                    "check that the compiled replay is the one imported (CI's compiled-build step)")
def test_the_compiled_replay_is_the_one_imported():
    assert index_module.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), index_module.__file__


@pytest.mark.parametrize("duplicate", [copy.deepcopy, lambda t: pickle.loads(pickle.dumps(t))],
                         ids=["deepcopy", "pickle"])
def test_a_copied_tracker_answers_and_grows_as_the_original(duplicate):
    original = Tracker()
    for ev in EVENTS:
        original.append(ev)
    twin = duplicate(original)
    assert twin.replay is not original.replay and twin.replay.seq == original.replay.seq
    assert _answers(twin) == _answers(original)
    for ev in LATER:  # both grow alike, and the copy shares no state with the original
        twin.append(ev)
    assert len(original) == len(EVENTS) and _answers(original) != _answers(twin)
    for ev in LATER:
        original.append(ev)
    assert _answers(twin) == _answers(original)
