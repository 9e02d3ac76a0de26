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
* ``prediction_scores``: ``{in_sight|out_of_sight: {predictor: [accuracy sum, log-loss sum]}, "n": {...}}``
  over the same steps as ``persistence``: the agent's Bayesian posterior and the information-matched
  predictors built from what the predicting agent perceived or was told (:class:`belief.agents.household.
  predict.ObservedPartner`: it keeps the last subgoal I saw or was told; the most frequent so far; uniform over
  the subgoals feasible under my model of its beliefs), and the oracle "it keeps its real previous subgoal".
  Each is a distribution over subgoals, smoothed by ``EPS`` spread over every subgoal of the episode, scored
  by log loss of the partner's real subgoal and by accuracy (right when the real subgoal is the most probable;
  ties share the credit); with no opinion yet a baseline falls back to uniform over the feasible subgoals;
* ``ground_truth``: miscoordination from the global view (:func:`miscoordination_truth`): steps and events
  where both agents head for the same object or room, work done twice (setting out to search a room
  whose containers the other agent has all seen inside already; a fetch lost to the partner), and an agent acting on a false belief the other could
  have corrected; ``detection``: ``[true positives, flagged steps, conflict steps]`` of a predicting agent's
  per-step detections against "my choice before yielding is the partner's real subgoal this step";
