"""`belief run guandan|escape --out DIR` writes each episode's trace, questions (grading format) and answers,
and `belief grade` regrades them."""

import json

import pytest
from typer.testing import CliRunner

from belief.app.cli import app

runner = CliRunner()


@pytest.mark.parametrize("args, stem", [
    (["run", "guandan", "--episodes", "1", "--seed", "5"], "guandan_tom_vs_rule_5"),
    (["run", "escape", "--rules", "project", "--episodes", "1", "--seed", "7000"], "escape_7000"),
])
def test_run_out_regrades(tmp_path, args, stem):
    r = runner.invoke(app, args + ["--out", str(tmp_path), "--json", "--no-progress"])
    assert r.exit_code == 0, r.output
    base = tmp_path / stem
    g = runner.invoke(app, ["grade", f"{base}.trace.jsonl", f"{base}.answers.jsonl", "--questions",
                            f"{base}.questions.jsonl", "--json"])
    assert g.exit_code == 0, g.output
    s = json.loads(g.stdout.strip().splitlines()[-1])
    questions = (tmp_path / f"{stem}.questions.jsonl").read_text().splitlines()
    assert s["questions"] == len(questions) > 0 and not s["unknown_ids"] and s["missing"] == 0


def test_guandan_writes_both_seatings_of_a_deal(tmp_path):
    """Every seed is played in both seatings: each game has its own files (none overwrites the other)."""
    r = runner.invoke(app, ["run", "guandan", "--episodes", "1", "--seed", "5", "--out", str(tmp_path), "--json",
                            "--no-progress"])
    assert r.exit_code == 0, r.output
    a = (tmp_path / "guandan_tom_vs_rule_5.trace.jsonl").read_text()
    b = (tmp_path / "guandan_tom_vs_rule_5_swapped.trace.jsonl").read_text()
    assert a != b
