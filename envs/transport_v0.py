"""``transport_v0``: a text TDW-MAT transport task as a PettingZoo *parallel* environment.

The world, its rules and the frame cost model are documented in :mod:`belief.envs.transport_world`;
message cost uses :func:`belief.envs.transport_tokens.count_tokens`.

Time is event driven, as in TDW-MAT: an agent is *idle* or *busy* with an action that takes frames.
Each ``step`` starts the action of every idle agent (a busy agent's action mask allows only ``wait``,
and whatever it sends is ignored), then advances the shared frame clock to the next moment an action
completes and applies the completed actions' effects (so an object the partner took in the meantime
makes a grasp fail, with feedback). Messages are delivered at the start of the next ``step``: a
message sent at step ``t`` is in the recipient's observation returned by step ``t + 1``.

Observability (the same sets go to the agents and to the global trace, so the checker's exact ToM
truth is what the agents could know):

* entering a room: the agent sees who is there, what they hold (and held containers' contents), the
  room's exploration state, the objects already revealed in it and the contents of revealed
  containers; everyone present sees the agent arrive, everyone left behind sees it go;
* exploring, grasping, putting, transporting: seen by every agent in the room;
* the partner is seen only when in the same room; messages reach the partner wherever it is.

Spaces (per agent)::

    Dict(observation: Box(0, 1, (8,), float32)   # frame/budget, room index/8, explored/2, hands used/2,
                                                   # on bed/10, partner here, busy, idle
         action_mask: Box(0, 1, (77,), int8),
         text: Text(0..8192, printable))
    Discrete(77): a fixed slot layout (``action_names`` in infos), unused slots masked:
    wait | send message | go to room 0..7 | explore | grasp target 0..9, container 0..4 |
    put target i into container k (10 x 5) | transport to bed

An action is the slot index; ``send message`` takes its text as ``(index, text)`` or
``{"action": index, "message": text}`` (a bare index sends an empty message). ``infos[agent]`` holds
``view`` (the observation as a dict for programmatic agents), ``action_mask`` and ``action_names``.
``env.trace`` is the global :class:`belief.trace.Trace` (events of kind set/enter/observe/action/tell);
``env.metrics()`` the episode figures.
"""

from __future__ import annotations

import functools

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from belief.envs import transport_world as tw
from belief.envs.text_spaces import printable, text_observation_space
from belief.envs.transport_tokens import count_tokens
from belief.errors import BeliefError
from belief.formula import Atom
from belief.grammar import parse_fact
from belief.trace import Action, Content, Effect, Enter, Observe, Set, Tell, Trace

AGENT_NAMES = ("alice", "bob")
TEXT_MAX = 8192
OBS_LEN = 8
N_TARGET_SLOTS = tw.N_TARGETS
N_CONTAINER_SLOTS = tw.MAX_CONTAINERS
A_WAIT = 0
A_SEND = 1
A_GO = 2
A_EXPLORE = A_GO + tw.MAX_ROOMS
A_GRASP = A_EXPLORE + 1
A_PUT = A_GRASP + N_TARGET_SLOTS + N_CONTAINER_SLOTS
A_TRANSPORT = A_PUT + N_TARGET_SLOTS * N_CONTAINER_SLOTS
N_ACTIONS = A_TRANSPORT + 1


def _printable(s: str, limit: int = TEXT_MAX) -> str:
    return printable(s, limit)


def env(**kwargs):
    return raw_env(**kwargs)


def parallel_env(**kwargs):
    return raw_env(**kwargs)


