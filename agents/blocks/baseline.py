"""The silent COBLOCK baseline (kind ``silent``, old name ``baseline``): it builds its own goal and nothing else.

It never models its partner (no messages, no help with the partner's goal, no reading of what the partner
knows) and never reflects on its own work (a slipped block stays). Each turn it places the lowest block of
its own goal that gravity and its inventory allow, else waits. Its ToM answers still come from the
checker on its private trace.
"""

from __future__ import annotations

from belief.agents.blocks.common import BlocksAgent
from belief.envs.blocks.text import WAIT, place_action


class BlocksBaselineAgent(BlocksAgent):
    kind = "silent"

    def choose(self, view: dict, mask) -> tuple[int, list]:
        built = view["built"]
        for cell, colour in sorted(view["goal"].items(), key=lambda kv: (kv[0][1], kv[0])):
            if cell not in built and mask[place_action(cell, colour)]:
                return place_action(cell, colour), []
        return WAIT, []


__all__ = ["BlocksBaselineAgent"]
