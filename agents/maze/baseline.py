"""Greedy baselines for CollabCapture / CollabEscape: no partner model, no messages, no buttons, no memory
of earlier sightings; they act on what they see now (``infos[agent]["obs"]``).

Capture: step towards the thief when it is in sight, else a random open door. Escape: the shortest route
to the generator (then the exit), ignoring the killer; a random open door when the route is shut. ToM
answers are egocentric: the player's own belief (checker on its private trace) for every chain; EC answers
use its door map and the adversary's last sighting as if it had not moved since.
"""

from __future__ import annotations

import random

from belief.agents.maze.tracking import MazePlayer, MazeTracker
from belief.envs.coordqa.questions import ec_answer
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
        if mask[USE]:
            return USE
        a = self._towards(view, view["exit"] if view["gate_open"] else view["generator"], mask)
        return a if a is not None else self._wander(mask)


__all__ = ["MazeBaselineAgent", "CaptureBaselineAgent", "EscapeBaselineAgent"]
