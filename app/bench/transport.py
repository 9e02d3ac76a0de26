"""``belief bench transport``: CoBel, its ablations and the baselines on ``transport_v0``, paired by world.

Worlds: the 24 fixed episodes, or ``worlds`` generated ones (:func:`belief.envs.transport.world.
generated_spec`, seeds from :func:`belief.envs.transport.world.bench_world_seeds`). Every agent type plays
the same worlds, so differences are paired by world, which removes the between-world variance; the summary
is the one benchmark shape (:mod:`belief.app.results.comparison`, docs/benchmarks.md): cobel against each
other agent type, an ordering only when the 95% interval of the difference excludes 0. The per-episode
figures are :func:`belief.app.runners.transport.play_episode`'s. ``extra.tom`` has per agent type the ToM table
(:func:`belief.grading.trivial.tom_table`) of the selected questions (:func:`belief.envs.transport.tom.
selected_set`): per template n, gold balance, the type's accuracy (each agent answering from its own belief
store), every shortcut of the kernel's panel, the best one, ``tom`` (best shortcut at most 0.65) and the type's
paired margin over the best shortcut (95% interval clustered by world).
"""

from __future__ import annotations

import json
import os

from belief.app.results import metrics
from belief.app.results.comparison import agent_figures, compare, headline_of
from belief.app.runners.transport import AGENT_TYPES, DEFAULT_AGENTS, play_episode, run_episode
from belief.app.runs.executor import run_tasks
from belief.envs.transport import world as tw


def _job(args):
    config, seed = args
    return play_episode(config, seed)


def bench(episodes=None, agents=DEFAULT_AGENTS, planner: str | None = None, workers: int | None = None,
          progress=None, llm=None, worlds: int | None = None, seed: int = 0, max_steps: int | None = None,
          executor: str = "local", address: str | None = None) -> dict:
    """Every agent type on the same worlds: the fixed ``episodes`` (indices; default all 24) or, with
    ``worlds``, that many generated worlds from ``seed``. ``llm`` (LLM mode for ``cobel``) runs every
    episode in this process: one client, one usage account. ``progress(row)`` is called per episode.
    Other episodes run on `executor` (:func:`belief.app.runs.executor.run_tasks`: local, serial or ray)."""
    if worlds is not None:
        seeds, kind_of_world = tw.bench_world_seeds(worlds, seed), "generated"
    else:
        seeds = list(range(len(tw.EPISODES))) if episodes is None else list(episodes)
        kind_of_world = "fixed"
    jobs = [({"agents": kind, "worlds": kind_of_world, "planner": planner, "max_steps": max_steps,
              "tom_rows": True}, s) for s in seeds for kind in agents]
    results = []
    if llm is not None:
        for config, s in jobs:
            world = s if kind_of_world == "fixed" else ("gen", s)
            results.append(run_episode(world, config["agents"], planner, llm=llm, max_steps=max_steps,
                                       tom_rows=True))
            if progress:
                progress(results[-1])
    else:
        results = run_tasks(_job, jobs, executor, workers or min(2, os.cpu_count() or 1), address,
                            progress=(lambda i, r: progress(r)) if progress else None)
    summary = summarise(results, seed=seed if kind_of_world == "generated" else None, worlds=kind_of_world)
    for r in results:  # the rows are in extra.tom; the per-episode table keeps the figures
        r.pop("tom_rows", None)
    if llm is not None:
        summary["extra"]["llm"] = llm.report()
    summary["results"] = results
    return summary


HEADLINE = "cobel"


def summarise(results: list, seed: int | None = None, worlds: str = "fixed") -> dict:
    """The benchmark JSON object (:func:`belief.app.results.comparison.compare`): the headline agent (cobel
    when played) against each other agent type, paired by world. ``extra``: ``worlds`` (fixed or generated),
    the transport rate per world category per agent, and cobel's token reduction against coela."""
    kinds = list(dict.fromkeys(r["agent"] for r in results))
    by_kind = {k: [r for r in results if r["agent"] == k] for k in kinds}
    headline = headline_of(kinds, HEADLINE)
    extra = {"worlds": worlds, "by_category": {k: _by_category(rs) for k, rs in by_kind.items()},
             "prediction_vs_persistence": _prediction_vs_persistence(by_kind),
             "message_tokens": {k: sum(r["message_tokens"] for r in rs) for k, rs in by_kind.items()},
             "max_messages": {k: max(r["messages"] for r in rs) for k, rs in by_kind.items()}}
    tom = tom_tables(by_kind)
    if tom:
        extra["tom"] = tom
    out = compare("transport_v0", by_kind, metrics.TRANSPORT, headline, seed=seed, pair_key="world", extra=extra)
    tokens = {k: out["by_agent"][k]["message_tokens"] for k in kinds}
    if "cobel" in tokens and tokens.get("coela"):
        extra["token_reduction_vs_coela"] = 1 - tokens["cobel"] / tokens["coela"]
    out["extra"] = extra
    return out


def tom_tables(by_kind: dict) -> dict:
    """Per agent type, the ToM table of the selected questions its episodes asked (their ``tom_rows``), the
    type itself as the headline."""
    from belief.grading.trivial import TRIVIAL_ANSWERERS, tom_table

    out = {}
    for k, rows in by_kind.items():
        qs = [row for r in rows for row in r.get("tom_rows", ())]
        if qs:
            out[k] = tom_table(qs, TRIVIAL_ANSWERERS, headline=k)
    return out


def _prediction_vs_persistence(by_kind: dict) -> dict:
    """Per predicting agent type, pooled over its episodes: the share of predictions that named a key of the
    teammate's next subgoal, and the share "it keeps doing what it did" got right on the same decisions
    (the teammate's real previous subgoal overlaps its next: a baseline that reads the teammate and names
    a whole batch, where the prediction names one key)."""
    out = {}
    for k, rows in by_kind.items():
        n = sum(r["predictions"] for r in rows)
        if n:
            out[k] = {"prediction": sum(r["prediction_right"] for r in rows) / n,
                      "persistence": sum(r["persistence_right"] for r in rows) / n, "predictions": n}
    return out


def _by_category(rows: list) -> dict:
    """``{category: {"mean", "ci95", "n"}}`` of the transport rate per world family and capacity."""
    by_cat: dict = {}
    for r in rows:
        for cat in (r["family"], r["capacity"]):
            by_cat.setdefault(cat, []).append({"world": r["world"], "transport_rate": r["transport_rate"]})
    out = {}
    for cat, rs in sorted(by_cat.items()):
        f = agent_figures(rs, [metrics.TRANSPORT[0]], cat, "world")
        out[cat] = {"mean": f["transport_rate"], "ci95": f["ci95"]["transport_rate"], "n": f["n"]["transport_rate"]}
    return out


def to_json_line(summary: dict) -> str:
    """The JSON line of ``belief bench transport --json``: the summary without the per-episode rows."""
    return json.dumps({k: v for k, v in summary.items() if k != "results"})


__all__ = ["AGENT_TYPES", "DEFAULT_AGENTS", "bench", "play_episode", "run_episode", "summarise",
           "to_json_line", "tom_tables"]
