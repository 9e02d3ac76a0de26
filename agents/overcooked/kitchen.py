"""A layout's geometry for planning chefs: floor cells, features, shortest walks (BFS, with an optional
blocked cell: the partner), and the subgoals' targets in a state.

Overcooked's motion rules: a move into a blocked cell only turns the chef; interacting works on the cell
it faces. So reaching a feature means walking to a floor cell next to it, facing it (a move toward it
turns), then interacting. Costs count those steps.
"""

from __future__ import annotations

import functools
from collections import deque

DIRS = {0: (0, -1), 1: (0, 1), 2: (1, 0), 3: (-1, 0)}  # the env's action indices: north, south, east, west
DIR_OF = {v: k for k, v in DIRS.items()}
STAY, INTERACT = 4, 5
INF = 10 ** 6


class Kitchen:
    def __init__(self, terrain_mtx):
        self.terrain = {(x, y): ch for y, row in enumerate(terrain_mtx) for x, ch in enumerate(row)}
        self.floor = frozenset(p for p, ch in self.terrain.items() if ch == " ")
        self.features = {ch: sorted(p for p, c in self.terrain.items() if c == ch) for ch in "ODPSXT"}
        self._dist = {p: self._bfs((p,), None) for p in self.floor}

    def neighbours(self, p):
        for d, (dx, dy) in DIRS.items():
            q = (p[0] + dx, p[1] + dy)
            if q in self.floor:
                yield d, q

    def _bfs(self, starts, blocked):
        """Steps from the nearest of ``starts`` to each floor cell, never through ``blocked``."""
        dist = {s: 0 for s in starts if s != blocked}
        todo = deque(dist)
        while todo:
            p = todo.popleft()
            for _, q in self.neighbours(p):
                if q not in dist and q != blocked:
                    dist[q] = dist[p] + 1
                    todo.append(q)
        return dist

    def dist(self, a, b) -> int:
        return self._dist[a].get(b, INF)

    def spots(self, feature):
        """The floor cells next to ``feature`` (where a chef can interact with it)."""
        x, y = feature
        return [q for q in ((x, y - 1), (x, y + 1), (x + 1, y), (x - 1, y)) if q in self.floor]

    def cost(self, pos, facing, target) -> int:
        """Steps for a chef at ``pos`` facing ``facing`` to interact with ``target`` (INF: unreachable)."""
        best = INF
        for s in self.spots(target):
            d = self.dist(pos, s)
            if d >= INF:
                continue
            toward = (target[0] - s[0], target[1] - s[1])
            best = min(best, d + (0 if d == 0 and facing == toward else 1) + 1)
        return best

    def reaches(self, pos, target) -> bool:
        return any(self.dist(pos, s) < INF for s in self.spots(target))

    def step_toward(self, pos, facing, target, blocked=None):
        """The action that brings a chef closer to interacting with ``target``, walking around ``blocked``
        when it can (None: ``target`` is unreachable)."""
        spots = [s for s in self.spots(target) if self.dist(pos, s) < INF]
        if not spots:
            return None
        if pos in spots:
            toward = (target[0] - pos[0], target[1] - pos[1])
            return INTERACT if facing == toward else DIR_OF[toward]
        for avoid in ((blocked, None) if blocked is not None else (None,)):
            togo = self._to_spots(tuple(spots), avoid)
            best = min(((togo[q], d) for d, q in self.neighbours(pos) if q != avoid and q in togo), default=None)
            if best is not None:
                return best[1]
        return STAY

    def _to_spots(self, spots, avoid):
        """Steps from each floor cell to the nearest of ``spots``, never through ``avoid`` (moves are
        symmetric, so this is the search from the spots)."""
        return self._bfs(spots, avoid)

    def shared_counters(self, a, b):
        """Counters both a chef at ``a`` and one at ``b`` can reach (where items are passed)."""
        return [c for c in self.features["X"] if self.reaches(a, c) and self.reaches(b, c)]


@functools.lru_cache(maxsize=None)
def kitchen_of(layout: str) -> Kitchen:
    from belief.envs.overcooked.world import gridworld

    return Kitchen(tuple(tuple(r) for r in gridworld(layout).terrain_mtx))


def world_of(state, mdp) -> dict:
    """The planning-relevant facts of an engine state: pots {pos: value}, counter items {pos: name}, and
    each player's (pos, facing, held)."""
    from belief.envs.overcooked.events import held_value, pot_value

    return {"pots": {p: pot_value(state, p) for p in mdp.get_pot_locations()},
            "counters": {p: state.get_object(p).name for p in mdp.get_counter_locations() if state.has_object(p)},
            "players": [(pl.position, pl.orientation, held_value(pl)) for pl in state.players]}


def onions_in(value: str) -> int:
    return int(value.rsplit("_", 1)[1]) if value.startswith("onions_") else (3 if value in ("cooking", "ready") else 0)


def targets(kitchen: Kitchen, world: dict, subgoal: str, me, partner_pos) -> list:
    """The cells a chef at ``me`` would interact with to pursue ``subgoal`` (reachable ones only)."""
    pots, counters = world["pots"], world["counters"]
    f = kitchen.features
    if subgoal == "fetch_onion":
        cand = f["O"] + [p for p, n in counters.items() if n == "onion"]
    elif subgoal == "fill_pot":
        cand = [p for p, v in pots.items() if v == "empty" or v in ("onions_1", "onions_2")]
    elif subgoal == "start_cooking":
        cand = [p for p, v in pots.items() if v == "onions_3"]
    elif subgoal == "fetch_dish":
        cand = f["D"] + [p for p, n in counters.items() if n == "dish"]
    elif subgoal == "take_soup":
        cand = [p for p, v in pots.items() if v in ("ready", "cooking")] + [p for p, n in counters.items() if n == "soup"]
    elif subgoal == "serve":
        cand = f["S"]
    elif subgoal == "pass_item":
        cand = [c for c in kitchen.shared_counters(me, partner_pos) if c not in counters]
    else:
        cand = []
    return [c for c in cand if kitchen.reaches(me, c)]


def subgoal_cost(kitchen: Kitchen, world: dict, subgoal: str, pos, facing, partner_pos) -> int:
    ts = targets(kitchen, world, subgoal, pos, partner_pos)
    return min((kitchen.cost(pos, facing, t) for t in ts), default=INF)


#: the subgoals open to a chef by what it holds
OPEN_TO = {"nothing": ("fetch_onion", "fetch_dish", "start_cooking", "take_soup", "wait"),
           "onion": ("fill_pot", "pass_item", "wait"),
           "dish": ("take_soup", "pass_item", "wait"),
           "soup": ("serve", "pass_item", "wait")}


def greedy_subgoal(world: dict, index: int) -> str:
    """The subgoal overcooked-ai's GreedyHumanModel pursues (its ``ml_action`` rules, as labels)."""
    _, _, held = world["players"][index]
    _, _, other = world["players"][1 - index]
    pots = world["pots"].values()
    if held == "nothing":
        if any(v in ("ready", "cooking") for v in pots) and other != "dish":
            return "fetch_dish"
        if any(v == "onions_3" for v in pots):
            return "start_cooking"
        return "fetch_onion"
    return {"onion": "fill_pot", "dish": "take_soup", "soup": "serve"}.get(held, "wait")


__all__ = ["Kitchen", "kitchen_of", "world_of", "targets", "subgoal_cost", "greedy_subgoal", "onions_in", "OPEN_TO",
           "DIRS", "STAY", "INTERACT", "INF"]
