"""belief.app.runs.executor.run_tasks: serial, a local process pool and Ray give the same results in task order; a bomb run
on Ray (2 CPUs, started once for this module) is byte-identical to a serial one."""

import json
import math
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from belief.app.runners.bomb_run_dir import run_bomb
from belief.app.runners.bomb import BombConfig
from belief.app.cli import app
from belief.errors import BeliefError, BeliefSyntaxError
from belief.app.runs.executor import ExecutorError, TaskError, run_tasks
from belief.grammar import parse_fact

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
# bomb runs here check that executors and grading shards agree, not how teams play: 4 rounds (~1 s an episode,
# not ~7 s) go through the same episode code (moves, messages, the selected questions, grading), ending by the
# round limit
ROUNDS = 4
# module-level functions from importable modules: tasks travel to other processes by reference
TASKS = [3000, 1, 700, 2, 1500, 0, 40]
EXPECTED = [math.factorial(n) for n in TASKS]


def _files(d: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir())}


@pytest.mark.parametrize("executor, workers", [("serial", None), ("local", 2), ("local", 1)])
def test_results_in_task_order_and_progress_for_each(executor, workers):
    seen = []
    out = run_tasks(math.factorial, TASKS, executor, workers=workers, progress=lambda i, r: seen.append((i, r)))
    assert out == EXPECTED
    assert sorted(seen) == list(enumerate(EXPECTED))
    dropped = []
    assert run_tasks(math.factorial, TASKS, executor, workers=workers, keep_results=False,
                     progress=lambda i, r: dropped.append(i)) == []
    assert sorted(dropped) == list(range(len(TASKS)))


def test_task_errors_come_back_as_belief_errors():
    assert run_tasks(math.factorial, [], "local") == []
    with pytest.raises(BeliefSyntaxError):  # in this process: the very exception
        run_tasks(parse_fact, ["Alice BELIEVE apple"], "serial")
    # BeliefSyntaxError does not survive pickling; from a worker it comes back as a BeliefError with its message
    with pytest.raises(TaskError, match="missing relation"):
        run_tasks(parse_fact, ["Alice BELIEVE apple IN box", "Alice BELIEVE apple"], "local", workers=2)
    with pytest.raises(ValueError):  # other errors keep their type when they pickle
        run_tasks(math.factorial, [1, -1], "local", workers=2)


def test_bad_executor_settings():
    with pytest.raises(ExecutorError, match="unknown executor 'dask'"):
        run_tasks(math.factorial, [1], "dask")
    with pytest.raises(ExecutorError, match="at least 1"):
        run_tasks(math.factorial, [1], "local", workers=0)
    with pytest.raises(ExecutorError, match="ray executor only"):
        run_tasks(math.factorial, [1], "local", address="auto")


