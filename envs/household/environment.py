"""``household_v0``: a symbolic Communicative Watch-And-Help (C-WAH) task as a PettingZoo environment.

The world (apartments, furniture, the five tasks, the generator) is :mod:`belief.envs.household.world`.
Two agents (one with ``n_agents=1``) act simultaneously, one action per step; the episode ends when
every goal predicate holds (terminated) or after 250 steps (truncated). The metric is the number of
steps. ``scale`` picks the world (:data:`belief.envs.household.world.SCALES`: ``cwah``, the default, at
C-WAH's size; ``small``, the earlier one). Walking through a door takes ``walk_steps`` (``cwah`` 8, ``small`` 3)
consecutive ``walk to R`` actions (C-WAH agents walk across rooms in several steps); the agent stays in its
room until it arrives, and any other action except a message starts the walk over. Acting on a piece of
furniture (open, close, grasp from, put on/in) first takes ``approach_steps`` steps walking up to it (``cwah``
3, ``small`` 0) unless the agent already stands at it (it stands at the last piece it acted on, or walked up
to, since it entered the room); those steps are spent with the same action repeated, and any other action
starts the approach over. Everything else takes one step.

Actions (one per agent per step): ``walk to R`` (an adjacent room), ``open C`` / ``close C`` (a
container in the agent's room), ``grasp O`` (an object on a surface or in an open container of the
room, with a free hand; two hands), ``put hand H on/in R`` (a surface or an *open* container of the
room), ``send message`` (costs the step, like any action), ``wait``. Agents act in turn within a step
(alice first on even steps, bob first on odd ones), so an object the partner took first makes a grasp
fail, with feedback. A message sent in step ``t`` is in the recipient's observation after step ``t``.

Observation: the current room only. On arriving (and at the start) an agent sees, together with
everyone present: who is there and what they hold, which containers of the room are open, and every
object on a surface or in an open container. Opening a container shows its contents to everyone in the
room; grasping, putting, opening and closing are seen by everyone in the room; leaving is seen by those
left behind. Whoever sees a receptacle (or a partner's hands) where it last believed an object to be, and
the object is not there, sees that the object moved (a ``possible`` change: it no longer knows where
the object is), which is what the checker needs to call beliefs stale.

Trace vocabulary (:mod:`belief.truth.trace`): fluents ``in(o)`` (a receptacle, or the agent holding o),
``open(c)`` (``open`` | ``closed``) and ``at(agent)``; events ``set`` (the hidden initial state),
``exit``/``enter`` (walking; an arriving agent's private trace also gets those already in the room from
:mod:`belief.truth.filter`), ``observe`` with explicit values (views), ``action`` with ``visible_to``
(grasp, put, open, close), ``possible`` (an object seen to be gone), ``tell`` (a message's ``X IN Y``
facts, under ``strict-truthful``; a message without facts is an ``action`` seen by both). Each agent's
perceived events (its private trace, :class:`belief.truth.filter.PrivateTrace`) are handed over in
``infos[agent]["perceived"]``: that is all a belief tracker needs.

Spaces (per agent)::

    Dict(observation: Box(0, 1, (8,), float32)   # step/250, room/4, hand 0 used, hand 1 used, others here,
                                                   # objects seen/48, open containers here/8, message received
         action_mask: Box(0, 1, (102,), int8),
         text: Text(0..8192, printable))
    Discrete(166): wait | send message | walk to room 0..3 | open receptacle 0..27 | close receptacle 0..27 |
                   grasp object 0..47 | put hand 0/1 on receptacle 0..27

A ``send message`` action carries its text as ``(index, text)`` or ``{"action": index, "message": text}``.
``infos[agent]`` holds ``view`` (a dict), ``action_mask``, ``action_names``, ``perceived`` and, after
reset, ``task`` (the public task: goals, rooms, doors, furniture). ``env()`` is the AEC form
(``parallel_to_aec``); ``env.trace`` is the global trace; ``env.metrics()`` the episode figures.
"""

