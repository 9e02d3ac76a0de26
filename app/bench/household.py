"""``belief bench household``: every household_v0 agent kind on the same seeds, as one comparison.

:func:`summarise` gives the one benchmark shape (:mod:`belief.app.results.comparison`, docs/benchmarks.md):
per agent kind the mean of each per-episode figure of :func:`belief.app.runners.household.play_episode` with
its 95% interval (accuracies as per-episode shares), and ``diff_vs``: cobel against each other kind on the
same seeds, with the ordering the interval supports. ``extra.prediction_table`` scores the partner prediction
against information-matched predictors (:func:`prediction_table`), ``extra.miscoordination`` the ground-truth
miscoordination, cobel's detection precision and recall and the steps it saved against ``cobel_nobbc``
(:func:`miscoordination_table`), ``extra.scale`` names the world's scale. ``extra.tom`` has per agent kind the ToM table
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
            **row["miscoordination"],
            **{k: row.get("ground_truth", {}).get(k) for k in ("same_target", "lost_fetch", "searched_twice",
                                                                "false_belief")}}


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
    extra["prediction_table"] = prediction_table(results)
    extra["miscoordination"] = miscoordination_table(results)
    tom = tom_tables(results)
    if tom:
        extra["tom"] = tom
    if "coela" in by_kind and "single" in by_kind:  # the source study's check: a CoELA-like pair beats one agent
        extra["coela_vs_single"] = paired_difference(by_kind["coela"], by_kind["single"], metrics.HOUSEHOLD[0],
                                                     ("coela", "single"))
    return compare("household_v0", by_kind, metrics.HOUSEHOLD, headline_of(kinds, HEADLINE), seed=seed, extra=extra)


def prediction_table(results: list) -> dict:
    """Per predicting kind, pooled over its episodes: every predictor's accuracy and mean log loss (nats) of the
    partner's real subgoal (:data:`belief.app.runners.household.PREDICTORS`), overall and split by sight, and the
    Bayesian step's paired log-loss difference with each other predictor (per-episode means, 95% interval)."""
    from belief.app.runners.household import PREDICTORS, SPLITS
    from belief.grading.stats import paired_diff_ci95

    out: dict = {}
    for k in dict.fromkeys(r["agent"] for r in results):
        rows = [r for r in results if r["agent"] == k and sum(r.get("prediction_scores", {}).get("n", {}).values())]
        if not rows:
            continue
        table: dict = {}
        for part in (*SPLITS, "all"):
            parts = SPLITS if part == "all" else (part,)
            n = sum(r["prediction_scores"]["n"][q] for r in rows for q in parts)
            table[part] = {"steps": n, **{p: {
                "accuracy": sum(r["prediction_scores"][q][p][0] for r in rows for q in parts) / n if n else None,
                "log_loss": sum(r["prediction_scores"][q][p][1] for r in rows for q in parts) / n if n else None}
                for p in PREDICTORS}}
        per_ep = {p: [sum(r["prediction_scores"][q][p][1] for q in SPLITS) / sum(r["prediction_scores"]["n"].values())
                      for r in rows] for p in PREDICTORS}
        diffs = {}
        for p in PREDICTORS[1:]:
            mean, (lo, hi) = paired_diff_ci95(per_ep["bayes"], per_ep[p])
            diffs[p] = {"mean": mean, "ci95": [lo, hi] if len(rows) > 1 else None, "n": len(rows)}
        table["bayes_log_loss_minus"] = diffs
        out[k] = table
    return out


def miscoordination_table(results: list) -> dict:
    """Per two-agent kind: ground-truth miscoordination (events and steps per episode, from the global view);
    for predicting kinds detection precision and recall (a flagged step is right when my choice before yielding
    is the partner's real subgoal that step); and the steps cobel's detections saved against ``cobel_nobbc``
    (the same agent without prediction, detection and priced messages) on the same seeds."""
    from belief.grading.stats import paired_diff_ci95

    out: dict = {}
    for k in dict.fromkeys(r["agent"] for r in results):
        rows = [r for r in results if r["agent"] == k and "ground_truth" in r]
        if not rows:
            continue
        keys = rows[0]["ground_truth"]
        entry = {g: sum(r["ground_truth"][g] for r in rows) / len(rows) for g in keys}
        tp, flagged, conflicts = (sum(r["detection"][i] for r in rows) for i in range(3))
        entry.update(conflict_steps=conflicts / len(rows), flagged_steps=flagged / len(rows),
                     precision=tp / flagged if flagged else None, recall=tp / conflicts if conflicts else None)
        out[k] = entry
    cobel = {r["seed"]: r for r in results if r["agent"] == HEADLINE}
    nobbc = {r["seed"]: r for r in results if r["agent"] == "cobel_nobbc"}
    seeds = sorted(set(cobel) & set(nobbc))
    if seeds:
        saved = [nobbc[s]["steps"] - cobel[s]["steps"] for s in seeds]
        mean, (lo, hi) = paired_diff_ci95(saved, [0.0] * len(saved))
        detections = sum(cobel[s]["miscoordination"]["detections"] for s in seeds) / len(seeds)
        out["saved_vs_nobbc"] = {"steps_saved": mean, "ci95": [lo, hi] if len(seeds) > 1 else None, "n": len(seeds),
                                 "detections": detections,
                                 "steps_per_detection": mean / detections if detections else None}
    return out


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
