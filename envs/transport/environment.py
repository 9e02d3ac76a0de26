"""``transport_v0``: a text TDW-MAT transport task as a PettingZoo *parallel* environment.

The world, its rules and the frame cost model (with the source of every cost) are documented in
:mod:`belief.envs.transport.world`; message tokens are counted by
:func:`belief.envs.base.tokens.count_tokens` and reported apart from the frames a message takes.

Time is event driven, as in TDW-MAT: an agent is *idle* or *busy* with an action that takes frames.
Each ``step`` starts the action of every idle agent (a busy agent's action mask allows only ``wait``,
and whatever it sends is ignored), then advances the shared frame clock to the next moment an action
completes and applies the completed actions' effects (so an object a teammate took in the meantime
makes a grasp fail, with feedback). Messages are delivered at the start of the next ``step`` to every
teammate: a message sent at step ``t`` is in the recipients' observations returned by step ``t + 1``.

Perception is per agent (what each agent saw itself, or was told):

* an agent sees an object in its room when its *own* search of the room reached the object's hidden
  level, or when it already knows of the object (saw it before, or a message said where it is); what a
  teammate's search revealed is not seen for free;
* entering a room: the agent sees who is there and what they hold (held containers' contents too), the
  objects it can see there, and the bed in the bedroom; everyone present sees it arrive (and the agents
  left behind see it go);
* exploring: everyone present sees the agent search (event ``("searched", agent, room, level)``, and the
  team level of the room when it rises);
  only the searcher sees what the search reveals; grasping, putting and transporting are seen by
  everyone present;
* teammates are seen only in the same room; messages reach them wherever they are.

The global trace (``env.trace``, :class:`belief.truth.trace.Trace`) states exactly these observations in the
checker's vocabulary: ``set`` (the initial state, seen by nobody), ``enter`` (where agents are: the
checker's enter observes only agents' locations here, since objects are never room fluents),
``observe`` (one event per group of agents that see the same objects), ``action`` with effects and
``visible_to`` (explore, grasp, put, transport), ``tell`` (a message's world facts; chatter without facts
is an ``action`` named ``message``).

Spaces (per agent)::

    Dict(observation: Box(0, 1, (8,), float32)   # frame/budget, room index/12, own search level/2,
                                                   # hands used/2, on bed/targets, teammate here, busy, idle
         action_mask: Box(0, 1, (N_ACTIONS,), int8),
         text: Text(0..8192, printable))
    Discrete(N_ACTIONS = 190): a fixed slot layout (``action_names`` in infos), unused slots masked:
    wait | send message | go to room 0..11 | explore | grasp target 0..23, container 0..5 |
    put target i into container k (24 x 6) | transport to bed

An action is the slot index; ``send message`` takes its text as ``(index, text)`` or
``{"action": index, "message": text}`` (a bare index sends an empty message). ``infos[agent]`` holds
``view`` (the observation as a dict for programmatic agents; ``messages`` are ``(sender, text, frame
sent)``), ``action_mask`` and ``action_names``. ``env.metrics()`` gives the episode figures.
"""

from __future__ import annotations

import numpy as np
from pettingzoo.utils.conversions import parallel_to_aec

from belief.envs.transport import world as tw
from belief.envs.base.spaces import printable
from belief.envs.base.text_env import A_ROOMS, A_SEND, A_WAIT, ParallelTextEnv, parse_text_action, room_action_names
from belief.envs.base.tokens import count_tokens
from belief.errors import BeliefError
from belief.logic.formula import Atom
from belief.grammar import parse_fact
from belief.truth.trace import Action, Content, Effect, Enter, Observe, Set, Tell, Trace
from belief.envs.base.render import rendered

AGENT_NAMES = tw.AGENT_NAMES
TEXT_MAX = 8192
MESSAGE_MAX = 4000
OBS_LEN = 8
N_TARGET_SLOTS = tw.MAX_TARGETS
N_CONTAINER_SLOTS = tw.MAX_CONTAINERS
A_GO = A_ROOMS
A_EXPLORE = A_GO + tw.MAX_ROOMS
A_GRASP = A_EXPLORE + 1
A_PUT = A_GRASP + N_TARGET_SLOTS + N_CONTAINER_SLOTS
A_TRANSPORT = A_PUT + N_TARGET_SLOTS * N_CONTAINER_SLOTS
N_ACTIONS = A_TRANSPORT + 1


def parallel_env(**kwargs):
    """The parallel form (PettingZoo ``ParallelEnv``): every agent acts each step."""
    return raw_env(**kwargs)