* ``tom_questions``: how many selected ToM questions were kept (:func:`belief.envs.household.tom.selected_set`,
  asked after every step of each agent, answered from the agent's own record); with ``tom_rows`` every one as
  a ToM-table row (gold, the agent's answer read by the one reader, every shortcut of the kernel's panel);
  with ``files`` the episode's trace, questions and answers in the grading format (``_files``).

The benchmark over agent kinds is :mod:`belief.app.bench.household`.
"""

from __future__ import annotations

import math

from belief.agents.household.predict import hypotheses
from belief.agents.household.team import AGENT_KINDS, make_team, team_size
from belief.envs.household.world import object_class
from belief.envs.household import environment as household_v0
from belief.envs.base.selected import tom_table_rows
from belief.envs.household.tom import selected_set
from belief.envs.household.world import DEFAULT_SCALE


def _world_value(world, fluent):
    if fluent[0] == "in":
        return world.location.get(fluent[1])
    return "open" if world.is_open.get(fluent[1]) else "closed"


EPS = 0.01  # smoothing: this much probability spread over every subgoal of the episode, for every predictor
PREDICTORS = ("bayes", "keeps_last_seen", "most_frequent", "uniform_feasible", "oracle_persistence")
SPLITS = ("in_sight", "out_of_sight")


def _universe(world) -> int:
    """How many subgoals an episode has (the smoothing's support): fetch each goal-class object, deliver to
    each target, explore each room, wait."""
    classes = {g.cls for g in world.goals}
    return (sum(1 for o in world.objects if object_class(o) in classes) + len({g.target for g in world.goals})
            + len(world.rooms) + 1)


def _score(dist: dict, truth, n: int) -> tuple[float, float]:
    """``(accuracy, log loss)`` of one predictive distribution against the real subgoal."""
    p = (1 - EPS) * dist.get(truth, 0.0) + EPS / n
    best = max(dist.values())
    top = [s for s, v in dist.items() if v == best]
    return (truth in top) / len(top), -math.log(p)


def _predictions(agent, previous) -> dict:
    """Every predictor's distribution over the partner's subgoal at this step (only ``oracle_persistence``
    reads the partner: its real previous subgoal)."""
    feasible = list(hypotheses(agent.task, agent.partner_situation()))
    uniform = {s: 1 / len(feasible) for s in feasible}
    return {"bayes": agent.predictor.posterior or uniform, "keeps_last_seen": agent.observed.keeps_last() or uniform,
            "most_frequent": agent.observed.most_frequent() or uniform, "uniform_feasible": uniform,
            "oracle_persistence": {previous: 1.0}}


class _Truth:
    """Ground-truth miscoordination of a two-agent episode, from the global view (the world, the global trace,
    every agent's real subgoal and record): events are counted at their onset (a condition that starts to hold
    for an agent and a subgoal)."""

    def __init__(self):
        self.counts = {"same_target_steps": 0, "same_target": 0, "lost_fetch": 0, "searched_twice": 0,
                       "false_belief_steps": 0, "false_belief": 0}
        self.detection = [0, 0, 0]  # true positives, flagged steps, conflict steps
        self._last: dict = {}

    def _onset(self, key, now: bool, name: str) -> None:
        if now and not self._last.get(key):
            self.counts[name] += 1
        self._last[key] = now

    def before_step(self, env, team) -> None:
        w = env.world
        a, b = sorted(team)
        sa, sb = team[a].subgoal, team[b].subgoal
        same = sa == sb and sa is not None and sa[0] in ("fetch", "explore")
        self.counts["same_target_steps"] += same
        self._onset(("same", sa), same, "same_target")
        for me, other in ((a, b), (b, a)):
            ag, partner = team[me], team[other]
            conflict = ag.intent is not None and ag.intent[0] in ("fetch", "explore") and ag.intent == partner.subgoal
            self.detection[0] += conflict and ag.flagged
            self.detection[1] += ag.flagged
            self.detection[2] += conflict
            wrong = self._false_belief(w, ag, partner)
            self.counts["false_belief_steps"] += wrong
            self._onset(("false", me, ag.subgoal), wrong, "false_belief")
            kind, arg = ag.subgoal or (None, None)
            again = kind == "explore" and all(c in partner.record.checked for c in w.containers_in(arg)) \
                and not all(c in ag.record.checked for c in w.containers_in(arg))
            self._onset(("again", me, arg), again, "searched_twice")

    @staticmethod
    def _false_belief(w, ag, partner) -> bool:
        """Does ``ag`` go for an object where it wrongly believes it is, while ``partner`` knows where it is?"""
        kind, arg = ag.subgoal or (None, None)
        if kind != "fetch":
            return False
        return ag.record.zero.get(("in", arg)) != w.location[arg] == partner.record.zero.get(("in", arg))

    def after_step(self, env, team) -> None:
        for me, ag in team.items():
            kind, arg = ag.subgoal or (None, None)
            lost = kind == "fetch" and env.world.location.get(arg) not in (None, me) and env.world.location[arg] in team
            self._onset(("lost", me, arg), lost, "lost_fetch")

    def finish(self) -> dict:
        return dict(self.counts)


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
    n_sub = _universe(env.world)
    scores = {part: {p: [0.0, 0.0] for p in PREDICTORS} for part in SPLITS}
    truth = _Truth() if len(team) == 2 else None
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
                    name = "in_sight" if agent.record.partner_here() else "out_of_sight"
                    part = split[name]
                    part[0] += agent.prediction == now
                    part[1] += before[agent.partner] == now
                    part[2] += 1
                    for p, dist in _predictions(agent, before[agent.partner]).items():
                        acc, loss = _score(dist, now, n_sub)
                        scores[name][p][0] += acc
                        scores[name][p][1] += loss
        if truth is not None:
            truth.before_step(env, team)
        before = {a: ag.subgoal for a, ag in team.items()}
        obs, rewards, terms, truncs, infos = env.step(actions)
        if truth is not None:
            truth.after_step(env, team)
    if config.get("trace"):
        env.trace.write(config["trace"])
    mis = {k: sum(ag.stats.get(k, 0) for ag in team.values()) for k in ("detections", "yields", "avoided_duplicates")}
    out = {"agent": kind, "seed": seed, "scale": env.scale.name, "task": env.world.task, "layout": env.world.layout, **env.metrics(),
           "prediction": pred, "persistence": persist, "prediction_split": split, "belief_world": world_acc,
           "miscoordination": mis, "trace_events": len(env.trace),
           "prediction_scores": {**scores, "n": {part: split[part][2] for part in SPLITS}}}
    if truth is not None:
        out["ground_truth"] = truth.finish()
        out["detection"] = truth.detection
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
