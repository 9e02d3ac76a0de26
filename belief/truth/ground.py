"""Queries over the exact ground truth of a trace: belief of any chain, knowledge, awareness, provenance.

Semantics (README, "The logic"):

* **Belief.** A chain ``(a1..ak)`` holds the value of the latest update all of its agents observed
  together (a trust policy decides what a message writes). A possible change they saw makes it *unsure*.
* **Knowledge.** ``a`` knows a fluent iff its belief is a definite value that equals the real one (in an
  agent's private trace, ``meta["private_to"]``, the owner's own belief stands for the real value).
  Environments that state every change an agent cannot rule out as a ``possible`` event (the bomb game
  does) make this exactly "entailed by what ``a`` observed"; for traces without them (ToMi, Hi-ToM) it is
  those benchmarks' "true belief".
* **Perception that is not common knowledge.** An update whose event says who perceived it (secret
  observers, inattentive agents, hidden listeners, ``perceived_as``) reaches a chain ``(a1..ak)`` iff ``a1``
  perceived it and each next agent is one the previous believes perceived it (docs/logic.md); such updates
  keep their :class:`~belief.truth.index.Perception` and a query passes over those that do not reach it.
* **Awareness.** ``x`` is aware that ``a2..ak`` know (``knows((x, a2, .., ak))``) iff they do, and the
  latest update ``x`` knows of that touched the fluent makes the chain aware with a definite value (a joint
  observation, a message they all heard, a look by ``ak`` that ``x``, ``a2``.. observed or witnessed
  together: witnessing is joint, :func:`~belief.truth.index.credits`), not a change or possible change
  they missed. Updates ``x`` knows of that reveal the value to others only are neutral.
"""

from __future__ import annotations

import gc
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence, Union

from belief.errors import QueryError, did_you_mean
from belief.logic.formula import MAX_DEPTH, Atom, Formula, Stance, Var, decompose, normalize_chain
from belief.grammar import parse_query
from belief.logic.policies import TrustPolicy
from belief.logic.constraints import Constraints
from belief.truth.index import (HOW_REALITY, HOW_TOLD, HOWS, OPAQUE, UNSURE, FluentIndex, MayCondition, credits,
                                 is_marker)
from belief.truth.possible import Elimination
from belief.truth.trace import event_agents


#: positions per bitset block of a fluent's updates (see :meth:`GroundTruth._latest_in_blocks`)
BLOCK_BITS = 12
BLOCK_MASK = (1 << BLOCK_BITS) - 1
BLOCK_ALL = (1 << (1 << BLOCK_BITS)) - 1


#: conditions settled one inside the other before the deepest is set aside (see :meth:`GroundTruth._cond_ok`):
#: each level takes about six Python frames
COND_NESTING = 24


class _Deeper(Exception):
    """A condition nested deeper than :data:`COND_NESTING`: settled first, from the outermost level."""

    def __init__(self, key: tuple):
        self.key = key


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


def _jsonable(v):
    return str(v) if is_marker(v) else v


@dataclass(frozen=True)
class Provenance:
    """The update that gave a chain its value: which event, when, how, seen by whom."""

    t: int
    value: Any
    event: Any
    how: str
    observers: tuple = ()      # who observed it (group updates); for chain overrides, the chain
    chain: Optional[tuple] = None  # set for chain-specific (policy) updates

    def to_dict(self) -> dict:
        e = self.event
        return {
            "t": self.t, "value": _jsonable(self.value), "how": self.how, "observers": list(self.observers),
            "chain": list(self.chain) if self.chain is not None else None,
            "event": e.model_dump(mode="json", exclude_none=True) if e is not None else None,
            "text": e.describe() if e is not None else None,
        }


@dataclass(frozen=True)
class TruthAnswer:
    """The checker's answer to one query, in the store's vocabulary (:class:`belief.logic.formula.Stance`).

    ``stance`` is BELIEVES when the chain holds a value, UNSURE when it saw a possible change or never
    observed the fluent (then ``known`` is False). ``holds`` is set for closed (yes/no) queries,
    ``bindings`` for open ones.
    """

    query: str
    chain: tuple
    fluent: tuple
    stance: Stance
    value: Any  # a name, None (nowhere), or a marker such as UNSEEN
    known: bool = True
    bindings: dict = field(default_factory=dict)
    holds: Optional[bool] = None
    provenance: Optional[Provenance] = None

    def to_dict(self) -> dict:
        return {"query": self.query, "chain": list(self.chain), "fluent": list(self.fluent),
                "stance": self.stance.value, "known": self.known, "value": _jsonable(self.value),
                "bindings": {k: _jsonable(v) for k, v in self.bindings.items()}, "holds": self.holds,
                "provenance": self.provenance.to_dict() if self.provenance else None}


