"""``escape_v0``: CollabEscape (LLM-Coordination, Agashe et al. 2023) as a PettingZoo AEC environment.

Alice and Bob must leave a :mod:`belief.envs.maze.world` maze while a killer hunts them. The exit gate opens
once the generator has been repaired ``REPAIRS`` times (action *use* in the generator's room, by either
player); then a player in the exit room leaves with *use*. The killer moves one room every ``KILLER_EVERY``
rounds (rounds 0, 2, ...: the players are twice as fast) towards the nearest active player within ``SIGHT``
moves (through open doors; it cannot press buttons), else wanders; a player in the killer's room is caught.
Fair start: the killer starts at least ``START_GAP`` moves (through the doors as they start) from both
players, the generator and the exit, and a player can reach the generator and the generator the exit, so
a route to the generator and on to the exit always exists (the team can escape by construction). Success is **both** players escaping within ``max_rounds``
(default 40); the metrics also count the players who escaped. Observation extras: repairs seen (when in
the generator room), the gate (1 open), whether the player is in the exit room. The gate opening, an escape
and a capture are public. Everything else: :mod:`belief.envs.maze.environment`.
"""

from __future__ import annotations


from belief.envs.base.parallel import turn_based_constructors
from belief.envs.maze.environment import PLAYERS, MazeEnv, MazeError, global_trace as _global_trace
from belief.envs.maze.events import eff, f_at, public_event
from belief.envs.maze.world import USE, generate, place, plan_first_actions
from belief.truth.trace import Action

KILLER = "killer"
REPAIRS = 3       # uses of the generator before the gate opens
SIGHT = 2         # the killer hunts players within this many moves (through open doors)
KILLER_EVERY = 2  # the killer moves on rounds divisible by this (the players move every round)
START_GAP = 3     # the killer's least start distance (moves) from each player, the generator and the exit
GENERATOR, EXIT = "generator", "exit"
OUTSIDE = "outside"
F_REPAIRS, F_GATE = ("repairs", GENERATOR), ("gate", EXIT)


def f_status(player: str) -> tuple:
    return ("status", player)


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
        maze = generate(seed)
        for attempt in range(500):
            maze.pos.clear()
            self.generator_room, self.exit_room = place(maze, f"{seed}:{attempt}", PLAYERS, KILLER, min_gap=START_GAP,
                                                        extra=2)
            if self.fair_start(maze):
                break
        else:  # pragma: no cover - seeds 0-299 all find one within 50 attempts
            raise MazeError(f"no fair escape start for seed {seed!r}")
        self.repairs = 0
        self.status = {p: "active" for p in PLAYERS}
        return maze

    def fair_start(self, maze) -> bool:
        """The killer at least ``START_GAP`` moves from the players, the generator and the exit; a player can
        reach the generator, and the generator the exit (presses allowed)."""
        near_killer = maze.distances(maze.pos[KILLER])
        far = all(near_killer.get(r, START_GAP) >= START_GAP
                  for r in (self.generator_room, self.exit_room, *(maze.pos[p] for p in PLAYERS)))
        return far and bool(any(plan_first_actions(maze, maze.pos[p], {self.generator_room}) for p in PLAYERS)
                            and plan_first_actions(maze, self.generator_room, {self.exit_room}))

    def layout_meta(self) -> dict:
        return {**super().layout_meta(), "generator": self.generator_room, "exit": self.exit_room,
                "repairs_needed": REPAIRS}

    def active(self, agent: str) -> bool:
        return self.status.get(agent) == "active"

    @property
    def gate_open(self) -> bool:
        return self.repairs >= REPAIRS

    def can_use(self, agent: str) -> bool:
        room = self.maze.pos[agent]
        return (room == self.generator_room and not self.gate_open) or (room == self.exit_room and self.gate_open)

    def extra_fluents(self, room: str) -> tuple:
        return ((F_REPAIRS,) if room == self.generator_room else ()) + ((F_GATE,) if room == self.exit_room else ())

    def reset(self, seed=None, options=None):
        super().reset(seed, options)
        start = {F_REPAIRS: 0, F_GATE: "closed", **{f_status(p): "active" for p in PLAYERS}}
        self._log(public_event("rules", PLAYERS, start, "setup"))
        self._refresh_infos()

    def use(self, agent: str) -> None:
        room, source = self.maze.pos[agent], f"round {self.round} {agent}"
        if room == self.generator_room:
            self.repairs += 1
            seen = tuple(p for p in self.active_players() if self.maze.pos[p] == room)
            self._log(Action(name="repair", agent=agent, effects=(eff(F_REPAIRS, self.repairs),), visible_to=seen,
                             source=source))
            if self.gate_open:
                self._log(Action(name="gate_opens", effects=(eff(F_GATE, "open"),), visible_to=PLAYERS, source=source))
        else:
            self.status[agent] = "escaped"
            self.maze.pos[agent] = OUTSIDE
            self._log(Action(name="escape", agent=agent, effects=(eff(f_at(agent), OUTSIDE),
                                                                  eff(f_status(agent), "escaped")),
                             visible_to=PLAYERS, source=source))

    def after_move(self, mover: str) -> None:
        killer_room = self.maze.pos[KILLER]
        for p in self.active_players():
            if self.maze.pos[p] == killer_room:
                self.status[p] = "caught"
                self._log(Action(name="caught", effects=(eff(f_status(p), "caught"),), visible_to=PLAYERS,
                                 params={"player": p, "room": killer_room}, source=f"round {self.round} {KILLER}"))

    def adversary_move(self, rng):
        if self.round % KILLER_EVERY:  # the killer is slower than the players
            return self.maze.pos[KILLER]
        return hunt(self.maze, KILLER, self.active_players(), rng)

    def outcome(self):
        if self.active_players():
            return None
        return "escaped" if all(s == "escaped" for s in self.status.values()) else "caught"

    def reward(self) -> float:
        return float(sum(s == "escaped" for s in self.status.values())) / len(PLAYERS)

    def extra_obs(self, agent: str) -> list:
        room = self.maze.pos[agent]
        return [self.repairs if room == self.generator_room else 0, int(self.gate_open), int(room == self.exit_room)]

    def extra_view(self, agent: str) -> dict:
        room = self.maze.pos[agent]
        return {"generator": self.generator_room, "exit": self.exit_room, "gate_open": self.gate_open,
                "repairs": self.repairs if room == self.generator_room else None}

    def metrics(self) -> dict:
        escaped = sum(s == "escaped" for s in self.status.values())
        return {"escaped": int(escaped == len(PLAYERS)), "escaped_players": escaped,
                "caught": sum(s == "caught" for s in self.status.values()), "turns": self.round,
                "gate_opened": int(self.gate_open), "end_reason": self.end_reason, "messages": self.messages}


#: ``env()`` (AEC, wrapped) and ``parallel_env()`` (one turn per step)
env, parallel_env = turn_based_constructors(raw_env)


def global_trace(seed, actions, **kwargs):
    return _global_trace(raw_env, seed, actions, **kwargs)


__all__ = ["env", "parallel_env", "raw_env", "global_trace", "hunt", "KILLER", "REPAIRS", "SIGHT", "KILLER_EVERY", "START_GAP", "GENERATOR", "EXIT", "OUTSIDE",
           "F_REPAIRS", "F_GATE", "f_status", "USE"]
