"""A centralised oracle for COBLOCK: it follows the task's reference plan (full information).

Used to show that generated tasks are solvable: with no slips, the plan's steps are placed in order, each
by its builder, the other builder waiting.
"""

from __future__ import annotations

from belief.envs.blocks_text import WAIT, place_action


class BlocksOracle:
    kind = "oracle"

    def __init__(self, name: str, task):
        self.name = name
        self.task = task

    def act(self, view: dict, mask) -> tuple[int, list]:
        built = view["built"]
        nxt = next((s for s in self.task.plan if built.get(s.cell) != s.colour), None)
        if nxt is None or nxt.builder != self.name or not mask[place_action(nxt.cell, nxt.colour)]:
            return WAIT, []
        return place_action(nxt.cell, nxt.colour), []


__all__ = ["BlocksOracle"]
