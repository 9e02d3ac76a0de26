"""The world of ``household_v0``: a symbolic Communicative Watch-And-Help (C-WAH) apartment.

An apartment has four rooms (kitchen, living room, bedroom, bathroom: VirtualHome's four) joined by doors;
each room holds fixed furniture: *surfaces* (tables, counters, sofa, bed, bench) and openable *containers*
(fridge, kitchen cabinets, dishwasher, microwave, stove, cabinets, nightstand) that start closed and hide
their contents while closed. Small objects (food, dishes, distractors) lie on surfaces or inside containers.

Two scales (:data:`SCALES`): ``cwah`` (the default) follows C-WAH's test-set generator (Co-LLM-Agents,
``cwah/gen_data``): the apartments have VirtualHome's furniture (a kitchen with five to seven cabinets and a
fridge, dishwasher, microwave and stove; cabinets in the other rooms), a task is 3-5 objects of the task's
classes with each class at most its ``init_pool`` count (:data:`CWAH_MAX_COUNT`), each goal class gets
between its count and that maximum + 1 objects, placed as the generator places them (a place kind drawn
uniformly from :data:`CWAH_GOAL_PLACES`, then one of its pieces: mostly inside closed containers), plus
distractors; walking through a door takes :attr:`Scale.walk_steps` steps and walking up to a piece of
furniture in the room :attr:`Scale.approach_steps` (C-WAH agents ``walktowards`` every container before
opening it). ``small`` is the earlier world, about a third of C-WAH's size (fast tests).

A task is one of the five C-WAH tasks (``TASKS``): goal predicates ``ON(cls, target): n`` or
``IN(cls, target): n``, met when at least ``n`` objects of class ``cls`` are on/in ``target``. A world's
location map is one functional fluent per object, ``in(o)``: the receptacle (surface or container) it
lies on/in, or the agent holding it (the readable fact ``cupcake_1 IN coffeetable_1`` reads "on" for a
surface). Containers have the fluent ``open(c)`` = ``open`` | ``closed``.

:func:`generate` is a pure function of the seed and the scale: a layout, a task (``small``: 2-4 goal classes,
counts 1-3, at least 4 goal objects; ``cwah``: as above), the required objects plus spare ones of the goal
classes and distractors, none of them on its goal target at the start, and the agents' start rooms. Every generated world is solvable:
each goal class has enough objects, all rooms are connected, every container opens.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field

ROOMS = ("kitchen", "livingroom", "bedroom", "bathroom")
MAX_STEPS = 250
HANDS = 2
SURFACE = "surface"
CONTAINER = "container"

#: furniture kind -> surface | container
FURNITURE_KINDS = {
    "kitchentable": SURFACE, "kitchencounter": SURFACE, "coffeetable": SURFACE, "sofa": SURFACE,
    "desk": SURFACE, "bed": SURFACE, "bookshelf": SURFACE, "bathroomcounter": SURFACE,
    "bench": SURFACE,
    "fridge": CONTAINER, "kitchencabinet": CONTAINER, "dishwasher": CONTAINER, "microwave": CONTAINER,
    "cabinet": CONTAINER, "nightstand": CONTAINER, "bathroomcabinet": CONTAINER, "stove": CONTAINER,
}


@dataclass(frozen=True)
class Layout:
    """An apartment: doors between rooms and the furniture kinds of each room (names get ``_1``, ``_2``...)."""

    name: str
    doors: tuple
    furniture: dict


LAYOUTS = (
    Layout("apartment_0", (("kitchen", "livingroom"), ("livingroom", "bedroom"), ("livingroom", "bathroom")), {
        "kitchen": ("kitchentable", "kitchencounter", "fridge", "kitchencabinet", "kitchencabinet", "dishwasher",
                    "microwave"),
        "livingroom": ("coffeetable", "sofa", "cabinet"), "bedroom": ("bed", "desk", "nightstand"),
        "bathroom": ("bathroomcounter", "bathroomcabinet")}),
    Layout("apartment_1", (("kitchen", "livingroom"), ("livingroom", "bedroom"), ("bedroom", "bathroom")), {
        "kitchen": ("kitchentable", "kitchencounter", "fridge", "kitchencabinet", "dishwasher"),
        "livingroom": ("coffeetable", "sofa", "bookshelf", "cabinet", "cabinet"),
        "bedroom": ("bed", "nightstand", "cabinet"), "bathroom": ("bathroomcounter", "bathroomcabinet")}),
    Layout("apartment_2", (("kitchen", "livingroom"), ("kitchen", "bathroom"), ("livingroom", "bedroom"),
                           ("bedroom", "bathroom")), {
        "kitchen": ("kitchentable", "kitchencounter", "fridge", "kitchencabinet", "kitchencabinet",
                    "kitchencabinet", "dishwasher", "microwave"),
        "livingroom": ("coffeetable", "sofa", "desk"), "bedroom": ("bed", "nightstand", "nightstand"),
        "bathroom": ("bathroomcounter", "bathroomcabinet")}),
    Layout("apartment_3", (("livingroom", "kitchen"), ("livingroom", "bedroom"), ("kitchen", "bathroom")), {
        "kitchen": ("kitchentable", "kitchencounter", "fridge", "kitchencabinet", "dishwasher", "microwave"),
        "livingroom": ("coffeetable", "sofa", "cabinet", "bookshelf"), "bedroom": ("bed", "desk", "cabinet"),
        "bathroom": ("bathroomcounter", "bathroomcabinet")}),
    Layout("apartment_4", (("bedroom", "livingroom"), ("livingroom", "kitchen"), ("kitchen", "bathroom"),
                           ("livingroom", "bathroom")), {
        "kitchen": ("kitchentable", "kitchencounter", "fridge", "kitchencabinet", "kitchencabinet", "dishwasher"),
        "livingroom": ("coffeetable", "sofa", "cabinet"), "bedroom": ("bed", "desk", "nightstand", "cabinet"),
        "bathroom": ("bathroomcounter", "bathroomcabinet")}),
)

#: apartments at C-WAH's scale: VirtualHome's rooms and furniture kinds (kitchens with many cabinets)
CWAH_LAYOUTS = (
    Layout("vh_apartment_0", (("kitchen", "livingroom"), ("livingroom", "bedroom"), ("livingroom", "bathroom")), {
        "kitchen": ("kitchentable", "kitchencounter", "fridge", "dishwasher", "microwave", "stove", *["kitchencabinet"] * 6),
        "livingroom": ("coffeetable", "sofa", "bench", "bookshelf", "cabinet", "cabinet"),
        "bedroom": ("bed", "desk", "nightstand", "cabinet"), "bathroom": ("bathroomcounter", "bathroomcabinet")}),
    Layout("vh_apartment_1", (("kitchen", "livingroom"), ("livingroom", "bedroom"), ("bedroom", "bathroom")), {
        "kitchen": ("kitchentable", "kitchencounter", "bench", "fridge", "dishwasher", "microwave", "stove",
                    *["kitchencabinet"] * 5),
        "livingroom": ("coffeetable", "sofa", "bookshelf", "cabinet", "cabinet"),
        "bedroom": ("bed", "desk", "nightstand", "cabinet", "cabinet"), "bathroom": ("bathroomcounter", "bathroomcabinet")}),
    Layout("vh_apartment_2", (("kitchen", "livingroom"), ("kitchen", "bathroom"), ("livingroom", "bedroom"),
                              ("bedroom", "bathroom")), {
        "kitchen": ("kitchentable", "kitchencounter", "fridge", "dishwasher", "microwave", "stove", *["kitchencabinet"] * 7),
        "livingroom": ("coffeetable", "sofa", "bench", "cabinet"), "bedroom": ("bed", "nightstand", "desk", "cabinet"),
        "bathroom": ("bathroomcounter", "bathroomcabinet", "cabinet")}),
    Layout("vh_apartment_3", (("livingroom", "kitchen"), ("livingroom", "bedroom"), ("kitchen", "bathroom")), {
        "kitchen": ("kitchentable", "kitchencounter", "bench", "fridge", "dishwasher", "microwave", "stove",
                    *["kitchencabinet"] * 6),
        "livingroom": ("coffeetable", "sofa", "bookshelf", "cabinet"), "bedroom": ("bed", "desk", "cabinet", "cabinet"),
        "bathroom": ("bathroomcounter", "bathroomcabinet")}),
    Layout("vh_apartment_4", (("bedroom", "livingroom"), ("livingroom", "kitchen"), ("kitchen", "bathroom"),
                              ("livingroom", "bathroom")), {
        "kitchen": ("kitchentable", "kitchencounter", "fridge", "dishwasher", "microwave", "stove", *["kitchencabinet"] * 5),
        "livingroom": ("coffeetable", "sofa", "bench", "cabinet", "cabinet"),
        "bedroom": ("bed", "desk", "nightstand", "cabinet"), "bathroom": ("bathroomcounter", "bathroomcabinet")}),
)

FOOD = ("cupcake", "pudding", "apple", "juice", "wine", "pancake", "poundcake", "coffeepot")
DISHES = ("plate", "waterglass", "wineglass", "cutleryfork")
DISTRACTORS = ("book", "remotecontrol", "towel", "toothbrush", "pillow", "mug")

#: task -> (relation, target furniture kind, goal classes to draw from)
TASKS = {
    "prepare_afternoon_tea": ("ON", "coffeetable", ("cupcake", "pudding", "apple", "juice", "wine")),
    "wash_dishes": ("IN", "dishwasher", DISHES),
    "prepare_a_meal": ("ON", "kitchentable", ("coffeepot", "cupcake", "pancake", "poundcake", "pudding", "apple",
                                              "juice", "wine")),
    "put_groceries": ("IN", "fridge", ("cupcake", "pancake", "poundcake", "pudding", "apple", "juice", "wine")),
    "set_up_dinner_table": ("ON", "kitchentable", DISHES),
}
#: the study's object sets (CoBel-World's C-WAH): task -> (relation, target, classes); the dinner table is
#: VirtualHome's kitchentable, the fork its cutleryfork
CWAH_TASKS = {
    "prepare_afternoon_tea": ("ON", "coffeetable", ("cupcake", "pudding", "apple", "juice", "wine")),
    "wash_dishes": ("IN", "dishwasher", ("plate", "cutleryfork")),
    "prepare_a_meal": ("ON", "kitchentable", ("coffeepot", "cupcake", "pancake", "poundcake", "pudding", "apple",
                                              "juice", "wine")),
    "put_groceries": ("IN", "fridge", ("cupcake", "pancake", "poundcake", "pudding", "apple", "juice", "wine")),
    "set_up_dinner_table": ("ON", "kitchentable", ("plate", "cutleryfork")),
}
#: per class, the most objects a goal asks for (C-WAH's ``init_pool.json``: ``max_num``)
CWAH_MAX_COUNT = {"cupcake": 2, "pudding": 2, "apple": 2, "juice": 1, "wine": 1, "pancake": 1, "poundcake": 1,
                  "coffeepot": 1, "plate": 2, "cutleryfork": 2}
#: where C-WAH's test generator puts goal-class objects (inside fridge, kitchen cabinets, cabinets, microwave,
#: dishwasher, stove; on coffee table, bench, kitchen table), never on the goal target
CWAH_GOAL_PLACES = ("fridge", "kitchencabinet", "cabinet", "microwave", "dishwasher", "stove", "coffeetable", "bench",
                    "kitchentable")
CWAH_GOAL_OBJECTS = (3, 5)  # objects a task asks for in all (the study: 3-5 subgoals)

TASK_TITLES = {"prepare_afternoon_tea": "Prepare afternoon tea", "wash_dishes": "Wash dishes",
               "prepare_a_meal": "Prepare a meal", "put_groceries": "Put groceries",
               "set_up_dinner_table": "Set up a dinner table"}

#: where an object class may start (furniture kinds)
_FOOD_PLACES = ("fridge", "kitchencabinet", "kitchencounter", "kitchentable", "microwave", "coffeetable",
                "cabinet", "desk", "nightstand", "bookshelf")
_DISH_PLACES = ("kitchencabinet", "dishwasher", "kitchencounter", "kitchentable", "cabinet", "coffeetable",
                "bathroomcounter", "desk")
_DISTRACTOR_PLACES = ("sofa", "bed", "desk", "bookshelf", "bathroomcounter", "bathroomcabinet", "nightstand",
                      "coffeetable", "cabinet")


def start_places(cls: str) -> tuple:
    if cls in FOOD:
        return _FOOD_PLACES
    if cls in DISHES:
        return _DISH_PLACES
    return _DISTRACTOR_PLACES


def cwah_start_places(cls: str) -> tuple:
    """Where a non-goal object may start at the ``cwah`` scale: as :func:`start_places`, plus the bench and
    the stove (food) or the bench and the kitchen cabinets (distractors: C-WAH puts books there)."""
    if cls in FOOD:
        return _FOOD_PLACES + ("stove", "bench")
    if cls in DISHES:
        return _DISH_PLACES + ("bench",)
    return _DISTRACTOR_PLACES + ("bench", "kitchencabinet")


@dataclass(frozen=True)
class Goal:
    """``relation(cls, target): count``, e.g. ``ON(cupcake, coffeetable_1): 2``."""

    relation: str
    cls: str
    target: str
    count: int

    def __str__(self):
        return f"{self.relation}({self.cls}, {self.target}): {self.count}"


def object_class(name: str) -> str:
    """``cupcake_2`` -> ``cupcake``."""
    return name.rsplit("_", 1)[0]


@dataclass
class World:
    """One apartment's state. ``location[o]`` is a receptacle or an agent; ``is_open[c]`` per container."""

    layout: str
    doors: tuple
    furniture: dict              # name -> (kind, room)
    task: str
    goals: tuple
    objects: tuple               # object names, sorted
    location: dict
    is_open: dict
    agent_room: dict
    held: dict = field(default_factory=dict)  # agent -> [hand 0, hand 1] (object name or None)

    def __post_init__(self):
        for a in self.agent_room:
            self.held.setdefault(a, [None] * HANDS)

    # --- the map -------------------------------------------------------------------------------
    @property
    def rooms(self) -> tuple:
        return tuple(r for r in ROOMS if any(r in d for d in self.doors))

    def neighbours(self, room: str) -> tuple:
        return tuple(sorted({b for a, b in self.doors if a == room} | {a for a, b in self.doors if b == room}))

    def distances(self, room: str) -> dict:
        """Doors to walk from ``room`` to every room (breadth-first)."""
        dist = {room: 0}
        todo = deque([room])
        while todo:
            r = todo.popleft()
            for n in self.neighbours(r):
                if n not in dist:
                    dist[n] = dist[r] + 1
                    todo.append(n)
        return dist

    def kind(self, receptacle: str) -> str:
        """``surface`` or ``container``."""
        return FURNITURE_KINDS[self.furniture[receptacle][0]]

    def room_of(self, receptacle: str) -> str:
        return self.furniture[receptacle][1]

    def receptacles_in(self, room: str) -> tuple:
        return tuple(f for f, (_, r) in self.furniture.items() if r == room)

    def containers_in(self, room: str) -> tuple:
        return tuple(f for f in self.receptacles_in(room) if self.kind(f) == CONTAINER)

    # --- state ---------------------------------------------------------------------------------
    def contents(self, receptacle: str) -> tuple:
        return tuple(o for o in self.objects if self.location[o] == receptacle)

    def visible_receptacles(self, room: str) -> tuple:
        """Surfaces of ``room``, its open containers and the agents in it (whose hands are seen)."""
        recs = tuple(f for f in self.receptacles_in(room) if self.kind(f) == SURFACE or self.is_open[f])
        return recs + tuple(a for a, r in self.agent_room.items() if r == room)

    def visible_objects(self, room: str) -> tuple:
        recs = set(self.visible_receptacles(room))
        return tuple(o for o in self.objects if self.location[o] in recs)

    def satisfied(self, goal: Goal) -> int:
        return sum(1 for o in self.objects if object_class(o) == goal.cls and self.location[o] == goal.target)

    def done(self) -> bool:
        return all(self.satisfied(g) >= g.count for g in self.goals)

    def describe(self) -> dict:
        return {"layout": self.layout, "task": self.task, "goals": [str(g) for g in self.goals],
                "location": dict(self.location), "agent_room": dict(self.agent_room)}


