"""``belief run household``: household_v0 (C-WAH) episodes, one seeded episode at a time.

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
* ``miscoordination``: CoBel's detections, yields and avoided duplicates;
* ``tom_questions``: how many selected ToM questions were kept (:func:`belief.envs.household.tom.selected_set`,
  asked after every step of each agent, answered from the agent's own record); with ``tom_rows`` every one as
  a ToM-table row (gold, the agent's answer read by the one reader, every shortcut of the kernel's panel);
  with ``files`` the episode's trace, questions and answers in the grading format (``_files``).

The benchmark over agent kinds is :mod:`belief.app.bench.household`.
"""

from __future__ import annotations

from belief.agents.household.team import AGENT_KINDS, make_team, team_size
from belief.envs.household import environment as household_v0
from belief.envs.base.selected import tom_table_rows
from belief.envs.household.tom import selected_set
from belief.envs.household.world import DEFAULT_SCALE


def _world_value(world, fluent):
    if fluent[0] == "in":
        return world.location.get(fluent[1])
    return "open" if world.is_open.get(fluent[1]) else "closed"


def play_episode(config: dict, seed: int) -> dict:
    """One episode of ``config["agent"]`` (one of :data:`AGENT_KINDS`) on seed ``seed``.

    ``config`` keys: ``agent``; optional ``scale`` (``cwah``, the default, or ``small``), ``max_steps``,
    ``walk_steps``, ``approach_steps`` (the scale's by default), ``trace`` (a path to write the
    global trace to), ``tom`` (ask the selected questions; default on), ``tom_rows``, ``files`` (see the
    module docstring)."""
    kind = config["agent"]
    env = household_v0.parallel_env(seed=seed, n_agents=team_size(kind), scale=config.get("scale", DEFAULT_SCALE),
                                    max_steps=config.get("max_steps", household_v0.hw.MAX_STEPS),
                                    walk_steps=config.get("walk_steps"), approach_steps=config.get("approach_steps"))
    obs, infos = env.reset(seed=seed)
    team = make_team(kind, infos[env.agents[0]]["task"])
    pred, persist = [0, 0], [0, 0]
    split = {"in_sight": [0, 0, 0], "out_of_sight": [0, 0, 0]}  # prediction right, persistence right, steps
    world_acc = [0, 0]
    before = {a: None for a in team}  # each agent's subgoal at the previous step
    selected = selected_set(env.trace.meta, env.possible_agents, env.world.objects, sorted(env.world.is_open),
                           seed) if config.get("tom", True) else None
    asked, given = [], {}
    while env.agents:
        actions = {a: team[a].act(obs[a], infos[a]) for a in env.agents}  # each takes in what it perceived
        if selected is not None:  # asked about the trace so far, answered from what each agent took in
            selected.feed(env.trace)
            for a in env.agents:
                for q in selected.ask(env.steps, a):
                    asked.append(q)
                    given[q.id] = team[a].answer(q.public())
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
    out = {"agent": kind, "seed": seed, "scale": env.scale.name, "task": env.world.task, "layout": env.world.layout, **env.metrics(),
           "prediction": pred, "persistence": persist, "prediction_split": split, "belief_world": world_acc,
           "miscoordination": mis, "trace_events": len(env.trace)}
    if selected is not None:
        kept = selected.kept()
        qs = [q for q in asked if q.id in kept]
        out["tom_questions"] = len(qs)
        if config.get("tom_rows"):
            out["tom_rows"] = tom_table_rows(qs, given, kind, seed, selected.truth())
        if config.get("files"):
            from belief.app.runners.episode_files import episode_texts

            out["_files"] = episode_texts(f"household_{seed}", env.trace, [q.question for q in qs],
                                          [{"id": q.id, "agent": q.asked, "answer": given[q.id]} for q in qs])
    return out


__all__ = ["AGENT_KINDS", "play_episode"]
