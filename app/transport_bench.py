"""``belief bench transport``: CoBel and baseline agents on the 24 fixed ``transport_v0`` episodes.

Per episode and agent type it records the transport rate (targets on the bed within the budget),
frames used, message tokens (:func:`belief.envs.transport_tokens.count_tokens`), messages sent, planner
statistics and belief accuracy against the exact checker (:func:`belief.checker.check` on the env's
global trace, policy ``strict-truthful``: a recipient holds what a truthful teammate said and the sender
knows it does).

Belief accuracy. Every ``SAMPLE_EVERY`` env steps and at the end, each agent's beliefs are compared
with the checker's truth for the same chain at the same trace position, over the location of every
target and container (``in``) and every room's exploration state (``explored``): zero order on chain
``(me,)``, first order on ``(me, partner)``. A fluent counts when the truth or the agent holds a value;
it is right when both hold the same value. Accuracy = right / counted, pooled over the episode. Agent
types that keep no first-order beliefs (``rule``) or have no partner (``single``) report ``null``.

Agent types: ``cobel``, ``always`` (CoELA-style: everything it knows, every other decision),
``silent`` (CoBel without messages), ``rule`` (rule-based hierarchical planner like RHP: greedy, no
partner model, no messages), ``single`` (one CoBel agent alone).

LLM mode (``llm=``, a :class:`belief.agents.transport_llm.TransportLLM`): ``cobel`` agents read
observations, predict the partner and phrase messages through the LLM, with checked, counted
fallbacks; episodes then run in this process (one client), each ``cobel`` row gets an ``llm`` entry and
the summary (and the JSON line) an ``llm`` key. Without it nothing changes.
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ProcessPoolExecutor

AGENT_TYPES = ("cobel", "always", "silent", "rule", "single")
SAMPLE_EVERY = 5


def run_episode(episode: int, kind: str = "cobel", planner: str | None = None, trace_path: str | None = None,
                llm=None, max_steps: int | None = None) -> dict:
    """One episode with two agents of type ``kind`` (one for ``single``); a dict of figures.

    ``llm``: a :class:`belief.agents.transport_llm.TransportLLM` (LLM mode, ``cobel`` only; the row then
    has an ``llm`` entry: requests, tokens and fallbacks in this episode). ``max_steps``: stop early."""
    from belief.agents.transport_cobel import make_agents, snapshot
    from belief.checker import check
    from belief.envs import transport_v0

    n = 1 if kind == "single" else 2
    env = transport_v0.parallel_env(episode=episode, n_agents=n)
    obs, infos = env.reset()
    task = infos[env.agents[0]]["task"]
    agents = make_agents(kind, env.agents, planner, llm=llm)
    llm_before = llm.report() if llm is not None and kind == "cobel" else None
    for a, ag in agents.items():
        ag.reset(task)
    samples = []  # (trace position, {agent: snapshot})
    step = 0
    while env.agents and (max_steps is None or step < max_steps):
        actions = {a: agents[a].act(infos[a]["view"], infos[a]["action_mask"], infos[a]["action_names"])
                   for a in env.agents}
        if step % SAMPLE_EVERY == 0:
            samples.append((len(env.trace) - 1, {a: snapshot(agents[a].state) for a in agents}))
        obs, rew, term, trunc, infos = env.step(actions)
        step += 1
        last = not env.agents or (max_steps is not None and step >= max_steps)
        if infos and last:  # only the final views: while the episode goes on, act() reads them
            for a in agents:
                agents[a].state = _absorb(agents[a], infos.get(a))
    samples.append((len(env.trace) - 1, {a: snapshot(agents[a].state) for a in agents}))
    m = env.metrics()
    gt = check(env.trace, "strict-truthful")
    acc = belief_accuracy(gt, samples, env, first_order=(n == 2 and agents[env.possible_agents[0]].config.first_order))
    pstats = {}
    for ag in agents.values():
        for k, v in ag.planner.stats.items():
            pstats[k] = pstats.get(k, 0) + v
    if trace_path:
        env.trace.write(trace_path)
    row = {"episode": episode, "name": env.trace.meta.get("name"), "agent": kind, **m, "belief_accuracy": acc,
           "planner": pstats}
    if llm_before is not None:
        row["llm"] = _llm_delta(llm_before, llm.report())
    return row


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


def _absorb(agent, info):
    """After the final step the env has no live agents; fold the last observation into the beliefs."""
    from belief.agents.transport_cobel import update

    if info is None or agent.state is None:
        return agent.state
    return update(agent.state, info["view"], agent.config)


def belief_accuracy(gt, samples, env, first_order: bool = True) -> dict:
    w = env.world
    fluents = [("in", o) for o in (*w.targets, *w.containers)] + [("explored", r) for r in w.rooms]
    right = {"zero_order": 0, "first_order": 0}
    counted = {"zero_order": 0, "first_order": 0}
    for pos, snaps in samples:
        for a, snap in snaps.items():
            for order, chain in (("zero_order", (a,)), ("first_order", tuple(snap)[1] if len(snap) > 1 else None)):
                if chain is None or (order == "first_order" and not first_order):
                    continue
                held = snap.get(chain, {})
                for f in fluents:
                    truth = gt.value(chain, f, at=pos) if gt.known(chain, f, at=pos) else None
                    mine = held.get(f)
                    if truth is None and mine is None:
                        continue
                    counted[order] += 1
                    right[order] += truth == mine
    return {k: (right[k] / counted[k] if counted[k] else None) for k in right}


def _job(args):
    ep, kind, planner = args
    return run_episode(ep, kind, planner)


def bench(episodes=None, agents=AGENT_TYPES, planner: str | None = None, workers: int | None = None,
          progress=None, llm=None) -> dict:
    """``llm`` (LLM mode for ``cobel``) runs every episode in this process: one client, one usage account."""
    from belief.envs.transport_world import EPISODES

    episodes = list(range(len(EPISODES))) if episodes is None else list(episodes)
    jobs = [(ep, kind, planner) for kind in agents for ep in episodes]
    workers = 1 if llm is not None else (workers or min(2, os.cpu_count() or 1))
    results = []
    if workers <= 1:
        for j in jobs:
            results.append(run_episode(*j, llm=llm) if llm is not None else _job(j))
            if progress:
                progress(results[-1])
    else:
        with ProcessPoolExecutor(max_workers=workers) as ex:
            for r in ex.map(_job, jobs, chunksize=1):
                results.append(r)
                if progress:
                    progress(r)
    summary = summarise(results, len(episodes))
    if llm is not None:
        summary["llm"] = llm.report()
    return summary


def _mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def summarise(results: list, n_episodes: int) -> dict:
    by_agent = {}
    for kind in dict.fromkeys(r["agent"] for r in results):
        rs = [r for r in results if r["agent"] == kind]
        by_agent[kind] = {
            "transport_rate": _mean([r["transport_rate"] for r in rs]),
            "message_tokens": _mean([r["message_tokens"] for r in rs]),
            "messages": _mean([r["messages"] for r in rs]),
            "frames": _mean([r["frames"] for r in rs]),
            "belief_accuracy": {k: _mean([r["belief_accuracy"][k] for r in rs]) for k in ("zero_order", "first_order")},
            "planner": {k: sum(r["planner"].get(k, 0) for r in rs) for k in
                        ("calls", "cache_hits", "fallbacks", "engine_used", "greedy_cheaper", "seconds")},
        }
    out = {"episodes": n_episodes, "by_agent": by_agent}
    if "cobel" in by_agent and "always" in by_agent and by_agent["always"]["message_tokens"]:
        out["cobel_token_reduction_vs_always"] = 1 - by_agent["cobel"]["message_tokens"] / by_agent["always"]["message_tokens"]
    out["results"] = results
    return out


def plot(summary: dict, path: str) -> None:
    """Transport rate against message tokens per agent type (matplotlib, Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.4), dpi=120)
    colours = {"cobel": "tab:green", "always": "tab:red", "silent": "tab:blue", "rule": "tab:gray",
               "single": "tab:purple"}
    placed: list = []  # (x, label y) of labels already drawn, to keep close labels apart
    for kind, v in sorted(summary["by_agent"].items(), key=lambda kv: -kv[1]["transport_rate"]):
        x, y = v["message_tokens"], v["transport_rate"]
        ax.scatter([x], [y], s=90, color=colours.get(kind, "black"), zorder=3, label=kind)
        ly = y
        for px, py in placed:
            if abs(px - x) <= max(5.0, 0.5 * max(px, x)) and abs(py - ly) < 0.045:
                ly = py - 0.045
        placed.append((x, ly))
        label = f"{kind}: {y:.0%}" + (f", {x:.0f} tokens" if x else "")
        ax.annotate(label, (x, ly), textcoords="offset points", xytext=(9, 0),
                    fontsize=9, va="center")
    ax.set_xscale("symlog", linthresh=10)
    ax.set_xlim(-2, max(v["message_tokens"] for v in summary["by_agent"].values()) * 4 + 200)
    ax.set_xlabel("message tokens per episode (mean, symlog scale)")
    ax.set_ylabel("transport rate (mean)")
    ax.set_title(f"transport_v0: {summary['episodes']} episodes")
    ax.set_ylim(0, 1.05)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="lower left", fontsize=8, frameon=False)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def to_json_line(summary: dict) -> str:
    slim = {"episodes": summary["episodes"], "by_agent": {
        k: {"transport_rate": v["transport_rate"], "message_tokens": v["message_tokens"], "frames": v["frames"],
            "messages": v["messages"], "belief_accuracy": v["belief_accuracy"]}
        for k, v in summary["by_agent"].items()}}
    if "cobel_token_reduction_vs_always" in summary:
        slim["cobel_token_reduction_vs_always"] = summary["cobel_token_reduction_vs_always"]
    if "llm" in summary:  # only in LLM mode
        slim["llm"] = summary["llm"]
    return json.dumps(slim, sort_keys=False)


__all__ = ["AGENT_TYPES", "belief_accuracy", "bench", "plot", "run_episode", "summarise", "to_json_line"]
