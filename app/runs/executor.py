"""Map a top-level function over tasks, serially, on a local process pool, or on Ray.

:func:`run_tasks` returns the results in task order whatever order they finish in, so a run's outputs are
byte-identical to a serial run for the same seeds (provided `fn` is a pure function of its task, as the
episode runners are). `fn` and the tasks must be picklable: a module-level function and plain data.

* ``serial``: in this process, one task after the other.
* ``local`` (the default): a ``concurrent.futures`` process pool of `workers` processes (default: the CPU
  count), started with ``forkserver`` (``spawn`` where that is missing): as with any such pool, a script that
  calls :func:`run_tasks` must guard its entry point with ``if __name__ == "__main__":``. One task or one
  worker runs serially, without starting processes. Workers die with the process that started them (killed
  with ``kill -9`` too): each watches it (:func:`_die_with_parent`) and exits within
  :data:`WATCH_INTERVAL` seconds of its end.
* ``ray``: Ray tasks, spread over the cores of this machine or, with ``address`` (``"auto"`` or
  ``"ray://host:10001"``), of a cluster (``ray.init(address=...)``; every node needs this package
  installed). Ray is an optional extra (``pip install .[ray]``); without it, one BeliefError. A Ray
  session started here is shut down at the end; one the caller started is left running.

`progress`, if given, is called in the calling process as ``progress(index, result)`` each time a task
finishes (in completion order), e.g. to write its files and advance a progress bar. With
``keep_results=False`` results are handed to `progress` only and dropped (large payloads of long runs).
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import os
import pickle
import signal
import socket
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from belief.errors import BeliefError, MissingExtraError

EXECUTORS = ("local", "serial", "ray")


class ExecutorError(BeliefError):
    """An executor that cannot run here (unknown name, Ray missing or unreachable)."""


class RayMissingError(MissingExtraError, ExecutorError):
    """The ray executor asked for where Ray is not installed (the message names the 'ray' extra)."""


class TaskError(BeliefError):
    """A BeliefError raised by a task that cannot travel back between processes as itself."""


def _call(fn, task):
    """Run one task; an exception that cannot be pickled comes back as its message (a BeliefError stays one)."""
    try:
        return fn(task)
    except Exception as e:
        try:
            pickle.loads(pickle.dumps(e))
        except Exception:
            kind = TaskError if isinstance(e, BeliefError) else RuntimeError
            raise kind(str(e)) from None
        raise


@dataclass(frozen=True)
class Star:
    """``Star(f)((a, b)) == f(a, b)``: a function of several arguments as a function of one task tuple
    (picklable when `f` is), e.g. ``run_tasks(Star(play_episode), [(config, seed), ...])``."""

    fn: Callable

    def __call__(self, task):
        return self.fn(*task)


def _check(executor: str, workers: int | None, address: str | None) -> None:
    if executor not in EXECUTORS:
        raise ExecutorError(f"unknown executor {executor!r}; expected one of {', '.join(EXECUTORS)}")
    if workers is not None and workers < 1:
        raise ExecutorError(f"workers must be at least 1 (got {workers})")
    if address is not None and executor != "ray":
        raise ExecutorError(f"an address applies to the ray executor only (got --executor {executor})")


def _run_serial(fn, tasks, progress, keep):
    results = []
    for i, task in enumerate(tasks):
        result = fn(task)
        if progress is not None:
            progress(i, result)
        if keep:
            results.append(result)
    return results


def _pool_context():
    """forkserver where available: workers do not inherit the caller's threads (a progress bar's refresher)."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


#: seconds between a worker's checks that the process that started it is still alive
WATCH_INTERVAL = 0.5


def _alive(pid: int) -> bool:
    """Whether process `pid` runs (a zombie, killed but not yet reaped, counts as ended)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - another user's process took the pid
        return False
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[-1].split()[0] != b"Z"
    except (OSError, IndexError):  # no /proc (macOS): os.kill said it exists
        return True


def _set_parent_death_signal() -> None:
    """Linux: the kernel kills this process when its parent ends (the forkserver or, with spawn, the caller)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - no libc prctl: the watchdog alone
        pass


def _die_with_parent(owner: int) -> None:
    """Pool worker initializer: end this worker when `owner`, the process that runs the pool, ends.

    A pool's workers are children of the forkserver, not of the caller, and nothing tells them the caller was
    killed (with ``kill -9`` no cleanup runs): they would play the rest of their tasks, orphaned. A daemon
    thread checks every :data:`WATCH_INTERVAL` seconds that `owner` still runs and ends the worker
    (``os._exit``) when it does not; on Linux the parent-death signal also covers the forkserver's end.
    """
    _set_parent_death_signal()

    def watch():
        while _alive(owner):
            time.sleep(WATCH_INTERVAL)
        os._exit(1)

    threading.Thread(target=watch, name="die-with-parent", daemon=True).start()


