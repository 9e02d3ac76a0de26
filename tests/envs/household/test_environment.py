"""household_v0: PettingZoo API, generator, rules and costs, observability, and traces the checker answers."""

import pytest
from pettingzoo.test import api_test, parallel_api_test

from belief.truth.checker import check
from belief.envs.household import environment as hv
from belief.envs.household import world as hw
from belief.truth.filter import private_trace


def test_parallel_api_test_two_agents():
    parallel_api_test(hv.parallel_env(seed=3), num_cycles=300)


def test_parallel_api_test_single_agent():
    parallel_api_test(hv.parallel_env(seed=5, n_agents=1), num_cycles=200)


def test_aec_api_test():
    api_test(hv.env(seed=4), num_cycles=300)


def test_small_generator_is_seeded_varied_and_solvable():
    worlds = [hw.generate(s, scale="small") for s in range(60)]
    assert hw.generate(7, scale="small").describe() == hw.generate(7, scale="small").describe()
    assert {w.task for w in worlds} == set(hw.TASKS)
    assert len({w.layout for w in worlds}) == len(hw.LAYOUTS)
    for w in worlds:
        assert 2 <= len(w.goals) <= 4 and sum(g.count for g in w.goals) >= 4
        relation, kind, _ = hw.TASKS[w.task]
        for g in w.goals:
            assert g.relation == relation and g.target == f"{kind}_1"
            objs = [o for o in w.objects if hw.object_class(o) == g.cls]
            assert len(objs) >= g.count                            # enough objects
            assert all(w.location[o] != g.target for o in objs)    # none done at the start
        assert not w.done()
        assert set(w.distances(w.rooms[0])) == set(w.rooms)        # every room reachable
        assert not any(w.is_open.values())                         # containers start closed
        assert len(w.objects) <= hv.MAX_OBJECTS and len(w.furniture) <= hv.MAX_RECEPTACLES


# the study's object sets (CoBel-World, C-WAH), written out here independently of world.CWAH_TASKS
STUDY_SETS = {
    "prepare_afternoon_tea": ("ON", "coffeetable_1", {"cupcake", "pudding", "apple", "juice", "wine"}),
    "wash_dishes": ("IN", "dishwasher_1", {"plate", "cutleryfork"}),
    "prepare_a_meal": ("ON", "kitchentable_1", {"coffeepot", "cupcake", "pancake", "poundcake", "pudding", "apple",
                                                "juice", "wine"}),
    "put_groceries": ("IN", "fridge_1", {"cupcake", "pancake", "poundcake", "pudding", "apple", "juice", "wine"}),
    "set_up_dinner_table": ("ON", "kitchentable_1", {"plate", "cutleryfork"}),
}
ONE_AT_MOST = {"juice", "wine", "pancake", "poundcake", "coffeepot"}  # init_pool.json: max_num 1, the others 2


def test_cwah_generator_follows_the_study_sets_and_the_source_generator():
    worlds = [hw.generate(s) for s in range(80)]
    assert hw.generate(7).describe() == hw.generate(7).describe() != hw.generate(7, scale="small").describe()
    assert {w.task for w in worlds} == set(STUDY_SETS)
    assert {w.layout for w in worlds} == {lay.name for lay in hw.CWAH_LAYOUTS}
    hidden = 0
    for w in worlds:
        relation, target, classes = STUDY_SETS[w.task]
        assert 3 <= sum(g.count for g in w.goals) <= 5                      # 3-5 subgoals
        for g in w.goals:
            assert g.relation == relation and g.target == target and g.cls in classes
            assert 1 <= g.count <= (1 if g.cls in ONE_AT_MOST else 2)
            objs = [o for o in w.objects if hw.object_class(o) == g.cls]
            assert g.count <= len(objs) <= (2 if g.cls in ONE_AT_MOST else 3)   # count .. max + 1
            for o in objs:
                assert w.location[o] != g.target
                assert w.furniture[w.location[o]][0] in hw.CWAH_GOAL_PLACES
                hidden += w.kind(w.location[o]) == hw.CONTAINER
        assert not w.done() and set(w.distances(w.rooms[0])) == set(w.rooms) == set(hw.ROOMS)
        assert len(w.objects) <= hv.MAX_OBJECTS and len(w.furniture) <= hv.MAX_RECEPTACLES
        assert len(w.containers_in("kitchen")) >= 9                         # fridge, dishwasher, microwave, stove, 5+ cabinets
    goal_objects = sum(1 for w in worlds for o in w.objects if hw.object_class(o) in {g.cls for g in w.goals})
    assert hidden > goal_objects / 2                                         # mostly inside closed containers


