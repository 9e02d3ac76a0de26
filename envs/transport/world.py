"""The world of ``transport_v0``: a text abstraction of TDW-MAT (ThreeDWorld Multi-Agent Transport).

A house is a graph of rooms of four types (living room, office, kitchen, bedroom) laid out on a grid;
target objects (food or stuff) and containers lie in rooms, placed by a seed. The bed in the bedroom is
the goal: a target counts as transported when it lies on the bed within the frame budget.

Rules
-----
* Two hands. A hand holds one target or one container; a container holds up to 3 targets, so an agent
  carries at most 4 targets (3 in a container and 1 in the other hand).
* Perception is per agent. Every object has a hidden level (1: found by a partial search of its room,
  2: only by a full one). Each agent searches rooms itself (``explore``: its own level of a room goes
  ``none -> part -> all``) and sees an object only when its own search of the room reached the object's
  level, or when it already knows of the object (it saw it before or was told where it is, so it knows
  what to look for). A room another agent searched shows nothing for free. ``explored`` is the team's
  level of a room (the highest level any agent reached), the world fact that messages report.
* ``transport to bed`` (in the bedroom) puts every carried target on the bed; a transported container
  is lost on the bed (it cannot be used again).

Frame cost model (``COSTS``; budget ``BUDGET`` frames shared by all agents' clocks)
------------------------------------------------------------------------------------
==================  ===========================================================================  =============
action              frames                                                                       source
==================  ===========================================================================  =============
episode budget      ``BUDGET`` = 3000                                                            TDW-MAT (a)
send message        ``1 + (chars - 1) // 500``: one frame per message of up to 500 characters   TDW-MAT (b)
go to room          ``GO_BASE + ceil(FRAMES_PER_METER * d)``, d = shortest walking distance (m)  modelled (c)
                    along the house graph between room centres (rooms are ~8 m apart)
explore room        ``EXPLORE`` per level of the agent's own search; searching a room the agent  modelled (c)
                    already searched fully costs ``EXPLORE_DONE`` and reveals nothing
grasp               ``GRASP`` (a target or container the agent sees in its room, a free hand)     modelled (c)
put into container  ``PUT`` (a held target into a held container with room)                     modelled (c)
transport to bed    ``TRANSPORT`` (in the bedroom)                                               modelled (c)
wait                ``WAIT``                                                                     modelled (c)
==================  ===========================================================================  =============

(a) ``max_frames = 3000`` in CoELA's TDW-MAT gym (``tdw_mat/tdw-gym/tdw_gym.py``, UMass-Foundation-Model/
Co-LLM-Agents). (b) the same file: ``message_per_frame = 500`` and a send delays the sender by
``max((len(message) - 1) // 500, 0)`` frames after the frame it is sent in. (c) our estimates, not measured
in TDW: walking about 18 frames per metre, a 360-degree look around (CoELA's explore: 24 turns of 15
degrees) about 100 frames, arm actions 15-30 frames. Only their ratios matter for the comparisons.

Placement: targets follow a room-type prior (``PLACEMENT_PRIOR``: food is most likely in kitchens,
stuff in offices), split evenly between rooms of a type; containers are uniform over rooms. The same
table is the documented commonsense prior agents may use (like an LLM's "food is in the kitchen").

Episodes: the 24 fixed evaluation episodes (``EPISODES``): {food, stuff} x {low (2 containers), high (5)}
x 6 seeds, two agents, 10 targets, 6-8 rooms; and generated worlds (:func:`generated_spec`): 8-12 rooms,
2-4 agents, more targets than one agent can carry within the budget, 2-5 containers mostly found only by a
full search, all drawn from one seed.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from functools import lru_cache

import networkx as nx

from belief.logic.domain import Domain

ROOM_TYPES = ("living_room", "office", "kitchen", "bedroom")
FAMILIES = ("food", "stuff")
CAPACITIES = {"low": 2, "high": 5}
AGENT_NAMES = ("alice", "bob", "carol", "dave")
N_TARGETS = 10  # the fixed episodes
MAX_TARGETS = 24
MAX_ROOMS = 12
MAX_CONTAINERS = 6
CONTAINER_SLOTS = 3
HANDS = 2
BED = "bed"
EXPLORE_STATES = ("none", "part", "all")

BUDGET = 3000
FRAMES_PER_METER = 18
GO_BASE = 10
EXPLORE = 100
EXPLORE_DONE = 15
GRASP = 25
PUT = 15
TRANSPORT = 30
MESSAGE_CHARS_PER_FRAME = 500
WAIT = 10
COSTS = {"go_base": GO_BASE, "frames_per_meter": FRAMES_PER_METER, "explore": EXPLORE,
         "explore_done": EXPLORE_DONE, "grasp": GRASP, "put": PUT, "transport": TRANSPORT,
         "message_chars_per_frame": MESSAGE_CHARS_PER_FRAME, "wait": WAIT, "budget": BUDGET}

TARGET_KINDS = {
    "food": ("apple", "banana", "bread", "burger", "orange", "loaf"),
    "stuff": ("ipod", "pen", "lighter", "purse", "calculator", "mouse"),
}
CONTAINER_KINDS = {"food": ("bowl", "plate"), "stuff": ("basket", "tray")}
#: P(room type) of a target of each family (also the agents' documented commonsense prior)
PLACEMENT_PRIOR = {
    "food": {"kitchen": 0.5, "living_room": 0.25, "office": 0.15, "bedroom": 0.10},
    "stuff": {"office": 0.45, "living_room": 0.25, "bedroom": 0.2, "kitchen": 0.10},
}
GRID = (2, 4)  # rows x columns of 8 m cells (the fixed episodes)
GENERATED_GRID = (3, 4)
CELL = 8.0


def message_frames(text: str) -> int:
    """Frames a message takes, as in TDW-MAT: one per started block of 500 characters (at least one)."""
    return 1 + max(len(text or "") - 1, 0) // MESSAGE_CHARS_PER_FRAME


@dataclass(frozen=True)
class EpisodeSpec:
    """One of the 24 fixed evaluation episodes."""

    index: int
    family: str
    capacity: str
    seed: int

    @property
    def name(self) -> str:
        return f"{self.family}-{self.capacity}-{self.seed}"

    @property
    def world_seed(self) -> int:
        return 7919 * (FAMILIES.index(self.family) + 1) + 104729 * (1 + list(CAPACITIES).index(self.capacity)) \
            + 31 * self.seed

    def world(self) -> "World":
        return generate(self.world_seed, self.family, self.capacity, AGENT_NAMES[:2])


EPISODES = tuple(EpisodeSpec(i, f, c, s) for i, (f, c, s) in enumerate(
    (f, c, s) for f in FAMILIES for c in CAPACITIES for s in range(6)))


@dataclass(frozen=True)
class GeneratedSpec:
    """A generated world: every parameter drawn from ``seed`` (:func:`generated_spec`)."""

    seed: int
    family: str
    n_containers: int
    n_agents: int
    n_rooms: int
    n_targets: int

    @property
    def name(self) -> str:
        return f"gen-{self.seed}"

    @property
    def capacity(self) -> str:
        return "low" if self.n_containers <= 3 else "high"

    def world(self) -> "World":
        return generate(self.seed, self.family, self.capacity, AGENT_NAMES[:self.n_agents], n_rooms=self.n_rooms,
                        n_targets=self.n_targets, n_containers=self.n_containers, grid=GENERATED_GRID,
                        container_hidden=0.7)


def generated_spec(seed: int) -> GeneratedSpec:
    """The parameters of generated world ``seed``: 8-12 rooms, 2-4 agents, 2-5 containers, and
    ``4 * agents + 4..8`` targets (a lone agent carries at most 4 per trip and makes 3-4 trips in the budget)."""
    rng = random.Random(f"transport-world-{seed}")
    n_agents = rng.randint(2, 4)
    return GeneratedSpec(seed, rng.choice(FAMILIES), rng.randint(2, 5), n_agents, rng.randint(8, MAX_ROOMS),
                         min(MAX_TARGETS, 4 * n_agents + rng.randint(4, 8)))


def bench_world_seeds(n: int, seed: int = 0) -> list[int]:
    """``n`` distinct world seeds for a benchmark run with ``--seed seed`` (disjoint from other seeds' runs)."""
    return [seed * 1_000_003 + i for i in range(n)]


@dataclass
class World:
    """A generated house: static layout plus the mutable object state of one episode."""

    seed: int
    family: str
    capacity: str
    rooms: list  # room names, index order
    room_type: dict  # room -> type
    pos: dict  # room -> (x, y) metres
    graph: nx.Graph  # rooms, edge attribute 'length'
    bedroom: str
    targets: list
    containers: list
    location: dict  # object -> room | container | agent | 'bed'
    hidden: dict  # object -> 1 | 2
    explored: dict  # room -> 0 | 1 | 2: the team's level (the highest any agent reached)
    start: dict = field(default_factory=dict)  # agent -> room
    lost: set = field(default_factory=set)  # containers transported to the bed
    searched: dict = field(default_factory=dict)  # agent -> {room: 0 | 1 | 2}: each agent's own search

    # --- geometry -------------------------------------------------------------------------------
    def distance(self, a: str, b: str) -> float:
        return _distances(self)[a][b]

    def go_cost(self, a: str, b: str) -> int:
        if a == b:
            return GO_BASE
        return GO_BASE + math.ceil(FRAMES_PER_METER * self.distance(a, b))

    # --- perception -----------------------------------------------------------------------------
    def own_level(self, agent: str, room: str) -> int:
        return self.searched.setdefault(agent, {}).get(room, 0)

    def search(self, agent: str, room: str) -> int:
        """``agent`` searches ``room`` one level further; the team level follows. Returns the new own level."""
        lvl = min(self.own_level(agent, room) + 1, 2)
        self.searched[agent][room] = lvl
        self.explored[room] = max(self.explored[room], lvl)
        return lvl

    # --- object queries ---------------------------------------------------------------------------
    def room_of(self, obj: str) -> str | None:
        """The room an object is in (through containers); None when held or on the bed."""
        loc = self.location[obj]
        seen = 0
        while loc in self.location and seen < 4:  # inside a container
            loc = self.location[loc]
            seen += 1
        return loc if loc in self.room_type else None

    def contents(self, container: str) -> list:
        return [o for o in self.targets if self.location[o] == container]

    def on_bed(self) -> list:
        return [o for o in self.targets if self.location[o] == BED]

    def is_container(self, obj: str) -> bool:
        return obj in self.containers

    def describe(self) -> str:
        lines = [f"house of {len(self.rooms)} rooms ({self.family}, {self.capacity} capacity, seed {self.seed}):"]
        for r in self.rooms:
            nb = ", ".join(sorted(self.graph.neighbors(r)))
            objs = [o for o in (*self.targets, *self.containers) if self.location[o] == r]
            lines.append(f"  {r} ({self.room_type[r]}) -> {nb}: {', '.join(objs) or '-'}")
        return "\n".join(lines)


def _distances(world: World) -> dict:
    d = getattr(world, "_dist", None)
    if d is None:
        d = dict(nx.all_pairs_dijkstra_path_length(world.graph, weight="length"))
        world._dist = d
    return d


def generate(seed: int, family: str = "food", capacity: str = "high", agents=AGENT_NAMES[:2], *,
             n_rooms: int | None = None, n_targets: int = N_TARGETS, n_containers: int | None = None,
             grid: tuple = GRID, container_hidden: float = 0.4) -> World:
    """A world from a seed (deterministic: same arguments, same world). With the defaults this is the
    generator of the 24 fixed episodes (6-8 rooms on a 2 x 4 grid, 10 targets)."""
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}; expected one of {FAMILIES}")
    if capacity not in CAPACITIES:
        raise ValueError(f"unknown capacity {capacity!r}; expected one of {tuple(CAPACITIES)}")
    rng = random.Random(seed)
    rows, cols = grid
    n_rooms = rng.randint(6, 8) if n_rooms is None else n_rooms
    if not 4 <= n_rooms <= min(rows * cols, MAX_ROOMS):
        raise ValueError(f"n_rooms must be 4-{min(rows * cols, MAX_ROOMS)}, got {n_rooms}")
    if not 1 <= n_targets <= MAX_TARGETS:
        raise ValueError(f"n_targets must be 1-{MAX_TARGETS}, got {n_targets}")
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    # a connected set of n_rooms cells grown from a random start
    chosen = [rng.choice(cells)]
    while len(chosen) < n_rooms:
        frontier = sorted({(r + dr, c + dc) for r, c in chosen for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                           if 0 <= r + dr < rows and 0 <= c + dc < cols} - set(chosen))
        chosen.append(rng.choice(frontier))
    types = ["bedroom", "kitchen", "office", "living_room"]
    while len(types) < n_rooms:
        types.append(rng.choice(("living_room", "office", "kitchen")))
    rng.shuffle(types)
    counts: dict = {}
    rooms, room_type, pos = [], {}, {}
    for cell, t in zip(chosen, types):
        counts[t] = counts.get(t, 0) + 1
        name = f"{t}_{counts[t]}"
        rooms.append(name)
        room_type[name] = t
        pos[name] = (cell[1] * CELL + rng.uniform(-1.5, 1.5), cell[0] * CELL + rng.uniform(-1.5, 1.5))
    cell_of = dict(zip(rooms, chosen))
    # doors: a random spanning tree of the grid adjacency plus a few extra doors
    adj = [(a, b) for i, a in enumerate(rooms) for b in rooms[i + 1:]
           if abs(cell_of[a][0] - cell_of[b][0]) + abs(cell_of[a][1] - cell_of[b][1]) == 1]
    rng.shuffle(adj)
    g = nx.Graph()
    g.add_nodes_from(rooms)
    uf = {r: r for r in rooms}

    def find(x):
        while uf[x] != x:
            uf[x] = uf[uf[x]]
            x = uf[x]
        return x

    extra = []
    for a, b in adj:
        ra, rb = find(a), find(b)
        if ra != rb:
            uf[ra] = rb
            g.add_edge(a, b)
        else:
            extra.append((a, b))
    for a, b in extra:
        if rng.random() < 0.6:
            g.add_edge(a, b)
    for a, b in g.edges:
        (xa, ya), (xb, yb) = pos[a], pos[b]
        g.edges[a, b]["length"] = round(math.hypot(xa - xb, ya - yb), 2)
    bedroom = next(r for r in rooms if room_type[r] == "bedroom")
    # objects
    kinds = TARGET_KINDS[family]
    targets, counter = [], {}
    for _ in range(n_targets):
        k = rng.choice(kinds)
        counter[k] = counter.get(k, 0) + 1
        targets.append(f"{k}_{counter[k]}")
    containers = []
    ccount: dict = {}
    for _ in range(CAPACITIES[capacity] if n_containers is None else n_containers):
        k = rng.choice(CONTAINER_KINDS[family])
        ccount[k] = ccount.get(k, 0) + 1
        containers.append(f"{k}_{ccount[k]}")
    prior = room_prior(rooms, room_type, family)
    location, hidden = {}, {}
    for o in targets:
        location[o] = rng.choices(rooms, weights=[prior[r] for r in rooms])[0]
        hidden[o] = 1 if rng.random() < 0.5 else 2
    for c in containers:
        location[c] = rng.choice(rooms)
        hidden[c] = 1 if rng.random() < 1 - container_hidden else 2
    start = {a: rng.choice(rooms) for a in agents}
    return World(seed, family, capacity, rooms, room_type, pos, g, bedroom, targets, containers, location, hidden,
                 {r: 0 for r in rooms}, start, searched={a: {} for a in agents})


