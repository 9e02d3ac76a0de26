"""Exact ToM ground truth from a global trace, for perspective chains of any length.

:func:`check` is pure: it replays the trace (:mod:`belief.truth.index`) and returns a queryable
:class:`~belief.truth.ground.GroundTruth` (beliefs of any chain, knowledge, awareness, provenance). The logic
is written out in :mod:`belief.truth.ground` and in docs/logic.md.

Representation (never materialises chains): per fluent, the list of *group updates* in order, plus for
every agent the positions of the updates it observed. A chain ``(a1..ak)`` holds the value of the latest
group update whose observer set contains ``{a1..ak}``; that update is found by intersecting the agents'
position lists: one galloping step from the end (``O(k log n)``), then, if the answer is further back, an
AND of per-agent bitsets over the fluent's updates (built lazily at query time, ``O(k n / 64)`` machine
words). Policies that touch specific chains (``hitom``) add chain-specific overrides with times; a query
takes the later of the two.
"""

from __future__ import annotations

from typing import Optional, Union

from belief.logic.constraints import Constraints, constraints_of
from belief.logic.domain import Domain
from belief.logic.policies import TrustPolicy, get_policy
from belief.truth.trace import Trace
from belief.truth.typed_trace import type_check
from belief.truth.ground import GroundTruth, Provenance, TruthAnswer, fluent_of
from belief.truth.index import (HOW_ENTERED, HOW_POSSIBLE, HOW_REALITY, HOW_SEEN, HOW_TOLD, OPAQUE, UNSURE,
                                IndexBuilder)


def check(trace, policy: Union[str, TrustPolicy, None] = "strict-truthful", *, domain: Optional[Domain] = None,
          entities: Optional[dict] = None, constraints: Union[Constraints, list, None] = None) -> GroundTruth:
    """The exact ground truth of ``trace`` under the trust ``policy`` (a name or a TrustPolicy).

    With a ``domain`` (and optionally ``entities``: name -> type) the trace is type-checked first
    (:func:`belief.truth.typed_trace.type_check`): a TraceError lists the events that do not fit.
    ``constraints`` (default: the trace's ``meta["constraints"]``) are the world's rules for knowledge by
    elimination (:mod:`belief.logic.constraints`).
    """
    if not isinstance(trace, Trace):
        trace = Trace(trace)
    if domain is not None:
        type_check(trace, domain, entities)
    rules = constraints_of(trace, constraints)
    return GroundTruth.of_replay(trace, IndexBuilder(trace, get_policy(policy)).run(), rules)


__all__ = ["TruthAnswer", "GroundTruth", "Provenance", "check", "fluent_of", "HOW_ENTERED", "HOW_REALITY",
           "HOW_SEEN", "HOW_TOLD", "HOW_POSSIBLE", "UNSURE", "OPAQUE"]
