"""The filter: what one agent perceived of a global trace, as a private trace in the same vocabulary.

``private_trace(trace, agent)`` keeps the events the agent took part in, saw, heard or witnessed, and
masks what it did not see:

* ``observe``: kept with the values named when the agent is among the observers (and, for a conditional
  observation, when the agent itself believed the condition); kept *without* values when it only
  witnessed the observation (it knows the others looked, not what they saw); dropped otherwise;
* ``possible``: kept when the agent is an observer;
* ``action`` / ``set`` / ``move`` / ``statement`` / ``enter`` / ``exit``: kept when the agent saw them
  (``visible_to``, or present in the room), with ``params`` (metadata) dropped;
* on arriving in a room the agent sees who is already there: the filter adds an ``enter`` of those agents
  right after the agent's own (when its private trace does not already place them there), so their later
  exit, seen by the agent, is consistent in the private trace;
* ``tell`` / ``announce``: kept when the agent sent or heard them;
* ``noop`` / ``noise``: dropped.

An agent's own belief tracker can be the general checker run on its private trace: that is how the
bomb game's belief agent answers ToM questions, never from the global trace. The filter is pure; the
incremental form :class:`PrivateTrace` lets an environment hand each agent its new perceptions as it goes.
"""

from __future__ import annotations

from typing import Optional

from belief.truth.checker import check
from belief.logic.policies import get_policy
from belief.truth.trace import Enter, Exit, Statement, Trace
from belief.truth.index import IndexBuilder


class PrivateTrace:
    """Incremental filter for one agent.

    ``perceive(event)`` returns the list of events the agent's private trace gained: usually zero or one;
    more when an arrival also shows who and what was already in the room. ``feed(event)`` returns the
    first of them or None, for callers that forward one event at a time.

    Where everyone is and what the world holds come from the checker's own replay of the global trace
    (:class:`~belief.truth.index.IndexBuilder`), so the filter and the checker agree on rooms and reality.
    """

    def __init__(self, agent: str, policy="strict-truthful", constraints=None):
        self.agent = agent
        self.policy = policy
        meta = {"private_to": agent}
        if constraints:  # the world's rules are public: the private record reasons with them too
            meta["constraints"] = list(constraints)
        self.trace = Trace(meta=meta)
        self._world = IndexBuilder(None, get_policy(policy))       # the global trace, as it comes
        self._mine = IndexBuilder(self.trace, get_policy(policy))  # the private trace so far
        self._seen = 0

    # --- the world, for naming the values the agent saw ----------------------------------------
    def _world_step(self, ev) -> None:
        if ev.kind not in _BELIEF_ONLY:
            self._world.step(ev, self._seen)
        self._seen += 1

    def _present(self, room: Optional[str]) -> set:
        return {a for a, r in self._world.loc.items() if r is not None and r == room}

    def _room_of(self, ev, agent: Optional[str]) -> Optional[str]:
        if ev.room is not None:
            return ev.room
        return self._world.loc.get(agent) if agent else None

    def _keep(self, ev, **update):
        ev = self.trace.append(ev.model_copy(update={"t": None, **update}))
        if ev.kind not in _BELIEF_ONLY:
            self._mine.step(ev, ev.t)
        return ev

    def _believes(self, fluent, values) -> bool:
        truth = check(self.trace, self.policy)
        v = truth.value((self.agent,), tuple(fluent))
        if isinstance(v, str) and v in values:
            return True
        if truth.constraints is not None:  # known by elimination (docs/logic.md)
            s = truth.possible((self.agent,), tuple(fluent))
            return s is not None and bool(s) and s <= set(values)
        return False

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
        at_fluents = {("at", a) for a in present}
        missing = [f for f in self._world.room_fluents.get(room, ())
                   if f not in at_fluents and self._world.reality.get(f) is not None
                   and (self._mine.fluent_room.get(f) != room
                        or self._mine.reality.get(f) != self._world.reality.get(f))]
        for f in missing:
            self._keep(Statement(predicate=f[0], subject=f[1:], value=self._world.reality[f], room=room))

    # --- one event -----------------------------------------------------------------------------
    def perceive(self, ev) -> list:
        n = len(self.trace)
        self.feed(ev)
        return list(self.trace.events[n:])

    def feed(self, ev):
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
            seen = me in self._present(self._room_of(ev, getattr(ev, "agent", None)))
            self._world_step(ev)
            return self._keep(ev) if seen else None
        if kind == "enter":
            # entering a room leaves the old one: those who saw the agent there see it go
            left = tuple(sorted(a for a in ev.agents if a != me and self._world.loc.get(a) not in (None, ev.room)
                                and me in self._present(self._world.loc.get(a))))
            self._world_step(ev)
            if me not in self._present(ev.room):
                return self._keep(Exit(agents=left)) if left else None
            if me in ev.agents:  # arriving, the agent finds gone whoever it thought was there
                present = self._present(ev.room)
                gone = tuple(sorted(a for a, r in self._mine.loc.items() if r == ev.room and a not in present))
                if gone:
                    self._keep(Exit(agents=gone, room=ev.room))
            kept = self._keep(ev)
            if me in ev.agents:
                self._arrival(ev)
            return kept
        if kind == "exit":
            rooms = {self._world.loc.get(a) for a in ev.agents}
            present = set().union(*(self._present(r) for r in rooms if r is not None)) if rooms else set()
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


# Messages change beliefs, never rooms or reality: the filter's replays skip them.
_BELIEF_ONLY = frozenset({"tell", "announce"})


def private_trace(trace, agent: str, policy="strict-truthful") -> Trace:
    """The private trace of ``agent``: every event of ``trace`` it perceived, masked as it perceived it."""
    p = PrivateTrace(agent, policy, (getattr(trace, "meta", None) or {}).get("constraints"))
    for ev in trace:
        p.feed(ev)
    return p.trace


__all__ = ["PrivateTrace", "private_trace"]
