"""``overcooked_v0``: the Overcooked-AI engine (``overcooked_ai_py``) as a PettingZoo environment.

Two chefs, alice (the engine's player 0) and bob (player 1), act simultaneously each timestep on one of the
five layouts of the LLM-Coordination study (:data:`~belief.envs.overcooked.world.LAYOUTS`); the dynamics,
rewards (20 per soup served) and horizon are the engine's ``OvercookedEnv`` (default 400 steps, the study's).
The episode is truncated at the horizon (Overcooked has no terminal state).

Actions: ``Discrete(6)``, the engine's order: 0 north, 1 south, 2 east, 3 west, 4 stay, 5 interact (all
always legal: a blocked move or a useless interact does nothing).

Observation (per chef)::

    Dict(observation: Box(0, 1023, (10,), int64)  # x, y, facing (0 N 1 S 2 E 3 W), held (0 nothing 1 onion
                                                  # 2 dish 3 soup), partner seen (0/1), partner x, y, held,
                                                  # soups delivered, timestep
         action_mask: Box(0, 1, (6,), int8),
         text: Text(0..4096, printable))

``infos[chef]["view"]`` is the same view as a dict. ``fov=None`` (default) is the source's full view;
``fov=k`` a partial view of radius k (:mod:`belief.envs.overcooked.events`), which changes the text, the
array and the trace, never the dynamics. ``env.trace`` is the global trace, ``env.take_perceived(chef)`` a
chef's private one; ``env.declare_intent(chef, subgoal)`` records a chef's current subgoal (known to it
alone; ``announce=True`` tells the partner). ``env()`` is the AEC form (PettingZoo's ``parallel_to_aec``).
"""

from __future__ import annotations

import numpy as np
from pettingzoo.utils.conversions import parallel_to_aec

from belief.envs.base.render import rendered
from belief.envs.base.spaces import printable
from belief.envs.base.text_env import ParallelTextEnv
from belief.envs.overcooked.world import (HORIZON, LAYOUTS, SOUP_REWARD, OvercookedError, engine, gridworld,
                                           new_engine_env)
from belief.envs.overcooked.events import (CHEFS, SUBGOALS, announce_event, cell, held_value,
                                           intent_event, pot_value, sees, setup_events, step_events,
                                           world_fluents)
from belief.truth.trace import Trace

ACTION_NAMES = ("north", "south", "east", "west", "stay", "interact")
STAY, INTERACT = 4, 5
N_ACTIONS = len(ACTION_NAMES)
FACING = {(0, -1): "north", (0, 1): "south", (1, 0): "east", (-1, 0): "west"}
HELD_CODE = {"nothing": 0, "onion": 1, "dish": 2, "soup": 3}
TEXT_MAX = 4096
OBS_LEN = 10
TERRAIN_NAMES = {"X": "counter", "O": "onion dispenser", "D": "dish dispenser", "P": "pot", "S": "serving window",
                 "T": "tomato dispenser", " ": "floor"}


def partner_of(chef: str) -> str:
    return CHEFS[1 - CHEFS.index(chef)]


def parallel_env(**kwargs):
    return raw_env(**kwargs)


def env(**kwargs):
    """The AEC form (PettingZoo's ``parallel_to_aec``): the chefs still act simultaneously per timestep."""
    return parallel_to_aec(raw_env(**kwargs))