from __future__ import annotations

import copy

import numpy as np
from pettingzoo.utils.conversions import parallel_to_aec

from belief.envs.household import world as hw
from belief.envs.household.text import parse_message_facts, render_view
from belief.envs.base.spaces import printable
from belief.envs.base.text_env import A_ROOMS, A_SEND, A_WAIT, ParallelTextEnv, parse_text_action, room_action_names
from belief.envs.base.tokens import count_tokens
from belief.truth.trace import Action, Content, Effect, Enter, Exit, Observe, Possible, Set, Tell, Trace
from belief.envs.base.render import rendered

AGENT_NAMES = ("alice", "bob")
TEXT_MAX = 8192
OBS_LEN = 8
MAX_ROOMS = len(hw.ROOMS)
MAX_RECEPTACLES = 28
MAX_OBJECTS = 48
A_WALK = A_ROOMS
A_OPEN = A_WALK + MAX_ROOMS
A_CLOSE = A_OPEN + MAX_RECEPTACLES
A_GRASP = A_CLOSE + MAX_RECEPTACLES
A_PUT = A_GRASP + MAX_OBJECTS
N_ACTIONS = A_PUT + hw.HANDS * MAX_RECEPTACLES
WALK_STEPS = hw.SCALES[hw.DEFAULT_SCALE].walk_steps
APPROACH_STEPS = hw.SCALES[hw.DEFAULT_SCALE].approach_steps


def parallel_env(**kwargs):
    return raw_env(**kwargs)


def env(**kwargs):
    """The AEC form (PettingZoo's ``parallel_to_aec``): agents still act simultaneously per step."""
    return parallel_to_aec(raw_env(**kwargs))


def put_name(hand: int, receptacle: str, kind: str) -> str:
    return f"put hand {hand} {'on' if kind == hw.SURFACE else 'in'} {receptacle}"


