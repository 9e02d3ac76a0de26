"""Exact ToM ground truth from a global trace, for perspective chains of any length.

Semantics (DESIGN.md, "Exact ToM semantics"): every event has an observer set O, the agents in the
event's room when it happens (the actor included). When an event changes or reveals a fluent, every
chain whose agents all lie in O holds the new value; an agent entering a room observes the room's
contents together with everyone present; messages act through a trust policy.

Representation (never materialises chains): per fluent, the list of *group updates*
``(time, observer bitmask, value, event)`` in order, plus for every agent the positions of the updates
it observed. Under strict semantics a chain ``(a1..ak)`` holds the value of the latest group update
whose observer set contains ``{a1..ak}``; that update is found by intersecting the agents' position
lists: one galloping step from the end (``O(k log n)``), then, if the answer is further back, an AND of
per-agent bitsets over the fluent's updates (built lazily at query time, ``O(k n / 64)`` machine words,
so no query ever walks the history update by update). Policies that touch specific chains
(``hitom``) add chain-specific overrides with times; a query takes the later of the two. Cost per
event is proportional to the observers (and, for an entry, the fluents visible in the room), never to
the number of chains.

:func:`check` is pure: it reads the trace and returns an immutable-by-convention :class:`GroundTruth`.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Union

from belief.errors import QueryError, TraceError
from belief.formula import Formula, Stance, Var, decompose, normalize_chain
from belief.policies import ChainEffect, GroupEffect, PolicyContext, TrustPolicy, get_policy

#: how a value reached a chain
HOW_REALITY = "reality"
HOW_SEEN = "observed"          # present when it happened / was stated
HOW_ENTERED = "seen-on-entering"
HOW_TOLD = "told"              # a message, through the trust policy


def fluent_of(x) -> tuple:
    """Normalise a fluent spec: ("in", "apple"), "in apple", or "apple" (meaning ("in", "apple"))."""
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    if isinstance(x, str):
        parts = x.split()
        return ("in", parts[0]) if len(parts) == 1 else tuple(parts)
    raise QueryError(f"not a fluent: {x!r} (expected e.g. ('in', 'apple'))")


@dataclass(frozen=True)
class Provenance:
    """The update that gave a chain its value: which event, when, how, seen by whom."""

    t: int
    value: Optional[str]
    event: Any
    how: str
    observers: tuple = ()      # who observed it (group updates); for chain overrides, the chain
    chain: Optional[tuple] = None  # set for chain-specific (policy) updates

    def to_dict(self) -> dict:
        e = self.event
        return {
            "t": self.t, "value": self.value, "how": self.how, "observers": list(self.observers),
            "chain": list(self.chain) if self.chain is not None else None,
            "event": e.model_dump(mode="json", exclude_none=True) if e is not None else None,
            "text": e.describe() if e is not None else None,
        }


@dataclass(frozen=True)
class Answer:
    """The answer to one query. ``holds`` is set for closed (yes/no) queries, ``bindings`` for open ones."""

    query: str
    chain: tuple
    fluent: tuple
    stance: str                 # "believes" (the chain holds a value) or "unknown" (never observed)
    value: Optional[str]
    bindings: dict = field(default_factory=dict)
    holds: Optional[bool] = None
    provenance: Optional[Provenance] = None

    def to_dict(self) -> dict:
        return {"query": self.query, "chain": list(self.chain), "fluent": list(self.fluent), "stance": self.stance,
                "value": self.value, "bindings": dict(self.bindings), "holds": self.holds,
                "provenance": self.provenance.to_dict() if self.provenance else None}


class _FluentIndex:
    __slots__ = ("times", "masks", "values", "events", "hows", "seqs", "excl", "by_agent", "bits",
                 "real_t", "real_v", "real_e", "overrides")

    def __init__(self):
        self.times: list[int] = []
        self.masks: list[int] = []
        self.values: list = []
        self.events: list[int] = []
        self.hows: list[str] = []
        self.seqs: list[int] = []
        self.excl: dict[int, int] = {}      # position -> bit of the agent whose solo chain is excluded
        self.by_agent: dict[int, list[int]] = {}
        self.bits: dict[int, int] = {}      # lazily built bitsets of by_agent (query time only)
        self.real_t: list[int] = []
        self.real_v: list = []
        self.real_e: list[int] = []
        # chain (tuple of agent ids) -> [times, values, events, seqs, hows]
        self.overrides: dict[tuple, list] = {}


@dataclass
class _Chapter:
    participants: set = field(default_factory=set)
    exit_rank: dict = field(default_factory=dict)


class GroundTruth:
    """Queryable exact truth: any chain, any fluent, any time ``at`` (state after event ``at``)."""

    def __init__(self, trace, policy: TrustPolicy, agents: list[str], index: dict, locations: dict,
                 chapters: dict):
        self.trace = trace
        self.events = tuple(trace)
        self.policy = policy
        self.agents = tuple(agents)
        self._aid = {a: i for i, a in enumerate(agents)}
        self._index = index
        self._chapters = chapters
        self.final_locations = dict(locations)

    # --- basics ------------------------------------------------------------------------------
    @property
    def end(self) -> int:
        return len(self.events) - 1

    def fluents(self) -> list[tuple]:
        return list(self._index)

    def _at(self, at: Optional[int]) -> int:
        if at is None:
            return len(self.events) - 1
        if not isinstance(at, int):
            raise QueryError(f"'at' must be an event index, got {at!r}")
        if at < 0:  # Python-style: -1 is the last event; anything earlier than the start is "before anything"
            at = max(at + len(self.events), -1)
        return at

    def _names(self, mask: int) -> tuple:
        out = []
        i = 0
        while mask:
            if mask & 1:
                out.append(self.agents[i])
            mask >>= 1
            i += 1
        return tuple(out)

    def normalize(self, chain) -> tuple:
        if isinstance(chain, str):
            chain = (chain,)
        chain = normalize_chain(tuple(chain))
        for a in chain:
            if isinstance(a, Var):
                raise QueryError(f"variable agent {a} in a chain is not supported; name the agents")
        return chain

    # --- reality -----------------------------------------------------------------------------
    def reality(self, fluent, at: Optional[int] = None) -> Optional[str]:
        p = self._reality_prov(fluent_of(fluent), self._at(at))
        return p.value if p else None

    def _reality_prov(self, fluent: tuple, at: int) -> Optional[Provenance]:
        idx = self._index.get(fluent)
        if idx is None:
            return None
        k = bisect_right(idx.real_t, at) - 1
        if k < 0:
            return None
        e = idx.real_e[k]
        return Provenance(idx.real_t[k], idx.real_v[k], self.events[e], HOW_REALITY)

    def history(self, fluent) -> list[Provenance]:
        """Every value the fluent really had, in order (the first is the memory-question answer)."""
        idx = self._index.get(fluent_of(fluent))
        if idx is None:
            return []
        return [Provenance(t, v, self.events[e], HOW_REALITY) for t, v, e in zip(idx.real_t, idx.real_v, idx.real_e)]

    def initial(self, fluent) -> Optional[str]:
        h = self.history(fluent)
        return h[0].value if h else None

    # --- chains ------------------------------------------------------------------------------
    _GALLOP_ROUNDS = 1

    def _bitset(self, idx: _FluentIndex, aid: int) -> int:
        """The positions agent ``aid`` observed, as a Python int bitset (built lazily, cached)."""
        b = idx.bits.get(aid)
        if b is None:
            import numpy as np

            lst = idx.by_agent.get(aid)
            if not lst:
                b = 0
            else:
                arr = np.zeros(len(idx.times), dtype=bool)
                arr[np.asarray(lst, dtype=np.int64)] = True
                b = int.from_bytes(np.packbits(arr, bitorder="little").tobytes(), "little")
            idx.bits[aid] = b
        return b

    def _latest_group(self, idx: _FluentIndex, ids, smask: int, pos: int) -> int:
        """Position of the latest group update at or before ``pos`` whose observers include all ``ids``.

        A few rounds of galloping intersection of the agents' position lists (cheap when the answer is
        recent), then an exact bitset intersection (C-speed AND of per-agent bitsets over the fluent's
        updates), so a query never walks the history update by update.
        """
        by = idx.by_agent
        excl = idx.excl
        if len(ids) == 1:
            lst = by.get(ids[0])
            if not lst:
                return -1
            j = pos
            while True:
                k = bisect_right(lst, j) - 1
                if k < 0:
                    return -1
                j = lst[k]
                if excl and excl.get(j) == smask:
                    j -= 1
                    continue
                return j
        lists = []
        for a in ids:
            lst = by.get(a)
            if not lst:
                return -1
            lists.append(lst)
        j = pos
        for _ in range(self._GALLOP_ROUNDS):
            nj = j
            for lst in lists:
                k = bisect_right(lst, j) - 1
                if k < 0:
                    return -1
                c = lst[k]
                if c < nj:
                    nj = c
            if nj == j:
                return j
            j = nj
        x = (1 << (j + 1)) - 1
        for a in ids:
            x &= self._bitset(idx, a)
            if not x:
                return -1
        return x.bit_length() - 1

    def _find(self, chain: tuple, fluent: tuple, at: int):
        """(index, 'g'|'o', position) of the update that set ``chain``'s value, or None. Chain normalised."""
        idx = self._index.get(fluent)
        if idx is None:
            return None
        aid = self._aid
        ids = []
        for a in chain:
            i = aid.get(a)
            if i is None:
                return None  # an agent absent from the trace never observed anything
            ids.append(i)
        best = None
        best_seq = -1
        times = idx.times
        if not times:
            pos = -1
        elif at >= times[-1]:
            pos = len(times) - 1
        else:
            pos = bisect_right(times, at) - 1
        if pos >= 0:
            if len(ids) == 1:
                uniq = ids
                smask = 1 << ids[0]
            else:
                uniq = sorted(set(ids))
                smask = 0
                for i in uniq:
                    smask |= 1 << i
            j = self._latest_group(idx, uniq, smask, pos)
            if j >= 0:
                best_seq = idx.seqs[j]
                best = (idx, "g", j)
        if idx.overrides:
            ov = idx.overrides.get(tuple(ids))
            if ov is not None:
                k = bisect_right(ov[0], at) - 1
                if k >= 0 and ov[3][k] > best_seq:
                    best = (idx, "o", k)
        return best

    def lookup(self, chain, fluent, at: Optional[int] = None) -> Optional[Provenance]:
        """The update that gave ``chain`` its current value of ``fluent`` at time ``at`` (None: never set)."""
        chain = self.normalize(chain)
        fluent = fluent_of(fluent)
        at = self._at(at)
        if not chain:
            return self._reality_prov(fluent, at)
        found = self._find(chain, fluent, at)
        if found is None:
            return None
        idx, kind, k = found
        if kind == "g":
            return Provenance(idx.times[k], idx.values[k], self.events[idx.events[k]], idx.hows[k],
                              self._names(idx.masks[k]))
        ov = idx.overrides[tuple(self._aid[a] for a in chain)]
        return Provenance(ov[0][k], ov[1][k], self.events[ov[2][k]], ov[4][k], (), chain)

    provenance = lookup

    def value(self, chain, fluent, at: Optional[int] = None) -> Optional[str]:
        """The value ``chain`` holds for ``fluent`` (None: never observed, or observed 'nowhere')."""
        chain = self.normalize(chain)
        fluent = fluent_of(fluent)
        at = self._at(at)
        if not chain:
            p = self._reality_prov(fluent, at)
            return p.value if p else None
        found = self._find(chain, fluent, at)
        if found is None:
            return None
        idx, kind, k = found
        if kind == "g":
            return idx.values[k]
        return idx.overrides[tuple(self._aid[a] for a in chain)][1][k]

    def known(self, chain, fluent, at: Optional[int] = None) -> bool:
        return self.lookup(chain, fluent, at) is not None

    # --- yes/no ------------------------------------------------------------------------------
    def believes(self, chain, fluent, value, at: Optional[int] = None) -> bool:
        p = self.lookup(chain, fluent, at)
        return p is not None and p.value == value

    def knows(self, agent: str, fluent, perspective=(), at: Optional[int] = None) -> bool:
        """Does ``agent`` know the fluent's value, as seen from ``perspective``?

        With the empty perspective: the agent's value equals reality ("does B know where the apple is").
        With perspective ``(A,)``: A's picture of B's value equals A's own ("is A aware that B knows ...").
        """
        if not isinstance(agent, str):  # e.g. ("B",): would silently answer False
            raise QueryError(f"knows() takes one agent name, got {agent!r}; put observers in perspective=")
        if isinstance(perspective, str):
            perspective = (perspective,)
        perspective = tuple(perspective)
        mine = self.lookup(perspective + (agent,), fluent, at)
        if mine is None:
            return False
        ref = self.lookup(perspective, fluent, at)
        return ref is not None and ref.value == mine.value

    def aware_that_knows(self, a: str, b: str, fluent, at: Optional[int] = None) -> bool:
        """"Is A aware that B knows where X is": from A's perspective, B holds the value A holds."""
        return self.knows(b, fluent, perspective=(a,), at=at)

    # --- the belief language -----------------------------------------------------------------
    def answer(self, query: Union[str, Formula], at: Optional[int] = None) -> Answer:
        """Answer ``? A BELIEVE B BELIEVE apple IN ?c`` (open) or a ground fact (yes/no)."""
        if isinstance(query, str):
            from belief.grammar import parse_query

            text = query
            formula = parse_query(query)
        elif isinstance(query, Formula):
            formula = query
            text = str(query)
        else:
            raise QueryError(f"not a query: {query!r}")
        chain, stance, atom = decompose(formula)
        chain = self.normalize(chain)
        if len(atom.args) < 2:
            raise QueryError(f"{text}: a query needs a relation with a subject and a value (like apple IN ?c)")
        subject, target = atom.args[:-1], atom.args[-1]
        if any(isinstance(s, Var) for s in subject):
            raise QueryError(f"{text}: a variable subject has several answers; use answers() instead")
        fluent = (atom.pred, *subject)
        prov = self.lookup(chain, fluent, at)
        val = prov.value if prov else None
        known = prov is not None
        st = "believes" if known else "unknown"
        if isinstance(target, Var):
            if stance is not Stance.BELIEVES:
                raise QueryError(f"{text}: an open query must ask what a chain believes (no NOT/UNSURE)")
            return Answer(text, chain, fluent, st, val, {target.name: val} if known else {}, None, prov)
        if stance is Stance.BELIEVES:
            holds = known and val == target
        elif stance is Stance.BELIEVES_NOT:
            holds = known and val != target
        else:
            holds = not known
        return Answer(text, chain, fluent, st, val, {}, holds, prov)

    def answers(self, query: Union[str, Formula], at: Optional[int] = None) -> list[Answer]:
        """Every answer of a query whose subject may be a variable: ``? A BELIEVE ?o IN box``.

        One answer per fluent of the trace that matches the query's predicate and subject (variables
        bound), in a stable order; a query without variable subjects gives ``[answer(query)]``.
        """
        if isinstance(query, str):
            from belief.grammar import parse_query

            query = parse_query(query)
        chain, _, atom = decompose(query)
        subject = atom.args[:-1]
        if not any(isinstance(s, Var) for s in subject):
            return [self.answer(query, at)]
        out = []
        for fluent in sorted(self._index, key=lambda f: tuple(map(str, f))):
            if fluent[0] != atom.pred or len(fluent) - 1 != len(subject):
                continue
            binding: dict = {}
            if all((binding.setdefault(s, v) == v) if isinstance(s, Var) else s == v
                   for s, v in zip(subject, fluent[1:])):
                ans = self.answer(query.substitute(binding), at)
                ans.bindings.update({k.name: v for k, v in binding.items()})
                out.append(ans)
        return out

    # --- for explanations ----------------------------------------------------------------------
    def updates_of(self, fluent, start: int = -1, end: Optional[int] = None) -> list[Provenance]:
        """Every group update of ``fluent`` with ``start < t <= end`` (who observed what, when)."""
        idx = self._index.get(fluent_of(fluent))
        if idx is None:
            return []
        end = self._at(end)
        out = []
        for k in range(bisect_right(idx.times, start), bisect_right(idx.times, end)):
            out.append(Provenance(idx.times[k], idx.values[k], self.events[idx.events[k]], idx.hows[k],
                                  self._names(idx.masks[k])))
        return out

    def chain_updates_of(self, fluent, chain, start: int = -1, end: Optional[int] = None) -> list[Provenance]:
        """Policy updates of exactly ``chain`` for ``fluent`` with ``start < t <= end``."""
        idx = self._index.get(fluent_of(fluent))
        chain = self.normalize(chain)
        if idx is None or any(a not in self._aid for a in chain):
            return []
        ov = idx.overrides.get(tuple(self._aid[a] for a in chain))
        if ov is None:
            return []
        end = self._at(end)
        return [Provenance(ov[0][k], ov[1][k], self.events[ov[2][k]], ov[4][k], (), chain)
                for k in range(bisect_right(ov[0], start), bisect_right(ov[0], end))]

    # --- chapters (for audits) ---------------------------------------------------------------
    def chapter_info(self, chapter: int) -> dict:
        ch = self._chapters.get(chapter)
        if ch is None:
            return {"participants": [], "exit_order": []}
        return {"participants": sorted(ch.participants),
                "exit_order": [a for a, _ in sorted(ch.exit_rank.items(), key=lambda kv: kv[1])]}

    def location(self, agent: str, at: Optional[int] = None) -> Optional[str]:
        return self.reality(("at", agent), at)

    def present(self, room: str, at: Optional[int] = None) -> list[str]:
        """Agents in ``room`` after event ``at``."""
        return [a for a in self.agents if self.location(a, at) == room]


