"""Transport agents: pure belief updates (newer own evidence wins), Bayesian predictions, UP planning,
messages that change the partner's plan (cobel) or carry the full progress (coela)."""

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from belief.agents.transport import cobel as tc
from belief.app.results.schema import validate_bench_json
from belief.agents.transport.planner import Planner, build_problem, greedy_plan, solve
from belief.envs.transport import environment as tv
from belief.envs.transport import world as tw

ROOMS = ["kitchen_1", "office_1", "living_room_1", "bedroom_1"]
TASK = {
    "targets": ["apple_1", "apple_2", "bread_1"], "containers": ["bowl_1"], "family": "food",
    "rooms": ROOMS, "room_type": {r: r.rsplit("_", 1)[0] for r in ROOMS}, "bedroom": "bedroom_1",
    "distance": {a: {b: (0.0 if a == b else 8.0) for b in ROOMS} for a in ROOMS},
    "agents": ["alice", "bob"], "budget": 3000,
}


def view(room="kitchen_1", events=(), present=(), visible=None, messages=(), holding=(), idle=True, frame=0):
    return {"agent": "alice", "frame": frame, "budget": 3000, "room": room, "idle": idle, "explored": "none",
            "holding": list(holding), "contents": {}, "present": list(present), "visible": dict(visible or {}),
            "events": list(events), "messages": list(messages), "feedback": None}


def test_update_is_pure_and_orders_follow_observers():
    s0 = tc.initial_state("alice", TASK)
    seen_alone = ("saw", "in", "apple_1", "kitchen_1", ("alice",))
    seen_together = ("saw", "in", "bread_1", "kitchen_1", ("alice", "bob"))
    s1 = tc.update(s0, view(events=[seen_alone, seen_together], present=["bob"],
                            visible={"apple_1": "kitchen_1", "bread_1": "kitchen_1"}))
    assert list(s0.store.facts()) == []  # the input state is untouched
    assert tc.value(s1, "apple_1") == "kitchen_1" and tc.value(s1, "bread_1") == "kitchen_1"
    assert tc.value(s1, "apple_1", chain=("alice", "bob")) is None
    assert tc.value(s1, "bread_1", chain=("alice", "bob")) == "kitchen_1"
    assert s1.models["bob"].room == "kitchen_1"


def test_messages_update_both_orders_and_announced_plans():
    s = tc.update(tc.initial_state("alice", TASK),
                  view(room="office_1", messages=[("bob", "apple_2 IN living_room_1\nPLAN bob: grasp apple_2", 0)]))
    assert tc.value(s, "apple_2") == "living_room_1"
    assert tc.value(s, "apple_2", chain=("alice", "bob")) == "living_room_1"
    assert s.models["bob"].plan["objects"] == {"apple_2"}


def test_stale_echo_newer_own_evidence_wins():
    """Regression: a teammate's older message overwrote the agent's own newer observations: an agent that
    had searched a room fully believed 'part' after the message, and searched it again."""
    s = tc.initial_state("alice", TASK)
    searched = dict(view(room="kitchen_1", frame=400), explored="all")
    s = tc.update(s, searched)
    assert tc.value(s, "kitchen_1", "explored") == "all"
    s = tc.update(s, view(room="office_1", frame=450, messages=[("bob", "kitchen_1 EXPLORED part", 100)]))
    assert tc.value(s, "kitchen_1", "explored") == "all"  # a search level never goes down
    assert tc.value(s, "kitchen_1", "explored", chain=("alice", "bob")) == "part"  # bob does hold 'part'
    s = tc.predict(s, tc.PRESETS["cobel"])
    goal = tc.choose_goal(s, tc.PRESETS["cobel"])
    assert not (goal.kind == "explore" and goal.room == "kitchen_1")
    # locations: what I saw at frame 500 beats a message sent at frame 300, not one sent at frame 600
    saw = ("saw", "in", "apple_1", "alice", ("alice",))
    s = tc.update(s, view(room="office_1", frame=500, events=[saw], holding=["apple_1"], visible={"apple_1": "alice"}))
    s = tc.update(s, view(room="office_1", frame=520, holding=["apple_1"], visible={"apple_1": "alice"},
                          messages=[("bob", "apple_1 IN kitchen_1", 300)]))
    assert tc.value(s, "apple_1") == "alice"
    s = tc.update(s, view(room="office_1", frame=700, messages=[("bob", "bread_1 IN kitchen_1", 650)]))
    s = tc.update(s, view(room="office_1", frame=720, messages=[("bob", "bread_1 IN office_1", 600)]))
    assert tc.value(s, "bread_1") == "kitchen_1"  # the newer message stands


