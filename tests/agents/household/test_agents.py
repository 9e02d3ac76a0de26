"""household_v0 agents: private records agree with the checker, the kinds behave as named, the bench and CLI."""

import json
import pickle
import subprocess
import sys

import pytest

from belief.agents.household import messages as msgs
from belief.agents.household.mhp import Situation, Task, choose
from belief.agents.household.team import AGENT_KINDS, make_team, team_size
from belief.app.results.schema import validate_bench_json
from belief.app.bench.household import play_episode, summarise
from belief.truth.checker import check
from belief.envs.household import environment as hv
from belief.truth.filter import private_trace
from belief.truth.index import is_marker


def _play(kind, seed):
    env = hv.parallel_env(seed=seed, n_agents=team_size(kind))
    obs, infos = env.reset()
    team = make_team(kind, infos[env.agents[0]]["task"])
    step = 0
    while env.agents:
        obs, *_, infos = env.step({a: team[a].act(obs[a], infos[a]) for a in env.agents})
        step += 1
    for a in team:  # fold in the final perceptions (the bench scores beliefs before each step instead)
        team[a].record.feed(infos[a]["perceived"], step)
    return env, team


@pytest.mark.parametrize("kind,seed", [("cobel", 3), ("coela", 8), ("silent", 21)])
def test_private_record_equals_the_checker_on_the_private_trace(kind, seed):
    """The agent's zero- and first-order record is what the general checker says on its private trace."""
    env, team = _play(kind, seed)
    fluents = [("in", o) for o in env.world.objects] + [("open", c) for c in env.world.is_open]
    compared = 0
    for a, agent in team.items():
        truth = check(private_trace(env.trace, a))
        for chain, record in (((a,), agent.record.zero), ((a, agent.partner), agent.record.first)):
            for f in fluents:
                v = truth.value(chain, f) if truth.known(chain, f) else None
                mine = record.get(f)
                if v is None or is_marker(v):
                    assert mine is None, (chain, f, v, mine)
                else:
                    assert mine == v, (chain, f, v, mine)
                    compared += 1
    assert compared > 20


@pytest.mark.parametrize("kind", AGENT_KINDS)
def test_every_kind_finishes_the_first_seeds(kind):
    for seed in range(4):
        r = play_episode({"agent": kind, "scale": "small"}, seed)
        assert r["done"] and r["steps"] < hv.hw.MAX_STEPS
        if kind in ("coela", "messenger", "cobel_nobbc"):
            assert r["message_tokens"] > 0 and r["comm_frames"] == r["messages"] > 0
        if kind in ("silent", "single", "independent"):
            assert r["messages"] == 0 and r["comm_frames"] == 0


def test_coela_talks_more_than_cobel_but_with_news_only_and_beats_one_agent():
    cobel = [play_episode({"agent": "cobel", "scale": "small"}, s) for s in range(8)]
    coela = [play_episode({"agent": "coela", "scale": "small"}, s) for s in range(8)]
    single = [play_episode({"agent": "single", "scale": "small"}, s) for s in range(8)]
    assert sum(r["message_tokens"] for r in coela) > 5 * sum(r["message_tokens"] for r in cobel) > 0
    assert sum(r["comm_frames"] for r in coela) > sum(r["comm_frames"] for r in cobel)
    # news worth a step, not a message every other step: under a quarter of its steps go to sending
    assert sum(r["comm_frames"] for r in coela) < 0.25 * sum(r["steps"] for r in coela)
    assert sum(r["steps"] for r in coela) < sum(r["steps"] for r in single)
    text = msgs.compose([("apple_1", "fridge_1")], ["sofa_1"], ("fetch", "apple_1"), preamble=("Progress: x.",))
    assert msgs.read(text) == (("fetch", "apple_1"), {"sofa_1"})
    assert hv.parse_message_facts(text, ["apple_1"], ["fridge_1"]) == [("apple_1", "fridge_1")]


def test_cobel_yields_a_conflict_to_a_closer_partner_and_counts_it():
    r = [play_episode({"agent": "cobel", "scale": "small"}, s) for s in range(10)]
    mis = {k: sum(x["miscoordination"][k] for x in r) for k in ("detections", "yields", "avoided_duplicates")}
    assert mis["detections"] >= mis["yields"] >= mis["avoided_duplicates"] > 0
    assert all(0 < x["prediction"][0] <= x["prediction"][1] for x in r)


def _pair(seed=0):
    env = hv.parallel_env(seed=seed)
    obs, infos = env.reset()
    return make_team("cobel", infos["alice"]["task"])