def _run_local(fn, tasks, workers, progress, keep):
    results: list[Any] = [None] * len(tasks)
    with ProcessPoolExecutor(max_workers=workers, mp_context=_pool_context(), initializer=_die_with_parent,
                             initargs=(os.getpid(),)) as pool:
        futures = {pool.submit(_call, fn, task): i for i, task in enumerate(tasks)}
        todo = set(futures)
        try:
            while todo:
                done, todo = wait(todo, return_when=FIRST_COMPLETED)
                for fut in sorted(done, key=futures.__getitem__):  # a stable order within one wake-up
                    i = futures.pop(fut)
                    result = fut.result()
                    if progress is not None:
                        progress(i, result)
                    if keep:
                        results[i] = result
        except BrokenProcessPool as e:  # a worker died (killed, out of memory, or its imports failed)
            raise ExecutorError(f"a worker process of the local pool died ({e}); run with --executor serial to "
                                "see the error in this process") from None
        except BaseException:
            for fut in todo:
                fut.cancel()
            raise
    return results if keep else []


def import_ray():
    """The ray module, or ExecutorError with the one line that says how to get it."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise RayMissingError("ray", "the ray executor") from None


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """ExecutorError unless a cluster address's host:port accepts a TCP connection (Ray itself retries for
    minutes before giving up); ``auto`` and addresses without a port are left to Ray."""
    hostport = address.split("://", 1)[-1]
    host, _, port = hostport.rpartition(":")
    if not host or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise ExecutorError(f"cannot reach Ray at {address}: {e}") from None


@contextmanager
def ray_session(workers: int | None = None, address: str | None = None) -> Iterator[Any]:
    """The ray module with Ray initialised for the duration: started here (on this machine with `workers`
    CPUs, or joining the cluster at `address`) and shut down at the end, or, when the caller already started
    one, that session, left running. ExecutorError when Ray is missing or cannot start or connect."""
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    if address is not None:
        _check_reachable(address)
    kwargs = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
    if address is None and workers is not None:
        kwargs["num_cpus"] = workers
    try:
        ray.init(address=address, **kwargs)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as e:
        raise ExecutorError(f"cannot start or reach Ray{f' at {address}' if address else ''}: "
                            f"{' '.join(str(e).split())}") from None
    try:
        yield ray
    finally:
        ray.shutdown()


def _run_ray(fn, tasks, workers, address, progress, keep):
    with ray_session(workers, address) as ray:
        remote = ray.remote(_call)
        fn_ref = ray.put(fn)
        refs = [remote.remote(fn_ref, task) for task in tasks]
        index = {ref: i for i, ref in enumerate(refs)}
        results: list[Any] = [None] * len(tasks)
        todo = list(refs)
        while todo:
            done, todo = ray.wait(todo, num_returns=1)
            for ref in done:
                i = index.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as e:
                    cause = getattr(e, "cause", None)
                    raise (cause if isinstance(cause, BaseException) else e) from None
                if progress is not None:
                    progress(i, result)
                if keep:
                    results[i] = result
        return results if keep else []


def run_tasks(fn: Callable[[Any], Any], tasks: Sequence, executor: str = "local", workers: int | None = None,
              address: str | None = None, progress: Callable[[int, Any], None] | None = None,
              keep_results: bool = True) -> list:
    """``[fn(t) for t in tasks]`` on the chosen executor, in task order (see the module docstring)."""
    _check(executor, workers, address)
    tasks = list(tasks)
    if executor == "ray":
        return _run_ray(fn, tasks, workers, address, progress, keep_results)
    n = min(workers or os.cpu_count() or 1, len(tasks))
    if executor == "serial" or n <= 1:
        return _run_serial(fn, tasks, progress, keep_results)
    return _run_local(fn, tasks, n, progress, keep_results)


def shards(items: Sequence, count: int) -> list[list]:
    """`items` cut into at most `count` contiguous, non-empty slices of near-equal size, in order."""
    items = list(items)
    count = max(1, min(count, len(items)))
    size, extra = divmod(len(items), count)
    out, start = [], 0
    for i in range(count):
        end = start + size + (1 if i < extra else 0)
        out.append(items[start:end])
        start = end
    return [s for s in out if s]


def run_sharded(fn: Callable[[list], list], items: Sequence, executor: str = "local", workers: int | None = None,
                address: str | None = None, progress: Callable[[int, Any], None] | None = None,
                count: int | None = None) -> list:
    """``fn(items)`` computed as ``fn`` over contiguous shards (default: 4 per worker, at least 20), the
    results concatenated in order; `fn` maps a list to a list, one result per item or any number."""
    if count is None:
        count = max(20, 4 * (workers or os.cpu_count() or 1))
    parts = run_tasks(fn, shards(items, count), executor, workers, address, progress)
    return [x for part in parts for x in part]


__all__ = ["EXECUTORS", "WATCH_INTERVAL", "ExecutorError", "RayMissingError", "Star", "TaskError", "import_ray", "ray_session", "run_sharded", "run_tasks",
           "shards"]
