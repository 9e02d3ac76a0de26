import pytest
from pettingzoo.test import api_test

from belief.truth.checker import check
from belief.envs.maze import capture as capture_v0
from belief.envs.maze.environment import MazeError
from belief.envs.maze.world import DIRECTIONS, MOVES, PRESS, STAY, generate
from belief.truth.filter import private_trace


def test_api_test():
    api_test(capture_v0.env(rules="project", seed=1), num_cycles=200)


@pytest.mark.parametrize("seed", range(20))
def test_generated_mazes_are_connected_and_have_one_locked_door(seed):
    m = generate(seed)
    every = {d: True for d in m.doors}
    assert m.reachable("room_0", every) == set(m.rooms)
    closed = [d for d, o in m.open.items() if not o]
    assert len(closed) == 1 and closed[0] in m.buttons.values()
    assert len(m.doors) == len(m.rooms) - 1 + 2


def chase_step(e, who):
    """A move along a shortest path to the thief (the test knows where it is)."""
    m = e.maze
    steps = m.first_steps(m.pos[who], m.pos["thief"])
    return MOVES[steps[0]] if steps else STAY


def play_until(e, stop, max_steps=200):
    for _ in range(max_steps):
        if stop(e) or e.end_reason is not None:
            return
        e.step(chase_step(e, e.agent_selection))


def test_chasing_with_full_information_captures_and_ends_the_episode():
    e = capture_v0.raw_env(rules="project", seed=4)
    play_until(e, lambda e: False)
    assert e.end_reason == "captured" and e.metrics()["captured"] == 1
    assert all(e.terminations.values()) and e.rewards == {"alice": 1.0, "bob": 1.0}
    assert e.trace[len(e.trace) - 1].name == "end" and e.trace.meta["env"] == "capture_v0"


def test_a_sighting_is_known_to_the_seer_only_until_told():
    for seed in range(30):
        e = capture_v0.raw_env(rules="project", seed=seed)
        for _ in range(40):  # alice walks towards the thief, bob stays, until alice sees it
            if e.end_reason is not None or ("thief" in e.view("alice")["seen"] and e.agent_selection == "alice"):
                break
            e.step(chase_step(e, "alice") if e.agent_selection == "alice" else STAY)
        if e.end_reason is None and "thief" not in e.view("bob")["seen"]:
            break
    else:
        pytest.fail("no seed where alice alone sees the thief")
    room = e.maze.pos["thief"]
    truth = check(e.trace)
    assert truth.value(("alice",), ("at", "thief")) == room
    assert truth.value(("bob",), ("at", "thief")) != room or "thief" in e.view("bob")["seen"]
    assert not truth.knows_chain(("bob",), ("at", "thief"))
    e.tell({("at", "thief"): room})
    e.step(STAY)
    assert check(e.trace).value(("bob",), ("at", "thief")) == room  # alice moves first: the thief has not moved


def test_a_message_makes_the_partner_believe_the_sighting():
    e = capture_v0.raw_env(rules="project", seed=2)
    thief = e.maze.pos["thief"]
    e.tell({("at", "thief"): thief})
    e.step(STAY)
    truth = check(e.trace)
    assert truth.value(("bob",), ("at", "thief")) == thief
    assert truth.value(("alice", "bob"), ("at", "thief")) == thief
    bob = private_trace(e.trace, "bob")
    assert any(ev.kind == "tell" for ev in bob) and e.messages == 1


def test_bad_message_is_an_error():
    e = capture_v0.raw_env(rules="project", seed=2)
    with pytest.raises(MazeError):
        e.tell({"thief": "room_1"})
    with pytest.raises(MazeError):
        e.tell({("at", "thief"): "room 1"})


def test_press_toggles_the_door_seen_from_its_rooms_only():
    starts = (capture_v0.raw_env(rules="project", seed=seed) for seed in range(50))
    e = next((e for e in starts if e.maze.pos["alice"] in e.maze.buttons), None)
    assert e is not None, "no seed in 0..49 starts alice on a button (a third of them did)"
    door = e.maze.buttons[e.maze.pos["alice"]]
    was = e.maze.open[door]
    e.step(PRESS)
    assert e.maze.open[door] is (not was)
    truth = check(e.trace)
    assert truth.reality(("door", door)) == ("closed" if was else "open")
    rooms = e.maze.doors[door]
    assert truth.knows_chain(("alice",), ("door", door))
    assert truth.knows_chain(("bob",), ("door", door)) == (e.maze.pos["bob"] in rooms)


def test_illegal_moves_are_masked_and_act_as_stay():
    e = capture_v0.raw_env(rules="project", seed=0)
    mask = e.infos["alice"]["action_mask"]
    room = e.maze.pos["alice"]
    blocked = [MOVES[d] for d in DIRECTIONS if e.maze.step_to(room, d) is None]
    assert blocked and all(mask[a] == 0 for a in blocked) and mask[STAY] == 1
    e.step(blocked[0])
    assert e.maze.pos["alice"] == room


def test_flee_keeps_away_from_a_hunter_in_sight():
    e = capture_v0.raw_env(rules="project", seed=4)
    m = e.maze.copy()
    thief = m.pos["thief"]
    n = m.open_neighbours(thief)[0]
    m.pos["alice"] = n
    import random
    goes = capture_v0.flee(m, "thief", ["alice"], random.Random(0))
    assert goes != n and m.distances(goes)[n] >= 1


def test_turn_limit_truncates():
    e = capture_v0.raw_env(rules="project", seed=0, max_rounds=2)
    for _ in range(4):
        e.step(STAY)
    assert e.end_reason in ("turn limit", "captured")
    if e.end_reason == "turn limit":
        assert all(e.truncations.values()) and e.metrics()["turns"] == 2
