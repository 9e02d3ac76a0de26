"""Issue 30 measurements on transport: the study's ablations, partner prediction scored as a distribution
against information-matched predictors, ground-truth miscoordination and detection precision / recall.
Gold values are worked by hand on small records."""

import json
import math
from types import SimpleNamespace

import pytest

from belief.agents.transport import cobel as tc
from belief.agents.transport.partner import matched_predictors
from belief.app.results.scoring import log_loss, outcome_probability, top_hit
from belief.errors import BeliefError

from tests.agents.transport.test_agents import TASK  # the same small four-room task


def view(room="kitchen_1", events=(), present=(), messages=(), frame=0):
    return {"agent": "alice", "frame": frame, "budget": 3000, "room": room, "idle": True, "explored": "none",
            "holding": [], "contents": {}, "present": list(present), "visible": {},
            "events": list(events), "messages": list(messages), "feedback": None}


# --- scoring a distribution -----------------------------------------------------------------------

def test_scoring_by_hand():
    dist = {"a": 0.5, "b": 0.5}
    # (1 - 0.2) * 0.5 + 0.2 * 1/4
    assert outcome_probability(dist, {"a"}, 4, eps=0.2) == pytest.approx(0.45)
    assert log_loss(dist, {"a"}, 4, eps=0.2) == pytest.approx(-math.log(0.45))
    # an outcome of two keys gets the mass of both; one outside the prediction gets only the smoothing
    assert outcome_probability(dist, {"a", "b"}, 4, eps=0.2) == pytest.approx(0.8 + 0.2 * 2 / 4)
    assert outcome_probability(dist, {"c"}, 4, eps=0.2) == pytest.approx(0.05)
    assert outcome_probability({"a": 2.0, "b": 6.0}, {"a"}, 4, eps=0.2) == pytest.approx(0.8 * 0.25 + 0.05)
    assert top_hit({"a": 0.4, "b": 0.4, "c": 0.2}, {"a"}) == 0.5  # ties shared
    assert top_hit({"a": 0.7, "b": 0.3}, {"b"}) == 0.0 and top_hit({}, {"a"}) == 0.0
    for bad in ({"universe": 0}, {"eps": 0.0}, {"eps": 1.5}):
        with pytest.raises(BeliefError):
            outcome_probability(dist, {"a"}, **{"universe": 4, "eps": 0.1, **bad})
    with pytest.raises(BeliefError):
        log_loss({"a": -0.1}, {"a"}, 4)


# --- information-matched predictors ----------------------------------------------------------------

def _with_goal_prob(s, dist):
    s.models["bob"].goal_prob = dist
    return s


def test_matched_predictors_use_only_what_the_agent_saw_or_was_told():
    support = {("explore", "office_1"): 0.6, ("explore", "kitchen_1"): 0.1, ("fetch", "apple_1"): 0.2,
               ("fetch", "bread_1"): 0.1}
    s = _with_goal_prob(tc.initial_state("alice", TASK), dict(support))
    m = matched_predictors(s, "bob")
    assert m["last_seen"] == m["uniform"] == {g: 0.25 for g in support}  # nothing perceived yet
    # frequent, no counts: add-one over the two feasible kinds, each spread over its two keys
    assert m["frequent"] == {g: 0.25 for g in support}
    # alice watches bob search the kitchen
    s = tc.update(s, view(present=["bob"], events=[("searched", "bob", "kitchen_1", "part")], frame=100))
    s = _with_goal_prob(s, dict(support))
    m = matched_predictors(s, "bob")
    assert m["last_seen"] == {("explore", "kitchen_1"): 1.0}
    # kinds: explore seen once -> weights explore 2, fetch 1 (add-one), each over two keys
    assert m["frequent"][("explore", "office_1")] == pytest.approx(2 / 3 / 2)
    assert m["frequent"][("fetch", "apple_1")] == pytest.approx(1 / 3 / 2)
    # then bob tells its plan: the told plan is now the last subgoal perceived
    s = tc.update(s, view(room="office_1", messages=[("bob", "PLAN bob: grasp apple_2, bread_1", 150)], frame=160))
    s = _with_goal_prob(s, dict(support))
    m = matched_predictors(s, "bob")
    assert m["last_seen"] == {("fetch", "apple_2"): 0.5, ("fetch", "bread_1"): 0.5}
    assert s.models["bob"].kinds == {"explore": 1, "fetch": 1}
    # alice watches bob grasp apple_1: only the kind is seen, spread over the feasible fetches
    s = tc.update(s, view(room="office_1", present=["bob"], frame=200,
                          events=[("saw", "in", "apple_1", "bob", ("alice", "bob"))]))
    s = _with_goal_prob(s, dict(support))
    assert matched_predictors(s, "bob")["last_seen"] == {("fetch", "apple_1"): 0.5, ("fetch", "bread_1"): 0.5}
    assert s.models["bob"].kinds == {"explore": 1, "fetch": 2}


