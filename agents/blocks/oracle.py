"""A centralised oracle for COBLOCK: it follows the task's reference plan (full information).

Used to show that generated tasks are solvable: with no slips, the plan's steps are placed in order, each
by its builder, the other builder waiting.
"""

from __future__ import annotations

from belief.agents.blocks.common import BlocksPlayer
from belief.envs.blocks.text import WAIT, place_action


class BlocksOracle(BlocksPlayer):
    kind = "oracle"

    def __init__(self, name: str, task):
        self.name = name
        self.task = task

    def next_step(self, built: dict):
        """The first plan step not built yet, when it is this builder's; else None (wait)."""
        nxt = next((s for s in self.task.plan if built.get(s.cell) != s.colour), None)
        return nxt if nxt is not None and nxt.builder == self.name else None

    def choose(self, view: dict, mask) -> tuple[int, list]:
        step = self.next_step(view["built"])
        if step is None or not mask[place_action(step.cell, step.colour)]:
            return WAIT, []
        return place_action(step.cell, step.colour), []


__all__ = ["BlocksOracle"]
