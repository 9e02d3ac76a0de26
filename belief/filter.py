"""The filter: what one agent perceived of a global trace, as a private trace in the same vocabulary.

``private_trace(trace, agent)`` keeps the events the agent took part in, saw, heard or witnessed, and
masks what it did not see:

* ``observe``: kept with the values named when the agent is among the observers (and, for a conditional
  observation, when the agent itself believed the condition); kept *without* values when it only
  witnessed the observation (it knows the others looked, not what they saw); dropped otherwise;
* ``possible``: kept when the agent is an observer;
* ``action`` / ``set`` / ``move`` / ``statement`` / ``enter`` / ``exit``: kept when the agent saw them
  (``visible_to``, or present in the room), with ``params`` (metadata) dropped;
* ``tell`` / ``announce``: kept when the agent sent or heard them;
* ``noop`` / ``noise``: dropped.

An agent's own belief tracker can be the general checker run on its private trace: that is how the
bomb game's belief agent answers ToM questions, never from the global trace. The filter is pure; the
incremental form :class:`PrivateTrace` lets an environment hand each agent its new perceptions as it goes.
"""

from __future__ import annotations

from typing import Optional

from belief.checker import check
from belief.trace import Trace


class PrivateTrace:
    """Incremental filter for one agent: ``feed(event)`` returns the perceived copy (or None)."""

    def __init__(self, agent: str, policy="strict-truthful"):
        self.agent = agent
        self.policy = policy
        self.trace = Trace(meta={"private_to": agent})
        self._loc: dict[str, Optional[str]] = {}   # room-based events: where everyone is
        self._real: dict[tuple, Optional[str]] = {}

    # --- reality, for naming the values the agent saw ------------------------------------------
    def _set(self, fluent, value):
        fluent = tuple(fluent)
        self._real[fluent] = value
        if fluent[0] == "at" and len(fluent) == 2:
            self._loc[fluent[1]] = value

    def _present(self, room: Optional[str]) -> set:
        return {a for a, r in self._loc.items() if r is not None and r == room}

    def _room_of(self, ev, agent: Optional[str]) -> Optional[str]:
        if ev.room is not None:
            return ev.room
        return self._loc.get(agent) if agent else None

    def _keep(self, ev, **update):
        ev = ev.model_copy(update={"t": None, **update})
        return self.trace.append(ev)

    def _believes(self, fluent, values) -> bool:
        v = check(self.trace, self.policy).value((self.agent,), tuple(fluent))
        return isinstance(v, str) and v in values

    # --- one event -----------------------------------------------------------------------------
    def feed(self, ev):
        me = self.agent
        kind = ev.kind
        if kind == "observe":
            values = ev.values if ev.values is not None else tuple(self._real.get(tuple(f)) for f in ev.fluents)
            if ev.values is not None:
                for f, v in zip(ev.fluents, ev.values):
                    if v is not None:
                        self._set(f, v)
            if me in ev.agents:
                sees = ev.given is None or self._believes(ev.given.fluent, ev.given.values)
                return self._keep(ev, values=values if sees else None)
            if ev.witnesses and me in ev.witnesses:
                return self._keep(ev, values=None)
            return None
        if kind == "possible":
            return self._keep(ev) if me in ev.observers else None
        if kind == "action":
            room = self._room_of(ev, ev.agent)
            seen = (me in ev.visible_to) if ev.visible_to is not None else (room is not None and me in self._present(room))
            for eff in ev.effects:
                self._set(eff.fluent, eff.value)
            if not seen:
                return None
            return self._keep(ev, params={})
        if kind in ("set", "move", "statement"):
            agent = getattr(ev, "agent", None)
            room = self._room_of(ev, agent)
            self._set(ev.fluent, ev.to if kind == "move" else ev.value)
            if me not in self._present(room):
                return None
            return self._keep(ev)
        if kind == "enter":
            for a in ev.agents:
                self._loc[a] = ev.room
            return self._keep(ev) if me in self._present(ev.room) else None
        if kind == "exit":
            rooms = {self._loc.get(a) for a in ev.agents}
            present = set().union(*(self._present(r) for r in rooms if r is not None)) if rooms else set()
            for a in ev.agents:
                self._loc[a] = None
            return self._keep(ev) if me in present else None
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


def private_trace(trace, agent: str, policy="strict-truthful") -> Trace:
    """The private trace of ``agent``: every event of ``trace`` it perceived, masked as it perceived it."""
    p = PrivateTrace(agent, policy)
    for ev in trace:
        p.feed(ev)
    return p.trace


__all__ = ["PrivateTrace", "private_trace"]