# --- ground truth from the global record ------------------------------------------------------------

def _agent(decisions, intended=None, checks=(), threshold=0.35):
    return SimpleNamespace(decisions=decisions, intended=intended or [k for _, k in decisions], checks=list(checks),
                           config=SimpleNamespace(conflict_threshold=threshold))


def test_overlap_events_count_each_newly_shared_key_once():
    from belief.app.runners.transport import _overlap_events

    a = _agent([(0, {("fetch", "x")}), (50, {("fetch", "x")}), (90, {("explore", "r")}), (200, {("deliver",)})])
    b = _agent([(10, {("fetch", "x"), ("fetch", "y")}), (60, {("fetch", "y")}), (100, {("explore", "r")}),
                (210, {("deliver",)})])
    # x shared from frame 10 (one event, still shared at 50); r shared from 100; delivering is not duplicated work
    assert _overlap_events({"alice": a, "bob": b}) == 2


def test_detection_precision_and_recall_against_the_teammates_intended_subgoal():
    from belief.app.runners.transport import _detection_scores

    bob = _agent([(0, {("fetch", "y")}), (100, {("explore", "r")}), (300, {("fetch", "z")})],
                 intended=[{("fetch", "x")}, {("explore", "r")}, {("fetch", "z")}])
    alice = _agent([(0, set())], checks=[
        (0, "bob", {("fetch", "x")}, 0.5),    # bob intended x (it yielded to y): a true detection
        (50, "bob", {("fetch", "q")}, 0.4),   # bob's next intends r: a false alarm
        (100, "bob", {("explore", "r")}, 0.1),  # missed
        (250, "bob", {("fetch", "w")}, 0.0),  # rightly quiet
        (400, "bob", {("fetch", "z")}, 0.9),  # bob decides nothing after 400: not scored
    ])
    out = _detection_scores({"alice": alice, "bob": bob})
    assert out["detection_counts"] == {"tp": 1, "fp": 1, "fn": 1, "tn": 1}
    assert out["detection_precision"] == 0.5 and out["detection_recall"] == 0.5
    assert _detection_scores({"bob": bob})["detection_precision"] is None


class _Store:
    def __init__(self, held):
        self.held = held

    def value(self, chain, pred, subj):
        return self.held.get((pred, subj))


def test_false_belief_acts_need_a_teammate_who_knew():
    from belief.app.runners.transport import _FalseBeliefs

    world = SimpleNamespace(location={"x": "bob", "y": "kitchen_1"}, explored={"r": 2, "s": 1})
    alice = SimpleNamespace(decisions=[], state=SimpleNamespace(store=_Store(
        {("in", "x"): "kitchen_1", ("in", "y"): "office_1", ("explored", "r"): "part", ("explored", "s"): "none"})))
    bob = SimpleNamespace(decisions=[], state=SimpleNamespace(store=_Store(
        {("in", "x"): "bob", ("explored", "r"): "all", ("explored", "s"): "part"})))
    agents = {"alice": alice, "bob": bob}
    fb = _FalseBeliefs(agents)
    alice.decisions.append((0, {("fetch", "x"), ("fetch", "y")}))  # x: bob holds it and knows (1); y: nobody knew
    fb.check(agents, world)
    assert fb.count == 1
    fb.check(agents, world)  # no new decision: nothing counted again
    alice.decisions.append((10, {("fetch", "x"), ("explore", "r")}))  # x is not new; r searched fully, bob knew
    fb.check(agents, world)
    assert fb.count == 2
    alice.decisions.append((20, {("explore", "s")}))  # s is not searched fully: no false belief
    fb.check(agents, world)
    assert fb.count == 2


