"""Planning for CollabEscape under the source's rules (full view, the killer's rule known).

The source's killer is predictable: at the end of a round it enters the room where a player stood at the start
of the round when that room is next to it (Alice first), else a random neighbouring room. With everything in
view, a player can therefore compute exactly where the killer may be after any of its own actions, and plan
a few rounds ahead (expectimax over the killer's random moves, the partner assumed to keep its room). The two
players split the generators by the assignment that minimises their total distance (both compute the same
one from public positions, so they need no message), fix theirs with two consecutive uses, then head for
the open gate.
"""

from __future__ import annotations

from functools import lru_cache

from belief.envs.maze.world import DIRECTIONS, MOVES, STAY, USE, Maze

CAUGHT = -1000.0


def killer_moves(maze: Maze, killer: str, start_rooms: tuple) -> list:
    """``[(room, probability)]`` of the killer's next room given the players' rooms at the start of the round
    (in the source's order: Alice first)."""
    near = maze.open_neighbours(killer)
    for room in start_rooms:
        if room in near:
            return [(room, 1.0)]
    if not near:
        return [(killer, 1.0)]
    return [(r, 1.0 / len(near)) for r in near]


def assign_generators(maze: Maze, players: dict, generators: tuple) -> dict:
    """``{player: generator}``: each player its own generator, minimising the total distance (ties: the
    first player takes the first generator); with one generator left, both go for it."""
    names = list(players)
    if len(generators) == 1:
        return {p: generators[0] for p in names}
    dist = {p: maze.distances(players[p]) for p in names}
    a, b = names
    g0, g1 = generators[:2]
    straight = dist[a].get(g0, 99) + dist[b].get(g1, 99)
    crossed = dist[a].get(g1, 99) + dist[b].get(g0, 99)
    return {a: g0, b: g1} if straight <= crossed else {a: g1, b: g0}


class SourceEscapePlanner:
    """One player's planner: :meth:`plan` from the public state."""

    def __init__(self, maze: Maze, me: str, order: tuple, repairs_needed: int, depth: int = 3,
                 partner_model: bool = True):
        self.maze, self.me, self.order = maze, me, order
        self.repairs_needed, self.depth = repairs_needed, depth
        #: False (the ablation): the partner is not modelled: the killer is predicted from my room alone, and I
        #: head for the generator nearest me instead of splitting the generators with the partner
        self.partner_model = partner_model

    def plan(self, pos: dict, killer: str, generators: dict, exit_room: str, gate_open: bool, mask) -> int:
        """The action with the best expected value: ``pos`` the players' rooms, ``generators`` the unfixed
        generators' repair counts."""
        maze, me = self.maze, self.me
        partner_room = next((r for p, r in pos.items() if p != me), None) if self.partner_model else None
        if gate_open:
            goal, repairs = exit_room, 0
        else:
            if self.partner_model:
                mine = assign_generators(maze, pos, tuple(sorted(generators)))[me]
            else:
                near = maze.distances(pos[me])
                mine = min(sorted(generators), key=lambda g: near.get(g, 99))
            goal, repairs = mine, generators.get(mine, 0)
        to_goal = maze.distances(goal)
        depth = self.depth

        @lru_cache(maxsize=None)
        def value(room: str, k: str, done: int, left: int) -> float:
            """Best expected value from here, with ``done`` consecutive repairs at ``goal``."""
            fixed = not gate_open and done >= self.repairs_needed
            escaped = gate_open and room == goal
            if fixed or escaped:
                return 100.0 + left
            if left == 0:
                return -float(to_goal.get(room, 50)) + 3.0 * done
            return max(expected(room, k, done, left, a) for a in actions(room))

        def actions(room: str) -> list:
            out = [("stay", room)]
            out += [("move", r) for r in maze.open_neighbours(room)]
            if room == goal and not gate_open:
                out.append(("use", room))
            return out

        def expected(room: str, k: str, done: int, left: int, action) -> float:
            kind, after = action
            starts = tuple(r for p in self.order for r in ([room] if p == me else [partner_room]) if r is not None)
            total = 0.0
            for k2, prob in killer_moves(maze, k, starts):
                if k2 == after:
                    total += prob * CAUGHT
                    continue
                d2 = done + 1 if kind == "use" else 0
                total += prob * value(after, k2, d2, left - 1)
            return total

        room = pos[me]
        best, best_value = STAY, None
        for kind, after in actions(room):
            action = USE if kind == "use" else STAY if after == room else self._move_to(room, after)
            if action is None or not mask[action]:
                continue
            v = expected(room, killer, repairs, depth, (kind, after))
            if best_value is None or v > best_value:
                best, best_value = action, v
        return best

    def _move_to(self, room: str, after: str):
        for direction in DIRECTIONS:
            if self.maze.step_to(room, direction) == after:
                return MOVES[direction]
        return None


__all__ = ["SourceEscapePlanner", "assign_generators", "killer_moves"]
