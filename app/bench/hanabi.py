"""``belief bench hanabi``: every Hanabi agent kind on the same seeds, in the one benchmark JSON shape.

Each kind plays seeds ``seed .. seed+games-1`` with ``players`` players (one kind for the whole table);
the headline is ``belief``, the baselines ``smartbot`` (the port of O'Dwyer's SmartBot, the strongest
published hand-written bot: 23.09 with two players), ``conventional`` (a convention bot with card counting)
and ``hintless`` (a trivial baseline that never reads hints). Per game: the score (0-25; 0 when the last
life is lost, as in the Hanabi Learning Environment), the fireworks tally (the score as O'Dwyer's framework
counts it: the fireworks even when the last life is lost; the figure SmartBot's 23.09 is), lives lost,
turns, and whether the game was perfect. ``extra`` holds the number of players, the
published two-player rule-bot scores for reference, and, for the first ``tom_games`` games of each kind,
the ToM table of :mod:`belief.envs.hanabi.tom`'s selected set: per template the agent's accuracy beside every
shortcut of the panel and Hanabi's ``hint_record``, the best one, ``tom`` and the agent's paired margin over it
(:func:`belief.grading.trivial.tom_table`).
"""

from __future__ import annotations

from functools import partial

from belief.app.results.comparison import Metric, compare, headline_of, share

HANABI_METRICS = (Metric("score", True, "points", (0.0, 25.0)), Metric("fireworks", True, "points", (0.0, 25.0)),
                  Metric("lives_lost", False, "lives", (0.0, 3.0)),
                  Metric("turns", None, "turns"), share("perfect"))
#: published two-player scores of rule bots (Walton-Rivers et al. 2017; O'Dwyer's SmartBot), for reference
PUBLISHED_2P = {"SimpleBot": 16.92, "ValueBot": 19.79, "HolmesBot": 20.75, "SmartBot": 23.09}


def game_row(kind: str, players: int, tom_games: int, first: int, seed: int) -> dict:
    """One game of ``kind`` (picklable for the process pool): its figures and, early on, its ToM rows."""
    from belief.app.runners.hanabi import HanabiConfig, play_game

    tom = seed < first + tom_games
    r = play_game(HanabiConfig(agents=kind, ask=False, players=players, tom_set=tom), seed)
    row = {"seed": seed, "agent": kind, "score": r["score"], "fireworks": r["fireworks"], "lives_lost": 3 - r["lives"],
           "turns": r["turns"],
           "perfect": r["score"] == 25}
    if tom:
        row["tom_rows"] = r["tom_rows"]
    return row


def summarise(rows_by_kind: dict, games: int, seed: int, players: int) -> dict:
    """The benchmark JSON object of ``{kind: [game rows]}``."""
    from belief.grading.trivial import TRIVIAL_ANSWERERS, tom_table

    tom = {kind: tom_table([q for r in rows for q in r.get("tom_rows", ())], (*TRIVIAL_ANSWERERS, "hint_record"),
                           headline=kind)
           for kind, rows in rows_by_kind.items() if any(r.get("tom_rows") for r in rows)}
    plain = {kind: [{k: v for k, v in r.items() if k != "tom_rows"} for r in rows]
             for kind, rows in rows_by_kind.items()}
    extra = {"players": players, "published_2p": PUBLISHED_2P,
             "perfect_games": {kind: sum(r["perfect"] for r in rows) for kind, rows in plain.items()},
             "tom": tom}
    return compare("hanabi_v0", plain, HANABI_METRICS, headline_of(list(plain), "belief"), seed=seed, extra=extra)


def bench(kinds, games: int, seed: int, players: int = 2, tom_games: int = 0, *, workers: int = 1,
          executor: str = "local", address=None, progress=None) -> tuple[dict, list]:
    """(summary, rows): every kind on seeds ``seed .. seed+games-1``; ``progress(row)`` after each game."""
    from belief.app.runs.executor import run_tasks

    seeds = list(range(seed, seed + games))
    by_kind = {}
    for kind in kinds:
        fn = partial(game_row, kind, players, tom_games, seed)
        by_kind[kind] = run_tasks(fn, seeds, executor, workers, address,
                                  progress=(lambda i, r: progress(r)) if progress else None)
    rows = [{k: v for k, v in r.items() if k != "tom_rows"} for rs in by_kind.values() for r in rs]
    return summarise(by_kind, games, seed, players), rows


__all__ = ["HANABI_METRICS", "PUBLISHED_2P", "bench", "game_row", "summarise"]
