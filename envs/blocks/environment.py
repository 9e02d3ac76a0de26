"""``blocks_v0``: COBLOCK ("Your Co-Workers Matter"), two builders with private goals and inventories, as
a PettingZoo AEC environment that writes the global trace.

World and gravity: :mod:`belief.envs.blocks.world`; tasks: :mod:`belief.envs.blocks.tasks`; what each
builder observes, as trace events: :mod:`belief.envs.blocks.events`; ToM questions answered by the
checker: :mod:`belief.envs.blocks.tom`. Alice and bob take turns; a round is one move each.

Rules (:mod:`belief.envs.blocks.world`): ``rules="source"`` (default) as the source paper and code have
it, ``rules="project"`` this project's first variant.

Actions (``Discrete(1683)``, :mod:`belief.envs.blocks.text`): 0 wait, 1 end, 2 send a message (the facts
given to :meth:`raw_env.say`, by default the sender's goal and inventory), then place (cell, colour) for
240 cells x 6 colours, then remove (cell); illegal ones (and cells or colours outside the rules) are
masked. A placement *slips* with probability ``slip`` (default: the rules', 0 under the source's; another
colour the builder holds lands instead, as both see): builders that compare the structure with their goal
can fix it. The episode ends when the target is built (success), when one builder (source) or both
(project) have ``end`` as their latest move, or after ``max_rounds`` (truncation).

Observation: ``Dict(observation: Box(0, 64, (11,)): round, own inventory (6), blocks built, own goal
size, own goal cells done, turn % 64; action_mask; text)``; ``infos[agent]["obs"]`` is the same view as a
dict (built blocks, own goal, own inventory, messages received this round, the rules' name).
"""

from __future__ import annotations

import random

import numpy as np

from belief.envs.base.parallel import turn_based_constructors
from belief.envs.blocks.events import (f_inventory, f_owner, f_target, inventory_change_events, message_event,
                                       move_event, setup_events)
from belief.envs.blocks.world import DEFAULT_RULES, rules_of
from belief.envs.blocks.tasks import generate
from belief.envs.blocks.text import END, MESSAGE, N_ACTIONS, PLACE0, REMOVE0, BlockMove, decode, fact_text, render
from belief.envs.blocks.world import (AGENTS, CELL_INDEX, COLOURS, Task, World, balance, optimal_assignment,
                                      optimal_balance, source_balance)
from belief.envs.base.spaces import printable
from belief.envs.base.text_env import TurnBasedTextEnv
from belief.truth.trace import Action, Trace
from belief.envs.base.render import rendered

TEXT_MAX = 4096
OBS_LEN = 11
MAX_ROUNDS = 30