def test_a_plan_both_announced_is_kept_by_the_name_that_sorts_first():
    """Symmetric yielding: each agent heard the other announce the object it announced itself."""
    team = _pair()
    goal = ("fetch", "x_1")
    for a in team.values():
        a.partner_plan, a.announced = (goal, 0), (goal, 0)
    sit = team["alice"].situation()
    assert not team["alice"]._partner_keeps(goal, sit, sit)  # alice keeps it
    assert team["bob"]._partner_keeps(goal, sit, sit)  # bob yields it


def test_a_long_mutual_yield_is_broken_by_name():
    """After yield_limit steps (two doors' walks) yielding the same subgoal, alice (first name) takes it; bob
    keeps yielding."""
    team = _pair()
    YIELD_LIMIT = team["alice"].yield_limit
    assert YIELD_LIMIT == 2 * 8  # cwah: a door is 8 steps
    goal = ("fetch", "x_1")
    taken = {}
    for name, agent in team.items():
        out = []
        for step in range(YIELD_LIMIT + 2):
            agent.record.step = step
            out.append(agent._deadlocked(goal))
        taken[name] = out
    assert taken["alice"] == [False] * YIELD_LIMIT + [True, True]
    assert not any(taken["bob"])
    alice = team["alice"]
    alice.record.step = 100  # a gap resets the count
    assert not alice._deadlocked(goal)


def test_prediction_and_persistence_are_both_reported():
    rows = [play_episode({"agent": k, "scale": "small"}, s) for k in ("cobel", "coela", "single") for s in (0, 1)]
    c = summarise(rows)
    pv = c["extra"]["prediction_vs_persistence"]
    assert set(pv) == {"cobel"}
    assert 0 < pv["cobel"]["prediction"] < 1 and 0 < pv["cobel"]["persistence"] < 1
    assert pv["cobel"]["in_sight"]["steps"] + pv["cobel"]["out_of_sight"]["steps"] <= pv["cobel"]["steps"]
    assert c["extra"]["coela_vs_single"]["n"] == 2
    assert c["extra"]["message_tokens"]["single"] == 0 < c["extra"]["message_tokens"]["coela"]


def test_mhp_fills_both_hands_in_a_room_then_delivers():
    task = Task({"goals": [("IN", "apple", "fridge_1", 2)], "rooms": ["kitchen", "livingroom"],
                 "doors": [["kitchen", "livingroom"]], "agents": ["alice"],
                 "furniture": {"fridge_1": ["fridge", "kitchen"], "sofa_1": ["sofa", "livingroom"]}})
    sit = Situation("alice", "livingroom", ("apple_1", None), {"apple_1": "alice", "apple_2": "sofa_1"},
                    set(), {"sofa_1"})
    assert choose(task, sit) == (("fetch", "apple_2"), "grasp apple_2")
    sit = Situation("alice", "livingroom", ("apple_1", "apple_2"), {"apple_1": "alice", "apple_2": "alice"},
                    set(), {"sofa_1"})
    assert choose(task, sit) == (("deliver", "fridge_1"), "walk to kitchen")
    sit = Situation("alice", "kitchen", ("apple_1", "apple_2"), {"apple_1": "alice", "apple_2": "alice"},
                    set(), {"sofa_1"})
    assert choose(task, sit) == (("deliver", "fridge_1"), "open fridge_1")


def test_play_episode_is_picklable_deterministic_and_the_summary_has_the_contract():
    assert pickle.loads(pickle.dumps(play_episode)) is play_episode
    a, b = play_episode({"agent": "cobel", "scale": "small"}, 5), play_episode({"agent": "cobel", "scale": "small"}, 5)
    assert a == b
    rows = [play_episode({"agent": k, "scale": "small"}, s) for k in ("cobel", "single") for s in (0, 1, 2)]
    c = summarise(rows)
    validate_bench_json(c)
    assert c["episodes"] == 3 and c["headline"] == "cobel" and c["seed"] == 0
    for k in ("cobel", "single"):
        v = c["by_agent"][k]
        assert set(v) >= {"steps", "ci95", "message_tokens", "comm_frames", "prediction_accuracy",
                          "belief_accuracy_world"}
        assert v["ci95"]["steps"][0] <= v["steps"] <= v["ci95"]["steps"][1]
        assert 0.5 < v["belief_accuracy_world"] <= 1
    assert c["by_agent"]["single"]["prediction_accuracy"] is None and c["by_agent"]["single"]["n"]["prediction_accuracy"] == 0
    steps = c["diff_vs"]["single"]["steps"]
    assert steps["n"] == 3 and steps["mean"] == pytest.approx(c["by_agent"]["cobel"]["steps"] - c["by_agent"]["single"]["steps"])


def _belief(*args):
    return subprocess.run([sys.executable, "-m", "belief", *args], capture_output=True, text=True, timeout=120)


