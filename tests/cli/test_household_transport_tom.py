"""``belief run household|transport --out`` write each episode's trace, selected questions and answers so that
``belief grade`` regrades them; ``belief bench household`` carries the ToM table in ``extra.tom``."""

import json

import pytest
from typer.testing import CliRunner

from belief.app.cli import app
from belief.grading.trivial import TRIVIAL_LIMIT

runner = CliRunner()


@pytest.mark.parametrize("args,stem", [(["run", "household", "--seed", "3"], "household_3"),
                                       (["run", "transport", "--episode", "5", "--max-steps", "40"], "transport_5")],
                         ids=["household", "transport"])
def test_run_out_writes_each_episode_in_the_grading_format(tmp_path, args, stem):
    r = runner.invoke(app, [*args, "--out", str(tmp_path), "--no-progress"])
    assert r.exit_code == 0, r.output
    base = tmp_path / stem
    g = runner.invoke(app, ["grade", f"{base}.trace.jsonl", f"{base}.answers.jsonl", "--questions",
                            f"{base}.questions.jsonl", "--json"])
    assert g.exit_code == 0, g.output
    s = json.loads(g.stdout.strip().splitlines()[-1])
    questions = [json.loads(line) for line in (tmp_path / f"{stem}.questions.jsonl").read_text().splitlines()]
    assert s["questions"] == len(questions) > 0 and not s["unknown_ids"] and s["missing"] == 0
    assert all(q["episode"] == stem and q["template"].count("/") == 2 for q in questions)


def test_bench_household_has_the_tom_table_per_template():
    r = runner.invoke(app, ["bench", "household", "--episodes", "2", "--agents", "cobel", "--json", "--no-progress",
                            "--workers", "1"])
    assert r.exit_code == 0, r.output
    tom = json.loads(r.stdout.strip().splitlines()[-1])["extra"]["tom"]["cobel"]
    assert tom["headline"] == "cobel" and tom["by_type"]
    for t, entry in tom["by_type"].items():
        assert {"n", "gold", "cobel", "public_record", "majority", "best_shortcut", "tom", "margin"} <= set(entry), t
        assert entry["tom"] == (entry["trivial_best"] <= TRIVIAL_LIMIT)


def test_the_household_commands_name_the_agent_kinds_the_team_knows():
    """The command module spells the kinds out (so importing it loads no world); they must be the team's."""
    from belief.agents.household.team import AGENT_KINDS
    from belief.app.cli.household import KIND_NAMES

    assert KIND_NAMES == AGENT_KINDS
