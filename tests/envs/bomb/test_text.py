import pytest

from belief.envs.bomb import environment as bomb_v0
from belief.envs.bomb.world import DEFAULT_ROOMS, action_table
from belief.envs.bomb.text import (TextInterface, fmt_contents, fmt_defused_phase, fmt_seq, parse_action,
                                   parse_message_facts, split_message)

TABLE = action_table(DEFAULT_ROOMS)


@pytest.mark.parametrize("text,expected", [
    ("Move to Room 5", ("move", 5)),
    ("Action: go to room 8.", ("move", 8)),
    ("I will head to Room 0 next", ("move", 0)),
    ("Inspect Bomb", ("inspect", None)),
    ("inspect the bomb", ("inspect", None)),
    ("Apply Red Tool", ("apply", "red")),
    ("use the blue cutter on the bomb", ("apply", "blue")),
    ("Apply Green Tool\nMessage: I am defusing bomb 3", ("apply", "green")),
])
def test_parse_action(text, expected):
    p = parse_action(text, DEFAULT_ROOMS)
    assert p.error is None and TABLE[p.action] == expected


def test_message_split():
    assert split_message("Move to Room 5\nMessage: Room 3 has Bomb 2.") == ("Move to Room 5", "Room 3 has Bomb 2.")
    assert split_message("Inspect Bomb. Message: \"hi\"") == ("Inspect Bomb", "hi")
    assert split_message("Inspect Bomb") == ("Inspect Bomb", "")


def test_unparseable_and_unknown_room():
    p = parse_action("dance wildly", DEFAULT_ROOMS)
    assert p.action is None and "could not be understood" in p.error
    p = parse_action("Move to Room 7", DEFAULT_ROOMS)
    assert p.action is None and p.error.startswith("There is no Room 7")


def test_message_facts_roundtrip():
    text = " ".join([fmt_contents(6, [3]), fmt_contents(5, []), fmt_seq(3, ["red", "green"], room=6),
                     fmt_seq(2, []), fmt_defused_phase(4)])
    facts = parse_message_facts(text)
    assert {"type": "contents", "room": 6, "bombs": [3]} in facts
    assert {"type": "contents", "room": 5, "bombs": []} in facts
    assert {"type": "seq", "bomb": 3, "seq": ["red", "green"], "room": 6} in facts
    assert {"type": "seq", "bomb": 2, "seq": []} in facts
    assert {"type": "defused", "bomb": 4} in facts
    assert parse_message_facts("I am moving to Room 8.") == []
    assert parse_message_facts("Bomb 3 is not defused yet") == []


def test_text_interface_study_feedback(far_room_env):
    e, agent, far = far_room_env
    here = e.world.locations[agent]
    w = e.world
    ti = TextInterface(e)
    p = ti.step(f"Move to Room {far}\nMessage: I am moving to Room {far}.")
    assert p.message == f"I am moving to Room {far}."
    fb = e.infos[agent]["result"]["feedback"]
    assert fb.startswith(f"You can not directly move to Room {far} because it is not adjacent to your current "
                         f"location, Room {here}. Consider taking a detour")
    assert w.locations[agent] == here
    # unparseable text wastes the turn with a clear error
    agent2 = e.agent_selection
    ti.step("sing a song")
    assert not e.infos[agent2]["result"]["valid"]
    assert "could not be understood" in e.infos[agent2]["result"]["feedback"]
    # naming a bomb that is elsewhere is invalid
    agent3 = e.agent_selection
    here3 = w.locations[agent3]
    other = next(b for b in w.bombs.values() if b.room != here3)
    ti.step(f"Inspect Bomb {other.id}")
    assert e.infos[agent3]["result"]["feedback"].startswith(f"Bomb {other.id} is not in your current location")
    # the result shows up in the agent's next text observation
    assert "Results: You can not directly move" in e.observe(agent)["text"]


def test_text_interface_valid_actions():
    e = bomb_v0.raw_env(seed=0)
    ti = TextInterface(e)
    agent = e.agent_selection
    ti.step("Inspect Bomb")
    res = e.infos[agent]["result"]
    assert res["valid"] and res["kind"] == "inspect" and "remaining sequence" in res["feedback"]


@pytest.mark.parametrize("text,fact", [
    ("Room 6 has bomb 2, its sequence is red, green", {"type": "seq", "bomb": 2, "seq": ["red", "green"]}),
    ("Bomb 1 whose remaining sequence is blue", {"type": "seq", "bomb": 1, "seq": ["blue"]}),
])
def test_sequences_stated_with_its_or_whose(text, fact):
    assert fact in parse_message_facts(text)