def task_text(world: World) -> str:
    return f"{TASK_TITLES[world.task]}: " + ", ".join(str(g) for g in world.goals)


def _furniture(layout: Layout) -> dict:
    out, counts = {}, {}
    for room in ROOMS:
        for kind in layout.furniture[room]:
            counts[kind] = counts.get(kind, 0) + 1
            out[f"{kind}_{counts[kind]}"] = (kind, room)
    return out


@dataclass(frozen=True)
class Scale:
    """How big a world is: its apartments, tasks, and what walking costs (steps a door, steps up to a piece of
    furniture in the room before acting on it)."""

    name: str
    layouts: tuple
    tasks: dict
    walk_steps: int
    approach_steps: int


SCALES = {
    # walk_steps: crossing a door; approach_steps: the walktowards a container or surface before acting on it
    "cwah": Scale("cwah", CWAH_LAYOUTS, CWAH_TASKS, walk_steps=8, approach_steps=3),
    "small": Scale("small", LAYOUTS, TASKS, walk_steps=3, approach_steps=0),
}
DEFAULT_SCALE = "cwah"


def scale_of(name: str) -> Scale:
    """The named :class:`Scale`; ValueError naming the choices otherwise."""
    try:
        return SCALES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown household scale {name!r}; choose from {', '.join(SCALES)}") from None