def env(**kwargs):
    """The AEC form (PettingZoo's ``parallel_to_aec``), as ``env()`` is in every PettingZoo package."""
    return parallel_to_aec(raw_env(**kwargs))


class raw_env(ParallelTextEnv):
    """``episode``: a fixed episode index (0-23); ``world_seed``: a generated world
    (:func:`belief.envs.transport.world.generated_spec`, which also sets the number of agents); otherwise
    ``seed``/``family``/``capacity`` pick a world of the fixed episodes' generator. ``n_agents`` (1-4)
    overrides the number of agents."""

    metadata = {"name": "transport_v0", "render_modes": ["human", "ansi"], "is_parallelizable": True}

    OBS_BOX = (0.0, 1.0, (OBS_LEN,), np.float32)
    N_ACTIONS = N_ACTIONS
    TEXT_MAX = TEXT_MAX

    def __init__(self, episode: int | None = None, seed: int | None = None, family: str = "food",
                 capacity: str = "high", n_agents: int | None = None, budget: int = tw.BUDGET,
                 max_steps: int = 5000, render_mode: str | None = None, record_trace: bool = True,
                 world_seed: int | None = None):
        super().__init__(render_mode)
        if n_agents is not None and not 1 <= n_agents <= len(AGENT_NAMES):
            raise ValueError(f"n_agents must be 1-{len(AGENT_NAMES)}, got {n_agents}")
        self.episode = episode
        self.world_seed = world_seed
        self._seed = seed
        self.family = family
        self.capacity = capacity
        self.n_agents = n_agents
        self.possible_agents = list(AGENT_NAMES[:self._agent_count(episode, world_seed)])
        self.agents = list(self.possible_agents)
        self.budget = budget
        self.max_steps = max_steps
        self.record_trace = record_trace
        self.world: tw.World | None = None
        self.trace = Trace()

    def _agent_count(self, episode, world_seed) -> int:
        if self.n_agents is not None:
            return self.n_agents
        if episode is None and world_seed is not None:
            return tw.generated_spec(int(world_seed)).n_agents
        return 2

    # --- spaces --------------------------------------------------------------------------------

    # --- reset ---------------------------------------------------------------------------------
    def _make_world(self, seed, options):
        episode = options.get("episode", self.episode)
        world_seed = options.get("world_seed", self.world_seed if episode is None else None)
        if episode is not None:
            spec = tw.EPISODES[int(episode)]
            meta = {"episode": spec.index, "name": spec.name}
        elif world_seed is not None:
            spec = tw.generated_spec(int(world_seed))
            meta = {"world_seed": spec.seed, "name": spec.name}
        else:
            s = seed if seed is not None else (self._seed if self._seed is not None else 0)
            world = tw.generate(int(s), options.get("family", self.family), options.get("capacity", self.capacity),
                                AGENT_NAMES)
            return world, {"seed": int(s), "name": f"{world.family}-{world.capacity}-seed{int(s)}"}, 2
        return spec.world() if self.n_agents is None else _with_agents(spec, self.n_agents), meta, \
            getattr(spec, "n_agents", 2)

    def reset(self, seed=None, options=None):
        options = dict(options or {})
        w, meta, default_n = self._make_world(seed, options)
        self.world = w
        n = self.n_agents or default_n
        self.possible_agents = list(AGENT_NAMES[:n])
        for a in self.possible_agents:
            w.start.setdefault(a, w.rooms[0])
            w.searched.setdefault(a, {})
        meta.update(env="transport_v0", family=w.family, capacity=w.capacity, agents=self.possible_agents,
                    targets=len(w.targets), rooms=len(w.rooms))
        self._start_episode()
        self.now = 0
        self.steps = 0
        self.busy_until = {a: 0 for a in self.agents}
        self.pending: dict = {}
        self.outbox: list = []  # (sender, recipients, text, frame) delivered next step
        self.held = {a: [] for a in self.agents}
        self.room = {a: w.start[a] for a in self.agents}
        self.known = {a: set() for a in self.agents}  # objects each agent saw or was told of
        self.messages_sent = {a: 0 for a in self.agents}
        self.message_tokens = {a: 0 for a in self.agents}
        self.comm_frames = {a: 0 for a in self.agents}
        self.frames_used = {a: 0 for a in self.agents}
        self.log: list = []  # (frame, agent, what, subject, detail): work done, for coordination metrics
        self._bed_seen = {a: 0 for a in self.agents}  # targets on the bed when each agent last saw the bed
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
                for b in group:
                    if b != a:
                        self._events[a].append(("entered", b, r))
            self._observe_room(r, group)
        obs = {a: self._obs(a) for a in self.agents}
        infos = {a: self._info(a) for a in self.agents}
        for a in self.agents:
            self._events[a] = []
        return obs, infos

    def _action_names(self) -> list:
        names = room_action_names(N_ACTIONS, self.rooms, "go to", talk=len(self.possible_agents) > 1)
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

    # --- trace and perception (the global trace and each agent's perceptions: PerceptionLog) -------
    def present(self, room: str) -> tuple:
        return tuple(a for a in self.agents if self.room[a] == room)

    def sees_in_room(self, agent: str, obj: str) -> bool:
        """Does ``agent`` see ``obj`` lying (loose) in its room? Its own search, or it knows of the object."""
        w = self.world
        room = self.room[agent]
        if w.location[obj] != room or obj in w.lost:
            return False
        return obj in self.known[agent] or w.hidden[obj] <= w.own_level(agent, room)

    def visible_to(self, agent: str) -> list:
        """Objects whose location ``agent`` sees now: lying in its room (see :meth:`sees_in_room`), inside a
        container it sees or that an agent present holds, held by agents present, on the bed (bedroom)."""
        w = self.world
        room = self.room[agent]
        here = set(self.present(room))
        out = []
        for o in (*w.targets, *w.containers):
            loc = w.location[o]
            if loc == room:
                if self.sees_in_room(agent, o):
                    out.append(o)
            elif loc in here or (loc == tw.BED and room == w.bedroom):
                out.append(o)
            elif loc in w.location and loc not in w.lost:  # inside a container
                cl = w.location[loc]
                if cl in here or (cl == room and self.sees_in_room(agent, loc)):
                    out.append(o)
        return out

    def _see(self, fluents_by_agent: dict):
        """Each agent observes the current value of its fluents; one ``observe`` per group seeing the same."""
        w = self.world
        groups: dict = {}
        for a, fluents in fluents_by_agent.items():
            for f in fluents:
                groups.setdefault(f, []).append(a)
        by_group: dict = {}
        for f, agents in groups.items():
            by_group.setdefault(tuple(agents), []).append(f)
        for agents, fluents in by_group.items():
            self._log(Observe(agents=agents, fluents=tuple(fluents)))
            for pred, subj in fluents:
                v = w.location[subj] if pred == "in" else tw.EXPLORE_STATES[w.explored[subj]]
                for a in agents:
                    self._events[a].append(("saw", pred, subj, v, agents))
                    if pred == "in":
                        self.known[a].add(subj)

    def _observe_room(self, room: str, agents):
        self._see({a: [("in", o) for o in self.visible_to(a)] for a in agents})

    def _effects(self, actor: str, name: str, effects: list, params: dict):
        """Apply effects ``[(pred, subject, value)]`` to the world, visible to everyone in the room."""
        w = self.world
        present = self.present(self.room[actor])
        for pred, subj, v in effects:
            if pred == "in":
                w.location[subj] = v
            else:
                w.explored[subj] = tw.EXPLORE_STATES.index(v)
        self._log(Action(name=name, params={"actor": actor, "room": self.room[actor], **params},
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
                if self.sees_in_room(agent, o):
                    m[A_GRASP + i] = 1
            for k, c in enumerate(self.container_slots):
                if self.sees_in_room(agent, c):
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
    @staticmethod
    def _parse_action(act):
        return parse_text_action(act, A_WAIT)

    def cost(self, agent, idx: int, text: str = "") -> int:
        w = self.world
        if idx == A_SEND:
            return tw.message_frames(text)
        if A_GO <= idx < A_EXPLORE:
            return w.go_cost(self.room[agent], self.rooms[idx - A_GO])
        if idx == A_EXPLORE:
            return tw.EXPLORE if w.own_level(agent, self.room[agent]) < 2 else tw.EXPLORE_DONE
        if A_GRASP <= idx < A_PUT:
            return tw.GRASP
        if A_PUT <= idx < A_TRANSPORT:
            return tw.PUT
        if idx == A_TRANSPORT:
            return tw.TRANSPORT
        return tw.WAIT

    def _deliver(self):
        """Last step's messages reach every teammate; their world facts make the objects known."""
        outbox, self.outbox = self.outbox, []
        for sender, recipients, text, frame in outbox:
            facts = self.parse_facts(text)
            if facts:
                self._log(Tell(sender=sender, recipients=recipients,
                               content=tuple(Content(predicate=p, subject=(s,), value=v) for p, s, v in facts)))
            else:
                self._log(Action(name="message", params={"sender": sender, "text": text[:500]},
                                 visible_to=(sender, *recipients)))
            for r in recipients:
                if r in self._inbox:
                    self._inbox[r].append((sender, text, frame))
                    self.known[r].update(s for p, s, v in facts if p == "in")

    def step(self, actions):
        if not self.agents:
            return self._over()
        self.steps += 1
        w = self.world
        before = len(w.on_bed())
        self._deliver()
        for a in self.agents:  # start the actions of idle agents
            if not self.idle(a):
                continue
            idx, text = self._parse_action(actions.get(a, A_WAIT))
            mask = self.mask(a)
            if not (0 <= idx < N_ACTIONS) or not mask[idx]:
                name = self.action_names[idx] if 0 <= idx < N_ACTIONS and self.action_names[idx] else str(idx)
                self._feedback[a] = f"invalid action {name!r}: not available now; waited"
                idx, text = A_WAIT, ""
            if idx == A_SEND:
                text = printable(text, MESSAGE_MAX)
            c = self.cost(a, idx, text)
            self.busy_until[a] = self.now + c
            self.frames_used[a] += c
            self.pending[a] = (idx, text)
            if idx == A_SEND:
                tokens = count_tokens(text)
                self.messages_sent[a] += 1
                self.message_tokens[a] += tokens
                self.comm_frames[a] += c
                self.outbox.append((a, tuple(b for b in self.agents if b != a), text, self.now))
                self._log(Action(name="send", params={"actor": a, "tokens": tokens, "frames": c}, visible_to=(a,)))
        nxt = min(self.busy_until[a] for a in self.agents)  # advance to the next completion
        truncated_by_budget = nxt > self.budget
        if truncated_by_budget:
            self.now = self.budget
        else:
            self.now = nxt
            for a in self.agents:
                if self.busy_until[a] == self.now and a in self.pending:
                    idx, text = self.pending.pop(a)
                    self._complete(a, idx, text)
        delivered = len(w.on_bed())
        reward = float(delivered - before)
        done = delivered == len(w.targets)
        trunc = truncated_by_budget or self.now >= self.budget or self.steps >= self.max_steps
        obs = {a: self._obs(a) for a in self.agents}
        infos = {a: self._info(a) for a in self.agents}
        for a in self.agents:
            self._events[a] = []
            self._inbox[a] = []
            self._feedback[a] = None
        result = self._step_result(obs, infos, reward, done, trunc and not done)
        if self.render_mode == "human":
            self.render()
        return result

    def _complete(self, a: str, idx: int, text: str):
        name = self.action_names[idx]
        if idx == A_WAIT:
            return  # keeps an 'invalid action' feedback given when the step started
        if idx == A_SEND:
            fb = "message sent"
        elif A_GO <= idx < A_EXPLORE:
            fb = self._go(a, self.rooms[idx - A_GO])
        elif idx == A_EXPLORE:
            fb = self._explore(a)
        elif A_GRASP <= idx < A_PUT:
            j = idx - A_GRASP
            fb = self._grasp(a, self.target_slots[j] if j < N_TARGET_SLOTS else self.container_slots[j - N_TARGET_SLOTS])
        elif A_PUT <= idx < A_TRANSPORT:
            j = idx - A_PUT
            fb = self._put(a, self.target_slots[j // N_CONTAINER_SLOTS], self.container_slots[j % N_CONTAINER_SLOTS])
        else:
            fb = self._transport(a)
        self._feedback[a] = fb or f"{name}: done"

    def _go(self, a: str, dest: str) -> str:
        room = self.room[a]
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
        return f"arrived in {dest}"

    def _explore(self, a: str) -> str:
        w = self.world
        room = self.room[a]
        own = w.own_level(a, room)
        if own >= 2:
            return f"explore: you already searched {room} fully"
        team = w.explored[room]
        lvl = w.search(a, room)
        self.log.append((self.now, a, "explore", room, (lvl, team)))
        for b in self.present(room):
            if b != a:
                self._events[b].append(("searched", a, room, tw.EXPLORE_STATES[lvl]))
        if w.explored[room] > team:  # the team level rises: a world change everyone present sees
            self._effects(a, "explore", [("explored", room, tw.EXPLORE_STATES[lvl])], {"level": lvl})
        else:
            self._log(Action(name="explore", params={"actor": a, "room": room, "level": lvl},
                             visible_to=self.present(room)))
        new = [o for o in (*w.targets, *w.containers) if w.location[o] == room and w.hidden[o] == lvl
               and o not in w.lost]
        new += [o for o in w.targets if w.location[o] in new]
        self._see({a: [("in", o) for o in new]})
        return f"searched {room}: your search is now {tw.EXPLORE_STATES[lvl]}"

    def _grasp(self, a: str, o: str) -> str | None:
        if not self.sees_in_room(a, o):
            return f"grasp {o}: failed, it is no longer in {self.room[a]}"
        if len(self.held[a]) >= tw.HANDS:
            return f"grasp {o}: failed, both hands are full"
        self.held[a].append(o)
        self.log.append((self.now, a, "grasp", o, self.room[a]))
        self._effects(a, "grasp", [("in", o, a)], {"object": o})
        return None

    def _put(self, a: str, o: str, c: str) -> str | None:
        if o not in self.held[a] or c not in self.held[a] or len(self.world.contents(c)) >= tw.CONTAINER_SLOTS:
            return f"put {o} into {c}: failed"
        self.held[a].remove(o)
        self._effects(a, "put", [("in", o, c)], {"object": o, "container": c})
        return None

    def _transport(self, a: str) -> str:
        w = self.world
        if self.room[a] != w.bedroom or not self.held[a]:
            return "transport to bed: failed, not in the bedroom or holding nothing"
        eff = []
        for o in list(self.held[a]):
            if o in w.containers:
                eff += [("in", t, tw.BED) for t in w.contents(o)]
                w.lost.add(o)
            eff.append(("in", o, tw.BED))
        self.held[a] = []
        self._effects(a, "transport", eff, {})
        n = sum(1 for p, s, v in eff if s in w.targets)
        self.log.append((self.now, a, "transport", None, n))
        return f"transported {n} target(s) to the bed"

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
            "explored": tw.EXPLORE_STATES[w.own_level(a, room)],
            "holding": held, "contents": {c: w.contents(c) for c in held if c in w.containers},
            "present": [b for b in self.present(room) if b != a],
            "visible": {o: w.location[o] for o in self.visible_to(a)},
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
            w.own_level(a, v["room"]) / 2, len(v["holding"]) / 2, self._bed_seen[a] / len(w.targets),
            1.0 if v["present"] else 0.0, 0.0 if v["idle"] else 1.0, 1.0 if v["idle"] else 0.0,
        ], dtype=np.float32)
        return {"observation": vec, "action_mask": self.mask(a),
                "text": printable(render_view(v, self.steps == 0 and self.task()), TEXT_MAX)}

    # --- reporting -----------------------------------------------------------------------------
    def metrics(self) -> dict:
        """Episode figures, including duplicate searches (an agent searching a room level the team had
        already reached: work a message could have saved)."""
        w = self.world
        dup = sum(1 for _, _, what, _, d in self.log if what == "explore" and d[0] <= d[1])
        return {"transport_rate": len(w.on_bed()) / len(w.targets), "transported": len(w.on_bed()),
                "targets": len(w.targets), "frames": self.now, "messages": sum(self.messages_sent.values()),
                "message_tokens": sum(self.message_tokens.values()), "comm_frames": sum(self.comm_frames.values()),
                "duplicate_searches": dup, "steps": self.steps}

    def render(self):
        lines = [f"frame {self.now}/{self.budget}, on the bed: {len(self.world.on_bed())}/{len(self.world.targets)}"]
        for a in self.possible_agents:
            lines.append(f"  {a}: {self.room[a]}, holding {', '.join(self.held[a]) or 'nothing'}")
        return rendered(self.render_mode, "\n".join(lines))


def _with_agents(spec, n: int) -> tw.World:
    """The spec's world with ``n`` agents; agents beyond the spec's start in the first agent's room."""
    world = spec.world()
    for a in AGENT_NAMES[:n]:
        world.start.setdefault(a, world.start[AGENT_NAMES[0]])
    return world


def render_view(v: dict, task: dict | None = None) -> str:
    """The text observation an LLM agent reads."""
    out = []
    if task:
        out.append(f"Task: transport {', '.join(task['targets'])} to the bed in {task['bedroom']}. "
                   f"Rooms: {', '.join(task['rooms'])}.")
    out.append(f"[frame {v['frame']}/{v['budget']}] You ({v['agent']}) are in {v['room']} "
               f"(your search: {v['explored']}).")
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
    for sender, text, *_ in v["messages"]:
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
