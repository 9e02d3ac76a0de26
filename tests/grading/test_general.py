"""Grading any trace: general questions (gold from the checker), rows and breakdowns, episode checks, the CLI."""

import csv
import json

import pytest
from typer.testing import CliRunner

from belief import examples
from belief.app.cli import app
from belief.truth.checker import check
from belief.envs.bomb.grading import bomb_questions, grade_bomb
from belief.errors import BeliefError
from belief.grading.files import load_answers, load_questions, read_complete_trace
from belief.grading.questions import GradingError, Question, gold_answer, parse_fluent, question_from_dict
from belief.grading.report import ROW_COLUMNS, episode_id, grade_questions, grade_trace
from belief.truth.trace import Enter, Move, Trace

TRACE = examples.path("grading_example.trace.jsonl")
QUESTIONS = examples.path("grading_example.questions.jsonl")
ANSWERS = examples.path("grading_example.answers.jsonl")


def _example():
    trace = read_complete_trace(TRACE)
    ep = episode_id(trace)
    return trace, load_questions(QUESTIONS, ep), load_answers(ANSWERS, ep)


def test_example_gold_answers_come_from_the_checker():
    trace, questions, _ = _example()
    truth = check(trace)
    gold = {q.id: gold_answer(truth, q) for q in questions}
    assert gold["reality"] == "box" and gold["sally-belief"] == "basket" and gold["anne-sally-belief"] == "basket"
    assert gold["sally-knows"] == "no" and gold["anne-knows"] == "yes"
    assert gold["sally-back"] == "box" and gold["sally-back-knows"] == "yes"  # she saw the box on coming back
    q = {q.id: q for q in questions}
    assert truth.value(("Sally",), ("in", "marble"), 3) == "basket" and q["sally-belief"].order == 1
    assert q["anne-sally-belief"].order == 2 and q["reality"].order == 0


def test_rows_summary_and_answered_only():
    trace, questions, answers = _example()
    rep = grade_trace(trace, questions, answers)
    rows = {r["id"]: r for r in rep.rows}
    assert set(ROW_COLUMNS) <= set(rows["reality"])
    assert rows["sally-knows"]["gold"] == "no" and rows["sally-knows"]["answer"] == "Definitely not."
    assert rows["sally-knows"]["reading"] == "no" and rows["sally-knows"]["correct"]
    assert rows["sally-aware"]["reading"] == "unreadable" and not rows["sally-aware"]["correct"]
    assert rows["sally-back"]["reading"] == "basket" and not rows["sally-back"]["correct"]
    s = rep.summary()
    assert s["episode"] == "sally-anne-1" and s["questions"] == 8 and s["correct"] == 6
    assert s["accuracy"] == pytest.approx(6 / 8) and s["answered_only"] == pytest.approx(6 / 7)
    assert s["unreadable"] == 1 and s["missing"] == 0
    assert s["by_order"]["2"]["questions"] == 2 and s["by_order"]["0"]["accuracy"] == 1.0
    assert s["by_template"]["knows"]["questions"] == 3 and s["by_agent"]["Anne"]["questions"] == 7


def test_missing_and_unknown_answers():
    trace, questions, _ = _example()
    rep = grade_trace(trace, questions, {"reality": "the box", "zzz": "yes"})
    s = rep.summary()
    assert s["missing"] == 7 and s["answered"] == 1 and s["answered_only"] == 1.0 and s["accuracy"] == 1 / 8
    assert rep.unknown_ids == ["zzz"]


def test_bomb_questions_are_general_questions_with_the_same_gold():
    """One grading path: the questions regenerated from the trace are the run's, and the batch checker on the
    whole trace gives the gold the run computed online (the tracker, as each turn ended)."""
    from belief.app.runners.bomb import run_episode

    for kinds, seed in (("random", 1), (["belief", "random", "belief"], 4)):
        m = run_episode(kinds, seed, max_rounds=6)
        general = bomb_questions(m["_trace"])
        truth = check(m["_trace"])
        assert [q.id for q in general] == [q.id for q in m["_questions"]]
        online = [q.gold if q.set == "selected" else ("yes" if q.answer else "no") for q in m["_questions"]]
        assert [gold_answer(truth, q) for q in general] == online
        assert {q.kind for q in general} == {"knows", "aware"}
        rep = grade_bomb(m["_trace"], m["_answers"])
        assert rep.summary()["by_level"].keys() == {"introspection", "first_order", "second_order"}


