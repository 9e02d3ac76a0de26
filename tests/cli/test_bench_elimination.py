"""``belief bench elimination``: one JSON line of CPU figures (shape only; never timed assertions)."""

import json

from typer.testing import CliRunner

from belief.app.cli import app


def test_bench_elimination_small():
    r = CliRunner().invoke(app, ["bench", "elimination", "--episodes", "1", "--seed", "3", "--queries", "20",
                                 "--max-rounds", "4", "--no-progress", "--json"])
    assert r.exit_code == 0, r.output
    s = json.loads(r.output.strip().splitlines()[-1])
    assert set(s) >= {"episode_cpu_s", "knows_chain_ms", "possible_ms", "episode_cpu_s_max", "per_episode"}
    assert s["episodes"] == 1 and [e["seed"] for e in s["per_episode"]] == [3]
    assert s["per_episode"][0]["events"] > 0 and s["knows_chain_ms"] is not None
    for method in ("knows_chain", "possible"):  # each query timed on its own: median <= p90, both within the extremes
        med, p90 = s[f"{method}_ms_median"], s[f"{method}_ms_p90"]
        assert med is not None and 0 <= med <= p90
        assert s["per_episode"][0][f"{method}_ms_median"] == med  # one episode: its median is the median
        assert not any(k.startswith("_") for k in s["per_episode"][0])  # the raw times are not printed
