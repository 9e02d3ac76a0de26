"""Replay of a trace into per-fluent update lists: the data behind :class:`belief.truth.ground.GroundTruth`.

Per fluent the index keeps the list of *updates* in order, each with

* ``mask``: the agents who see the value together (every chain over them holds it);
* ``wmask``: the agents who know the update happened (``mask`` plus witnesses who did not see the value);
* ``value``: a string, ``None`` ("nowhere"), :data:`UNSURE` (a possible change) or :data:`OPAQUE`
  (the real value at that moment, which the trace does not name);
* ``change``: whether the update may have changed the fluent (a real change or a possible one);
* an optional condition (only chains that believed one of some values draw the update),
* and an optional excluded solo chain (the actor of a possible change, the speaker of a message),

plus, for every agent, the positions it observed (``by_agent``) and witnessed (``wit_by_agent``), and the
fluent's real history. The cost per event is proportional to its observers (and, for an entry, the
fluents visible in the room), never to the number of chains. An entry into a room of ``n`` agents
costs ``n`` squared (each sees where every other is), so a trace may name at most :data:`MAX_AGENTS`
agents: more is refused with a TraceError before any per-agent structure grows (10^6 agents in one event
header would otherwise take minutes and gigabytes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Optional

from belief.errors import TraceError
from belief.logic.formula import normalize_chain
from belief.logic.policies import ChainEffect, GroupEffect, PolicyContext, TrustPolicy

#: how a value reached a chain
HOW_REALITY = "reality"
HOW_SEEN = "observed"          # present when it happened / was stated
HOW_ENTERED = "seen-on-entering"
HOW_TOLD = "told"              # a message, through the trust policy
HOW_POSSIBLE = "possible-change"


class _Marker:
    """A value that is no value of the world (compared by identity, never equal to a string)."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __str__(self):
        return self.name

    def __repr__(self):
        return f"<{self.name}>"

    def __reduce__(self):
        return (_marker, (self.name,))


def _marker(name: str) -> "_Marker":
    return UNSURE if name == "unsure" else OPAQUE


#: the value a chain holds after it saw that the fluent may have changed
UNSURE = _Marker("unsure")
#: "whatever the real value was then": an observation whose value the trace does not name
OPAQUE = _Marker("unseen")


def is_marker(v) -> bool:
    return v is UNSURE or v is OPAQUE


class FluentIndex:
    __slots__ = ("times", "masks", "wmasks", "values", "events", "hows", "seqs", "changes", "excl", "conds",
                 "by_agent", "wit_by_agent", "bits", "real_t", "real_v", "real_e", "change_t", "overrides",
                 "outcomes")

    def __init__(self):
        self.times: list[int] = []
        self.masks: list[int] = []
        self.wmasks: list[int] = []
        self.values: list = []
        self.events: list[int] = []
        self.hows: list[str] = []
        self.seqs: list[int] = []
        self.changes: list[bool] = []
        self.excl: dict[int, int] = {}      # position -> bit of the agent whose solo chain is excluded
        self.conds: dict[int, tuple] = {}   # position -> (fluent, frozenset of values), or a MayCondition
        self.outcomes: dict[int, Any] = {}  # position of a possible change -> the value it gives if it happened
        self.by_agent: dict[int, list[int]] = {}
        self.wit_by_agent: dict[int, list[int]] = {}
        self.bits: dict[int, int] = {}      # lazily built bitsets of by_agent (query time only)
        self.real_t: list[int] = []
        self.real_v: list = []
        self.real_e: list[int] = []
        self.change_t: list[int] = []       # times at which the real value changed
        # chain (tuple of agent ids) -> [times, values, events, seqs, hows]
        self.overrides: dict[tuple, list] = {}


class MayCondition(tuple):
    """The conditions of a possible change: ``((fluent, frozenset of values), ...)``. A chain draws the change
    unless it can rule one of them out (its value of a condition's fluent is none of the values)."""

    __slots__ = ()


def may_condition(given) -> Optional[MayCondition]:
    if not given:
        return None
    return MayCondition((tuple(c.fluent), frozenset(c.values)) for c in given)


@dataclass
class Chapter:
    participants: set = field(default_factory=set)
    exit_rank: dict = field(default_factory=dict)


#: the most agents a trace may name (1,000 agents entering one room: about 5 s and 0.4 GB to check)
MAX_AGENTS = 1000


