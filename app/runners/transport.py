"""``belief bench transport``: CoBel, its ablations and the baselines on ``transport_v0``.

Worlds: the 24 fixed episodes, or ``worlds`` generated ones (:func:`belief.envs.transport.world.
generated_spec`, seeds from :func:`belief.envs.transport.world.bench_world_seeds`). Every agent type plays
the same worlds, so differences are paired by world (:func:`belief.grading.stats.paired_diff_ci95`), which removes
the between-world variance; an ordering is reported only when the 95% interval of the difference excludes 0.

Per episode (:func:`play_episode`, a top-level picklable function of ``(config, seed)`` returning a plain
dict) it records:

* ``transport_rate`` (targets on the bed within the budget / targets) and the world's category;
* ``message_tokens`` (:func:`belief.envs.base.tokens.count_tokens`), ``messages`` and ``comm_frames``
  (frames spent sending, TDW-MAT's one frame per 500 characters);
* ``prediction_accuracy``: each agent's top predicted next subgoal of a teammate, at each decision,
  against the subgoal that teammate really chose at its next decision (a fetch matches when the predicted
  object is in the chosen batch); pooled over the episode;
* ``belief_accuracy_world``: every ``SAMPLE_EVERY`` steps and at the end, each value an agent holds in its
  zero-order chain (object locations, room search levels) against the world at that moment;
  ``belief_accuracy_partner``: each value of its first-order chain ``(me, p)`` against what ``p`` really
  holds then (its own zero-order chain); ``None`` when nothing was held;
* miscoordination events against the world: ``duplicate_searches`` (searching a room level the team had
  already reached) and ``futile_trips`` (arriving where a believed object no longer is); CoBel's own
  ``detections``, ``yields`` and ``avoided_duplicates`` (yields whose work the teammate did within
  ``YIELD_WINDOW`` frames).

LLM mode (``llm=``, a :class:`belief.agents.transport.llm.TransportLLM`): ``cobel`` agents read
observations, predict the partner and phrase messages through the LLM, with checked, counted fallbacks;
episodes then run in this process (one client), each ``cobel`` row gets an ``llm`` entry and the summary
(and the JSON line) an ``llm`` key. Without it nothing changes.
"""

from __future__ import annotations

import json
import os

from belief.agents.transport.baselines import AGENT_TYPES, SOLO
from belief.agents.transport.beliefs import snapshot
from belief.agents.transport.cobel import make_agents
from belief.envs.transport import environment as transport_v0
from belief.envs.transport import world as tw
from belief.app.runs.executor import run_tasks
from belief.grading.stats import mean_ci95, ordering, paired_diff_ci95

DEFAULT_AGENTS = ("cobel", "coela", "silent", "rhp", "rhp_alone")
SAMPLE_EVERY = 5
YIELD_WINDOW = 600  # frames: a yield avoided duplicate work when the teammate did that work within it


def make_env(world, kind: str, max_steps: int | None = None):
    """The env of a fixed episode (``world`` an int) or a generated world (``("gen", seed)``)."""
    n = 1 if kind in SOLO else None
    kw = {} if max_steps is None else {"max_steps": max(max_steps, 1)}
    if isinstance(world, int):
        return transport_v0.parallel_env(episode=world, n_agents=n or 2, **kw)
    return transport_v0.parallel_env(world_seed=int(world[1]), n_agents=n, **kw)


def run_episode(world, kind: str = "cobel", planner: str | None = None, trace_path: str | None = None,
                llm=None, max_steps: int | None = None) -> dict:
    """One episode of agent type ``kind`` on ``world`` (a fixed episode index, or ``("gen", seed)``);
    a dict of figures. ``llm``: LLM mode for ``cobel`` (the row then has an ``llm`` entry: requests,
    tokens and fallbacks in this episode). ``max_steps``: stop early."""
    env = make_env(world, kind)
    obs, infos = env.reset()
    task = infos[env.agents[0]]["task"]
    agents = make_agents(kind, env.agents, planner, llm=llm)
    llm_before = llm.report() if llm is not None and "cobel" in kind else None
    for a, ag in agents.items():
        ag.reset(task)
        ag.perceive((), infos.get(a))
    acc = {"world": [0, 0], "partner": [0, 0]}
    step = 0
    while env.agents and (max_steps is None or step < max_steps):
        actions = {a: agents[a].act(obs[a], infos[a]) for a in env.agents}
        if step % SAMPLE_EVERY == 0:
            _score_beliefs(acc, agents, env)
        obs, rew, term, trunc, infos = env.step(actions)
        step += 1
        for a, ag in agents.items():
            ag.perceive((), infos.get(a))
    _score_beliefs(acc, agents, env)
    if trace_path:
        env.trace.write(trace_path)
    w = env.world
    row = {"world": world if isinstance(world, int) else f"gen-{world[1]}", "name": env.trace.meta.get("name"),
           "agent": kind, "family": w.family, "capacity": w.capacity, "n_agents": len(env.possible_agents),
           "rooms": len(w.rooms), **env.metrics(),
           "belief_accuracy_world": _ratio(acc["world"]), "belief_accuracy_partner": _ratio(acc["partner"]),
           **_coordination(agents, env), "planner": _planner_stats(agents)}
    row["miscoordination"] = row["duplicate_searches"] + row["futile_trips"]
    if llm_before is not None:
        row["llm"] = _llm_delta(llm_before, llm.report())
    return row


