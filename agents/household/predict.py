"""Bayesian prediction of the partner's next subgoal in ``household_v0``.

The hypotheses are the partner's possible subgoals under *my model of its beliefs* (the first-order
record): deliver what it holds, fetch an object it believes located, explore a room it has not seen,
wait. The posterior is

    P(s) ∝ exp(-cost(s) / T)                     prior: cheaper subgoals from where I last saw it
           × MHP_LIKELIHOOD if s is what an MHP planner with its beliefs would choose
           × PLAN_LIKELIHOOD if s is the plan it announced (recently)
           × (1 + PERSISTENCE × P_previous(s))    it tends to keep its subgoal

normalised. The argmax is the prediction; its accuracy is measured by the bench against what the
partner really chose (the agent never sees that).
"""

from __future__ import annotations

import math
from dataclasses import replace

from belief.agents.household.mhp import WAIT, Situation, Task, choose, fetch_candidates, pending
from belief.envs.household.world import object_class

TEMPERATURE = 1.5
MHP_LIKELIHOOD = 20.0
PLAN_LIKELIHOOD = 8.0
PERSISTENCE = 2.0
MAX_FETCH = 8


def hypotheses(task: Task, psit: Situation) -> dict:
    """Partner subgoal -> cost (doors to walk, +1 to open), from the partner's believed situation."""
    out = {}
    for o in psit.hands:
        if o is not None and object_class(o) in task.target_of:
            t = task.target_of[object_class(o)]
            out.setdefault(("deliver", t), task.dist(psit.room, task.room_of(t)))
    if any(o is None for o in psit.hands):
        for cost, o in fetch_candidates(task, psit)[:MAX_FETCH]:
            out[("fetch", o)] = cost
    for f in task.furniture:
        if f not in psit.checked:
            r = task.room_of(f)
            out.setdefault(("explore", r), task.dist(psit.room, r))
    if not any(pending(task, psit).values()) or not out:
        out[WAIT] = 0
    return out


def posterior(task: Task, psit: Situation, told_plan=None, previous=None) -> dict:
    """P(subgoal) for a partner in ``psit`` (``previous``: the last posterior, for persistence)."""
    previous = previous or {}
    hyp = hypotheses(task, psit)
    if told_plan is not None:
        hyp.setdefault(told_plan, 0)
    mhp, _ = choose(task, replace(psit, checked=set(psit.checked), banned=set(psit.banned)))
    scores = {}
    for s, cost in hyp.items():
        w = math.exp(-cost / TEMPERATURE)
        if s == mhp:
            w *= MHP_LIKELIHOOD
        if s == told_plan:
            w *= PLAN_LIKELIHOOD
        w *= 1 + PERSISTENCE * previous.get(s, 0.0)
        scores[s] = w
    z = sum(scores.values())
    return {s: w / z for s, w in scores.items()}


class PartnerPredictor:
    def __init__(self, task: Task):
        self.task = task
        self.posterior: dict = {}

    def update(self, psit: Situation, told_plan=None) -> dict:
        self.posterior = posterior(self.task, psit, told_plan, self.posterior)
        return self.posterior

    def best(self):
        """``(subgoal, probability)`` of the most probable hypothesis (ties: the first in order)."""
        if not self.posterior:
            return WAIT, 0.0
        s = max(self.posterior, key=lambda k: (self.posterior[k], -list(self.posterior).index(k)))
        return s, self.posterior[s]


class ObservedPartner:
    """The partner's subgoals as one agent perceived them (information-matched baselines for the prediction):
    a grasp it saw the partner make is ``fetch o``; a put on/in a goal target, or opening one, ``deliver t``;
    opening another container, ``explore`` its room; an announced plan is that plan. ``last`` is the latest,
    ``counts`` how often each was perceived. Fed the agent's own perceived events and messages only."""

    def __init__(self, task: Task, partner):
        self.task, self.partner = task, partner
        self.last = None
        self.counts: dict = {}

    def _saw(self, subgoal) -> None:
        self.last = subgoal
        self.counts[subgoal] = self.counts.get(subgoal, 0) + 1

    def feed(self, events, held_by_partner=frozenset(), my_action=None) -> None:
        """Actions I saw (a private trace keeps their effects, not who acted): a grasp whose object went to the
        partner; a put of what I believed the partner held (``held_by_partner``); an open I did not do myself
        (``my_action``: my action of that step)."""
        targets = set(self.task.target_of.values())
        for ev in events:
            if ev.kind != "action":
                continue
            for eff in ev.effects:
                (o,), v = eff.subject, eff.value
                if ev.name == "grasp" and v == self.partner:
                    self._saw(("fetch", o))
                elif ev.name == "put" and o in held_by_partner and v in targets:
                    self._saw(("deliver", v))
                elif ev.name == "open" and my_action != f"open {o}":
                    self._saw(("deliver", o) if o in targets else ("explore", self.task.room_of(o)))

    def told(self, plan) -> None:
        if plan is not None:
            self._saw(tuple(plan))

    def keeps_last(self) -> dict:
        """"It keeps the last subgoal I saw or was told": all mass on it (nothing yet: no opinion)."""
        return {self.last: 1.0} if self.last is not None else {}

    def most_frequent(self) -> dict:
        """The subgoals perceived so far, in proportion to how often."""
        n = sum(self.counts.values())
        return {s: c / n for s, c in self.counts.items()} if n else {}


__all__ = ["ObservedPartner", "PartnerPredictor", "hypotheses", "posterior"]
