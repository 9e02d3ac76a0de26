"""Bayesian prediction of each teammate's next subgoal in ``transport_v0`` (CoBel-World's partner model).

For every teammate ``p`` the candidates are the subgoals ``p`` can form from what I believe *it*
believes (the first-order chain ``(me, p)``; without first-order beliefs, my own chain stands in for it):
``fetch(o)`` for every target it believes lying in a room, ``explore(r)`` for every room it does not
believe fully searched and where its unseen targets may be (the same room-type prior and Bayes' rule over
search levels I use for myself), ``deliver`` when I saw it carry something. The likelihood of a candidate
is a mixture: with weight 0.7 the subgoal ``p``'s own decision rule picks in its situation as I believe
it (:func:`partner_state`: its beliefs, where I last saw or was told it is, what I saw it carry), and with
0.3 a softmax over every candidate's frame cost from there, times a weight (a fetch 1, an exploration its
expected finds); an announced plan multiplies the candidates it names by 20. The
posterior is filtered over time: yesterday's posterior (plus a floor of 0.25) is today's prior, so a
teammate seen walking towards a goal keeps it.

``predict`` also refreshes my own location posterior over unseen targets (``loc_prob``, ``expected``).
"""

from __future__ import annotations

import copy
import math

from belief.agents.transport.beliefs import (BeliefState, PartnerModel, available, contained, current_plan,
                                             explored_level, go_frames, location_posterior, unseen_targets)
from belief.envs.transport import world as tw

PLAN_BOOST = 20.0
SIMULATION_WEIGHT = 0.7
STICKY_FLOOR = 0.25


def goal_key(goal) -> set:
    """The subgoal keys a :class:`Goal` pursues: ``("fetch", o)`` per object, ``("explore", r)``, ``("deliver",)``."""
    if goal is None:
        return set()
    if goal.kind == "fetch":
        return {("fetch", o) for o in goal.objects()}
    if goal.kind == "explore":
        return {("explore", goal.room)}
    return {(goal.kind,)}


def candidates(s: BeliefState, partner: str, first_order: bool) -> dict:
    """{subgoal key: (frame cost, weight)} of what ``partner`` may do next, from its beliefs as I model them."""
    pchain = (s.me, partner) if first_order else None
    m = s.models[partner]
    here = m.room
    mine = set(s.holding) | contained(s)
    cand = {}
    for o, r in available(s, pchain).items():
        if o not in mine:
            cand[("fetch", o)] = (go_frames(s, here, r) + tw.GRASP, 1.0)
    post = location_posterior(s, pchain)
    n_unseen = len(unseen_targets(s, pchain))
    for r in s.task["rooms"]:
        lvl = explored_level(s, r, pchain)
        if lvl < 2:
            gain = n_unseen * post[r] * 0.5 * (2 - lvl)
            if gain > 0.05:
                cand[("explore", r)] = (go_frames(s, here, r) + tw.EXPLORE, min(1.0, gain / 2))
    if m.holding:
        cand[("deliver",)] = (go_frames(s, here, s.task["bedroom"]), 0.7)
    return cand


def goal_distribution(s: BeliefState, partner: str, cand: dict, temperature: float, simulated=frozenset()) -> dict:
    """P(next subgoal) from the candidates, the simulated choice, the announced plan and the previous posterior."""
    model = {g: w * math.exp(-c / temperature) for g, (c, w) in cand.items()}
    z = sum(model.values())
    if z > 0:
        model = {g: (1 - SIMULATION_WEIGHT) * v / z for g, v in model.items()} if simulated else model
    for g in simulated:
        model[g] = model.get(g, 0.0) + SIMULATION_WEIGHT / len(simulated)
    plan = current_plan(s, partner)
    if plan:
        for g in model:
            if (g[0] == "fetch" and g[1] in plan["objects"]) or (g[0] == "explore" and g[1] == plan["explore"]) \
                    or (g[0] == "deliver" and plan["deliver"] and not plan["objects"]):
                model[g] *= PLAN_BOOST
    z = sum(model.values())
    if z <= 0:
        return {}
    prev = s.models[partner].goal_prob
    post = {g: (v / z) * (STICKY_FLOOR + prev.get(g, 0.0)) for g, v in model.items()}
    z = sum(post.values())
    return {g: v / z for g, v in post.items()}