def test_detection_savings_by_hand():
    from belief.app.bench.transport import detection_savings

    def row(world, curve, detections=0):
        return {"world": world, "transport_curve": curve, "transported": curve[-1][1] if curve else 0,
                "detections": detections}

    by_kind = {"cobel": [row("w1", [[100, 2], [500, 4]], 10), row("w2", [[900, 3]], 10)],
               "cobel_nobbc": [row("w1", [[300, 2], [800, 3]]), row("w2", [[700, 4]])]}
    out = detection_savings(by_kind)
    # w1: nobbc reached 3 at 800, cobel at 500: +300; w2: nobbc 4 at 700, cobel never (budget 3000): -2300
    assert out["frames_saved"]["mean"] == pytest.approx((300 - 2300) / 2)
    assert out["frames_per_detection"]["mean"] == pytest.approx(-2000 / 20)
    assert out["more_targets"]["mean"] == pytest.approx((1 - 1) / 2)
    assert detection_savings({"cobel": by_kind["cobel"]}) is None


# --- the bench carries the study's rows -------------------------------------------------------------

def test_ablations_switch_off_one_thing():
    p = tc.PRESETS
    assert p["cobel_nobbc"] == tc.Config(comm="messenger", partner_model=False, detect=False)
    assert p["cobel_nopartner"] == tc.Config(partner_model=False, detect=False, first_order=False)
    assert p["silent"] == tc.Config(comm="none")


def test_bench_default_agents_match_the_runner():
    from belief.app.cli.transport import DEFAULT_AGENTS as CLI
    from belief.app.runners.transport import DEFAULT_AGENTS

    assert CLI.split(",") == list(DEFAULT_AGENTS)
    assert {"cobel_nobbc", "cobel_nopartner", "silent", "rhp_alone", "rhp", "coela", "messenger"} <= set(DEFAULT_AGENTS)


def test_bench_default_world_count_matches_the_library():
    from belief.app.bench.transport import DEFAULT_WORLDS
    from belief.app.cli.transport import DEFAULT_WORLDS as CLI

    assert CLI == DEFAULT_WORLDS >= 2


def test_bench_json_has_the_task_kinds_prediction_and_detection_tables():
    from typer.testing import CliRunner

    from belief.app.cli import app

    res = CliRunner().invoke(app, ["bench", "transport", "--episodes-subset", "0,6", "--agents",
                                   "cobel,cobel_nobbc", "--planner", "greedy", "--workers", "1", "--no-tom",
                                   "--json", "--no-progress"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout.strip().splitlines()[-1])
    extra = data["extra"]
    assert "tom" not in extra and extra["ablations"] == {"cobel_nobbc": extra["ablations"]["cobel_nobbc"]}
    assert {"food-low", "food-high"} <= set(extra["by_category"]["cobel"])  # episodes 0 and 6
    table = extra["prediction"]["cobel"]
    assert set(table) == {"bayes", "last_seen", "frequent", "uniform", "persistence_oracle", "bayes_lapse"}
    n = table["bayes"]["all"]["n"]
    assert n > 0 and all(table[k]["all"]["n"] == n for k in table)
    split = [table["bayes"][sp]["n"] for sp in ("in_sight", "out_of_sight") if table["bayes"][sp]]
    assert sum(split) == n
    assert "cobel_nobbc" not in extra["prediction"]  # no partner model, no prediction
    det = extra["detection"]["cobel"]
    assert det["tp"] + det["fp"] + det["fn"] + det["tn"] > 0
    assert extra["detection_savings"]["against"] == "cobel_nobbc" and extra["detection_savings"]["worlds"] == 2
    assert data["diff_vs"]["cobel_nobbc"]["transport_rate"]["n"] == 2
