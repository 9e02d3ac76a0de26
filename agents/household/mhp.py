"""An MHP-style heuristic planner for ``household_v0`` (the Watch-And-Help hierarchical planner, greedy form).

Given what one agent believes (a :class:`Situation`: its room and hands, where it believes objects are,
which containers it believes open, which receptacles it has seen, and what the other agent is taken
to be doing), :func:`choose` returns a *subgoal* and the next primitive action:

1. deliver: holding an object of a goal class and no free hand, or nothing left to grasp in this room:
   walk to the goal target's room, open it if it is a closed container, put the object;
2. fetch: a free hand and a located object of a goal class still needed (goal count minus objects on
   the target, in anyone's hands, or claimed by the other agent): the cheapest one (doors to walk, +1
   when it must be opened), ties by name; walk there, open its container, grasp;
3. explore: the nearest room with receptacles not yet seen (rooms the other agent explores last): walk
   there, open its unseen containers one by one;
4. nothing known and something still missing: forget what was seen and explore again; all met: wait.

Subgoals are ``("fetch", o)``, ``("deliver", target)``, ``("explore", room)`` or ``("wait", None)``: the
granularity at which partners are predicted and plans announced.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from belief.envs.household.environment import APPROACH_STEPS, WALK_STEPS, put_name
from belief.envs.household.world import CONTAINER, FURNITURE_KINDS, SURFACE, Goal, object_class

WAIT = ("wait", None)



class Task:
    """The public task: goals and the map (rooms, doors, furniture), with shortest walks precomputed."""

    def __init__(self, info: dict):
        self.goals = tuple(Goal(*g) for g in info["goals"])
        self.target_of = {g.cls: g.target for g in self.goals}
        self.rooms = tuple(info["rooms"])
        self.furniture = {f: tuple(v) for f, v in info["furniture"].items()}
        self.agents = tuple(info["agents"])
        self.walk_steps = int(info.get("walk_steps", WALK_STEPS))          # steps a door
        self.approach_steps = int(info.get("approach_steps", APPROACH_STEPS))  # steps up to furniture
        adj = {r: set() for r in self.rooms}
        for a, b in info["doors"]:
            adj[a].add(b)
            adj[b].add(a)
        self._dist, self._hop = {}, {}
        for r in self.rooms:
            dist, first = {r: 0}, {r: r}
            todo = deque([r])
            while todo:
                x = todo.popleft()
                for n in sorted(adj[x]):
                    if n not in dist:
                        dist[n] = dist[x] + 1
                        first[n] = n if x == r else first[x]
                        todo.append(n)
            self._dist[r], self._hop[r] = dist, first

    def dist(self, a: str, b: str) -> int:
        return self._dist[a][b]

    def next_hop(self, a: str, b: str) -> str:
        return self._hop[a][b]

    def room_of(self, receptacle: str) -> str:
        return self.furniture[receptacle][1]

    def is_container(self, receptacle: str) -> bool:
        return FURNITURE_KINDS[self.furniture[receptacle][0]] == CONTAINER

    def is_receptacle(self, place) -> bool:
        return place in self.furniture

    def room_of_place(self, place):
        """The room of a receptacle; None for an agent's hands or an unknown place."""
        return self.furniture[place][1] if place in self.furniture else None

    def put_action(self, hand: int, receptacle: str) -> str:
        return put_name(hand, receptacle, SURFACE if not self.is_container(receptacle) else CONTAINER)


@dataclass
class Situation:
    """What one agent believes, as the planner needs it (``where`` holds definite locations only)."""

    me: str
    room: str
    hands: tuple
    where: dict
    opened: set
    checked: set
    claimed: frozenset = frozenset()       # objects the other agent goes for
    avoid_rooms: frozenset = frozenset()   # rooms the other agent explores
    banned: set = field(default_factory=set)  # objects not to choose (yielded, or found missing)