@given(st.lists(st.integers(0, 2), min_size=4, max_size=4))
@settings(max_examples=40)
def test_location_posterior_is_bayes_over_explored_states(levels):
    s = tc.initial_state("alice", TASK)
    facts = [f"alice BELIEVE {r} EXPLORED {('none', 'part', 'all')[lv]}" for r, lv in zip(ROOMS, levels)]
    s.store.apply(facts, mode="replace")
    post = tc.location_posterior(s)
    prior = s.task["prior"]
    like = {0: 1.0, 1: 0.5, 2: 0.0}
    z = sum(prior[r] * like[lv] for r, lv in zip(ROOMS, levels))
    for r, lv in zip(ROOMS, levels):
        expect = prior[r] * like[lv] / z if z else 0.0
        assert post[r] == pytest.approx(expect)
    if z:
        assert sum(post.values()) == pytest.approx(1.0)


def test_partner_subgoal_prediction_is_a_distribution_and_follows_announcements():
    s = tc.initial_state("alice", TASK)
    s.store.apply(["alice BELIEVE bob BELIEVE apple_1 IN office_1", "alice BELIEVE bob BELIEVE apple_2 IN kitchen_1"])
    s.models["bob"].room = "kitchen_1"
    p = tc.predict(s, tc.PRESETS["cobel"], tc.choose_goal)
    assert sum(p.models["bob"].goal_prob.values()) == pytest.approx(1.0)
    # bob's own rule, simulated in his situation (in the kitchen, knowing apple_2 is there), is the mode
    assert max(p.models["bob"].goal_prob, key=p.models["bob"].goal_prob.get) == ("fetch", "apple_2")
    s.models["bob"].plan, s.models["bob"].plan_frame = {"objects": {"apple_1"}, "explore": None, "deliver": False}, 0
    q = tc.predict(s, tc.PRESETS["cobel"])
    assert max(q.models["bob"].goal_prob, key=q.models["bob"].goal_prob.get) == ("fetch", "apple_1")


def _facts_of(text):
    return set(tv.parse_message_facts(text, tc.initial_state("alice", TASK).task["entities"]))


def test_cobel_message_only_when_it_changes_the_partner_plan():
    s = tc.initial_state("alice", TASK)
    s.room = "kitchen_1"
    s.store.apply(["alice BELIEVE apple_1 IN office_1", "alice BELIEVE apple_2 IN alice",
                   "alice BELIEVE living_room_1 EXPLORED all", "alice BELIEVE kitchen_1 EXPLORED all",
                   "alice BELIEVE bob BELIEVE kitchen_1 EXPLORED all",
                   "alice BELIEVE bob BELIEVE apple_2 IN living_room_1"])
    s.models["bob"].room = "living_room_1"
    s = tc.predict(s, tc.PRESETS["cobel"], tc.choose_goal)
    # bob is predicted to fetch apple_2, which alice holds: she tells him; without it he would search the
    # living room, which alice knows is searched: she tells him that too (his plan changes twice)
    assert max(s.models["bob"].goal_prob, key=s.models["bob"].goal_prob.get) == ("fetch", "apple_2")
    msg, s2 = tc.cobel_message(s, tc.Goal("explore", room="bedroom_1"), tc.PRESETS["cobel"])
    sent = _facts_of(msg)
    assert ("in", "apple_2", "alice") in sent and ("explored", "living_room_1", "all") in sent
    assert ("explored", "kitchen_1", "all") not in sent  # bob holds it already
    for p, subj, v in sent:  # after sending, alice models bob as knowing it
        assert tc.value(s2, subj, p, chain=("alice", "bob")) == v
    # when bob knows what alice knows and nothing conflicts, alice stays silent
    s3 = tc.initial_state("alice", TASK)
    s3.store.apply(["alice BELIEVE apple_1 IN office_1", "alice BELIEVE bob BELIEVE apple_1 IN office_1"])
    s3.room, s3.models["bob"].room = "kitchen_1", "office_1"
    s3 = tc.predict(s3, tc.PRESETS["cobel"], tc.choose_goal)
    msg3, _ = tc.cobel_message(s3, tc.Goal("explore", room="living_room_1"), tc.PRESETS["cobel"])
    assert msg3 is None


