"""The filter: what one agent perceived of a global trace, as a private trace in the same vocabulary.

``private_trace(trace, agent)`` keeps the events the agent took part in, saw, heard or witnessed, and
masks what it did not see:

* ``observe``: kept with the values named when the agent is among the observers (and, for a conditional
  observation, when its record draws it by the checker's rule: it last saw a value of the condition, a
  possible change since notwithstanding, or elimination leaves only those); kept *without* values when it only
  witnessed the observation (it knows the others looked, not what they saw); dropped otherwise;
* ``possible``: kept when the agent is an observer;
* ``action`` / ``set`` / ``move`` / ``statement`` / ``enter`` / ``exit``: kept when the agent saw them
  (``visible_to``, or present in the room), with ``params`` (metadata) dropped;
* on arriving in a room the agent sees who is already there: the filter adds an ``enter`` of those agents
  right after the agent's own (when its private trace does not already place them there), so their later
  exit, seen by the agent, is consistent in the private trace;
* ``tell`` / ``announce``: kept when the agent sent or heard them;
* ``noop`` / ``noise``: dropped.

Perception that is not common knowledge (docs/logic.md): an agent the event names ``inattentive`` gets
nothing of it; a secret observer or hidden listener gets it although it is elsewhere (peeking, it also sees
who is in the room); and the copy an agent keeps says who perceived it *as that agent believes*: the agents it
believes perceived it (the observers; its ``perceived_as`` entry when it has one) and the others' views it
believes in; secret observers it does not know of are left out. Someone seen acting in a room the agent's
record does not place them in is first seen there (an ``enter``).

An agent's own belief tracker is the general checker on its private trace (a
:class:`~belief.truth.record.PrivateRecord`): that is how the agents answer ToM questions, never from the
global trace. The filter is pure; the incremental form :class:`PrivateTrace` lets an environment hand each
agent its new perceptions as it goes (its own record answers the conditional observations, without
re-checking what came before).
"""

from __future__ import annotations

from typing import Optional

from belief.logic.policies import get_policy
from belief.truth.index import IndexBuilder
from belief.truth.record import PrivateRecord
from belief.truth.trace import ROOMS_KEY, Enter, declared_rooms, Exit, Statement, Trace, event_agents


