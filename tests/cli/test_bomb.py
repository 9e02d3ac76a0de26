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
                         "tom_accuracy", "extra"}
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


def test_run_bomb_tom_table_beside_trivial_answerers(tmp_path):
    """extra.tom: the agents beside majority and "answer as yourself" per level (and per level/template), each type
    flagged ToM or not; as_self is the asked agent's own belief, not a copy of its answer about the teammate."""
    r = runner.invoke(app, ["run", "bomb", "--agents", "belief", "--episodes", "2", "--seed", "0", "--json",
                            "--no-progress", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    last = json.loads(r.stdout.strip().splitlines()[-1])
    tom, by_template = last["extra"]["tom"], last["extra"]["tom_by_template"]
    assert set(tom["answerers"]) == {"belief", "majority", "as_self"}
    assert set(tom["by_type"]) == {"introspection", "first_order", "second_order"}
    assert all(t.split("/")[0] in tom["by_type"] for t in by_template["by_type"])
    for table in (tom, by_template):
        for kind, entry in table["by_type"].items():
            best = max(entry["majority"]["accuracy"], entry["as_self"]["accuracy"])
            assert entry["tom"] == (best <= 0.8), kind
    for lvl, acc in last["tom_accuracy"].items():  # the agents' column is Table 2's figure
        assert tom["by_type"][lvl]["belief"]["accuracy"] == acc
        assert tom["by_type"][lvl]["belief"]["n"] == last["questions"] // 3
    assert "ToM?" in r.stdout and "as_self" in r.stdout

    questions = [json.loads(x) for x in (tmp_path / "questions.jsonl").read_text().splitlines()]
    assert all(q["as_self"] in ("yes", "no") for q in questions)
    said = lambda q: q["gold"] if q["correct"] else q["reading"]  # noqa: E731
    for lvl in ("first_order", "second_order"):
        assert any(q["as_self"] != said(q) for q in questions if q["level"] == lvl), lvl
        assert tom["by_type"][lvl]["as_self"]["accuracy"] != tom["by_type"][lvl]["belief"]["accuracy"]
    # on introspection the belief agent answers as itself: the two agree there
    assert all(q["as_self"] == said(q) for q in questions if q["level"] == "introspection")


def test_run_bomb_bad_agents(tmp_path):
    r = runner.invoke(app, ["run", "bomb", "--agents", "gpt", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "--agents" in r.stderr
