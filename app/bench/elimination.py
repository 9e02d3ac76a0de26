"""Benchmark of knowledge by elimination on the bomb game: random-agent episodes (whose ToM questions the checker
answers through the game's constraints), then random chain queries on each episode's trace.

``run(episodes=10, seed=0, queries=300, depth=2)`` returns ``{"episode_cpu_s", "knows_chain_ms", "possible_ms",
"per_episode", ...}``: the CPU seconds of one whole episode (play and questions), and the CPU milliseconds of one
``knows_chain`` and of one ``possible`` query (a chain of 1..depth agents, a constrained fluent, a random time),
each on a fresh truth of the trace, so that nothing is memoised from an earlier run. Means over the episodes,
with the largest beside them; ``knows_chain_ms_median`` and ``_p90`` (and ``possible``'s) over every query of
every episode, each query timed on its own (``per_episode`` has each episode's median); ``belief bench elimination`` prints it as one JSON line. Times are CPU times of this
process (``time.process_time``).
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Callable, Optional

from belief.truth.checker import check


def chain_queries(truth, n: int, depth: int, seed: int) -> list:
    """``n`` random ``(chain, fluent, at)``: 1..depth agents of the trace, a constrained fluent, any time."""
    rng = random.Random(seed)
    agents = list(truth.agents)
    fluents = [f for f in truth.fluents() if truth.constraints and truth.constraints.constrained(f)]
    if not agents or not fluents:
        return []
    return [(tuple(rng.choice(agents) for _ in range(rng.randint(1, depth))), rng.choice(fluents),
             rng.randrange(len(truth.events))) for _ in range(n)]


def query_times_ms(trace, queries: list, method: str) -> list:
    """CPU milliseconds of each of ``queries`` asked in turn of ``GroundTruth.<method>``, on a fresh truth of
    ``trace`` (what one asks is memoised for the next ones, as in use). A read of the clock costs about 0.7 us,
    against about a millisecond a query."""
    ask = getattr(check(trace), method)
    clock = time.process_time
    out = []
    for chain, fluent, at in queries:
        t0 = clock()
        ask(chain, fluent, at)
        out.append(1000 * (clock() - t0))
    return out


def query_ms(trace, queries: list, method: str) -> Optional[float]:
    """CPU milliseconds per query of ``GroundTruth.<method>`` over ``queries``, on a fresh truth of ``trace``."""
    if not queries:
        return None
    return sum(query_times_ms(trace, queries, method)) / len(queries)


def episode(seed: int, queries: int = 300, depth: int = 2, max_rounds: int = 30) -> dict:
    """One random-agent bomb episode with its ToM questions, then the query timings on its trace."""
    from belief.app.runners.bomb import run_episode

    t0 = time.process_time()
    m = run_episode(["random"] * 3, seed, max_rounds=max_rounds, ask=True)
    cpu = time.process_time() - t0
    trace = m["_trace"]
    qs = chain_queries(check(trace), queries, depth, seed)
    row: dict = {"seed": seed, "events": len(trace), "questions": len(m["_questions"]), "episode_cpu_s": round(cpu, 3)}
    for method in ("knows_chain", "possible"):
        times = query_times_ms(trace, qs, method) if qs else []
        row[f"{method}_ms"] = _round(sum(times) / len(times)) if times else None
        row[f"{method}_ms_median"] = _round(statistics.median(times)) if times else None
        row[f"_{method}_times"] = times  # (every query's, for the medians over all episodes; not printed)
    return row


def _round(x: Optional[float]) -> Optional[float]:
    return None if x is None else round(x, 3)


def _mean_max(rows: list, key: str) -> tuple:
    xs = [r[key] for r in rows if r[key] is not None]
    return (_round(sum(xs) / len(xs)), max(xs)) if xs else (None, None)


def run(episodes: int = 10, seed: int = 0, queries: int = 300, depth: int = 2, max_rounds: int = 30,
        progress: Optional[Callable[[int], None]] = None) -> dict:
    rows = []
    for s in range(seed, seed + episodes):
        rows.append(episode(s, queries, depth, max_rounds))
        if progress is not None:
            progress(1)
    out: dict = {"episodes": episodes, "seed": seed, "queries": queries, "depth": depth, "max_rounds": max_rounds}
    for key in ("episode_cpu_s", "knows_chain_ms", "possible_ms"):
        out[key], out[f"{key}_max"] = _mean_max(rows, key)
    for method in ("knows_chain", "possible"):  # over every query of every episode
        times = sorted(t for r in rows for t in r.pop(f"_{method}_times"))
        out[f"{method}_ms_median"] = _round(statistics.median(times)) if times else None
        out[f"{method}_ms_p90"] = _round(times[int(0.9 * (len(times) - 1))]) if times else None
    out["per_episode"] = rows
    return out


__all__ = ["chain_queries", "episode", "query_ms", "query_times_ms", "run"]
