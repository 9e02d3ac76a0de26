"""``belief bench transport``: CoBel, its ablations and the baselines on ``transport_v0``, paired by world.

Worlds: ``worlds`` generated ones (:func:`belief.envs.transport.world.generated_spec`, seeds from
:func:`belief.envs.transport.world.bench_world_seeds`; :data:`DEFAULT_WORLDS` by default), at the study's
scale (one RHP agent moves about 0.43 of the targets, the study 0.47), or the 24 fixed episodes, smaller
(2 agents, 10 targets: one RHP agent moves 0.65 there), given by index. Every agent type plays
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
import math
import os

from belief.agents.transport.baselines import STUDY_ABLATIONS
from belief.app.results import metrics
from belief.app.results.comparison import NO_ORDERING, agent_figures, compare, headline_of
from belief.app.runners.transport import (AGENT_TYPES, DEFAULT_AGENTS, PREDICTORS, SPLITS, play_episode,
                                          run_episode)
from belief.grading.stats import clustered_mean_ci95, mean_ci95, t975
from belief.app.runs.executor import run_tasks
from belief.envs.transport import world as tw
from belief.errors import BeliefError


def _job(args):
    config, seed = args
    return play_episode(config, seed)


#: the generated worlds of a default run (``belief bench transport``): a count chosen for the run time, not for
#: its figures (73 minutes with the ToM questions for the nine default agent types on two shared cores, most of
#: it the questions; --no-tom is far faster); the 60 worlds of seed 23 are the reference (docs/worlds/transport.md)
DEFAULT_WORLDS = 24


def bench(episodes=None, agents=DEFAULT_AGENTS, planner: str | None = None, workers: int | None = None,
          progress=None, llm=None, worlds: int | None = None, seed: int = 0, max_steps: int | None = None,
          executor: str = "local", address: str | None = None, tom: bool = True) -> dict:
    """Every agent type on the same worlds: ``worlds`` generated worlds from ``seed`` (default
    :data:`DEFAULT_WORLDS`) or the fixed ``episodes`` (indices, e.g. ``range(24)`` for all; ``seed`` does not
    apply). ``llm`` (LLM mode for ``cobel``) runs every episode in this process: one client, one usage account.
    ``progress(row)`` is called per episode. Other episodes run on `executor`
    (:func:`belief.app.runs.executor.run_tasks`: local, serial or ray).
    ``tom=False``: no ToM questions (no ``extra.tom``; about four times faster)."""
    if episodes is not None:
        if worlds is not None:
            raise BeliefError("bench: give fixed episodes or a number of generated worlds, not both")
        seeds, kind_of_world = list(episodes), "fixed"
    else:
        seeds = tw.bench_world_seeds(DEFAULT_WORLDS if worlds is None else worlds, seed)
        kind_of_world = "generated"
    jobs = [({"agents": kind, "worlds": kind_of_world, "planner": planner, "max_steps": max_steps,
              "tom": tom, "tom_rows": tom}, s) for s in seeds for kind in agents]
    results = []
    if llm is not None:
        for config, s in jobs:
            world = s if kind_of_world == "fixed" else ("gen", s)
            results.append(run_episode(world, config["agents"], planner, llm=llm, max_steps=max_steps,
                                       tom=tom, tom_rows=tom))
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
TASK_KINDS = ("food-low", "food-high", "stuff-low", "stuff-high")  # the study's four task kinds
#: CoBel-World's TDW-MAT table (transport rate, total average of the four task kinds; tokens: communication
#: cost, total average; GPT-4o rows), for the side-by-side in docs/worlds/transport.md
STUDY = {"rhp_alone": {"transport_rate": 0.4667}, "rhp": {"transport_rate": 0.7583},
         "coela": {"transport_rate": 0.8069, "message_tokens": 2511.75},
         "capo": {"transport_rate": 0.7944, "message_tokens": 4432.71},
         "cobel": {"transport_rate": 0.8514, "message_tokens": 900.76}}


def summarise(results: list, seed: int | None = None, worlds: str = "fixed") -> dict:
    """The benchmark JSON object (:func:`belief.app.results.comparison.compare`): the headline agent (cobel
    when played) against each other agent type, paired by world. ``extra``: ``worlds`` (fixed or generated),
    the transport rate per world category per agent, and cobel's token reduction against coela."""
    kinds = list(dict.fromkeys(r["agent"] for r in results))
    by_kind = {k: [r for r in results if r["agent"] == k] for k in kinds}
    headline = headline_of(kinds, HEADLINE)
    extra = {"worlds": worlds, "by_category": {k: _by_category(rs) for k, rs in by_kind.items()},
             "task_kinds": TASK_KINDS, "study": STUDY,
             "ablations": {k: v for k, v in STUDY_ABLATIONS.items() if k in by_kind},
             "prediction_vs_persistence": _prediction_vs_persistence(by_kind),
             "prediction": prediction_tables(by_kind),
             "detection": detection_tables(by_kind),
             "message_tokens": {k: sum(r["message_tokens"] for r in rs) for k, rs in by_kind.items()},
             "max_messages": {k: max(r["messages"] for r in rs) for k, rs in by_kind.items()}}
    saved = detection_savings(by_kind)
    if saved is not None:
        extra["detection_savings"] = saved
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
    """``{category: {"mean", "ci95", "n"}}`` of the transport rate per world family, capacity, the study's
    four task kinds (``food-low`` ... ``stuff-high``) and team size (``2_agents`` ...)."""
    by_cat: dict = {}
    for r in rows:
        for cat in (r["family"], r["capacity"], f"{r['family']}-{r['capacity']}", f"{r['n_agents']}_agents"):
            by_cat.setdefault(cat, []).append({"world": r["world"], "transport_rate": r["transport_rate"]})
    out = {}
    for cat, rs in sorted(by_cat.items()):
        f = agent_figures(rs, [metrics.TRANSPORT[0]], cat, "world")
        out[cat] = {"mean": f["transport_rate"], "ci95": f["ci95"]["transport_rate"], "n": f["n"]["transport_rate"]}
    return out


