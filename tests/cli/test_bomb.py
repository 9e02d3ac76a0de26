import csv
import json

from typer.testing import CliRunner

from belief.app.cli import app

runner = CliRunner()


def test_run_bomb_json_last_line_and_flat_results(tmp_path):
    r = runner.invoke(app, ["run", "bomb", "--agents", "belief", "--episodes", "3", "--seed", "0", "--json",
                            "--no-progress", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    last = json.loads(r.stdout.strip().splitlines()[-1])
    assert set(last) == {"episodes", "score", "rounds", "valid_action_rate", "completed", "questions", "unreadable",
                         "tom_accuracy"}
    assert last["episodes"] == 3 and last["score"] == 90 and last["valid_action_rate"] == 1.0
    assert set(last["tom_accuracy"]) == {"introspection", "first_order", "second_order"}
    assert all(0.5 < v <= 1.0 for v in last["tom_accuracy"].values())  # fractions, not percents
    assert "valid actions" in r.stdout and "Introspection" in r.stdout
    assert (tmp_path / "bomb_0.trace.jsonl").exists() and (tmp_path / "bomb_2.answers.jsonl").exists()
    assert json.loads((tmp_path / "summary.json").read_text()) == last

    episodes = [json.loads(x) for x in (tmp_path / "episodes.jsonl").read_text().splitlines()]
    assert [e["episode"] for e in episodes] == ["bomb_0", "bomb_1", "bomb_2"]
    with open(tmp_path / "episodes.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["seed"] for r in rows] == ["0", "1", "2"] and rows[0]["completed"] == "true"
    assert float(rows[0]["accuracy_first_order"]) == episodes[0]["accuracy_first_order"]

    questions = [json.loads(x) for x in (tmp_path / "questions.jsonl").read_text().splitlines()]
    assert len(questions) == last["questions"] == sum(e["questions"] for e in episodes)
    q = questions[0]
    for key in ("gold", "answer", "reading", "correct", "order", "level", "template", "agent", "episode"):
        assert key in q
    # one vocabulary with `belief grade --out`: gold is the text yes/no, order the length of the belief chain
    assert q["gold"] in ("yes", "no") and isinstance(q["answer"], str) and q["reading"] in ("yes", "no", "none")
    assert all(x["correct"] == (x["reading"] == x["gold"]) for x in questions)
    orders = {x["level"]: {y["order"] for y in questions if y["level"] == x["level"]} for x in questions}
    assert orders == {"introspection": {1}, "first_order": {1}, "second_order": {2}}
    right = sum(x["correct"] for x in questions if x["level"] == "first_order")
    total = sum(x["level"] == "first_order" for x in questions)
    assert last["tom_accuracy"]["first_order"] == right / total
    with open(tmp_path / "questions.csv", newline="") as f:
        qrows = list(csv.DictReader(f))
    assert len(qrows) == len(questions) and qrows[0]["gold"] in ("yes", "no")
    assert qrows[0]["answer"] == q["answer"]
    # the answers files name their episode (ids repeat across episodes)
    answers = [json.loads(x) for x in (tmp_path / "bomb_2.answers.jsonl").read_text().splitlines()]
    assert {a["episode"] for a in answers} == {"bomb_2"}


def test_run_bomb_bad_agents(tmp_path):
    r = runner.invoke(app, ["run", "bomb", "--agents", "gpt", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "--agents" in r.stderr
