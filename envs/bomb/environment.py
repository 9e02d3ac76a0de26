"""``bomb_v0``: the bomb-defusal team game of Li et al. (2023) as a PettingZoo AEC environment.

Rules live in :mod:`belief.envs.bomb.world`; free-text actions go through
:mod:`belief.envs.bomb.text`; ToM questions and their exact answers come from
:mod:`belief.envs.bomb.tom`, a pure function of the global trace this env writes (``env.trace``).

Turns and time. Each round alpha, bravo and charlie act once, in that order; turn ``k`` is the
k-th action of the episode. At the start of its turn an agent observes (time ``2k``); its action
happens at time ``2k+1``, and its message is posted right after its action (also ``2k+1``).
Messages are delivered to every teammate at the start of the next round.

What an agent observes (and nothing else):

* public, in real time: every agent's location and the team score after every turn (the text shows
  them since the agent's previous turn, the structured observation lists them turn by turn);
* at its turns: the contents of the room it is in (agents, bombs not yet defused);
* its own action results (inspection: the bomb's remaining sequence; a tool: the bomb's new state);
* a bomb vanishing when it is fully defused in the room the agent is in;
* every teammate message (broadcast, delivered next round).

Observation space (per agent)::

    Dict(observation: Box(0, 255, (9,), int64)  # round, score, own room, 3 agent rooms, bomb id here,
                                                 # phases left if known to this agent, turn index % 256
         action_mask: Box(0, 1, (10,), int8),
         text: Text(0..8192, printable))

``infos[agent]["obs"]`` carries the same observation as a dict for programmatic agents, and
``infos[agent]["result"]`` the outcome of the agent's last action as soon as it has acted.
Messages are attached to the next ``step`` with :meth:`raw_env.say`.
"""

from __future__ import annotations

from copy import deepcopy
from collections import defaultdict

import numpy as np
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import aec_to_parallel_wrapper

from belief.envs.bomb.world import (AGENTS, MAX_ROUNDS, World, bomb_name, colour_list, names_list, room_name,
                                  unrecognised_feedback)
from belief.envs.bomb.events import (defusal_events, delivery_event, possible_change_event, room_view_events,
                                     sequence_seen_events, setup_events, world_constraints, f_at, room_id)
from belief.envs.bomb.text import format_messages, parse_message_facts
from belief.envs.base.spaces import printable
from belief.envs.base.text_env import TurnBasedTextEnv
from belief.truth.trace import Action, Effect, Trace
from belief.envs.base.render import rendered

TEXT_MAX = 8192
OBS_LEN = 9
N_ACTIONS = 10


def _printable(s: str, limit: int = 1000) -> str:
    return printable(s, limit)


def env(**kwargs):
    """The wrapped AEC env (order enforcing, bounds checks)."""
    e = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class _ParallelBomb(aec_to_parallel_wrapper):
    """PettingZoo's AEC-to-parallel wrapper, except that an episode may end mid-round.

    When the last bomb is defused by alpha or bravo, the game is over at once (as in the study): the
    stock wrapper would then feed the remaining agents' actions to terminated agents and fail. Here the
    actions of agents after the end are discarded.
    """

    def step(self, actions):
        rewards = defaultdict(int)
        for agent in list(self.aec_env.agents):
            if agent != self.aec_env.agent_selection:
                raise AssertionError(f"expected agent {agent}, got {self.aec_env.agent_selection}: agents step in turn")
            self.aec_env.step(actions[agent])
            for a in self.aec_env.agents:
                rewards[a] += self.aec_env.rewards[a]
            if all(self.aec_env.terminations[a] or self.aec_env.truncations[a] for a in self.aec_env.agents):
                break  # the episode ended mid-round: the others' actions are discarded
        terminations = dict(**self.aec_env.terminations)
        truncations = dict(**self.aec_env.truncations)
        infos = dict(**self.aec_env.infos)
        observations = {agent: self.aec_env.observe(agent) for agent in self.aec_env.agents}
        while self.aec_env.agents and (self.aec_env.terminations[self.aec_env.agent_selection]
                                       or self.aec_env.truncations[self.aec_env.agent_selection]):
            self.aec_env.step(None)
        self.agents = self.aec_env.agents
        return observations, rewards, terminations, truncations, infos


def parallel_env(**kwargs):
    return _ParallelBomb(env(**kwargs))