class IndexBuilder:
    """Replays a trace event by event (``on_<kind>``) into :class:`FluentIndex` objects."""

    def __init__(self, trace, policy: TrustPolicy):
        self.trace = trace
        self.policy = policy
        self.aid: dict[str, int] = {}
        self.agents: list[str] = []
        self.index: dict[tuple, FluentIndex] = {}
        self.loc: dict[str, Optional[str]] = {}
        self.occ: dict[str, int] = {}            # room -> bitmask of agents present
        self.room_fluents: dict[str, dict] = {}  # room -> ordered set of fluents visible there
        self.fluent_room: dict[tuple, Optional[str]] = {}
        self.reality: dict[tuple, Any] = {}
        self.container_room: dict[str, str] = {}
        self.rooms: set = set()
        self.chapters: dict[int, Chapter] = {}
        self.last_chapter: Optional[int] = None
        self.seq = 0
        self._bits_cache: dict[int, tuple] = {}
        self.all_agents: Optional[list] = None

    # -- helpers --
    def bit(self, agent: str) -> int:
        i = self.aid.get(agent)
        if i is None:
            if len(self.agents) >= MAX_AGENTS:
                raise TraceError(f"the trace names more than {MAX_AGENTS} agents (the checker's limit: its cost "
                                 f"grows with the square of the agents in a room); first one over: {agent[:40]!r}")
            i = self.aid[agent] = len(self.agents)
            self.agents.append(agent)
            self.loc[agent] = None
        return 1 << i

    def mask_of(self, agents: Iterable[str]) -> int:
        m = 0
        for a in agents:
            m |= self.bit(a)
        return m

    def ids(self, mask: int) -> tuple:
        r = self._bits_cache.get(mask)
        if r is None:
            out = []
            m, i = mask, 0
            while m:
                if m & 1:
                    out.append(i)
                m >>= 1
                i += 1
            r = self._bits_cache[mask] = tuple(out)
        return r

    def fidx(self, f: tuple) -> FluentIndex:
        idx = self.index.get(f)
        if idx is None:
            idx = self.index[f] = FluentIndex()
        return idx

    def group(self, f: tuple, mask: int, value, t: int, e: int, how: str, excl: int = 0, *,
              wmask: int = 0, change: bool = False, cond: Optional[tuple] = None):
        wmask |= mask
        if not wmask:
            return -1
        idx = self.fidx(f)
        pos = len(idx.times)
        idx.times.append(t)
        idx.masks.append(mask)
        idx.wmasks.append(wmask)
        idx.values.append(value)
        idx.events.append(e)
        idx.hows.append(how)
        idx.seqs.append(self.seq)
        idx.changes.append(change)
        self.seq += 1
        if excl:
            idx.excl[pos] = excl
        if cond is not None:
            idx.conds[pos] = cond
        for positions, m in ((idx.by_agent, mask), (idx.wit_by_agent, wmask)):
            for i in self.ids(m):
                lst = positions.get(i)
                if lst is None:
                    positions[i] = [pos]
                else:
                    lst.append(pos)
        return pos

    def chain_update(self, f: tuple, chain: tuple, value, t: int, e: int, how: str):
        chain = normalize_chain(chain)
        if not chain:
            return
        for a in chain:
            self.bit(a)
        key = tuple(self.aid[a] for a in chain)
        idx = self.fidx(f)
        ov = idx.overrides.get(key)
        if ov is None:
            ov = idx.overrides[key] = [[], [], [], [], []]
        ov[0].append(t)
        ov[1].append(value)
        ov[2].append(e)
        ov[3].append(self.seq)
        ov[4].append(how)
        self.seq += 1

    def set_real(self, f: tuple, value, t: int, e: int, room: Optional[str], *, reveal: bool = False) -> bool:
        """Record the fluent's real value; True iff that is a change (a reveal of an unknown value is not)."""
        idx = self.fidx(f)
        known = f in self.reality
        changed = (value != self.reality[f]) if known else not reveal
        idx.real_t.append(t)
        idx.real_v.append(value)
        idx.real_e.append(e)
        if changed:
            idx.change_t.append(t)
        self.reality[f] = value
        if room is not None or not reveal:
            old = self.fluent_room.get(f)
            if old is not None and old != room:
                self.room_fluents[old].pop(f, None)
            self.fluent_room[f] = room
            if room is not None:
                self.room_fluents.setdefault(room, {})[f] = None
        return changed

    def room_of_actor(self, ev, agent: Optional[str]) -> Optional[str]:
        if ev.room is not None:
            return ev.room
        if agent is None:
            return None
        self.bit(agent)
        return self.loc.get(agent)

    def fail(self, ev, msg: str):
        raise TraceError(f"{ev.where()}: {msg} (event t={ev.t}: {ev.describe()})")

    def leave(self, agent: str, t: int, e: int):
        room = self.loc.get(agent)
        if room is None:
            return
        mask = self.occ.get(room, 0)
        f = ("at", agent)
        ch = self.set_real(f, None, t, e, None)
        self.group(f, mask, None, t, e, HOW_SEEN, change=ch)
        self.occ[room] = mask & ~self.bit(agent)
        self.loc[agent] = None

    # -- events --
    def run(self):
        for e, ev in enumerate(self.trace):
            self.step(ev, e)
        return self

    def step(self, ev, e: int):
        """Replay one event at position ``e`` (``run`` does this for each event of the trace)."""
        t = ev.t if ev.t is not None else e
        if ev.chapter is not None:
            self.last_chapter = ev.chapter
        getattr(self, "on_" + ev.kind)(ev, t, e)

    def on_enter(self, ev, t, e):
        room = ev.room
        self.rooms.add(room)
        for a in ev.agents:
            self.bit(a)
            if self.loc.get(a) not in (None, room):
                self.leave(a, t, e)  # entering elsewhere implies leaving the old room
        for a in ev.agents:
            self.occ[room] = self.occ.get(room, 0) | self.bit(a)
            self.loc[a] = room
        mask = self.occ[room]
        entering = set()
        for a in ev.agents:
            f = ("at", a)
            entering.add(f)
            ch = self.set_real(f, room, t, e, room)
            self.group(f, mask, room, t, e, HOW_SEEN, change=ch)
        for f in list(self.room_fluents.get(room, ())):
            if f not in entering:
                self.group(f, mask, self.reality.get(f), t, e, HOW_ENTERED)
        if ev.chapter is not None:
            self.chapters.setdefault(ev.chapter, Chapter()).participants.update(ev.agents)

    def on_exit(self, ev, t, e):
        for a in ev.agents:
            self.bit(a)
            where = self.loc.get(a)
            if where is None:
                self.fail(ev, f"{a} exits but is in no room")
            if ev.room is not None and ev.room != where:
                self.fail(ev, f"{a} exits the {ev.room} but is in the {where}")
            if ev.chapter is not None:
                ch = self.chapters.setdefault(ev.chapter, Chapter())
                ch.exit_rank.setdefault(a, len(ch.exit_rank))
        for a in ev.agents:
            self.leave(a, t, e)

    def _actor_room(self, ev, agent):
        room = self.room_of_actor(ev, agent)
        if room is None:
            self.fail(ev, f"{agent} acts but is in no room (give the event a room or let {agent} enter first)")
        if ev.room is not None and self.loc.get(agent) != ev.room:
            self.fail(ev, f"{agent} acts in the {ev.room} but is in {self.loc.get(agent) or 'no room'}")
        return room

    def on_move(self, ev, t, e):
        room = self._actor_room(ev, ev.agent)
        to = ev.to
        if ev.to_room is not None:
            dest = ev.to_room
            self.container_room[to] = dest
        elif to in self.rooms:
            dest = to
        else:
            dest = self.container_room.setdefault(to, room)
        f = ev.fluent
        ch = self.set_real(f, to, t, e, dest)
        self.group(f, self.occ.get(room, 0), to, t, e, HOW_SEEN, change=ch)

    def on_statement(self, ev, t, e):
        room = ev.room
        if room is None:
            self.fail(ev, "a statement needs the room where it is visible")
        self.rooms.add(room)
        f = ev.fluent
        if ev.value is not None and ev.predicate == "in" and ev.value not in self.rooms:
            self.container_room[ev.value] = room
        ch = self.set_real(f, ev.value, t, e, room)
        self.group(f, self.occ.get(room, 0), ev.value, t, e, HOW_SEEN, change=ch)

    def on_set(self, ev, t, e):
        room = self.room_of_actor(ev, ev.agent)
        f = ev.fluent
        ch = self.set_real(f, ev.value, t, e, room)
        self.group(f, self.occ.get(room, 0) if room is not None else 0, ev.value, t, e, HOW_SEEN, change=ch)

    def on_observe(self, ev, t, e):
        mask = self.mask_of(ev.agents)
        wmask = self.mask_of(ev.witnesses) if ev.witnesses else 0
        cond = None
        if ev.given is not None:
            cond = (tuple(ev.given.fluent), frozenset(ev.given.values))
        values = ev.values if ev.values is not None else (None,) * len(ev.fluents)
        named = ev.values is not None
        for fl, v in zip(ev.fluents, values):
            f = tuple(fl)
            change = False
            if named and v is not None:
                # the value seen: a private trace learns reality this way; a stale record is a change
                change = self.set_real(f, v, t, e, self.fluent_room.get(f), reveal=True)
                value = v
            elif f in self.reality:
                value = self.reality[f]
            else:
                value = OPAQUE  # they saw whatever it is; the trace does not say
            self.group(f, mask, value, t, e, HOW_SEEN, wmask=wmask, change=change, cond=cond)

    def on_possible(self, ev, t, e):
        mask = self.mask_of(ev.observers)
        excl = self.bit(ev.agent) if ev.agent else 0
        cond = may_condition(getattr(ev, "given", None))
        outcomes = getattr(ev, "values", None)
        for k, fl in enumerate(ev.fluents):
            pos = self.group(tuple(fl), mask, UNSURE, t, e, HOW_POSSIBLE, excl, change=True, cond=cond)
            if outcomes is not None and outcomes[k] is not None and pos >= 0:
                self.index[tuple(fl)].outcomes[pos] = outcomes[k]

    def on_action(self, ev, t, e):
        room = self.room_of_actor(ev, ev.agent)
        if ev.visible_to is not None:
            mask = self.mask_of(ev.visible_to)
        else:
            mask = self.occ.get(room, 0) if room is not None else 0
        for eff in ev.effects:
            f = eff.fluent
            ch = self.set_real(f, eff.value, t, e, room)
            self.group(f, mask, eff.value, t, e, HOW_SEEN, change=ch)

    def on_noop(self, ev, t, e):
        self.bit(ev.agent)

    def on_noise(self, ev, t, e):
        pass

    def _context(self, ev, listeners: tuple, public: bool) -> PolicyContext:
        ch = ev.chapter if ev.chapter is not None else self.last_chapter
        info = self.chapters.get(ch) if ch is not None else None
        return PolicyContext(sender=ev.sender, listeners=listeners, public=public, chapter=ch,
                             participants=frozenset(info.participants) if info else frozenset(),
                             exit_rank=dict(info.exit_rank) if info else {})

    def _apply(self, ev, ctx: PolicyContext, t, e):
        for eff in self.policy.effects(ev, ctx):
            if isinstance(eff, GroupEffect):
                excl = self.bit(eff.except_solo) if eff.except_solo else 0
                self.group(tuple(eff.fluent), self.mask_of(eff.agents), eff.value, t, e, HOW_TOLD, excl)
            elif isinstance(eff, ChainEffect):
                self.chain_update(tuple(eff.fluent), tuple(eff.chain), eff.value, t, e, HOW_TOLD)
            else:
                self.fail(ev, f"policy {getattr(self.policy, 'name', self.policy)!r} returned {eff!r}, "
                              f"not a GroupEffect or ChainEffect")

    def on_tell(self, ev, t, e):
        self.bit(ev.sender)
        listeners = tuple(dict.fromkeys(r for r in ev.recipients if r != ev.sender))
        for r in listeners:
            self.bit(r)
        self._apply(ev, self._context(ev, listeners, False), t, e)

    def on_announce(self, ev, t, e):
        self.bit(ev.sender)
        if ev.audience is not None:
            listeners = tuple(dict.fromkeys(a for a in ev.audience if a != ev.sender))
            for a in listeners:
                self.bit(a)
        else:
            room = self.room_of_actor(ev, ev.sender)
            if room is not None:
                listeners = tuple(self.agents[i] for i in self.ids(self.occ.get(room, 0))
                                  if self.agents[i] != ev.sender)
            else:  # the sender is in no room: a public message reaches every agent of the trace
                if self.all_agents is None:
                    self.all_agents = self.trace.agents()
                listeners = tuple(a for a in self.all_agents if a != ev.sender)
                for a in listeners:
                    self.bit(a)
        self._apply(ev, self._context(ev, listeners, True), t, e)


__all__ = ["MAX_AGENTS", "FluentIndex", "MayCondition", "may_condition", "Chapter", "IndexBuilder", "UNSURE", "OPAQUE", "is_marker", "HOW_ENTERED",
           "HOW_REALITY", "HOW_SEEN", "HOW_TOLD", "HOW_POSSIBLE"]
