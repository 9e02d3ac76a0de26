"""Every world benchmark prints the one JSON shape (docs/benchmarks.md): small, fast settings, one validator."""
import json

import pytest
from typer.testing import CliRunner

from belief.app.results.schema import validate_bench_json
from belief.app.cli import app

WORLD_BENCHES = {
    "transport_v0": (["bench", "transport", "--episodes-subset", "12,13", "--agents", "cobel,rhp,silent",
                      "--planner", "greedy", "--workers", "1"], "cobel"),
    "household_v0": (["bench", "household", "--episodes", "2", "--agents", "cobel,single,coela", "--workers", "1"],
                     "cobel"),
    "blocks_v0": (["run", "blocks", "--episodes", "2", "--agents", "belief", "--vs", "baseline"], "belief"),
    "hanabi_v0": (["run", "hanabi", "--episodes", "2", "--agents", "belief", "--vs", "hintless"], "belief"),
    "capture_v0": (["run", "capture", "--episodes", "2", "--agents", "belief", "--vs", "baseline"], "belief"),
    "escape_v0": (["run", "escape", "--episodes", "2", "--agents", "belief", "--vs", "baseline"], "belief"),
}


@pytest.mark.parametrize("world", WORLD_BENCHES)
def test_world_bench_prints_the_one_shape(world):
    args, headline = WORLD_BENCHES[world]
    r = CliRunner().invoke(app, args + ["--json", "--no-progress"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout.strip().splitlines()[-1])
    shape = validate_bench_json(data, world)
    assert shape.world == world and shape.headline == headline and shape.episodes == 2
    assert set(shape.diff_vs) == set(shape.by_agent) - {headline} and shape.diff_vs
    for baseline, diffs in shape.diff_vs.items():
        for metric, d in diffs.items():
            a, b = data["by_agent"][headline][metric], data["by_agent"][baseline][metric]
            if d.n == 2 and a is not None and b is not None and data["by_agent"][headline]["n"][metric] == 2 \
                    and data["by_agent"][baseline]["n"][metric] == 2:
                assert d.mean == pytest.approx(a - b)  # paired on the same seeds: the mean difference