class _Rerooted:
    """A read-only view of my store in which ``(partner, ...)`` reads my chain ``(me, partner, ...)``."""

    def __init__(self, store, me: str, partner: str, first_order: bool):
        self.store, self.prefix = store, ((me,) if first_order else ())
        self.partner, self.me, self.first_order = partner, me, first_order

    def _chain(self, chain):
        if not self.first_order and tuple(chain) == (self.partner,):
            return (self.me,)
        return self.prefix + tuple(chain)

    def value(self, chain, pred, *subject):
        return self.store.value(self._chain(chain), pred, *subject)

    def values(self, chain):
        return self.store.values(self._chain(chain))


def partner_state(s: BeliefState, partner: str, first_order: bool) -> BeliefState:
    """The teammate's situation as I believe it: its beliefs (my first-order chain), where I last saw or
    expect it, what I saw it carry, the plans it heard from me. Used to simulate its own decision rule."""
    m = s.models[partner]
    others = tuple(x for x in (s.me, *s.partners) if x != partner)
    models = {x: PartnerModel(room=s.room if x == s.me else s.models[x].room) for x in others}
    ps = BeliefState(partner, others, s.task, _Rerooted(s.store, s.me, partner, first_order), frame=s.frame,
                     room=m.room or s.room, holding=list(m.holding), models=models)
    post = location_posterior(ps)
    n = len(unseen_targets(ps))
    ps.expected = {r: n * q for r, q in post.items()}
    return ps


def predict(state: BeliefState, config, policy=None) -> BeliefState:
    """My location posterior over unseen targets and, with a partner model, each teammate's subgoal
    distribution. ``policy(state, config) -> Goal``: the decision rule teammates are assumed to follow;
    its choice in the teammate's believed situation gets ``SIMULATION_WEIGHT`` of the likelihood."""
    s = copy.copy(state)
    n_unseen = len(unseen_targets(s))
    if config.bayes:
        s.loc_prob = location_posterior(s)
        s.expected = {r: n_unseen * p for r, p in s.loc_prob.items()}
    else:
        s.expected = {r: (1.0 if explored_level(s, r) < 2 else 0.0) for r in s.task["rooms"]}
    if not config.partner_model:
        return s
    s.models = {p: copy.copy(m) for p, m in s.models.items()}
    for p in s.partners:
        cand = candidates(s, p, config.first_order)
        simulated = goal_key(policy(partner_state(s, p, config.first_order), config)) if policy else set()
        dist = goal_distribution(s, p, cand, config.temperature, simulated) if cand or simulated else {}
        if config.goal_picker is not None and len(dist) > 1:
            # LLM mode: the model picks among these candidates; its answer is blended in (None: keep these)
            picked = config.goal_picker(s, p, cand, dist)
            if picked is not None:
                dist = picked
        s.models[p].goal_prob = dist
    return s


def matched_predictors(s: BeliefState, partner: str) -> dict:
    """The information-matched predictors the benchmark scores :func:`predict` against: each a distribution
    over the same support as ``partner``'s predicted distribution (the subgoals feasible for it as I model
    it), built only from what I perceived or was told (never from its real subgoals):

    ``last_seen``  it keeps the last subgoal I saw or was told (an announced plan, a search I watched; a grasp
                   I watched names only the kind: spread over the feasible fetches); nothing seen yet: uniform;
    ``frequent``   the subgoal kinds I saw or was told so far, add-one counts over the feasible kinds, each
                   kind's share spread uniformly over its feasible subgoals;
    ``uniform``    uniform over the feasible subgoals."""
    m = s.models[partner]
    support = sorted(m.goal_prob)
    if not support:
        return {}
    uniform = {g: 1.0 / len(support) for g in support}
    last = uniform
    if m.seen:
        _, kind, keys = m.seen
        named = sorted(keys) or [g for g in support if g[0] == kind]
        if named:
            last = {g: 1.0 / len(named) for g in named}
    by_kind: dict = {}
    for g in support:
        by_kind.setdefault(g[0], []).append(g)
    weight = {k: m.kinds.get(k, 0) + 1.0 for k in by_kind}
    z = sum(weight.values())
    frequent = {g: weight[k] / z / len(gs) for k, gs in by_kind.items() for g in gs}
    return {"last_seen": last, "frequent": frequent, "uniform": uniform}


def top_goal(s: BeliefState, partner: str):
    gp = s.models[partner].goal_prob
    return max(gp.items(), key=lambda kv: (kv[1], kv[0]))[0] if gp else None


__all__ = ["candidates", "goal_distribution", "goal_key", "matched_predictors", "predict", "top_goal"]