class raw_env(TurnBasedTextEnv):
    metadata = {"name": "bomb_v0", "render_modes": ["human", "ansi"], "is_parallelizable": True}

    OBS_BOX = (0, 255, (OBS_LEN,), np.int64)
    N_ACTIONS = N_ACTIONS
    TEXT_MAX = TEXT_MAX

    def __init__(self, seed: int | None = None, random_maps: bool = False, max_rounds: int = MAX_ROUNDS,
                 deadlock_rounds: int = 4, render_mode: str | None = None):
        super().__init__(render_mode)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self._seed = seed
        self.random_maps = random_maps
        self.max_rounds = max_rounds
        self.deadlock_rounds = deadlock_rounds
        self._pending_message = ""
        self._invalid_reason: tuple[str | None, str] | None = None
        self.reset(seed=seed)

    # --- spaces ----------------------------------------------------------------------------------

    # --- lifecycle -------------------------------------------------------------------------------
    def _perception_constraints(self) -> list:
        """The game's rules (the trace's ``meta["constraints"]``), which every agent's filter reasons with."""
        return world_constraints(self.world, self.max_rounds * len(AGENTS) + 1)

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed = seed
        options = options or {}
        if options.get("world") is not None:  # a scripted scenario (tests, tutorials)
            if not isinstance(options["world"], World):
                raise TypeError("options['world'] must be a belief.envs.bomb.world.World")
            self.world = deepcopy(options["world"])
        else:
            self.world = World.generate(self._seed, random_maps=options.get("random_maps", self.random_maps))
        self._start_episode()
        self.infos = {a: {} for a in self.agents}
        self.round = 1
        self.turn = 0
        self.valid_actions = 0
        self.actions_taken = 0
        self.message_words = 0
        self.completed_round: int | None = None
        self.end_reason: str | None = None
        self._pending_message = ""
        self._invalid_reason = None
        self._outbox: list[dict] = []          # messages posted this round
        self._inbox = {a: [] for a in self.agents}      # delivered, not yet shown
        self._public = {a: [] for a in self.agents}     # public turn records since the agent's last turn
        self._witnessed = {a: [] for a in self.agents}  # vanishings seen since the agent's last turn
        self._last_result = {a: None for a in self.agents}
        self._known_phases = {a: {} for a in self.agents}
        self._round_outputs: list = []
        self._prev_round_outputs = None
        self._round_start_state = self.world.state_key()
        self._stuck_rounds = 0
        self._views: dict[str, dict] = {}
        w = self.world
        self._seq_history = {b.id: [tuple(b.remaining)] for b in w.bombs.values()}
        self.trace = Trace(meta={
            "env": "bomb_v0", "seed": self._seed, "random_maps": bool(options.get("random_maps", self.random_maps)),
            "map": w.map.to_json(), "agents": list(AGENTS), "cutters": {a: list(c) for a, c in w.cutters.items()},
            "bombs": {str(b.id): {"room": b.room, "sequence": list(b.sequence)} for b in w.bombs.values()},
            "start_room": w.locations[AGENTS[0]], "max_rounds": self.max_rounds, "max_score": w.max_score,
            "constraints": self._perception_constraints(),
        })
        for ev in setup_events(w, "setup"):
            self._log(ev)
        self._begin_turn()

    # --- the trace (logging and perception: PerceptionLog) ----------------------------------------
    def _source(self, phase: str) -> str:
        return f"round {self.round} turn {self.turn} {phase}"

    def say(self, text: str | None) -> None:
        """Attach a message (broadcast to teammates, delivered next round) to the current agent's next step."""
        # one line: a message must not forge lines ("\nYour tools: ...") in a teammate's text observation
        self._pending_message = _printable(" ".join((text or "").split()), 600)

    def set_invalid_reason(self, feedback: str | None, raw_text: str = "") -> None:
        """Feedback for the next step when it is the 'unrecognised' action (used by the text interface)."""
        self._invalid_reason = (feedback, raw_text)

    # --- observation -----------------------------------------------------------------------------
    def observe(self, agent):
        view = self._views.get(agent) or self._view(agent, record=False)
        w = self.world
        locs = [w.map.rooms.index(w.locations[a]) for a in AGENTS]
        here = w.locations[agent]
        bomb = w.bomb_in(here)
        known = self._known_phases[agent].get(bomb.id) if bomb else None
        vec = np.array([min(self.round, 255), w.score, w.map.rooms.index(here), *locs,
                        bomb.id if bomb else 0, known if known is not None else 0, self.turn % 256], dtype=np.int64)
        mask = np.array(w.mask(agent), dtype=np.int8)
        return {"observation": vec, "action_mask": mask, "text": view["text"]}

    def _view(self, agent: str, record: bool) -> dict:
        w = self.world
        here = w.locations[agent]
        contents = list(w.contents(here))
        others = [a for a in w.agents_in(here) if a != agent]
        view = {
            "agent": agent, "round": self.round, "turn": self.turn, "score": w.score, "room": here,
            "contents": contents, "agents_here": others, "locations": dict(w.locations),
            "result": self._last_result[agent], "messages": list(self._inbox[agent]),
            "public": list(self._public[agent]), "witnessed": list(self._witnessed[agent]),
            "tools": list(w.cutters[agent]),
        }
        lines = [f"Round: {self.round}", f"Total team score: {w.score}"]
        res = self._last_result[agent]
        lines.append(f"Results: {res['feedback']}" if res else "Results: none yet (this is your first turn).")
        for v in view["witnessed"]:
            lines.append(f"You saw {bomb_name(v['bomb'])} vanish from {room_name(v['room'])}: "
                         f"{v['actor'].capitalize()} fully defused it.")
        items = [bomb_name(b) for b in contents] + [a.capitalize() for a in others]
        lines.append(f"Room contents ({room_name(here)}, your location): "
                     + (", ".join(items) if items else "nothing") + ".")
        lines.append("Teammate locations: " + ", ".join(
            f"{a.capitalize()} in {room_name(w.locations[a])}" for a in AGENTS if a != agent) + ".")
        if view["public"]:
            parts = []
            for p in view["public"]:
                if p["agent"] == agent:
                    continue
                moved = (f"moved from {room_name(p['from'])} to {room_name(p['to'])}" if p["from"] != p["to"]
                         else f"stayed in {room_name(p['to'])}")
                parts.append(f"{p['agent'].capitalize()} {moved} (team score {p['score']})")
            if parts:
                lines.append("Since your last turn: " + "; ".join(parts) + ".")
        lines.append(format_messages(view["messages"]))  # quoted: no message can speak as another agent
        lines.append(f"Your tools: {names_list([c.capitalize() for c in w.cutters[agent]])}. "
                     f"Neighbouring rooms: {names_list([room_name(r) for r in w.map.neighbours(here)])}.")
        view["text"] = _printable("\n".join(lines), TEXT_MAX)
        if record:
            self._views[agent] = view
        return view

    def _begin_turn(self) -> None:
        """Start of the selected agent's turn: it observes its room (time 2k); the env logs it."""
        if not self.agents:
            return
        agent = self.agent_selection
        view = self._view(agent, record=True)
        for ev in room_view_events(self.world, agent, view["room"], self._source("start")):
            self._log(ev)
        self.infos[agent] = {"obs": {k: v for k, v in view.items() if k != "text"},
                             "action_mask": np.array(self.world.mask(agent), dtype=np.int8),
                             "result": self._last_result[agent]}
        self._inbox[agent] = []
        self._public[agent] = []
        self._witnessed[agent] = []

    # --- stepping --------------------------------------------------------------------------------
    def _take_turn(self, agent, action):
        w = self.world
        action = int(action)
        self._world_before = deepcopy(w)  # what teammates could reason about when they saw the action
        out = w.step(agent, action)
        if out.kind == "unrecognised" and self._invalid_reason is not None:
            feedback, raw = self._invalid_reason
            out.feedback = feedback or unrecognised_feedback(raw or None)
        self._invalid_reason = None
        self.actions_taken += 1
        self.valid_actions += int(out.valid)
        if out.bomb is not None and out.seq_after is not None:
            self._known_phases[agent][out.bomb] = len(out.seq_after)
        result = {"turn": self.turn, "round": self.round, "kind": out.kind, "valid": out.valid,
                  "feedback": out.feedback, "from": out.frm, "to": out.to, "bomb": out.bomb, "colour": out.colour,
                  "target": out.target, "seq_before": list(out.seq_before) if out.seq_before is not None else None,
                  "seq_after": list(out.seq_after) if out.seq_after is not None else None,
                  "defused_phase": out.defused_phase, "vanished": out.vanished, "points": out.points,
                  "present": list(out.present), "action": action, "score": w.score}
        self._last_result[agent] = result
        self.infos[agent] = {**self.infos[agent], "result": result}
        src = self._source("act")
        everyone = tuple(AGENTS)
        if out.kind == "move" and out.valid:
            self._log(Action(name="move", agent=agent, room=room_id(out.frm), params=dict(result), source=src,
                             effects=(Effect(predicate="at", subject=f_at(agent)[1:], value=room_id(out.to)),),
                             visible_to=everyone))
            for ev in room_view_events(w, agent, out.to, src):
                self._log(ev)
        else:
            # teammates see the agent stay: a possible change when it could have cut a phase unseen
            bomb_before = w.bombs[out.bomb] if out.bomb is not None else None
            for ev in possible_change_event(self._world_before, agent, out.frm, src, self.turn):
                self._log(ev)
            if out.defused_phase:
                self._seq_history[out.bomb].append(tuple(out.seq_after))
                for ev in defusal_events(w, agent, out, self.turn, src, dict(result)):
                    self._log(ev)
            else:
                self._log(Action(name=out.kind, agent=agent, room=room_id(out.frm), params=dict(result), source=src,
                                 visible_to=(agent,)))
                if out.valid and bomb_before is not None:
                    for ev in sequence_seen_events(agent, bomb_before, self._seq_history[out.bomb], src):
                        self._log(ev)
        message = self._pending_message
        self._pending_message = ""
        if message:
            self.message_words += len(message.split())
            facts = parse_message_facts(message)
            said = self._log(Action(name="say", agent=agent, room=room_id(out.to), visible_to=(agent,), source=src,
                                    params={"turn": self.turn, "round": self.round, "text": message, "facts": facts}))
            self._outbox.append({"sender": agent, "text": message, "round": self.round, "posted_turn": self.turn,
                                 "facts": facts, "posted_t": said.t if said is not None else None})
        # public record of this turn, and what the agents present saw
        rec = {"turn": self.turn, "agent": agent, "from": out.frm, "to": out.to, "score": w.score}
        for a in AGENTS:
            self._public[a].append(rec)
        if out.vanished:
            for a in out.present:
                self._witnessed[a].append({"turn": self.turn, "bomb": out.bomb, "room": out.frm, "actor": agent})
        self._round_outputs.append((agent, action, message))
        # rewards: the team score gained, to everyone
        self._reward_everyone(out.points, agent)
        self.turn += 1
        ended = self._check_end(last_of_round=self._selector.is_last())
        if not ended:
            self.agent_selection = self._selector.next()
            if self.agent_selection == AGENTS[0]:
                self._new_round()
            self._begin_turn()
        else:
            self.agent_selection = self._selector.next()
        if self.render_mode == "human":
            self.render()

    def _new_round(self) -> None:
        self.round += 1
        if self._outbox:
            for m in self._outbox:
                ev = delivery_event(m["sender"], [a for a in AGENTS if a != m["sender"]], m["facts"],
                                    self._source("deliver"), as_of=m.get("posted_t"))
                if ev is not None:
                    self._log(ev)
            for m in self._outbox:
                for a in AGENTS:
                    if a != m["sender"]:
                        self._inbox[a].append({k: m[k] for k in ("sender", "text", "round", "posted_turn")})
        self._outbox = []

    def _check_end(self, last_of_round: bool) -> bool:
        w = self.world
        reason = None
        if w.done:
            reason = "all bombs defused"
            self.completed_round = self.round
        elif last_of_round:
            outputs = tuple(self._round_outputs)
            state = w.state_key()
            if (self._prev_round_outputs is not None and outputs == self._prev_round_outputs
                    and state == self._round_start_state):
                self._stuck_rounds += 1
            else:
                self._stuck_rounds = 0
            self._prev_round_outputs = outputs
            self._round_outputs = []
            self._round_start_state = state
            if self._stuck_rounds >= self.deadlock_rounds:
                reason = "deadlock"
            elif self.round >= self.max_rounds:
                reason = "round limit"
        if reason is None:
            return False
        self.end_reason = reason
        self._end_episode(truncated=reason == "round limit")
        self._log(Action(name="end", visible_to=(), source=self._source("end"),
                         params={"round": self.round, "reason": reason, "score": w.score, "turn": self.turn,
                                 **self.metrics()}))
        return True

    # --- metrics & rendering ---------------------------------------------------------------------
    def metrics(self) -> dict:
        """Team score, rounds played (to completion when all bombs are defused), share of valid actions, words
        of the messages the team posted."""
        return {"score": self.world.score, "max_score": self.world.max_score,
                "rounds": self.completed_round if self.completed_round is not None else self.round,
                "completed": self.completed_round is not None,
                "valid_action_rate": self.valid_actions / self.actions_taken if self.actions_taken else 0.0,
                "actions": self.actions_taken, "message_words": self.message_words, "end_reason": self.end_reason}

    def render(self):
        w = self.world
        lines = [f"Round {self.round}  score {w.score}/{w.max_score}"]
        for r in w.map.rooms:
            bombs = [f"{bomb_name(b)}[{colour_list(w.bombs[b].remaining)}]" for b in w.contents(r)]
            lines.append(f"  {room_name(r)}: {', '.join(bombs) or '-'}; agents: {', '.join(w.agents_in(r)) or '-'}")
        text = "\n".join(lines)
        return rendered(self.render_mode, text)
