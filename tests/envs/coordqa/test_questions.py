import json
import random

from typer.testing import CliRunner

from belief.app.cli import app
from belief.app.runners.maze import MazeConfig, play_episode, snapshot
from belief.envs.maze import capture as capture_v0
from belief.envs.maze import escape as escape_v0
from belief.agents.maze.belief import MazeBeliefAgent
from belief.envs.coordqa.questions import best_actions, ec_answer, plan_questions
from belief.grading.questions import question_from_dict
from belief.grading.report import grade_questions, grade_trace


def test_best_actions_are_first_steps_of_shortest_plans():
    e = capture_v0.raw_env(rules="project", seed=3)
    m = e.maze
    gold = best_actions(m, m.pos["alice"], {m.pos["thief"]})
    d = m.distances(m.pos["thief"])
    for name in gold:
        nxt = m.step_to(m.pos["alice"], name)
        assert nxt is not None and d[nxt] == d[m.pos["alice"]] - 1
    assert best_actions(m, "room_4", {"room_4"}) == ("stay",)


def test_best_actions_use_a_button_when_the_only_way_is_shut(shut_door_maze):
    m, a, b = shut_door_maze
    assert best_actions(m, a, {b}) == ("press",)


def test_plan_questions_are_given_questions_graded_by_the_general_path():
    e = escape_v0.raw_env(rules="project", seed=2)
    qs = plan_questions(snapshot(e, "escape"), "alice", len(e.trace) - 1, "q", random.Random(0))
    assert {q.category for q in qs} == {"EC", "JP"} and {q.kind for q in qs} == {"given"}
    # a questions file round trip: the boundary model reads back what to_json writes
    assert [question_from_dict(q.to_json())[0] for q in qs] == qs
    right = {q.id: ("Yes." if q.gold[0] == "yes" else "No." if q.gold[0] == "no" else f"I'd say {q.gold[0]}.")
             for q in qs}
    rep = grade_questions(None, qs, right)
    assert rep.summary()["accuracy"] == 1.0 and rep.summary()["by_category"]["JP"]["questions"] == 1
    wrong = grade_questions(None, qs, {q.id: "banana" for q in qs}).summary()
    assert wrong["correct"] == 0 and wrong["unreadable"] == len(qs)


def test_one_grade_call_grades_a_whole_coordqa_file_set(tmp_path):
    r = CliRunner().invoke(app, ["coordqa", "capture", "--seed", "1", "--out", str(tmp_path), "--json"])
    assert r.exit_code == 0, r.output
    files = json.loads(r.stdout.strip().splitlines()[-1])["files"]
    g = CliRunner().invoke(app, ["grade", files["trace.jsonl"], files["answers.jsonl"], "--questions",
                                 files["questions.jsonl"], "--json", "--no-progress"])
    assert g.exit_code == 0, g.output
    s = json.loads(g.stdout.strip().splitlines()[-1])
    assert set(s["by_category"]) == {"EC", "ToM", "JP"} and s["unknown_ids"] == []
    assert all(c["missing"] == 0 and c["unreadable"] == 0 for c in s["by_category"].values())
    assert s["by_category"]["JP"]["answered"] > 0 and s["by_category"]["EC"]["answered"] > 0
    # Alice answers her JP question with the action she takes: right when it starts a shortest plan
    rows = json.loads(r.stdout.strip().splitlines()[-1])["jp_agreement"]
    assert s["by_category"]["JP"]["answered_only"] == rows


def test_tom_questions_are_graded_by_the_general_checker_path():
    r = play_episode(MazeConfig(game="capture", agents="belief"), 5, keep=True)
    rep = grade_trace(r["_trace"], r["_tom"], r["_answers"])
    assert len(rep.rows) == len(r["_tom"]) > 0
    assert {row["level"] for row in rep.rows} == {"introspection", "first_order", "second_order"}
    assert {row["gold"] for row in rep.rows if row["kind"] == "knows"} <= {"yes", "no"}


def test_both_players_answer_every_ec_and_jp_question_about_their_own_state():
    for game, kind in (("capture", "baseline"), ("escape", "belief")):
        r = play_episode(MazeConfig(game=game, agents=kind), 4, keep=True)
        rep = grade_trace(r["_trace"], r["_tom"] + r["_plan"], r["_answers"])
        assert rep.missing() == [] and r["missing"] == 0
        assert [row for row in rep.unreadable() if row["category"] != "ToM"] == []  # the baseline abstains on ToM
        jp = [q for q in r["_plan"] if q.category == "JP"]
        assert {q.agent for q in jp} == {"alice", "bob"} and {q.agent for q in r["_plan"] if q.category == "EC"} == {"alice", "bob"}
        # Bob's JP question is about the state after Alice's move: a later event than the round's EC questions
        round0 = [q for q in r["_plan"] if q.id.startswith("r0-")]
        ec_time = next(q.time for q in round0 if q.category == "EC")
        assert next(q.time for q in round0 if q.id == "r0-bob-jp") > ec_time
        assert sum(r["coordqa"]["JP"]) and r["coordqa"]["JP"][0] / r["coordqa"]["JP"][1] == r["jp_agreement"]


def test_ec_answers_come_from_the_players_belief_not_the_world():
    e = capture_v0.raw_env(rules="project", seed=3)
    world = e.maze
    q = next(q for k in range(50) for q in plan_questions(snapshot(e, "capture"), "alice", 0, "q", random.Random(k))
             if q.template == "reach_if_closed" and q.gold == ("yes",))
    right = ec_answer(q.to_json(), world, {world.pos["thief"]})
    assert grade_questions(None, [q], {q.id: right}).summary()["correct"] == 1
    # a player who believes every door shut answers "no" from that belief, and is graded wrong
    believed = world.copy()
    believed.open = {d: False for d in believed.doors}
    wrong = ec_answer(q.to_json(), believed, {world.pos["thief"]})
    row = grade_questions(None, [q], {q.id: wrong}).rows[0]
    assert row["reading"] == "no" and not row["correct"]


def test_the_belief_agent_answers_move_questions_from_the_doors_it_believes():
    e = capture_v0.raw_env(rules="project", seed=2)
    agent = MazeBeliefAgent("alice", "bob", "thief", e.layout_meta())
    agent.perceive(e.take_perceived("alice"))
    room = e.maze.pos["alice"]
    direction, door, other = e.maze.exits(room)[0]
    q = {"category": "EC", "text": f"Alice is in {room}. Where does Alice get by moving {direction}?"}
    agent.tracker.maze.open[door] = True
    assert agent.answer(q) == f"To {other}."
    agent.tracker.maze.open[door] = False  # what it would answer had it seen the door shut
    assert agent.answer(q).startswith("Nowhere")