def test_acting_on_furniture_first_walks_up_to_it_at_the_cwah_scale():
    env = hv.parallel_env()
    assert (env.walk_steps, env.approach_steps) == (8, 3)
    env.reset(options={"world": _world()})
    for i in range(1, 4):                                    # three steps walking up to the fridge
        _, _, _, _, infos = _do(env, alice="open fridge_1")
        assert infos["alice"]["view"]["containers"]["fridge_1"] == "closed"
        assert infos["alice"]["view"]["feedback"] == f"walking to the fridge_1 ({i}/3)"
    _, _, _, _, infos = _do(env, alice="open fridge_1")      # now it opens
    assert infos["alice"]["view"]["containers"]["fridge_1"] == "open" and env.steps == 4
    _do(env, alice="grasp apple_1")                          # the apple is in the fridge she stands at: one step
    assert env.world.held["alice"][0] == "apple_1" and env.steps == 5
    _do(env, alice="grasp cupcake_1")                        # the table: walk up to it first
    _do(env, alice="wait")                                   # another action starts the approach over
    for _ in range(3):
        _do(env, alice="grasp cupcake_1")
    assert env.world.held["alice"][1] is None
    _do(env, alice="grasp cupcake_1")
    assert env.world.held["alice"][1] == "cupcake_1" and env.steps == 11


def _world(**placed):
    """A scripted world in apartment_0: alice and bob in the kitchen."""
    furniture = hw._furniture(hw.LAYOUTS[0])
    location = {"apple_1": "fridge_1", "cupcake_1": "kitchentable_1", **placed}
    return hw.World(layout="apartment_0", doors=hw.LAYOUTS[0].doors, furniture=furniture, task="put_groceries",
                    goals=(hw.Goal("IN", "apple", "fridge_1", 1), hw.Goal("IN", "cupcake", "fridge_1", 1)),
                    objects=tuple(sorted(location)), location=location,
                    is_open={f: False for f, (k, _) in furniture.items() if hw.FURNITURE_KINDS[k] == hw.CONTAINER},
                    agent_room={"alice": "kitchen", "bob": "kitchen"})


def _walk(env, agent: str, room: str):
    """``agent`` walks to ``room`` (the steps a walk takes), the other waits."""
    for _ in range(env.walk_steps):
        _do(env, **{agent: f"walk to {room}"})


def _do(env, **named):
    """One step; ``named``: agent -> action name (or (name, text) for a message); others wait."""
    acts = {}
    for a in env.agents:
        act = named.get(a, "wait")
        if isinstance(act, tuple):
            acts[a] = (env.action_index(act[0]), act[1])
        else:
            acts[a] = env.action_index(act)
    return env.step(acts)


def test_closed_containers_hide_their_contents_and_opening_shows_them():
    env = hv.parallel_env(scale="small")
    obs, infos = env.reset(options={"world": _world()})
    v = infos["alice"]["view"]
    assert v["visible"] == {"cupcake_1": "kitchentable_1"}               # the apple is in the closed fridge
    assert v["containers"]["fridge_1"] == "closed"
    assert not infos["alice"]["action_mask"][env.action_index("grasp apple_1")]
    _, _, _, _, infos = _do(env, alice="open fridge_1")
    for a in ("alice", "bob"):                                           # both were there
        assert infos[a]["view"]["visible"]["apple_1"] == "fridge_1"
    assert infos["bob"]["action_mask"][env.action_index("grasp apple_1")]


def test_walking_takes_three_steps_messages_one_and_two_hands():
    env = hv.parallel_env(scale="small")
    env.reset(options={"world": _world(apple_2="kitchencounter_1")})
    for i in range(env.walk_steps - 1):
        _, _, _, _, infos = _do(env, bob="walk to livingroom")
        assert infos["bob"]["view"]["room"] == "kitchen"
    _, _, _, _, infos = _do(env, bob="walk to livingroom", alice=("send message", "cupcake_1 IN kitchentable_1"))
    assert infos["bob"]["view"]["room"] == "livingroom" and env.steps == env.walk_steps == 3
    assert infos["bob"]["view"]["messages"] == [("alice", "cupcake_1 IN kitchentable_1")]
    assert env.metrics()["comm_frames"] == 1 and env.metrics()["message_tokens"] > 0
    _do(env, alice="grasp cupcake_1")
    _, _, _, _, infos = _do(env, alice="grasp apple_2")
    assert infos["alice"]["view"]["hands"] == ["cupcake_1", "apple_2"]
    assert not any(infos["alice"]["action_mask"][hv.A_GRASP:hv.A_PUT])   # both hands full


