"""Benchmark of the LLM response cache (`belief bench llm-cache`): writes and reads per second by store size.

Each size gets a fresh cache file, filled to that many entries, then timed: ``writes`` puts of new keys and
as many gets of existing ones (the best of ``repeat`` runs, as timeit does). The entries look like real
ones: a structured reply of a few hundred bytes under a SHA-256 key.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Callable, Iterable

from belief.llm.cache import ResponseCache


def entry(i: int) -> tuple[str, dict]:
    """A cache entry like the client's: the key of a request, a structured reply."""
    key = ResponseCache.key({"model": "bench", "messages": [{"role": "user", "content": f"observation {i}"}]})
    facts = [f"agent{i % 7} BELIEVE obj_{j} IN room_{(i + j) % 5}" for j in range(6)]
    return key, {"value": {"facts": facts}, "text": '{"facts": %s}' % facts, "usage": {"prompt_tokens": 412,
                 "completion_tokens": 61, "total_tokens": 473}, "mode": "json_schema"}


def bench_llm_cache(sizes: Iterable[int] = (100, 3000), writes: int = 200, repeat: int = 3,
                    make: Callable[[Path], object] = ResponseCache, directory: str | None = None) -> dict:
    """{"store", "writes", "sizes": [{"entries", "writes_per_s", "reads_per_s", "ms_per_write", "file_bytes"}]}.

    ``make(path)`` builds the cache under test (anything with ``put``/``get``)."""
    rows = []
    for size in sizes:
        best_write = best_read = float("inf")
        file_bytes = 0
        for run in range(max(1, repeat)):
            with tempfile.TemporaryDirectory(dir=directory) as tmp:
                path = Path(tmp) / "llm-cache"
                cache = make(path)
                for i in range(size):
                    cache.put(*entry(i))
                new = [entry(size + i) for i in range(writes)]
                t0 = time.perf_counter()
                for key, value in new:
                    cache.put(key, value)
                best_write = min(best_write, time.perf_counter() - t0)
                t0 = time.perf_counter()
                for key, _ in new:
                    cache.get(key)
                best_read = min(best_read, time.perf_counter() - t0)
                file_bytes = path.stat().st_size  # the store itself (a SQLite write-ahead log comes and goes)
                close = getattr(cache, "close", None)
                if close is not None:
                    close()
        rows.append({"entries": size, "writes_per_s": round(writes / best_write),
                     "reads_per_s": round(writes / best_read), "ms_per_write": round(1000 * best_write / writes, 3),
                     "file_bytes": file_bytes})
    return {"bench": "llm-cache", "store": getattr(make, "__module__", "?"), "writes": writes, "repeat": repeat,
            "sizes": rows}


__all__ = ["bench_llm_cache", "entry"]
