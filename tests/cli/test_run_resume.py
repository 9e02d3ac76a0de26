"""Run directories: a run killed with SIGKILL resumes to the same bytes as an uninterrupted run; existing
directories are refused without --force or --resume; --force removes only what the old manifest lists."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from belief.app.cli import app
from belief.files.outputs import TEMP_SUFFIX

runner = CliRunner()
BELIEF = [sys.executable, "-m", "belief"]


def _files(d: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir())}


# The runs here test run directories, not play: 4 rounds an episode (~1 s, not ~4 s) go through the same
# episode code and files; --resume takes the option back from the manifest like any other.
ROUNDS = ["--max-rounds", "4"]


def _run(*args):
    """`belief run bomb` in this process (serial: the executors have their own tests), short episodes unless
    resuming (a resume takes its options from the manifest)."""
    short = [] if "--resume" in map(str, args) else ROUNDS
    return runner.invoke(app, ["run", "bomb", "--no-progress", "--executor", "serial", *short, *map(str, args)])


def _done(manifest: Path) -> int:
    try:
        data = json.loads(manifest.read_text())
    except (OSError, ValueError):  # not written yet (it is replaced atomically, never half-written)
        return 0
    return sum(e["status"] == "done" for e in data["episodes"])


def test_kill_9_then_resume_is_byte_identical_to_an_uninterrupted_run(tmp_path):
    n = 5  # killed after the first episode: four more (~4 s) leave room for the kill even on a loaded machine
    killed = tmp_path / "killed"
    proc = subprocess.Popen([*BELIEF, "run", "bomb", "--episodes", str(n), "--seed", "3", "--executor", "serial",
                             *ROUNDS, "--no-progress", "--out", str(killed)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while _done(killed / "manifest.json") < 1:
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() < deadline, "no episode finished in time"
        time.sleep(0.005)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    finished = _done(killed / "manifest.json")
    assert 1 <= finished < n  # killed mid-run, with work left to do
    assert not (killed / "episodes.csv").exists()

    r = _run("--resume", killed)
    assert r.exit_code == 0, r.output
    assert f"{finished} episode(s) kept from the earlier run" in r.stdout
    r = _run("--episodes", n, "--seed", 3, "--out", tmp_path / "whole")
    assert r.exit_code == 0, r.output
    assert _files(killed) == _files(tmp_path / "whole")
    assert not [p for p in killed.iterdir() if p.name.endswith(TEMP_SUFFIX)]


def test_resume_replays_unfinished_and_damaged_episodes(tmp_path):
    d = tmp_path / "run"
    assert _run("--episodes", 3, "--seed", 1, "--out", d).exit_code == 0
    whole = _files(d)
    manifest = json.loads((d / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["options"]["episodes"] == 3
    assert [e["status"] for e in manifest["episodes"]] == ["done"] * 3
    assert set(manifest["outputs"]) == {"episodes.jsonl", "episodes.csv", "questions.jsonl", "questions.csv",
                                        "summary.json"}
    # a damaged trace, a lost answers file, a half-written temporary file and an episode never marked done
    (d / "bomb_1.trace.jsonl").write_text((d / "bomb_1.trace.jsonl").read_text()[:200])
    (d / "bomb_2.answers.jsonl").unlink()
    (d / f".bomb_3.trace.jsonl.x1{TEMP_SUFFIX}").write_text("{")
    manifest["episodes"][2]["status"] = "pending"
    (d / "manifest.json").write_text(json.dumps(manifest))
    r = _run("--resume", d)
    assert r.exit_code == 0, r.output
    assert "episode(s) kept" not in r.stdout  # all three replayed
    assert _files(d) == whole


def test_existing_directory_needs_force_or_resume(tmp_path):
    d = tmp_path / "run"
    d.mkdir()
    (d / "notes.txt").write_text("mine")
    r = _run("--episodes", 1, "--out", d)
    assert r.exit_code == 1 and r.stderr.startswith("error: ") and len(r.stderr.strip().splitlines()) == 1
    assert "--force" in r.stderr and "--resume" in r.stderr
    assert sorted(p.name for p in d.iterdir()) == ["notes.txt"]  # nothing written

    assert _run("--episodes", 3, "--seed", 0, "--out", d, "--force").exit_code == 0
    assert (d / "bomb_2.trace.jsonl").exists()
    # a smaller run with --force: the first run's files go (those its manifest lists), the user's file stays
    assert _run("--episodes", 1, "--seed", 5, "--out", d, "--force").exit_code == 0
    names = sorted(p.name for p in d.iterdir())
    assert names == ["bomb_5.answers.jsonl", "bomb_5.questions.jsonl", "bomb_5.rows.jsonl", "bomb_5.trace.jsonl",
                     "episodes.csv",
                     "episodes.jsonl", "manifest.json", "notes.txt", "questions.csv", "questions.jsonl",
                     "summary.json"]
    assert (d / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("args, message", [
    (["--episodes", "2"], "--episodes 2 differs from the run being resumed (1)"),
    (["--agents", "random"], "--agents"),
    (["--force"], "give one of them"),
])
def test_resume_refuses_other_options(tmp_path, args, message):
    d = tmp_path / "run"
    assert _run("--episodes", 1, "--seed", 2, "--out", d).exit_code == 0
    before = _files(d)
    r = _run("--resume", d, *args)
    assert r.exit_code == 2 and r.stderr.startswith("error: ") and message in r.stderr, r.output
    assert _files(d) == before


def test_resume_of_a_directory_without_a_run(tmp_path):
    r = _run("--resume", tmp_path)
    assert r.exit_code == 1 and "manifest.json is missing" in r.stderr
    (tmp_path / "manifest.json").write_text("{half")
    r = _run("--resume", tmp_path)
    assert r.exit_code == 1 and "unreadable manifest" in r.stderr and len(r.stderr.strip().splitlines()) == 1
