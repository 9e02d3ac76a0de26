"""The world of ``transport_v0``: a text abstraction of TDW-MAT (ThreeDWorld Multi-Agent Transport).

A house is a graph of rooms of four types (living room, office, kitchen, bedroom) laid out on a grid;
10 target objects (food or stuff) and 2 (low capacity) or 5 (high capacity) containers lie in rooms,
placed by a seed. The bed in the bedroom is the goal: a target counts as transported when it lies on
the bed within the frame budget.

Rules
-----
* Two hands. A hand holds one target or one container; a container holds up to 3 targets, so an agent
  carries at most 4 targets (3 in a container and 1 in the other hand).
* Objects are hidden until their room is explored. Each room has an exploration state
  ``none -> part -> all``; every object has a hidden level (1: revealed at ``part``, 2: at ``all``).
  The state is part of the world (any agent exploring advances it) and every agent in the room sees
  what the exploration reveals. Entering a room shows the objects already revealed there (and the
  contents of revealed containers), the partner if present and what the partner holds.
* ``transport to bed`` (in the bedroom) puts every carried target on the bed; a transported container
  is lost on the bed (it cannot be used again).

Frame cost model (``COSTS``; budget ``BUDGET`` = 3000 frames per agent, both agents share the clock)
------------------------------------------------------------------------------------------------------
==================  ===========================================================================
action              frames
==================  ===========================================================================
go to room          ``GO_BASE + ceil(FRAMES_PER_METER * d)``, d = shortest walking distance (m)
                    along the house graph between room centres (rooms are ~8 m apart)
explore room        ``EXPLORE`` per level (none->part, part->all); exploring a fully explored
                    room costs ``EXPLORE_DONE`` and reveals nothing
grasp               ``GRASP`` (target or container in the agent's room, a free hand)
put into container  ``PUT`` (a held target into a held container with room)
transport to bed    ``TRANSPORT`` (in the bedroom)
send message        ``MESSAGE_BASE + tokens // MESSAGE_TOKENS_PER_FRAME`` (tokens by
                    :func:`belief.envs.transport_tokens.count_tokens`)
wait                ``WAIT``
==================  ===========================================================================

Placement: targets follow a room-type prior (``PLACEMENT_PRIOR``: food is most likely in kitchens,
stuff in offices), split evenly between rooms of a type; containers are uniform over rooms. The same
table is the documented commonsense prior agents may use (like an LLM's "food is in the kitchen").

The 24 evaluation episodes (``EPISODES``): {food, stuff} x {low (2 containers), high (5)} x 6 seeds.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from functools import lru_cache

import networkx as nx

from belief.domain import Domain

ROOM_TYPES = ("living_room", "office", "kitchen", "bedroom")
FAMILIES = ("food", "stuff")
CAPACITIES = {"low": 2, "high": 5}
N_TARGETS = 10
MAX_ROOMS = 8
MAX_CONTAINERS = 5
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
MESSAGE_BASE = 10
MESSAGE_TOKENS_PER_FRAME = 10
WAIT = 10
COSTS = {"go_base": GO_BASE, "frames_per_meter": FRAMES_PER_METER, "explore": EXPLORE,
         "explore_done": EXPLORE_DONE, "grasp": GRASP, "put": PUT, "transport": TRANSPORT,
         "message_base": MESSAGE_BASE, "message_tokens_per_frame": MESSAGE_TOKENS_PER_FRAME, "wait": WAIT,
         "budget": BUDGET}

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
GRID = (2, 4)  # rows x columns of 8 m cells
CELL = 8.0


@dataclass(frozen=True)
class EpisodeSpec:
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


EPISODES = tuple(EpisodeSpec(i, f, c, s) for i, (f, c, s) in enumerate(
    (f, c, s) for f in FAMILIES for c in CAPACITIES for s in range(6)))


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
    explored: dict  # room -> 0 | 1 | 2
    start: dict = field(default_factory=dict)  # agent -> room
    lost: set = field(default_factory=set)  # containers transported to the bed

    # --- geometry -------------------------------------------------------------------------------
    def distance(self, a: str, b: str) -> float:
        return _distances(self)[a][b]

    def go_cost(self, a: str, b: str) -> int:
        if a == b:
            return GO_BASE
        return GO_BASE + math.ceil(FRAMES_PER_METER * self.distance(a, b))

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


def generate(seed: int, family: str = "food", capacity: str = "high", agents=("alice", "bob")) -> World:
    """A world from a seed (deterministic: same arguments, same world)."""
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}; expected one of {FAMILIES}")
    if capacity not in CAPACITIES:
        raise ValueError(f"unknown capacity {capacity!r}; expected one of {tuple(CAPACITIES)}")
    rng = random.Random(seed)
    rows, cols = GRID
    n_rooms = rng.randint(6, MAX_ROOMS)
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
    for _ in range(N_TARGETS):
        k = rng.choice(kinds)
        counter[k] = counter.get(k, 0) + 1
        targets.append(f"{k}_{counter[k]}")
    containers = []
    ccount: dict = {}
    for _ in range(CAPACITIES[capacity]):
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
        hidden[c] = 1 if rng.random() < 0.6 else 2
    start = {a: rng.choice(rooms) for a in agents}
    return World(seed, family, capacity, rooms, room_type, pos, g, bedroom, targets, containers, location, hidden,
                 {r: 0 for r in rooms}, start)


def room_prior(rooms, room_type, family) -> dict:
    """P(a target of ``family`` is in room r) from the room-type table, split evenly within a type."""
    n = {}
    for r in rooms:
        n[room_type[r]] = n.get(room_type[r], 0) + 1
    raw = {r: PLACEMENT_PRIOR[family][room_type[r]] / n[room_type[r]] for r in rooms}
    z = sum(raw.values())
    return {r: v / z for r, v in raw.items()}


def episode_world(spec: EpisodeSpec | int, agents=("alice", "bob")) -> World:
    if isinstance(spec, int):
        spec = EPISODES[spec]
    return generate(spec.world_seed, spec.family, spec.capacity, agents)


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
