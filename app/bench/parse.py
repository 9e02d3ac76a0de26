"""Benchmarks of the belief language (`belief bench parse`): figures as one JSON object."""

from __future__ import annotations

import random
import time
from typing import Callable, Optional

from belief.grammar import parse_readable_document, parse_sexpr_document, to_sexpr


def generate_fact_lines(n: int, seed: int = 0, agents: int = 10, objects: int = 50, places: int = 20) -> list[str]:
    """N readable facts of depth 1-4 over a small world, with some NOT, UNSURE, probabilities and tags."""
    rng = random.Random(seed)
    names = [f"agent{i}" for i in range(agents)]
    objs = [f"obj_{i}" for i in range(objects)]
    locs = [f"place{i}" for i in range(places)]
    lines = []
    for _ in range(n):
        depth = rng.randint(1, 4)
        chain = [rng.choice(names) for _ in range(depth)]
        obj = rng.choice(objs) if rng.random() < 0.9 else f"<{rng.choice(objs)}> ({rng.randint(1, 999)})"
        atom = f"{obj} IN {rng.choice(locs)}" if rng.random() < 0.8 else f"near({obj}, {rng.choice(locs)})"
        r = rng.random()
        if r < 0.1:
            body = f"NOT {atom}"
            prefix = chain
        elif r < 0.15:
            body = f"{chain[-1]} UNSURE {atom}"
            prefix = chain[:-1]
        else:
            body = atom
            prefix = chain
        line = "".join(f"{a} BELIEVE " for a in prefix) + body
        if rng.random() < 0.2:
            line += f" @ {round(rng.random(), 3)}"
        lines.append(line)
    return lines


def _best_time(fn, repeat: int, tick: Callable[[], None]):
    """Best CPU time (user + system of this process) of ``repeat`` runs, as timeit does (the minimum is the least
    disturbed by other load; CPU time, not wall time, so that a loaded machine costs waiting, not figures), and
    the last run's result."""
    best, result = float("inf"), None
    for _ in range(max(1, repeat)):
        result = None  # the previous run's facts are garbage now, not part of the next run's heap
        t0 = time.process_time()
        result = fn()
        best = min(best, time.process_time() - t0)
        tick()
    return best, result


def steps(repeat: int) -> int:
    """How many times :func:`bench_parse` calls its `progress` callback (a progress bar's total)."""
    return 2 + 2 * max(1, repeat)


def bench_parse(n: int = 100_000, seed: int = 0, repeat: int = 3,
                progress: Optional[Callable[[], None]] = None) -> dict:
    """Facts per CPU second in each form. `progress()` is called after generating, after each timed run and after
    printing the s-expressions."""
    tick = progress or (lambda: None)
    lines = generate_fact_lines(n, seed)
    readable = "\n".join(lines)
    tick()
    t_readable, facts = _best_time(lambda: parse_readable_document(readable), repeat, tick)
    sexpr = "\n".join(to_sexpr(f) for f in facts)
    tick()
    t_sexpr, facts2 = _best_time(lambda: parse_sexpr_document(sexpr), repeat, tick)
    if facts2 != facts:  # the benchmark doubles as a round-trip check
        raise AssertionError("s-expression round trip changed the facts")
    return {
        "readable_facts_per_s": round(len(facts) / t_readable),
        "sexpr_facts_per_s": round(len(facts2) / t_sexpr),
        "facts": len(facts),
    }
