"""Belief agents for CollabCapture / CollabEscape: everything they use comes from their private trace
(:class:`~belief.agents.maze_tracking.MazeTracker`): the door states they saw, the rooms the adversary
may be in, where they last saw or were told their partner is. They share sightings with a ``tell``
(the adversary's room and their own) and use buttons: they open a closed door that cuts them off from their
goal, and (capture) close a door when that shrinks the rooms the thief can still flee to.

Capture: when the thief's room is known, each player scores its moves and presses by the number of rooms
the thief reaches before any hunter (its own new room, the partner where it believes it is), then by its
distance to the thief: the two split without talking about it. Otherwise it searches the nearest room the
thief may be in, leaving rooms nearer the partner to the partner.

Escape: repair the generator, then go through the gate, on routes that avoid the rooms the killer may be
in; a player who sees the killer within two moves flees (the move, or the press, that keeps it farthest).
"""

from __future__ import annotations

from belief.agents.maze_tracking import MazeTracker
from belief.envs.coordqa import ec_answer
from belief.envs.maze_world import DIRECTIONS, PRESS, STAY, USE, Maze, plan_first_actions


def route(maze: Maze, start: str, goal: str, blocked=()) -> int | None:
    """The first action of a shortest plan (moves and button presses) from ``start`` to ``goal``, avoiding
    the ``blocked`` rooms when that is possible; None when no plan reaches it (or already there)."""
    for avoid in (set(blocked) - {goal, start}, set()):
        first = plan_first_actions(maze, start, {goal}, avoid)
        if first and first != (STAY,):
            return first[0]
    return None


def outcomes(maze: Maze, room: str, mask) -> list:
    """``(action, my room after it, door states after it)`` for every legal action."""
    out = []
    for a, ok in enumerate(mask):
        if not ok or a == USE:
            continue
        if a == STAY:
            out.append((a, room, maze.open))
        elif a == PRESS:
            out.append((a, room, maze.toggled(maze.buttons[room])))
        else:
            out.append((a, maze.step_to(room, DIRECTIONS[a - 1]), maze.open))
    return out


class MazeBeliefAgent:
    kind = "belief"

    def __init__(self, name: str, partner: str, adversary: str, layout: dict):
        self.name, self.partner = name, partner
        self.tracker = MazeTracker(name, partner, adversary, layout)
        self.layout = layout

    def perceive(self, events) -> None:
        self.tracker.feed(events)

    def new_round(self) -> None:
        self.tracker.new_round()

    def answer(self, q: dict) -> str:
        """ToM questions: the checker on the private trace; EC questions: the tracked map (believed door
        states, the rooms the adversary may be in)."""
        if q.get("category") == "EC":
            return ec_answer(q, self.tracker.maze, self.tracker.possible)
        return self.tracker.answer(q)

    def message(self, view: dict):
        """Share a sighting of the adversary (and where I am) with the partner."""
        adv = self.tracker.adversary
        if adv in view["seen"]:
            return {("at", adv): view["seen"][adv], ("at", self.name): view["room"]}
        return None

    def _search(self, room: str):
        t = self.tracker
        maze = t.maze
        mine, partner = maze.distances(room), t.where(self.partner)
        theirs = maze.distances(partner) if partner in maze.rooms else {}
        candidates = sorted(t.possible, key=lambda r: (mine.get(r, 99) > theirs.get(r, 99), mine.get(r, 99), r))
        for goal in candidates:
            if goal != room:
                a = route(maze, room, goal)
                if a is not None:
                    return a
        return STAY


class CaptureBeliefAgent(MazeBeliefAgent):
    def act(self, view: dict, mask) -> int:
        t = self.tracker
        room = view["room"]
        thief = t.adversary_known()
        if thief is None:
            return self._search(room)
        partner = t.where(self.partner)
        best, best_score = STAY, None
        for a, mine, open_ in outcomes(t.maze, room, mask):
            hunters = [mine] + ([partner] if partner in t.maze.rooms else [])
            score = (0 if thief in hunters else 1, self._flee_room(thief, hunters, open_),
                     t.maze.distances(mine, open_).get(thief, 99), a == PRESS)
            if best_score is None or score < best_score:
                best, best_score = a, score
        if best == STAY and thief != room and route(t.maze, room, thief) is not None:
            return route(t.maze, room, thief)
        return best

    def _flee_room(self, thief: str, hunters, open_) -> int:
        """How many rooms the thief reaches strictly before every hunter."""
        maze = self.tracker.maze
        theirs = [maze.distances(h, open_) for h in hunters]
        own = maze.distances(thief, open_)
        return sum(1 for r, d in own.items() if all(d < h.get(r, 99) for h in theirs))


class EscapeBeliefAgent(MazeBeliefAgent):
    def act(self, view: dict, mask) -> int:
        t = self.tracker
        room, maze = view["room"], t.maze
        if not view["active"]:
            return STAY
        killer = t.adversary_known()
        near = maze.distances(room)
        if killer is not None and near.get(killer, 99) <= 2:
            options = outcomes(maze, room, mask)
            goal = self._goal(view)
            best = max(options, key=lambda o: (maze.distances(killer, o[2]).get(o[1], 99),
                                               -maze.distances(o[1], o[2]).get(goal, 99), o[0] != PRESS))
            return best[0]
        if mask[USE]:
            return USE
        a = route(maze, room, self._goal(view), blocked=t.possible if len(t.possible) <= 3 else ())
        return a if a is not None else STAY

    def _goal(self, view: dict) -> str:
        return view["exit"] if view["gate_open"] else view["generator"]


__all__ = ["MazeBeliefAgent", "CaptureBeliefAgent", "EscapeBeliefAgent", "route", "outcomes"]
