import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from belief.app.cli import app

FIX = Path(__file__).resolve().parents[1] / "fixtures"
SHARED = Path(__file__).resolve().parents[3] / "shared"
runner = CliRunner()


def last_json(output: str) -> dict:
    lines = [x for x in output.strip().splitlines() if x.strip()]
    return json.loads(lines[-1])


def test_tomi_command_outputs(tmp_path):
    pred, audit = tmp_path / "p.jsonl", tmp_path / "a.jsonl"
    r = runner.invoke(app, ["tomi", str(FIX / "tomi/mini.txt"), "--trace", str(FIX / "tomi/mini.trace"),
                            "--predictions", str(pred), "--audit", str(audit)])
    assert r.exit_code == 0, r.output
    s = last_json(r.output)
    assert s["dataset"] == "tomi" and s["total"] == 5 and s["agree"] == 4
    assert s["by_type"]["second_order"] == [1, 2]
    assert "first_order" in r.output and "accuracy" in r.output  # the table
    rows = [json.loads(x) for x in pred.read_text().splitlines()]
    assert [x["id"] for x in rows] == [0, 1, 2, 3, 4]
    assert set(rows[0]) >= {"id", "question", "question_type", "gold", "answer", "agrees"}
    assert "source" not in rows[0]
    (a,) = [json.loads(x) for x in audit.read_text().splitlines()]
    assert a["id"] == 3 and a["agrees"] is False and a["justification"]["text"]


def test_hitom_command_outputs(tmp_path):
    pred, audit = tmp_path / "p.jsonl", tmp_path / "a.jsonl"
    r = runner.invoke(app, ["hitom", str(FIX / "hitom/tree"), "--predictions", str(pred), "--audit", str(audit)])
    assert r.exit_code == 0, r.output
    s = last_json(r.output)
    assert s["dataset"] == "hitom" and s["total"] == 7 and s["agree"] == 6 and s["policy"] == "hitom"
    assert s["by_tell"] == {"No_Tell": [2, 3], "Tell": [4, 4]}
    rows = [json.loads(x) for x in pred.read_text().splitlines()]
    assert rows[0]["source"] == "No_Tell/MC/length_1/sample_1/order_0.txt"
    assert len(audit.read_text().splitlines()) == 1
    r = runner.invoke(app, ["hitom", str(FIX / "hitom/mini.json")])
    assert r.exit_code == 0 and last_json(r.output)["total"] == 7


def test_errors_are_clear():
    r = runner.invoke(app, ["tomi", str(FIX / "tomi/bad_sentence.txt")])
    assert r.exit_code == 1
    assert "bad_sentence.txt:2: unknown ToMi sentence" in r.output
    r = runner.invoke(app, ["hitom", str(FIX / "hitom/bad")])
    assert r.exit_code == 1 and "order_0.txt:4: unknown Hi-ToM sentence" in r.output
    r = runner.invoke(app, ["tomi", str(FIX / "tomi/nope.txt")])
    assert r.exit_code == 1 and "no such file" in r.output
    r = runner.invoke(app, ["tomi", str(FIX / "tomi/mini.txt"), "--policy", "nope"])
    assert r.exit_code == 1 and "unknown trust policy" in r.output
    r = runner.invoke(app, ["bench", "checker", "--policy", "nope", "--events", "10", "--queries", "1"])
    assert r.exit_code == 1


def test_bench_checker_small():
    r = runner.invoke(app, ["bench", "checker", "--agents", "4", "--rooms", "2", "--depth", "3", "--events", "500",
                            "--queries", "500", "--seed", "3", "--json"])
    assert r.exit_code == 0, r.output
    s = last_json(r.output)
    assert set(s) >= {"build_s", "queries_per_s", "total_s", "peak_mb"}
    assert s["events"] == 500 and s["queries"] == 500


def test_bench_online_small():
    """One JSON line; the bench itself asserts that online and batch answers agree and the trace reads back."""
    r = runner.invoke(app, ["bench", "online", "--events", "400", "--agents", "4", "--depth", "3", "--json"])
    assert r.exit_code == 0, r.output
    s = json.loads(r.output.strip().splitlines()[-1])
    assert set(s) >= {"append_us", "query_us", "peak_mb", "ratio_vs_batch", "load_events_per_s", "load_15_events_ms",
                      "gc_s"}
    assert 0 <= s["gc_s"] <= s["online_s"]
    assert isinstance(s["compiled"], bool)
    assert s["events"] == 400 and s["agents"] == 4 and s["ratio_vs_batch"] > 0
    r = runner.invoke(app, ["bench", "online", "--events", "300", "--agents", "3", "--questions-per-event", "4",
                            "--no-load", "--json"])
    assert r.exit_code == 0, r.output
    s = json.loads(r.output.strip().splitlines()[-1])
    assert s["questions_per_event"] == 4 and s["repeat_query_us"] > 0 and s["dict_lookup_us"] > 0
    r = runner.invoke(app, ["bench", "online", "--events", "10", "--policy", "nope"])
    assert r.exit_code == 1 and "unknown trust policy" in r.output


def test_bench_online_splits_the_time_from_sampled_blocks(monkeypatch):
    """Small blocks, one in four timed call by call: every event and question is still counted (the bench checks
    the answers against the batch check), and the split of the CPU time adds back up to the whole."""
    from belief.app.bench import online

    import time
    import types

    reads = []
    clocks = types.SimpleNamespace(process_time=time.process_time,
                                   perf_counter=lambda: reads.append(1) or time.perf_counter())
    monkeypatch.setattr(online, "time", clocks)
    monkeypatch.setattr(online, "BLOCK", 32)
    monkeypatch.setattr(online, "SPLIT_EVERY", 4)
    s = online.run(events=300, agents=3, depth=3, load=False, questions_per_event=2, repeats=10)
    assert len(reads) == 3 * 3 * 32  # blocks 0, 4 and 8 of the ten: three wall-clock reads an event
    assert s["events"] == 300 and s["append_us"] > 0 and s["query_us"] > 0
    whole = (s["append_us"] * 300 + s["query_us"] * 600) / 1e6
    assert abs(whole - s["online_s"]) <= 0.01 * s["online_s"] + 6e-4  # (online_s is rounded to ms)


def test_subprocess_last_line_is_json(tmp_path):
    """Through a pipe (not a terminal), with --json: nothing but the JSON line on stdout."""
    p = subprocess.run([sys.executable, "-c", "from belief.app.cli import main; main()", "bench", "checker",
                        "--events", "300", "--queries", "300", "--rooms", "1", "--json"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert len(p.stdout.strip().splitlines()) == 1
    assert json.loads(p.stdout)["rooms"] == 1


def test_shared_samples_via_cli():
    d = SHARED / "samples"
    if not d.is_dir():
        pytest.skip("../shared is not present beside the checkout")
    r = runner.invoke(app, ["hitom", str(d / "hitom/current_generator")])
    assert r.exit_code == 0 and last_json(r.output)["agree"] == 30
    r = runner.invoke(app, ["tomi", str(d / "tomi/train_sample.txt"), "--trace", str(d / "tomi/train_sample.trace")])
    s = last_json(r.output)
    assert s["by_type"]["first_order"][0] == s["by_type"]["first_order"][1]