def room_prior(rooms, room_type, family) -> dict:
    """P(a target of ``family`` is in room r) from the room-type table, split evenly within a type."""
    n = {}
    for r in rooms:
        n[room_type[r]] = n.get(room_type[r], 0) + 1
    raw = {r: PLACEMENT_PRIOR[family][room_type[r]] / n[room_type[r]] for r in rooms}
    z = sum(raw.values())
    return {r: v / z for r, v in raw.items()}


def episode_world(spec: EpisodeSpec | GeneratedSpec | int) -> World:
    """The world of a fixed episode (its index or spec) or of a generated spec."""
    if isinstance(spec, int):
        spec = EPISODES[spec]
    return spec.world()


def parse_subset(text: str | None) -> list[int]:
    """Episode indices from ``"0-5,12,food-high"``-style text (None/''/'all': all 24)."""
    if not text or text == "all":
        return list(range(len(EPISODES)))
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if part[0].isdigit():
            if "-" in part:
                a, b = part.split("-", 1)
                if int(b) < int(a):
                    raise ValueError(f"empty episode range {part!r} (write low-high, e.g. 0-5)")
                out.extend(range(int(a), int(b) + 1))
            else:
                out.append(int(part))
        else:
            hits = [e.index for e in EPISODES if e.name.startswith(part) or e.family == part or e.capacity == part]
            if not hits:
                raise ValueError(f"no episode matches {part!r} (names look like food-low-3)")
            out.extend(hits)
    bad = [i for i in out if not 0 <= i < len(EPISODES)]
    if bad:
        raise ValueError(f"episode indices out of range 0-{len(EPISODES) - 1}: {bad}")
    if not out:
        raise ValueError(f"no episodes in {text!r}")
    return list(dict.fromkeys(out))


#: the belief domain of this world (agents are places, since a held object is IN its holder)
DOMAIN_TEXT = """
(define (domain transport-tdw)
  (:types place - entity  room container bed - place  agent - place
          target - entity  food stuff - target  explore_state - entity)
  (:constants none part all - explore_state)
  (:predicates (in ?o - entity ?p - place)
               (at ?a - agent ?r - room)
               (explored ?r - room ?s - explore_state))
  (:functional in at explored))
"""


@lru_cache(maxsize=1)
def domain() -> Domain:
    return Domain.parse(DOMAIN_TEXT)


def entities(world: World, agents) -> dict:
    ent = {r: "room" for r in world.rooms}
    ent.update({o: world.family for o in world.targets})
    ent.update({c: "container" for c in world.containers})
    ent[BED] = "bed"
    ent.update({a: "agent" for a in agents})
    return ent