class raw_env(ParallelTextEnv):
    metadata = {"name": "household_v0", "render_modes": ["human", "ansi"], "is_parallelizable": True}

    OBS_BOX = (0.0, 1.0, (OBS_LEN,), np.float32)
    N_ACTIONS = N_ACTIONS
    TEXT_MAX = TEXT_MAX

    def __init__(self, seed: int | None = None, n_agents: int = 2, max_steps: int = hw.MAX_STEPS,
                 walk_steps: int | None = None, render_mode: str | None = None, scale: str = hw.DEFAULT_SCALE,
                 approach_steps: int | None = None):
        super().__init__(render_mode)
        self.scale = hw.scale_of(scale)
        walk_steps = self.scale.walk_steps if walk_steps is None else walk_steps
        approach_steps = self.scale.approach_steps if approach_steps is None else approach_steps
        if walk_steps < 1:
            raise ValueError(f"walk_steps must be at least 1, got {walk_steps}")
        if approach_steps < 0:
            raise ValueError(f"approach_steps must be at least 0, got {approach_steps}")
        self.walk_steps = walk_steps
        self.approach_steps = approach_steps
        if not 1 <= n_agents <= len(AGENT_NAMES):
            raise ValueError(f"n_agents must be 1 or 2, got {n_agents}")
        self.possible_agents = list(AGENT_NAMES[:n_agents])
        self.agents = list(self.possible_agents)
        self._seed = seed
        self.max_steps = max_steps
        self.world: hw.World | None = None
        self.trace = Trace()

    # --- reset ---------------------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        options = dict(options or {})
        if seed is not None:
            self._seed = seed
        if options.get("world") is not None:  # a scripted world (tests)
            if not isinstance(options["world"], hw.World):
                raise TypeError("options['world'] must be a belief.envs.household.world.World")
            self.world = copy.deepcopy(options["world"])
            self.world.agent_room = {a: self.world.agent_room[a] for a in self.possible_agents}
            self.world.held = {a: list(self.world.held.get(a, [None] * hw.HANDS)) for a in self.possible_agents}
        else:
            self.world = hw.generate(int(self._seed or 0), tuple(self.possible_agents), self.scale.name)
        w = self.world
        if len(w.objects) > MAX_OBJECTS or len(w.furniture) > MAX_RECEPTACLES:
            raise ValueError("world too large for the action slots")
        self._start_episode()
        self.steps = 0
        self.done_step = None
        self.messages_sent = {a: 0 for a in self.agents}
        self.message_tokens = {a: 0 for a in self.agents}
        self.invalid = {a: 0 for a in self.agents}
        self._feedback = {a: None for a in self.agents}
        self._walking = {a: None for a in self.agents}  # (destination, steps walked so far)
        self._at = {a: None for a in self.agents}  # the piece of furniture each stands at
        self._approach = {a: None for a in self.agents}  # (receptacle, steps walked up to it so far)
        self._inbox = {a: [] for a in self.agents}
        self._record = {a: {} for a in self.agents}  # what each agent last saw/was told of in(o)
        self.rooms = list(w.rooms)
        self.receptacles = sorted(w.furniture)
        self.action_names = self._action_names()
        self._index = {n: i for i, n in enumerate(self.action_names) if n}
        self.trace = Trace(meta={"env": "household_v0", "seed": self._seed, "scale": self.scale.name,
                                 "layout": w.layout, "task": w.task,
                                 "goals": [str(g) for g in w.goals], "agents": list(self.possible_agents)})
        for o in w.objects:
            self._log(Set(predicate="in", subject=(o,), value=self._where(o)))
        for c, is_open in w.is_open.items():
            self._log(Set(predicate="open", subject=(c,), value="open" if is_open else "closed"))
        groups: dict = {}
        for a in self.agents:
            groups.setdefault(w.agent_room[a], []).append(a)
        for room, group in groups.items():
            self._log(Enter(agents=tuple(group), room=room))
            self._view_room(room)
        return {a: self._obs(a) for a in self.agents}, {a: self._info(a, first=True) for a in self.agents}

    def _action_names(self) -> list:
        w = self.world
        names = room_action_names(N_ACTIONS, self.rooms, "walk to", talk=len(self.possible_agents) > 1)
        for k, f in enumerate(self.receptacles):
            if w.kind(f) == hw.CONTAINER:
                names[A_OPEN + k] = f"open {f}"
                names[A_CLOSE + k] = f"close {f}"
            for h in range(hw.HANDS):
                names[A_PUT + h * MAX_RECEPTACLES + k] = put_name(h, f, w.kind(f))
        for j, o in enumerate(w.objects):
            names[A_GRASP + j] = f"grasp {o}"
        return names

    def action_index(self, name: str) -> int:
        """The slot of a grounded action name (``"grasp cupcake_1"``); ValueError if there is none."""
        try:
            return self._index[name]
        except KeyError:
            raise ValueError(f"no action {name!r} in this episode") from None

    def _where(self, o: str) -> str:
        return self.world.location[o]

    def present(self, room: str) -> tuple:
        return tuple(a for a in self.agents if self.world.agent_room[a] == room)

    def _remember(self, agents, fluent, value):
        if fluent[0] == "in":
            for a in agents:
                self._record[a][fluent[1]] = value

    def _view_room(self, room: str):
        """Everyone in ``room`` sees who is there, its containers' states and its visible objects together."""
        w = self.world
        present = self.present(room)
        fluents = [("at", a) for a in present]
        fluents += [("open", c) for c in w.containers_in(room)]
        fluents += [("in", o) for o in w.visible_objects(room)]
        self._observe(present, fluents)

    def _observe(self, agents, fluents):
        if not agents or not fluents:
            return
        w = self.world
        values = []
        for f in fluents:
            if f[0] == "at":
                values.append(w.agent_room[f[1]])
            elif f[0] == "open":
                values.append("open" if w.is_open[f[1]] else "closed")
            else:
                values.append(w.location[f[1]])
        self._log(Observe(agents=tuple(agents), fluents=tuple(fluents), values=tuple(values)))
        for f, v in zip(fluents, values):
            self._remember(agents, f, v)
        self._notice_moved(agents, w.agent_room[agents[0]])

    def _notice_moved(self, agents, room):
        """Whoever looks at a receptacle where it last put an object and finds it gone sees that it moved."""
        w = self.world
        seen = set(w.visible_receptacles(room))
        stale: dict = {}
        for a in agents:
            for o, v in self._record[a].items():
                if v in seen and w.location[o] != v:
                    stale.setdefault(o, []).append(a)
        for o, who in sorted(stale.items()):
            self._log(Possible(observers=tuple(who), fluents=(("in", o),)))
            for a in who:
                self._record[a][o] = None

    def _act(self, actor: str, name: str, effects: list, params: dict):
        """Apply ``[(predicate, subject, value)]``; everyone in the actor's room sees it."""
        w = self.world
        for pred, subj, value in effects:
            if pred == "in":
                w.location[subj] = value
            else:
                w.is_open[subj] = value == "open"
        present = self.present(w.agent_room[actor])
        self._log(Action(name=name, params={"actor": actor, **params}, visible_to=present,
                         effects=tuple(Effect(predicate=p, subject=(s,), value=v) for p, s, v in effects)))
        for p, s, v in effects:
            self._remember(present, (p, s), v)

    # --- masks ---------------------------------------------------------------------------------
    def mask(self, agent) -> np.ndarray:
        m = np.zeros(N_ACTIONS, dtype=np.int8)
        m[A_WAIT] = 1
        if agent not in self.agents:
            return m
        w = self.world
        room = w.agent_room[agent]
        if len(self.agents) > 1:
            m[A_SEND] = 1
        for n in w.neighbours(room):
            m[A_WALK + self.rooms.index(n)] = 1
        hands = w.held[agent]
        free = None in hands
        for k, f in enumerate(self.receptacles):
            if w.room_of(f) != room:
                continue
            if w.kind(f) == hw.CONTAINER:
                m[A_CLOSE + k if w.is_open[f] else A_OPEN + k] = 1
            if w.kind(f) == hw.SURFACE or w.is_open[f]:
                for h in range(hw.HANDS):
                    if hands[h] is not None:
                        m[A_PUT + h * MAX_RECEPTACLES + k] = 1
        if free:
            recs = {f for f in w.visible_receptacles(room) if f in w.furniture}
            for j, o in enumerate(w.objects):
                if w.location[o] in recs:
                    m[A_GRASP + j] = 1
        return m

    # --- stepping --------------------------------------------------------------------------------
    @staticmethod
    def _parse_action(act):
        return parse_text_action(act, A_WAIT)

    def step(self, actions):
        if not self.agents:
            return self._over()
        w = self.world
        before = self._progress()
        order = self.agents if self.steps % 2 == 0 else self.agents[::-1]
        outbox = []
        for a in order:
            self._feedback[a] = None
            self._inbox[a] = []
        for a in order:
            idx, text = self._parse_action(actions.get(a, A_WAIT))
            if not (0 <= idx < N_ACTIONS) or not self.action_names[idx]:
                self._invalid(a, str(idx))
            elif idx == A_SEND and len(self.agents) > 1:
                text = printable(text, 2000)
                self.messages_sent[a] += 1
                self.message_tokens[a] += count_tokens(text)
                outbox.append((a, text))
                self._feedback[a] = "message sent"
            elif idx != A_SEND:
                if not (A_WALK <= idx < A_OPEN):
                    self._walking[a] = None
                if self._receptacle_of(a, idx) is None:
                    self._approach[a] = None
                self._apply(a, idx)
            else:
                self._invalid(a, self.action_names[idx])
        for sender, text in outbox:
            self._deliver(sender, text)
        self.steps += 1
        done = w.done()
        if done and self.done_step is None:
            self.done_step = self.steps
        trunc = not done and self.steps >= self.max_steps
        reward = float(self._progress() - before)
        obs = {a: self._obs(a) for a in self.agents}
        infos = {a: self._info(a) for a in self.agents}
        result = self._step_result(obs, infos, reward, done, trunc)
        if self.render_mode == "human":
            self.render()
        return result

    def _progress(self) -> int:
        w = self.world
        return sum(min(w.satisfied(g), g.count) for g in w.goals)

    def _invalid(self, a: str, name: str):
        self.invalid[a] += 1
        self._feedback[a] = f"invalid action {name!r}: not available now; waited"

    def _apply(self, a: str, idx: int):
        """Carry out one action now; the mask is re-checked, since the partner may have acted first."""
        w = self.world
        if idx == A_WAIT:
            return
        if not self.mask(a)[idx]:
            self._feedback[a] = f"{self.action_names[idx]}: failed, not possible now"
            return
        room = w.agent_room[a]
        rec = self._receptacle_of(a, idx)
        if rec is not None and self._at[a] != rec and self.approach_steps > 0:
            _, walked = self._approach[a] if self._approach[a] and self._approach[a][0] == rec else (rec, 0)
            walked += 1
            self._approach[a] = (rec, walked)
            if walked >= self.approach_steps:
                self._at[a], self._approach[a] = rec, None
            self._feedback[a] = f"walking to the {rec} ({walked}/{self.approach_steps})"
            return
        self._approach[a] = None
        if rec is not None:
            self._at[a] = rec
        if A_WALK <= idx < A_OPEN:
            dest = self.rooms[idx - A_WALK]
            dest_, walked = self._walking[a] or (dest, 0)
            walked = walked + 1 if dest_ == dest else 1
            if walked < self.walk_steps:
                self._walking[a] = (dest, walked)
                self._feedback[a] = f"walking to the {dest} ({walked}/{self.walk_steps})"
                return
            self._walking[a], self._at[a] = None, None
            self._log(Exit(agents=(a,), room=room))
            w.agent_room[a] = dest
            self._log(Enter(agents=(a,), room=dest))  # the filter shows the arriving agent who is there
            self._view_room(dest)
            self._feedback[a] = f"walked to the {dest}"
        elif A_OPEN <= idx < A_CLOSE:
            c = self.receptacles[idx - A_OPEN]
            self._act(a, "open", [("open", c, "open")], {"container": c})
            self._observe(self.present(room), [("in", o) for o in w.contents(c)] or [("open", c)])
            self._feedback[a] = f"opened {c}: " + (", ".join(w.contents(c)) or "empty")
        elif A_CLOSE <= idx < A_GRASP:
            c = self.receptacles[idx - A_CLOSE]
            self._act(a, "close", [("open", c, "closed")], {"container": c})
            self._feedback[a] = f"closed {c}"
        elif A_GRASP <= idx < A_PUT:
            o = w.objects[idx - A_GRASP]
            src = w.location[o]
            w.held[a][w.held[a].index(None)] = o
            self._act(a, "grasp", [("in", o, a)], {"object": o, "from": src})
            self._feedback[a] = f"grasped {o} from {src}"
        else:
            h, k = divmod(idx - A_PUT, MAX_RECEPTACLES)
            o, r = w.held[a][h], self.receptacles[k]
            w.held[a][h] = None
            self._act(a, "put", [("in", o, r)], {"object": o, "receptacle": r})
            self._feedback[a] = f"put {o} {'on' if w.kind(r) == hw.SURFACE else 'in'} {r}"

    def _receptacle_of(self, a: str, idx: int):
        """The piece of furniture action ``idx`` acts on (open, close, grasp from, put on/in), or None."""
        w = self.world
        if A_OPEN <= idx < A_GRASP:
            return self.receptacles[(idx - A_OPEN) % MAX_RECEPTACLES]
        if A_GRASP <= idx < A_PUT:
            o = w.objects[idx - A_GRASP]
            return w.location[o] if w.location[o] in w.furniture else None
        if A_PUT <= idx < N_ACTIONS:
            return self.receptacles[(idx - A_PUT) % MAX_RECEPTACLES]
        return None

    def _deliver(self, sender: str, text: str):
        w = self.world
        recipients = tuple(b for b in self.agents if b != sender)
        facts = parse_message_facts(text, w.objects, (*w.furniture, *self.possible_agents))
        if facts:
            self._log(Tell(sender=sender, recipients=recipients,
                           content=tuple(Content(predicate="in", subject=(o,), value=v) for o, v in facts)))
            for o, v in facts:
                self._remember(recipients, ("in", o), v)
        else:
            self._log(Action(name="message", params={"sender": sender, "text": text[:500]},
                             visible_to=(sender, *recipients)))
        for b in recipients:
            self._inbox[b].append((sender, text))

    # --- observations --------------------------------------------------------------------------
    def view(self, a: str) -> dict:
        w = self.world
        room = w.agent_room[a]
        present = [b for b in self.present(room) if b != a]
        return {
            "agent": a, "step": self.steps, "max_steps": self.max_steps, "room": room, "hands": list(w.held[a]),
            "present": present,
            "containers": {c: "open" if w.is_open[c] else "closed" for c in w.containers_in(room)},
            "visible": {o: w.location[o] for o in w.visible_objects(room) if w.location[o] != a},
            "messages": list(self._inbox[a]), "feedback": self._feedback[a],
        }

    def task(self) -> dict:
        """What every agent is told at the start: the goals, the map and the furniture (objects are hidden)."""
        w = self.world
        return {"task": w.task, "goals": [(g.relation, g.cls, g.target, g.count) for g in w.goals],
                "rooms": list(self.rooms), "doors": [list(d) for d in w.doors],
                "furniture": {f: list(v) for f, v in w.furniture.items()}, "agents": list(self.possible_agents),
                "max_steps": self.max_steps, "walk_steps": self.walk_steps, "approach_steps": self.approach_steps,
                "text": hw.task_text(w)}

    def _info(self, a: str, first: bool = False) -> dict:
        return {"view": self.view(a), "action_mask": self.mask(a), "action_names": self.action_names,
                "perceived": self.take_perceived(a), "task": self.task() if first else None}

    def _obs(self, a: str) -> dict:
        v = self.view(a)
        w = self.world
        vec = np.array([
            min(self.steps / self.max_steps, 1.0), self.rooms.index(v["room"]) / MAX_ROOMS,
            float(v["hands"][0] is not None), float(v["hands"][1] is not None), float(bool(v["present"])),
            min(len(v["visible"]) / MAX_OBJECTS, 1.0),
            sum(1 for s in v["containers"].values() if s == "open") / 8, float(bool(v["messages"])),
        ], dtype=np.float32)
        text = render_view(v, hw.task_text(w) if self.steps == 0 else None)
        return {"observation": np.clip(vec, 0.0, 1.0), "action_mask": self.mask(a), "text": printable(text, TEXT_MAX)}

    # --- reporting -----------------------------------------------------------------------------
    def metrics(self) -> dict:
        return {"steps": self.done_step if self.done_step is not None else self.steps,
                "done": self.done_step is not None, "messages": sum(self.messages_sent.values()),
                "message_tokens": sum(self.message_tokens.values()), "comm_frames": sum(self.messages_sent.values()),
                "invalid_actions": sum(self.invalid.values())}

    def render(self):
        w = self.world
        lines = [f"step {self.steps}/{self.max_steps}: {hw.task_text(w)} (progress {self._progress()})"]
        for a in self.possible_agents:
            held = [o for o in w.held[a] if o]
            lines.append(f"  {a}: {w.agent_room[a]}, holding {', '.join(held) or 'nothing'}")
        return rendered(self.render_mode, "\n".join(lines))


__all__ = ["AGENT_NAMES", "APPROACH_STEPS", "WALK_STEPS", "N_ACTIONS", "env", "parallel_env", "put_name", "raw_env"]
