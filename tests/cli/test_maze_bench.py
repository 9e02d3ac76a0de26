"""`belief bench capture|escape|coordqa`: the one JSON shape (with --json), the ToM table beside trivial answerers."""
import json

from typer.testing import CliRunner

from belief.app.results.schema import validate_bench_json as validate_bench
from belief.app.cli import app


def _json(args):
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    return json.loads(r.output.strip().splitlines()[-1])


def test_bench_escape_compares_belief_with_greedy_and_shows_trivial_answerers():
    d = _json(["bench", "escape", "--episodes", "3", "--seed", "0", "--no-progress", "--json"])
    validate_bench(d)
    assert set(d["by_agent"]) == {"belief", "baseline", "lookahead"} and d["extra"]["rules"] == "source"
    assert d["diff_vs"]["lookahead"]["escaped"]["n"] == 3               # the ablation, paired by seed
    table = d["extra"]["tom"]["belief"]
    assert {"majority", "as_self", "belief"} <= set(table["answerers"])
    assert all(entry["tom"] is False for entry in table["by_type"].values())  # full view: nothing is private


def test_bench_coordqa_prints_each_answerer_per_category():
    d = _json(["bench", "coordqa", "--game", "capture", "--episodes", "2", "--states", "3", "--no-progress", "--json"])
    validate_bench(d)
    assert {"belief", "random", "majority", "single_agent"} <= set(d["by_agent"])
    assert set(d["metrics"]) == {"EC", "ToM", "JP"}
    assert d["extra"]["table"]["by_type"]["EC"]["tom"] is False  # a map reader answers EC


def test_bad_rules_are_one_line():
    r = CliRunner().invoke(app, ["bench", "escape", "--rules", "paper", "--episodes", "1"])
    assert r.exit_code != 0 and "--rules must be source or project" in r.output