def missing(task: Task, where: dict) -> dict:
    """Goal class -> objects still to bring (goal count minus objects believed on the target)."""
    out = {}
    for g in task.goals:
        there = sum(1 for o, loc in where.items() if loc == g.target and object_class(o) == g.cls)
        out[g.cls] = max(0, g.count - there)
    return out


def pending(task: Task, sit: Situation) -> dict:
    """Still to bring after what anyone holds and what the other agent claimed."""
    need = missing(task, sit.where)
    for o, loc in sit.where.items():
        c = object_class(o)
        if c in need and loc in task.agents:
            need[c] -= 1
    for o in sit.claimed:
        c = object_class(o)
        if c in need and sit.where.get(o) not in task.agents and sit.where.get(o) != task.target_of[c]:
            need[c] -= 1
    return need


def fetch_candidates(task: Task, sit: Situation) -> list:
    """Located objects of goal classes still needed, cheapest first: ``[(cost, o)]``."""
    need = pending(task, sit)
    out = []
    for o, loc in sit.where.items():
        c = object_class(o)
        if need.get(c, 0) <= 0 or not task.is_receptacle(loc) or loc == task.target_of[c]:
            continue
        if o in sit.claimed or o in sit.banned:
            continue
        cost = task.dist(sit.room, task.room_of(loc)) + (1 if task.is_container(loc) and loc not in sit.opened else 0)
        out.append((cost, o))
    return sorted(out)


def _goto(task: Task, sit: Situation, room: str):
    return f"walk to {task.next_hop(sit.room, room)}"


def deliver_step(task: Task, sit: Situation, hand: int, o: str):
    target = task.target_of[object_class(o)]
    if task.room_of(target) != sit.room:
        return ("deliver", target), _goto(task, sit, task.room_of(target))
    if task.is_container(target) and target not in sit.opened:
        return ("deliver", target), f"open {target}"
    return ("deliver", target), task.put_action(hand, target)


def fetch_step(task: Task, sit: Situation, o: str):
    loc = sit.where[o]
    if task.room_of(loc) != sit.room:
        return ("fetch", o), _goto(task, sit, task.room_of(loc))
    if task.is_container(loc) and loc not in sit.opened:
        return ("fetch", o), f"open {loc}"
    return ("fetch", o), f"grasp {o}"


def explore_step(task: Task, sit: Situation):
    """Open an unseen container here, else walk to the nearest room with unseen receptacles (or None)."""
    here = sorted(f for f in task.furniture if task.room_of(f) == sit.room and f not in sit.checked
                  and task.is_container(f))
    for c in here:
        if c not in sit.opened:
            return ("explore", sit.room), f"open {c}"
    rooms = {task.room_of(f) for f in task.furniture if f not in sit.checked} - {sit.room}
    if not rooms:
        return None
    preferred = (rooms - sit.avoid_rooms) or rooms
    room = min(preferred, key=lambda r: (task.dist(sit.room, r), r))
    return ("explore", room), _goto(task, sit, room)


def choose(task: Task, sit: Situation):
    """``(subgoal, action name)`` for one agent's beliefs."""
    held_goal = [(h, o) for h, o in enumerate(sit.hands) if o is not None and object_class(o) in task.target_of]
    free = any(o is None for o in sit.hands)
    candidates = fetch_candidates(task, sit) if free else []
    here = [o for _, o in candidates if task.room_of(sit.where[o]) == sit.room]
    if held_goal and (not free or not here):
        return deliver_step(task, sit, *held_goal[0])
    if candidates:
        return fetch_step(task, sit, (here or [candidates[0][1]])[0])
    if not any(pending(task, sit).values()):
        return WAIT, "wait"
    step = explore_step(task, sit)
    if step is None:  # everything was seen and something is still missing: objects moved; look again
        sit.checked = {f for f in sit.checked if task.room_of(f) == sit.room and not task.is_container(f)}
        step = explore_step(task, sit)
    return step or (WAIT, "wait")


__all__ = ["Goal", "Situation", "Task", "WAIT", "choose", "deliver_step", "explore_step", "fetch_candidates",
           "fetch_step", "missing", "pending"]
