"""Centralised full-information planner baseline for bomb_v0.

It reads the true world state (every bomb's room and remaining sequence) and greedily sends each agent
to the closest bomb whose next phase it can cut, preferring bombs no teammate is already heading
to. It is an upper reference for coordination, not a ToM agent: asked ToM questions, it answers as if
everything it can see is known to everyone ("Yes").
"""

from __future__ import annotations

from belief.agents.bomb.common import BombAgent
from belief.envs.bomb.world import action_table


class PlannerAgent(BombAgent):
    kind = "planner"

    def __init__(self, name: str, world=None, **_):
        self.name = name
        self.world = world

    def bind(self, world) -> None:
        self.world = world

    def choose(self, obs: dict, mask=None) -> tuple[int, str]:
        w = self.world
        table = action_table(w.map.rooms)
        here = w.locations[self.name]
        bomb = w.bomb_in(here)
        mine = w.cutters[self.name]
        if bomb is not None and bomb.remaining[0] in mine:
            return table.index(("apply", bomb.remaining[0])), ""
        live = [b for b in w.bombs.values() if not b.defused]
        dist = w.map.distances(here)

        def cost(b):
            seq = b.remaining
            others = [a for a in w.agents if a != self.name and w.locations[a] == b.room]
            if seq[0] in mine:
                # someone already there who can cut it first makes this less urgent
                busy = any(seq[0] in w.cutters[a] for a in others)
                return (dist[b.room] + (2 if busy else 0), 0, b.id)
            pos = next((i for i, c in enumerate(seq) if c in mine), None)
            if pos is None:
                return (99, 99, b.id)
            return (max(dist[b.room], pos), pos, b.id)

        target = min(live, key=cost)
        if cost(target)[0] >= 99 or target.room == here:
            if bomb is not None:
                return table.index(("inspect", None)), ""
            target_room = w.map.neighbours(here)[0]
        else:
            target_room = target.room
        return table.index(("move", w.map.next_step(here, target_room))), ""

    def answer(self, q: dict) -> str:
        return "Yes."


__all__ = ["PlannerAgent"]