def play_episode(config: dict, seed: int) -> dict:
    """The per-episode job (picklable, pure in its arguments): ``config`` = ``{"agents": kind, "worlds":
    "fixed" | "generated", "planner": name or None, "max_steps": n or None}``; ``seed`` is the fixed
    episode's index or the generated world's seed."""
    world = seed if config.get("worlds", "fixed") == "fixed" else ("gen", seed)
    return run_episode(world, config["agents"], config.get("planner"), max_steps=config.get("max_steps"))


def _ratio(pair):
    return pair[0] / pair[1] if pair[1] else None


def _score_beliefs(acc: dict, agents: dict, env) -> None:
    """Held values against the world (zero order) and against the teammate's real beliefs (first order)."""
    w = env.world
    snaps = {a: snapshot(ag.state) for a, ag in agents.items()}
    for a, snap in snaps.items():
        for (pred, subj), v in snap[(a,)].items():
            real = w.location[subj] if pred == "in" else tw.EXPLORE_STATES[w.explored[subj]]
            acc["world"][0] += v == real
            acc["world"][1] += 1
        if not agents[a].config.first_order:
            continue
        for chain, held in snap.items():
            if len(chain) != 2 or chain[1] not in snaps:
                continue
            theirs = snaps[chain[1]][(chain[1],)]
            for key, v in held.items():
                acc["partner"][0] += theirs.get(key) == v
                acc["partner"][1] += 1


def _coordination(agents: dict, env) -> dict:
    """Prediction accuracy against what teammates really chose next, and what yields avoided."""
    right = total = 0
    for ag in agents.values():
        for frame, p, key in ag.predictions:
            nxt = next((keys for f, keys in agents[p].decisions if f >= frame), None)
            if nxt is None:
                continue
            total += 1
            right += key in nxt
    done: dict = {}
    for f, a, what, subj, _ in env.log:
        if what in ("grasp", "explore"):
            done.setdefault((a, "fetch" if what == "grasp" else "explore", subj), []).append(f)
    yields = [(f, p, k) for ag in agents.values() for f, p, keys in ag.yields for k in keys]
    avoided = sum(1 for f, p, k in yields if any(f <= t <= f + YIELD_WINDOW for t in done.get((p, *k), ())))
    return {"predictions": total, "prediction_accuracy": right / total if total else None,
            "detections": sum(ag.detections for ag in agents.values()), "yields": len(yields),
            "avoided_duplicates": avoided, "futile_trips": sum(ag.state.noticed_gone for ag in agents.values())}


def _planner_stats(agents: dict) -> dict:
    out: dict = {}
    for ag in agents.values():
        for k, v in ag.planner.stats.items():
            out[k] = out.get(k, 0) + v
    return out


def _llm_delta(before: dict, after: dict) -> dict:
    out = {}
    for k, v in after.items():
        if isinstance(v, dict):
            out[k] = {kk: vv - before[k].get(kk, 0) for kk, vv in v.items()}
        elif isinstance(v, int) and not isinstance(v, bool):
            out[k] = v - before.get(k, 0)
        else:
            out[k] = v
    return out


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
    jobs = [({"agents": kind, "worlds": kind_of_world, "planner": planner, "max_steps": max_steps}, s)
            for s in seeds for kind in agents]
    results = []
    if llm is not None:
        for config, s in jobs:
            world = s if kind_of_world == "fixed" else ("gen", s)
            results.append(run_episode(world, config["agents"], planner, llm=llm, max_steps=max_steps))
            if progress:
                progress(results[-1])
    else:
        results = run_tasks(_job, jobs, executor, workers or min(2, os.cpu_count() or 1), address,
                            progress=(lambda i, r: progress(r)) if progress else None)
    summary = summarise(results, len(seeds))
    summary["worlds"] = kind_of_world
    if llm is not None:
        summary["llm"] = llm.report()
    return summary


