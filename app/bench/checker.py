"""Benchmark of the checker: a seeded random trace of enters, exits, moves and messages over R rooms,
then random perspective-chain queries (length 1..depth) at random times.

``run(agents=10, rooms=5, depth=4, events=100_000, queries=100_000)`` returns
``{"build_s", "queries_per_s", "total_s", "peak_mb", ...}``; ``belief bench checker`` prints it as one JSON line.
``--rooms 1`` is the worst case for observation: every agent present witnesses every event.
"""

from __future__ import annotations

import random
import resource
import sys
import time
from array import array
from typing import Callable, Optional

from belief.truth.checker import check
from belief.truth.trace import Announce, Content, Enter, Exit, Move, Statement, Tell, Trace


def make_trace(agents: int = 10, rooms: int = 5, events: int = 100_000, objects: int = 10,
               containers_per_room: int = 3, seed: int = 0, progress: Optional[Callable[[int], None]] = None,
               policy_mix: bool = True) -> Trace:
    """A random but consistent trace (agents only exit rooms they are in, move objects where they are)."""
    rng = random.Random(seed)
    names = [f"agent{i}" for i in range(agents)]
    room_names = [f"room{r}" for r in range(rooms)]
    containers = {r: [f"box{r}_{k}" for k in range(containers_per_room)] for r in room_names}
    objs = [f"obj{i}" for i in range(objects)]
    loc: dict[str, Optional[str]] = {a: None for a in names}
    present: dict[str, list] = {r: [] for r in room_names}
    trace = Trace(meta={"generator": "belief.app.bench.checker", "seed": seed, "agents": agents, "rooms": rooms})
    evs = trace._events  # trusted fast path: events are built with their index already set
    t = 0
    for o in objs:  # initial placement, unobserved (nobody is in any room yet)
        r = rng.choice(room_names)
        evs.append(Statement(t=t, subject=(o,), value=rng.choice(containers[r]), room=r))
        t += 1
    step = max(events // 100, 1)
    while t < events:
        x = rng.random()
        inside = [a for a in names if loc[a] is not None]
        if not inside or x < 0.25:
            a = rng.choice(names)
            r = rng.choice(room_names)
            if loc[a] is not None:
                present[loc[a]].remove(a)
            loc[a] = r
            present[r].append(a)
            ev = Enter(t=t, agents=(a,), room=r)
        elif x < 0.40:
            a = rng.choice(inside)
            present[loc[a]].remove(a)
            ev = Exit(t=t, agents=(a,), room=loc[a])
            loc[a] = None
        elif x < 0.85:
            a = rng.choice(inside)
            ev = Move(t=t, agent=a, object=rng.choice(objs), to=rng.choice(containers[loc[a]]))
        elif x < 0.95 and agents > 1:
            a = rng.choice(inside)
            others = [b for b in names if b != a]
            rec = tuple(rng.sample(others, min(rng.randint(1, 2), len(others))))
            r = rng.choice(room_names)
            ev = Tell(t=t, sender=a, recipients=rec,
                      content=(Content(subject=(rng.choice(objs),), value=rng.choice(containers[r])),))
        else:
            a = rng.choice(inside)
            r = rng.choice(room_names)
            ev = Announce(t=t, sender=a, content=(Content(subject=(rng.choice(objs),), value=rng.choice(containers[r])),))
        evs.append(ev)
        t += 1
        if progress is not None and t % step == 0:
            progress(step)
    return trace


def peak_mb() -> float:
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kb / 1024.0 if sys.platform != "darwin" else kb / (1024.0 * 1024.0)


def run(agents: int = 10, rooms: int = 5, depth: int = 4, events: int = 100_000, queries: int = 100_000,
        seed: int = 0, objects: int = 10, policy: str = "strict-truthful",
        progress: Optional[Callable[[str, int, int], None]] = None) -> dict:
    t0 = time.perf_counter()
    cb = (lambda n: progress("trace", n, events)) if progress else None
    trace = make_trace(agents, rooms, events, objects=objects, seed=seed, progress=cb)
    t1 = time.perf_counter()
    truth = check(trace, policy)
    t2 = time.perf_counter()
    rng = random.Random(seed + 1)
    names = [f"agent{i}" for i in range(agents)]
    objs = [("in", f"obj{i}") for i in range(objects)]
    # the queries as three int arrays (chain, fluent, time), about 16 bytes each: a list of 10^6 tuples took
    # 150 MB, as much as a sixth of the check's own memory
    chains: dict = {}
    q_chain, q_fluent, q_at = array("q"), array("q"), array("q")
    for _ in range(queries):
        chain = tuple(rng.choice(names) for _ in range(rng.randint(1, depth)))
        q_chain.append(chains.setdefault(chain, len(chains)))
        q_fluent.append(rng.randrange(len(objs)))  # (what rng.choice(objs) draws)
        q_at.append(rng.randrange(len(trace)))
    chain_of = list(chains)
    t3 = time.perf_counter()
    known = 0
    step = max(queries // 100, 1)
    value = truth.value
    for i, (c, f, at) in enumerate(zip(q_chain, q_fluent, q_at), start=1):
        if value(chain_of[c], objs[f], at) is not None:
            known += 1
        if progress is not None and i % step == 0:
            progress("queries", step, queries)
    t4 = time.perf_counter()
    qtime = t4 - t3
    return {
        "build_s": round(t2 - t1, 3),
        "queries_per_s": round(queries / qtime) if qtime > 0 else None,
        "total_s": round((t2 - t0) + qtime, 3),
        "peak_mb": round(peak_mb(), 1),
        "trace_s": round(t1 - t0, 3),
        "query_s": round(qtime, 3),
        "known_fraction": round(known / queries, 4) if queries else None,
        "agents": agents, "rooms": rooms, "depth": depth, "events": len(trace), "queries": queries,
        "objects": objects, "seed": seed, "policy": policy,
    }


__all__ = ["make_trace", "peak_mb", "run"]