class raw_env(ParallelTextEnv):
    metadata = {"name": "overcooked_v0", "render_modes": ["human", "ansi"], "is_parallelizable": True}

    OBS_BOX = (0, 1023, (OBS_LEN,), np.int64)
    N_ACTIONS = N_ACTIONS
    TEXT_MAX = TEXT_MAX

    def __init__(self, layout: str = "cramped_room", horizon: int = HORIZON, fov: int | None = None,
                 seed: int | None = None, render_mode: str | None = None, record_trace: bool = True):
        super().__init__(render_mode)
        if layout not in LAYOUTS:
            raise OvercookedError(f"unknown Overcooked layout {layout!r}; expected one of {', '.join(LAYOUTS)}")
        if not isinstance(horizon, int) or not 1 <= horizon <= 1000:
            raise OvercookedError(f"horizon must be an integer in 1..1000, got {horizon!r}")
        if fov is not None and (not isinstance(fov, int) or fov < 0):
            raise OvercookedError(f"fov must be None (full view) or a radius >= 0, got {fov!r}")
        engine()  # the extra, or MissingExtraError
        self.layout, self.horizon, self.fov, self._seed = layout, horizon, fov, seed
        self.record_trace = record_trace
        self.mdp = gridworld(layout)
        self.possible_agents = list(CHEFS)
        self.agents = list(CHEFS)
        self.trace = Trace()
        self.oc = None

    # --- lifecycle -----------------------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed = seed
        self.oc = new_engine_env(self.layout, self.horizon)
        self.oc.reset(regen_mdp=False)
        self._start_episode()
        self.delivered = 0
        self.intents: dict[str, str] = {}
        self.trace = Trace(meta={"env": self.metadata["name"], "seed": self._seed, "agents": list(CHEFS),
                                 "layout": self.layout, "horizon": self.horizon, "fov": self.fov})
        self._fluents = world_fluents(self.mdp, self.state, 0)
        if self.record_trace:
            for ev in setup_events(self._fluents, self.positions(), self.fov):
                self._log(ev)
        return {a: self.observe(a) for a in self.agents}, self._infos()

    @property
    def state(self):
        """The engine's ``OvercookedState`` now."""
        return self.oc.state

    @property
    def timestep(self) -> int:
        return self.oc.state.timestep

    def positions(self) -> dict:
        return {c: p.position for c, p in zip(CHEFS, self.state.players)}

    def step(self, actions):
        if not self.agents:
            return self._over()
        e = engine()
        joint = []
        for chef in CHEFS:
            a = actions.get(chef, STAY) if isinstance(actions, dict) else STAY
            try:
                a = int(a)
            except (TypeError, ValueError):
                a = STAY
            joint.append(e.Action.INDEX_TO_ACTION[a] if 0 <= a < N_ACTIONS else e.Action.STAY)
        before_pos, t = self.positions(), self.timestep
        _, reward, done, _ = self.oc.step(tuple(joint))
        self.delivered += int(reward) // SOUP_REWARD
        if self.record_trace:
            after = world_fluents(self.mdp, self.state, self.delivered)
            for ev in step_events(self._fluents, after, before_pos, self.positions(), self.fov, f"step {t}"):
                self._log(ev)
            self._fluents = after
        obs = {a: self.observe(a) for a in self.agents}
        infos = self._infos()
        if self.render_mode == "human":
            self.render()
        return self._step_result(obs, infos, float(reward), False, bool(done))

    def declare_intent(self, chef: str, subgoal: str, announce: bool = False) -> None:
        """``chef`` now pursues ``subgoal`` (one of :data:`SUBGOALS`): logged when it changes (known to the
        chef; with ``announce`` also told to its partner)."""
        if chef not in CHEFS or subgoal not in SUBGOALS:
            raise OvercookedError(f"declare_intent: expected a chef of {CHEFS} and a subgoal of {SUBGOALS}, "
                                  f"got {chef!r}, {subgoal!r}")
        if self.intents.get(chef) == subgoal:
            return
        self.intents[chef] = subgoal
        source = f"step {self.timestep} {chef}"
        self._log(intent_event(chef, subgoal, source))
        if announce:
            self._log(announce_event(chef, partner_of(chef), subgoal, source))

    # --- observation ---------------------------------------------------------------------------------
    def view(self, chef: str) -> dict:
        """What ``chef`` sees now (everything under full view)."""
        s, fov = self.state, self.fov
        me = s.players[CHEFS.index(chef)]
        other = s.players[1 - CHEFS.index(chef)]
        seen = lambda pos: sees(me.position, pos, fov)  # noqa: E731
        partner = None
        if seen(other.position):
            partner = {"pos": other.position, "facing": FACING[other.orientation], "holds": held_value(other)}
        return {"chef": chef, "layout": self.layout, "timestep": self.timestep, "horizon": self.horizon,
                "pos": me.position, "facing": FACING[me.orientation], "holds": held_value(me), "partner": partner,
                "pots": {p: pot_value(s, p) for p in self.mdp.get_pot_locations() if seen(p)},
                "counters": {p: s.get_object(p).name for p in self.mdp.get_counter_locations()
                             if s.has_object(p) and seen(p)},
                "delivered": self.delivered, "fov": fov}

    def observe(self, agent):
        v = self.view(agent)
        p = v["partner"]
        vec = [v["pos"][0], v["pos"][1], list(FACING.values()).index(v["facing"]), HELD_CODE[v["holds"]],
               int(p is not None), p["pos"][0] if p else 0, p["pos"][1] if p else 0, HELD_CODE[p["holds"]] if p else 0,
               min(v["delivered"], 1023), min(v["timestep"], 1023)]
        return {"observation": np.array(vec, dtype=np.int64), "action_mask": np.ones(N_ACTIONS, dtype=np.int8),
                "text": printable(self.text(agent), TEXT_MAX)}

    def grid(self, chef: str | None = None) -> str:
        """The layout as text rows: terrain letters, ``A``/``B`` for alice/bob, ``o``/``d``/``s`` for an
        onion, dish or soup on a counter, a pot's onion count (``c`` cooking, ``r`` ready), ``?`` out of
        sight of ``chef``."""
        s = self.state
        me = s.players[CHEFS.index(chef)].position if chef else None
        rows = []
        for y, row in enumerate(self.mdp.terrain_mtx):
            out = []
            for x, ch in enumerate(row):
                pos = (x, y)
                if chef and not sees(me, pos, self.fov):
                    out.append("?")
                    continue
                who = [c for c, p in self.positions().items() if p == pos]
                if who:
                    out.append(who[0][0].upper())
                elif ch == "P":
                    v = pot_value(s, pos)
                    out.append({"empty": "P", "cooking": "c", "ready": "r"}.get(v, v[-1]))
                elif ch == "X" and s.has_object(pos):
                    out.append(s.get_object(pos).name[0])
                else:
                    out.append(ch)
            rows.append("".join(out))
        return "\n".join(rows)

    def text(self, chef: str) -> str:
        v = self.view(chef)
        partner = partner_of(chef)
        lines = [f"Overcooked, layout {self.layout}. Timestep {v['timestep']} of {self.horizon}. Soups delivered: "
                 f"{v['delivered']} (score {v['delivered'] * SOUP_REWARD}). Order: onion soup (3 onions in a pot, "
                 f"interact with the full pot to start cooking, then serve it in a dish).",
                 f"You are {chef} at {cell(v['pos'])} facing {v['facing']}, holding {v['holds']}."]
        p = v["partner"]
        lines.append(f"{partner.capitalize()} is at {cell(p['pos'])} facing {p['facing']}, holding {p['holds']}."
                     if p else f"You do not see {partner}.")
        pots = "; ".join(f"pot at {cell(pos)}: {val.replace('_', ' ')}" for pos, val in v["pots"].items())
        lines.append(f"Pots: {pots or 'none in sight'}.")
        counters = "; ".join(f"{name} at {cell(pos)}" for pos, name in v["counters"].items())
        lines.append(f"Items on counters: {counters or 'none in sight'}.")
        lines.append("Kitchen (X counter, O onions, D dishes, P empty pot or its onion count, c cooking, r ready, "
                     "S serving window, A alice, B bob, o/d/s item on a counter" +
                     (", ? out of sight" if self.fov is not None else "") + "):")
        lines.append(self.grid(chef))
        lines.append("Actions: " + ", ".join(f"{i} {n}" for i, n in enumerate(ACTION_NAMES)) + ".")
        return "\n".join(lines)

    def _infos(self) -> dict:
        return {a: {"view": self.view(a), "action_names": ACTION_NAMES} for a in self.agents}

    def metrics(self) -> dict:
        return {"layout": self.layout, "soups": self.delivered, "score": self.delivered * SOUP_REWARD,
                "timesteps": self.timestep}

    def render(self):
        return rendered(self.render_mode, f"timestep {self.timestep}, soups {self.delivered}\n{self.grid()}")


__all__ = ["ACTION_NAMES", "CHEFS", "INTERACT", "N_ACTIONS", "STAY", "env", "parallel_env", "partner_of", "raw_env"]