def test_coela_and_messenger_send_news_only_and_at_most_every_min_frames():
    from belief.agents.transport.messages import MIN_FRAMES, coela_message, messenger_message

    for policy in (coela_message, messenger_message):
        s = tc.initial_state("alice", TASK)
        s.room = "kitchen_1"
        s.store.apply(["alice BELIEVE apple_1 IN office_1", "alice BELIEVE bread_1 IN kitchen_1"])
        goal = tc.Goal("explore", room="office_1")
        msg, s2 = policy(s, goal, tc.PRESETS["coela"])
        assert {("in", "apple_1", "office_1"), ("in", "bread_1", "kitchen_1")} <= _facts_of(msg)
        assert "PLAN alice: explore office_1" in msg
        assert ("I am in kitchen_1" in msg) == (policy is coela_message)
        s2.frame += MIN_FRAMES
        assert policy(s2, goal, tc.PRESETS["coela"])[0] is None  # nothing new: no message
        s2.store.apply(["alice BELIEVE apple_2 IN living_room_1"])
        s2.frame += 1
        assert policy(s2, goal, tc.PRESETS["coela"])[0] is not None
        msg2, _ = policy(s2, goal, tc.PRESETS["coela"])
        assert _facts_of(msg2) == {("in", "apple_2", "living_room_1")}  # the news, not the whole store
        too_soon = s2.copy()
        too_soon.last_sent = too_soon.frame - 1
        assert policy(too_soon, goal, tc.PRESETS["coela"])[0] is None


