"""Stories generated from actions, ExploreToM-like: people enter and leave rooms, move objects between
containers and rooms, tell each other privately, announce, peek, get distracted, overhear, change things
inside closed containers and come in quietly.

:func:`generate_story` is a pure function of ``(seed, index, config)``: story ``index`` of a seeded set is the
same whatever the set's size. It simulates who is where and what is where, samples valid actions, and returns
the events in the trace format (each one sentence of :mod:`belief.stories.text`); what anyone believes is left
to the checker (:func:`belief.truth.checker.check`), which also gives the gold answers
(:mod:`belief.stories.questions`). A message states what its sender believes, read from the checker on the
story so far, so a sender can pass on a false belief.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Optional

from belief.errors import BeliefError
from belief.stories.text import render
from belief.truth.checker import check
from belief.truth.index import is_marker
from belief.truth.trace import Trace

#: the optional actions, each a phenomenon the questions can hinge on (``--phenomena``); moving objects,
#: entering and leaving are always on
FEATURES = ("tell", "announce", "peek", "distracted", "overhear", "opaque", "quiet", "room_move")

NAMES = ("Anne", "Ben", "Carla", "David", "Emma", "Felix", "Grace", "Hugo", "Iris", "Jack", "Kate", "Leo", "Maya",
         "Noah", "Olga", "Paul", "Rosa", "Sam", "Tara", "Victor", "Wendy", "Yusuf", "Zoe", "Omar", "Lena", "Marco")
OBJECTS = ("apple", "marble", "ball", "key", "scarf", "watch", "book", "coin", "toy_car", "banana", "spoon", "hat",
           "ring", "phone", "pencil", "sock", "cup", "teddy_bear", "glove", "remote")
CONTAINERS = ("basket", "box", "drawer", "cupboard", "jar", "bucket", "suitcase", "crate", "bag", "chest",
              "green_bucket", "blue_box", "red_crate", "lunchbox", "bathtub", "wardrobe", "toolbox", "backpack",
              "shoebox", "envelope", "bottle", "pantry", "tin", "tub", "cabinet", "closet", "sack", "pot",
              "treasure_chest", "shelf")
ROOMS = ("kitchen", "hallway", "garden", "bedroom", "attic", "cellar", "office", "garage", "study", "porch",
         "living_room", "dining_room")


class StoryError(BeliefError):
    """Bad generator settings (depth, people, an unknown phenomenon)."""


@dataclass(frozen=True)
class StoryConfig:
    """What stories to generate: people per story, the deepest belief order asked, the optional actions."""

    depth: int = 4
    people: tuple = (2, 6)
    features: tuple = FEATURES
    actions: tuple = (5, 12)   # sampled actions after the opening

    def __post_init__(self):
        if not 1 <= self.depth <= 4:
            raise StoryError(f"depth must be 1-4 (the deepest belief order asked), got {self.depth}")
        lo, hi = self.people
        if not 2 <= lo <= hi <= 6:
            raise StoryError(f"people must be between 2 and 6 per story, got {lo}-{hi}")
        unknown = [f for f in self.features if f not in FEATURES]
        if unknown:
            raise StoryError(f"unknown phenomenon {unknown[0]!r} (known: {', '.join(FEATURES)})")


@dataclass
class Story:
    """One generated story: its events (trace-format dicts), one sentence per event, and the entities."""

    id: str
    seed: int
    index: int
    events: list
    sentences: list
    people: tuple
    objects: tuple
    rooms: dict = field(default_factory=dict)  # room -> its containers

    @property
    def text(self) -> str:
        return "\n".join(self.sentences) + "\n"

    def trace(self, events: Optional[list] = None) -> Trace:
        """The story's trace, or that of ``events`` (a variant of its events) under the same meta. The meta
        declares the rooms (``room_names``), so moving an object into a room nobody has entered yet is read as a room
        move, not as a move into a container of that name."""
        return Trace(self.events if events is None else events,
                     meta={"episode": self.id, "generator": "belief.stories", "seed": self.seed, "index": self.index,
                           "room_names": list(self.rooms)})


class _World:
    """Who is where and what is where, as the generator simulates it (the checker decides beliefs)."""

    def __init__(self, people, rooms, objects):
        self.loc: dict = {p: None for p in people}
        self.where: dict = {}
        self.rooms = rooms  # room -> containers
        self.container_room = {c: r for r, cs in rooms.items() for c in cs}
        self.objects = objects
        self.named: set = set()  # agents the trace has named so far

    def room_of(self, place: str) -> str:
        return place if place in self.rooms else self.container_room[place]

    def present(self, room) -> list:
        return [p for p, r in self.loc.items() if r == room]


def _choose(rng: random.Random, weighted: list):
    total = sum(w for w, _ in weighted)
    x = rng.random() * total
    for w, item in weighted:
        x -= w
        if x < 0:
            return item
    return weighted[-1][1]


def generate_story(seed: int, index: int, config: StoryConfig = StoryConfig()) -> Story:
    """Story ``index`` of the set seeded ``seed``: events valid for the checker, one sentence each."""
    rng = random.Random(f"belief.stories:{seed}:{index}")
    people = tuple(rng.sample(NAMES, rng.randint(*config.people)))
    n_rooms = rng.choice((1, 2, 2, 3)) if ("room_move" in config.features or "peek" in config.features) else 1
    room_names = rng.sample(ROOMS, n_rooms)
    pool = rng.sample(CONTAINERS, 3 * n_rooms)
    rooms = {r: tuple(pool[3 * i:3 * i + rng.choice((2, 3, 3))]) for i, r in enumerate(room_names)}
    objects = tuple(rng.sample(OBJECTS, rng.choice((1, 1, 2))))
    w = _World(people, rooms, objects)
    events: list = []

    def emit(ev: dict):
        events.append(ev)
        for k in ("agents",):
            for a in ev.get(k, ()):
                w.named.add(a)
        for k in ("agent", "sender"):
            if k in ev:
                w.named.add(ev[k])
        for k in ("recipients", "secret_observers", "inattentive", "overheard_by"):
            w.named.update(ev.get(k, ()))

    # the opening: some people are in the first room and see where the objects are
    home = room_names[0]
    first = rng.sample(people, rng.randint(1, max(1, len(people) - 1)))
    emit({"kind": "enter", "agents": sorted(first, key=people.index), "room": home})
    for a in first:
        w.loc[a] = home
    for o in objects:
        c = rng.choice(rooms[home])
        w.where[o] = c
        emit({"kind": "statement", "subject": [o], "value": c, "room": home})

    for _ in range(rng.randint(*config.actions)):
        ev = _action(rng, w, config.features, events)
        if ev is not None:
            emit(ev)
    sentences = [render(e, rng.randrange(6)) for e in events]
    return Story(id=f"story-{seed}-{index:05d}", seed=seed, index=index, events=events, sentences=sentences,
                 people=people, objects=objects, rooms=rooms)


def _belief(events: list, rooms, agent: str, obj: str) -> Optional[str]:
    """What ``agent`` believes about ``obj`` after ``events`` (the checker's answer, ``rooms`` declared as
    :meth:`Story.trace` does), or None."""
    v = check(Trace(events, meta={"room_names": list(rooms)})).value((agent,), ("in", obj))
    return v if isinstance(v, str) and not is_marker(v) else None


def _action(rng: random.Random, w: _World, features: tuple, events: list) -> Optional[dict]:
    """One valid action, sampled; None when the one drawn cannot happen now."""
    people = list(w.loc)
    inside = [p for p in people if w.loc[p] is not None]
    options = [(3.0, "enter"), (2.0, "exit"), (5.0, "move")]
    if "room_move" in features and len(w.rooms) > 1:
        options.append((1.0, "room_move"))
    if "tell" in features:
        options.append((1.5, "tell"))
    if "announce" in features:
        options.append((0.8, "announce"))
    kind = _choose(rng, options)
    if kind == "enter":
        p = rng.choice(people)
        free = [r for r in w.rooms if r != w.loc[p]]
        if not free:
            return None
        room = rng.choice(free)
        ev = {"kind": "enter", "agents": [p], "room": room}
        if "quiet" in features and w.present(room) and rng.random() < 0.3:
            ev["quiet"] = True
        w.loc[p] = room
        return ev
    if kind == "exit":
        if not inside:
            return None
        p = rng.choice(inside)
        ev = {"kind": "exit", "agents": [p], "room": w.loc[p]}
        w.loc[p] = None
        return ev
    if kind in ("move", "room_move"):
        movable = [(p, o) for p in inside for o in w.objects if w.room_of(w.where[o]) == w.loc[p]]
        if not movable:
            return None
        p, o = rng.choice(movable)
        room = w.loc[p]
        if kind == "room_move":
            to = rng.choice([r for r in w.rooms if r != room])
        else:
            targets = [c for c in w.rooms[room] if c != w.where[o]]
            if not targets:
                return None
            to = rng.choice(targets)
        ev = {"kind": "move", "agent": p, "object": o, "to": to}
        twist = []
        if kind == "move" and "opaque" in features:
            twist.append("opaque")
        if "peek" in features and [q for q in w.named if w.loc.get(q) != room]:
            twist.append("peek")
        if "distracted" in features and [q for q in w.present(room) if q != p]:
            twist.append("distracted")
        if twist and rng.random() < 0.45:
            t = rng.choice(twist)
            if t == "opaque":
                ev["opaque"] = True
            elif t == "peek":
                ev["secret_observers"] = [rng.choice(sorted(q for q in w.named if w.loc.get(q) != room))]
            else:
                ev["inattentive"] = [rng.choice(sorted(q for q in w.present(room) if q != p))]
        w.where[o] = to
        return ev
    # messages: the sender passes on what it believes (maybe a false belief)
    senders = [p for p in people if p in w.named]
    if not senders:
        return None
    sender = rng.choice(senders)
    obj = rng.choice(w.objects)
    value = _belief(events, w.rooms, sender, obj)
    if value is None:
        return None
    content = [{"subject": [obj], "value": value}]
    if kind == "announce":
        if w.loc[sender] is None or len(w.present(w.loc[sender])) < 2:
            return None
        return {"kind": "announce", "sender": sender, "content": content}
    others = [p for p in people if p != sender]
    to = rng.choice(others)
    ev = {"kind": "tell", "sender": sender, "recipients": [to], "content": content}
    hidden = sorted(q for q in w.named if q not in (sender, to))
    if "overhear" in features and hidden and rng.random() < 0.35:
        ev["overheard_by"] = [rng.choice(hidden)]
    return ev


__all__ = ["StoryConfig", "Story", "StoryError", "generate_story", "FEATURES", "NAMES", "OBJECTS", "CONTAINERS",
           "ROOMS"]
