"""``belief bench household`` / ``belief run household``: the household_v0 (C-WAH) agents, measured.

:func:`play_episode` plays one seeded episode with one agent kind and returns a plain dict; it is a
top-level pure function of ``(config, seed)`` so episodes can be sharded over processes.

Per episode:

* ``steps``: steps until every goal holds (250 when the horizon ends first); the C-WAH metric;
* ``message_tokens`` (:func:`belief.envs.base.tokens.count_tokens`) and ``comm_frames`` (steps spent
  sending: each message costs its sender one step);
* ``prediction``: ``[right, total]``: each step, a predicting agent's most probable partner subgoal
  against the subgoal the partner really chose that step (read here from the partner, never by the
  agent);
* ``persistence``: ``[right, total]`` on the same steps: the baseline "the partner keeps the subgoal it
  had at the previous step" (its real previous subgoal);
* ``belief_world``: ``[right, total]``: each step, every definite zero-order belief an agent holds
  (object locations, container states) against the world's real value at that moment (accuracy
  against the world, not against an ideal observer: an agent that saw something and was not there
  when it changed is wrong);
* ``miscoordination``: CoBel's detections, yields and avoided duplicates.

:func:`summarise` gives the one benchmark shape (:mod:`belief.app.bench.comparison`, docs/benchmarks.md):
per agent kind the mean of each per-episode figure with its 95% interval (accuracies as per-episode
shares), and ``diff_vs``: cobel against each other kind on the same seeds, with the ordering the interval
supports.
"""

from __future__ import annotations

from belief.agents.household.team import AGENT_KINDS, make_team, team_size
from belief.envs.household import environment as household_v0
from belief.app.runs.executor import Star, run_tasks
from belief.app.bench import metrics
from belief.app.bench.comparison import compare, headline_of, paired_difference


def _world_value(world, fluent):
    if fluent[0] == "in":
        return world.location.get(fluent[1])
    return "open" if world.is_open.get(fluent[1]) else "closed"


def play_episode(config: dict, seed: int) -> dict:
    """One episode of ``config["agent"]`` (one of :data:`AGENT_KINDS`) on seed ``seed``.

    ``config`` keys: ``agent``; optional ``max_steps``, ``walk_steps``, ``trace`` (a path to write the
    global trace to)."""
    kind = config["agent"]
    env = household_v0.parallel_env(seed=seed, n_agents=team_size(kind),
                                    max_steps=config.get("max_steps", household_v0.hw.MAX_STEPS),
                                    walk_steps=config.get("walk_steps", household_v0.WALK_STEPS))
    obs, infos = env.reset(seed=seed)
    team = make_team(kind, infos[env.agents[0]]["task"])
    pred, persist = [0, 0], [0, 0]
    split = {"in_sight": [0, 0, 0], "out_of_sight": [0, 0, 0]}  # prediction right, persistence right, steps
    world_acc = [0, 0]
    before = {a: None for a in team}  # each agent's subgoal at the previous step
    while env.agents:
        actions = {a: team[a].act(obs[a], infos[a]) for a in env.agents}
        for a, agent in team.items():
            for f, v in agent.record.snapshot().items():
                world_acc[0] += v == _world_value(env.world, f)
                world_acc[1] += 1
            if agent.prediction is not None and agent.partner in team:
                now = team[agent.partner].subgoal
                pred[0] += agent.prediction == now
                pred[1] += 1
                if before[agent.partner] is not None:  # "it keeps doing what it did", on the same steps
                    persist[0] += before[agent.partner] == now
                    persist[1] += 1
                    part = split["in_sight" if agent.record.partner_here() else "out_of_sight"]
                    part[0] += agent.prediction == now
                    part[1] += before[agent.partner] == now
                    part[2] += 1
        before = {a: ag.subgoal for a, ag in team.items()}
        obs, rewards, terms, truncs, infos = env.step(actions)
    if config.get("trace"):
        env.trace.write(config["trace"])
    mis = {k: sum(ag.stats.get(k, 0) for ag in team.values()) for k in ("detections", "yields", "avoided_duplicates")}
    return {"agent": kind, "seed": seed, "task": env.world.task, "layout": env.world.layout, **env.metrics(),
            "prediction": pred, "persistence": persist, "prediction_split": split, "belief_world": world_acc, "miscoordination": mis, "trace_events": len(env.trace)}


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


def summarise(results: list, seed: int | None = None) -> dict:
    """The benchmark JSON object (:func:`belief.app.bench.comparison.compare`): the headline agent (cobel
    when played) against each other kind, paired by seed."""
    kinds = list(dict.fromkeys(r["agent"] for r in results))
    by_kind = {k: [episode_figures(r) for r in results if r["agent"] == k] for k in kinds}
    if seed is None and results:
        seed = min(r["seed"] for r in results)
    extra = {"prediction_vs_persistence": _prediction_vs_persistence(results),
             "message_tokens": {k: sum(r["message_tokens"] for r in results if r["agent"] == k) for k in kinds}}
    if "coela" in by_kind and "single" in by_kind:  # the source study's check: a CoELA-like pair beats one agent
        extra["coela_vs_single"] = paired_difference(by_kind["coela"], by_kind["single"], metrics.HOUSEHOLD[0],
                                                     ("coela", "single"))
    return compare("household_v0", by_kind, metrics.HOUSEHOLD, headline_of(kinds, HEADLINE), seed=seed, extra=extra)


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
    jobs = [({**(config or {}), "agent": k}, s) for k in kinds for s in range(seed, seed + episodes)]
    results = run_tasks(Star(play_episode), jobs, executor, workers, address,
                        progress=(lambda i, r: progress(r)) if progress else None)
    order = {k: i for i, k in enumerate(kinds)}
    results.sort(key=lambda r: (order[r["agent"]], r["seed"]))
    return summarise(results, seed), results


__all__ = ["AGENT_KINDS", "bench", "play_episode", "summarise"]
