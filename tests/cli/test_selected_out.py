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
    (["run", "overcooked", "--layout", "cramped_room", "--fov", "2", "--horizon", "60", "--episodes", "1",
      "--seed", "9000"], "overcooked_cramped_room_9000"),
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


def test_overcooked_files_regrade_to_the_runs_own_gold_and_verdicts(tmp_path):
    """Every question the run wrote (the pot, ready and intent questions and the selected set) gets the same
    gold from `belief grade` on the written files as the run gave it, and the belief chef's answers the same
    verdicts."""
    from belief.grading.trivial import _norm

    r = runner.invoke(app, ["run", "overcooked", "--layout", "coordination_ring", "--fov", "2", "--horizon", "80",
                            "--episodes", "1", "--seed", "9001", "--out", str(tmp_path), "--no-progress"])
    assert r.exit_code == 0, r.output
    stem = tmp_path / "overcooked_coordination_ring_9001"
    g = runner.invoke(app, ["grade", f"{stem}.trace.jsonl", f"{stem}.answers.jsonl", "--questions",
                            f"{stem}.questions.jsonl", "--out", str(tmp_path / "graded.jsonl"), "--no-progress"])
    assert g.exit_code == 0, g.output
    graded = {row["id"]: row for row in map(json.loads, (tmp_path / "graded.jsonl").read_text().splitlines())}
    run_rows = json.loads((tmp_path / "episodes.jsonl").read_text().splitlines()[0])["tom_rows"]
    assert len(run_rows) == len(graded) and {"pot_belief", "partner_intent"} <= {q["type"] for q in run_rows}
    for q in run_rows:
        row = graded[q["id"]]
        assert _norm(str(row["gold"])) == _norm(str(q["gold"])), q
        assert row["correct"] == (_norm(q["answers"]["belief"]) == _norm(q["gold"])), (q, row)
