import random
from collections import Counter

import pytest
from pettingzoo.test import api_test

from belief.agents.blocks.oracle import BlocksOracle
from belief.envs.blocks import environment as blocks_v0
from belief.envs.blocks.tasks import FAMILIES, generate
from belief.envs.blocks.text import WAIT, decode, place_action, remove_action
from belief.envs.blocks.world import (AGENTS, BlocksError, Task, World, balance, grounded, optimal_balance,
                                      supported)


def test_api_test():
    api_test(blocks_v0.env(seed=1), num_cycles=200)


def test_gravity_ground_on_top_or_next_to():
    blocks = {(1, 0, 1): "red"}
    assert supported((3, 0, 0), blocks)                  # ground
    assert supported((1, 1, 1), blocks)                  # on top
    assert supported((2, 0, 1), blocks) and supported((1, 0, 2), blocks)  # next to
    assert not supported((1, 2, 1), blocks) and not supported((3, 1, 1), blocks)
    assert grounded({(0, 0, 0): "r", (0, 1, 0): "r", (1, 1, 0): "r"})
    assert not grounded({(0, 1, 0): "r", (1, 1, 0): "r"})


def _task(goals, inventories):
    return Task("independent", 0, goals, {a: Counter(v) for a, v in inventories.items()}, ())


def test_place_and_remove_keep_the_structure_grounded():
    w = World.start(_task({"alice": {}, "bob": {}}, {"alice": {"red": 3}, "bob": {"blue": 1}}))
    w.place("alice", (0, 0, 0), "red")
    w.place("alice", (0, 1, 0), "red")
    w.place("alice", (1, 1, 0), "red")                   # held by its neighbour
    with pytest.raises(BlocksError):
        w.place("bob", (3, 2, 0), "blue")                # nothing to rest on
    assert not w.can_remove((0, 0, 0)) and not w.can_remove((0, 1, 0)) and w.can_remove((1, 1, 0))
    assert w.remove("bob", (1, 1, 0)) == "red" and w.inventories["bob"]["red"] == 1


@pytest.mark.parametrize("family", FAMILIES)
def test_families(family):
    for seed in range(30):
        t = generate(seed, family)
        need = {a: Counter(g.values()) for a, g in t.goals.items()}
        own = {a: all(t.inventories[a][c] >= n for c, n in need[a].items()) for a in AGENTS}
        if family == "independent":
            assert all(own.values())
            assert not any(abs(c[0] - d[0]) <= 1 for c in t.goals["alice"] for d in t.goals["bob"])
        elif family == "skill":
            assert not all(own.values())                 # someone lacks a colour its goal needs
            assert any(s.builder != t.owner(s.cell) for s in t.plan)
        else:
            top = next(a for a in AGENTS if all(c[1] > 0 for c in t.goals[a]))
            base = next(a for a in AGENTS if a != top)
            assert all(c[1] == 0 for c in t.goals[base])
            assert any((c[0], c[1] - 1, c[2]) in t.goals[base] for c in t.goals[top])
        assert generate(seed, family).to_json() == t.to_json()


def test_oracle_solves_100_generated_tasks():
    """Turn by turn, each builder placing the plan's next block when it is its own (World.place checks
    gravity and inventories): every generated task is built."""
    for seed in range(100):
        task = generate(seed)
        w = World.start(task)
        oracle = {a: BlocksOracle(a, task) for a in AGENTS}
        turns = 0
        while not w.complete():
            step = oracle[AGENTS[turns % 2]].next_step(w.blocks)
            if step is not None:
                w.place(step.builder, step.cell, step.colour)
            turns += 1
            assert turns <= 2 * len(task.plan), seed


def test_oracle_team_completes_env_episodes():
    for seed in range(6):
        e = blocks_v0.raw_env(seed=seed, slip=0.0)
        oracle = {a: BlocksOracle(a, e.task) for a in AGENTS}
        while not any(e.terminations.values()) and not any(e.truncations.values()):
            name = e.agent_selection
            action = oracle[name].act(e.observe(name), e.infos[name])
            e.step(action)
        m = e.metrics()
        assert m["success"] and m["end_reason"] == "complete" and m["timesteps"] <= len(e.task.plan), (seed, m)


def test_balance_and_its_normalisation():
    assert balance(3, 3) == 0.5 and balance(6, 0) == 0.0 and balance(0, 0) == 0.0
    assert balance(2, 4) == pytest.approx(8 / 20)
    # alice must place the 3 reds (bob has none), bob the blue; a 3-1 split is the best there is
    t = _task({"alice": {(0, 0, 0): "red", (0, 0, 1): "red", (0, 0, 2): "red"}, "bob": {(3, 0, 0): "blue"}},
              {"alice": {"red": 3}, "bob": {"blue": 1}})
    assert optimal_balance(t) == pytest.approx(balance(3, 1))
    t2 = _task(t.goals, {"alice": {"red": 3}, "bob": {"blue": 1, "red": 2}})
    assert optimal_balance(t2) == pytest.approx(0.5)


def test_slip_places_another_held_colour_and_both_see_it():
    e = blocks_v0.raw_env(seed=0, slip=1.0)
    me = e.agent_selection
    cell, colour = sorted(e.task.goals[me].items(), key=lambda kv: kv[0][1])[0]
    e.step(place_action(cell, colour))
    placed = e.world.blocks[cell]
    assert placed != colour and e.slips == 1
    ev = e.trace[len(e.trace) - 1]
    assert ev.name == "place" and ev.visible_to == tuple(AGENTS) and ev.effects[0].value == placed


def test_masked_action_is_refused_and_actions_round_trip():
    e = blocks_v0.raw_env(seed=3)
    with pytest.raises(ValueError):
        e.step(remove_action((0, 0, 0)))                 # nothing there
    assert decode(place_action((4, 3, 2), "purple")).describe() == "place a purple block at (4, 3, 2)"
    assert decode(WAIT).kind == "wait"


def test_random_play_is_deterministic():
    def play():
        e = blocks_v0.raw_env(seed=9)
        rng = random.Random(1)
        while not any(e.terminations.values()) and not any(e.truncations.values()):
            m = e.infos[e.agent_selection]["action_mask"]
            e.step(rng.choice([i for i, ok in enumerate(m) if ok]))
        return e.trace.dumps()
    assert play() == play()