def generate(seed: int, agents=("alice", "bob"), scale: str = DEFAULT_SCALE) -> World:
    """A seeded solvable episode of the named scale: layout, task, goals, object placement and start rooms."""
    if scale_of(scale).name == "small":
        return _generate_small(seed, agents)
    return _generate_cwah(seed, agents)


def _place(rng, wanted: dict, by_kind: dict, target: str, places_of) -> dict:
    location = {}
    for cls in sorted(wanted):
        places = [f for k in places_of(cls) for f in by_kind.get(k, ()) if f != target]
        for i in range(1, wanted[cls] + 1):
            location[f"{cls}_{i}"] = places[rng.randrange(len(places))]
    return location


def _by_kind(furniture: dict) -> dict:
    by_kind: dict = {}
    for name, (kind, _room) in furniture.items():
        by_kind.setdefault(kind, []).append(name)
    return by_kind


def _world(layout: Layout, furniture: dict, task: str, goals: tuple, location: dict, rng, agents) -> World:
    rooms = tuple(r for r in ROOMS if r in layout.furniture)
    agent_room = {a: rooms[rng.randrange(len(rooms))] for a in agents}
    return World(layout=layout.name, doors=layout.doors, furniture=furniture, task=task, goals=goals,
                 objects=tuple(sorted(location)), location=location,
                 is_open={f: False for f, (k, _) in furniture.items() if FURNITURE_KINDS[k] == CONTAINER},
                 agent_room=agent_room)


