"""Benchmark of online tracking: append N events to a :class:`belief.Tracker`, ``questions_per_event`` chain
queries after each, against one batch check of the same trace and the same queries on its final truth.

``run(events=20_000, agents=10, depth=4)`` returns ``{"append_us", "query_us", "peak_mb", "ratio_vs_batch",
...}``: the time per event of ``append`` and per query (online), the peak resident memory of the process, and
(online time) / (batch time). The trace is :func:`belief.app.bench.checker.make_trace`'s; each query after
event ``k`` asks a random chain (length 1..depth) about a random object at time ``k``, so online and batch
answer the same questions, and the bench asserts they give the same answers. ``repeat_query_us`` is the
last question asked again and again (nothing appended since), beside ``dict_lookup_us``, a dict look-up of
the same key in the same loop; ``gc_s`` is the cyclic garbage collector's CPU time within the timed blocks (the
tracker keeps no new container an event, so any is set off by its caller's objects). With ``load`` it also times
reading the same trace back from JSONL (``load_events_per_s``) and a 15-event prefix of it
(``load_15_events_ms``: the fixed cost per trace). ``compiled``: whether the replay running is the compiled
build's (``BELIEF_COMPILE=1``, setup.py). Times are CPU times of this process (one core), the online
ones read once per :data:`BLOCK` events and split between appends and questions by the wall clock around each
call in one block of :data:`SPLIT_EVERY` (reading it around every call would add about 0.5 us an event).
"""

from __future__ import annotations

import gc
import importlib.machinery
import random
import time
from itertools import count, islice

import belief.truth.index as replay_module
from belief.app.bench.checker import make_trace, peak_mb
from belief.truth.checker import check
from belief.truth.trace import Trace
from belief.truth.tracker import Tracker


BLOCK = 4096  # events timed between two reads of the CPU clock
#: one block in this many also times each call by the wall clock (the split between appends and questions)
SPLIT_EVERY = 8


class _CollectorTime:
    """A ``gc.callbacks`` entry summing the CPU time of the cyclic garbage collector's runs while ``on``."""

    def __init__(self) -> None:
        self.on = False
        self.seconds = 0.0
        self._start = 0.0

    def __call__(self, phase: str, info: dict) -> None:
        if self.on:
            if phase == "start":
                self._start = time.process_time()
            else:
                self.seconds += time.process_time() - self._start


def run(events: int = 20_000, agents: int = 10, depth: int = 4, rooms: int = 5, objects: int = 10, seed: int = 0,
        policy: str = "strict-truthful", batch: bool = True, load: bool = True, questions_per_event: int = 1,
        repeats: int = 100_000) -> dict:
    trace = make_trace(agents, rooms, events, objects=objects, seed=seed)
    names = [f"agent{i}" for i in range(agents)]
    fluents = [("in", f"obj{i}") for i in range(objects)]
    per_event = range(questions_per_event)

    def queries():  # the same sequence each time, made as it is used (a list of 10^6 chains is 100+ MB)
        rng = random.Random(seed + 1)
        for _ in range(len(trace)):
            yield tuple([(tuple(rng.choice(names) for _ in range(rng.randint(1, depth))), rng.choice(fluents))
                         for _ in per_event])

    gc.collect()
    tracker = Tracker(policy)
    append, value = tracker.append, tracker.value
    online_answers = []
    # CPU time of this process (what one core spends, whatever else runs), read once per block of events: a
    # read costs about 0.7 us (a system call), so reading it around every call would count it in the figures.
    # The questions of a block are drawn before its clock starts, each event's as a tuple of (chain, fluent)
    # tuples, which the collector stops tracking (nothing in them can make a cycle): a list per event, or a
    # (event, questions) pair per event, kept for a block would outlive the collector's young generations and,
    # at 10^6 events, set off full collections over the whole trace that the tracker did not cause. ``gc_s`` is
    # the collector's CPU time within the timed blocks. One block in :data:`SPLIT_EVERY` (the first among them)
    # also reads the cheap wall clock around each call, to split the CPU time between appends and questions:
    # three reads an event cost about 0.5 us, which the other blocks do not spend.
    clock, wall = time.process_time, time.perf_counter
    online_s = w_append = w_query = 0.0
    events_iter, questions_iter = iter(trace), queries()
    gc_time = _CollectorTime()
    gc.callbacks.append(gc_time)
    try:
        for block in count():
            events = list(islice(events_iter, BLOCK))
            if not events:
                break
            asked = list(islice(questions_iter, len(events)))
            gc_time.on = True
            t0 = clock()
            if block % SPLIT_EVERY:
                for ev, questions in zip(events, asked):
                    append(ev)
                    for chain, fluent in questions:
                        online_answers.append(value(chain, fluent))
            else:
                for ev, questions in zip(events, asked):
                    w0 = wall()
                    append(ev)
                    w1 = wall()
                    for chain, fluent in questions:
                        online_answers.append(value(chain, fluent))
                    w2 = wall()
                    w_append += w1 - w0
                    w_query += w2 - w1
            online_s += clock() - t0
            gc_time.on = False
    finally:
        gc.callbacks.remove(gc_time)
    share = w_append / (w_append + w_query) if w_append + w_query else 1.0
    t_append, t_query = online_s * share, online_s * (1 - share)
    peak_online = peak_mb()
    n_questions = len(trace) * questions_per_event
    out = {
        "events": len(trace), "agents": agents, "depth": depth, "rooms": rooms, "objects": objects, "seed": seed,
        "policy": policy, "questions_per_event": questions_per_event,
        # the replay compiled (BELIEF_COMPILE=1, setup.py), or the pure-Python one
        "compiled": str(replay_module.__file__).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)),
        "append_us": round(1e6 * t_append / len(trace), 2),
        "query_us": round(1e6 * t_query / n_questions, 2) if n_questions else None,
        "online_s": round(online_s, 3),
        "gc_s": round(gc_time.seconds, 3),
        "peak_mb": round(peak_online, 1),
    }
    if repeats and n_questions:  # the last question again, nothing appended since; a dict look-up alongside
        key = (chain, fluent)
        table = {key: online_answers[-1]}
        t0 = clock()
        for _ in range(repeats):
            value(chain, fluent)
        t1 = clock()
        for _ in range(repeats):
            table.get((chain, fluent))
        t2 = clock()
        out.update({"repeat_query_us": round(1e6 * (t1 - t0) / repeats, 3),
                    "dict_lookup_us": round(1e6 * (t2 - t1) / repeats, 3)})
    if batch:
        del tracker, append, value
        gc.collect()
        t0 = clock()
        truth = check(trace, policy)
        t1 = clock()
        value = truth.value
        batch_answers = [value(chain, fluent, k) for k, questions in enumerate(queries())
                         for chain, fluent in questions]
        t2 = clock()
        if batch_answers != online_answers:
            wrong = sum(a != b for a, b in zip(batch_answers, online_answers))
            raise AssertionError(f"online and batch answers differ on {wrong} of {n_questions} queries")
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