# ---------------------------------------------------------------------------------------------
# building
# ---------------------------------------------------------------------------------------------

class _Builder:
    def __init__(self, trace, policy: TrustPolicy):
        self.trace = trace
        self.policy = policy
        self.aid: dict[str, int] = {}
        self.agents: list[str] = []
        self.index: dict[tuple, _FluentIndex] = {}
        self.loc: dict[str, Optional[str]] = {}
        self.occ: dict[str, int] = {}            # room -> bitmask of agents present
        self.room_fluents: dict[str, dict] = {}  # room -> ordered set of fluents visible there
        self.fluent_room: dict[tuple, Optional[str]] = {}
        self.reality: dict[tuple, Any] = {}
        self.container_room: dict[str, str] = {}
        self.rooms: set = set()
        self.chapters: dict[int, _Chapter] = {}
        self.last_chapter: Optional[int] = None
        self.seq = 0
        self._bits_cache: dict[int, tuple] = {}
        self.all_agents: Optional[list] = None

    # -- helpers --
    def bit(self, agent: str) -> int:
        i = self.aid.get(agent)
        if i is None:
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

    def fidx(self, f: tuple) -> _FluentIndex:
        idx = self.index.get(f)
        if idx is None:
            idx = self.index[f] = _FluentIndex()
        return idx

    def group(self, f: tuple, mask: int, value, t: int, e: int, how: str, excl: int = 0):
        if not mask:
            return
        idx = self.fidx(f)
        pos = len(idx.times)
        idx.times.append(t)
        idx.masks.append(mask)
        idx.values.append(value)
        idx.events.append(e)
        idx.hows.append(how)
        idx.seqs.append(self.seq)
        self.seq += 1
        if excl:
            idx.excl[pos] = excl
        by = idx.by_agent
        for i in self.ids(mask):
            lst = by.get(i)
            if lst is None:
                by[i] = [pos]
            else:
                lst.append(pos)

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

    def set_real(self, f: tuple, value, t: int, e: int, room: Optional[str]):
        idx = self.fidx(f)
        idx.real_t.append(t)
        idx.real_v.append(value)
        idx.real_e.append(e)
        self.reality[f] = value
        old = self.fluent_room.get(f)
        if old is not None and old != room:
            self.room_fluents[old].pop(f, None)
        self.fluent_room[f] = room
        if room is not None:
            self.room_fluents.setdefault(room, {})[f] = None

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
        self.set_real(f, None, t, e, None)
        self.group(f, mask, None, t, e, HOW_SEEN)
        self.occ[room] = mask & ~self.bit(agent)
        self.loc[agent] = None

    # -- events --
    def run(self) -> GroundTruth:
        for e, ev in enumerate(self.trace):
            t = ev.t if ev.t is not None else e
            if ev.chapter is not None:
                self.last_chapter = ev.chapter
            getattr(self, "on_" + ev.kind)(ev, t, e)
        return GroundTruth(self.trace, self.policy, self.agents, self.index, self.loc, self.chapters)

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
            self.set_real(f, room, t, e, room)
            self.group(f, mask, room, t, e, HOW_SEEN)
        for f in list(self.room_fluents.get(room, ())):
            if f not in entering:
                self.group(f, mask, self.reality.get(f), t, e, HOW_ENTERED)
        if ev.chapter is not None:
            self.chapters.setdefault(ev.chapter, _Chapter()).participants.update(ev.agents)

    def on_exit(self, ev, t, e):
        for a in ev.agents:
            self.bit(a)
            where = self.loc.get(a)
            if where is None:
                self.fail(ev, f"{a} exits but is in no room")
            if ev.room is not None and ev.room != where:
                self.fail(ev, f"{a} exits the {ev.room} but is in the {where}")
            if ev.chapter is not None:
                ch = self.chapters.setdefault(ev.chapter, _Chapter())
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
        self.set_real(f, to, t, e, dest)
        self.group(f, self.occ.get(room, 0), to, t, e, HOW_SEEN)

    def on_statement(self, ev, t, e):
        room = ev.room
        if room is None:
            self.fail(ev, "a statement needs the room where it is visible")
        self.rooms.add(room)
        f = ev.fluent
        if ev.value is not None and ev.predicate == "in" and ev.value not in self.rooms:
            self.container_room[ev.value] = room
        self.set_real(f, ev.value, t, e, room)
        self.group(f, self.occ.get(room, 0), ev.value, t, e, HOW_SEEN)

    def on_set(self, ev, t, e):
        room = self.room_of_actor(ev, ev.agent)
        f = ev.fluent
        self.set_real(f, ev.value, t, e, room)
        self.group(f, self.occ.get(room, 0) if room is not None else 0, ev.value, t, e, HOW_SEEN)

    def on_observe(self, ev, t, e):
        mask = self.mask_of(ev.agents)
        for fl in ev.fluents:
            f = tuple(fl)
            if f not in self.reality:
                self.fail(ev, f"observes {' '.join(f)}, which has no value yet")
            self.group(f, mask, self.reality[f], t, e, HOW_SEEN)

    def on_action(self, ev, t, e):
        room = self.room_of_actor(ev, ev.agent)
        if ev.visible_to is not None:
            mask = self.mask_of(ev.visible_to)
        else:
            mask = self.occ.get(room, 0) if room is not None else 0
        for eff in ev.effects:
            f = eff.fluent
            self.set_real(f, eff.value, t, e, room)
            self.group(f, mask, eff.value, t, e, HOW_SEEN)

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


def check(trace, policy: Union[str, TrustPolicy, None] = "strict-truthful") -> GroundTruth:
    """The exact ground truth of ``trace`` under the trust ``policy`` (a name or a TrustPolicy)."""
    from belief.trace import Trace

    if not isinstance(trace, Trace):
        trace = Trace(trace)
    return _Builder(trace, get_policy(policy)).run()


__all__ = ["Answer", "GroundTruth", "Provenance", "check", "fluent_of", "HOW_ENTERED", "HOW_REALITY",
           "HOW_SEEN", "HOW_TOLD"]
