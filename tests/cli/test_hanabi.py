import json

from typer.testing import CliRunner

from belief.app.results.schema import validate_bench_json
from belief.app.cli import app

runner = CliRunner()


def test_run_hanabi_json():
    r = runner.invoke(app, ["run", "hanabi", "--episodes", "2", "--seed", "0", "--agents", "hintless", "--json",
                            "--no-progress"])
    assert r.exit_code == 0, r.output
    last = json.loads(r.stdout.strip().splitlines()[-1])
    validate_bench_json(last)
    assert last["world"] == "hanabi_v0" and last["headline"] == "hintless" and last["episodes"] == 2
    hintless = last["by_agent"]["hintless"]
    assert 0 <= hintless["score"] <= 25 and hintless["n"]["tom_first_order"] == 2
    assert last["diff_vs"] == {}


def test_run_hanabi_bad_agents():
    r = runner.invoke(app, ["run", "hanabi", "--episodes", "1", "--agents", "cheater"])
    assert r.exit_code == 2 and r.stdout == "" and r.stderr.startswith("error: Invalid value for '--agents'")
    assert "belief, conventional, hintless" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_run_hanabi_old_games_flag_still_works_but_is_hidden():
    r = runner.invoke(app, ["run", "hanabi", "--games", "1", "--agents", "hintless", "--json", "--no-progress"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout.strip().splitlines()[-1])["episodes"] == 1
    assert "--games" not in runner.invoke(app, ["run", "hanabi", "--help"]).stdout


def test_bench_hanabi_json_has_the_one_shape_and_every_kind():
    r = runner.invoke(app, ["bench", "hanabi", "--players", "3", "--episodes", "2", "--seed", "3", "--agents",
                            "conventional,hintless", "--tom-games", "1", "--json", "--no-progress"])
    assert r.exit_code == 0, r.output
    last = json.loads(r.stdout.strip().splitlines()[-1])
    validate_bench_json(last)
    assert last["world"] == "hanabi_v0" and last["extra"]["players"] == 3 and last["episodes"] == 2
    assert last["headline"] == "conventional" and set(last["diff_vs"]) == {"hintless"}
    assert set(last["diff_vs"]["hintless"]["score"]) == {"mean", "ci95", "ordering", "n"}
    tom = last["extra"]["tom"]["conventional"]
    assert {"majority", "reality", "as_self", "depth_collapse", "public_record", "hint_record",
            "conventional"} <= set(tom["answerers"])
    assert tom["headline"] == "conventional" and "hint_record" in tom["trivial"]
    for entry in tom["by_type"].values():  # every template: n, gold balance, the best shortcut, the margin
        assert entry["n"] > 0 and entry["best_shortcut"] in tom["trivial"] and "margin" in entry


def test_bench_hanabi_refuses_six_players():
    r = runner.invoke(app, ["bench", "hanabi", "--players", "6", "--episodes", "1"])
    assert r.exit_code == 2 and r.stderr.startswith("error:") and "--players" in r.stderr


def test_run_hanabi_out_writes_each_game_in_the_grading_format(tmp_path):
    """`belief run hanabi --out DIR` writes each game's trace, questions (grading format) and answers: `belief
    grade` regrades them, every answer matched to a question."""
    r = runner.invoke(app, ["run", "hanabi", "--episodes", "1", "--seed", "4", "--selected", "--out", str(tmp_path),
                            "--no-progress", "--json"])
    assert r.exit_code == 0, r.output
    names = {p.name for p in tmp_path.iterdir()}
    assert {"hanabi_4.trace.jsonl", "hanabi_4.questions.jsonl", "hanabi_4.answers.jsonl"} <= names
    questions = [json.loads(x) for x in (tmp_path / "hanabi_4.questions.jsonl").read_text().splitlines()]
    # the selected set is written too (since witnessing is joint its Hanabi questions are knows/*, kept because
    # a shortcut fails rather than for a named phenomenon)
    assert {q["episode"] for q in questions} == {"hanabi_4"}
    assert any(str(q.get("template", "")).startswith(("knows/", "aware/")) for q in questions)
    g = runner.invoke(app, ["grade", str(tmp_path / "hanabi_4.trace.jsonl"), str(tmp_path / "hanabi_4.answers.jsonl"),
                            "--questions", str(tmp_path / "hanabi_4.questions.jsonl"), "--json"])
    assert g.exit_code == 0, g.output
    s = json.loads(g.stdout.strip().splitlines()[-1])
    assert s["questions"] == len(questions) and not s["unknown_ids"] and s["missing"] == 0 and s["unreadable"] == 0
    assert 0.5 < s["accuracy"] <= 1.0