def _mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def _pooled(rs, key, count):
    num = sum(r[key] * r[count] for r in rs if r[key] is not None)
    den = sum(r[count] for r in rs if r[key] is not None)
    return num / den if den else None


def _interval(values) -> dict:
    """A rate's mean and 95% interval, clipped to [0, 1]."""
    m, (lo, hi) = mean_ci95(values, bounds=(0.0, 1.0))
    return {"mean": m, "ci95": [lo, hi]}


def summarise(results: list, n_worlds: int) -> dict:
    by_agent = {}
    kinds = list(dict.fromkeys(r["agent"] for r in results))
    for kind in kinds:
        rs = [r for r in results if r["agent"] == kind]
        rate = _interval([r["transport_rate"] for r in rs])
        by_cat: dict = {}
        for r in rs:
            for cat in (r["family"], r["capacity"]):
                by_cat.setdefault(cat, []).append(r["transport_rate"])
        by_agent[kind] = {
            "transport_rate": rate["mean"], "ci95": rate["ci95"],
            "by_category": {c: _interval(v) for c, v in sorted(by_cat.items())},
            "message_tokens": _mean([r["message_tokens"] for r in rs]),
            "comm_frames": _mean([r["comm_frames"] for r in rs]),
            "messages": _mean([r["messages"] for r in rs]),
            "frames": _mean([r["frames"] for r in rs]),
            "prediction_accuracy": _pooled(rs, "prediction_accuracy", "predictions"),
            "belief_accuracy_world": _mean([r["belief_accuracy_world"] for r in rs]),
            "belief_accuracy_partner": _mean([r["belief_accuracy_partner"] for r in rs]),
            "miscoordination": _mean([r["miscoordination"] for r in rs]),
            "duplicate_searches": _mean([r["duplicate_searches"] for r in rs]),
            "futile_trips": _mean([r["futile_trips"] for r in rs]),
            "detections": _mean([r["detections"] for r in rs]),
            "yields": _mean([r["yields"] for r in rs]),
            "avoided_duplicates": _mean([r["avoided_duplicates"] for r in rs]),
            "planner": {k: sum(r["planner"].get(k, 0) for r in rs) for k in
                        ("calls", "cache_hits", "fallbacks", "engine_used", "greedy_cheaper", "seconds")},
        }
    out = {"episodes": n_worlds, "by_agent": by_agent}
    if "cobel" in by_agent and len(kinds) > 1:
        out["diff_vs"] = {k: _paired(results, "cobel", k) for k in kinds if k != "cobel"}
        coela = by_agent.get("coela")
        if coela and coela["message_tokens"]:
            out["token_reduction_vs_coela"] = 1 - by_agent["cobel"]["message_tokens"] / coela["message_tokens"]
    out["results"] = results
    return out


def _paired(results: list, a: str, b: str) -> dict:
    """``a - b`` per world (transport rate, message tokens) with 95% intervals and the supported ordering."""
    ra = {r["world"]: r for r in results if r["agent"] == a}
    rb = {r["world"]: r for r in results if r["agent"] == b}
    common = [w for w in ra if w in rb]
    out = {"worlds": len(common)}
    if len(common) < 2:
        return out
    for key in ("transport_rate", "message_tokens"):
        xa, xb = [ra[w][key] for w in common], [rb[w][key] for w in common]
        m, (lo, hi) = paired_diff_ci95(xa, xb)
        out[key] = {"mean": m, "ci95": [lo, hi], "ordering": ordering(xa, xb)}
    return out


JSON_KEYS = ("transport_rate", "ci95", "message_tokens", "comm_frames", "prediction_accuracy",
             "belief_accuracy_world", "belief_accuracy_partner", "messages", "frames", "miscoordination",
             "detections", "yields", "avoided_duplicates", "by_category")


def to_json_line(summary: dict) -> str:
    slim = {"episodes": summary["episodes"], "worlds": summary.get("worlds", "fixed"),
            "by_agent": {k: {key: v[key] for key in JSON_KEYS} for k, v in summary["by_agent"].items()}}
    for key in ("diff_vs", "token_reduction_vs_coela", "llm"):
        if key in summary:
            slim[key] = summary[key]
    return json.dumps(slim, sort_keys=False)


__all__ = ["AGENT_TYPES", "DEFAULT_AGENTS", "bench", "play_episode", "run_episode", "summarise",
           "to_json_line"]
