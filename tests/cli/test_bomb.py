import csv
import json

import pytest
from typer.testing import CliRunner

from belief.app.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def belief_run(tmp_path_factory):
    """One `belief run bomb --json --out` of a belief team (3 episodes), read by the tests below (they only read
    it): its printed output and its directory."""
    out = tmp_path_factory.mktemp("belief_run")
    r = runner.invoke(app, ["run", "bomb", "--agents", "belief", "--episodes", "3", "--seed", "0", "--json",
                            "--no-progress", "--out", str(out)])
    assert r.exit_code == 0, r.output
    return r, out


def test_run_bomb_json_last_line_and_flat_results(belief_run):
    r, out = belief_run
    last = json.loads(r.stdout.strip().splitlines()[-1])
    assert set(last) == {"episodes", "score", "rounds", "valid_action_rate", "completed", "questions", "unreadable",
                         "tom_accuracy", "extra"}
    assert last["episodes"] == 3 and last["score"] == 90 and last["valid_action_rate"] == 1.0
    assert set(last["tom_accuracy"]) == {"introspection", "first_order", "second_order"}
    assert all(0.5 < v <= 1.0 for v in last["tom_accuracy"].values())  # fractions, not percents
    assert "valid actions" in r.stdout and "Introspection" in r.stdout
    assert (out / "bomb_0.trace.jsonl").exists() and (out / "bomb_2.answers.jsonl").exists()
    assert json.loads((out / "summary.json").read_text()) == last

    episodes = [json.loads(x) for x in (out / "episodes.jsonl").read_text().splitlines()]
    assert [e["episode"] for e in episodes] == ["bomb_0", "bomb_1", "bomb_2"]
    with open(out / "episodes.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["seed"] for r in rows] == ["0", "1", "2"] and rows[0]["completed"] == "true"
    assert float(rows[0]["accuracy_first_order"]) == episodes[0]["accuracy_first_order"]

    questions = [json.loads(x) for x in (out / "questions.jsonl").read_text().splitlines()]
    assert len(questions) == last["questions"] == sum(e["questions"] for e in episodes)
    q = questions[0]
    for key in ("gold", "answer", "reading", "correct", "order", "level", "template", "agent", "episode"):
        assert key in q
    # one vocabulary with `belief grade --out`: gold is the text yes/no, order the length of the belief chain
    assert q["gold"] in ("yes", "no") and isinstance(q["answer"], str) and q["reading"] in ("yes", "no", "none")
    assert all(x["correct"] == (x["reading"] == x["gold"]) for x in questions)
    orders = {x["level"]: {y["order"] for y in questions if y["level"] == x["level"]} for x in questions}
    # the study's "is X aware that you changed Bomb b" asks what X knows (who defused it): a chain of one
    assert orders == {"introspection": {1}, "first_order": {1}, "second_order": {1, 2}, None: {1, 2, 3, 4}}
    assert {x["set"] for x in questions if x["level"] is None} == {"selected"}
    right = sum(x["correct"] for x in questions if x["level"] == "first_order")
    total = sum(x["level"] == "first_order" for x in questions)
    assert last["tom_accuracy"]["first_order"] == right / total
    with open(out / "questions.csv", newline="") as f:
        qrows = list(csv.DictReader(f))
    assert len(qrows) == len(questions) and qrows[0]["gold"] in ("yes", "no")
    assert qrows[0]["answer"] == q["answer"]
    # the answers files name their episode (ids repeat across episodes)
    answers = [json.loads(x) for x in (out / "bomb_2.answers.jsonl").read_text().splitlines()]
    assert {a["episode"] for a in answers} == {"bomb_2"}


def test_run_bomb_tom_table_beside_trivial_answerers(belief_run):
    """extra.tom: the agents beside every shortcut of the panel per template (the study and probe sets by level,
    the selected templates), each type flagged ToM or not by its best shortcut, with the agents' margin over
    it; extra.tom_levels: the study's three levels (Table 2)."""
    from belief.grading.shortcuts import QUESTION_SHORTCUTS
    from belief.grading.trivial import TRIVIAL_LIMIT

    r, out = belief_run
    last = json.loads(r.stdout.strip().splitlines()[-1])
    tom, levels = last["extra"]["tom"], last["extra"]["tom_levels"]
    assert set(tom["answerers"]) == {"belief", "majority", *QUESTION_SHORTCUTS}
    assert set(levels["by_type"]) == {"introspection", "first_order", "second_order"}
    assert {f"study/{lvl}" for lvl in levels["by_type"]} <= set(tom["by_type"])
    assert {"knows/contents", "knows/bomb"} <= set(tom["by_type"])
    for table in (tom, levels):
        for kind, entry in table["by_type"].items():
            best = max(entry[a]["accuracy"] for a in ("majority", *QUESTION_SHORTCUTS))
            assert entry["trivial_best"] == best and entry["tom"] == (best <= TRIVIAL_LIMIT), kind
            assert abs(sum(entry["gold"].values()) - 1.0) < 1e-9
            m = entry["margin"]
            assert m["over"] == entry["best_shortcut"] and m["n"] == entry["n"]
    for lvl, acc in last["tom_accuracy"].items():  # the agents' column is Table 2's figure
        assert levels["by_type"][lvl]["belief"]["accuracy"] == acc
    assert "ToM?" in r.stdout and "best shortcut" in r.stdout

    questions = [json.loads(x) for x in (out / "questions.jsonl").read_text().splitlines()]
    assert all(q[s] in ("yes", "no") for q in questions for s in QUESTION_SHORTCUTS)
    said = lambda q: q["gold"] if q["correct"] else q["reading"]  # noqa: E731
    selected = [q for q in questions if q["set"] == "selected"]
    assert selected
    # as_self is the asked agent's own knowledge, not a copy of the agent's answer about its teammate
    assert any(q["as_self"] != said(q) for q in selected)


def test_run_bomb_bad_agents(tmp_path):
    r = runner.invoke(app, ["run", "bomb", "--agents", "gpt", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "--agents" in r.stderr
