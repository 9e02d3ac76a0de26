"""transport_v0: API, world generation, cost model, capacity rules, messages, observability, trace."""

import math

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test

from belief.truth.checker import check
from belief.envs.transport import environment as tv
from belief.envs.transport import world as tw


def test_parallel_api_test_random_world():
    parallel_api_test(tv.parallel_env(seed=3), num_cycles=400)


def test_parallel_api_test_fixed_episode_single_agent():
    parallel_api_test(tv.parallel_env(episode=5, n_agents=1), num_cycles=200)


def test_twenty_four_fixed_episodes():
    assert len(tw.EPISODES) == 24
    names = {e.name for e in tw.EPISODES}
    assert len(names) == 24
    for fam in tw.FAMILIES:
        for cap, n in tw.CAPACITIES.items():
            eps = [e for e in tw.EPISODES if e.family == fam and e.capacity == cap]
            assert len(eps) == 6
            w = tw.episode_world(eps[0])
            assert len(w.containers) == n and len(w.targets) == tw.N_TARGETS
    assert tw.parse_subset("0-2,food-high-1") == [0, 1, 2, 7]
    with pytest.raises(ValueError):
        tw.parse_subset("99")


@pytest.mark.parametrize("text", ["5-2", ",", " , "])
def test_parse_subset_never_returns_no_episodes(text):
    """Regression: a reversed range or only commas gave [] and `bench transport` ran 0 episodes, exit 0."""
    with pytest.raises(ValueError):
        tw.parse_subset(text)


@pytest.mark.parametrize("seed", [0, 1, 17, 123])
def test_world_is_deterministic_and_well_formed(seed):
    a, b = tw.generate(seed, "stuff", "low"), tw.generate(seed, "stuff", "low")
    assert a.describe() == b.describe() and a.location == b.location and a.hidden == b.hidden
    assert set(a.room_type.values()) == set(tw.ROOM_TYPES)
    assert sum(t == "bedroom" for t in a.room_type.values()) == 1
    import networkx as nx

    assert nx.is_connected(a.graph)
    assert all(a.location[o] in a.room_type for o in (*a.targets, *a.containers))


def _solo(seed=2):
    env = tv.parallel_env(seed=seed, n_agents=1)
    obs, infos = env.reset()
    return env, obs, infos


def _do(env, name, agent="alice", text=None):
    i = env.action_index(name)
    act = (i, text) if text is not None else i
    others = {a: tv.A_WAIT for a in env.agents if a != agent}
    return env.step({agent: act, **others})


def test_cost_model_walking_exploring_grasping():
    env, obs, infos = _solo()
    w = env.world
    start = env.room["alice"]
    dest = next(r for r in w.rooms if r != start)
    expect = tw.GO_BASE + math.ceil(tw.FRAMES_PER_METER * w.distance(start, dest))
    _do(env, f"go to {dest}")
    assert env.now == expect and env.room["alice"] == dest
    _do(env, "explore")
    assert env.now == expect + tw.EXPLORE and w.explored[dest] == 1
    _do(env, "explore")
    _do(env, "explore")  # already fully explored: the cheap no-op
    assert env.now == expect + 2 * tw.EXPLORE + tw.EXPLORE_DONE


def _stage(env, n_targets=5, n_containers=2):
    """Put targets and containers, revealed, in alice's room."""
    w = env.world
    room = env.room["alice"]
    w.explored[room] = w.searched["alice"][room] = 2  # alice searched it herself
    ts, cs = w.targets[:n_targets], w.containers[:n_containers]
    for o in (*ts, *cs):
        w.location[o] = room
    return ts, cs


def test_two_hands_container_holds_three_and_is_lost_on_the_bed():
    env = tv.parallel_env(seed=4, n_agents=1, capacity="high")
    env.reset()
    w = env.world
    # start in the bedroom so transport is possible
    env.room["alice"] = w.bedroom
    ts, cs = _stage(env)
    _do(env, f"grasp {ts[0]}")
    _do(env, f"grasp {ts[1]}")
    mask = env.mask("alice")
    assert not mask[env.action_index(f"grasp {ts[2]}")], "two hands only"
    env.world.location[ts[1]] = env.room["alice"]  # drop one by hand for the test
    env.held["alice"].remove(ts[1])
    _do(env, f"grasp {cs[0]}")
    for t in (ts[0],):
        _do(env, f"put {t} into {cs[0]}")
    for t in ts[1:3]:
        _do(env, f"grasp {t}")
        _do(env, f"put {t} into {cs[0]}")
    assert w.contents(cs[0]) == [ts[0], ts[1], ts[2]] or sorted(w.contents(cs[0])) == sorted(ts[:3])
    _do(env, f"grasp {ts[3]}")
    assert not env.mask("alice")[env.action_index(f"put {ts[3]} into {cs[0]}")], "a container holds 3"
    assert len(env.held["alice"]) == 2  # container + one target: 4 targets carried
    _do(env, "transport to bed")
    assert sorted(w.on_bed()) == sorted(ts[:4])
    assert cs[0] in w.lost and w.location[cs[0]] == tw.BED
    assert not env.mask("alice")[env.action_index(f"grasp {cs[0]}")]
    assert env.metrics()["transported"] == 4