def test_coela_messages_are_bounded_by_the_gap():
    """No storm: an agent sends at most one message every MIN_FRAMES frames of the budget."""
    from belief.agents.transport.messages import MIN_FRAMES
    from belief.app.runners.transport import play_episode
    from belief.envs.transport.world import BUDGET

    for kind in ("coela", "messenger"):
        r = play_episode({"agents": kind, "worlds": "generated", "planner": "greedy"}, 2)
        assert 0 < r["messages"] <= r["n_agents"] * (BUDGET // MIN_FRAMES + 1)
        assert r["prediction_accuracy"] is None


PROBLEM = ("kitchen_1", ["apple_1"], {}, {"apple_2": "office_1", "bread_1": "kitchen_1", "bowl_1": "office_1"},
           "bedroom_1", ["apple_2", "bread_1"], ["bowl_1"], True)


def _valid(plan, problem=PROBLEM):
    room, holding, contents, locs, bedroom, batch, conts, deliver = problem
    assert {a[6:] for a in plan if a.startswith("grasp ")} == set(batch) | set(conts)
    assert plan[-1] == "transport to bed" and plan[-2] == f"go to {bedroom}"


def test_belief_built_problem_solved_by_pyperplan():
    plan = solve(*PROBLEM, engine="pyperplan")
    assert plan is not None
    _valid(plan)


@pytest.mark.slow
def test_belief_built_problem_solved_by_fast_downward():
    plan = solve(*PROBLEM, engine="fast-downward")
    assert plan is not None
    _valid(plan)


def test_planner_from_a_belief_store_and_its_fallback():
    s = tc.initial_state("alice", TASK)
    s.store.apply(["alice BELIEVE apple_2 IN office_1", "alice BELIEVE bread_1 IN kitchen_1"])
    s.room = "kitchen_1"
    p = Planner("pyperplan")
    plan = tc.make_plan(s, tc.Goal("fetch", ("bread_1", "apple_2"), deliver=True), p)
    assert p.stats["calls"] == 1 and p.stats["fallbacks"] == 0
    assert plan[-1] == "transport to bed"
    problem, names = build_problem("kitchen_1", [], {}, {"bread_1": "kitchen_1"}, "bedroom_1", ["bread_1"], [], False)
    assert problem.goals and "bread_1" in names
    g = greedy_plan(*PROBLEM)
    _valid(g)


def test_run_episode_on_a_generated_world_scores_against_the_world(tmp_path):
    from belief.app.runners.transport import play_episode, run_episode

    r = run_episode(("gen", 2), "cobel", "greedy", trace_path=str(tmp_path / "t.jsonl"))
    assert r["transport_rate"] > 0 and r["n_agents"] >= 2 and 8 <= r["rooms"] <= 12
    assert 0.5 < r["belief_accuracy_world"] <= 1.0 and 0.5 < r["belief_accuracy_partner"] <= 1.0
    assert r["predictions"] > 0 and 0.0 <= r["prediction_accuracy"] <= 1.0
    assert r["comm_frames"] == r["messages"]  # short messages: one frame each (TDW-MAT)
    c = play_episode({"agents": "coela", "worlds": "generated", "planner": "greedy"}, 2)
    assert r["message_tokens"] < c["message_tokens"] and c["prediction_accuracy"] is None
    mixed = run_episode(("gen", 2), "cobel+coela", "greedy", max_steps=40)
    assert mixed["agent"] == "cobel+coela" and mixed["messages"] > 0
    assert (tmp_path / "t.jsonl").read_text().startswith("{")


def test_silent_agents_zero_order_beliefs_agree_with_the_checker_on_the_env_trace():
    """The env states each agent's observations as trace events: an agent that only observes (no
    messages) holds, for every object it believes located, the checker's answer for its own chain."""
    from belief.agents.transport.cobel import make_agents
    from belief.truth.checker import check

    env = tv.parallel_env(world_seed=5)
    obs, infos = env.reset()
    agents = make_agents("rhp", env.agents)
    for a, ag in agents.items():
        ag.reset(infos[a]["task"])
        ag.perceive((), infos[a])
    for _ in range(60):
        actions = {a: agents[a].act(obs[a], infos[a]) for a in env.agents}
        obs, rew, te, tr, infos = env.step(actions)
        for a, ag in agents.items():
            ag.perceive((), infos[a])
    truth = check(env.trace)
    compared = 0
    for a, ag in agents.items():
        for (pred, subj), v in tc.snapshot(ag.state)[(a,)].items():
            if pred == "in":
                compared += 1
                assert truth.value((a,), ("in", subj)) == v, (a, subj)
    assert compared > 5


def test_cli_bench_transport_last_line_is_json(tmp_path):
    from typer.testing import CliRunner

    from belief.app.cli import app

    res = CliRunner().invoke(app, ["bench", "transport", "--episodes-subset", "12,13", "--agents", "cobel,rhp",
                                   "--planner", "greedy", "--workers", "1", "--plot", str(tmp_path / "p.png"),
                                   "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output.strip().splitlines()[-1])
    assert data["episodes"] == 2 and set(data["by_agent"]) == {"cobel", "rhp"}
    validate_bench_json(data)
    for v in data["by_agent"].values():  # the documented keys
        assert {"transport_rate", "ci95", "message_tokens", "comm_frames", "prediction_accuracy",
                "belief_accuracy_world"} <= set(v)
        assert v["ci95"]["transport_rate"][0] <= v["transport_rate"] <= v["ci95"]["transport_rate"][1]
    d = data["diff_vs"]["rhp"]["transport_rate"]
    assert d["ci95"][0] <= d["mean"] <= d["ci95"][1] and d["n"] == 2
    assert (tmp_path / "p.png").stat().st_size > 1000


def test_cli_bench_transport_generated_worlds_json_only():
    from typer.testing import CliRunner

    from belief.app.cli import app

    res = CliRunner().invoke(app, ["bench", "transport", "--episodes", "2", "--seed", "3", "--agents", "rhp,rhp_alone",
                                   "--workers", "1", "--json", "--no-progress"])
    assert res.exit_code == 0, res.output
    lines = res.stdout.strip().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    validate_bench_json(data)
    assert data["extra"]["worlds"] == "generated" and data["episodes"] == 2 and data["seed"] == 3
    assert data["headline"] == "rhp" and set(data["diff_vs"]) == {"rhp_alone"}
    assert data["by_agent"]["rhp"]["transport_rate"] > 0


class _Played(Exception):
    """Raised by a stand-in executor once it has seen the jobs (no episode is played)."""


@pytest.mark.parametrize("args, worlds, seeds", [
    ([], "generated", list(range(24))),  # the default: 24 generated worlds from seed 0 (seeds 0*1000003 + i)
    (["--episodes", "3", "--seed", "2"], "generated", [2000006, 2000007, 2000008]),
    (["--fixed"], "fixed", list(range(24))),  # the 24 fixed episodes, by index
    (["--episodes-subset", "food-low"], "fixed", [0, 1, 2, 3, 4, 5]),
], ids=["default", "episodes-seed", "fixed", "subset"])
def test_cli_bench_transport_plays_generated_worlds_unless_fixed(monkeypatch, args, worlds, seeds):
    """The default run is at the study's scale (generated worlds); the smaller fixed episodes take --fixed
    or --episodes-subset."""
    from typer.testing import CliRunner

    import belief.app.bench.transport as bt
    from belief.app.cli import app

    seen = []

    def stand_in(job, jobs, *a, **k):
        seen.extend(jobs)
        raise _Played

    monkeypatch.setattr(bt, "run_tasks", stand_in)
    res = CliRunner().invoke(app, ["bench", "transport", "--agents", "rhp", "--no-progress", *args])
    assert isinstance(res.exception, _Played), res.output
    assert [s for _, s in seen] == seeds and {c["worlds"] for c, _ in seen} == {worlds}


@pytest.mark.parametrize("args, words", [
    (["--fixed", "--episodes", "3"], ("--fixed", "--episodes")),
    (["--fixed", "--worlds", "3"], ("--fixed", "--episodes")),  # the old name of --episodes
    (["--fixed", "--seed", "0"], ("--fixed", "--seed")),
    (["--episodes-subset", "0", "--seed", "4"], ("--episodes-subset", "--seed")),
    (["--episodes-subset", "0", "--episodes", "3"], ("--episodes-subset", "--episodes")),
], ids=["fixed-episodes", "fixed-worlds", "fixed-seed", "subset-seed", "subset-episodes"])
def test_cli_bench_transport_fixed_and_generated_options_conflict(monkeypatch, args, words):
    from typer.testing import CliRunner

    import belief.app.bench.transport as bt
    from belief.app.cli import app

    monkeypatch.setattr(bt, "run_tasks", lambda *a, **k: pytest.fail("episodes were played"))
    res = CliRunner().invoke(app, ["bench", "transport", "--agents", "rhp", "--no-progress", *args])
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit), res.output
    errs = [ln for ln in res.stderr.splitlines() if ln.startswith("error:")]
    assert len(errs) == 1 and all(w in errs[0] for w in words), res.stderr
    assert res.stdout == ""


def test_bench_refuses_fixed_episodes_and_generated_worlds_together():
    from belief.app.bench.transport import bench
    from belief.errors import BeliefError

    with pytest.raises(BeliefError, match="not both"):
        bench([0], ("rhp",), worlds=2)


def test_llm_message_writer_keeps_facts_and_falls_back_offline():
    from belief.errors import BeliefError

    class Reply:
        text = "I'll grab the apple in the office."

    class Fake:
        def chat(self, messages, max_tokens=None):
            return Reply()

    class Down:
        def chat(self, messages, max_tokens=None):
            raise BeliefError("no endpoint")

    default = "apple_1 IN office_1\nPLAN alice: grasp apple_1"
    text = tc.llm_message_writer(Fake())(["apple_1 IN office_1"], "grasp apple_1", default)
    assert text.splitlines()[:2] == default.splitlines() and "grab the apple" in text
    assert tc.llm_message_writer(Down())(["apple_1 IN office_1"], "grasp apple_1", default) == default


_BENCH_SNIPPET = """
import json
from belief.app.bench.transport import bench, to_json_line
s = bench([0, 12], ("coela", "cobel"), workers=1)
for r in s["results"]:
    r["planner"].pop("seconds")
print(json.dumps({"line": json.loads(to_json_line(s)), "results": s["results"]}, sort_keys=True))
"""


def test_bench_is_the_same_under_any_string_hash_seed():
    """Regression: pyperplan grounds from sets of strings, so its plan (which of two targets in one room
    it grasps first) followed PYTHONHASHSEED and the bench figures differed between processes."""
    procs = [subprocess.Popen([sys.executable, "-c", _BENCH_SNIPPET], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONHASHSEED": seed})
             for seed in ("1", "2")]
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        outs.append(json.loads(out.strip().splitlines()[-1]))
    line = outs[0]["line"]
    assert line["by_agent"]["coela"]["message_tokens"] > 0
    pv = line["extra"]["prediction_vs_persistence"]  # both accuracies printed, for the predicting agents only
    assert set(pv) == {"cobel"} and 0 <= pv["cobel"]["prediction"] <= 1 and 0 <= pv["cobel"]["persistence"] <= 1
    assert line["extra"]["message_tokens"]["coela"] > 0
    assert outs[0]["results"] == outs[1]["results"]
    assert outs[0]["line"] == outs[1]["line"]


def test_cli_transport_bad_output_paths_are_one_error_line(tmp_path):
    """Regression: --plot with an unknown file type or a missing directory, --results and --trace in a
    missing directory, and an empty --episodes-subset gave raw tracebacks (or a silent 0-episode run)."""
    from typer.testing import CliRunner

    from belief.app.cli import app

    base = ["bench", "transport", "--episodes-subset", "0", "--agents", "rhp", "--workers", "1"]
    missing = tmp_path / "no" / "such"
    cases = [(base + ["--plot", str(tmp_path / "p.foo")], 2),
             (base + ["--plot", str(missing / "p.png")], 1),
             (base + ["--results", str(missing / "r.json")], 1),
             (["run", "transport", "--episode", "0", "--agents", "rhp", "--max-steps", "3",
               "--trace", str(missing / "t.jsonl")], 1),
             (["bench", "transport", "--episodes-subset", "5-2", "--agents", "rhp"], 2),
             (["bench", "transport", "--episodes", "3", "--episodes-subset", "0", "--agents", "rhp"], 2),
             (["bench", "transport", "--agents", "cobel+nobody"], 2)]
    for args, code in cases:
        res = CliRunner().invoke(app, args)
        assert res.exit_code == code, (args, res.output)
        assert isinstance(res.exception, SystemExit), (args, res.exception)
        errs = [ln for ln in res.stderr.splitlines() if ln.startswith("error:")]
        assert len(errs) == 1 and "Traceback" not in res.stderr, res.stderr


def test_bench_feeds_each_view_to_update_once(monkeypatch):
    """Regression: run_episode folded every step's views into the beliefs (_absorb) and then act() read
    the same views again, so each observation was processed twice (in LLM mode: two translation
    requests per observation). Only the views after the final step are absorbed outside act()."""
    from collections import Counter

    import belief.agents.transport.cobel as tc
    from belief.app.runners.transport import run_episode

    seen = Counter()
    orig = tc.update

    def counting(state, view, config):
        seen[(state.me, view["frame"], repr(view["events"]), repr(view["messages"]))] += 1
        return orig(state, view, config)

    monkeypatch.setattr(tc, "update", counting)
    run_episode(0, "cobel", "greedy", max_steps=30)
    assert seen and max(seen.values()) == 1, [k for k, v in seen.items() if v > 1][:3]


def test_cobel_voi_message_follows_the_predicted_overlap():
    """Value of information: with nothing to tell, my plan and position are worth a message only when the
    teammate is predicted to duplicate my subgoal where I have priority; predicted elsewhere, silence."""
    from belief.agents.transport.messages import fact_values

    s = tc.initial_state("alice", TASK)
    s.store.apply(["alice BELIEVE apple_1 IN office_1", "alice BELIEVE bob BELIEVE apple_1 IN office_1"])
    s.room, s.models["bob"].room = "office_1", "kitchen_1"  # alice is closer: she has priority
    goal = tc.Goal("fetch", ("apple_1",))
    s.models["bob"].goal_prob = {("fetch", "apple_1"): 0.8, ("explore", "living_room_1"): 0.2}
    _, _, _, overlaps = tc.detect(s, tc.PRESETS["cobel"], goal)
    assert overlaps == [("bob", pytest.approx(0.8), True)]
    msg, s2 = tc.cobel_message(s, goal, tc.PRESETS["cobel"], overlaps)
    assert msg is not None and "PLAN alice: grasp apple_1" in msg and "I am in office_1." in msg
    assert tc.cobel_message(s2, goal, tc.PRESETS["cobel"], overlaps)[0] is None  # told: nothing new to say
    s.models["bob"].goal_prob = {("explore", "living_room_1"): 1.0}
    _, _, _, overlaps = tc.detect(s, tc.PRESETS["cobel"], goal)
    assert overlaps == [] and tc.cobel_message(s, goal, tc.PRESETS["cobel"], overlaps)[0] is None
    # a search level bob lacks is worth more the likelier he is predicted to search that room
    s.store.apply(["alice BELIEVE living_room_1 EXPLORED all"])
    likely = fact_values(s, "bob", goal)[("explored", "living_room_1", "all")]
    s.models["bob"].goal_prob = {("explore", "bedroom_1"): 1.0}
    unlikely = fact_values(s, "bob", goal)[("explored", "living_room_1", "all")]
    assert likely == pytest.approx(2 * tw.EXPLORE) and unlikely < likely