class PrivateTrace:
    """Incremental filter for one agent.

    ``perceive(event)`` returns the list of events the agent's private trace gained: usually zero or one;
    more when an arrival also shows who and what was already in the room. ``feed(event)`` returns the
    first of them or None, for callers that forward one event at a time.

    Where everyone is and what the world holds come from the checker's own replay of the global trace
    (:class:`~belief.truth.index.IndexBuilder`), so the filter and the checker agree on rooms and reality.
    """

    def __init__(self, agent: str, policy="strict-truthful", constraints=None, rooms=None):
        self.agent = agent
        self.policy = policy
        # the world's rules and its declared rooms (``meta["room_names"]``) are public: the private record has them too
        meta: dict = {"constraints": list(constraints)} if constraints else {}
        if rooms is not None:
            meta[ROOMS_KEY] = rooms if isinstance(rooms, str) else list(rooms)  # (a str is refused by the record)
        self.record = PrivateRecord(agent, policy, meta=meta or None)  # the private trace so far, and its truth
        self._world = IndexBuilder(None, get_policy(policy), rooms=declared_rooms(meta))  # the global trace, as it comes
        self._seen = 0
        self._original = None                 # the event being fed, when it says who perceived it
        #: per global event fed so far, the private trace's length after it (to place a message's ``as_of``)
        self._upto: list[int] = []
        self._believed: Optional[set] = None  # who the agent believes perceived it, when it says so itself

    @property
    def _mine(self) -> IndexBuilder:
        """The replay of the private trace so far (where the agent thinks everyone is)."""
        return self.record.tracker.replay

    @property
    def trace(self) -> Trace:
        """The private trace so far."""
        return self.record.trace

    # --- the world, for naming the values the agent saw ----------------------------------------
    def _world_step(self, ev) -> None:
        if ev.kind not in _BELIEF_ONLY:
            self._world.step(ev, self._seen)
        else:  # a message changes no room, but names its agents, as the checker's replay does
            for a in event_agents(ev):
                self._world.bit(a)
        self._seen += 1

    def _present(self, room: Optional[str]) -> set:
        return {a for a, r in self._world.loc.items() if r is not None and r == room}

    def _room_of(self, ev, agent: Optional[str]) -> Optional[str]:
        if ev.room is not None:
            return ev.room
        return self._world.loc.get(agent) if agent else None

    def _keep(self, ev, **update):
        if ev.kind in _BELIEF_ONLY and ev.as_of is not None and "as_of" not in update:
            # the global index at which the claims were formed, as the last event of this record by then
            update["as_of"] = (self._upto[ev.as_of] if ev.as_of < len(self._upto) else len(self.trace)) - 1
        if ev is self._original:
            update.update(self._as_believed(ev.model_copy(update=update)))
        return self.record.add_one(ev, **update)

    def _believes(self, fluent, values) -> bool:
        """Does the agent draw an observation conditional on ``fluent`` in ``values``? The checker's own rule
        (:meth:`~belief.truth.ground.GroundTruth.draws`) on its record: what it last saw, or elimination."""
        truth = self.record.truth()
        return truth.draws((self.agent,), tuple(fluent), values, len(self.trace) - 1)

    def _arrival(self, ev) -> None:
        """The agent arrived in ``ev.room``: it sees who is there and what the room holds.

        Only what its private trace does not already place there is added: an ``enter`` of agents it did not
        see come in, and a ``statement`` (seen by everyone present and located in the room, as the checker
        treats what an arrival sees) for each room fluent whose value or place the private trace lacks.
        """
        room = ev.room
        present = self._present(room)
        unseen = sorted(a for a in present - set(ev.agents) if self._mine.loc.get(a) != room)
        if unseen:
            self._keep(Enter(agents=tuple(unseen), room=room))
        for f in self._missing(room, present):
            self._keep(Statement(predicate=f[0], subject=f[1:], value=self._world.reality[f], room=room))

    # --- perception that is not common knowledge ---------------------------------------------------
    def _names(self, builder: IndexBuilder, mask: int) -> set:
        return {builder.agents[i] for i in builder.ids(mask)}

    def _as_believed(self, ev) -> dict:
        """The perception fields of the agent's copy of ``ev``: perceived by whom the agent believes."""
        mine = self._mine
        named = set(mine.aid) | {self.agent} | set(ev.actors) | set(getattr(ev, "recipients", None) or ()) \
            | set(getattr(ev, "audience", None) or ()) | set(getattr(ev, "observers", None) or ())
        plain = ev.model_copy(update={"secret_observers": None, "inattentive": None, "perceived_as": None,
                                      **({"overheard_by": None} if ev.kind in ("tell", "announce") else {})})
        observers = self._names(mine, mine.event_observers(plain)) if plain.kind != "noise" else set()
        if self._believed is not None:  # its own perceived_as entry
            believed = self._believed
        elif self.agent in ev.secret:  # the observers it believes there, and itself
            believed = observers | {self.agent}
        else:  # the observers it believes there (itself among them, or a witness of their observation)
            believed = observers
        secret = sorted(a for a in believed - observers if a in named)
        inattentive = sorted(a for a in observers - believed if a not in ev.actors)
        perceivers = (observers - set(inattentive)) | set(secret)
        views = {a: tuple(b for b in agents if b in named) for a, agents in (ev.perceived_as or {}).items()
                 if a in perceivers}
        if self.agent in (ev.perceived_as or {}):
            views[self.agent] = tuple(sorted(b for b in believed if b in named))
        out = {"secret_observers": tuple(secret) or None, "inattentive": tuple(inattentive) or None,
               "perceived_as": views or None}
        if ev.kind in ("tell", "announce"):
            out["overheard_by"] = None
        return out

    def _present_in_record(self, agents, room: Optional[str]) -> None:
        """Agents seen in ``room`` that the agent's record does not place there (it missed them come in, or it
        peeks into the room) are put there by an ``enter`` the agent is inattentive to: seeing someone act
        shows where they are now, not that the agent saw them arrive."""
        if room is None:
            return
        unseen = tuple(sorted(a for a in agents if self._mine.loc.get(a) != room))
        if unseen:
            self._unnoticed(Enter(agents=unseen, room=room))

    def _sync(self, agents) -> None:
        """Put ``agents`` where the world has them, unnoticed by the agent (see :meth:`_present_in_record`)."""
        for a in sorted(agents):
            where, mine = self._world.loc.get(a), self._mine.loc.get(a)
            if where == mine or a == self.agent:
                continue
            if where is None:
                self._unnoticed(Exit(agents=(a,), room=mine))
            else:
                self._unnoticed(Enter(agents=(a,), room=where))

    def _unnoticed(self, ev) -> None:
        mine = self._mine
        me = mine.aid.get(self.agent)
        if me is not None and self.agent not in ev.actors and mine.event_observers(ev) >> me & 1:
            ev = ev.model_copy(update={"inattentive": (self.agent,)})
        self.record.add_one(ev)

    def _room_of_event(self, ev) -> Optional[str]:
        if ev.kind == "exit":
            rooms = {self._world.loc.get(a) for a in ev.agents} - {None}
            return rooms.pop() if len(rooms) == 1 else None
        if ev.kind in ("tell", "observe", "possible", "noise") or (ev.kind == "announce" and ev.audience is not None):
            return None
        return self._room_of(ev, getattr(ev, "sender", getattr(ev, "agent", None)))

    def _secretly(self, ev):
        """The agent perceives ``ev`` from outside (peeking, overhearing): it sees who is in the room too."""
        room = self._room_of_event(ev)
        self._sync(set(self._present(room) if room is not None else ()) | set(ev.actors))
        if ev.kind == "observe":
            values = ev.values if ev.values is not None else tuple(self._world.reality.get(tuple(f)) for f in ev.fluents)
            sees = ev.given is None or self._believes(ev.given.fluent, ev.given.values)
            self._world_step(ev)
            return self._keep(ev, values=values if sees else None)
        self._world_step(ev)
        kept = self._keep(ev, params={}) if ev.kind == "action" else self._keep(ev)
        if ev.kind == "enter":  # it sees what the room holds, unknown to those inside
            for f in self._missing(ev.room, set(ev.agents)):
                self._keep(Statement(predicate=f[0], subject=f[1:], value=self._world.reality[f], room=ev.room,
                                     secret_observers=(self.agent,)))
        return kept

    def _missing(self, room: str, present: set) -> list:
        """The room's visible fluents whose value or place the private trace lacks."""
        at_fluents = {("at", a) for a in present}
        return [f for f in self._world.room_fluents.get(room, ())
                if f not in at_fluents and self._world.reality.get(f) is not None
                and (self._mine.fluent_room.get(f) != room
                     or self._mine.reality.get(f) != self._world.reality.get(f))]

    # --- one event -----------------------------------------------------------------------------
    def perceive(self, ev) -> list:
        n = len(self.trace)
        self.feed(ev)
        return list(self.trace.events[n:])

    def feed(self, ev):
        try:
            return self._feed_one(ev)
        finally:
            self._upto.append(len(self.trace))

    def _feed_one(self, ev):
        if not ev.has_perception:
            return self._feed(ev)
        me = self.agent
        self._original = ev
        self._believed = set(ev.perceived_as[me]) | {me} if me in (ev.perceived_as or {}) else None
        try:
            if me in (ev.inattentive or ()):
                self._world_step(ev)  # present, and perceives nothing of it
                return None
            if me in ev.secret:
                return self._secretly(ev)
            return self._feed(ev)
        finally:
            self._original = self._believed = None

    def _feed(self, ev):
        me = self.agent
        kind = ev.kind
        if kind == "observe":
            values = ev.values if ev.values is not None else tuple(self._world.reality.get(tuple(f)) for f in ev.fluents)
            self._world_step(ev)
            if ev.given is not None and (me in ev.agents or (ev.witnesses and me in ev.witnesses)):
                # a conditional observation names what the world really held: only who draws it perceives it
                if me in ev.agents and self._believes(ev.given.fluent, ev.given.values):
                    return self._keep(ev, values=values)
                return None
            if me in ev.agents:
                return self._keep(ev, values=values)
            if ev.witnesses and me in ev.witnesses:
                return self._keep(ev, values=None)
            return None
        if kind == "possible":
            # kept as the agent perceived it: environments state possible changes from what observers see
            # (their conditions are weighed against the agent's own record), never from the hidden world
            self._world_step(ev)
            return self._keep(ev) if me in ev.observers else None
        if kind == "action":
            room = self._room_of(ev, ev.agent)
            seen = (me in ev.visible_to) if ev.visible_to is not None else (room is not None and me in self._present(room))
            self._world_step(ev)
            return self._keep(ev, params={}) if seen else None
        if kind in ("set", "move", "statement"):
            room = self._room_of(ev, getattr(ev, "agent", None))
            seen = me in self._present(room)
            if seen and getattr(ev, "agent", None):
                self._present_in_record((ev.agent,), room)
            self._world_step(ev)
            return self._keep(ev) if seen else None
        if kind == "enter":
            # entering a room leaves the old one: those who saw the agent there see it go
            left = tuple(sorted(a for a in ev.agents if a != me and self._world.loc.get(a) not in (None, ev.room)
                                and me in self._present(self._world.loc.get(a))))
            self._world_room_before = {a: self._world.loc.get(a) for a in left}
            self._world_step(ev)
            if me not in self._present(ev.room):
                for a in left:
                    self._present_in_record((a,), self._world_room_before.get(a))
                return self._keep(Exit(agents=left)) if left else None
            if me in ev.agents:  # arriving, the agent finds gone whoever it thought was there
                present = self._present(ev.room)
                gone = tuple(sorted(a for a, r in self._mine.loc.items() if r == ev.room and a not in present))
                if gone:  # (unnoticed if it is already there: it learns where they are not, not where they are)
                    self._unnoticed(Exit(agents=gone, room=ev.room))
            kept = self._keep(ev)
            if me in ev.agents:
                self._arrival(ev)
            elif not ev.quiet:  # everyone present looks again: what it missed in its own room (inattentive)
                present = self._present(ev.room)
                unseen = sorted(a for a in present - set(ev.agents) if self._mine.loc.get(a) != ev.room)
                if unseen:
                    self._keep(Enter(agents=tuple(unseen), room=ev.room))
                for f in self._missing(ev.room, present):
                    self._keep(Statement(predicate=f[0], subject=f[1:], value=self._world.reality[f], room=ev.room))
            return kept
        if kind == "exit":
            rooms = {self._world.loc.get(a) for a in ev.agents}
            present = set().union(*(self._present(r) for r in rooms if r is not None)) if rooms else set()
            if me in present:
                self._present_in_record(ev.agents, self._room_of_event(ev))
            self._world_step(ev)
            return self._keep(ev) if me in present else None
        self._world_step(ev)
        if kind == "tell":
            return self._keep(ev) if me == ev.sender or me in ev.recipients else None
        if kind == "announce":
            if ev.audience is not None:
                heard = me == ev.sender or me in ev.audience
            else:
                room = self._room_of(ev, ev.sender)
                heard = me == ev.sender or room is None or me in self._present(room)
            return self._keep(ev) if heard else None
        return None  # noop, noise


# Messages change beliefs, never rooms or reality: the filter's replay of the world skips them.
_BELIEF_ONLY = frozenset({"tell", "announce"})


def private_trace(trace, agent: str, policy="strict-truthful") -> Trace:
    """The private trace of ``agent``: every event of ``trace`` it perceived, masked as it perceived it."""
    meta = getattr(trace, "meta", None) or {}
    p = PrivateTrace(agent, policy, meta.get("constraints"), meta.get(ROOMS_KEY))
    for ev in trace:
        p.feed(ev)
    return p.trace


__all__ = ["PrivateTrace", "private_trace"]
