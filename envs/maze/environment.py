"""The AEC environment both maze games share: two players (alice, bob) and an adversary in a
:mod:`belief.envs.maze.world` maze; every step is written to the global trace (``env.trace``) in the
vocabulary of :mod:`belief.envs.maze.events`, and each player's private trace is handed over by
``env.take_perceived(agent)``.

Rounds: alice acts, then bob, then the adversary moves. Actions (``Discrete(7)``, illegal ones masked):
0 stay, 1-4 move north/east/south/west through an open door, 5 press the room's button (toggles its door),
6 use (CollabEscape only: repair the generator, or leave through the open gate). A message for the
partner goes with the next ``step`` (:meth:`MazeEnv.tell`).

Observation::

    Dict(observation: Box(0, 64, (12,), int64)  # own room, round, 4 doors (0 none, 1 closed, 2 open),
                                                # partner's room + 1 if seen (else 0), adversary's room + 1
                                                # if seen, button's door index + 1, 3 game-specific values
         action_mask: Box(0, 1, (7,), int8),
         text: Text(0..2048, printable))

``infos[agent]["obs"]`` is the same view as a dict for programmatic agents.
"""

from __future__ import annotations

import random

import numpy as np

from belief.envs.maze.events import (door_value, f_at, move_event, press_event, public_event, self_look_event,
                                     setup_events, tell_event, view_event)
from belief.envs.maze.world import (ACTION_NAMES, DIRECTIONS, MOVES, N_ACTIONS, PRESS, STAY, USE, Maze,
                                    room_index)
from belief.envs.base.spaces import printable
from belief.envs.base.text_env import TurnBasedTextEnv
from belief.errors import BeliefError
from belief.truth.trace import Trace
from belief.envs.base.render import rendered

PLAYERS = ("alice", "bob")
TEXT_MAX = 2048
OBS_LEN = 12


class MazeError(BeliefError):
    """A bad message or configuration for a maze game."""


