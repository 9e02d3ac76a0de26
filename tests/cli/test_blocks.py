import json

from typer.testing import CliRunner

from belief.app.cli import app

runner = CliRunner()


def test_run_blocks_json_with_paired_differences():
    r = runner.invoke(app, ["run", "blocks", "--episodes", "3", "--seed", "0", "--agents", "belief", "--vs", "baseline",
                            "--json", "--no-progress"])
    assert r.exit_code == 0, r.output
    last = json.loads(r.stdout.strip().splitlines()[-1])
    assert last["world"] == "blocks_v0" and last["episodes"] == 3
    assert last["success"]["mean"] == 1.0 and set(last["success_by_family"]) == {"independent", "skill", "goal"}
    lo, hi = last["timesteps"]["ci95"]
    assert lo <= last["timesteps"]["mean"] <= hi
    assert set(last["vs"]["paired_diff"]) == {"success", "timesteps", "balance", "balance_norm"}
    assert last["vs"]["agents"] == "baseline" and 0 <= last["tom"]["accuracy"]["first_order"] <= 1
    assert "paired differences" in r.stdout


def test_run_blocks_bad_input_is_one_error_line():
    for args in (["--agents", "nobody"], ["--family", "towers"], ["--agents", "belief", "--vs", "belief"]):
        r = runner.invoke(app, ["run", "blocks", "--episodes", "1", "--no-progress", *args])
        assert r.exit_code != 0 and r.stdout == ""
        assert r.stderr.startswith("error: ") and len(r.stderr.strip().splitlines()) == 1, r.stderr
