"""``escape_v0``: CollabEscape (LLM-Coordination, Agashe et al. 2023) as a PettingZoo AEC environment.

Alice and Bob must leave a :mod:`belief.envs.maze.world` maze while a killer hunts them. Two rule sets:

``rules="source"`` (default), the game of the source code (``CollabEscapeMDP.py``): its fixed map of eight
rooms (:func:`~belief.envs.maze.world.source_escape_maze`), Alice in room_1, Bob in room_2, the killer in room_6;
generators in room_1 and room_5, each fixed by **two consecutive** *use* actions in its room (a generator that
nobody works on in a round falls back to 0); the exit gate in room_7 opens once both are fixed, and a player in
room_7 with the gate open escapes at the end of the round: **one escape wins**. The killer moves **every
round**: to the room where a player stood at the start of the round when that room is next to it (Alice first),
else to a random neighbouring room; a player sharing its room at the end of a round is caught and the game is
lost. Everything is in full view (the source tells both players every position, the generators and the gate).

``rules="project"``, this project's variant: a seeded 3x3 maze with partial view; one generator repaired
``REPAIRS`` times (not necessarily in a row); the killer moves every ``KILLER_EVERY`` rounds towards the
nearest player within ``SIGHT`` moves, else wanders, and catches a player the moment they share a room; a
fair start (the killer at least ``START_GAP`` moves from players, generator and exit, and a route exists);
success is **both** players leaving through the gate with *use* within ``max_rounds``.

The gate opening, an escape and a capture are public. Everything else: :mod:`belief.envs.maze.environment`.
"""

from __future__ import annotations


from belief.envs.base.parallel import turn_based_constructors
from belief.envs.maze.environment import PLAYERS, MazeEnv, MazeError, global_trace as _global_trace
from belief.envs.maze.events import eff, f_at, public_event
from belief.envs.maze.world import USE, generate, place, plan_first_actions, source_escape_maze
from belief.truth.trace import Action

KILLER = "killer"
REPAIRS = 3       # uses of the generator before the gate opens (project rules)
SOURCE_REPAIRS = 2  # consecutive uses that fix one generator (source rules)
SOURCE_GENERATORS, SOURCE_EXIT = ("room_1", "room_5"), "room_7"
SOURCE_START = {"alice": "room_1", "bob": "room_2", KILLER: "room_6"}
SIGHT = 2         # the killer hunts players within this many moves (through open doors)
KILLER_EVERY = 2  # the killer moves on rounds divisible by this (the players move every round)
START_GAP = 3     # the killer's least start distance (moves) from each player, the generator and the exit
GENERATOR, EXIT = "generator", "exit"
OUTSIDE = "outside"
F_GATE = ("gate", EXIT)
F_REPAIRS = ("repairs", GENERATOR)  # the one generator of the project rules


def f_repairs(generator_room: str, n_generators: int = 1) -> tuple:
    """The repairs fluent of the generator in ``generator_room`` (``repairs(generator)`` when there is one)."""
    return F_REPAIRS if n_generators == 1 else ("repairs", f"generator_{generator_room}")


def f_status(player: str) -> tuple:
    return ("status", player)


def source_hunt(maze, who: str, prey_rooms: dict, rng) -> str:
    """The source killer's move: into the room a prey stood in at the start of the round when it is next to
    the killer (prey in the order given: Alice first), else a random neighbouring room (it never stays)."""
    here = maze.pos[who]
    near = maze.open_neighbours(here)
    for room in prey_rooms.values():
        if room in near:
            return room
    return rng.choice(near) if near else here


def hunt(maze, who: str, prey, rng, sight: int = SIGHT) -> str:
    """The room a hunter moves to: one step along a shortest path to the nearest prey within ``sight``
    (ties at random), else a random neighbour or staying."""
    here = maze.pos[who]
    near = maze.distances(here)
    targets = sorted((near[maze.pos[p]], p) for p in prey if near.get(maze.pos[p], sight + 1) <= sight)
    options = [here] + maze.open_neighbours(here)
    if not targets:
        return rng.choice(options)
    goal = maze.pos[targets[0][1]]
    steps = [r for r in maze.open_neighbours(here) if maze.distances(r).get(goal, 99) == targets[0][0] - 1]
    return rng.choice(steps) if steps else here