class GroundTruth:
    """Queryable exact truth: any chain, any fluent, any time ``at`` (state after event ``at``)."""

    _GALLOP_ROUNDS = 1

    def __init__(self, trace, policy: TrustPolicy, agents: Sequence[str], index: dict, locations: dict,
                 chapters: dict, constraints: Optional[Constraints] = None, *, events=None, aid=None):
        self.trace = trace
        #: the events this truth answers for (default: the trace's; the tracker passes a view of a prefix)
        self.events = tuple(trace) if events is None else events
        self.policy = policy
        self.agents = tuple(agents)
        self._aid = {a: i for i, a in enumerate(agents)} if aid is None else aid
        self._index: dict[tuple, FluentIndex] = index
        self._chapters = chapters
        self._locations = locations
        #: a private trace (``meta["private_to"]``) is its owner's record: the owner's beliefs stand for reality
        self.owner = (getattr(trace, "meta", None) or {}).get("private_to")
        self._trace_names: Optional[TraceNames] = None
        #: the world's rules (docs/logic.md, "Knowledge by elimination"); None: every fluent stands alone
        self.constraints = constraints if constraints else None
        self.forget()

    @classmethod
    def of_replay(cls, trace, replay, constraints: Optional[Constraints] = None) -> "GroundTruth":
        """The truth of a whole replay (:class:`~belief.truth.index.IndexBuilder` after ``run()``)."""
        return cls(trace, replay.policy, replay.agents, replay.index, dict(replay.loc), replay.chapters, constraints)

    @property
    def final_locations(self) -> dict:
        """Where each agent is after the last event (None: in no room)."""
        return dict(self._locations)

    def forget(self) -> None:
        """Drop what queries memoised (possible-value sets, met conditions): a truth whose index grew since
        (the tracker's live truth) starts afresh."""
        self._elim = Elimination(self, self.constraints) if self.constraints else None
        #: (fluent index, update, chain) -> does the chain meet the update's condition (see :meth:`_cond_ok`)
        self._conds: dict = {}
        #: (chain, condition, time) -> :meth:`_cond_holds`
        self._held_conds: dict = {}
        #: (fluent index, position, chain) -> :meth:`_latest_seen` (:meth:`_find` asks it again and again: issue 32)
        self._found: dict = {}
        self._chain_ids: dict = {}  # chain -> :meth:`_ids`, once its agents are all met
        self._nesting = 0  # conditions being settled, one inside the other

    def grow(self) -> None:
        """One event was appended (the tracker's live truth) and it named no new fluent or agent: what queries
        memoised stays true (every memo is about a time before it: updates are appended in time order), and the
        elimination budget grows by one event."""
        if self._elim is not None:
            self._elim.budget.grow(1)

    def share_memos(self, other: "GroundTruth") -> None:
        """Memoise with ``other`` (a tracker's live truth; this one, a view of a prefix of the same replay):
        every memo is keyed by the time it is about, and both answer alike at the prefix's times."""
        self._elim, self._conds, self._found = other._elim, other._conds, other._found
        self._held_conds = other._held_conds

    # --- basics ------------------------------------------------------------------------------
    @property
    def end(self) -> int:
        return len(self.events) - 1

    def fluents(self) -> list[tuple]:
        return list(self._index)

    def _at(self, at: Optional[int]) -> int:
        if at is None:
            return len(self.events) - 1
        if not isinstance(at, int) or isinstance(at, bool):
            raise QueryError(f"'at' must be an event index, got {at!r}")
        if at < 0:  # Python-style: -1 is the last event; anything earlier than the start is "before anything"
            at = max(at + len(self.events), -1)
        return at

    def checked_at(self, at: Optional[int]) -> int:
        """:meth:`_at` for a time a user gave: QueryError unless it names an event of the trace (or -1 - n,
        "before anything", for a trace of n events)."""
        n = len(self.events)
        if at is not None and isinstance(at, int) and not isinstance(at, bool) and not -n - 1 <= at < n:
            raise QueryError(f"at={at} is out of range: the trace has {n} event(s), so at is 0..{n - 1} "
                             f"(or -{n + 1}..-1 counting from the end)")
        return self._at(at)

    def trace_names(self) -> "TraceNames":
        """The names the trace mentions, read once (:class:`TraceNames`)."""
        if self._trace_names is None:
            names = TraceNames()
            names.add_agents(self.agents)
            if self.owner is not None:
                names.add_names((self.owner,))
            names.add_fluents(self._index)
            names.add_events(self.events)
            self._trace_names = names
        return self._trace_names

    def vocabulary(self) -> frozenset:
        """Every name the trace mentions (agents, rooms, predicates, entities, values), for query checks."""
        return self.trace_names().frozen()[1]

    def check_query_names(self, chain: tuple, atom: Atom) -> None:
        """QueryError for a name the trace never mentions: ``no such agent 'Aliec' (did you mean 'Alice'?)``.

        The checker answers any chain and fluent (a silent "unknown" for a typo); queries from people go
        through here first so that a misspelt name is an error, not an answer.
        """
        agents, vocab, predicates = self.trace_names().frozen()
        for a in dict.fromkeys(chain):
            if a not in agents:
                if a in vocab:
                    raise QueryError(f"{a!r} is not an agent of this trace (agents: {', '.join(sorted(agents))})")
                raise QueryError(f"no such agent {a!r}{did_you_mean(a, agents)}")
        if atom.pred not in predicates:
            raise QueryError(f"no such predicate {atom.pred!r}{did_you_mean(atom.pred, predicates)} in this trace")
        for x in atom.args:
            if not isinstance(x, Var) and x not in vocab:
                raise QueryError(f"no such entity {x!r}{did_you_mean(x, vocab - agents)}")

    def _names(self, mask: int) -> tuple:
        out = []
        i = 0
        while mask:
            if mask & 1:
                out.append(self.agents[i])
            mask >>= 1
            i += 1
        return tuple(out)

    def _perceivers(self, idx: FluentIndex, k: int) -> tuple:
        """Who perceived group update ``k`` (its observers, less the inattentive, plus secret observers)."""
        perc = idx.percs.get(k) if idx.percs else None
        return self._names(idx.masks[k] if perc is None else idx.masks[k] & perc.perceivers)

    def normalize(self, chain) -> tuple:
        if isinstance(chain, str):
            chain = (chain,)
        chain = normalize_chain(tuple(chain))
        if len(chain) > MAX_DEPTH:  # knows_chain recurses per agent; formulas stop at the same depth
            raise QueryError(f"a chain of {len(chain)} agents is longer than the limit {MAX_DEPTH}")
        for a in chain:
            if isinstance(a, Var):
                raise QueryError(f"variable agent {a} in a chain is not supported; name the agents")
        return chain

    # --- reality -----------------------------------------------------------------------------
    def reality(self, fluent, at: Optional[int] = None) -> Optional[str]:
        p = self._reality_prov(fluent_of(fluent), self._at(at))
        return p.value if p else None

    def has_value(self, fluent, at: Optional[int] = None) -> bool:
        """Does the trace give the fluent a real value at ``at`` (None counts: "nowhere")?"""
        return self._reality_prov(fluent_of(fluent), self._at(at)) is not None

    def _reality_prov(self, fluent: tuple, at: int) -> Optional[Provenance]:
        idx = self._index.get(fluent)
        if idx is None:
            return None
        k = bisect_right(idx.real_t, at) - 1
        if k < 0:
            return None
        e = idx.real_e[k]
        return Provenance(idx.real_t[k], idx.real_v[k], self.events[e], HOW_REALITY)

    def _actual(self, fluent: tuple, at: int, eliminate: bool = True) -> Optional[Provenance]:
        """What stands for the real value in knowledge: the trace's reality, or in a private trace its owner's
        own belief (what it saw *and was told*: messages never write a private trace's reality), else, with
        ``eliminate``, the one value elimination leaves the owner (docs/logic.md, "Private traces")."""
        if self.owner is not None and self.owner in self._aid:
            ref = self.lookup((self.owner,), fluent, at)
            if ref is not None and not is_marker(ref.value):
                return ref
            if eliminate and self._elim is not None and self.constraints is not None and self.constraints.constrained(fluent):
                s = self._elim.possible((self.owner,), fluent, at)
                if s is not None and len(s) == 1:
                    return Provenance(at, next(iter(s)), None, HOW_REALITY)
        return self._reality_prov(fluent, at)

    def _actual_values(self, fluent: tuple, at: int, eliminate: bool = True) -> Optional[frozenset]:
        """The values that may stand for the real one (None: any). On a global trace, or where :meth:`_actual`
        finds one, that one value (``{None}``: the fluent has none). In a private trace whose owner holds no
        value of the fluent it is the owner's possible set (with ``eliminate``; else any): the owner does not
        know the value, so what stands for it is any value it cannot rule out, never "none" (docs/logic.md,
        "Private traces")."""
        real = self._actual(fluent, at, eliminate)
        if real is not None:
            return frozenset((real.value,))
        if self.owner is None or self.owner not in self._aid:
            return frozenset((None,))
        return self._owner_possible(fluent, at, eliminate)

    def _owner_possible(self, fluent: tuple, at: int, eliminate: bool = True) -> Optional[frozenset]:
        """A private trace's owner's possible values of ``fluent`` (None: any; without ``eliminate``, any)."""
        if eliminate and self._elim is not None and self.constraints is not None and self.constraints.constrained(fluent):
            return self._elim.possible((self.owner,), fluent, at)
        return None

    def changed_between(self, fluent, start: int, end: int) -> bool:
        """Did the fluent's real value change at some time in ``(start, end]``?"""
        idx = self._index.get(fluent_of(fluent))
        if idx is None:
            return False
        return bisect_right(idx.change_t, end) > bisect_right(idx.change_t, start)

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
    def _latest_group(self, idx: FluentIndex, ids, smask: int, pos: int) -> int:
        """Position of the latest group update at or before ``pos`` whose observers include all ``ids``.

        A few rounds of galloping intersection of the agents' position lists (cheap when the answer is
        recent), then an exact bitset intersection (C-speed AND of per-agent bitset blocks, from the block of
        ``pos`` backwards), so a query never walks the history update by update. The answer for an earlier
        position of the same agents (``idx.common``) settles everything up to it: a position written is never
        rewritten, so only what came after it is read.
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
        memo = idx.common.get(smask)
        if memo is not None and memo[0] == pos:
            return memo[1]  # asked at this very position before
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
        if j < 0:
            return -1
        if memo is None or memo[0] > pos:
            found = self._latest_in_blocks(idx, ids, j, -1)
        elif j <= memo[0]:  # nothing they observed together in (j, pos]: the answer at memo[0] stands
            found = memo[1]
        else:
            found = self._latest_in_blocks(idx, ids, j, memo[0])
            if found <= memo[0]:
                found = memo[1]
        if memo is None or pos > memo[0]:
            idx.common[smask] = (pos, found)
        return found

    def _latest_in_blocks(self, idx: FluentIndex, ids, j: int, floor: int) -> int:
        """The latest position ``<= j`` all of ``ids`` observed, reading the bitset blocks from ``j``'s down to
        ``floor``'s (-1 if none there; a result ``<= floor`` only says "nothing after ``floor``").

        The blocks: the positions each agent observed, as bitset blocks of :data:`BLOCK_BITS` positions (Python
        ints), built lazily and kept per agent with the number of positions folded in, so an index that keeps
        growing (:class:`belief.truth.tracker.Tracker`) only folds in the positions appended since: each
        position is folded once, and a query reads the blocks it needs, not the whole history."""
        bits = idx.bits
        by = idx.by_agent
        blocks = []
        b = j >> BLOCK_BITS
        top = (1 << ((j & BLOCK_MASK) + 1)) - 1
        for a in ids:
            entry = bits.get(a)
            if entry is None:
                entry = bits[a] = [0, []]
            bl = entry[1]
            lst = by[a]
            n = len(lst)
            if entry[0] < n:
                for k in range(entry[0], n):
                    p = lst[k]
                    q = p >> BLOCK_BITS
                    while len(bl) <= q:
                        bl.append(0)
                    bl[q] |= 1 << (p & BLOCK_MASK)
                entry[0] = n
            if len(bl) <= b:  # the agent observed nothing in j's block or later
                b, top = len(bl) - 1, BLOCK_ALL
            blocks.append(bl)
        stop = floor >> BLOCK_BITS if floor >= 0 else 0
        while b >= stop:  # from the block of j backwards: one AND per agent and block
            x = top
            for bl in blocks:
                x &= bl[b]
                if not x:
                    break
            if x:
                return (b << BLOCK_BITS) + x.bit_length() - 1
            b -= 1
            top = BLOCK_ALL
        return -1

    def _ids(self, chain: tuple):
        """The chain's agent ids (a list: read it, never change it), None when one is absent from the trace.
        Kept per chain once all are met (an agent's id never changes)."""
        try:
            ids = self._chain_ids.get(chain)
        except TypeError:  # a chain given as a list: not kept
            ids = None
        if ids is not None:
            return ids
        ids = []
        for a in chain:
            i = self._aid.get(a)
            if i is None:
                return None  # an agent absent from the trace never observed anything
            ids.append(i)
        if isinstance(chain, tuple):
            self._chain_ids[chain] = ids
        return ids

    def _cond_ok(self, idx: FluentIndex, j: int, chain: tuple) -> bool:
        """Did ``chain`` last hold (before update ``j``) one of the condition's values? A possible change
        since does not erase what it last saw. Memoised: the answer reads only what happened before update
        ``j`` (a chain's conditions nest back through the history, each asked again and again).

        Conditions nest as deep as the trace makes them (a condition on a fluent whose updates are
        conditional, and so on back), so they are not settled by plain recursion: beyond
        :data:`COND_NESTING` levels the condition asked is set aside (:class:`_Deeper`), settled from the
        outermost level, and the one that needed it asked again, now memoised. The stack stays shallow and
        each condition is settled once."""
        cond = idx.conds.get(j)
        if cond is None:
            return True
        key = (idx, j, chain)
        ok = self._conds.get(key)
        if ok is not None:
            return ok
        if self._nesting:
            if self._nesting >= COND_NESTING:
                raise _Deeper(key)
            return self._settle(key)
        todo = [key]  # the outermost condition: settle what it needs, deepest first
        while todo:
            try:
                self._settle(todo[-1])
            except _Deeper as deeper:
                todo.append(deeper.key)
            else:
                todo.pop()
        return self._conds[key]

    def _settle(self, key: tuple) -> bool:
        idx, j, chain = key
        held = (chain, idx.conds[j], idx.times[j] - 1)  # one event's updates of several fluents share it
        ok = self._held_conds.get(held)
        if ok is None:
            self._nesting += 1
            try:
                ok = self._held_conds[held] = self._cond_holds(*held)
            finally:
                self._nesting -= 1
        self._conds[key] = ok
        return ok

    def _cond_holds(self, chain: tuple, cond, before: int) -> bool:
        if isinstance(cond, MayCondition):
            return all(self._may_hold(chain, g, values, before) for g, values in cond)
        return self.draws(chain, cond[0], cond[1], before)

    def draws(self, chain: tuple, g: tuple, values, before: int) -> bool:
        """Does ``chain`` draw an observation conditional on ``g`` having one of ``values`` just after event
        ``before``: it last held one of them (a possible change since does not erase what it saw), or its
        possible set lies inside them. The filter asks the same of an agent's record (docs/logic.md)."""
        values = frozenset(values)
        if self._sure_held(chain, g, values, before):
            return True
        if self._elim is not None and self.constraints is not None and self.constraints.constrained(g) and before >= 0:
            s = self._elim.possible(chain, g, before)
            return s is not None and bool(s) and s <= values
        return False

    def _may_hold(self, chain: tuple, g: tuple, values: frozenset, before: int) -> bool:
        """Can ``chain`` not rule out that ``g`` had one of ``values`` just before (the condition of a
        possible change)? Its definite value decides; without one, its possible values do."""
        found = self._find(chain, g, before) if before >= 0 else None
        if found is not None:
            gidx, kind, k = found
            if kind == "g":
                v = gidx.values[k]
                if v is not UNSURE:
                    v = self._resolve(g, v, gidx.times[k], before)
            else:
                v = gidx.overrides[tuple(self._aid[a] for a in chain)][1][k]
            if isinstance(v, str):
                return v in values
        if self._elim is not None and self.constraints is not None and self.constraints.constrained(g) and before >= 0:
            s = self._elim.possible(chain, g, before)
            return s is None or bool(s & values)
        return True

    def _sure_held(self, chain: tuple, g: tuple, values: frozenset, before: int) -> bool:
        while before >= 0:
            found = self._find(chain, g, before)
            if found is None:
                return False
            gidx, kind, k = found
            if kind == "g":
                if gidx.values[k] is UNSURE:
                    before = gidx.times[k] - 1
                    continue
                v = self._resolve(g, gidx.values[k], gidx.times[k], before)
            else:
                v = gidx.overrides[tuple(self._aid[a] for a in chain)][1][k]
            return v is not None and not is_marker(v) and v in values
        return False

    def _find(self, chain: tuple, fluent: tuple, at: int):
        """(index, 'g'|'o', position) of the update that set ``chain``'s value, or None. Chain normalised."""
        idx = self._index.get(fluent)
        if idx is None:
            return None
        ids = self._ids(chain)
        if ids is None:
            return None
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
            key = (idx, pos, chain)
            j = self._found.get(key)
            if j is None:
                j = self._found[key] = self._latest_seen(idx, ids, chain, pos)
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

    def _latest_seen(self, idx: FluentIndex, ids, chain: tuple, pos: int) -> int:
        """:meth:`_find`'s group update: the latest at or before position ``pos`` that reaches the chain (-1:
        none). It reads only updates up to ``pos`` and met conditions, so :meth:`_find` keeps it per position."""
        if len(ids) == 1:
            uniq = ids
            smask = 1 << ids[0]
        else:
            uniq = sorted(set(ids))
            smask = 0
            for i in uniq:
                smask |= 1 << i
        j = self._latest_group(idx, uniq, smask, pos)
        percs = idx.percs
        found = self._found
        passed = []  # updates of them all that do not reach the chain: the answer at each is the one found here
        while j >= 0:
            known = found.get((idx, j, chain))
            if known is not None:
                j = known
                break
            if not ((percs and j in percs and not percs[j].reaches(ids))
                    or (idx.conds and not self._cond_ok(idx, j, chain))):
                break
            passed.append(j)
            j = self._latest_group(idx, uniq, smask, j - 1)
        for k in passed:
            found[(idx, k, chain)] = j
        return j

    def _resolve(self, fluent: tuple, value, t_u: int, at: int):
        """An OPAQUE value names the real value at ``t_u`` when the trace knows it."""
        if value is not OPAQUE:
            return value
        if not self.changed_between(fluent, t_u, at):
            p = self._reality_prov(fluent, at)
        else:
            p = self._reality_prov(fluent, t_u)
        return p.value if p is not None else OPAQUE

    def lookup(self, chain, fluent, at: Optional[int] = None) -> Optional[Provenance]:
        """The update that gave ``chain`` its current value of ``fluent`` at time ``at`` (None: never set).

        The value is a string, None ("nowhere"), :data:`UNSURE` (a possible change since) or
        :data:`OPAQUE` (an observation whose value the trace does not name).
        """
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
            v = self._resolve(fluent, idx.values[k], idx.times[k], at)
            return Provenance(idx.times[k], v, self.events[idx.events[k]], HOWS[idx.hows[k]],
                              self._perceivers(idx, k))
        ov = idx.overrides[tuple(self._aid[a] for a in chain)]
        return Provenance(ov[0][k], ov[1][k], self.events[ov[2][k]], ov[4][k], (), chain)

    provenance = lookup

    def formed(self, how: str, t: int, e: int) -> int:
        """When the belief an update gives was formed: a sighting when it happened; a message when its sender
        formed its claims (the message's ``as_of``, public: the recipients know when it was posted), else when
        it is delivered."""
        if how == HOW_TOLD:
            as_of = getattr(self.events[e], "as_of", None)
            if as_of is not None and as_of < t:
                return as_of
        return t

    def _held_update(self, chain: tuple, fluent: tuple, at: int) -> Optional[tuple]:
        """``(t, how, event, value)`` of the update :meth:`lookup` finds for a normalised chain (None: none)."""
        found = self._find(chain, fluent, at)
        if found is None:
            return None
        idx, kind, k = found
        if kind == "g":
            t_u = idx.times[k]
            return t_u, HOWS[idx.hows[k]], idx.events[k], self._resolve(fluent, idx.values[k], t_u, at)
        ov = idx.overrides[tuple(self._aid[a] for a in chain)]
        return ov[0][k], ov[4][k], ov[2][k], ov[1][k]

    def _held_formed(self, chain: tuple, fluent: tuple, at: int) -> Optional[tuple]:
        """``(formed, value)``: :meth:`_held` with the time the belief was formed (:meth:`formed`)."""
        u = self._held_update(chain, fluent, at)
        return None if u is None else (self.formed(u[1], u[0], u[2]), u[3])

    def _held(self, chain: tuple, fluent: tuple, at: int) -> Optional[tuple]:
        """``(t, value)`` of :meth:`lookup` for a normalised chain, without building its provenance."""
        u = self._held_update(chain, fluent, at)
        return None if u is None else (u[0], u[3])

    def value(self, chain, fluent, at: Optional[int] = None):
        """The value ``chain`` holds for ``fluent`` (None: never observed, or observed 'nowhere'): the value of
        :meth:`lookup`, without building its provenance (who perceived the update: a tenth of a query)."""
        chain = self.normalize(chain)
        fluent = fluent_of(fluent)
        at = self._at(at)
        if not chain:
            p = self._reality_prov(fluent, at)
            return p.value if p is not None else None
        u = self._held_update(chain, fluent, at)
        return None if u is None else u[3]

    def known(self, chain, fluent, at: Optional[int] = None) -> bool:
        """Does the chain hold a value (not unsure, not never observed)?"""
        p = self.lookup(chain, fluent, at)
        return p is not None and p.value is not UNSURE

    # --- yes/no ------------------------------------------------------------------------------
    def believes(self, chain, fluent, value, at: Optional[int] = None) -> bool:
        p = self.lookup(chain, fluent, at)
        return p is not None and p.value == value

    def knows(self, agent: str, fluent, perspective=(), at: Optional[int] = None) -> bool:
        """Does ``agent`` know the fluent's current value (as seen from ``perspective``)?

        ``knows("B", f)``: B's belief is definite and true. ``knows("B", f, perspective=("A",))``: A is
        aware that B knows (see :meth:`knows_chain`).
        """
        if not isinstance(agent, str):  # e.g. ("B",): would silently answer False
            raise QueryError(f"knows() takes one agent name, got {agent!r}; put observers in perspective=")
        if isinstance(perspective, str):
            perspective = (perspective,)
        return self.knows_chain(tuple(perspective) + (agent,), fluent, at)

    def aware_that_knows(self, a: str, b: str, fluent, at: Optional[int] = None) -> bool:
        """"Is A aware that B knows F": B knows F, and A's observations entail that B does."""
        return self.knows_chain((a, b), fluent, at)

    def knows_chain(self, chain, fluent, at: Optional[int] = None) -> bool:
        """``a1`` knows that ``a2`` knows that ... ``ak`` knows the fluent's current value."""
        chain = self.normalize(chain)
        if not chain:
            raise QueryError("knows_chain needs at least one agent")
        return self._kw(chain, fluent_of(fluent), self._at(at))

    def possible(self, chain, fluent, at: Optional[int] = None) -> Optional[frozenset]:
        """The values of ``fluent`` that ``chain``'s observations and the world's constraints have not ruled
        out after event ``at`` (docs/logic.md, "Knowledge by elimination"). One value: the chain knows it
        (when it is the real one). ``None``: any value (no constraint gives the fluent a domain)."""
        chain = self.normalize(chain)
        if not chain:
            raise QueryError("possible needs at least one agent")
        fluent = fluent_of(fluent)
        at = self._at(at)
        if self._elim is not None and self.constraints is not None and self.constraints.constrained(fluent):
            return self._elim.possible(chain, fluent, at)
        if self._kw_direct(chain, fluent, at):
            real = self._actual_values(fluent, at, eliminate=False)
            if real is not None:
                return real
        return self.constraints.domain(fluent) if self.constraints else None

    def _kw(self, chain: tuple, fluent: tuple, at: int) -> bool:
        """Knowledge (docs/logic.md). Without rules for the fluent: the chain's own records
        (:meth:`_kw_direct`). With them: one agent knows when one value remains in its possible set and it is
        the real one (its records say so directly, or elimination does); a deeper chain ``(x, a2, ..)`` when
        ``x`` is aware by its records, or one value remains for the chain and ``a2..`` know. Either way a chain
        that holds a definite value other than the real one does not know (knowledge implies belief of the
        true value, at every order), nor one whose later-formed beliefs contradict the value through the rules."""
        el = self._elim
        if el is None or self.constraints is None or not self.constraints.constrained(fluent):
            return self._kw_direct(chain, fluent, at) and not (len(chain) > 1
                                                               and self._believes_otherwise(chain, fluent, at))
        key = (chain, fluent, at)
        kw = el.known.get(key)
        if kw is None:
            paused = gc.isenabled()  # (see Elimination.possible: only a pause begun here is ended here)
            if paused:
                gc.disable()
            try:
                kw = el.known[key] = self._kw_eliminated(chain, fluent, at)
            finally:
                if paused:
                    gc.enable()
        return kw

    def _kw_eliminated(self, chain: tuple, fluent: tuple, at: int) -> bool:
        """:meth:`_kw` of a constrained fluent, not memoised yet."""
        el = self._elim
        assert el is not None
        if len(chain) == 1:  # (a value seen but not named, OPAQUE, is known directly; a message posted
            # before possible changes the chain saw since is weighed by elimination only)
            kw = el.knows(chain, fluent, at) or (self._kw_direct(chain, fluent, at)
                                                 and not self._told_earlier(chain, fluent, at))
        else:
            kw = self._kw_direct(chain, fluent, at) or (el.knows(chain, fluent, at)
                                                        and self._kw(chain[1:], fluent, at))
        return kw and not self._believes_otherwise(chain, fluent, at) and not el.defeated(chain, fluent, at)

    def _told_earlier(self, chain: tuple, fluent: tuple, at: int) -> bool:
        """Is the chain's value from a message whose claims were formed before it was delivered (``as_of``)?"""
        p = self._held_formed(chain, fluent, at)
        held = self._held(chain, fluent, at)
        return p is not None and held is not None and p[0] != held[0]

    def _believes_otherwise(self, chain: tuple, fluent: tuple, at: int) -> bool:
        """Does ``chain`` hold a definite value other than the real one (a false or stale message)? Then it does
        not know, by its records or by elimination: knowledge is factive, and implies belief of the true value.
        In a private trace whose owner does not know the value, only a value the owner rules out is "other"."""
        p = self.lookup(chain, fluent, at)
        if p is None or is_marker(p.value):
            return False
        real = self._actual(fluent, at)
        if real is not None:
            if p.value == real.value:
                return False
        elif self.owner is not None and self.owner in self._aid:
            can_be = self._owner_possible(fluent, at)
            if can_be is None or p.value in can_be:
                return False
        return len(chain) == 1 or not self._looked_since(chain, fluent, p.t, at)

    def _looked_since(self, chain: tuple, fluent: tuple, since: int, at: int) -> bool:
        """For ``(x, a2, .., ak)``: did an update after ``since`` (when the chain's belief was delivered) make the
        chain aware that ``ak`` saw the fluent with a definite value (a look ``x``, ``a2``.. observed or witnessed
        together, :func:`~belief.truth.index.credits`)? Then ``x``'s record of what they believe is older than
        what it knows they saw since: it holds no belief about what they saw (docs/logic.md, "Awareness")."""
        idx = self._index.get(fluent)
        ids = self._ids(chain)
        if idx is None or ids is None:
            return False
        smask = 0
        for i in ids[1:]:
            smask |= 1 << i
        wlist: Sequence[int] = idx.wit_by_agent.get(ids[0]) or ()
        k = bisect_right(wlist, bisect_right(idx.times, at) - 1) - 1
        while k >= 0 and idx.times[wlist[k]] > since:
            j = wlist[k]
            k -= 1
            if (idx.values[j] is not UNSURE and HOWS[idx.hows[j]] != HOW_TOLD and idx.excl.get(j) != smask
                    and credits(idx, j, ids) and (j not in idx.conds or self._cond_ok(idx, j, chain))):
                return True
        return False

    def _kw_direct(self, chain: tuple, fluent: tuple, at: int) -> bool:
        idx = self._index.get(fluent)
        if idx is None:
            return False
        if len(chain) == 1:
            found = self._find(chain, fluent, at)
            if found is None:
                return False
            _, kind, k = found
            if kind == "g":
                raw, t_u = idx.values[k], idx.times[k]
            else:
                ov = idx.overrides[tuple(self._aid[a] for a in chain)]
                raw, t_u = ov[1][k], ov[0][k]
            if raw is UNSURE:
                return False
            if raw is OPAQUE:  # they saw it: still true unless it changed since
                return not self.changed_between(fluent, t_u, at)
            real = self._actual(fluent, at, eliminate=False)
            return real is not None and real.value == raw
        if not self._kw(chain[1:], fluent, at):
            return False
        ids = self._ids(chain)
        if ids is None:
            return False
        a1 = ids[0]
        smask = 0
        for i in ids[1:]:
            smask |= 1 << i
        wlist = idx.wit_by_agent.get(a1)
        if not wlist:
            return False
        times = idx.times
        k = bisect_right(wlist, bisect_right(times, at) - 1) - 1
        while k >= 0:
            j = wlist[k]
            k -= 1
            if idx.excl.get(j) == smask and idx.values[j] is UNSURE:
                continue  # the rest's own possible change: it knows what it did (only a change it missed counts)
            # does the update make the chain aware (the last agent saw it; the others, a1 included, knew of it
            # together, in each one's view)?
            seen = credits(idx, j, ids) and (idx.excl.get(j) != smask or self._spoke_truly(idx, j, fluent))
            if seen and self._cond_ok(idx, j, chain):
                return idx.values[j] is not UNSURE
            if idx.changes[j] and (j not in idx.conds or self._cond_ok(idx, j, chain)):
                return False
        return False

    def _spoke_truly(self, idx: FluentIndex, j: int, fluent: tuple) -> bool:
        """Update ``j`` is a message whose excluded solo chain is its sender: under a policy whose senders are
        truthful, a sender that said the real value knew it (what its hearers are aware of)."""
        if HOWS[idx.hows[j]] != HOW_TOLD or not getattr(self.policy, "senders_know", False):
            return False
        real = self._reality_prov(fluent, idx.times[j])
        return real is not None and real.value == idx.values[j]

    # --- the belief language -----------------------------------------------------------------
    def answer(self, query: Union[str, Formula], at: Optional[int] = None) -> TruthAnswer:
        """Answer ``? A BELIEVE B BELIEVE apple IN ?c`` (open) or a ground fact (yes/no)."""
        if isinstance(query, str):
            text = query
            formula = parse_query(query)
        elif isinstance(query, Formula):
            formula = query
            text = str(query)
        else:
            raise QueryError(f"not a query: {query!r}")
        chain, stance, atom = decompose(formula)
        chain = self.normalize(chain)
        self.check_query_names(chain, atom)
        at = self.checked_at(at)
        if len(atom.args) < 2:
            raise QueryError(f"{text}: a query needs a relation with a subject and a value (like apple IN ?c)")
        subject, target = atom.args[:-1], atom.args[-1]
        if any(isinstance(s, Var) for s in subject):
            raise QueryError(f"{text}: a variable subject has several answers; use answers() instead")
        fluent = (atom.pred, *subject)
        prov = self.lookup(chain, fluent, at)
        val = prov.value if prov else None
        held = prov is not None and val is not UNSURE
        st = Stance.BELIEVES if held else Stance.UNSURE
        shown = val if held else None
        if isinstance(target, Var):
            if stance is not Stance.BELIEVES:
                raise QueryError(f"{text}: an open query must ask what a chain believes (no NOT/UNSURE)")
            return TruthAnswer(text, chain, fluent, st, shown, prov is not None,
                               {target.name: shown} if held else {}, None, prov)
        if stance is Stance.BELIEVES:
            holds = held and val == target
        elif stance is Stance.BELIEVES_NOT:
            holds = held and val != target and val is not OPAQUE
        else:
            holds = not held
        return TruthAnswer(text, chain, fluent, st, shown, prov is not None, {}, holds, prov)

    def answers(self, query: Union[str, Formula], at: Optional[int] = None) -> list[TruthAnswer]:
        """Every answer of a query whose subject may be a variable: ``? A BELIEVE ?o IN box``.

        One answer per fluent of the trace that matches the query's predicate and subject (variables
        bound), in a stable order; a query without variable subjects gives ``[answer(query)]``.
        """
        formula: Formula = parse_query(query) if isinstance(query, str) else query
        chain, _, atom = decompose(formula)
        self.check_query_names(self.normalize(chain), atom)
        at = self.checked_at(at)
        subject = atom.args[:-1]
        if not any(isinstance(s, Var) for s in subject):
            return [self.answer(formula, at)]
        out = []
        for fluent in sorted(self._index, key=lambda f: tuple(map(str, f))):
            if fluent[0] != atom.pred or len(fluent) - 1 != len(subject):
                continue
            binding: dict = {}
            if all((binding.setdefault(s, v) == v) if isinstance(s, Var) else s == v
                   for s, v in zip(subject, fluent[1:])):
                ans = self.answer(formula.substitute(binding), at)
                ans.bindings.update({k.name: v for k, v in binding.items()})
                out.append(ans)
        return out

    # --- for explanations ----------------------------------------------------------------------
    def why_missed(self, chain, fluent, t: int) -> Optional[tuple]:
        """Why no update of ``fluent`` at event ``t`` reached ``chain`` (None: one did), as
        ``(reason, agent, other)``: ``"unseen"`` (nobody perceived it), ``"absent"`` (``agent`` did not observe
        it), ``"inattentive"`` (``agent`` was there and missed it), ``"unaware"`` (``agent`` does not believe
        ``other`` perceived it: ``other`` peeked secretly, was left out of ``agent``'s ``perceived_as``, or was
        not there), ``"actor"`` (the actor's own possible change, or the sender's own message) or
        ``"condition"`` (a conditional update the chain did not draw)."""
        chain = self.normalize(chain)
        idx = self._index.get(fluent_of(fluent))
        if idx is None or not chain:
            return ("unseen", None, None)
        ids = self._ids(chain)
        if ids is None:
            return ("absent", next(a for a in chain if a not in self._aid), None)
        found = None
        for k in range(bisect_left(idx.times, t), bisect_right(idx.times, t)):
            why = self._missed_at(idx, k, chain, ids)
            if why is None:
                return None
            found = found or why
        return found or ("unseen", None, None)

    def _missed_at(self, idx: FluentIndex, k: int, chain: tuple, ids) -> Optional[tuple]:
        perc = idx.percs.get(k) if idx.percs else None
        if perc is None:
            for a, i in zip(chain, ids):
                if not idx.masks[k] >> i & 1:
                    return ("absent", a, None)
        else:
            if not perc.perceivers >> ids[0] & 1:
                ev = self.events[idx.events[k]]
                return ("inattentive" if chain[0] in (ev.inattentive or ()) else "absent", chain[0], None)
            for x in range(len(ids) - 1):
                if not perc.views.get(ids[x], perc.default) >> ids[x + 1] & 1:
                    return ("unaware", chain[x], chain[x + 1])
        smask = 0
        for i in ids:
            smask |= 1 << i
        if idx.excl.get(k) == smask:
            return ("actor", chain[0], None)
        if k in idx.conds and not self._cond_ok(idx, k, chain):
            return ("condition", None, None)
        return None

    def updates_of(self, fluent, start: int = -1, end: Optional[int] = None) -> list[Provenance]:
        """Every group update of ``fluent`` with ``start < t <= end`` (who observed what, when)."""
        idx = self._index.get(fluent_of(fluent))
        if idx is None:
            return []
        end = self._at(end)
        out = []
        for k in range(bisect_right(idx.times, start), bisect_right(idx.times, end)):
            out.append(Provenance(idx.times[k], idx.values[k], self.events[idx.events[k]], HOWS[idx.hows[k]],
                                  self._perceivers(idx, k)))
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


class TraceNames:
    """The names a trace mentions, gathered incrementally (a trace only grows): its agents (every agent an
    event names, and those the replay met), every name (agents, rooms, predicates, entities, values) and the
    predicates of its fluents. Queries check their names against it (:meth:`GroundTruth.check_query_names`)."""

    __slots__ = ("agents", "names", "predicates", "events_read", "fluents_read", "_frozen")

    def __init__(self) -> None:
        # sets, or a snapshot's frozensets
        self.agents: Any = set()
        self.names: Any = set()
        self.predicates: Any = set()
        self.events_read = 0   # how many events of the trace were read
        self.fluents_read = 0  # how many fluents of the index (in insertion order) were read
        self._frozen: Optional[tuple] = None

    def add_agents(self, agents) -> None:
        for a in agents:
            if a not in self.agents:
                self.agents.add(a)
                self.names.add(a)
                self._frozen = None

    def add_names(self, names) -> None:
        before = len(self.names)
        self.names.update(names)
        if len(self.names) != before:
            self._frozen = None

    def add_fluents(self, fluents) -> None:
        """Read the fluents after the first ``fluents_read`` of ``fluents`` (an index: insertion-ordered)."""
        it = iter(fluents)
        for _ in range(self.fluents_read):
            next(it)
        for f in it:
            self.fluents_read += 1
            if f[0] not in self.predicates:
                self.predicates.add(f[0])
                self._frozen = None
            self.add_names(f)

    def add_events(self, events, upto: Optional[int] = None) -> None:
        """Read ``events[events_read:upto]``."""
        end = len(events) if upto is None else upto
        for k in range(self.events_read, end):
            e = events[k]
            self.add_agents(event_agents(e))
            found: set = set()
            _collect_names(e.model_dump(exclude=_FREE_TEXT), found)
            self.add_names(found)
        self.events_read = max(self.events_read, end)

    def frozen(self) -> tuple:
        """(agents, names, predicates) as frozensets, rebuilt only after a new name came in."""
        if self._frozen is None:
            self._frozen = (frozenset(self.agents), frozenset(self.names), frozenset(self.predicates))
        return self._frozen

    def snapshot(self) -> "TraceNames":
        """A copy that later additions to this one leave alone (it shares the frozen sets)."""
        copy = TraceNames()
        copy.agents, copy.names, copy.predicates = copy._frozen = self.frozen()
        copy.events_read, copy.fluents_read = self.events_read, self.fluents_read
        return copy


#: event fields that hold free text, not names
_FREE_TEXT = frozenset({"kind", "t", "chapter", "source", "source_line", "text", "params"})


def _collect_names(x, out: set) -> None:
    """Every string in an event's dump (names only: free-text fields are excluded by the caller)."""
    if isinstance(x, str):
        out.add(x)
    elif isinstance(x, dict):
        for k, v in x.items():
            if k != "fact":  # a message's readable text; its subject and value are collected
                _collect_names(v, out)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _collect_names(v, out)


__all__ = ["TruthAnswer", "GroundTruth", "Provenance", "TraceNames", "fluent_of", "UNSURE", "OPAQUE"]
