"""Killing the main process of a pooled run (``kill -9``: no cleanup runs) ends its worker processes too,
instead of leaving them to play the rest of their tasks, orphaned (issue 18)."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from belief.app.runs.executor import WATCH_INTERVAL

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table in /proc")


def _stat(pid: int) -> list[bytes]:
    return Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[-1].split()


def _descendants(root: int) -> list[int]:
    parent = {}
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                parent[int(p.name)] = int(_stat(int(p.name))[1])
            except (OSError, IndexError, ValueError):
                continue
    out, todo = [], [root]
    while todo:
        kids = [pid for pid, ppid in parent.items() if ppid == todo[-1]]
        todo.pop()
        out += kids
        todo += kids
    return out


def _alive(pid: int) -> bool:
    try:
        return _stat(pid)[0] != b"Z"
    except OSError:
        return False


def test_workers_end_when_the_main_process_is_killed(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "belief", "run", "bomb", "--episodes", "200", "--workers", "2",
                             "--executor", "local", "--no-progress", "--out", str(tmp_path / "run")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not (tmp_path / "run" / "manifest.json").exists() or len(_descendants(proc.pid)) < 3:
            assert proc.poll() is None and time.monotonic() < deadline, "the pool did not start"
            time.sleep(0.05)
        time.sleep(0.5)
        started = _descendants(proc.pid)  # forkserver, its workers, resource tracker
        assert len(started) >= 3
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    deadline = time.monotonic() + 20 * WATCH_INTERVAL + 5
    while any(_alive(p) for p in started) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [p for p in started if _alive(p)]
    for p in left:  # do not leave them to the next test
        os.kill(p, signal.SIGKILL)
    assert not left, f"processes of the killed run still alive: {left}"
