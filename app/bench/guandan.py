"""``belief bench guandan`` and ``belief bench guandan-moves``: the study's evaluation, and the legal-move
timing goal (<= 5 ms for a full 27-card hand), each as one JSON object.

The evaluation JSON is the one benchmark shape (:func:`belief.app.results.comparison.compare`: each agent kind's
team, the ToM planner, its ablation ``planner`` (belief branches off), ``rule_keep`` (the rule agent that keeps
its bombs and wilds), ``rule`` and ``random``, against the rule team on the same seeds in both seatings, paired
by seed) plus two top-level keys: ``matchups`` (head to head: ToM vs rule, ToM vs random, rule vs random, ToM vs
planner, ToM vs rule_keep: win rate with a Wilson interval over the games, level gain, per seat pair) and ``tom`` (the ToM planner's accuracy by order and by template, with the trivial
answerers beside it: :func:`belief.grading.trivial.tom_table`).
"""

from __future__ import annotations

import random
import statistics
import time

from belief.app.results.comparison import Metric, compare, share
from belief.envs.guandan.cards import DECK_SIZE, HAND_SIZE, face
from belief.envs.guandan.moves import face_counts, legal_plays

GOAL_MS = 5.0
TOP_KEYS = ("matchups", "tom")


def bench_moves(hands: int = 500, seed: int = 0, repeat: int = 3) -> dict:
    """Time :func:`legal_plays` on ``hands`` random 27-card hands (leading: the full list) at random levels.

    A hand's time is the best of ``repeat`` calls in CPU time (``time.process_time``): on a shared machine the
    wall clock also counts the time other processes hold the CPU. Hands with both wild hearts (the most
    moves) are also reported apart."""
    rng = random.Random(seed)
    deck = list(range(DECK_SIZE))
    times, wild_times, sizes = [], [], []
    for _ in range(hands):
        rng.shuffle(deck)
        level = rng.randrange(13)
        counts = face_counts(face(c) for c in deck[:HAND_SIZE])
        best = None
        for _ in range(repeat):
            start = time.process_time()
            moves = legal_plays(counts, level)
            ms = (time.process_time() - start) * 1000
            best = ms if best is None else min(best, ms)
        times.append(best)
        sizes.append(len(moves))
        if counts[level * 4 + 1] == 2:
            wild_times.append(best)
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    return {"hands": hands, "seed": seed, "repeat": repeat, "clock": "process_time", "goal_ms": GOAL_MS,
            "median_ms": round(statistics.median(times), 3), "p95_ms": round(p95, 3), "max_ms": round(times[-1], 3),
            "median_moves": statistics.median(sizes), "max_moves": max(sizes), "two_wild_hands": len(wild_times),
            "two_wild_median_ms": round(statistics.median(wild_times), 3) if wild_times else None,
            "two_wild_max_ms": round(max(wild_times), 3) if wild_times else None,
            "meets_goal": times[-1] <= GOAL_MS}


METRICS = (share("win"), Metric("level_gain", True, "levels"))
#: every kind's team plays this team in the comparison shape (the study's baseline)
REFERENCE = "rule"
#: the kinds of the comparison shape: the ToM planner, its ablation (beliefs off), the strongest simple baseline,
#: the study's rule agent and random
COMPARED = ("tom", "planner", "rule_keep", "rule", "random")


def bench_guandan(games: int = 40, seed: int = 0, deals: int = 1, pass_rule: str = "free", progress=None,
                  executor: str = "serial", workers: int | None = 1, address: str | None = None,
                  rows_out: list | None = None) -> dict:
    """The head-to-head matchups (:data:`~belief.app.runners.guandan.MATCHUPS`) and each kind of
    :data:`COMPARED` against the :data:`REFERENCE` team, every seed in both seatings; games on `executor`;
    `rows_out`, when given, receives every game's row (its ToM rows left out)."""
    from belief.app.runners.guandan import MATCHUPS, matchup, per_deal, tom_extra, tom_figures

    figures, rows = {}, {}
    pairs = list(MATCHUPS) + [(kind, REFERENCE) for kind in COMPARED if (kind, REFERENCE) not in MATCHUPS]
    for a, b in pairs:
        figures[(a, b)], rows[(a, b)] = matchup(a, b, games, seed, deals=deals, pass_rule=pass_rule,
                                                ask=(a, b) in (("tom", "rule"), ("tom", "random")),
                                                progress=progress, executor=executor, workers=workers,
                                                address=address)
        if rows_out is not None:
            rows_out += [{k: v for k, v in r.items() if k not in ("tom_rows", "selected_rows")} for r in rows[(a, b)]]
    vs_reference = {kind: per_deal(rows[(kind, REFERENCE)]) for kind in COMPARED}
    tom_rows = rows[("tom", "rule")] + rows[("tom", "random")]
    out = compare("guandan_v0", vs_reference, METRICS, "tom", seed=seed,
                  extra={"games": games, "deals": deals, "pass_rule": pass_rule, "reference": REFERENCE,
                         "by_agent_is": f"each kind's team against the {REFERENCE} team, every seed in both "
                                        "seatings (a row per seed: the win share and level gain over the two)",
                         "tom": tom_extra(tom_rows)})
    out["matchups"] = {f"{a}_vs_{b}": figures[(a, b)] for a, b in MATCHUPS}
    out["tom"] = tom_figures(tom_rows)
    return out


def games_played(games: int) -> int:
    """How many games :func:`bench_guandan` plays for ``games`` seeds."""
    from belief.app.runners.guandan import MATCHUPS

    extra = [kind for kind in COMPARED if (kind, REFERENCE) not in MATCHUPS]
    return 2 * games * (len(MATCHUPS) + len(extra))


def shape_part(result: dict) -> dict:
    """The part of the result that is the one benchmark shape (``validate_bench_json``)."""
    return {k: v for k, v in result.items() if k not in TOP_KEYS}


__all__ = ["COMPARED", "GOAL_MS", "METRICS", "REFERENCE", "TOP_KEYS", "bench_guandan", "bench_moves", "games_played",
           "shape_part"]