def test_without_ray_one_clear_error(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    with pytest.raises(ExecutorError, match=r"pip install 'belief\[ray\]'"):
        run_tasks(math.factorial, [1], "ray")
    out = tmp_path / "run"
    r = CliRunner().invoke(app, ["run", "bomb", "--episodes", "1", "--executor", "ray", "--out", str(out)])
    assert r.exit_code == 1
    assert r.stderr.startswith("error: ") and len(r.stderr.strip().splitlines()) == 1 and "belief[ray]" in r.stderr
    assert not out.exists()  # nothing written


def test_local_pool_run_is_byte_identical_to_serial(tmp_path):
    config = BombConfig(agents=("belief", "random", "belief"), max_rounds=ROUNDS)
    run_bomb(tmp_path / "serial", config, seed=4, episodes=3, executor="serial")
    run_bomb(tmp_path / "pool", config, seed=4, episodes=3, executor="local", workers=2)
    assert _files(tmp_path / "serial") == _files(tmp_path / "pool")


@pytest.fixture(scope="module")
def ray_session():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_results_in_task_order(ray_session):
    seen = []
    assert run_tasks(math.factorial, TASKS, "ray", progress=lambda i, r: seen.append(i)) == EXPECTED
    assert sorted(seen) == list(range(len(TASKS)))
    with pytest.raises(TaskError, match="missing relation"):
        run_tasks(parse_fact, ["Alice BELIEVE apple"], "ray")
    assert ray_session.is_initialized()  # a session the caller started is left running


def test_ray_bomb_run_is_byte_identical_to_serial(ray_session, tmp_path):
    config = BombConfig(agents=("belief", "random", "belief"), max_rounds=ROUNDS)
    run_bomb(tmp_path / "serial", config, seed=7, episodes=3, executor="serial")
    run_bomb(tmp_path / "ray", config, seed=7, episodes=3, executor="ray")
    serial, on_ray = _files(tmp_path / "serial"), _files(tmp_path / "ray")
    assert serial == on_ray and "questions.csv" in serial and "bomb_9.trace.jsonl" in serial
    r = CliRunner().invoke(app, ["run", "bomb", "--agents", "belief,random,belief", "--seed", "7", "--episodes", "3",
                                 "--max-rounds", str(ROUNDS), "--executor", "ray", "--no-progress",
                                 "--out", str(tmp_path / "cli")])
    assert r.exit_code == 0, r.output
    assert _files(tmp_path / "cli") == serial


def test_errors_are_belief_errors():
    assert issubclass(ExecutorError, BeliefError) and issubclass(TaskError, BeliefError)


def _tom_outputs(tmp_path, name, command, source, *args):
    pred, audit = tmp_path / f"{name}.pred.jsonl", tmp_path / f"{name}.audit.jsonl"
    r = CliRunner().invoke(app, [command, str(source), "--predictions", str(pred), "--audit", str(audit),
                                 "--no-progress", *args])
    assert r.exit_code == 0, r.output
    return r.stdout.strip().splitlines()[-1], pred.read_bytes(), audit.read_bytes()


def test_tomi_shards_on_a_process_pool_grade_as_one_process(tmp_path, monkeypatch):
    from belief.app.cli import tom

    stories = tmp_path / "stories.txt"
    stories.write_text((FIXTURES / "tomi" / "mini.txt").read_text() * 4)
    serial = _tom_outputs(tmp_path, "serial", "tomi", stories, "--executor", "serial")
    monkeypatch.setattr(tom, "MIN_SHARD", 3)  # shards of a few questions
    pooled = _tom_outputs(tmp_path, "pool", "tomi", stories, "--executor", "local", "--workers", "2")
    assert pooled == serial and json.loads(serial[0])["total"] > 6


def test_hitom_shards_on_ray_grade_as_one_process(ray_session, tmp_path, monkeypatch):
    from belief.app.cli import tom

    source = FIXTURES / "hitom" / "mini.json"
    serial = _tom_outputs(tmp_path, "serial", "hitom", source, "--executor", "serial")
    monkeypatch.setattr(tom, "MIN_SHARD", 1)
    assert _tom_outputs(tmp_path, "ray", "hitom", source, "--executor", "ray") == serial


def test_grade_shards_on_a_process_pool_grade_as_one_call(tmp_path, monkeypatch):
    from belief.app.runs import grade_shards

    run_bomb(tmp_path / "run", BombConfig(max_rounds=ROUNDS), seed=2, episodes=1, executor="serial")
    trace, answers = tmp_path / "run" / "bomb_2.trace.jsonl", tmp_path / "run" / "bomb_2.answers.jsonl"

    def grade(name, *args):
        out = tmp_path / f"{name}.csv"
        r = CliRunner().invoke(app, ["grade", str(trace), str(answers), "--out", str(out), "--json", "--no-progress",
                                     *args])
        assert r.exit_code == 0, r.output
        return r.stdout.strip().splitlines()[-1], out.read_bytes()

    serial = grade("serial", "--executor", "serial")
    monkeypatch.setattr(grade_shards, "MIN_SHARD", 25)  # several shards of questions
    assert grade("pool", "--executor", "local", "--workers", "2") == serial
    assert json.loads(serial[0])["questions"] > 50


def test_a_dying_worker_is_one_executor_error():
    import os as _os

    with pytest.raises(ExecutorError, match="worker process of the local pool died"):
        run_tasks(_os._exit, [3, 3], "local", workers=2)  # the worker exits at once, as if killed


def test_an_unreachable_cluster_is_refused_at_once():
    import socket

    from belief.app.runs.executor import _check_reachable

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ExecutorError, match=f"cannot reach Ray at ray://127.0.0.1:{port}"):
        _check_reachable(f"ray://127.0.0.1:{port}", timeout=2)
    with socket.socket() as s:  # one that accepts connections
        s.bind(("127.0.0.1", 0))
        s.listen()
        _check_reachable(f"127.0.0.1:{s.getsockname()[1]}", timeout=2)
    _check_reachable("auto")  # left to Ray
