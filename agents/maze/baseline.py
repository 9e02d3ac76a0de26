"""Greedy baselines for CollabCapture / CollabEscape: no partner model, no messages, no buttons, no memory
of earlier sightings; they act on what they see now (``infos[agent]["obs"]``).

Capture: step towards the thief when it is in sight, else a random open door. Escape: the shortest route
to the nearest generator still to fix (then the exit); a random open door when the route is shut. Under the
source's rules (full view, the killer's rule public) the escape baseline is a *safe greedy* player, the
strongest simple rule: it never ends a round where the killer may enter (the room where it stands when that
room is next to the killer, or any room next to the killer when it has no prey in reach), and otherwise
takes the shortest route; it neither splits the generators with its partner nor looks further ahead. ToM
answers are egocentric: the player's own belief (checker on its private trace) for every chain; EC answers
use its door map and the adversary's last sighting as if it had not moved since.
"""

from __future__ import annotations

import random

from belief.agents.maze.tracking import MazePlayer, MazeTracker
from belief.envs.coordqa.questions import ec_answer
from belief.agents.maze.escape_source import killer_moves
from belief.envs.maze.world import DIRECTIONS, MOVES, STAY, USE


class MazeBaselineAgent(MazePlayer):
    kind = "baseline"

    def __init__(self, name: str, partner: str, adversary: str, layout: dict, seed=0):
        self.name, self.adversary = name, adversary
        self.tracker = MazeTracker(name, partner, adversary, layout)
        self.rng = random.Random(f"baseline:{name}:{seed}")

    def answer(self, q: dict) -> str:
        """ToM: egocentric; EC: its door map and the adversary where it last saw it (anywhere if never seen;
        no reasoning about where it may have gone since)."""
        if q.get("category") == "EC":
            last = self.tracker.where(self.adversary)
            maze = self.tracker.maze
            return ec_answer(q, maze, {last} if last in maze.rooms else set(maze.rooms))
        return self.tracker.answer(q, egocentric=True)

    def _towards(self, view: dict, goal: str, mask):
        maze = self.tracker.maze
        maze.open.update({door: state == "open" for door, state in view["doors"].values()})
        steps = [d for d in maze.first_steps(view["room"], goal) if mask[MOVES[d]]]
        return MOVES[steps[0]] if steps else None

    def _wander(self, mask) -> int:
        moves = [MOVES[d] for d in DIRECTIONS if mask[MOVES[d]]]
        return self.rng.choice(moves) if moves else STAY


class CaptureBaselineAgent(MazeBaselineAgent):
    def choose(self, view: dict, mask) -> int:
        thief = view["seen"].get(self.adversary)
        a = self._towards(view, thief, mask) if thief else None
        return a if a is not None else self._wander(mask)


class EscapeBaselineAgent(MazeBaselineAgent):
    def choose(self, view: dict, mask) -> int:
        if not view["active"]:
            return STAY
        if view.get("generators") is not None and self.tracker.maze.full_view:
            return self._safe_greedy(view, mask)
        if mask[USE]:
            return USE
        a = self._towards(view, view["exit"] if view["gate_open"] else view["generator"], mask)
        return a if a is not None else self._wander(mask)

    def _safe_greedy(self, view: dict, mask) -> int:
        """Source rules: the shortest route (or *use*), unless the killer may enter that room this round."""
        maze, room = self.tracker.maze, view["room"]
        killer = view["seen"].get(self.adversary)
        starts = tuple(view["seen"].get(p, room) if p != self.name else room for p in sorted({self.name, *view["seen"]})
                       if p != self.adversary)
        danger = {r for r, _ in killer_moves(maze, killer, starts)} if killer else set()
        goal = view["exit"] if view["gate_open"] else view["generator"]
        if mask[USE] and room not in danger:
            return USE
        a = self._towards(view, goal, mask)
        if a is not None and maze.step_to(room, DIRECTIONS[a - 1]) not in danger:
            return a
        if room not in danger and room != goal:
            return STAY
        safe = [MOVES[d] for d in DIRECTIONS if mask[MOVES[d]] and maze.step_to(room, d) not in danger]
        return safe[0] if safe else (STAY if room not in danger else self._wander(mask))


__all__ = ["MazeBaselineAgent", "CaptureBaselineAgent", "EscapeBaselineAgent"]
