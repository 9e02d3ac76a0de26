"""The source's baseline, talking: it sends its goal and inventory once, builds its own goal, fixes wrong blocks
on its own cells, then builds the partner's told cells it can.

The strongest fair version of the source's baseline agent (CoT prompting without partner-state modelling or
reflection: it reads the dialogue and acts on it, but keeps no model of what its partner knows or holds).
No checker in its decisions: it reads the messages it receives. Each turn, in order:

1. its first move: send its goal and inventory (the env's default message);
2. a block of the wrong colour on a cell of its own goal: remove it (first the blocks resting on it,
   highest first);
3. place the lowest block of its own goal that gravity and its inventory allow;
4. place the lowest block of the partner's goal, as the partner told it, that it can;
5. otherwise wait.

Its ToM answers come from the checker on its private trace, like every agent's.
"""

from __future__ import annotations

from belief.agents.blocks.common import BlocksAgent, block_to_remove, cell_of, low_first
from belief.envs.blocks.world import rules_of
from belief.envs.blocks.text import MESSAGE, WAIT, place_action, remove_action


class BlocksNaiveAgent(BlocksAgent):
    kind = "naive"

    def __init__(self, name: str):
        super().__init__(name)
        self.sent = False
        self.partner_goal: dict = {}    # cell -> colour, as the partner said

    def read(self, messages) -> None:
        for sender, facts in messages:
            said = {tuple(f): v for f, v in facts}
            for f, v in said.items():
                if f[0] == "target" and said.get(("owner", f[1]), sender) == sender:
                    self.partner_goal[cell_of(f[1])] = v

    def choose(self, view: dict, mask) -> tuple[int, list]:
        self.read(view.get("messages", []))
        if not self.sent:
            self.sent = True
            return MESSAGE, []
        built, own = view["built"], view["goal"]
        hang = rules_of(view.get("rules", "source")).hang
        for c in low_first(own)[::-1]:
            if c in built and built[c] != own[c]:
                r = block_to_remove(built, c, hang, mask)
                if r is not None:
                    return remove_action(r), []
        for goal in (own, self.partner_goal):
            for c in low_first(goal):
                if c not in built and mask[place_action(c, goal[c])]:
                    return place_action(c, goal[c]), []
        return WAIT, []


__all__ = ["BlocksNaiveAgent"]
