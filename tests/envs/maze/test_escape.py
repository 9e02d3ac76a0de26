import random

from pettingzoo.test import api_test

from belief.truth.checker import check
from belief.envs.maze import escape as escape_v0
from belief.envs.maze.world import MOVES, STAY, USE, plan_first_actions


def test_api_test():
    api_test(escape_v0.env(rules="project", seed=1), num_cycles=200)


def test_layout_places_generator_and_exit_apart_from_the_players():
    for seed in range(20):
        e = escape_v0.raw_env(rules="project", seed=seed)
        rooms = {e.generator_room, e.exit_room, e.maze.pos["alice"], e.maze.pos["bob"], e.maze.pos["killer"]}
        assert len(rooms) == 5
        assert e.trace.meta["generator"] == e.generator_room and e.trace.meta["exit"] == e.exit_room


def test_the_killer_starts_far_from_players_generator_and_exit_and_escape_is_reachable():
    for seed in range(30):
        e = escape_v0.raw_env(rules="project", seed=seed)
        m = e.maze
        near = m.distances(m.pos["killer"])
        for room in (e.generator_room, e.exit_room, m.pos["alice"], m.pos["bob"]):
            assert near.get(room, escape_v0.START_GAP) >= escape_v0.START_GAP
        assert plan_first_actions(m, e.generator_room, {e.exit_room})
        assert any(plan_first_actions(m, m.pos[p], {e.generator_room}) for p in ("alice", "bob"))


def walk(e, who, goal):
    m = e.maze
    steps = m.first_steps(m.pos[who], goal)
    return MOVES[steps[0]] if steps else STAY


def test_repairs_open_the_gate_publicly_then_use_escapes():
    e = escape_v0.raw_env(rules="project", seed=5)
    e.maze.open.update({d: True for d in e.maze.doors})  # rules only: every door open, the killer far away
    e.maze.pos["killer"] = None
    e.adversary_move = lambda rng: e.maze.pos["killer"]
    for _ in range(200):
        if e.end_reason is not None:
            break
        who = e.agent_selection
        room = e.maze.pos.get(who)
        if not e.active(who):
            e.step(STAY)
        elif not e.gate_open:
            e.step(USE if room == e.generator_room else walk(e, who, e.generator_room))
        else:
            e.step(USE if room == e.exit_room else walk(e, who, e.exit_room))
    assert e.end_reason == "escaped" and e.metrics()["escaped"] == 1 and e.metrics()["escaped_players"] == 2
    assert e.rewards == {"alice": 1.0, "bob": 1.0}
    truth = check(e.trace)
    assert truth.reality(escape_v0.F_GATE) == "open"
    assert truth.knows_chain(("alice", "bob"), escape_v0.F_GATE)  # the gate opening is public
    assert truth.reality(escape_v0.f_status("bob")) == "escaped"


def test_a_player_meeting_the_killer_is_caught():
    for seed in range(10):  # some mazes keep the killer behind the locked door
        e = escape_v0.raw_env(rules="project", seed=seed)
        for _ in range(300):
            if e.end_reason is not None:
                break
            who = e.agent_selection
            e.step(walk(e, who, e.maze.pos["killer"]) if e.active(who) else STAY)
        if e.end_reason == "caught":
            break
    assert e.end_reason == "caught" and e.metrics()["caught"] >= 1
    assert all(e.terminations.values())
    caught = [ev for ev in e.trace if ev.kind == "action" and ev.name == "caught"]
    assert caught and set(caught[0].visible_to) == {"alice", "bob"}


def test_hunt_steps_towards_prey_in_sight():
    e = escape_v0.raw_env(rules="project", seed=2)
    m = e.maze.copy()
    killer = m.pos["killer"]
    n = m.open_neighbours(killer)[0]
    far = m.open_neighbours(n)
    m.pos["alice"] = n
    assert escape_v0.hunt(m, "killer", ["alice"], random.Random(0)) == n
    assert far is not None


def test_use_is_masked_outside_the_generator_and_exit():
    e = escape_v0.raw_env(rules="project", seed=0)
    assert e.infos["alice"]["action_mask"][USE] == 0
