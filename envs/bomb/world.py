"""Rules and world state of the bomb-defusal team game (Li et al., 2023), independent of PettingZoo.

Three agents (alpha, bravo, charlie) take turns; five rooms joined by hallways; five bombs, one per
room (two 1-phase, two 2-phase, one 3-phase), each phase coloured red, green or blue. Each agent
carries two wire cutters ("tools"). A bomb's remaining sequence is learned only by inspecting it (or
applying a tool to it) in its room; applying the colour of its next phase defuses that phase; a fully
defused x-phase bomb scores 10*x (max 90) and vanishes from its room.

Grounded actions (the Discrete action space of :mod:`belief.envs.bomb.environment`)::

    0..R-1   move to room ROOMS[i]
    R        inspect the bomb in the current room
    R+1..R+3 apply the red / green / blue tool to the bomb in the current room
    R+4      an unrecognised action (a free-text action the parser could not read; always invalid)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from belief.errors import BeliefError

AGENTS = ("alpha", "bravo", "charlie")
COLOURS = ("red", "green", "blue")
CUTTERS = {"alpha": ("red", "green"), "bravo": ("green", "blue"), "charlie": ("blue", "red")}
DEFAULT_ROOMS = (0, 3, 5, 6, 8)
DEFAULT_EDGES = ((0, 3), (0, 5), (0, 6), (0, 8), (3, 8), (5, 6), (6, 8))
PHASES = (1, 1, 2, 2, 3)
MAX_ROUNDS = 30


class BombError(BeliefError):
    """Bad configuration or a bad call into the bomb game."""


def room_name(r) -> str:
    return f"Room {r}"


def bomb_name(b) -> str:
    return f"Bomb {b}"


def names_list(items) -> str:
    items = list(items)
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


@dataclass(frozen=True)
class GameMap:
    rooms: tuple[int, ...]
    edges: tuple[tuple[int, int], ...]

    def neighbours(self, r: int) -> tuple[int, ...]:
        out = [b for a, b in self.edges if a == r] + [a for a, b in self.edges if b == r]
        return tuple(sorted(out))

    def adjacent(self, a: int, b: int) -> bool:
        return (a, b) in self.edges or (b, a) in self.edges

    def distances(self, src: int) -> dict[int, int]:
        dist = {src: 0}
        frontier = [src]
        while frontier:
            nxt = []
            for r in frontier:
                for n in self.neighbours(r):
                    if n not in dist:
                        dist[n] = dist[r] + 1
                        nxt.append(n)
            frontier = nxt
        return dist

    def next_step(self, src: int, dst: int) -> int:
        """The first room on a shortest path src -> dst (smallest room number on ties)."""
        if src == dst:
            return src
        d = self.distances(dst)
        return min((n for n in self.neighbours(src) if n in d), key=lambda n: (d[n], n))

    def to_json(self) -> dict:
        return {"rooms": list(self.rooms), "edges": [list(e) for e in self.edges]}


DEFAULT_MAP = GameMap(DEFAULT_ROOMS, DEFAULT_EDGES)


def random_map(rng: random.Random, rooms=DEFAULT_ROOMS, extra_edges: int = 2) -> GameMap:
    """A seeded random connected map: a random spanning tree plus `extra_edges` hallways."""
    order = list(rooms)
    rng.shuffle(order)
    edges = set()
    for i in range(1, len(order)):
        a, b = order[i], order[rng.randrange(i)]
        edges.add((min(a, b), max(a, b)))
    candidates = [(a, b) for i, a in enumerate(sorted(rooms)) for b in sorted(rooms)[i + 1:] if (a, b) not in edges]
    rng.shuffle(candidates)
    edges.update(candidates[:extra_edges])
    return GameMap(tuple(sorted(rooms)), tuple(sorted(edges)))


@dataclass
class Bomb:
    id: int
    room: int
    sequence: tuple[str, ...]
    remaining: tuple[str, ...] = ()

    def __post_init__(self):
        if not self.remaining:
            self.remaining = tuple(self.sequence)

    @property
    def phases(self) -> int:
        return len(self.sequence)

    @property
    def defused(self) -> bool:
        return not self.remaining

    @property
    def value(self) -> int:
        return 10 * self.phases


def action_table(rooms) -> list[tuple]:
    return ([("move", r) for r in rooms] + [("inspect", None)] + [("apply", c) for c in COLOURS]
            + [("unrecognised", None)])


def colour_list(seq) -> str:
    return ", ".join(c.capitalize() for c in seq) if seq else "none (defused)"


@dataclass
class Outcome:
    """What one action did: validity, feedback text (the study's wording for errors) and the details."""

    kind: str
    valid: bool
    feedback: str
    frm: int
    to: int
    bomb: int | None = None
    colour: str | None = None
    target: int | None = None
    seq_before: tuple[str, ...] | None = None
    seq_after: tuple[str, ...] | None = None
    defused_phase: bool = False
    vanished: bool = False
    points: int = 0
    present: tuple[str, ...] = ()


@dataclass
class World:
    """The game state and its rules. `step` resolves one agent's grounded action."""

    map: GameMap
    bombs: dict[int, Bomb]
    locations: dict[str, int]
    score: int = 0
    agents: tuple[str, ...] = AGENTS
    cutters: dict[str, tuple[str, ...]] = field(default_factory=lambda: dict(CUTTERS))

    @classmethod
    def generate(cls, seed: int | None, random_maps: bool = False) -> "World":
        rng = random.Random(seed)
        gmap = random_map(rng) if random_maps else DEFAULT_MAP
        rooms = list(gmap.rooms)
        phases = list(PHASES)
        rng.shuffle(phases)
        room_order = list(rooms)
        rng.shuffle(room_order)
        bombs = {}
        for i, (room, n) in enumerate(zip(room_order, phases), start=1):
            seq = tuple(rng.choice(COLOURS) for _ in range(n))
            bombs[i] = Bomb(i, room, seq)
        start = rng.choice(rooms)
        return cls(gmap, bombs, {a: start for a in AGENTS})

    # --- queries ---------------------------------------------------------------------------------
    @property
    def actions(self) -> list[tuple]:
        return action_table(self.map.rooms)

    @property
    def max_score(self) -> int:
        return sum(b.value for b in self.bombs.values())

    @property
    def done(self) -> bool:
        return all(b.defused for b in self.bombs.values())

    def bomb_in(self, room: int) -> Bomb | None:
        for b in self.bombs.values():
            if b.room == room and not b.defused:
                return b
        return None

    def contents(self, room: int) -> tuple[int, ...]:
        """Bombs not yet defused in `room` (sorted ids)."""
        return tuple(sorted(b.id for b in self.bombs.values() if b.room == room and not b.defused))

    def agents_in(self, room: int) -> tuple[str, ...]:
        return tuple(a for a in self.agents if self.locations[a] == room)

    def mask(self, agent: str) -> list[int]:
        here = self.locations[agent]
        bomb = self.bomb_in(here)
        out = []
        for kind, arg in self.actions:
            if kind == "move":
                ok = self.map.adjacent(here, arg)
            elif kind == "inspect":
                ok = bomb is not None
            elif kind == "apply":
                ok = bomb is not None and arg in self.cutters[agent]
            else:
                ok = False
            out.append(int(ok))
        return out

    def state_key(self) -> tuple:
        return (tuple(sorted(self.locations.items())), self.score,
                tuple((b.id, b.remaining) for b in self.bombs.values()))

    # --- rules -----------------------------------------------------------------------------------
    def step(self, agent: str, action: int) -> Outcome:
        if not 0 <= action < len(self.actions):
            raise BombError(f"action {action} out of range 0..{len(self.actions) - 1}")
        kind, arg = self.actions[action]
        here = self.locations[agent]
        if kind == "move":
            return self._move(agent, here, arg)
        if kind == "unrecognised":
            return Outcome("unrecognised", False, unrecognised_feedback(), here, here)
        bomb = self.bomb_in(here)
        if kind == "inspect":
            if bomb is None:
                return Outcome("inspect", False, f"There is no bomb in your current location, {room_name(here)}, "
                               f"for you to inspect.", here, here)
            return Outcome("inspect", True, f"You inspected {bomb_name(bomb.id)}. Its remaining sequence is "
                           f"{colour_list(bomb.remaining)}.", here, here, bomb=bomb.id,
                           seq_before=bomb.remaining, seq_after=bomb.remaining)
        # apply
        colour = arg
        if colour not in self.cutters[agent]:
            have = names_list([f"{c.capitalize()}" for c in self.cutters[agent]])
            return Outcome("apply", False, f"You do not have the {colour.capitalize()} Tool. You can only use "
                           f"the {have} Tools.", here, here, colour=colour)
        if bomb is None:
            return Outcome("apply", False, f"There is no bomb in your current location, {room_name(here)}, "
                           f"to apply the {colour.capitalize()} Tool to.", here, here, colour=colour)
        before = bomb.remaining
        if before[0] == colour:
            bomb.remaining = before[1:]
            if bomb.defused:
                self.score += bomb.value
                present = self.agents_in(here)
                return Outcome("apply", True, f"You applied the {colour.capitalize()} Tool to {bomb_name(bomb.id)} "
                               f"and defused its last phase: {bomb_name(bomb.id)} is fully defused "
                               f"(+{bomb.value} points).", here, here, bomb=bomb.id, colour=colour,
                               seq_before=before, seq_after=(), defused_phase=True, vanished=True,
                               points=bomb.value, present=present)
            return Outcome("apply", True, f"You applied the {colour.capitalize()} Tool to {bomb_name(bomb.id)} and "
                           f"defused one phase. Its remaining sequence is {colour_list(bomb.remaining)}.",
                           here, here, bomb=bomb.id, colour=colour, seq_before=before, seq_after=bomb.remaining,
                           defused_phase=True)
        return Outcome("apply", True, f"You applied the {colour.capitalize()} Tool to {bomb_name(bomb.id)}, but "
                       f"it does not match its next phase; nothing happened. Its remaining sequence is "
                       f"{colour_list(before)}.", here, here, bomb=bomb.id, colour=colour,
                       seq_before=before, seq_after=before)

    def _move(self, agent: str, here: int, dest: int) -> Outcome:
        if dest == here:
            return Outcome("move", False, f"You are already in {room_name(here)}.", here, here, target=dest)
        if not self.map.adjacent(here, dest):
            return Outcome("move", False, not_adjacent_feedback(dest, here), here, here, target=dest)
        self.locations[agent] = dest
        return Outcome("move", True, f"You moved to {room_name(dest)}.", here, dest, target=dest)


def not_adjacent_feedback(dest: int, here: int) -> str:
    """The study's error feedback for a move through a non-existent hallway."""
    return (f"You can not directly move to {room_name(dest)} because it is not adjacent to your current "
            f"location, {room_name(here)}. Consider taking a detour to another room first and then move to "
            f"your destination.")


def unrecognised_feedback(text: str | None = None) -> str:
    said = f" ({text!r})" if text else ""
    return (f"Your action{said} could not be understood. Valid actions are: \"Move to Room X\", "
            f"\"Inspect Bomb\", \"Apply Red Tool\", \"Apply Green Tool\", \"Apply Blue Tool\".")
