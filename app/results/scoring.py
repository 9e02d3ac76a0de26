"""Scoring a predicted distribution over discrete outcomes (a partner's next subgoal, say) against what happened.

The outcome may be a *set* of keys (a subgoal that pursues several objects at once): the event scored is "the
key the prediction names is one of the outcome's keys", so the probability the prediction gave the outcome
is the sum of its probabilities over the outcome's keys.

* :func:`outcome_probability`: that sum, after smoothing the prediction towards the uniform distribution over
  ``universe`` keys with weight ``eps`` (every predictor is smoothed alike, so a predictor that gives the
  outcome zero mass pays a finite, equal penalty instead of an infinite log loss);
* :func:`log_loss`: ``-ln`` of it (nats);
* :func:`top_hit`: the accuracy of the prediction's most probable key, ties shared: the share of the
  argmax keys that are in the outcome (1 or 0 without ties; a uniform guess over n keys scores what a
  random tie-break would on average).
"""

from __future__ import annotations

import math
from typing import Collection, Mapping

from belief.errors import BeliefError

EPS = 0.01  # weight of the uniform distribution mixed into every prediction before its log loss
TIE = 1e-12


def _check(dist: Mapping, universe: int, eps: float) -> None:
    if universe < 1:
        raise BeliefError(f"scoring: the universe must hold at least one outcome, got {universe}")
    if not 0.0 < eps <= 1.0:
        raise BeliefError(f"scoring: eps must be in (0, 1], got {eps}")
    if any(p < 0 for p in dist.values()):
        raise BeliefError("scoring: a probability is negative")


def outcome_probability(dist: Mapping, outcome: Collection, universe: int, eps: float = EPS) -> float:
    """P(the named key is in ``outcome``) under ``dist`` smoothed as ``(1 - eps) dist + eps uniform``;
    ``universe`` is how many keys there are (the outcome's keys among them). ``dist`` is normalised here
    (an empty one is the uniform distribution)."""
    _check(dist, universe, eps)
    z = sum(dist.values())
    keys = set(outcome)
    p = sum(v for k, v in dist.items() if k in keys) / z if z > 0 else len(keys) / universe
    return (1.0 - eps) * p + eps * min(len(keys), universe) / universe


def log_loss(dist: Mapping, outcome: Collection, universe: int, eps: float = EPS) -> float:
    """``-ln outcome_probability`` (nats): 0 for a sure right prediction, ``ln(universe)`` for a uniform one."""
    return -math.log(outcome_probability(dist, outcome, universe, eps))


def top_hit(dist: Mapping, outcome: Collection) -> float:
    """The share of ``dist``'s most probable keys (ties shared) that are in ``outcome``; 0 for an empty ``dist``."""
    if not dist:
        return 0.0
    best = max(dist.values())
    top = [k for k, v in dist.items() if v >= best - TIE]
    keys = set(outcome)
    return sum(1 for k in top if k in keys) / len(top)


__all__ = ["EPS", "log_loss", "outcome_probability", "top_hit"]