class raw_env(ParallelEnv):
    metadata = {"name": "transport_v0", "render_modes": ["human", "ansi"], "is_parallelizable": True}

    def __init__(self, episode: int | None = None, seed: int | None = None, family: str = "food",
                 capacity: str = "high", n_agents: int = 2, budget: int = tw.BUDGET, max_steps: int = 5000,
                 render_mode: str | None = None, record_trace: bool = True):
        if not 1 <= n_agents <= len(AGENT_NAMES):
            raise ValueError(f"n_agents must be 1 or 2, got {n_agents}")
        self.possible_agents = list(AGENT_NAMES[:n_agents])
        self.agents = list(self.possible_agents)
        self.episode = episode
        self._seed = seed
        self.family = family
        self.capacity = capacity
        self.budget = budget
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.record_trace = record_trace
        self.world: tw.World | None = None
        self.trace = Trace()

    # --- spaces --------------------------------------------------------------------------------
    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent):
        return text_observation_space(spaces.Box(0.0, 1.0, (OBS_LEN,), np.float32), N_ACTIONS, TEXT_MAX)

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent):
        return spaces.Discrete(N_ACTIONS)

    # --- reset ---------------------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        options = dict(options or {})
        episode = options.get("episode", self.episode)
        if episode is not None:
            spec = tw.EPISODES[int(episode)]
            self.world = tw.episode_world(spec, AGENT_NAMES)
            meta = {"episode": spec.index, "name": spec.name}
        else:
            s = seed if seed is not None else (self._seed if self._seed is not None else 0)
            fam = options.get("family", self.family)
            cap = options.get("capacity", self.capacity)
            self.world = tw.generate(int(s), fam, cap, AGENT_NAMES)
            meta = {"seed": int(s)}
        w = self.world
        meta.update(env="transport_v0", family=w.family, capacity=w.capacity, agents=self.possible_agents)
        self.agents = list(self.possible_agents)
        self.now = 0
        self.steps = 0
        self.busy_until = {a: 0 for a in self.agents}
        self.pending: dict = {}
        self.outbox: list = []  # (sender, recipients, text) delivered next step
        self.held = {a: [] for a in self.agents}
        self.room = {a: w.start[a] for a in self.agents}
        self.messages_sent = {a: 0 for a in self.agents}
        self._bed_seen = {a: 0 for a in self.agents}  # targets on the bed when each agent last saw the bed
        self.message_tokens = {a: 0 for a in self.agents}
        self.frames_used = {a: 0 for a in self.agents}
        self._events = {a: [] for a in self.agents}
        self._feedback = {a: None for a in self.agents}
        self._inbox = {a: [] for a in self.agents}
        self.trace = Trace(meta=meta)
        self.entities = tw.entities(w, self.possible_agents)
        self.rooms = list(w.rooms)
        self.target_slots = list(w.targets)
        self.container_slots = list(w.containers)
        self.action_names = self._action_names()
        for o in (*w.targets, *w.containers):
            self._log(Set(predicate="in", subject=(o,), value=w.location[o]))
        for r in w.rooms:
            self._log(Set(predicate="explored", subject=(r,), value=tw.EXPLORE_STATES[w.explored[r]]))
        by_room: dict = {}
        for a in self.agents:
            by_room.setdefault(self.room[a], []).append(a)
        for r, group in by_room.items():
            self._log(Enter(agents=tuple(group), room=r))
            for a in group:
                for b in self.agents:
                    if b != a and self.room[b] == r:
                        self._events[a].append(("entered", b, r))
            self._observe_room(r, group)
        obs = {a: self._obs(a) for a in self.agents}
        infos = {a: self._info(a) for a in self.agents}
        for a in self.agents:
            self._events[a] = []
        return obs, infos

    def _action_names(self) -> list:
        names = [None] * N_ACTIONS
        names[A_WAIT] = "wait"
        if len(self.possible_agents) > 1:
            names[A_SEND] = "send message"
        for i, r in enumerate(self.rooms):
            names[A_GO + i] = f"go to {r}"
        names[A_EXPLORE] = "explore"
        for i, o in enumerate(self.target_slots):
            names[A_GRASP + i] = f"grasp {o}"
        for k, c in enumerate(self.container_slots):
            names[A_GRASP + N_TARGET_SLOTS + k] = f"grasp {c}"
        for i, o in enumerate(self.target_slots):
            for k, c in enumerate(self.container_slots):
                names[A_PUT + i * N_CONTAINER_SLOTS + k] = f"put {o} into {c}"
        names[A_TRANSPORT] = "transport to bed"
        return names

    def action_index(self, name: str) -> int:
        """Slot of a grounded action name (``"grasp apple_1"``); ValueError if there is none."""
        try:
            return self.action_names.index(name)
        except ValueError:
            raise ValueError(f"no action {name!r} in this episode") from None

    # --- trace and observation helpers -----------------------------------------------------------
    def _log(self, event):
        if self.record_trace:
            self.trace.append(event)

    def present(self, room: str) -> tuple:
        return tuple(a for a in self.agents if self.room[a] == room)

    def _revealed(self, obj: str) -> bool:
        w = self.world
        r = w.location[obj]
        return r in w.room_type and w.hidden[obj] <= w.explored[r]

    def visible_in(self, room: str) -> list:
        """Objects whose location an agent in ``room`` sees (revealed, in revealed containers, held by
        agents present, on the bed when ``room`` is the bedroom)."""
        w = self.world
        out = []
        for o in (*w.targets, *w.containers):
            loc = w.location[o]
            if loc == room:
                if self._revealed(o):
                    out.append(o)
            elif loc in self.room and self.room[loc] == room:
                out.append(o)
            elif loc == tw.BED and room == w.bedroom:
                out.append(o)
            elif loc in w.location and loc not in w.lost:  # inside a container
                c = loc
                cl = w.location[c]
                if (cl == room and self._revealed(c)) or (cl in self.room and self.room[cl] == room):
                    out.append(o)
        return out

    def _see(self, agents, fluents):
        """``agents`` jointly observe the current value of ``fluents`` (predicate, subject)."""
        if not agents or not fluents:
            return
        w = self.world
        vals = []
        for pred, subj in fluents:
            v = w.location[subj] if pred == "in" else tw.EXPLORE_STATES[w.explored[subj]]
            vals.append((pred, subj, v))
        self._log(Observe(agents=tuple(agents), fluents=tuple((p, s) for p, s, _ in vals)))
        for a in agents:
            for p, s, v in vals:
                self._events[a].append(("saw", p, s, v, tuple(agents)))

    def _observe_room(self, room: str, agents):
        present = self.present(room)
        fl = [("explored", room)] + [("in", o) for o in self.visible_in(room)]
        self._see(present, fl)

    def _effects(self, actor: str, name: str, effects: list, params: dict):
        """Apply effects ``[(pred, subject, value)]`` to the world, visible to everyone in the room."""
        w = self.world
        room = self.room[actor]
        present = self.present(room)
        for pred, subj, v in effects:
            if pred == "in":
                w.location[subj] = v
            else:
                w.explored[subj] = tw.EXPLORE_STATES.index(v)
        self._log(Action(name=name, params={"actor": actor, "room": room, **params},
                         effects=tuple(Effect(predicate=p, subject=(s,), value=v) for p, s, v in effects),
                         visible_to=present))
        for a in present:
            for p, s, v in effects:
                self._events[a].append(("saw", p, s, v, present))

    # --- masks -----------------------------------------------------------------------------------
    def idle(self, agent) -> bool:
        return self.busy_until[agent] <= self.now

    def mask(self, agent) -> np.ndarray:
        m = np.zeros(N_ACTIONS, dtype=np.int8)
        m[A_WAIT] = 1
        if agent not in self.agents or not self.idle(agent):
            return m
        w = self.world
        if len(self.agents) > 1:
            m[A_SEND] = 1
        room = self.room[agent]
        for i, r in enumerate(self.rooms):
            if r != room:
                m[A_GO + i] = 1
        m[A_EXPLORE] = 1
        held = self.held[agent]
        if len(held) < tw.HANDS:
            for i, o in enumerate(self.target_slots):
                if w.location[o] == room and self._revealed(o):
                    m[A_GRASP + i] = 1
            for k, c in enumerate(self.container_slots):
                if w.location[c] == room and self._revealed(c) and c not in w.lost:
                    m[A_GRASP + N_TARGET_SLOTS + k] = 1
        for i, o in enumerate(self.target_slots):
            if o in held:
                for k, c in enumerate(self.container_slots):
                    if c in held and len(w.contents(c)) < tw.CONTAINER_SLOTS:
                        m[A_PUT + i * N_CONTAINER_SLOTS + k] = 1
        if room == w.bedroom and held:
            m[A_TRANSPORT] = 1
        return m

    # --- stepping --------------------------------------------------------------------------------
    def _parse_action(self, act):
        text = ""
        if isinstance(act, dict):
            text = str(act.get("message", "") or "")
            act = act.get("action", A_WAIT)
        elif isinstance(act, (tuple, list)):
            act, text = (act[0], str(act[1]) if len(act) > 1 else "")
        try:
            idx = int(act)
        except (TypeError, ValueError):
            idx = -1
        return idx, text

    def cost(self, agent, idx: int, text: str = "") -> int:
        w = self.world
        if idx == A_SEND:
            return tw.MESSAGE_BASE + count_tokens(text) // tw.MESSAGE_TOKENS_PER_FRAME
        if A_GO <= idx < A_EXPLORE:
            return w.go_cost(self.room[agent], self.rooms[idx - A_GO])
        if idx == A_EXPLORE:
            return tw.EXPLORE if w.explored[self.room[agent]] < 2 else tw.EXPLORE_DONE
        if A_GRASP <= idx < A_PUT:
            return tw.GRASP
        if A_PUT <= idx < A_TRANSPORT:
            return tw.PUT
        if idx == A_TRANSPORT:
            return tw.TRANSPORT
        return tw.WAIT

    def step(self, actions):
        if not self.agents:
            return {}, {}, {}, {}, {}
        self.steps += 1
        w = self.world
        before = len(w.on_bed())
        # 1. deliver last step's messages
        outbox, self.outbox = self.outbox, []
        for sender, recipients, text in outbox:
            facts = self.parse_facts(text)
            if facts:
                self._log(Tell(sender=sender, recipients=recipients,
                               content=tuple(Content(predicate=p, subject=(s,), value=v) for p, s, v in facts)))
            else:
                self._log(Action(name="message", params={"sender": sender, "text": text[:500]},
                                 visible_to=(sender, *recipients)))
            for r in recipients:
                if r in self._inbox:
                    self._inbox[r].append((sender, text))
        # 2. start the actions of idle agents
        for a in self.agents:
            if not self.idle(a):
                continue
            idx, text = self._parse_action(actions.get(a, A_WAIT))
            mask = self.mask(a)
            if not (0 <= idx < N_ACTIONS) or not mask[idx]:
                name = self.action_names[idx] if 0 <= idx < N_ACTIONS and self.action_names[idx] else str(idx)
                self._feedback[a] = f"invalid action {name!r}: not available now; waited"
                idx, text = A_WAIT, ""
            c = self.cost(a, idx, text)
            self.busy_until[a] = self.now + c
            self.frames_used[a] += c
            self.pending[a] = (idx, text)
            if idx == A_SEND:
                text = _printable(text, 4000)
                self.messages_sent[a] += 1
                self.message_tokens[a] += count_tokens(text)
                recipients = tuple(b for b in self.agents if b != a)
                self.outbox.append((a, recipients, text))
                self._log(Action(name="send", params={"actor": a, "tokens": count_tokens(text)},
                                 visible_to=(a,)))
        # 3. advance the clock to the next completion and apply it
        nxt = min(self.busy_until[a] for a in self.agents)
        truncated_by_budget = nxt > self.budget
        if truncated_by_budget:
            self.now = self.budget
        else:
            self.now = nxt
            for a in self.agents:
                if self.busy_until[a] == self.now and a in self.pending:
                    idx, text = self.pending.pop(a)
                    self._complete(a, idx, text)
        # 4. outcome
        delivered = len(w.on_bed())
        reward = float(delivered - before)
        done = delivered == len(w.targets)
        trunc = truncated_by_budget or self.now >= self.budget or self.steps >= self.max_steps
        obs = {a: self._obs(a) for a in self.agents}
        infos = {a: self._info(a) for a in self.agents}
        rewards = {a: reward for a in self.agents}
        terms = {a: done for a in self.agents}
        truncs = {a: (trunc and not done) for a in self.agents}
        for a in self.agents:
            self._events[a] = []
            self._inbox[a] = []
            self._feedback[a] = None
        if done or trunc:
            self.agents = []
        if self.render_mode == "human":
            print(self.render())
        return obs, rewards, terms, truncs, infos

    def _complete(self, a: str, idx: int, text: str):
        w = self.world
        room = self.room[a]
        name = self.action_names[idx]
        fb = f"{name}: done"
        if idx == A_WAIT:
            return  # keeps an 'invalid action' feedback given when the step started
        if idx == A_SEND:
            fb = "message sent"
        elif A_GO <= idx < A_EXPLORE:
            dest = self.rooms[idx - A_GO]
            left_behind = tuple(b for b in self.present(room) if b != a)
            self.room[a] = dest
            self._log(Enter(agents=(a,), room=dest))
            for b in left_behind:
                self._events[b].append(("left", a, room))
            for b in self.present(dest):
                if b != a:
                    self._events[b].append(("entered", a, dest))
                    self._events[a].append(("entered", b, dest))
            self._observe_room(dest, self.present(dest))
            fb = f"arrived in {dest}"
        elif idx == A_EXPLORE:
            lvl = w.explored[room]
            if lvl >= 2:
                fb = f"explore: {room} was already fully explored"
            else:
                lvl += 1
                self._effects(a, "explore", [("explored", room, tw.EXPLORE_STATES[lvl])], {})
                new = [o for o in (*w.targets, *w.containers) if w.location[o] == room and w.hidden[o] == lvl]
                new += [o for o in w.targets if w.location[o] in new]
                self._see(self.present(room), [("in", o) for o in new])
                fb = f"explored {room}: now {tw.EXPLORE_STATES[lvl]}"
        elif A_GRASP <= idx < A_PUT:
            j = idx - A_GRASP
            o = self.target_slots[j] if j < N_TARGET_SLOTS else self.container_slots[j - N_TARGET_SLOTS]
            if w.location[o] != room or not self._revealed(o) or o in w.lost:
                fb = f"grasp {o}: failed, it is no longer in {room}"
            elif len(self.held[a]) >= tw.HANDS:
                fb = f"grasp {o}: failed, both hands are full"
            else:
                self.held[a].append(o)
                self._effects(a, "grasp", [("in", o, a)], {"object": o})
        elif A_PUT <= idx < A_TRANSPORT:
            j = idx - A_PUT
            o = self.target_slots[j // N_CONTAINER_SLOTS]
            c = self.container_slots[j % N_CONTAINER_SLOTS]
            if o not in self.held[a] or c not in self.held[a] or len(w.contents(c)) >= tw.CONTAINER_SLOTS:
                fb = f"put {o} into {c}: failed"
            else:
                self.held[a].remove(o)
                self._effects(a, "put", [("in", o, c)], {"object": o, "container": c})
        elif idx == A_TRANSPORT:
            if room != w.bedroom or not self.held[a]:
                fb = "transport to bed: failed, not in the bedroom or holding nothing"
            else:
                eff = []
                for o in list(self.held[a]):
                    if o in w.containers:
                        eff += [("in", t, tw.BED) for t in w.contents(o)]
                        w.lost.add(o)
                    eff.append(("in", o, tw.BED))
                self.held[a] = []
                self._effects(a, "transport", eff, {})
                n = sum(1 for p, s, v in eff if s in w.targets)
                fb = f"transported {n} target(s) to the bed"
        self._feedback[a] = fb

    # --- messages ------------------------------------------------------------------------------
    def parse_facts(self, text: str) -> list:
        """The world facts a message states, one per line or sentence: ``apple_1 IN kitchen_1``,
        ``kitchen_1 EXPLORED all``. Lines that are not such facts (plans, chatter) are ignored."""
        return parse_message_facts(text, self.entities)

    # --- observations ----------------------------------------------------------------------------
    def view(self, a: str) -> dict:
        w = self.world
        room = self.room[a]
        held = list(self.held[a])
        return {
            "agent": a, "frame": self.now, "budget": self.budget, "room": room, "idle": self.idle(a),
            "explored": tw.EXPLORE_STATES[w.explored[room]],
            "holding": held, "contents": {c: w.contents(c) for c in held if c in w.containers},
            "present": [b for b in self.present(room) if b != a],
            "visible": {o: w.location[o] for o in self.visible_in(room)},
            "events": list(self._events[a]),
            "messages": list(self._inbox[a]),
            "feedback": self._feedback[a],
        }

    def task(self) -> dict:
        """What every agent is told at the start: the goal, the map and the rules' constants."""
        w = self.world
        return {"targets": list(w.targets), "containers": list(w.containers), "family": w.family,
                "rooms": list(w.rooms), "room_type": dict(w.room_type), "bedroom": w.bedroom,
                "distance": {r: {s: w.distance(r, s) for s in w.rooms} for r in w.rooms},
                "agents": list(self.possible_agents), "budget": self.budget}

    def _info(self, a: str) -> dict:
        return {"view": self.view(a), "action_mask": self.mask(a), "action_names": self.action_names,
                "task": self.task() if self.steps == 0 else None}

    def _obs(self, a: str) -> dict:
        w = self.world
        v = self.view(a)
        if v["room"] == w.bedroom:  # the bed is seen only from the bedroom: no global count leaks
            self._bed_seen[a] = len(w.on_bed())
        vec = np.array([
            min(self.now / self.budget, 1.0), self.rooms.index(v["room"]) / tw.MAX_ROOMS,
            w.explored[v["room"]] / 2, len(v["holding"]) / 2, self._bed_seen[a] / tw.N_TARGETS,
            1.0 if v["present"] else 0.0, 0.0 if v["idle"] else 1.0, 1.0 if v["idle"] else 0.0,
        ], dtype=np.float32)
        return {"observation": vec, "action_mask": self.mask(a), "text": _printable(render_view(v, self.steps == 0 and self.task()))}

    # --- reporting -----------------------------------------------------------------------------
    def metrics(self) -> dict:
        w = self.world
        return {"transport_rate": len(w.on_bed()) / len(w.targets), "transported": len(w.on_bed()),
                "frames": self.now, "messages": sum(self.messages_sent.values()),
                "message_tokens": sum(self.message_tokens.values()), "steps": self.steps}

    def render(self):
        lines = [f"frame {self.now}/{self.budget}, on the bed: {len(self.world.on_bed())}/{len(self.world.targets)}"]
        for a in self.possible_agents:
            lines.append(f"  {a}: {self.room[a]}, holding {', '.join(self.held[a]) or 'nothing'}")
        return "\n".join(lines)

    def close(self):
        pass


def render_view(v: dict, task: dict | None = None) -> str:
    """The text observation an LLM agent reads."""
    out = []
    if task:
        out.append(f"Task: transport {', '.join(task['targets'])} to the bed in {task['bedroom']}. "
                   f"Rooms: {', '.join(task['rooms'])}.")
    out.append(f"[frame {v['frame']}/{v['budget']}] You ({v['agent']}) are in {v['room']} "
               f"(explored: {v['explored']}).")
    hold = []
    for o in v["holding"]:
        if o in v["contents"]:
            hold.append(f"{o} (containing {', '.join(v['contents'][o]) or 'nothing'})")
        else:
            hold.append(o)
    out.append(f"You hold: {', '.join(hold) or 'nothing'}.")
    if v["present"]:
        out.append(f"Also here: {', '.join(v['present'])}.")
    seen = [f"{o} in {loc}" for o, loc in sorted(v["visible"].items())]
    if seen:
        out.append(f"You see: {'; '.join(seen)}.")
    for ev in v["events"]:
        if ev[0] == "left":
            out.append(f"{ev[1]} left {ev[2]}.")
        elif ev[0] == "entered":
            out.append(f"{ev[1]} is in {ev[2]} with you.")
    for sender, text in v["messages"]:
        out.append(f"Message from {sender}: {text}")
    if v["feedback"]:
        out.append(f"Result: {v['feedback']}.")
    if not v["idle"]:
        out.append("You are busy with your current action.")
    return "\n".join(out)


def parse_message_facts(text: str, entities: dict) -> list:
    """``[(pred, subject, value)]`` for every line/sentence of ``text`` that is a valid world fact."""
    dom = tw.domain()
    out = []
    for raw in text.replace(";", "\n").replace(". ", "\n").splitlines():
        line = raw.strip().rstrip(".")
        if not line or " IN " not in line and " EXPLORED " not in line:
            continue
        try:
            f = dom.validate(parse_fact(line), entities)
        except BeliefError:
            continue
        a = f.formula
        if isinstance(a, Atom) and a.pred in ("in", "explored") and len(a.args) == 2:
            out.append((a.pred, a.args[0], a.args[1]))
    return out


__all__ = ["AGENT_NAMES", "N_ACTIONS", "env", "parallel_env", "raw_env", "render_view", "parse_message_facts"]
