import json

from typer.testing import CliRunner

from belief.app.bench.guandan import TOP_KEYS, shape_part
from belief.app.results.schema import validate_bench_json
from belief.app.cli import app

runner = CliRunner()


def test_bench_guandan_json_has_the_shape_the_matchups_and_tom():
    r = runner.invoke(app, ["bench", "guandan", "--episodes", "2", "--seed", "0", "--json", "--no-progress"])
    assert r.exit_code == 0, r.output
    last = json.loads(r.stdout.strip().splitlines()[-1])
    assert set(TOP_KEYS) <= set(last)
    validate_bench_json(shape_part(last))
    assert last["world"] == "guandan_v0" and last["headline"] == "tom" and set(last["by_agent"]) == {
        "tom", "planner", "rule_keep", "rule", "random"}
    assert set(last["diff_vs"]) == {"planner", "rule_keep", "rule", "random"}
    assert last["diff_vs"]["planner"]["win"]["n"] == 2            # paired by seed, both seatings in each row
    # the rule team against itself on the same cards in both seatings: each seat pair wins once
    assert last["by_agent"]["rule"]["win"] == 0.5 and last["extra"]["reference"] == "rule"
    assert set(last["matchups"]) == {"tom_vs_rule", "tom_vs_random", "rule_vs_random", "tom_vs_planner",
                                     "tom_vs_rule_keep"}
    for m in last["matchups"].values():
        assert m["games"] == 4 and 0 <= m["win_rate"] <= 1 and m["ci95"][0] <= m["win_rate"] <= m["ci95"][1]
        assert m["by_seats"]["0/2"]["games"] == 2 and m["by_seats"]["1/3"]["games"] == 2
    tom = last["tom"]
    assert tom["questions"] > 0
    by_order = tom["by_order"]["by_type"]
    assert set(by_order) == {"introspection", "first_order", "second_order"}
    assert {"planner", "majority", "public_record", "as_self"} <= set(tom["by_order"]["answerers"])


def test_bench_guandan_bad_pass_rule_is_one_line():
    r = runner.invoke(app, ["bench", "guandan", "--episodes", "1", "--pass-rule", "sometimes"])
    assert r.exit_code != 0 and r.stderr.startswith("error: --pass-rule must be one of free, must_beat")
    assert len(r.stderr.strip().splitlines()) == 1


def test_bench_guandan_moves_prints_the_goal():
    r = runner.invoke(app, ["bench", "guandan-moves", "--hands", "20", "--repeat", "1", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["hands"] == 20 and out["goal_ms"] == 5.0 and out["median_ms"] <= out["max_ms"]
    assert out["max_moves"] >= out["median_moves"] > 0
