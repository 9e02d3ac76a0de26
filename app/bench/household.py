"""``belief bench household``: every household_v0 agent kind on the same seeds, as one comparison.

:func:`summarise` gives the one benchmark shape (:mod:`belief.app.results.comparison`, docs/benchmarks.md):
per agent kind the mean of each per-episode figure of :func:`belief.app.runners.household.play_episode` with
its 95% interval (accuracies as per-episode shares), and ``diff_vs``: cobel against each other kind on the
same seeds, with the ordering the interval supports. ``extra.tom`` has per agent kind the ToM table
(:func:`belief.grading.trivial.tom_table`) of the selected questions (:func:`belief.envs.household.tom.
selected_set`): per template n, gold balance, the agents' accuracy (each answering from its own record), every
shortcut of the kernel's panel, the best one, ``tom`` (best shortcut at most 0.65) and the kind's paired margin
over the best shortcut (95% interval clustered by episode).
"""

from __future__ import annotations

from belief.agents.household.team import AGENT_KINDS
from belief.app.results import metrics
from belief.app.results.comparison import compare, headline_of, paired_difference
from belief.app.runners.household import play_episode
from belief.app.runs.executor import Star, run_tasks
from belief.envs.household.world import DEFAULT_SCALE


HEADLINE = "cobel"


def _ratio(pair) -> float | None:
    return pair[0] / pair[1] if pair[1] else None


def episode_figures(row: dict) -> dict:
    """The per-episode metrics of a :func:`play_episode` row (accuracies as this episode's shares)."""
    return {"seed": row["seed"], "steps": row["steps"], "done_rate": float(row["done"]),
            "message_tokens": row["message_tokens"], "comm_frames": row["comm_frames"],
            "prediction_accuracy": _ratio(row["prediction"]),
            "persistence_accuracy": _ratio(row.get("persistence", (0, 0))), "belief_accuracy_world": _ratio(row["belief_world"]),
            **row["miscoordination"]}


def summarise(results: list, seed: int | None = None, scale: str | None = None) -> dict:
    """The benchmark JSON object (:func:`belief.app.results.comparison.compare`): the headline agent (cobel
    when played) against each other kind, paired by seed."""
    kinds = list(dict.fromkeys(r["agent"] for r in results))
    by_kind = {k: [episode_figures(r) for r in results if r["agent"] == k] for k in kinds}
    if seed is None and results:
        seed = min(r["seed"] for r in results)
    if scale is None:
        scale = results[0].get("scale", DEFAULT_SCALE) if results else DEFAULT_SCALE
    extra = {"scale": scale,
             "prediction_vs_persistence": _prediction_vs_persistence(results),
             "message_tokens": {k: sum(r["message_tokens"] for r in results if r["agent"] == k) for k in kinds}}
    tom = tom_tables(results)
    if tom:
        extra["tom"] = tom
    if "coela" in by_kind and "single" in by_kind:  # the source study's check: a CoELA-like pair beats one agent
        extra["coela_vs_single"] = paired_difference(by_kind["coela"], by_kind["single"], metrics.HOUSEHOLD[0],
                                                     ("coela", "single"))
    return compare("household_v0", by_kind, metrics.HOUSEHOLD, headline_of(kinds, HEADLINE), seed=seed, extra=extra)


def tom_tables(results: list) -> dict:
    """Per agent kind, the ToM table of the selected questions its episodes asked (rows of
    :func:`belief.app.runners.household.tom_rows`), the kind itself as the headline."""
    from belief.grading.trivial import TRIVIAL_ANSWERERS, tom_table

    out = {}
    for k in dict.fromkeys(r["agent"] for r in results):
        rows = [row for r in results if r["agent"] == k for row in r.get("tom_rows", ())]
        if rows:
            out[k] = tom_table(rows, TRIVIAL_ANSWERERS, headline=k)
    return out


def _prediction_vs_persistence(results: list) -> dict:
    """Per predicting agent kind, pooled over its episodes: the share of steps its predicted partner subgoal
    was right, and the share "the partner keeps the subgoal it had at the previous step" was right (the
    partner's real previous subgoal: a baseline that reads the partner, which the agent cannot)."""
    out = {}
    for k in dict.fromkeys(r["agent"] for r in results):
        rows = [r for r in results if r["agent"] == k and r["prediction"][1]]
        if rows:
            out[k] = {"prediction": _ratio([sum(r["prediction"][i] for r in rows) for i in (0, 1)]),
                      "persistence": _ratio([sum(r["persistence"][i] for r in rows) for i in (0, 1)]),
                      "steps": sum(r["prediction"][1] for r in rows)}
            for part in ("in_sight", "out_of_sight"):
                right, kept, n = (sum(r["prediction_split"][part][i] for r in rows) for i in range(3))
                out[k][part] = {"prediction": _ratio([right, n]), "persistence": _ratio([kept, n]), "steps": n}
    return out


def bench(kinds=AGENT_KINDS, episodes: int = 50, seed: int = 0, workers: int = 2, progress=None,
          config: dict | None = None, executor: str = "local", address: str | None = None) -> tuple[dict, list]:
    """Every kind on seeds ``seed .. seed+episodes-1``; ``(summary, per-episode results)``.

    Episodes run on `executor` (:func:`belief.app.runs.executor.run_tasks`: local, serial or ray);
    ``progress(result)`` is called as each episode finishes (in completion order)."""
    jobs = [({"tom_rows": True, **(config or {}), "agent": k}, s) for k in kinds for s in range(seed, seed + episodes)]
    results = run_tasks(Star(play_episode), jobs, executor, workers, address,
                        progress=(lambda i, r: progress(r)) if progress else None)
    order = {k: i for i, k in enumerate(kinds)}
    results.sort(key=lambda r: (order[r["agent"]], r["seed"]))
    summary = summarise(results, seed, (config or {}).get("scale", DEFAULT_SCALE))
    for r in results:  # the rows are in extra.tom; the per-episode table keeps the figures
        r.pop("tom_rows", None)
    return summary, results


__all__ = ["AGENT_KINDS", "bench", "play_episode", "summarise", "tom_tables"]
