"""Benchmark of online tracking: append N events to a :class:`belief.Tracker`, one chain query after each,
against one batch check of the same trace and the same queries on its final truth.

``run(events=20_000, agents=10, depth=4)`` returns ``{"append_us", "query_us", "peak_mb", "ratio_vs_batch",
...}``: the time per event of ``append`` and per query (online), the peak resident memory of the process, and
(online time) / (batch time). The trace is :func:`belief.app.bench.checker.make_trace`'s; the query after
event ``k`` asks a random chain (length 1..depth) about a random object at time ``k``, so online and batch
answer the same questions, and the bench asserts they give the same answers. With ``load`` it also times
reading the same trace back from JSONL (``load_events_per_s``) and a 15-event prefix of it
(``load_15_events_ms``: the fixed cost per trace). Times are CPU times of this process (one core).
"""

from __future__ import annotations

import gc
import random
import time

from belief.app.bench.checker import make_trace, peak_mb
from belief.truth.checker import check
from belief.truth.trace import Trace
from belief.truth.tracker import Tracker


def run(events: int = 20_000, agents: int = 10, depth: int = 4, rooms: int = 5, objects: int = 10, seed: int = 0,
        policy: str = "strict-truthful", batch: bool = True, load: bool = True) -> dict:
    trace = make_trace(agents, rooms, events, objects=objects, seed=seed)
    names = [f"agent{i}" for i in range(agents)]
    fluents = [("in", f"obj{i}") for i in range(objects)]

    def queries():  # the same sequence each time, made as it is used (a list of 10^6 chains is 100+ MB)
        rng = random.Random(seed + 1)
        for _ in range(len(trace)):
            yield tuple(rng.choice(names) for _ in range(rng.randint(1, depth))), rng.choice(fluents)

    gc.collect()
    tracker = Tracker(policy)
    append, value = tracker.append, tracker.value
    online_answers = []
    t_append = t_query = 0.0
    clock = time.process_time  # CPU time of this process: what one core spends, whatever else runs
    for ev, (chain, fluent) in zip(trace, queries()):
        t0 = clock()
        append(ev)
        t1 = clock()
        online_answers.append(value(chain, fluent))
        t2 = clock()
        t_append += t1 - t0
        t_query += t2 - t1
    online_s = t_append + t_query
    peak_online = peak_mb()
    out = {
        "events": len(trace), "agents": agents, "depth": depth, "rooms": rooms, "objects": objects, "seed": seed,
        "policy": policy,
        "append_us": round(1e6 * t_append / len(trace), 2),
        "query_us": round(1e6 * t_query / len(trace), 2),
        "online_s": round(online_s, 3),
        "peak_mb": round(peak_online, 1),
    }
    if batch:
        del tracker, append, value
        gc.collect()
        t0 = clock()
        truth = check(trace, policy)
        t1 = clock()
        value = truth.value
        batch_answers = [value(chain, fluent, k) for k, (chain, fluent) in enumerate(queries())]
        t2 = clock()
        if batch_answers != online_answers:
            wrong = sum(a != b for a, b in zip(batch_answers, online_answers))
            raise AssertionError(f"online and batch answers differ on {wrong} of {len(trace)} queries")
        batch_s = t2 - t0
        out.update({"batch_check_s": round(t1 - t0, 3), "batch_query_s": round(t2 - t1, 3),
                    "batch_s": round(batch_s, 3), "ratio_vs_batch": round(online_s / batch_s, 3),
                    "peak_mb_with_batch": round(peak_mb(), 1)})
    if load:  # reading the same trace from its JSONL form (Trace.loads), and a 15-event prefix of it
        text = trace.dumps()
        short = Trace(trace.events[:15], meta=trace.meta).dumps()
        gc.collect()
        t0 = clock()
        again = Trace.loads(text)
        t1 = clock()
        for _ in range(100):
            Trace.loads(short)
        t2 = clock()
        if again.events != trace.events:
            raise AssertionError("the trace read back differs from the trace written")
        out.update({"load_events_per_s": round(len(trace) / (t1 - t0)) if t1 > t0 else None,
                    "load_15_events_ms": round((t2 - t1) * 1e3 / 100, 3)})
    return out


__all__ = ["run"]
