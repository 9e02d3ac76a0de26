"""`belief bench llm-cache`: one JSON line of writes and reads per second, by cache size."""
import json

from typer.testing import CliRunner

from belief.app.bench.llm_cache import bench_llm_cache, entry
from belief.app.cli import app
from belief.llm.cache import ResponseCache


def test_bench_fills_the_store_to_each_size_and_times_new_writes(tmp_path):
    made = []

    def make(path):
        made.append(path)
        return ResponseCache(path)

    out = bench_llm_cache(sizes=(0, 30), writes=5, repeat=1, make=make, directory=str(tmp_path))
    assert [row["entries"] for row in out["sizes"]] == [0, 30] and out["writes"] == 5
    assert all(row["writes_per_s"] > 0 and row["reads_per_s"] > 0 for row in out["sizes"])
    assert len(made) == 2 and not any(p.exists() for p in made)  # temporary files, removed
    assert entry(1)[0] != entry(2)[0] and entry(1) == entry(1)


def test_bench_command_prints_one_json_line():
    r = CliRunner().invoke(app, ["bench", "llm-cache", "--size", "10", "--size", "20", "--writes", "5", "--repeat", "1",
                                 "--json"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 1
    figures = json.loads(lines[0])
    assert figures["bench"] == "llm-cache" and [s["entries"] for s in figures["sizes"]] == [10, 20]
