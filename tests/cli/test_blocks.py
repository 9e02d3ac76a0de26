import json

from typer.testing import CliRunner

from belief.app.results.schema import validate_bench_json
from belief.app.cli import app
from belief.grading.trivial import TRIVIAL_LIMIT

runner = CliRunner()


def test_run_blocks_json_with_paired_differences():
    r = runner.invoke(app, ["run", "blocks", "--episodes", "3", "--seed", "0", "--agents", "belief", "--vs", "baseline",
                            "--json", "--no-progress"])
    assert r.exit_code == 0, r.output
    last = json.loads(r.stdout.strip().splitlines()[-1])
    validate_bench_json(last)
    assert last["world"] == "blocks_v0" and last["episodes"] == 3 and last["headline"] == "belief"
    belief = last["by_agent"]["belief"]
    assert belief["success"] == 1.0 and set(last["extra"]["success_by_family"]) == {"independent", "skill", "goal"}
    lo, hi = belief["ci95"]["timesteps"]
    assert lo <= belief["timesteps"] <= hi
    assert {"success", "timesteps", "balance", "balance_norm", "tom_first_order"} <= set(last["diff_vs"]["baseline"])
    assert 0 <= belief["tom_first_order"] <= 1
    assert "belief - baseline on the same seeds" in r.stdout


def test_run_blocks_bad_input_is_one_error_line():
    for args in (["--agents", "nobody"], ["--family", "towers"], ["--agents", "belief", "--vs", "belief"]):
        r = runner.invoke(app, ["run", "blocks", "--episodes", "1", "--no-progress", *args])
        assert r.exit_code != 0 and r.stdout == ""
        assert r.stderr.startswith("error: ") and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_bench_blocks_is_the_one_shape_with_trivial_answerers_beside_every_tom_score():
    r = runner.invoke(app, ["bench", "blocks", "--episodes", "2", "--seed", "0", "--agents", "belief,naive",
                            "--json", "--no-progress"])
    assert r.exit_code == 0, r.output
    last = json.loads(r.stdout.strip().splitlines()[-1])
    validate_bench_json(last)
    assert last["headline"] == "belief" and set(last["by_agent"]) == {"belief", "naive"}
    assert {"success", "timesteps", "balance", "messages"} <= set(last["diff_vs"]["naive"])
    assert last["extra"]["rules"] == "source" and last["extra"]["slip"] is None
    for kind in ("belief", "naive"):
        table = last["extra"]["tom"][kind]
        assert {"checker", kind, "majority", "as_self", "public_record"} <= set(table["answerers"])
        assert table["overall"]["checker"]["accuracy"] == 1.0
        for entry in table["by_type"].values():
            assert entry["tom"] == (entry["trivial_best"] <= TRIVIAL_LIMIT)
    assert "| type | n |" in r.stdout


def test_bench_blocks_bad_rules_is_one_error_line():
    r = runner.invoke(app, ["bench", "blocks", "--episodes", "1", "--rules", "minecraft", "--no-progress"])
    assert r.exit_code == 2 and r.stderr.startswith("error: --rules") and len(r.stderr.strip().splitlines()) == 1