def test_the_episode_ends_when_every_goal_holds():
    env = hv.parallel_env(scale="small")
    env.reset(options={"world": _world()})
    _do(env, alice="open fridge_1", bob="grasp cupcake_1")
    _do(env, alice="grasp apple_1")
    _do(env, alice="put hand 0 in fridge_1")
    obs, rew, terms, truncs, infos = _do(env, bob="put hand 0 in fridge_1")
    assert all(terms.values()) and not any(truncs.values()) and env.agents == []
    assert env.metrics()["steps"] == 4 and env.metrics()["done"]


def test_a_scripted_trace_answers_first_order_questions_as_the_world_says():
    """Alice opens the fridge with Bob present; Bob leaves; Alice moves the apple; Bob's belief is stale,
    Alice knows it is, and a message fixes it. Every answer is the checker's, checked by hand."""
    env = hv.parallel_env(scale="small")
    env.reset(options={"world": _world()})
    _do(env, alice="open fridge_1")
    _walk(env, "bob", "livingroom")
    _do(env, alice="grasp apple_1")
    _do(env, alice="put hand 0 on kitchentable_1")
    apple = ("in", "apple_1")
    assert env.world.location["apple_1"] == "kitchentable_1"
    truth = check(env.trace)
    assert truth.value((), apple) == "kitchentable_1"
    assert truth.value(("alice",), apple) == "kitchentable_1" and truth.knows("alice", apple)
    assert truth.value(("bob",), apple) == "fridge_1" and not truth.knows("bob", apple)       # a false belief
    assert truth.value(("alice", "bob"), apple) == "fridge_1"      # Alice knows Bob missed the move
    assert truth.value(("bob", "alice"), apple) == "fridge_1"      # Bob thinks Alice thinks it is in the fridge
    assert truth.value(("bob",), ("open", "fridge_1")) == "open"
    assert truth.answer("? bob BELIEVE apple_1 IN ?c").bindings == {"c": "fridge_1"}
    _do(env, alice=("send message", "apple_1 IN kitchentable_1\nplan: deliver fridge_1"))
    truth = check(env.trace)
    assert truth.value(("bob",), apple) == "kitchentable_1" and truth.knows("bob", apple)
    assert truth.value(("alice", "bob"), apple) == "kitchentable_1"
    # Bob's own record (private trace) agrees: he never saw the move, only the message
    mine = check(private_trace(env.trace, "bob"))
    assert mine.value(("bob",), apple) == "kitchentable_1"


def test_seeing_an_object_gone_makes_the_belief_unsure():
    env = hv.parallel_env(scale="small")
    env.reset(options={"world": _world()})
    for _ in range(env.walk_steps):
        _do(env, bob="walk to livingroom")                     # bob saw the cupcake on the table, then left
    _do(env, alice="grasp cupcake_1")
    _walk(env, "alice", "livingroom")
    truth = check(env.trace)
    assert truth.value(("bob",), ("in", "cupcake_1")) == "alice"  # he sees her carry it
    _walk(env, "alice", "kitchen")
    _do(env, alice="put hand 0 on kitchencounter_1")
    _walk(env, "bob", "kitchen")
    truth = check(env.trace)
    assert truth.value(("bob",), ("in", "cupcake_1")) == "kitchencounter_1"
    # a receptacle seen without what one believed on it: the 'possible' event leaves the chain unsure
    env.reset(options={"world": _world()})
    _walk(env, "bob", "livingroom")
    _do(env, alice="open kitchencabinet_1")
    _do(env, alice="grasp cupcake_1")
    _do(env, alice="put hand 0 in kitchencabinet_1")
    _do(env, alice="close kitchencabinet_1")
    _walk(env, "bob", "kitchen")
    truth = check(env.trace)
    assert truth.value(("alice",), ("in", "cupcake_1")) == "kitchencabinet_1"
    assert str(truth.value(("bob",), ("in", "cupcake_1"))) == "unsure"   # the table is empty, the cabinet closed
    assert any(e.kind == "possible" and e.observers == ("bob",) for e in env.trace)


def test_full_episode_trace_is_checkable_and_knowledge_is_true():
    from belief.agents.household.team import make_team

    env = hv.parallel_env(seed=11)
    obs, infos = env.reset()
    team = make_team("cobel", infos["alice"]["task"])
    step = 0
    while env.agents:
        obs, *_, infos = env.step({a: team[a].act(obs[a], infos[a]) for a in env.agents})
        step += 1
    truth = check(env.trace)
    for o in env.world.objects:
        for a in ("alice", "bob"):
            if truth.knows(a, ("in", o)):
                assert truth.value((a,), ("in", o)) == env.world.location[o]


@pytest.mark.parametrize("bad", [{"n_agents": 3}, {"walk_steps": 0}, {"approach_steps": -1}, {"scale": "huge"}])
def test_bad_arguments(bad):
    with pytest.raises(ValueError):
        hv.parallel_env(**bad)