def test_cli_bench_and_run(tmp_path):
    r = _belief("bench", "household", "--episodes", "2", "--seed", "0", "--workers", "1", "--json",
                "--agents", "cobel,single")
    assert r.returncode == 0, r.stderr
    last = json.loads(r.stdout.strip().splitlines()[-1])
    assert last["episodes"] == 2 and set(last["by_agent"]) == {"cobel", "single"}
    validate_bench_json(last)
    assert set(last["diff_vs"]) == {"single"}
    r = _belief("run", "household", "--seed", "1", "--agents", "cobel", "--out", str(tmp_path), "--json")
    assert r.returncode == 0, r.stderr
    row = json.loads(r.stdout.strip().splitlines()[-1])
    trace = tmp_path / "household_1.trace.jsonl"
    assert row["done"] and trace.exists()
    from belief.truth.trace import Trace

    assert len(Trace.read(trace)) == row["trace_events"]


@pytest.mark.parametrize("args", [("bench", "household", "--agents", "cobel,nobody"),
                                  ("bench", "household", "--episodes", "0"),
                                  ("bench", "household", "--scale", "huge"),
                                  ("run", "household", "--agents", "cobel,silent"),
                                  ("run", "household", "--agents", "cobel,,cobel"),
                                  ("run", "household", "--trace", "/nonexistent/dir/t.jsonl")])
def test_cli_bad_input_is_one_error_line(args):
    r = _belief(*args)
    assert r.returncode != 0 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("error: ")


def _cobel_who_saw_the_apple_delivered(partner_room):
    """Alice (kitchen) saw apple_1 put into fridge_1 (the goal); she believes bob, last seen just now in
    ``partner_room``, still believes it on sofa_1 (livingroom), so bob's predicted subgoal is to fetch it."""
    from belief.agents.household.cobel import CoBelAgent

    info = {"goals": [("IN", "apple", "fridge_1", 1)], "rooms": ["kitchen", "livingroom", "bedroom"],
            "walk_steps": 3, "approach_steps": 0,  # the small scale
            "doors": [["kitchen", "livingroom"], ["livingroom", "bedroom"]], "agents": ["alice", "bob"],
            "furniture": {"fridge_1": ["fridge", "kitchen"], "sofa_1": ["sofa", "livingroom"],
                          "bed_1": ["bed", "bedroom"]}}
    alice = CoBelAgent("alice", info)
    r = alice.record
    r.step, r.room, r.partner_room, r.partner_seen = 5, "kitchen", partner_room, 5
    r.zero[("in", "apple_1")] = "fridge_1"
    r.first[("in", "apple_1")] = "sofa_1"
    r.checked |= {"fridge_1", "sofa_1", "bed_1"}
    r.partner_checked |= r.checked  # it saw them too: the apple's place is all it lacks
    sit = alice.situation()
    subgoal, _ = alice.decide(sit)
    return alice, sit, subgoal


def test_cobel_sends_a_message_only_when_it_saves_the_partner_more_steps_than_it_costs():
    from belief.agents.household.cobel import MESSAGE_COST

    far, sit, subgoal = _cobel_who_saw_the_apple_delivered("bedroom")  # a door's walk to a futile grasp
    assert far.predictor.best()[0] == ("fetch", "apple_1")
    parts = {"facts": [("apple_1", "fridge_1")]}
    assert far.saved_steps(far._partner_situations(), parts, sit, subgoal) > MESSAGE_COST
    assert far.compose_message(sit, subgoal) == "apple_1 IN fridge_1"
    near, sit, subgoal = _cobel_who_saw_the_apple_delivered("livingroom")  # there already: one futile grasp
    assert near.predictor.best()[0] == ("fetch", "apple_1")
    assert 0 < near.saved_steps(near._partner_situations(), parts, sit, subgoal) <= MESSAGE_COST
    assert near.compose_message(sit, subgoal) is None


