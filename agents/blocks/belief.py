"""A COBLOCK belief agent: partner-state modelling and self-reflection, from its private trace.

Everything it believes is the checker's answer on its own record (:class:`BlocksAgent`): its goal and
inventory, the partner's goal cells and counts it was told, and what the partner knows (the partner's
chain). Each turn, in order:

1. **self-reflection**: compare the built structure with the goal cells it knows; remove a block of the
   wrong colour in its own goal, or one it placed where no known goal wants it (a slip), after removing
   the blocks resting on it, highest first;
2. **tell what the partner lacks**: the cells of its goal it cannot build itself (a colour it lacks, or a
   cell nothing of its own can support) with their colour and its count of that colour, only the facts
   the partner does not know yet (``knows_chain((partner,), fact)`` on its record);
3. **help**: place a block of the partner's goal that the partner cannot place (its count of that colour,
   as this agent believes it, is short); the partner's next plan is predicted as the lowest of its own
   goal cells it can build, which this agent leaves alone;
4. **build**: the lowest cell of its own goal that gravity and its inventory allow, supporting cells first;
5. otherwise wait.
"""

from __future__ import annotations

from collections import Counter

from belief.agents.blocks.common import BlocksAgent, block_to_remove, low_first
from belief.envs.blocks.events import f_inventory, f_owner, f_target
from belief.envs.blocks.world import rules_of
from belief.envs.blocks.text import WAIT, MESSAGE, place_action, remove_action
from belief.envs.blocks.world import supports


class BlocksBeliefAgent(BlocksAgent):
    kind = "belief"

    def __init__(self, name: str):
        super().__init__(name)
        self.mine_placed: set = set()   # cells where a block I placed stands
        self.hang = False                # the rules' gravity (a block may hang under another)

    # --- beliefs ------------------------------------------------------------------------------------
    def count(self, agent: str, colour: str):
        v = self.held((self.name,), f_inventory(agent, colour))
        return int(v) if v is not None else None

    def partner_short(self, goals: dict, built: dict) -> dict:
        """The partner's unbuilt goal cells it cannot place for lack of blocks (as I believe its counts)."""
        todo = {c: col for c, (col, owner) in goals.items() if owner == self.partner and built.get(c) != col}
        need = Counter(todo.values())
        out = {}
        for c, col in todo.items():
            have = self.count(self.partner, col)
            if have is not None and have < need[col]:
                out[c] = col
        return out

    def partner_plan(self, goals: dict, built: dict):
        """The partner's predicted next placement: the lowest own goal cell it can build."""
        for c in low_first(c for c, (col, owner) in goals.items() if owner == self.partner and c not in built):
            have = self.count(self.partner, goals[c][0])
            if (have is None or have > 0) and (c[1] == 0 or any(s in built for s in supports(c, self.hang))):
                return c
        return None

    # --- acting -------------------------------------------------------------------------------------
    def choose(self, view: dict, mask) -> tuple[int, list]:
        built = view["built"]
        self.hang = rules_of(view.get("rules", "source")).hang
        self.mine_placed &= set(built)
        goals = self.goals((self.name,))
        own = {c: col for c, (col, owner) in goals.items() if owner == self.name}
        # 1. self-reflection
        for c in low_first(built)[::-1]:
            want = goals.get(c, (None,))[0]
            if (c in own and built[c] != own[c]) or (c in self.mine_placed and want != built[c]):
                # a wrong block: remove it, or first the highest block resting on it
                r = block_to_remove(built, c, self.hang, mask)
                if r is not None:
                    self.mine_placed.discard(r)
                    return remove_action(r), []
        # 2. tell the partner what it lacks to help
        facts = self._needs_message(own, built, view["inventory"])
        if facts:
            return MESSAGE, facts
        # 3. help, 4. build
        short = self.partner_short(goals, built)
        plan = self.partner_plan(goals, built)
        under = {s for c, (col, owner) in goals.items() if owner == self.partner for s in supports(c, self.hang)}
        options = [(c, col) for c, col in short.items() if c != plan]
        options += sorted(((c, col) for c, col in own.items()), key=lambda x: (x[0] not in under, x[0][1], x[0]))
        for c, col in options:
            if built.get(c) != col and c not in built and mask[place_action(c, col)]:
                self.mine_placed.add(c)
                return place_action(c, col), []
        return WAIT, []

    def _needs_message(self, own: dict, built: dict, inventory: dict) -> list:
        todo = {c: col for c, col in own.items() if built.get(c) != col}
        need = Counter(todo.values())
        facts = []
        for c in low_first(todo):
            col = todo[c]
            lacking = inventory.get(col, 0) < need[col]
            unsupported = c[1] > 0 and not any(s in own or s in built for s in supports(c, self.hang))
            if not (lacking or unsupported):
                continue
            told = [(f_target(c), col), (f_owner(c), self.name)]
            if lacking:
                told.append((f_inventory(self.name, col), inventory.get(col, 0)))
            facts += [(f, v) for f, v in told if not self.truth.knows_chain((self.partner,), f)]
        return list(dict.fromkeys(facts))


__all__ = ["BlocksBeliefAgent"]