def _ordering(lo: float, hi: float, lower_better: str, higher_better: str) -> str:
    return lower_better if hi < 0 else higher_better if lo > 0 else NO_ORDERING


def prediction_tables(by_kind: dict) -> dict:
    """Per predicting agent type, per predictor (:data:`belief.app.runners.transport.PREDICTORS`) and split
    (all, teammate in sight, out of sight), pooled over its forecasts: ``n``, ``accuracy`` (the top key's
    hits, ties shared), ``log_loss`` (nats, :mod:`belief.app.results.scoring`); for ``bayes`` also
    ``covered`` (the share whose outcome was in its support); for every other predictor ``bayes_minus``:
    bayes' log loss minus its own on the same forecasts, with a 95% interval clustered by world, and which
    one the interval says predicts better."""
    out = {}
    for k, rows in by_kind.items():
        scored = [r for r in rows if r.get("prediction_scores")]
        if not scored:
            continue
        table: dict = {}
        for pred in PREDICTORS:
            table[pred] = {}
            for sp in SPLITS:
                cells = [(r["world"], r["prediction_scores"][pred][sp], r["prediction_scores"]["bayes"][sp])
                         for r in scored if r["prediction_scores"][pred][sp][0]]
                n = sum(c[0] for _, c, _ in cells)
                if not n:
                    table[pred][sp] = None
                    continue
                cell = {"n": n, "accuracy": sum(c[1] for _, c, _ in cells) / n,
                        "log_loss": sum(c[2] for _, c, _ in cells) / n}
                if pred == "bayes":
                    cell["covered"] = sum(c[3] for _, c, _ in cells) / n
                else:
                    values = [(b[2] - c[2]) / c[0] for _, c, b in cells for _ in range(c[0])]
                    worlds = [w for w, c, _ in cells for _ in range(c[0])]
                    mean, (lo, hi) = clustered_mean_ci95(values, worlds)
                    cell["bayes_minus"] = {"mean": mean, "ci95": [lo, hi] if len(cells) > 1 else None,
                                           "ordering": _ordering(lo, hi, "bayes better", "baseline better")
                                           if len(cells) > 1 else NO_ORDERING}
                table[pred][sp] = cell
        out[k] = table
    return out


def detection_tables(by_kind: dict) -> dict:
    """Per detecting agent type, pooled over its detection tests: the counts, precision and recall (each test:
    a detection or not, against whether the teammate's next subgoal really overlapped the intended one)."""
    out = {}
    for k, rows in by_kind.items():
        counts = {c: sum((r.get("detection_counts") or {}).get(c, 0) for r in rows) for c in ("tp", "fp", "fn", "tn")}
        if not sum(counts.values()):
            continue
        said, real = counts["tp"] + counts["fp"], counts["tp"] + counts["fn"]
        out[k] = {**counts, "precision": counts["tp"] / said if said else None,
                  "recall": counts["tp"] / real if real else None}
    return out


def _reached(curve: list, n: int, never: int) -> int:
    """The frame at which a transport curve first reached ``n`` targets on the bed (0 for none; ``never`` if never)."""
    if n <= 0:
        return 0
    return next((f for f, total in curve if total >= n), never)


def detection_savings(by_kind: dict, headline: str = HEADLINE, ablation: str = "cobel_nobbc") -> dict | None:
    """Frames cobel's detections saved against the no-BBC ablation on the same worlds: per world, the frame
    the ablation's team put its last target on the bed minus the frame cobel's team reached that count (the
    budget when it never did: a censored, smaller loss); the mean per world with its 95% interval, and per
    detection (the frames saved over all worlds / cobel's detections, interval clustered by world)."""
    if headline not in by_kind or ablation not in by_kind:
        return None
    base = {r["world"]: r for r in by_kind[ablation]}
    saved, dets, more = [], [], []
    for r in by_kind[headline]:
        b = base.get(r["world"])
        if b is None:
            continue
        n = b["transported"]
        saved.append(_reached(b["transport_curve"], n, tw.BUDGET) - _reached(r["transport_curve"], n, tw.BUDGET))
        dets.append(r["detections"])
        more.append(r["transported"] - n)
    if not saved:
        return None
    mean, ci = mean_ci95(saved)
    total = sum(dets)
    per = {"mean": None, "ci95": None}
    if total:
        ratio = sum(saved) / total
        g = len(saved)
        half = t975(g - 1) * math.sqrt(g / (g - 1) * sum((x - ratio * d) ** 2 for x, d in zip(saved, dets))) / total \
            if g > 1 else 0.0
        per = {"mean": ratio, "ci95": [ratio - half, ratio + half] if g > 1 else None}
    more_mean, more_ci = mean_ci95(more)
    return {"against": ablation, "worlds": len(saved), "frames_saved": {"mean": mean, "ci95": list(ci)},
            "detections_per_world": total / len(saved), "frames_per_detection": per,
            "more_targets": {"mean": more_mean, "ci95": list(more_ci)}}


def to_json_line(summary: dict) -> str:
    """The JSON line of ``belief bench transport --json``: the summary without the per-episode rows."""
    return json.dumps({k: v for k, v in summary.items() if k != "results"})


__all__ = ["AGENT_TYPES", "DEFAULT_AGENTS", "DEFAULT_WORLDS", "bench", "play_episode", "run_episode", "summarise",
           "to_json_line", "tom_tables"]