def test_episode_mismatch_is_refused(tmp_path):
    trace, _, _ = _example()
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({"id": "reality", "episode": "sally-anne-2", "answer": "box"}) + "\n")
    with pytest.raises(GradingError, match="another episode"):
        load_answers(other, episode_id(trace))
    unnamed = tmp_path / "unnamed.jsonl"
    unnamed.write_text(json.dumps({"id": "reality", "answer": "box"}) + "\n")
    with pytest.raises(GradingError, match="must name its episode"):
        load_answers(unnamed, episode_id(trace))
    qs = tmp_path / "q.jsonl"
    qs.write_text(json.dumps({"id": "a", "kind": "knows", "chain": ["Sally"], "fluent": "in(marble)",
                              "episode": "elsewhere"}) + "\n")
    with pytest.raises(GradingError, match="another episode"):
        load_questions(qs, episode_id(trace))


def test_episode_id_without_a_name_tells_runs_apart():
    a = Trace([Enter(agents=("A",), room="r"), Move(agent="A", object="o", to="box")], meta={"env": "toy", "seed": 1})
    b = Trace([Enter(agents=("A",), room="r"), Move(agent="A", object="o", to="bag")], meta={"env": "toy", "seed": 1})
    assert episode_id(a).startswith("toy-1-") and episode_id(a) != episode_id(b)
    assert episode_id(Trace(meta={"episode": "e7"})) == "e7"


@pytest.mark.parametrize("record,match", [
    ({"id": "x", "kind": "guess", "fluent": "in(marble)"}, "kind"),
    ({"id": "x", "kind": "knows", "fluent": "in(marble)", "chain": []}, "needs an agent"),
    ({"id": "x", "kind": "aware", "fluent": "in(marble)", "chain": ["Sally"]}, "two or more"),
    ({"id": "x", "kind": "value", "fluent": "marble"}, "predicate and a subject"),
    ({"id": "x", "kind": "value", "fluent": "in(marble)", "time": -2}, "time"),
    ({"id": "x", "kind": "value", "fluent": "in(marble)", "colour": "red"}, "colour"),
])
def test_bad_questions(record, match):
    with pytest.raises(GradingError, match=match):
        question_from_dict(record)


@pytest.mark.parametrize("question,match", [
    (Question("x", "knows", ("Bob",), ("in", "marble")), "agent 'Bob'"),
    (Question("x", "value", ("Sally",), ("in", "apple")), "fluent in\\(apple\\)"),
    (Question("x", "value", ("Sally",), ("in", "marble"), time=99), "after the trace's last event"),
])
def test_questions_the_trace_cannot_answer(question, match):
    trace, _, _ = _example()
    with pytest.raises(GradingError, match=match):
        grade_trace(trace, [question], {})


def test_fluent_spellings():
    assert parse_fluent("in(marble)") == parse_fluent("in marble") == parse_fluent(["in", "marble"]) == ("in", "marble")
    assert parse_fluent("near(apple, box)") == ("near", "apple", "box")


def _cli(*args):
    return CliRunner().invoke(app, ["grade", *map(str, args)])


def test_cli_general_path_writes_rows(tmp_path):
    out = tmp_path / "graded.csv"
    r = _cli(TRACE, ANSWERS, "--questions", QUESTIONS, "--out", out, "--json")
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    assert summary["accuracy"] == pytest.approx(0.75) and summary["answered_only"] == pytest.approx(6 / 7)
    rows = list(csv.DictReader(out.open()))
    assert list(rows[0]) == list(ROW_COLUMNS) and len(rows) == 8
    assert {r["id"]: r["gold"] for r in rows}["sally-belief"] == "basket"
    before = out.read_bytes()
    r = _cli(TRACE, ANSWERS, "--questions", QUESTIONS, "--out", out)
    assert r.exit_code == 1 and r.stderr.startswith("error:") and "--force" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and out.read_bytes() == before
    jl = tmp_path / "graded.jsonl"
    assert _cli(TRACE, ANSWERS, "--questions", QUESTIONS, "--out", jl).exit_code == 0
    assert json.loads(jl.read_text().splitlines()[0])["id"] == "reality"
    assert _cli(TRACE, ANSWERS, "--questions", QUESTIONS, "--out", jl, "--force").exit_code == 0


@pytest.mark.parametrize("case", ["other_episode", "cut_trace", "no_questions", "out_is_input", "bad_format"])
def test_cli_bad_input_is_one_error_line(case, tmp_path):
    args = [TRACE, ANSWERS, "--questions", QUESTIONS]
    if case == "other_episode":
        a = tmp_path / "a.jsonl"
        a.write_text(ANSWERS.read_text().replace("sally-anne-1", "sally-anne-2"))
        args[1] = a
    elif case == "cut_trace":
        t = tmp_path / "t.jsonl"
        t.write_text("".join(TRACE.read_text().splitlines(keepends=True)[:-1]))  # the end marker is lost
        args[0] = t
    elif case == "no_questions":
        args = args[:2]
    elif case == "out_is_input":
        a = tmp_path / "a.jsonl"
        a.write_text(ANSWERS.read_text())
        args = [TRACE, a, "--questions", QUESTIONS, "--out", a, "--force"]
    else:
        args += ["--out", tmp_path / "rows.txt"]
    r = _cli(*args)
    assert r.exit_code == 1, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and "Traceback" not in r.output
    assert not (tmp_path / "rows.txt").exists()


