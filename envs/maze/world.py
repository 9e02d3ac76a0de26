"""The room mazes of CollabCapture / CollabEscape (LLM-Coordination, Agashe et al. 2023): rules only.

A maze is a 3x3 grid of rooms ``room_0`` .. ``room_8`` (row-major; north is row - 1). Some neighbouring
rooms are joined by a door ``door_K``; the doors form a random spanning tree plus a few extra doors
that close cycles. Buttons (one per room at most) toggle one door each, from anywhere in their room: every
cycle door has a button and starts open; one tree door has a button and starts closed, so the team must
open it to reach part of the maze. Doors without buttons are always open. The layout (rooms, doors,
buttons) is public; door states are seen from the rooms a door joins.

Besides the seeded grid mazes, the two fixed layouts of the LLM-Coordination source are here
(:func:`source_escape_maze`, :func:`source_capture_maze`): any graph of rooms, given as ``links`` (room ->
{exit slot: door}); the four exit slots keep the names north/east/south/west, so actions are the same in
every maze, but in a fixed layout they are only labels (the text names the room behind each door).

Pure data and graph search: no trace, no PettingZoo (see :mod:`belief.envs.maze.environment`).
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field

WIDTH = HEIGHT = 3
N_ROOMS = WIDTH * HEIGHT
DIRECTIONS = ("north", "east", "south", "west")
_DELTA = {"north": (-1, 0), "east": (0, 1), "south": (1, 0), "west": (0, -1)}
#: action indices shared by both games: stay, move in a direction, press the room's button, use (escape)
STAY, PRESS, USE = 0, 5, 6
MOVES = {d: i + 1 for i, d in enumerate(DIRECTIONS)}
N_ACTIONS = 7
ACTION_NAMES = ("stay", *DIRECTIONS, "press", "use")


def room_name(i: int) -> str:
    return f"room_{i}"


def room_index(room: str) -> int:
    return int(room.split("_")[1])


def neighbour_room(room: str, direction: str):
    """The grid room in ``direction`` of ``room`` (None at the edge)."""
    r, c = divmod(room_index(room), WIDTH)
    dr, dc = _DELTA[direction]
    r, c = r + dr, c + dc
    return room_name(r * WIDTH + c) if 0 <= r < HEIGHT and 0 <= c < WIDTH else None


@dataclass
class Maze:
    """Layout and state: doors (id -> the two rooms), which are open, buttons (room -> door), positions."""

    doors: dict
    open: dict
    buttons: dict
    pos: dict = field(default_factory=dict)
    #: a fixed layout's exits: room -> {direction slot: door}; None for the 3x3 grid
    links: dict | None = None
    #: every room is seen from everywhere (the source games show the whole state to both players)
    full_view: bool = False

    @property
    def rooms(self) -> list:
        if self.links is not None:
            return list(self.links)
        return [room_name(i) for i in range(N_ROOMS)]

    def copy(self) -> "Maze":
        return Maze(dict(self.doors), dict(self.open), dict(self.buttons), dict(self.pos), self.links, self.full_view)

    def layout(self) -> dict:
        """The public layout as JSON-ready data (see :meth:`from_layout`)."""
        out = {"doors": {d: list(p) for d, p in self.doors.items()}, "buttons": dict(self.buttons)}
        if self.links is not None:
            out["links"] = {r: dict(ex) for r, ex in self.links.items()}
        if self.full_view:
            out["full_view"] = True
        return out

    @classmethod
    def from_layout(cls, layout: dict) -> "Maze":
        """A maze of ``layout`` (rooms, doors, buttons) with every door open; positions unknown."""
        doors = {d: tuple(p) for d, p in layout["doors"].items()}
        links = {r: dict(ex) for r, ex in layout["links"].items()} if layout.get("links") else None
        return cls(doors, {d: True for d in doors}, dict(layout["buttons"]), links=links,
                   full_view=bool(layout.get("full_view")))

    def door_between(self, a: str, b: str):
        for d, pair in self.doors.items():
            if set(pair) == {a, b}:
                return d
        return None

    def exits(self, room: str) -> list:
        """``(direction, door, other room)`` for every door of ``room`` (open or not)."""
        if self.links is not None:
            out = []
            for direction in DIRECTIONS:
                door = self.links.get(room, {}).get(direction)
                if door is not None:
                    a, b = self.doors[door]
                    out.append((direction, door, b if a == room else a))
            return out
        out = []
        for direction in DIRECTIONS:
            other = neighbour_room(room, direction)
            door = self.door_between(room, other) if other else None
            if door is not None:
                out.append((direction, door, other))
        return out

    def room_doors(self, room: str) -> list:
        return [d for _, d, _ in self.exits(room)]

    def step_to(self, room: str, direction: str, open_=None):
        """The room a move in ``direction`` leads to through an open door, else None."""
        open_ = self.open if open_ is None else open_
        for dirn, door, other in self.exits(room):
            if dirn == direction and open_[door]:
                return other
        return None

    def open_neighbours(self, room: str, open_=None) -> list:
        open_ = self.open if open_ is None else open_
        return [other for _, door, other in self.exits(room) if open_[door]]

    def visible_rooms(self, room: str) -> set:
        """What a player in ``room`` sees: the room itself and the rooms behind its open doors (every room
        when the maze is in full view)."""
        if self.full_view:
            return set(self.rooms)
        return {room, *self.open_neighbours(room)}

    def distances(self, start: str, open_=None, blocked=()) -> dict:
        """BFS distances (moves through open doors) from ``start``; ``blocked`` rooms are not entered."""
        dist = {start: 0}
        queue = deque([start])
        while queue:
            r = queue.popleft()
            for n in self.open_neighbours(r, open_):
                if n not in dist and n not in blocked:
                    dist[n] = dist[r] + 1
                    queue.append(n)
        return dist

    def reachable(self, start: str, open_=None) -> set:
        return set(self.distances(start, open_))

    def first_steps(self, start: str, goal: str, open_=None, blocked=()) -> list:
        """Every direction whose move starts a shortest path from ``start`` to ``goal`` ([] if unreachable
        or already there)."""
        to_goal = self.distances(goal, open_, blocked)
        if start not in to_goal or start == goal:
            return []
        out = []
        for direction, door, other in self.exits(start):
            if (open_ or self.open)[door] and to_goal.get(other, -1) == to_goal[start] - 1:
                out.append(direction)
        return out

    def toggled(self, door: str) -> dict:
        """The door states after toggling ``door``."""
        out = dict(self.open)
        out[door] = not out[door]
        return out


def plan_first_actions(maze: Maze, start: str, goals, avoid=()) -> tuple:
    """Every first action (indices of :data:`ACTION_NAMES`) of a shortest plan from ``start`` to a room of
    ``goals``: BFS over (room, door states) with moves through open doors and button presses; rooms in
    ``avoid`` are never entered. ``(STAY,)`` when already there, ``()`` when no plan exists."""
    goals = set(goals)
    if start in goals:
        return (STAY,)
    doors = tuple(sorted(maze.doors))
    begin = (start, tuple(maze.open[d] for d in doors))
    firsts = {begin: set()}    # node -> the first actions of its shortest plans
    depth = {begin: 0}
    queue = deque([begin])
    best = None
    while queue:
        node = queue.popleft()
        if best is not None and depth[node] >= best:
            break
        room, state = node
        open_ = dict(zip(doors, state))
        nexts = [(MOVES[d], (after, state)) for d in DIRECTIONS
                 if (after := maze.step_to(room, d, open_)) is not None and after not in avoid]
        if room in maze.buttons:
            toggled = dict(open_)
            toggled[maze.buttons[room]] = not toggled[maze.buttons[room]]
            nexts.append((PRESS, (room, tuple(toggled[d] for d in doors))))
        for action, nxt in nexts:
            inherited = firsts[node] or {action}
            if nxt not in depth:
                depth[nxt] = depth[node] + 1
                firsts[nxt] = set(inherited)
                queue.append(nxt)
                if nxt[0] in goals:
                    best = depth[nxt]
            elif depth[nxt] == depth[node] + 1:
                firsts[nxt] |= inherited
    if best is None:
        return ()
    found = set().union(*(firsts[n] for n, d in depth.items() if d == best and n[0] in goals))
    return tuple(sorted(found))


def generate(seed, extra_doors: int = 2) -> Maze:
    """A seeded maze: a random spanning tree of the grid plus ``extra_doors`` cycle doors (buttons, open)
    and one tree door behind a button (closed)."""
    rng = random.Random(f"maze:{seed}")
    rooms = [room_name(i) for i in range(N_ROOMS)]
    edges = sorted({tuple(sorted((r, n))) for r in rooms for d in DIRECTIONS if (n := neighbour_room(r, d))})
    tree, seen, stack = [], {rooms[0]}, [rooms[0]]
    while stack:  # randomised depth-first search
        r = stack[-1]
        options = [n for d in DIRECTIONS if (n := neighbour_room(r, d)) and n not in seen]
        if not options:
            stack.pop()
            continue
        n = rng.choice(options)
        tree.append(tuple(sorted((r, n))))
        seen.add(n)
        stack.append(n)
    extra = rng.sample([e for e in edges if e not in tree], extra_doors)
    chosen = sorted(tree + extra, key=lambda e: (room_index(e[0]), room_index(e[1])))
    doors = {f"door_{k}": e for k, e in enumerate(chosen)}
    ids = {e: d for d, e in doors.items()}
    opened = {d: True for d in doors}
    locked = ids[rng.choice(tree)]
    opened[locked] = False
    button_doors = [ids[e] for e in extra] + [locked]
    button_rooms = rng.sample(rooms, len(button_doors))
    buttons = dict(zip(button_rooms, button_doors))
    return Maze(doors, opened, buttons)


def place(maze: Maze, seed, agents, adversary: str, *, min_gap: int = 2, extra: int = 0) -> list:
    """Put ``agents`` in distinct rooms and ``adversary`` at least ``min_gap`` moves (in the full grid of
    doors) from every agent; returns ``extra`` further distinct rooms (e.g. generator, exit)."""
    rng = random.Random(f"place:{seed}")
    every_door = {d: True for d in maze.doors}
    for _ in range(200):
        spots = rng.sample(maze.rooms, len(agents) + 1 + extra)
        starts, adv = spots[:len(agents)], spots[len(agents)]
        if all(maze.distances(s, every_door)[adv] >= min_gap for s in starts):
            maze.pos.update(dict(zip(agents, starts)))
            maze.pos[adversary] = adv
            return spots[len(agents) + 1:]
    raise RuntimeError("no placement found")  # pragma: no cover - a 3x3 grid always has one


def _fixed_layout(edges: list, buttons: dict, closed=(), full_view: bool = True) -> Maze:
    """A maze from ``(room a, slot at a, room b, slot at b)`` edges; doors are numbered in edge order."""
    doors, links = {}, {}
    for k, (a, slot_a, b, slot_b) in enumerate(edges):
        door = f"door_{k}"
        doors[door] = (a, b)
        for room, slot in ((a, slot_a), (b, slot_b)):
            if slot in links.setdefault(room, {}):
                raise ValueError(f"{room} has two exits labelled {slot}")  # pragma: no cover - layout bug
            links[room][slot] = door
    links = {r: links[r] for r in sorted(links, key=room_index)}
    opened = {d: d not in closed for d in doors}
    return Maze(doors, opened, dict(buttons), links=links, full_view=full_view)


def source_escape_maze() -> Maze:
    """CollabEscape's map in the source: eight rooms in a ring (room_1 .. room_8) with a passage between room_3
    and room_7; no buttons. Generators in room_1 and room_5, the exit gate in room_7 (see the escape rules)."""
    ring = [("room_1", "east", "room_2", "west"), ("room_2", "east", "room_3", "west"),
            ("room_3", "south", "room_4", "north"), ("room_4", "south", "room_5", "north"),
            ("room_5", "west", "room_6", "east"), ("room_6", "west", "room_7", "east"),
            ("room_7", "north", "room_8", "south"), ("room_8", "north", "room_1", "south"),
            ("room_3", "north", "room_7", "south")]
    return _fixed_layout(ring, {})


def source_capture_maze() -> Maze:
    """CollabCapture's map in the source: nine rooms; the door between room_1 and room_2 is toggled by the
    button in room_9, the door between room_3 and room_4 by the button in room_8; both start open."""
    edges = [("room_1", "east", "room_2", "west"), ("room_2", "east", "room_3", "west"),
             ("room_3", "south", "room_4", "north"), ("room_4", "west", "room_5", "east"),
             ("room_5", "west", "room_6", "east"), ("room_6", "north", "room_1", "south"),
             ("room_5", "south", "room_7", "north"), ("room_7", "east", "room_8", "west"),
             ("room_6", "south", "room_9", "north")]
    return _fixed_layout(edges, {"room_9": "door_0", "room_8": "door_2"})


__all__ = ["Maze", "generate", "source_escape_maze", "source_capture_maze", "plan_first_actions", "place", "room_name", "room_index", "neighbour_room", "DIRECTIONS", "MOVES",
           "STAY", "PRESS", "USE", "N_ACTIONS", "ACTION_NAMES", "N_ROOMS", "WIDTH", "HEIGHT"]
