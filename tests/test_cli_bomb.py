import json

from typer.testing import CliRunner

from belief.app.cli import app

runner = CliRunner()


def test_run_bomb_json_last_line(tmp_path):
    r = runner.invoke(app, ["run", "bomb", "--agents", "belief", "--episodes", "3", "--seed", "0", "--json",
                            "--no-progress", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    last = json.loads(r.stdout.strip().splitlines()[-1])
    assert set(last) == {"episodes", "score", "rounds", "valid_action_pct", "tom_accuracy"}
    assert last["episodes"] == 3 and last["score"] == 90
    assert set(last["tom_accuracy"]) == {"introspection", "first_order", "second_order"}
    assert all(50.0 < v <= 100.0 for v in last["tom_accuracy"].values())
    assert "valid action %" in r.stdout and "Introspection" in r.stdout
    assert (tmp_path / "bomb_0.trace.jsonl").exists() and (tmp_path / "bomb_2.answers.jsonl").exists()


def test_run_bomb_bad_agents(tmp_path):
    r = runner.invoke(app, ["run", "bomb", "--agents", "gpt", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "--agents" in r.stderr


def test_grade_command(tmp_path):
    runner.invoke(app, ["run", "bomb", "--episodes", "1", "--seed", "5", "--no-progress", "--out", str(tmp_path)])
    trace, answers = tmp_path / "bomb_5.trace.jsonl", tmp_path / "bomb_5.answers.jsonl"
    r = runner.invoke(app, ["grade", str(trace), str(answers), "--json"])
    assert r.exit_code == 0, r.output
    rep = json.loads(r.stdout.strip().splitlines()[-1])
    assert 50.0 < rep["overall"] <= 100.0 and rep["unparseable"] == []
    assert "1st-order" in r.stdout
    ids = [json.loads(x)["id"] for x in answers.read_text().splitlines()]
    odd = tmp_path / "odd.jsonl"
    odd.write_text(json.dumps({"id": ids[0], "answer": "hmm, hard to say"}) + "\n")
    r = runner.invoke(app, ["grade", str(trace), str(odd)])
    assert r.exit_code == 0 and "unparseable" in r.stdout and "without an answer" in r.stdout
    r = runner.invoke(app, ["grade", str(tmp_path / "nope.jsonl"), str(odd)])
    assert r.exit_code == 1 and "error:" in r.stderr


def test_grade_bad_answer_records_one_error_line(tmp_path):
    """Regression: integer ids, non-object lines and list ids gave raw tracebacks."""
    runner.invoke(app, ["run", "bomb", "--episodes", "1", "--seed", "5", "--no-progress", "--out", str(tmp_path)])
    trace = tmp_path / "bomb_5.trace.jsonl"
    ints = tmp_path / "ints.jsonl"
    ints.write_text(json.dumps({"id": 1, "answer": "yes"}) + "\n")
    r = runner.invoke(app, ["grade", str(trace), str(ints)])
    assert r.exit_code == 0 and "match no question: 1" in r.stdout
    for i, line in enumerate(('"invalid"', '["id"]', '{"id": ["x"], "answer": "yes"}')):
        bad = tmp_path / f"bad{i}.jsonl"
        bad.write_text(line + "\n")
        r = runner.invoke(app, ["grade", str(trace), str(bad)])
        assert r.exit_code == 1 and r.exception is None or isinstance(r.exception, SystemExit), r.output
        assert r.stderr.startswith("error:") and len(r.stderr.strip().splitlines()) == 1, r.stderr
