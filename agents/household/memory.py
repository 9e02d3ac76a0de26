"""An agent's private record in ``household_v0``: zero- and first-order beliefs from its perceived events.

The record is fed only the events the agent perceived (``infos[agent]["perceived"]``, its private trace
from :class:`belief.truth.filter.PrivateTrace`), replayed with the checker's semantics for the chains
``(me,)`` and ``(me, partner)`` under the ``strict-truthful`` policy, restricted to the fluents
``in(o)`` and ``open(c)``:

* an ``observe`` with values or a seen ``action`` effect: zero order; first order too when the partner
  observed it with me;
* a ``possible`` change: the fluent is no longer known (zero order; first order when the partner saw it);
* a ``tell``: sent by me, the partner now believes it (first order); received, I believe it and believe
  the partner does.

So ``record.zero`` equals the checker's ``value((me,), f)`` on the private trace and ``record.first`` its
``value((me, partner), f)`` wherever those are definite (tested). Besides, the record keeps what the
map tells about what was seen: the receptacles I saw (``checked``) and those the partner saw with me or
said it saw (``partner_checked``), and where I last saw the partner.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from belief.envs.household.world import FURNITURE_KINDS, SURFACE


@dataclass
class Record:
    me: str
    partner: str | None
    furniture: dict                                   # name -> (kind name, room), public
    zero: dict = field(default_factory=dict)          # ('in', o) / ('open', c) -> value
    first: dict = field(default_factory=dict)         # my model of the partner's beliefs
    checked: set = field(default_factory=set)         # receptacles whose contents I saw
    partner_checked: set = field(default_factory=set)  # receptacles the partner saw (with me, or said so)
    room: str | None = None
    partner_room: str | None = None                   # where I last saw the partner
    partner_with_me: bool = False                     # in my room, as far as I saw
    partner_seen: int = -1                            # the last step I saw the partner
    step: int = 0

    # --- reading -------------------------------------------------------------------------------
    def where(self, o: str):
        return self.zero.get(("in", o))

    def is_open(self, c: str) -> bool:
        return self.zero.get(("open", c)) == "open"

    def partner_here(self) -> bool:
        return self.partner is not None and self.partner_with_me

    # --- writing -------------------------------------------------------------------------------
    def _learn(self, fluent, value, with_partner: bool):
        if fluent[0] not in ("in", "open"):
            return
        self.zero[fluent] = value
        if with_partner:
            self.first[fluent] = value

    def _forget(self, fluent, with_partner: bool):
        self.zero.pop(fluent, None)
        if with_partner:
            self.first.pop(fluent, None)

    def _saw_room(self, agents, room: str):
        surfaces = {f for f, (kind, r) in self.furniture.items() if r == room and FURNITURE_KINDS[kind] == SURFACE}
        self.checked |= surfaces
        if self.partner in agents:
            self.partner_checked |= surfaces

    def _saw_open(self, c: str, agents):
        self.checked.add(c)
        if self.partner in agents:
            self.partner_checked.add(c)

    def feed(self, events, step: int) -> None:
        self.step = step
        if self.partner_with_me:
            self.partner_seen = step
        for ev in events:
            kind = ev.kind
            if kind == "observe":
                if ev.values is None or self.me not in ev.agents:
                    continue
                with_p = self.partner in ev.agents
                for f, v in zip(ev.fluents, ev.values):
                    f = tuple(f)
                    if f[0] == "at":
                        self._saw_at(f[1], v, ev.agents)
                    elif v is not None:
                        self._learn(f, v, with_p)
                        if f[0] == "open" and v == "open":
                            self._saw_open(f[1], ev.agents)
            elif kind == "action":
                seen_by = ev.visible_to or ()
                with_p = self.partner in seen_by
                for eff in ev.effects:
                    self._learn(eff.fluent, eff.value, with_p)
                    if eff.predicate == "open" and eff.value == "open":
                        self._saw_open(eff.subject[0], seen_by)
            elif kind == "possible":
                with_p = self.partner in ev.observers
                for f in ev.fluents:
                    self._forget(tuple(f), with_p)
            elif kind == "tell":
                for c in ev.content:
                    if ev.sender == self.me:
                        self.first[c.fluent] = c.value
                    else:
                        self._learn(c.fluent, c.value, True)
            elif kind == "exit":
                if self.partner in ev.agents:
                    self.partner_with_me = False
                if self.me in ev.agents:
                    self.partner_with_me = False
            elif kind == "enter":
                if self.me in ev.agents:
                    self.room = ev.room

    def _saw_at(self, agent: str, room: str, observers):
        if agent == self.me:
            self.room = room
            self._saw_room(observers, room)
        elif agent == self.partner:
            self.partner_room = room
            self.partner_with_me = self.me in observers
            self.partner_seen = self.step

    def snapshot(self) -> dict:
        """The definite zero-order beliefs (for scoring against the world)."""
        return {f: v for f, v in self.zero.items() if isinstance(v, str)}


__all__ = ["Record"]
