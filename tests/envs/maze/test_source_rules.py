"""The LLM-Coordination source's CollabEscape and CollabCapture (the default rules)."""

from pettingzoo.test import api_test, parallel_api_test

from belief.envs.maze import capture as capture_v0, escape as escape_v0
from belief.envs.maze.world import ACTION_NAMES, MOVES, STAY, USE, source_capture_maze, source_escape_maze
from belief.app.runners.maze import MazeConfig, play_episode

import pytest


def test_source_maps_match_the_source_code():
    esc = source_escape_maze()
    adj = {r: sorted(o for _, _, o in esc.exits(r)) for r in esc.rooms}
    assert adj["room_3"] == ["room_2", "room_4", "room_7"] and adj["room_7"] == ["room_3", "room_6", "room_8"]
    assert sum(len(v) for v in adj.values()) == 2 * 9 and not esc.buttons
    cap = source_capture_maze()
    adj = {r: sorted(o for _, _, o in cap.exits(r)) for r in cap.rooms}
    assert adj["room_9"] == ["room_6"] and adj["room_5"] == ["room_4", "room_6", "room_7"]
    assert cap.buttons == {"room_9": cap.door_between("room_1", "room_2"), "room_8": cap.door_between("room_3", "room_4")}


def test_source_rules_are_the_default_and_in_full_view():
    e = escape_v0.raw_env(seed=0)
    assert e.rules == "source" and e.maze.full_view
    assert e.maze.pos == {"alice": "room_1", "bob": "room_2", "killer": "room_6"}
    v = e.view("alice")
    assert v["seen"]["killer"] == "room_6" and v["seen"]["bob"] == "room_2"
    c = capture_v0.raw_env(seed=0)
    assert c.maze.pos == {"alice": "room_1", "bob": "room_2", "thief": "room_9"}


def _round(e, alice: int, bob: int):
    e.step(alice)
    e.step(bob)


def test_a_generator_needs_two_consecutive_fixes_and_falls_back_when_left():
    e = escape_v0.raw_env(seed=3)
    assert e.legal("alice")[USE]  # alice starts on the room_1 generator
    _round(e, USE, STAY)
    assert e.repairs["room_1"] == 1
    _round(e, STAY, STAY)  # nobody works on it: back to 0
    assert e.repairs["room_1"] == 0 or e.end_reason == "caught"


def test_the_killer_enters_the_room_a_player_stood_in_next_to_it():
    e = escape_v0.raw_env(seed=0)
    e.maze.pos.update({"alice": "room_5", "bob": "room_2", "killer": "room_6"})
    e.round_start = dict(e.maze.pos)
    _round(e, STAY, STAY)
    assert e.maze.pos["killer"] == "room_5" and e.status["alice"] == "caught" and e.end_reason == "caught"


def test_a_player_who_leaves_in_time_is_not_caught():
    e = escape_v0.raw_env(seed=0)
    e.maze.pos.update({"alice": "room_5", "bob": "room_2", "killer": "room_6"})
    e.round_start = dict(e.maze.pos)
    north = next(a for a in range(1, 5) if e.maze.step_to("room_5", ACTION_NAMES[a]) == "room_4")
    _round(e, north, STAY)
    assert e.maze.pos["killer"] == "room_5" and e.status["alice"] == "active" and e.end_reason is None


def test_both_generators_open_the_gate_and_one_escape_wins():
    e = escape_v0.raw_env(seed=0)
    e.repairs.update({"room_1": 2, "room_5": 2})
    assert e.gate_open
    e.maze.pos.update({"alice": "room_8", "bob": "room_2", "killer": "room_4"})
    e.round_start = dict(e.maze.pos)
    south = next(a for a in range(1, 5) if e.maze.step_to("room_8", ACTION_NAMES[a]) == "room_7")
    _round(e, south, STAY)
    if e.maze.pos["killer"] not in ("room_7", "room_2"):
        assert e.end_reason == "escaped" and e.metrics()["escaped"] == 1 and e.status["bob"] == "active"


def test_the_source_thief_flees_by_moves_and_is_caught_at_the_end_of_a_round():
    c = capture_v0.raw_env(seed=0)
    south = MOVES["south"]  # room_1 -> room_6
    assert c.maze.step_to("room_1", "south") == "room_6"
    _round(c, south, STAY)
    assert c.maze.pos["thief"] == "room_9" and c.end_reason is None  # it stays in its dead end
    _round(c, MOVES["south"], MOVES["west"])  # alice into room_9, bob to room_1
    assert c.maze.pos["thief"] == "room_6"  # slips past alice, away from both
    assert c.end_reason is None


@pytest.mark.parametrize("mod", [capture_v0, escape_v0])
def test_pettingzoo_api_under_source_rules(mod):
    api_test(mod.env(seed=2), num_cycles=100)
    parallel_api_test(mod.parallel_env(seed=2), num_cycles=100)


def test_belief_players_escape_more_than_safe_greedy_ones_under_source_rules():
    belief = [play_episode(MazeConfig(game="escape", agents="belief", ask_every=0), s)["escaped"] for s in range(6)]
    greedy = [play_episode(MazeConfig(game="escape", agents="baseline", ask_every=0), s)["escaped"] for s in range(6)]
    assert sum(belief) > sum(greedy)


def test_unknown_rules_are_refused():
    from belief.envs.maze.environment import MazeError
    with pytest.raises(MazeError, match="unknown rules"):
        escape_v0.raw_env(seed=0, rules="paper")