class raw_env(MazeEnv):
    metadata = {"name": "escape_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}
    adversary = KILLER
    max_rounds = 40

    def new_maze(self, seed):
        self.status = {p: "active" for p in PLAYERS}
        self.fixed_this_round: set = set()
        if self.rules == "source":
            maze = source_escape_maze()
            maze.pos.update(SOURCE_START)
            self.generator_rooms, self.exit_room = SOURCE_GENERATORS, SOURCE_EXIT
            self.repairs_needed = SOURCE_REPAIRS
            self.repairs = {g: 0 for g in self.generator_rooms}
            return maze
        maze = generate(seed)
        for attempt in range(500):
            maze.pos.clear()
            generator, self.exit_room = place(maze, f"{seed}:{attempt}", PLAYERS, KILLER, min_gap=START_GAP, extra=2)
            self.generator_rooms = (generator,)
            if self.fair_start(maze):
                break
        else:  # pragma: no cover - seeds 0-299 all find one within 50 attempts
            raise MazeError(f"no fair escape start for seed {seed!r}")
        self.repairs_needed = REPAIRS
        self.repairs = {generator: 0}
        return maze

    @property
    def generator_room(self) -> str:
        """The first generator still to fix (the last one once all are fixed)."""
        return next((g for g in self.generator_rooms if not self.generator_fixed(g)), self.generator_rooms[-1])

    def generator_fixed(self, room: str) -> bool:
        return self.repairs[room] >= self.repairs_needed

    def unfixed_generators(self) -> tuple:
        return tuple(g for g in self.generator_rooms if not self.generator_fixed(g))

    def nearest_generator(self, room: str):
        """The unfixed generator nearest to ``room`` (the layout is public), None once all are fixed."""
        left = self.unfixed_generators()
        if not left or room not in self.maze.rooms:
            return left[0] if left else None
        near = self.maze.distances(room, {d: True for d in self.maze.doors})
        return min(left, key=lambda g: (near.get(g, 99), g))

    def fair_start(self, maze) -> bool:
        """The killer at least ``START_GAP`` moves from the players, the generator and the exit; a player can
        reach the generator, and the generator the exit (presses allowed)."""
        generator = self.generator_rooms[0]
        near_killer = maze.distances(maze.pos[KILLER])
        far = all(near_killer.get(r, START_GAP) >= START_GAP
                  for r in (generator, self.exit_room, *(maze.pos[p] for p in PLAYERS)))
        return far and bool(any(plan_first_actions(maze, maze.pos[p], {generator}) for p in PLAYERS)
                            and plan_first_actions(maze, generator, {self.exit_room}))

    def layout_meta(self) -> dict:
        return {**super().layout_meta(), "generator": self.generator_rooms[0], "generators": list(self.generator_rooms),
                "exit": self.exit_room, "repairs_needed": self.repairs_needed}

    def active(self, agent: str) -> bool:
        return self.status.get(agent) == "active"

    @property
    def gate_open(self) -> bool:
        return all(self.generator_fixed(g) for g in self.generator_rooms)

    def can_use(self, agent: str) -> bool:
        room = self.maze.pos[agent]
        if room in self.repairs and not self.generator_fixed(room):
            return True
        return self.rules == "project" and room == self.exit_room and self.gate_open

    def _repairs_fluent(self, room: str) -> tuple:
        return f_repairs(room, len(self.generator_rooms))

    def extra_fluents(self, room: str) -> tuple:
        shown = self.generator_rooms if self.maze.full_view else [g for g in self.generator_rooms if g == room]
        return tuple(self._repairs_fluent(g) for g in shown) + \
            ((F_GATE,) if self.maze.full_view or room == self.exit_room else ())

    def reset(self, seed=None, options=None):
        super().reset(seed, options)
        start = {**{self._repairs_fluent(g): 0 for g in self.generator_rooms}, F_GATE: "closed",
                 **{f_status(p): "active" for p in PLAYERS}}
        self._log(public_event("rules", PLAYERS, start, "setup"))
        self._refresh_infos()

    def _seeing(self, room: str) -> tuple:
        if self.maze.full_view:
            return self.active_players()
        return tuple(p for p in self.active_players() if self.maze.pos[p] == room)

    def use(self, agent: str) -> None:
        room, source = self.maze.pos[agent], f"round {self.round} {agent}"
        if room in self.repairs and not self.generator_fixed(room):
            self.repairs[room] += 1
            self.fixed_this_round.add(room)
            self._log(Action(name="repair", agent=agent, effects=(eff(self._repairs_fluent(room), self.repairs[room]),),
                             visible_to=self._seeing(room), source=source))
            if self.gate_open:
                self._log(Action(name="gate_opens", effects=(eff(F_GATE, "open"),), visible_to=PLAYERS, source=source))
        else:
            self._escape(agent, source)

    def _escape(self, agent: str, source: str) -> None:
        self.status[agent] = "escaped"
        self.maze.pos[agent] = OUTSIDE
        self._log(Action(name="escape", agent=agent, effects=(eff(f_at(agent), OUTSIDE), eff(f_status(agent), "escaped")),
                         visible_to=PLAYERS, source=source))

    def _catch(self, player: str, room: str, source: str) -> None:
        self.status[player] = "caught"
        self._log(Action(name="caught", effects=(eff(f_status(player), "caught"),), visible_to=PLAYERS,
                         params={"player": player, "room": room}, source=source))

    def after_move(self, mover: str) -> None:
        if self.rules == "source":
            return  # the source checks once per round, at its end
        killer_room = self.maze.pos[KILLER]
        for p in self.active_players():
            if self.maze.pos[p] == killer_room:
                self._catch(p, killer_room, f"round {self.round} {KILLER}")

    def end_round(self) -> None:
        """Source rules: unattended generators fall back to 0, the killer catches, a player at the open gate
        escapes."""
        if self.rules != "source":
            return
        source = f"round {self.round} end"
        for g in self.unfixed_generators():
            if g not in self.fixed_this_round and self.repairs[g]:
                self.repairs[g] = 0
                self._log(Action(name="repairs_lost", effects=(eff(self._repairs_fluent(g), 0),),
                                 visible_to=self._seeing(g), source=source))
        self.fixed_this_round = set()
        killer_room = self.maze.pos[KILLER]
        for p in self.active_players():
            if self.maze.pos[p] == killer_room:
                self._catch(p, killer_room, source)
        if self.gate_open and not any(s == "caught" for s in self.status.values()):
            for p in self.active_players():
                if self.maze.pos[p] == self.exit_room:
                    self._escape(p, source)

    def adversary_move(self, rng):
        if self.rules == "source":
            prey = {p: self.round_start[p] for p in PLAYERS if self.active(p)}
            return source_hunt(self.maze, KILLER, prey, rng)
        if self.round % KILLER_EVERY:  # the killer is slower than the players
            return self.maze.pos[KILLER]
        return hunt(self.maze, KILLER, self.active_players(), rng)

    def outcome(self):
        if self.rules == "source":  # one capture loses, one escape wins
            if any(s == "caught" for s in self.status.values()):
                return "caught"
            return "escaped" if any(s == "escaped" for s in self.status.values()) else None
        if self.active_players():
            return None
        return "escaped" if all(s == "escaped" for s in self.status.values()) else "caught"

    def success(self) -> bool:
        escaped = sum(s == "escaped" for s in self.status.values())
        return escaped >= 1 if self.rules == "source" else escaped == len(PLAYERS)

    def reward(self) -> float:
        if self.rules == "source":
            return float(self.success())
        return float(sum(s == "escaped" for s in self.status.values())) / len(PLAYERS)

    def extra_obs(self, agent: str) -> list:
        room = self.maze.pos[agent]
        seen = self.repairs[room] if room in self.repairs else 0  # a player in a generator's room sees it
        return [seen, int(self.gate_open), int(room == self.exit_room)]

    def extra_view(self, agent: str) -> dict:
        room = self.maze.pos[agent]
        visible = self.generator_rooms if self.maze.full_view else [g for g in self.generator_rooms if g == room]
        return {"generator": self.nearest_generator(room) or self.generator_rooms[-1], "exit": self.exit_room,
                "gate_open": self.gate_open, "repairs": self.repairs[room] if room in self.repairs else None,
                "generators": {g: self.repairs[g] for g in visible}}

    def metrics(self) -> dict:
        escaped = sum(s == "escaped" for s in self.status.values())
        return {"escaped": int(self.success()), "escaped_players": escaped,
                "caught": sum(s == "caught" for s in self.status.values()), "turns": self.round,
                "gate_opened": int(self.gate_open), "end_reason": self.end_reason, "messages": self.messages}


#: ``env()`` (AEC, wrapped) and ``parallel_env()`` (one turn per step)
env, parallel_env = turn_based_constructors(raw_env)


def global_trace(seed, actions, **kwargs):
    return _global_trace(raw_env, seed, actions, **kwargs)


__all__ = ["env", "parallel_env", "raw_env", "global_trace", "hunt", "source_hunt", "f_repairs", "SOURCE_REPAIRS",
           "SOURCE_GENERATORS", "SOURCE_EXIT", "SOURCE_START", "KILLER", "REPAIRS", "SIGHT", "KILLER_EVERY", "START_GAP", "GENERATOR", "EXIT", "OUTSIDE",
           "F_REPAIRS", "F_GATE", "f_status", "USE"]