def _draw_task(rng: random.Random, layouts, tasks) -> tuple:
    """The layout (with its furniture) and the task drawn first by both generators: ``(layout, furniture, task,
    relation, class pool, target)``."""
    layout = layouts[rng.randrange(len(layouts))]
    task = sorted(tasks)[rng.randrange(len(tasks))]
    relation, target_kind, pool = tasks[task]
    return layout, _furniture(layout), task, relation, pool, f"{target_kind}_1"


def _generate_cwah(seed: int, agents) -> World:
    """C-WAH's generator (``cwah/gen_data``): goal counts per class up to its ``init_pool`` maximum, 3-5 objects
    in all; each goal class gets count..maximum+1 objects, each placed by drawing a place kind uniformly from
    :data:`CWAH_GOAL_PLACES` present in the apartment (not the target), then one of its pieces; three other
    food or dish classes and four distractor classes lie about as well."""
    rng = random.Random(f"household_cwah:{seed}")
    layout, furniture, task, relation, pool, target = _draw_task(rng, CWAH_LAYOUTS, CWAH_TASKS)
    lo, hi = CWAH_GOAL_OBJECTS
    while True:
        counts = {c: rng.randint(0, CWAH_MAX_COUNT[c]) for c in pool}
        if lo <= sum(counts.values()) <= hi:
            break
    goals = tuple(Goal(relation, c, target, n) for c, n in sorted(counts.items()) if n)
    wanted = {g.cls: rng.randint(g.count, CWAH_MAX_COUNT[g.cls] + 1) for g in goals}
    by_kind = _by_kind(furniture)
    kinds = [k for k in CWAH_GOAL_PLACES if any(f != target for f in by_kind.get(k, ()))]
    location = {}
    for cls in sorted(wanted):
        for i in range(1, wanted[cls] + 1):
            places = [f for f in by_kind[kinds[rng.randrange(len(kinds))]] if f != target]
            location[f"{cls}_{i}"] = places[rng.randrange(len(places))]
    others = {c: 1 for c in rng.sample([c for c in (*FOOD, *DISHES) if c not in wanted], 3)}
    others.update({c: rng.randint(1, 2) for c in rng.sample(DISTRACTORS, 4)})
    location.update(_place(rng, others, by_kind, target, cwah_start_places))
    return _world(layout, furniture, task, goals, location, rng, agents)


