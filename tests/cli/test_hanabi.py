import json

from typer.testing import CliRunner

from belief.app.cli import app

runner = CliRunner()


def test_run_hanabi_json():
    r = runner.invoke(app, ["run", "hanabi", "--episodes", "2", "--seed", "0", "--agents", "hintless", "--json",
                            "--no-progress"])
    assert r.exit_code == 0, r.output
    last = json.loads(r.stdout.strip().splitlines()[-1])
    assert last["world"] == "hanabi_v0" and last["agents"] == "hintless" and last["episodes"] == 2
    assert 0 <= last["score"]["mean"] <= 25 and last["tom"]["questions"] > 0
    assert "vs" not in last


def test_run_hanabi_bad_agents():
    r = runner.invoke(app, ["run", "hanabi", "--episodes", "1", "--agents", "cheater"])
    assert r.exit_code == 2 and r.stdout == "" and r.stderr.startswith("error: Invalid value for '--agents'")
    assert "belief, hintless" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_run_hanabi_old_games_flag_still_works_but_is_hidden():
    r = runner.invoke(app, ["run", "hanabi", "--games", "1", "--agents", "hintless", "--json", "--no-progress"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout.strip().splitlines()[-1])["episodes"] == 1
    assert "--games" not in runner.invoke(app, ["run", "hanabi", "--help"]).stdout
