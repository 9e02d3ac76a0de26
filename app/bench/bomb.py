"""``belief bench bomb``: bomb_v0 agent teams on the same seeds, in the one benchmark JSON shape.

Teams (:data:`TEAMS`): three belief agents (the headline), three of the same agents with their beliefs about
teammates off (``no_minds``, :mod:`belief.agents.bomb.no_minds`: the ablation), three planners, three random
agents, and a mixed team (alpha belief, bravo planner, charlie random). Each episode is
:func:`belief.app.runners.bomb.run_episode` with its ToM questions asked and graded as ``belief run bomb``
grades them (:func:`~belief.app.runners.bomb.question_rows`); per episode: score, rounds, valid action
rate, completion, message words and the study's ToM accuracy per level (``tom_<level>``, Table 2 of Li et al.).
``extra.tom`` holds each team's ToM table per template (the study and probe sets by level, the selected
templates) with every shortcut of the panel beside the agents, the best one, ``tom: true|false`` and the
team's paired margin over it (:func:`belief.grading.trivial.tom_table`); ``extra.tom_levels`` the study's three
levels alone (over the study and probe sets). The selected set is asked only of teams with a belief (or LLM) agent.
"""

from __future__ import annotations

from belief.app.results.comparison import Metric, compare, share
from belief.app.results.metrics import TOM
from belief.grading.levels import LEVELS

#: team name -> the kinds of alpha, bravo and charlie
TEAMS = {"belief": ("belief",) * 3, "no_minds": ("no_minds",) * 3, "planner": ("planner",) * 3,
         "random": ("random",) * 3, "mixed": ("belief", "planner", "random")}
HEADLINE = "belief"
METRICS = (Metric("score", True, "points"), Metric("rounds", None, "rounds"), share("valid_action_rate"),
           share("completed"), Metric("message_words", False, "words")) + TOM


def bench_episode(team: str, random_maps: bool, max_rounds: int, seed: int) -> dict:
    """One episode of `team` (picklable with ``functools.partial``): its figures and its ToM rows."""
    from belief.app.runners.bomb import accuracy, run_episode, team_label, tom_rows

    kinds = list(TEAMS[team])
    m = run_episode(kinds, seed, random_maps=random_maps, max_rounds=max_rounds)
    rows = m["_rows"]
    return {"seed": seed, "team": team, "score": m["score"], "max_score": m["max_score"], "rounds": m["rounds"],
            "valid_action_rate": m["valid_action_rate"], "completed": float(bool(m["completed"])),
            "message_words": m["message_words"],
            "questions": len(rows), **{f"tom_{lvl}": accuracy(rows, lvl) for lvl in LEVELS},
            "tom_rows": tom_rows(rows, team_label(kinds))}


def summarise(runs: dict, seed: int, random_maps: bool, max_rounds: int) -> dict:
    """The benchmark JSON object of ``{team: [episode rows]}`` (see the module docstring)."""
    from belief.app.runners.bomb import team_label
    from belief.grading.trivial import tom_table

    def table(team: str, rows: list, study_only: bool):
        asked = [q for r in rows for q in r["tom_rows"]
                 if not study_only or q["type"].startswith(("study/", "probe/"))]
        if study_only:  # the three levels over the study and probe sets (Table 2)
            asked = [{**q, "type": q["type"].split("/", 1)[1]} for q in asked]
        return tom_table(asked, headline=team_label(TEAMS[team])) if asked else None

    tom = {team: table(team, rows, False) for team, rows in runs.items()}
    levels = {team: table(team, rows, True) for team, rows in runs.items()}
    plain = {team: [{k: v for k, v in r.items() if k != "tom_rows"} for r in rows] for team, rows in runs.items()}
    headline = HEADLINE if HEADLINE in plain else next(iter(plain))
    extra = {"teams": {team: list(TEAMS[team]) for team in plain}, "random_maps": random_maps,
             "max_rounds": max_rounds, "tom": tom, "tom_levels": levels}
    return compare("bomb_v0", plain, METRICS, headline, seed=seed, extra=extra)


__all__ = ["HEADLINE", "METRICS", "TEAMS", "bench_episode", "summarise"]