def _generate_small(seed: int, agents) -> World:
    """The earlier, smaller world (about a third of C-WAH's size): 2-4 goal classes, counts 1-3, at least 4 objects."""
    rng = random.Random(f"household_v0:{seed}")
    layout, furniture, task, relation, pool, target = _draw_task(rng, LAYOUTS, TASKS)
    classes = sorted(rng.sample(pool, rng.randint(2, min(4, len(pool)))))
    counts = [rng.randint(1, 3) for _ in classes]
    while sum(counts) < 4:
        counts[rng.randrange(len(counts))] += 1
    goals = tuple(Goal(relation, c, target, n) for c, n in zip(classes, counts))
    wanted = {g.cls: g.count + rng.randint(0, 1) for g in goals}
    others = [c for c in (*FOOD, *DISHES) if c not in wanted]
    for c in rng.sample(others, 3):
        wanted[c] = 1
    for c in rng.sample(DISTRACTORS, 4):
        wanted[c] = rng.randint(1, 2)
    location = _place(rng, wanted, _by_kind(furniture), target, start_places)
    return _world(layout, furniture, task, goals, location, rng, agents)


__all__ = ["CONTAINER", "CWAH_GOAL_OBJECTS", "CWAH_GOAL_PLACES", "CWAH_LAYOUTS", "CWAH_MAX_COUNT", "CWAH_TASKS",
           "DEFAULT_SCALE", "SCALES", "Scale", "scale_of", "DISHES", "DISTRACTORS", "FOOD", "FURNITURE_KINDS", "Goal", "HANDS", "LAYOUTS",
           "Layout", "MAX_STEPS", "ROOMS", "SURFACE", "TASKS", "TASK_TITLES", "World", "generate",
           "object_class", "start_places", "task_text"]
