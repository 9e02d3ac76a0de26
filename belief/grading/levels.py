"""The ToM question vocabulary every world shares: the three levels (orders) of a question and the belief
chain each level asks about. One definition, imported by the grading report, the worlds' question modules,
the agents and the runners.

A question is asked *to* agent ``asked`` *about* agent ``target``: introspection is what ``asked`` knows
(chain ``(asked,)``), first order what ``target`` knows (``(target,)``), second order whether ``target`` is
aware that ``asked`` knows (``(target, asked)``).
"""

from __future__ import annotations

LEVELS = ("introspection", "first_order", "second_order")
LEVEL_TITLES = {"introspection": "Introspection", "first_order": "1st-order", "second_order": "2nd-order"}


def level_chain(level: str, asked: str, target: str) -> tuple[str, ...]:
    """The belief chain a question of ``level`` asks about; KeyError for an unknown level."""
    return {"introspection": (asked,), "first_order": (target,), "second_order": (target, asked)}[level]


__all__ = ["LEVELS", "LEVEL_TITLES", "level_chain"]