class raw_env(TurnBasedTextEnv):
    metadata = {"name": "blocks_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    OBS_BOX = (0, 64, (OBS_LEN,), np.int64)
    N_ACTIONS = N_ACTIONS
    TEXT_MAX = TEXT_MAX

    def __init__(self, seed: int | None = None, family: str | None = None, slip: float | None = None,
                 max_rounds: int | None = None, rules: str = DEFAULT_RULES, render_mode: str | None = None):
        super().__init__(render_mode)
        self.possible_agents = list(AGENTS)
        self._seed = seed
        self.family = family
        self.rules = rules_of(rules)
        self.slip = self.rules.slip if slip is None else float(slip)
        self.max_rounds = self.rules.max_rounds if max_rounds is None else int(max_rounds)
        self.reset(seed=seed)

    # --- lifecycle ---------------------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed = seed
        options = options or {}
        task = options.get("task")
        if task is not None and not isinstance(task, Task):
            raise TypeError("options['task'] must be a belief.envs.blocks.world.Task")
        self.task = task or generate(self._seed or 0, self.family, self.rules.name)
        self.rules = rules_of(self.task.rules)
        self.world = World.start(self.task)
        self._rng = random.Random(f"coblock-slip:{self._seed}")
        self._start_episode()
        self.turn = 0
        self.end_reason = None
        self.slips = 0
        self.build_actions = {a: 0 for a in AGENTS}   # place and remove actions per builder
        self.messages = 0
        self._ended: set = set()
        self._pending: dict = {a: None for a in self.agents}
        self._inbox: dict = {a: [] for a in self.agents}
        self._last: dict = {a: "" for a in self.agents}
        self.trace = Trace(meta={"env": "blocks_v0", "seed": self._seed, "agents": list(AGENTS),
                                 "task": self.task.to_json(), "slip": self.slip, "max_rounds": self.max_rounds,
                                 "rules": self.rules.name})
        for ev in setup_events(self.task, "setup"):
            self._log(ev)
        self._refresh_infos()

    @property
    def round(self) -> int:
        return self.turn // len(AGENTS) + 1

    # --- messages ---------------------------------------------------------------------------------
    def say(self, facts) -> None:
        """Facts ``[(fluent, value), ...]`` for the current builder's next MESSAGE action."""
        self._pending[self.agent_selection] = [(tuple(f), str(v)) for f, v in facts]

    def default_message(self, agent: str) -> list:
        """The sender's goal and inventory, as facts."""
        facts = []
        for c, col in sorted(self.task.goals[agent].items()):
            facts += [(f_target(c), col), (f_owner(c), agent)]
        return facts + [(f_inventory(agent, col), self.world.inventories[agent][col]) for col in self.rules.colours]

    # --- observation -------------------------------------------------------------------------------
    def mask(self, agent: str) -> np.ndarray:
        m = np.zeros(N_ACTIONS, dtype=np.int8)
        if agent != self.agent_selection or not self.agents:
            return m
        w = self.world
        m[:PLACE0] = 1
        held = [j for j, col in enumerate(COLOURS) if w.inventories[agent][col] > 0]
        for cell in w.placeable_cells():
            base = PLACE0 + CELL_INDEX[cell] * len(COLOURS)
            for j in held:
                m[base + j] = 1
        for cell in w.blocks:
            m[REMOVE0 + CELL_INDEX[cell]] = w.can_remove(cell)
        return m

    def view(self, agent: str) -> dict:
        w = self.world
        goal = dict(self.task.goals[agent])
        return {"agent": agent, "round": self.round, "turn": self.turn, "built": dict(w.blocks), "goal": goal,
                "inventory": {c: w.inventories[agent][c] for c in COLOURS}, "messages": list(self._inbox[agent]),
                "last_partner": self._last[agent], "rules": self.rules.name}

    def observe(self, agent):
        v = self.view(agent)
        goal = v["goal"]
        vec = np.array([min(self.round, 64), *(min(v["inventory"][c], 64) for c in COLOURS), len(v["built"]),
                        len(goal), sum(v["built"].get(c) == col for c, col in goal.items()), self.turn % 64],
                       dtype=np.int64)
        return {"observation": vec, "action_mask": self.mask(agent), "text": printable(render(v), TEXT_MAX)}

    def _refresh_infos(self) -> None:
        self.infos = {a: {"action_mask": self.mask(a), "obs": self.view(a)} for a in self.agents}

    # --- stepping ----------------------------------------------------------------------------------
    def _take_turn(self, agent, action):
        if not self.mask(agent)[int(action)]:
            raise ValueError(f"illegal action {int(action)} for {agent}: {decode(action).describe()}")
        move = decode(action)
        partner = next(a for a in AGENTS if a != agent)
        source = f"turn {self.turn} {agent}"
        params = {"turn": self.turn, "round": self.round, "player": agent, "kind": move.kind}
        self._inbox[agent] = []
        w = self.world
        events, colour = [], move.colour
        if move.kind == "place":
            held = [c for c in self.rules.colours if c != move.colour and w.inventories[agent][c] > 0]
            if held and self._rng.random() < self.slip:
                colour = self._rng.choice(held)
                self.slips += 1
            before = w.inventories[agent][colour]
            w.place(agent, move.cell, colour)
            events += inventory_change_events(agent, colour, before, before - 1, source)
            params.update({"cell": list(move.cell), "intended": move.colour, "colour": colour})
            self.build_actions[agent] += 1
        elif move.kind == "remove":
            colour = w.blocks[move.cell]
            before = w.inventories[agent][colour]
            w.remove(agent, move.cell)
            if self.rules.removed_returns:   # under the source's rules the block is lost: no count changes
                events += inventory_change_events(agent, colour, before, before + 1, source)
            params.update({"cell": list(move.cell), "colour": colour})
            self.build_actions[agent] += 1
        elif move.kind == "message":
            self.messages += 1
            facts = self._pending[agent] if self._pending[agent] is not None else self.default_message(agent)
            ev = message_event(agent, facts, source)
            if ev is not None:
                events.append(ev)
                self._inbox[partner].append((agent, [(list(f), v) for f, v in facts]))
            params["facts"] = [fact_text(f, v) for f, v in facts]
        self._pending[agent] = None
        events.append(move_event(agent, move.kind, move.cell, colour, source, params))
        for ev in events:
            self._log(ev)
        self._last[partner] = move.describe() if move.kind != "place" else BlockMove("place", move.cell, colour).describe()
        if move.kind == "end":
            self._ended.add(agent)
        elif agent in self._ended:
            self._ended.discard(agent)
        self.turn += 1
        self._check_end(agent)
        self.agent_selection = self._selector.next()
        self._refresh_infos()
        if self.render_mode == "human":
            self.render()

    def _check_end(self, agent: str) -> None:
        done = self.world.complete()
        self._reward_everyone(1 if done else 0, agent)
        reason = None
        if done:
            reason = "complete"
        elif self.rules.either_ends and self._ended:
            reason = f"{agent} ended"
        elif len(self._ended) == len(AGENTS):
            reason = "both ended"
        elif self.turn >= self.max_rounds * len(AGENTS):
            reason = "round limit"
        if reason is None:
            return
        self.end_reason = reason
        self._end_episode(truncated=reason == "round limit")
        self._log(Action(name="end_of_episode", visible_to=(), source="end", params={"reason": reason, **self.metrics()}))

    # --- metrics & rendering -----------------------------------------------------------------------
    def metrics(self) -> dict:
        """Success, timesteps, workload balance gamma and gamma_norm = gamma / its best value, as the rules
        define them (:mod:`belief.envs.blocks.world`): under the source's, timesteps are both builders'
        actions and gamma is Eq. 2-3 (build actions normalised by Algorithm 1's optimal assignment; best
        0.5); under the project's, timesteps are rounds and gamma counts the target blocks each placed
        (best: the most balanced split the inventories allow)."""
        load = self.world.workload()
        rounds = (self.turn + len(AGENTS) - 1) // len(AGENTS)
        if self.rules.balance == "source":
            best = 0.5
            optimal = optimal_assignment(self.task)
            gamma = source_balance(self.build_actions, optimal)
        else:
            optimal = None
            gamma, best = balance(*(load[x] for x in AGENTS)), optimal_balance(self.task)
        norm = None if gamma is None else (gamma / best if best else 0.0)
        return {"success": self.world.complete(), "timesteps": self.turn if self.rules.timesteps == "actions" else rounds,
                "rounds": rounds, "workload": load, "build_actions": dict(self.build_actions),
                "optimal_assignment": optimal, "balance": gamma, "optimal_balance": best, "balance_norm": norm,
                "slips": self.slips, "messages": self.messages, "family": self.task.family,
                "blocks": len(self.task.target), "end_reason": self.end_reason, "rules": self.rules.name}

    def render(self):
        text = "\n".join(render(self.view(a)) for a in AGENTS)
        return rendered(self.render_mode, text)


#: ``env()`` (AEC, wrapped) and ``parallel_env()`` (one turn per step)
env, parallel_env = turn_based_constructors(raw_env)


__all__ = ["env", "parallel_env", "raw_env", "OBS_LEN", "TEXT_MAX", "MAX_ROUNDS", "END", "MESSAGE"]