def test_the_ablations_lack_what_they_are_named_for():
    """cobel_nobbc predicts nothing and never yields; cobel_nomodel's partner knows only what it was told."""
    nobbc = [play_episode({"agent": "cobel_nobbc", "scale": "small"}, s) for s in range(3)]
    assert all(r["prediction"][1] == 0 and r["miscoordination"]["detections"] == 0 for r in nobbc)
    assert sum(r["messages"] for r in nobbc) > 0
    nomodel = [play_episode({"agent": "cobel_nomodel", "scale": "small"}, s) for s in range(3)]
    assert all(r["prediction"][1] > 0 for r in nomodel)
    from belief.agents.household.cobel import CoBelAgent

    env = hv.parallel_env(seed=0, scale="small")
    obs, infos = env.reset()
    agents = {m: CoBelAgent("alice", infos["alice"]["task"], model=m) for m in (True, False)}
    for a in agents.values():
        a.take_in(infos["alice"], 0)
        a.record.first[("in", "apple_9")] = "sofa_1"  # a belief about bob's belief the full model holds
    assert agents[True].partner_situation().where.get("apple_9") == "sofa_1"
    assert agents[False].partner_situation().where == {}
    agents[False]._send([("apple_9", "bed_1")], ["bed_1"], None)
    psit = agents[False].partner_situation()
    assert psit.where == {"apple_9": "bed_1"} and psit.checked == {"bed_1"}
    assert len(agents[False]._partner_situations()) == len(env.rooms) - 1   # it may be in any other room


def test_predictors_are_scored_as_distributions_with_hand_worked_figures():
    import math

    from belief.app.runners.household import EPS, _score

    a, b = ("fetch", "apple_1"), ("explore", "kitchen")
    acc, loss = _score({a: 0.5, b: 0.5}, a, 10)           # a tie: half the credit
    assert acc == 0.5 and loss == pytest.approx(-math.log(0.99 * 0.5 + 0.01 / 10))
    acc, loss = _score({b: 1.0}, a, 20)                    # all mass elsewhere: only the smoothing is left
    assert acc == 0 and loss == pytest.approx(-math.log(EPS / 20))


def test_observed_partner_reads_only_what_the_agent_perceived():
    from belief.agents.household.predict import ObservedPartner
    from belief.truth.trace import Action, Effect

    task = Task({"goals": [("IN", "apple", "fridge_1", 1)], "rooms": ["kitchen", "livingroom"],
                 "doors": [["kitchen", "livingroom"]], "agents": ["alice", "bob"],
                 "furniture": {"fridge_1": ["fridge", "kitchen"], "cabinet_1": ["cabinet", "livingroom"]}})
    seen = ObservedPartner(task, "bob")
    assert seen.keeps_last() == {} and seen.most_frequent() == {}
    opened = Action(name="open", effects=(Effect(predicate="open", subject=("cabinet_1",), value="open"),))
    seen.feed([opened], my_action="open cabinet_1")        # I opened it myself: nothing about bob
    assert seen.counts == {}
    seen.feed([opened], my_action="wait")                  # bob opened it: he explores its room
    grasp = Action(name="grasp", effects=(Effect(predicate="in", subject=("apple_1",), value="bob"),))
    seen.feed([grasp])
    put = Action(name="put", effects=(Effect(predicate="in", subject=("apple_1",), value="fridge_1"),))
    seen.feed([put], held_by_partner={"apple_1"})
    seen.told(("explore", "livingroom"))
    assert seen.keeps_last() == {("explore", "livingroom"): 1.0}
    assert seen.most_frequent() == {("explore", "livingroom"): 0.5, ("fetch", "apple_1"): 0.25,
                                    ("deliver", "fridge_1"): 0.25}


def test_ground_truth_miscoordination_counts_onsets_and_scores_detections():
    from types import SimpleNamespace

    from belief.agents.household.memory import Record
    from belief.app.runners.household import _Truth
    from tests.envs.household.test_environment import _world

    env = hv.parallel_env(scale="small")
    env.reset(options={"world": _world()})

    def agent(name, subgoal, intent=None, flagged=False):
        rec = Record(name, "bob" if name == "alice" else "alice", env.world.furniture)
        return SimpleNamespace(subgoal=subgoal, intent=intent or subgoal, flagged=flagged, record=rec)

    truth = _Truth()
    cup = ("fetch", "cupcake_1")
    # step 1: both head for the cupcake (alice flagged it); step 2: still (one event); step 3: bob yields
    # (his choice before yielding was the cupcake, unflagged: a missed conflict); step 4: both again (a new event)
    steps = [({"alice": agent("alice", cup, flagged=True), "bob": agent("bob", cup)}),
             ({"alice": agent("alice", cup, flagged=True), "bob": agent("bob", cup)}),
             ({"alice": agent("alice", cup), "bob": agent("bob", ("explore", "bedroom"), intent=cup)}),
             ({"alice": agent("alice", cup, flagged=True), "bob": agent("bob", cup, flagged=True)})]
    for team in steps:
        truth.before_step(env, team)
    counts = truth.finish()
    assert counts["same_target"] == 2 and counts["same_target_steps"] == 3
    # conflict steps (my choice before yielding is the partner's real subgoal): alice 1,2,4; bob 1,2,3,4
    assert truth.detection == [4, 4, 7]      # 4 right flags of 4 flagged; 3 + 4 = 7 conflict steps