class MazeEnv(TurnBasedTextEnv):
    """Subclasses set ``metadata``, ``adversary`` and implement :meth:`new_maze`, :meth:`adversary_move`,
    :meth:`use`, :meth:`outcome` and :meth:`metrics`."""

    adversary = "adversary"
    max_rounds = 30

    OBS_BOX = (0, 64, (OBS_LEN,), np.int64)
    N_ACTIONS = N_ACTIONS
    TEXT_MAX = TEXT_MAX

    #: ``source``: the LLM-Coordination game (fixed map, full view, its adversary); ``project``: the seeded
    #: 3x3 mazes with partial view (this project's variant, kept as a named option)
    RULES = ("source", "project")

    def __init__(self, seed: int | None = None, max_rounds: int | None = None, render_mode: str | None = None,
                 rules: str = "source"):
        super().__init__(render_mode)
        if rules not in self.RULES:
            raise MazeError(f"unknown rules {rules!r}; expected one of {', '.join(self.RULES)}")
        self.rules = rules
        self.possible_agents = list(PLAYERS)
        if max_rounds is not None:
            self.max_rounds = max_rounds
        self._seed = seed
        self.reset(seed=seed)

    # --- hooks ---------------------------------------------------------------------------------------
    def new_maze(self, seed) -> Maze:  # pragma: no cover - abstract
        raise NotImplementedError

    def adversary_move(self, rng: random.Random) -> str:  # pragma: no cover - abstract
        """The adversary's next room (its own room to stay)."""
        raise NotImplementedError

    def use(self, agent: str) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def can_use(self, agent: str) -> bool:
        return False

    def active(self, agent: str) -> bool:
        return True

    def after_move(self, mover: str) -> None:
        """Rules that fire when someone (a player or the adversary) enters a room."""

    def end_round(self) -> None:
        """Rules that fire once a round, after the adversary's move (the source games check here)."""

    def outcome(self):  # pragma: no cover - abstract
        """None while the game goes on, else the end reason."""
        raise NotImplementedError

    def extra_obs(self, agent: str) -> list:
        return [0, 0, 0]

    def extra_fluents(self, room: str) -> tuple:
        """Game-specific fluents a player sees in ``room``."""
        return ()

    # --- lifecycle -----------------------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed = seed
        self.maze = self.new_maze(self._seed)
        self.round = 0
        self.round_start = dict(self.maze.pos)  # where everyone was when the round began
        self.end_reason = None
        self._rng = random.Random(f"{self.metadata['name']}:adversary:{self._seed}")
        self._start_episode()
        self._message: dict | None = None
        self.messages = 0
        self.trace = Trace(meta={"env": self.metadata["name"], "seed": self._seed, "agents": list(PLAYERS),
                                 "adversary": self.adversary, **self.layout_meta()})
        for ev in setup_events(self.maze, PLAYERS, self.entities, "setup"):
            self._log(ev)
        for p in PLAYERS:
            self._self_look(p, "setup")
        for room in sorted({self.maze.pos[p] for p in PLAYERS}):
            self._look(room, "setup")
        self._refresh_infos()

    def layout_meta(self) -> dict:
        return {"rules": self.rules, **self.maze.layout()}

    @property
    def entities(self) -> tuple:
        return PLAYERS + (self.adversary,)

    # --- the trace, and what each player perceived ---------------------------------------------------
    def _look(self, room: str, source: str) -> None:
        self._log(view_event(self.maze, room, self.active_players(), self.entities, source, self.extra_fluents(room)))

    def _self_look(self, player: str, source: str) -> None:
        """``player`` sees where it is, witnessed by every active player (partial view only: in full view every
        move is seen by everyone, so the witnessed look adds nothing)."""
        if not self.maze.full_view:
            self._log(self_look_event(player, self.active_players(), source))

    def active_players(self) -> tuple:
        return tuple(p for p in PLAYERS if self.active(p))

    def tell(self, facts: dict | None) -> None:
        """A message from the player about to act to its partner, posted right after its action:
        ``{fluent tuple: value}``, e.g. ``{("at", "thief"): "room_4"}``."""
        if not facts:
            self._message = None
            return
        for f, v in facts.items():
            if not (isinstance(f, tuple) and len(f) >= 2 and all(isinstance(x, str) and x for x in f)):
                raise MazeError(f"a message fact must be a fluent tuple like ('at', 'thief'), got {f!r}")
            if not isinstance(v, str) or not v or " " in v:
                raise MazeError(f"a message value must be a name without spaces, got {v!r}")
        self._message = dict(facts)

    # --- legality ------------------------------------------------------------------------------------
    def legal(self, agent: str) -> list:
        mask = [0] * N_ACTIONS
        mask[STAY] = 1
        if self.end_reason is not None or not self.active(agent):
            return mask
        room = self.maze.pos[agent]
        for d in DIRECTIONS:
            if self.maze.step_to(room, d) is not None:
                mask[MOVES[d]] = 1
        if room in self.maze.buttons:
            mask[PRESS] = 1
        if self.can_use(agent):
            mask[USE] = 1
        return mask

    # --- observation ---------------------------------------------------------------------------------
    def view(self, agent: str) -> dict:
        """What ``agent`` sees now: its room, the room's doors, who is there, the button, game extras."""
        m = self.maze
        room = m.pos[agent]
        inside = room in m.rooms  # an escaped player is outside the maze
        doors = {d: (door, door_value(m.open[door])) for d, door, _ in m.exits(room)} if inside else {}
        rooms = m.visible_rooms(room) if inside else set()
        seen = {e: m.pos[e] for e in self.entities if e != agent and m.pos.get(e) in rooms and
                (e == self.adversary or self.active(e))}
        return {"agent": agent, "room": room, "round": self.round, "doors": doors, "seen": seen,
                "button": m.buttons.get(room) if inside else None, "active": self.active(agent), **self.extra_view(agent)}

    def extra_view(self, agent: str) -> dict:
        return {}

    def observe(self, agent):
        v = self.view(agent)
        partner = next(p for p in PLAYERS if p != agent)
        code = {None: 0, "closed": 1, "open": 2}
        doors = [code[v["doors"][d][1]] if d in v["doors"] else 0 for d in DIRECTIONS]
        button = v["button"]
        vec = [room_index(v["room"]) if v["room"] in self.maze.rooms else 0, min(self.round, 64), *doors,
               room_index(v["seen"][partner]) + 1 if partner in v["seen"] else 0,
               room_index(v["seen"][self.adversary]) + 1 if self.adversary in v["seen"] else 0,
               int(button.split("_")[1]) + 1 if button else 0, *self.extra_obs(agent)]
        return {"observation": np.array(vec, dtype=np.int64), "action_mask": np.array(self.legal(agent), dtype=np.int8),
                "text": printable(self.text(agent), TEXT_MAX)}

    def text(self, agent: str) -> str:
        v = self.view(agent)
        if not v["active"]:
            return f"Round {self.round}. You are out of the game."
        behind = {d: other for d, _, other in self.maze.exits(v["room"])}
        doors = ", ".join(f"{d}: {door} to {behind[d]} ({state})" for d, (door, state) in v["doors"].items())
        seen = ", ".join(f"{e.capitalize()} in {r}" for e, r in v["seen"].items()) or "nobody"
        lines = [f"Round {self.round} of {self.max_rounds}. You are in {v['room']}. Doors: {doors}.",
                 f"You see (here and through open doors): {seen}."]
        if v["button"]:
            lines.append(f"A button here toggles {v['button']}.")
        return "\n".join(lines)

    def _refresh_infos(self) -> None:
        self.infos = {a: {"action_mask": np.array(self.legal(a), dtype=np.int8), "obs": self.view(a)}
                      for a in self.agents}

    # --- stepping ------------------------------------------------------------------------------------
    def _take_turn(self, agent, action):
        action = int(action)
        if not self.legal(agent)[action]:
            action = STAY  # an illegal action is a no-op (the mask says which are legal)
        source = f"round {self.round} {agent}"
        self.act(agent, action, source)
        if self._message:
            partner = next(p for p in PLAYERS if p != agent)
            self._log(tell_event(agent, partner, self._message, source))
            self.messages += 1
        self._message = None
        last_of_round = self._selector.is_last()
        if last_of_round and self.end_reason is None:
            self._adversary_turn()
            self.end_round()
            self.round += 1
            self.round_start = dict(self.maze.pos)
        for a in self.agents:
            self.rewards[a] = 0
        if self.end_reason is None and self.outcome() is not None:
            self.end_reason = self.outcome()
        if self.end_reason is None and self.round >= self.max_rounds and last_of_round:
            self.end_reason = "turn limit"
        if self.end_reason is not None:
            self._finish()
        self._cumulative_rewards[agent] = 0
        self._accumulate_rewards()
        self.agent_selection = self._selector.next()
        self._refresh_infos()
        if self.render_mode == "human":
            self.render()

    def act(self, agent: str, action: int, source: str) -> None:
        m = self.maze
        room = m.pos[agent]
        if action in MOVES.values():
            after = m.step_to(room, DIRECTIONS[action - 1])
            self._move(agent, room, after, source)
        elif action == PRESS:
            door = m.buttons[room]
            m.open[door] = not m.open[door]
            self._log(press_event(m, agent, door, self.active_players(), source))
            for r in sorted(set(m.doors[door])):
                self._look(r, source)  # an opened door shows what is behind it; a closed one hides it
        elif action == USE:
            self.use(agent)

    def _move(self, who: str, before: str, after: str, source: str) -> None:
        self.maze.pos[who] = after
        self._log(move_event(self.maze, who, before, after, self.active_players(), source,
                             as_agent=who != self.adversary))
        if who in PLAYERS:
            self._self_look(who, source)
            self._look(after, source)
        self.after_move(who)

    def _adversary_turn(self) -> None:
        before = self.maze.pos[self.adversary]
        after = self.adversary_move(self._rng)
        if after != before:
            self._move(self.adversary, before, after, f"round {self.round} {self.adversary}")

    def _finish(self) -> None:
        reward = self.reward()
        self._log(public_event("end", PLAYERS, {}, "end", {"reason": self.end_reason, **self.metrics()}))
        for a in self.agents:
            self.rewards[a] = reward
        self._end_episode(truncated=self.end_reason == "turn limit")

    def reward(self) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    def metrics(self) -> dict:  # pragma: no cover - abstract
        raise NotImplementedError

    def render(self):
        text = "\n".join(f"{p}: {self.text(p)}" for p in PLAYERS) + \
            f"\n{self.adversary} in {self.maze.pos[self.adversary]}"
        return rendered(self.render_mode, text)


def global_trace(env_cls, seed, actions, **kwargs) -> Trace:
    """The global trace of a game played from ``seed`` with a list of actions (for scripted tests)."""
    e = env_cls(seed=seed, **kwargs)
    for a in actions:
        if not e.agents or e.end_reason is not None:
            break
        e.step(a)
    return e.trace


__all__ = ["MazeEnv", "MazeError", "PLAYERS", "TEXT_MAX", "OBS_LEN", "global_trace", "ACTION_NAMES", "f_at"]
