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
* ``belief_world``: ``[right, total]``: each step, every definite zero-order belief an agent holds
  (object locations, container states) against the world's real value at that moment (accuracy
  against the world, not against an ideal observer: an agent that saw something and was not there
  when it changed is wrong);
* ``miscoordination``: CoBel's detections, yields and avoided duplicates.

:func:`summarise` gives per agent kind the mean with its 95% interval (:mod:`belief.grading.stats`), pooled
accuracies, and ``diff_vs``: paired step differences between kinds on the same seeds, with the ordering
the interval supports (``<``, ``>``, or ``~`` when it includes zero).
"""

from __future__ import annotations

from belief.agents.household.team import AGENT_KINDS, make_team, team_size
from belief.envs.household import environment as household_v0
from belief.app.runs.executor import Star, run_tasks
from belief.grading.stats import mean_ci95, ordering, paired_diff_ci95


def _world_value(world, fluent):
    if fluent[0] == "in":
        return world.location.get(fluent[1])
    return "open" if world.is_open.get(fluent[1]) else "closed"


def play_episode(config: dict, seed: int) -> dict:
    """One episode of ``config["agent"]`` (``cobel``, ``coela``, ``silent``, ``single``) on seed ``seed``.

    ``config`` keys: ``agent``; optional ``max_steps``, ``walk_steps``, ``trace`` (a path to write the
    global trace to)."""
    kind = config["agent"]
    env = household_v0.parallel_env(seed=seed, n_agents=team_size(kind),
                                    max_steps=config.get("max_steps", household_v0.hw.MAX_STEPS),
                                    walk_steps=config.get("walk_steps", household_v0.WALK_STEPS))
    obs, infos = env.reset(seed=seed)
    team = make_team(kind, infos[env.agents[0]]["task"])
    pred = [0, 0]
    world_acc = [0, 0]
    while env.agents:
        actions = {a: team[a].act(obs[a], infos[a]) for a in env.agents}
        for a, agent in team.items():
            for f, v in agent.record.snapshot().items():
                world_acc[0] += v == _world_value(env.world, f)
                world_acc[1] += 1
            if agent.prediction is not None and agent.partner in team:
                pred[0] += agent.prediction == team[agent.partner].subgoal
                pred[1] += 1
        obs, rewards, terms, truncs, infos = env.step(actions)
    if config.get("trace"):
        env.trace.write(config["trace"])
    mis = {k: sum(ag.stats.get(k, 0) for ag in team.values()) for k in ("detections", "yields", "avoided_duplicates")}
    return {"agent": kind, "seed": seed, "task": env.world.task, "layout": env.world.layout, **env.metrics(),
            "prediction": pred, "belief_world": world_acc, "miscoordination": mis, "trace_events": len(env.trace)}


def _ratio(pairs) -> float | None:
    right, total = sum(p[0] for p in pairs), sum(p[1] for p in pairs)
    return right / total if total else None


def summarise(results: list) -> dict:
    kinds = list(dict.fromkeys(r["agent"] for r in results))
    by_kind = {k: sorted((r for r in results if r["agent"] == k), key=lambda r: r["seed"]) for k in kinds}
    by_agent = {}
    for k, rs in by_kind.items():
        mean, (lo, hi) = mean_ci95([r["steps"] for r in rs])
        by_agent[k] = {
            "steps": mean, "ci95": [lo, hi],
            "message_tokens": mean_ci95([r["message_tokens"] for r in rs])[0],
            "comm_frames": mean_ci95([r["comm_frames"] for r in rs])[0],
            "prediction_accuracy": _ratio([r["prediction"] for r in rs]),
            "belief_accuracy_world": _ratio([r["belief_world"] for r in rs]),
            "done_rate": sum(r["done"] for r in rs) / len(rs),
            "miscoordination": {m: mean_ci95([r["miscoordination"][m] for r in rs])[0]
                                for m in ("detections", "yields", "avoided_duplicates")},
        }
    diff_vs = {}
    for i, a in enumerate(kinds):
        for b in kinds[i + 1:]:
            sa = [r["steps"] for r in by_kind[a]]
            sb = [r["steps"] for r in by_kind[b]]
            if [r["seed"] for r in by_kind[a]] != [r["seed"] for r in by_kind[b]] or len(sa) < 2:
                continue
            d, (lo, hi) = paired_diff_ci95(sa, sb)
            diff_vs.setdefault(a, {})[b] = {"steps_diff": d, "ci95": [lo, hi], "ordering": ordering(sa, sb)}
    episodes = max((len(rs) for rs in by_kind.values()), default=0)
    return {"episodes": episodes, "by_agent": by_agent, "diff_vs": diff_vs}


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
    return summarise(results), results


def contract(summary: dict) -> dict:
    """The JSON line of the benchmark contract (plus ``done_rate``, ``miscoordination`` and ``diff_vs``)."""
    keys = ("steps", "ci95", "message_tokens", "comm_frames", "prediction_accuracy", "belief_accuracy_world",
            "done_rate", "miscoordination")
    return {"episodes": summary["episodes"],
            "by_agent": {k: {key: v[key] for key in keys} for k, v in summary["by_agent"].items()},
            "diff_vs": summary["diff_vs"]}


__all__ = ["AGENT_KINDS", "bench", "contract", "play_episode", "summarise"]