def test_cli_bomb_path_and_episode_check(tmp_path):
    from belief.app.runners.bomb import run_episode

    m0 = run_episode("belief", 2, max_rounds=4, out=tmp_path)
    m1 = run_episode("belief", 3, max_rounds=4, out=tmp_path)
    r = _cli(m0["files"]["trace"], m0["files"]["answers"], "--json")
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout.strip().splitlines()[-1])
    assert s["episode"] == "bomb_2" and s["questions"] == m0["questions"] and s["unreadable"] == 0
    r = _cli(m0["files"]["trace"], m1["files"]["answers"])  # same question ids, another episode
    assert r.exit_code == 1 and "another episode" in r.stderr


def test_library_errors_are_belief_errors():
    assert issubclass(GradingError, BeliefError)


def _given(**kw):
    return {"id": "g", "kind": "given", "time": 0, **kw}


def test_given_questions_state_their_gold_and_are_read_by_the_same_reader():
    qs = [question_from_dict(_given(id="jp", gold=["north", "press"], answer_type="choice",
                                    choices=["stay", "north", "press"], category="JP"))[0],
          question_from_dict(_given(id="ec", gold="no", answer_type="yes_no", category="EC"))[0],
          question_from_dict(_given(id="self", gold="no", answer_type="yes_no", chain=["Anne"], agent="Anne"))[0]]
    rep = grade_trace(read_complete_trace(TRACE), qs, {"jp": "I would press the button.", "ec": "Definitely not.",
                                                       "self": "I don't know."})
    rows = {r["id"]: r for r in rep.rows}
    assert rows["jp"]["gold"] == "north|press" and rows["jp"]["reading"] == "press" and rows["jp"]["correct"]
    assert rows["ec"]["reading"] == "no" and rows["ec"]["order"] is None
    assert rows["self"]["reading"] == "no"  # asked about oneself, as for a checker 'knows' question
    assert rep.summary()["by_category"].keys() == {"EC", "JP"}
    off = grade_trace(read_complete_trace(TRACE), qs[:1], {"jp": "I stay."}).rows[0]
    assert off["reading"] == "stay" and not off["correct"]


@pytest.mark.parametrize("record,message", [
    ({"id": "q", "kind": "knows", "chain": ["Sally"], "fluent": "in(marble)", "gold": "yes"}, "comes from the checker"),
    ({"id": "q", "kind": "value", "fluent": "in(marble)", "answer_type": "choice"}, "comes from the checker"),
    ({"id": "q", "kind": "knows", "chain": ["Sally"]}, "needs a 'fluent'"),
    (_given(answer_type="yes_no"), "needs its 'gold'"),
    (_given(gold="yes"), "answer_type"),
    (_given(gold="maybe", answer_type="yes_no"), "yes or no"),
    (_given(gold="room_9", answer_type="choice", choices=["room_1"]), "not one of the choices"),
    (_given(gold="room_1", answer_type="choice"), "needs its 'choices'"),
    (_given(gold="yes", answer_type="yes_no", fluent="in(marble)"), "no 'fluent'"),
    (_given(gold="yes", answer_type="maybe"), "answer_type"),
])
def test_question_records_are_validated_at_the_boundary(record, message):
    with pytest.raises(GradingError, match="invalid question") as e:
        question_from_dict(record)
    assert message in str(e.value)


def test_a_questions_file_cannot_supply_gold_for_a_checker_kind(tmp_path):
    qfile = tmp_path / "q.jsonl"
    qfile.write_text(json.dumps({"id": "reality", "kind": "value", "fluent": "in(marble)", "gold": "basket"}) + "\n")
    r = CliRunner().invoke(app, ["grade", str(TRACE), str(ANSWERS), "--questions", str(qfile), "--no-progress"])
    assert r.exit_code == 1 and "comes from the checker" in r.stderr and "Traceback" not in r.output


def test_checker_kinds_need_a_trace():
    q = Question("q", "knows", ("Sally",), ("in", "marble"))
    with pytest.raises(GradingError, match="needs a trace"):
        grade_questions(None, [q], {})