def test_messages_arrive_next_step_and_reach_the_trace():
    env = tv.parallel_env(seed=1)
    env.reset()
    w = env.world
    text = f"{w.targets[0]} IN {w.rooms[0]}\nPLAN alice: explore {w.rooms[0]}"
    obs, rew, te, tr, infos = env.step({"alice": (tv.A_SEND, text), "bob": tv.A_WAIT})
    assert infos["bob"]["view"]["messages"] == []
    assert env.message_tokens["alice"] > 0 and env.messages_sent["alice"] == 1
    obs, rew, te, tr, infos = env.step({a: tv.A_WAIT for a in env.agents})
    assert infos["bob"]["view"]["messages"] == [("alice", text, 0)]  # (sender, text, frame sent)
    assert env.comm_frames["alice"] == 1  # TDW-MAT: one frame per message of up to 500 characters
    assert "Message from alice" in obs["bob"]["text"]
    tells = [e for e in env.trace if e.kind == "tell"]
    assert len(tells) == 1 and tells[0].content[0].value == w.rooms[0]
    gt = check(env.trace)
    assert gt.value(("bob",), ("in", w.targets[0])) == w.rooms[0]
    assert gt.value(("alice", "bob"), ("in", w.targets[0])) == w.rooms[0]


def test_partner_seen_only_in_the_same_room():
    env = tv.parallel_env(seed=6)
    env.reset()
    w = env.world
    a_room = env.room["alice"]
    other = next(r for r in w.rooms if r != a_room)
    if env.room["bob"] == a_room:  # move bob away first
        _do(env, f"go to {other}", agent="bob")
        while not env.idle("bob"):
            env.step({x: tv.A_WAIT for x in env.agents})
    assert "bob" not in env.view("alice")["present"]
    target = env.room["alice"]
    _do(env, f"go to {target}", agent="bob")
    while not env.idle("bob"):
        env.step({x: tv.A_WAIT for x in env.agents})
    assert env.view("alice")["present"] == ["bob"] and env.view("bob")["present"] == ["alice"]


def test_trace_reality_matches_the_world_after_random_play():
    env = tv.parallel_env(seed=9)
    obs, infos = env.reset()
    rng = np.random.default_rng(0)
    while env.agents:
        acts = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        obs, *_ = env.step(acts)
    gt = check(env.trace)
    w = env.world
    for o in (*w.targets, *w.containers):
        assert gt.reality(("in", o)) == w.location[o]
    for r in w.rooms:
        assert gt.reality(("explored", r)) == tw.EXPLORE_STATES[w.explored[r]]


def test_bad_action_is_feedback_not_a_crash():
    env, obs, infos = _solo()
    obs, rew, te, tr, infos = env.step({"alice": tv.A_TRANSPORT if env.room["alice"] != env.world.bedroom else 9999})
    assert "invalid action" in infos["alice"]["view"]["feedback"]


def test_the_bed_count_in_the_array_observation_is_what_the_agent_saw(monkeypatch):
    """Regression: the count of targets on the bed was global, leaking the partner's deliveries."""
    e = tv.parallel_env(episode=0)
    e.reset()
    a = e.agents[0]
    away = next(r for r in e.world.rooms if r != e.world.bedroom)
    e.room[a] = away
    monkeypatch.setattr(e.world, "on_bed", lambda: ["t1", "t2", "t3"])
    assert e._obs(a)["observation"][4] == 0.0  # delivered elsewhere, unseen
    e.room[a] = e.world.bedroom
    assert e._obs(a)["observation"][4] == pytest.approx(3 / tw.N_TARGETS)
    e.room[a] = away
    assert e._obs(a)["observation"][4] == pytest.approx(3 / tw.N_TARGETS)  # remembered, not refreshed


def test_each_agent_perceives_its_private_trace_on_the_shared_path():
    """transport_v0 logs through the shared PerceptionLog: each agent's perceptions are its private trace of
    the global one (what a PrivateTrace filter keeps), and an action seen by one agent only reaches it."""
    from belief.envs.base.perception import PerceptionLog
    from belief.truth.filter import PrivateTrace

    env = tv.parallel_env(world_seed=3)
    obs, infos = env.reset()
    assert isinstance(env, PerceptionLog)
    rng = np.random.default_rng(0)
    perceived = {a: list(env.take_perceived(a)) for a in env.agents}
    for _ in range(40):
        if not env.agents:
            break
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        obs, *_ = env.step(actions)
        for a in perceived:
            perceived[a] += env.take_perceived(a)
    for a, events in perceived.items():
        flt = PrivateTrace(a)
        expected = [p for ev in env.trace for p in flt.perceive(ev)]
        assert events == expected and events
        assert all(a in ev.visible_to for ev in events if ev.kind == "action")


def test_no_trace_no_perceptions():
    env = tv.parallel_env(world_seed=3, record_trace=False)
    env.reset()
    env.step({a: 0 for a in env.agents})
    assert len(env.trace) == 0 and all(env.take_perceived(a) == [] for a in env.possible_agents)
