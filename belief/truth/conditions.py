"""The conditions of a possible change, as the replay keeps them (:mod:`belief.truth.index`).

A module of its own because the compiled build (``BELIEF_COMPILE=1``, setup.py) compiles the replay with mypyc,
whose classes cannot derive from ``tuple``: this one stays interpreted.
"""

from __future__ import annotations

from typing import Optional


class MayCondition(tuple):
    """The conditions of a possible change: ``((fluent, frozenset of values), ...)``. A chain draws the change
    unless it can rule one of them out (its value of a condition's fluent is none of the values)."""

    __slots__ = ()


def may_condition(given) -> Optional[MayCondition]:
    if not given:
        return None
    return MayCondition((tuple(c.fluent), frozenset(c.values)) for c in given)


__all__ = ["MayCondition", "may_condition"]
