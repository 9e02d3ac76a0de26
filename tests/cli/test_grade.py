"""`belief grade` on a bomb run's files (moved here from tests/cli/test_bomb.py with the command)."""

import json

import pytest
from typer.testing import CliRunner

from belief.app.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("bomb")
    r = runner.invoke(app, ["run", "bomb", "--episodes", "1", "--seed", "5", "--max-rounds", "6", "--no-progress",
                            "--out", str(d / "run")])
    assert r.exit_code == 0, r.output
    return d / "run"


def test_grade_command(run_dir, tmp_path):
    trace, answers = run_dir / "bomb_5.trace.jsonl", run_dir / "bomb_5.answers.jsonl"
    r = runner.invoke(app, ["grade", str(trace), str(answers), "--json"])
    assert r.exit_code == 0, r.output
    rep = json.loads(r.stdout.strip().splitlines()[-1])
    assert 0.5 < rep["accuracy"] <= 1.0 and rep["unreadable"] == 0 and rep["episode"] == "bomb_5"
    assert set(rep["by_level"]) == {"introspection", "first_order", "second_order"}
    assert "level first_order" in r.stdout
    ids = [json.loads(x)["id"] for x in answers.read_text().splitlines()]
    odd = tmp_path / "odd.jsonl"
    odd.write_text(json.dumps({"id": ids[0], "episode": "bomb_5", "answer": "hmm, hard to say"}) + "\n")
    r = runner.invoke(app, ["grade", str(trace), str(odd), "--json"])
    assert r.exit_code == 0 and "unreadable" in r.stdout and "without an answer" in r.stdout
    rep = json.loads(r.stdout.strip().splitlines()[-1])
    assert rep["unreadable"] == 1 and rep["answered"] == 0 and rep["answered_only"] is None
    r = runner.invoke(app, ["grade", str(tmp_path / "nope.jsonl"), str(odd)])
    assert r.exit_code == 1 and r.stderr.startswith("error:")


def test_grade_bad_answer_records_one_error_line(run_dir, tmp_path):
    """Regression: integer ids, non-object lines and list ids gave raw tracebacks."""
    trace = run_dir / "bomb_5.trace.jsonl"
    ints = tmp_path / "ints.jsonl"
    ints.write_text(json.dumps({"id": 1, "episode": "bomb_5", "answer": "yes"}) + "\n")
    r = runner.invoke(app, ["grade", str(trace), str(ints)])
    assert r.exit_code == 0 and "match no question: 1" in r.stdout
    for i, line in enumerate(('"invalid"', '["id"]', '{"id": ["x"], "episode": "bomb_5", "answer": "yes"}',
                              '{"id": "q0-study-introspection", "answer": "yes"}')):
        bad = tmp_path / f"bad{i}.jsonl"
        bad.write_text(line + "\n")
        r = runner.invoke(app, ["grade", str(trace), str(bad)])
        assert r.exit_code == 1 and (r.exception is None or isinstance(r.exception, SystemExit)), r.output
        assert r.stderr.startswith("error:") and len(r.stderr.strip().splitlines()) == 1, r.stderr
