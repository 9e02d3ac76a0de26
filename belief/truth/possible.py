"""Knowledge by elimination: per chain, the values of a fluent not yet ruled out, combined across fluents.

The checker's per-fluent records say what a chain saw of each fluent; the world's rules
(:mod:`belief.logic.constraints`) bind fluents to each other. For a chain ``c`` and a fluent ``f`` this module
computes, lazily at query time and only for constrained fluents (a trace without constraints never comes
here), the set of values ``f`` may have from ``c``'s point of view:

1. a *base* set per fluent ``g`` of ``f``'s constraint group: ``{v}`` when ``c`` knows ``g``'s value (the
   direct rule of :meth:`GroundTruth._kw_direct`); otherwise the values a window of possible changes ``c``
   saw may have left (the value before them plus each change's named outcome; "one of these changes
   happened" when ``c`` saw another fluent of the same changes take a new value); otherwise ``g``'s
   ``initial`` values when nothing ``c``'s first agent knows of has touched ``g``, else its domain;
2. the constraints propagated over those sets (:meth:`Constraints.propagate`).

``c`` knows ``f`` by elimination when one value remains and it is the real one (and the rest of the chain
knows ``f``). A chain's later *beliefs* (messages included) that contradict ``f``'s real value through the
constraints defeat its knowledge: a false message is believed, never known. Only a consistent set of beliefs
defeats (:meth:`Elimination.revised`: newer batches prevail), so beliefs that contradict each other whatever
``f`` is do not cancel knowledge of ``f``.
"""

from __future__ import annotations

import gc
from bisect import bisect_right
from typing import Optional

from belief.logic.constraints import MAX_CELLS, Budget, Constraints, Known
from belief.truth.index import HOW_TOLD, HOWS, OPAQUE, UNSURE, credits, is_marker


class Elimination:
    """Possible-value sets of chains over a :class:`~belief.truth.ground.GroundTruth` with constraints."""

    def __init__(self, truth, constraints: Constraints):
        self.truth = truth
        self.c = constraints
        self._memo: dict = {}
        #: (fluent index, chain) -> ({position: :meth:`_relevant` there}, {that position, or it and the chain's
        #: messages up to the time asked -> base set and where it holds}) (see :meth:`base`)
        self._states: dict = {}
        #: (chain, group number) -> [[member, its index or None, its :attr:`_states` entry, the last base set found
        #: with the times it holds at]]
        self._members: dict = {}
        self._groups: dict = {}  # fluent -> (group number, members)
        self._n_groups = 0
        self._busy: set = set()
        #: (chain, fluent, at) -> does the chain know the constrained fluent (:meth:`GroundTruth._kw`'s memo)
        self.known: dict = {}
        self._propagated: dict = {}
        #: (chain, group number, at) -> (base sets, their propagation, contradiction?): one per group, not per fluent
        self._propagated_group: dict = {}
        self._holding: dict = {}  # (chain, group number, at) -> what the chain holds of each member (defeated)
        self._revised: dict = {}  # (chain, group number, at) -> its beliefs revised by recency (defeated)
        #: the steps this truth's eliminations may still take (proportional to the trace: see Budget)
        self.budget = Budget(len(truth.events))
        self._known: Optional[Known] = None  # the trace's fluents by predicate, for the group searches
        #: (fluent index, chain) -> {update: what it is to the chain (:meth:`_kind`)}: the walks of :meth:`_base`
        #: and :meth:`_happened` pass the same updates again and again (issue 32)
        self._kinds: dict = {}
        #: (fluent index, chain) -> {position: :meth:`_seen_before` there}
        self._seen: dict = {}
        self._ev_fluents: dict = {}  # event -> the fluents it names (:meth:`_happened`)
        #: (group number, time) -> the group's real state if it meets the rules (:meth:`_real_state`)
        self._reals: dict = {}

    # --- groups ----------------------------------------------------------------------------------
    def group(self, f: tuple) -> list:
        return self._group(f)[1]

    def _group(self, f: tuple) -> tuple:
        """``(number, members)`` of ``f``'s group: the one found from the first of its members asked about."""
        g = self._groups.get(f)
        if g is None:
            if self._known is None:
                self._known = Known(self.truth._index)
            g = (self._n_groups, self.c.group(f, self._known, self.budget))
            self._n_groups += 1
            for h in g[1]:
                self._groups.setdefault(h, g)
        return g

    # --- one fluent: what the chain's own records leave possible ---------------------------------
    def _observed(self, idx, j: int, chain: tuple, ids, smask: int) -> bool:
        """Does update ``j`` reach ``chain`` (all its agents observed it together, in their views, and the chain
        draws its condition)? The chain's own possible change (or its own message) does not."""
        return ((idx.masks[j] & smask) == smask and idx.excl.get(j) != smask
                and (not idx.percs or j not in idx.percs or idx.percs[j].reaches(ids))
                and (j not in idx.conds or self.truth._cond_ok(idx, j, chain)))

    def _kinds_of(self, idx, chain: tuple) -> dict:
        kinds = self._kinds.get((idx, chain))
        if kinds is None:
            kinds = self._kinds[(idx, chain)] = {}
        return kinds

    def _kind(self, idx, j: int, chain: tuple, ids, smask: int, a1: int, kind: Optional[int]) -> int:
        """What update ``j`` is to ``chain``, tested in :meth:`_base`'s order: :data:`_SEEN` (:meth:`_observed`),
        :data:`_OWN` (its own possible change or message), :data:`_UNSEEN` (a change its first agent knows of and
        it did not see), :data:`_WITNESSED` (:meth:`_witnessed`), else :data:`_NOTHING`; ``kind``, what was kept
        (None, or :data:`_NOT_SEEN` when only :meth:`_happened` asked). It reads only the update and met
        conditions (memoised once settled), so callers keep it per ``(idx, chain)``; the conditions are asked in
        the same order as without it."""
        if kind is None and self._observed(idx, j, chain, ids, smask):
            return _SEEN
        if idx.excl.get(j) == smask:
            return _OWN
        if idx.changes[j] and idx.wmasks[j] & a1 and (j not in idx.conds or self.truth._cond_ok(idx, j, chain)):
            return _UNSEEN
        if self._witnessed(idx, j, chain, ids):
            return _WITNESSED
        return _NOTHING

    def _witnessed(self, idx, j: int, chain: tuple, ids) -> bool:
        """For a chain ``(x, a2, .., ak)`` that update ``j`` does not reach: does it make the chain aware that
        ``ak`` saw a definite value (a look they observed or witnessed together, :func:`credits`)? Then ``x``
        knows that ``ak`` saw the real value: the chain before ``ak`` (``x`` alone for ``(x, a2)``) can tell of
        it what that chain itself can (:meth:`_base` takes its possible set then)."""
        if len(ids) < 2 or idx.values[j] is UNSURE:
            return False
        rest = 0
        for i in ids[1:]:
            rest |= 1 << i
        if idx.excl.get(j) == rest or not credits(idx, j, ids):
            return False
        return j not in idx.conds or self.truth._cond_ok(idx, j, chain)

    def base(self, chain: tuple, g: tuple, at: int) -> Optional[frozenset]:
        """The values of ``g`` that ``chain``'s own records leave (None: any), before the rules bind it to others.

        Only the chain's perceptions count, never the hidden world: its *best record* of ``g`` (the one formed
        latest: a sighting when it happened, a message when its sender formed it, ``as_of``), else ``g``'s
        initial values; then the possible changes it saw after that record (each one's named outcome), or any
        value when it knows of a change it did not see. A look by ``ak`` the chain observed or witnessed together
        (:meth:`_witnessed`) is a record: ``ak`` saw the real value, so the chain holds what ``(x, .., a(k-1))``
        can tell of it. Updates it merely witnessed otherwise, its own possible changes, and changes whose
        condition it rules out change nothing.

        Memoised by the fluent's last update up to ``at`` that is something to the chain (:meth:`_relevant`;
        and the chain's last message): the walk reads only those updates, and a window of possible changes also
        the other fluents of those changes up to ``at`` (kept with their last updates, checked when the memo is
        read); a set that resolved an OPAQUE value (read from reality up to ``at``) is not kept."""
        t = self.truth
        idx = t._index.get(g)
        ids = t._ids(chain)
        if idx is None or ids is None:
            return self.c.initial(g)
        return self._member(chain, g, at, idx, ids, tuple(ids), self._state(idx, chain))[0]

    def _state(self, idx, chain: tuple) -> tuple:
        st = self._states.get((idx, chain))
        if st is None:
            st = self._states[(idx, chain)] = ({}, {})
        return st

    def _member(self, chain: tuple, g: tuple, at: int, idx, ids, tids: tuple, st: tuple) -> tuple:
        """``(base set, lo, hi)``: :meth:`base` of a fluent the trace updates, for a chain of known agents
        (``ids``, ``tids`` its tuple; ``st``, their :attr:`_states` entry), and the times ``lo <= at < hi`` at
        which it surely holds so far (``lo`` None: only at ``at``): the same relevant update, messages and
        sightings of what it read (a later append may add updates, from the trace's length on)."""
        rels, bases = st
        times = idx.times
        last = bisect_right(times, at) - 1
        rel = rels.get(last)
        if rel is None:
            rel = self._relevant(idx, chain, ids, last, g, rels)
        lo = times[rel] if rel >= 0 else -1  # (every position from rel to last has rel as its relevant one)
        hi = times[last + 1] if last + 1 < len(times) else _NEVER
        key = rel
        ov = idx.overrides.get(tids) if idx.overrides else None
        if ov is not None:
            told = ov[0]
            n = bisect_right(told, at)
            if n:
                key = (rel, n)
                lo = max(lo, told[n - 1])
            if n < len(told):
                hi = min(hi, told[n])
        kept = bases.get(key)
        if kept is not None:
            if kept[1] <= at < kept[2] and (not kept[3] or all(
                    len(h.times) == k + 1 or h.times[k + 1] > at for h, k in kept[3])):
                return kept[0], max(lo, kept[1]), min(hi, kept[2])
            moved = []
            for h, seen, s, k in kept[4]:
                j = bisect_right(h.times, at) - 1
                if self._sighting(h, seen, j, chain, ids) != s:
                    break
                moved.append((h, seen, s, max(j, k)))
            else:  # the same sightings: it holds here too, and at every time in between (kept wider)
                kept = bases[key] = (kept[0], *self._valid(moved))
                return kept[0], max(lo, kept[1]), min(hi, kept[2])
        out, deps = self._base(chain, g, at, idx, ids, rel, ov)
        if deps is None:
            return out, None, None
        kept = bases[key] = (out, *self._valid(deps))
        return out, max(lo, kept[1]), min(hi, kept[2])

    @staticmethod
    def _valid(deps) -> tuple:
        """``(lo, hi, open, deps)``: the times at which a base set that read ``deps`` (``(index, the chain's
        sightings of it, its last sighting s, a position p)``) holds. :meth:`_happened` reads only the chain's
        sightings of those indexes: the set holds wherever the last one up to the time asked is the same, surely
        at the positions from ``s`` to ``p`` (``p``, one where it was found to be), so at the times
        ``lo <= at < hi`` while no update follows those of ``open`` (``(index, p)`` for the indexes whose
        position ``p`` was their last so far: a tracker's truth may append more, later in time)."""
        lo, hi = -1, _NEVER
        opened = []
        for h, _, s, k in deps:
            times = h.times
            if s >= 0 and times[s] > lo:
                lo = times[s]
            if k + 1 < len(times):
                if times[k + 1] < hi:
                    hi = times[k + 1]
            else:
                opened.append((h, k))
        return lo, hi, tuple(opened), tuple(deps)

    def _relevant(self, idx, chain: tuple, ids, last: int, g: tuple, rels: dict) -> int:
        """The latest position at or before ``last`` whose update is something to the chain's walk in
        :meth:`_base` (:data:`_SEEN`, :data:`_UNSEEN` or :data:`_WITNESSED`; -1: none). The others (its own
        changes, updates it did not draw) change nothing there, so the walk from ``last`` gives what the walk
        from this position gives, and :meth:`base` keys its memo by it: a chain's base set is computed once per
        update that matters to it, not once per update of the fluent (issue 32). Kept per position (what an
        update is to a chain never changes, ``rels``)."""
        kinds = self._kinds_of(idx, chain)
        smask = 0
        for i in ids:
            smask |= 1 << i
        a1 = 1 << ids[0]
        path = []
        rel = -1
        j = last
        while j >= 0:
            known = rels.get(j)
            if known is not None:
                rel = known
                break
            kind = kinds.get(j)
            if kind is None or kind == _NOT_SEEN:
                kind = kinds[j] = self._kind(idx, j, chain, ids, smask, a1, kind)
            if kind == _SEEN or kind == _UNSEEN or kind == _WITNESSED:
                rel = j
                break
            path.append(j)
            j -= 1
        for k in path:
            rels[k] = rel
        rels[last] = rel
        self.budget.spend(len(path), self.c, g)  # the updates walked back over
        return rel

    def _group_bases(self, chain: tuple, number: int, group: list, at: int) -> dict:
        """``{g: self.base(chain, g, at) for g in group}``, with the chain's ids and each member's memo found once
        per chain and group (``number``)."""
        t = self.truth
        ids = t._ids(chain)
        if ids is None:
            return {g: self.c.initial(g) for g in group}
        members = self._members.get((chain, number))
        if members is None:
            members = self._members[(chain, number)] = []
            for g in group:
                idx = t._index.get(g)
                members.append([g, idx, self._state(idx, chain) if idx is not None else None, None])
        tids = tuple(ids)
        end = len(t.events)  # (a later append adds updates from here on)
        out = {}
        for m in members:
            held = m[3]  # (lo, hi, base set): the last one found, and the times at which it holds
            if held is not None and held[0] <= at < held[1]:
                out[m[0]] = held[2]
                continue
            g, idx = m[0], m[1]
            if idx is None:
                v = self.c.initial(g)
                m[3] = (-1, end, v)
            else:
                v, lo, hi = self._member(chain, g, at, idx, ids, tids, m[2])
                m[3] = (lo, min(hi, end), v) if lo is not None else None
            out[g] = v
        return out

    def _base(self, chain: tuple, g: tuple, at: int, idx, ids, last: int, ov) -> tuple:
        """``(base set, deps)`` of :meth:`base`: ``deps``, what else it read (``(index, last update)`` pairs),
        or None when it may not be kept."""
        t = self.truth
        init = self.c.initial(g)
        exact: Optional[tuple] = ()
        smask = 0
        for i in ids:
            smask |= 1 << i
        a1 = 1 << ids[0]
        best_key: Optional[int] = None  # the formation time of the best record so far
        best: Optional[frozenset] = None
        window: list = []  # possible changes the chain saw (positions)
        unseen: list = []  # times of changes the chain's first agent knows of and the chain did not see
        if ov is not None:  # the chain's own policy updates (messages written to this chain only)
            k = bisect_right(ov[0], at) - 1
            if k >= 0:
                v = ov[1][k]
                best_key = t.formed(HOW_TOLD if ov[4][k] == HOW_TOLD else "", ov[0][k], ov[2][k])
                best = frozenset((v,)) if not is_marker(v) else None
        kinds = self._kinds_of(idx, chain)
        j = last
        try:
            for j in range(last, -1, -1):
                tj = idx.times[j]
                if best_key is not None and tj < best_key:
                    break  # every earlier record was formed before the best one, and changes before it do not count
                kind = kinds.get(j)
                if kind is None or kind == _NOT_SEEN:
                    kind = kinds[j] = self._kind(idx, j, chain, ids, smask, a1, kind)
                if kind != _SEEN:
                    # _OWN: its own possible change (it knows what it did) or its own message
                    if kind == _UNSEEN:
                        unseen.append(tj)
                    elif kind == _WITNESSED and (best_key is None or tj > best_key):
                        best_key, best = tj, self.possible(chain[:-1], g, tj)
                    continue
                v = idx.values[j]
                if v is UNSURE:
                    window.append(j)
                    continue
                key = t.formed(HOWS[idx.hows[j]], tj, idx.events[j])
                if best_key is None or key > best_key:
                    if v is OPAQUE:
                        exact = None  # (resolved by reality up to ``at``)
                    v = t._resolve(g, v, tj, at)
                    best_key, best = key, (frozenset((v,)) if not is_marker(v) else None)
        finally:
            self.budget.spend(last - j + 1, self.c, g)  # the updates walked back over
        dom = self.c.domain(g)
        if best_key is not None:
            if any(x > best_key for x in unseen):
                return dom, exact
            window = [j for j in window if idx.times[j] > best_key]
            start = best
        else:
            if unseen:
                return dom, exact
            start = init
        if not window:
            return start, exact
        if any(j not in idx.outcomes for j in window):
            return dom, exact
        happened, read = self._happened(chain, ids, smask, idx, window, at)
        if exact is not None:
            exact = None if read is None else exact + read
        outs = {idx.outcomes[j] for j in window if happened is None or idx.times[j] >= happened}
        if happened is None:
            if start is None:
                return dom, exact
            outs |= start
        return frozenset(outs), exact

    def _happened(self, chain, ids, smask, idx, window, at) -> tuple:
        """``(time, read)``: the earliest time from which one of the ``window`` changes surely happened, or None:
        the chain saw another fluent of the same events take a new value with only those events in between;
        ``read``, the other fluents' indexes with their last update up to ``at`` (None: it resolved an OPAQUE
        value, which reads reality)."""
        t = self.truth
        events = {idx.events[j]: idx.times[j] for j in window}
        best = None
        read: Optional[list] = []
        ev_fluents: set[tuple] = set()
        of_event = self._ev_fluents
        for j in window:
            e = idx.events[j]
            fl = of_event.get(e)
            if fl is None:
                fl = of_event[e] = tuple(tuple(f) for f in getattr(t.events[e], "fluents", ()))
            ev_fluents.update(fl)
        for h in ev_fluents:
            hidx = t._index.get(h)
            if hidx is None or hidx is idx:
                continue
            last = bisect_right(hidx.times, at) - 1
            later = None  # (value, time) of the chain's later definite sighting
            between: list = []
            seen = self._seen.get((hidx, chain))
            if seen is None:
                seen = self._seen[(hidx, chain)] = {}
            if read is not None:  # (the walk reads the sightings up to the last one before at)
                k = seen.get(last) if last >= 0 else -1
                if k is None:
                    k = self._seen_before(hidx, chain, ids, smask, last, seen)
                read.append((hidx, seen, k, last))
            j = last
            while j >= 0:
                k = seen.get(j)
                if k is None:
                    k = self._seen_before(hidx, chain, ids, smask, j, seen)
                if k < 0:
                    j = -1
                    break
                j = k - 1  # (the updates in between did not reach the chain)
                v = hidx.values[k]
                if v is UNSURE:
                    if hidx.events[k] not in events:
                        if later is not None:
                            break
                        continue
                    if later is not None:
                        between.append(hidx.times[k])
                    continue
                if HOWS[hidx.hows[k]] == HOW_TOLD:
                    break
                if v is OPAQUE:
                    read = None
                v = t._resolve(h, v, hidx.times[k], at)
                if is_marker(v):
                    break
                if later is None:
                    later = (v, hidx.times[k])
                    continue
                if v != later[0] and between:
                    e = min(between)
                    best = e if best is None else max(best, e)
                break
            self.budget.spend(last - j, self.c, h)  # the updates walked back over
        return best, (tuple(read) if read is not None else None)

    def _sighting(self, idx, seen: dict, j: int, chain: tuple, ids) -> int:
        """The chain's last sighting of ``idx`` at or before position ``j`` (-1: none), ``seen`` its kept
        positions."""
        if j < 0:
            return -1
        k = seen.get(j)
        if k is None:
            smask = 0
            for i in ids:
                smask |= 1 << i
            k = self._seen_before(idx, chain, ids, smask, j, seen)
        return k

    def _seen_before(self, idx, chain: tuple, ids, smask: int, j: int, seen: dict) -> int:
        """The latest position at or before ``j`` whose update reaches the chain (:meth:`_observed`; -1: none),
        kept in ``seen`` for every position walked (what reaches a chain never changes), so the walks of
        :meth:`_happened` step from one sighting to the next (issue 32)."""
        kinds = self._kinds_of(idx, chain)
        path = []
        out = -1
        while j >= 0:
            known = seen.get(j)
            if known is not None:
                out = known
                break
            kind = kinds.get(j)
            if kind is None:  # only whether it was observed is asked here (_base asks the rest when it needs)
                kind = kinds[j] = _SEEN if self._observed(idx, j, chain, ids, smask) else _NOT_SEEN
            if kind == _SEEN:
                out = j
                break
            path.append(j)
            j -= 1
        for k in path:
            seen[k] = out
        if out >= 0:
            seen[out] = out
        return out

    # --- the group -------------------------------------------------------------------------------
    def propagate(self, sets: dict) -> dict:
        """:meth:`Constraints.propagate`, memoised on its input: chains and times share few distinct sets.
        The result is shared: read it, never change it."""
        key = tuple(sets.items())
        try:
            out = self._propagated.get(key)
        except TypeError:  # a set given as a (mutable) set: keyed as the frozenset it equals
            key = tuple((f, v if v is None or isinstance(v, frozenset) else frozenset(v)) for f, v in sets.items())
            out = self._propagated.get(key)
        if out is None:
            out = self._propagated[key] = self.c.propagate(sets, self.budget)
        return out

    def possible(self, chain: tuple, f: tuple, at: int) -> Optional[frozenset]:
        """Values of ``f`` not ruled out for ``chain`` after event ``at`` (None: any value).

        The cyclic garbage collector is paused while it is worked out (as ``Trace.loads`` does): the memos it
        fills are acyclic values, and the collections their number triggers, each over the whole heap (a game's
        objects included), cost about 40% of a query in the bench (issue 32). Only a pause begun here is ended here."""
        key = (chain, f, at)
        if key in self._memo:
            return self._memo[key]
        paused = gc.isenabled()
        if paused:
            gc.disable()
        try:
            return self._possible(chain, f, at, key)
        finally:
            if paused:
                gc.enable()

    def _possible(self, chain: tuple, f: tuple, at: int, key: tuple) -> Optional[frozenset]:
        number, group = self._group(f)
        gkey = (chain, number, at)
        found = self._propagated_group.get(gkey)
        if found is None:
            if gkey in self._busy:  # a condition that depends on itself: no elimination for it
                return self.base(chain, f, at)
            self._busy.add(gkey)
            try:
                sets = self._group_bases(chain, number, group, at)
                prop = self.propagate(sets)
                found = self._propagated_group[gkey] = (sets, prop, _empty(prop))
            finally:
                self._busy.discard(gkey)
        sets, prop, contradiction = found
        if contradiction:
            out = sets[f]  # the chain's records contradict the rules (it missed a change): no elimination
        else:
            out = frozenset(prop[f]) if prop.get(f) is not None else None
        self._memo[key] = out
        return out

    def knows(self, chain: tuple, f: tuple, at: int) -> bool:
        """Does one value remain for ``chain``, the real one?"""
        s = self.possible(chain, f, at)
        if s is None or len(s) != 1:
            return False
        real = self.truth._actual(f, at)  # in a private trace: its owner's belief
        return real is not None and next(iter(s)) == real.value

    def _held_group(self, chain: tuple, f: tuple, at: int) -> dict:
        """Member of ``f``'s group -> ``(formed, value)`` the chain holds at ``at`` (None: never set), in group
        order: ``formed`` is when the belief was formed (a sighting's time; a message's ``as_of``)."""
        number, group = self._group(f)
        key = (chain, number, at)
        held = self._holding.get(key)
        if held is None:
            held = self._holding[key] = {g: self.truth._held_formed(chain, g, at) for g in group}
        return held

    def revised(self, chain: tuple, f: tuple, at: int) -> tuple:
        """The chain's beliefs of ``f``'s group revised by recency: ``((t, {fluent: value}), ...)``, newest first.

        Beliefs formed together (at one time: one message, one sighting; a message's claims are formed when
        its sender formed them, ``as_of``, not when they are delivered) are a batch. From the newest
        batch back, a batch is kept when the rules leave it consistent with the batches kept so far (newer
        ones), else set aside whole: a stale claim never outweighs a newer belief, and a batch that contradicts
        itself says nothing. Each fluent has one belief (its latest), so this is one propagation per batch,
        once per (chain, group, time)."""
        number, group = self._group(f)
        key = (chain, number, at)
        kept = self._revised.get(key)
        if kept is None:
            batches: dict = {}
            for g, q in self._held_group(chain, f, at).items():
                if q is not None and isinstance(q[1], str):
                    batches.setdefault(q[0], {})[g] = q[1]
            sets = dict.fromkeys(group)  # None: any value
            out = []
            for when in sorted(batches, reverse=True):
                trial = {**sets, **{g: frozenset((v,)) for g, v in batches[when].items()}}
                if not _empty(self.propagate(trial)):
                    sets = trial
                    out.append((when, batches[when]))
            kept = self._revised[key] = tuple(out)
        return kept

    def defeated(self, chain: tuple, f: tuple, at: int) -> bool:
        """Do the chain's beliefs formed after its record of ``f``, revised by recency (:meth:`revised`),
        contradict ``f``'s real value through the rules? Only a consistent set of beliefs can defeat: beliefs
        that contradict each other regardless of ``f`` say nothing against it. In a private trace whose owner
        does not know ``f``, the real value is any value the owner cannot rule out
        (:meth:`GroundTruth._actual_values`): they defeat only when they contradict every one of them (a value
        another agent saw is one of them, so it is not defeated merely because the owner does not know it)."""
        t = self.truth
        at = t._at(at)  # as lookup reads it (-1: the last event)
        held = self._held_group(chain, f, at)
        p = held[f]
        since = p[0] if p is not None else -1
        if not any(q is not None and q[0] > since and isinstance(q[1], str) for q in held.values()):
            return False  # no later belief: nothing to revise
        if self._all_true(f, held, at):
            return False  # every belief is the real value, in a world that meets the rules: nothing contradicts
        later = [batch for when, batch in self.revised(chain, f, at) if when > since]
        if not later:
            return False
        real = t._actual_values(f, at)
        if real is None:
            return False  # a private trace whose owner can rule out no value: nothing to contradict
        sets = dict.fromkeys(self.group(f))
        for batch in later:
            sets.update((g, frozenset((v,))) for g, v in batch.items())
        sets[f] = real
        return _empty(self.propagate(sets))


    def _all_true(self, f: tuple, held: dict, at: int) -> bool:
        """Is every belief the chain holds of ``f``'s group (``held``) the member's real value at ``at``, and does
        the real state of the group meet every rule (:meth:`_real_state`)? Then no set of those beliefs
        contradicts ``f``'s real value: the real state is an assignment within them that meets every rule, and
        propagation never rules out a value of such an assignment. So :meth:`defeated` answers False without
        revising or propagating them (issue 32). Not in a private trace, whose "real" values are its owner's."""
        t = self.truth
        if t.owner is not None and t.owner in t._aid:
            return False
        real = self._real_state(f, at)
        if real is None:
            return False
        for g, q in held.items():
            if q is not None and isinstance(q[1], str) and q[1] != real[g]:
                return False
        return True

    def _real_state(self, f: tuple, at: int) -> Optional[dict]:
        """Member -> real value of ``f``'s group at ``at`` when every member has one (a name) and the rules hold of
        them (their propagation, as singletons, leaves each its value); else None. Memoised per group and time."""
        number, group = self._group(f)
        key = (number, at)
        if key in self._reals:
            return self._reals[key]
        values: dict = {}
        index = self.truth._index
        for g in group:
            idx = index.get(g)
            k = bisect_right(idx.real_t, at) - 1 if idx is not None else -1
            v = idx.real_v[k] if k >= 0 else None
            if not isinstance(v, str):
                break
            values[g] = v
        out: Optional[dict] = values if len(values) == len(group) else None
        if out is not None:
            cells = 0
            for g in group:
                dom = self.c.domain(g)
                cells += len(dom) if dom is not None else 1
            if cells > MAX_CELLS:
                out = None  # (the full way refuses the group: it keeps doing so)
            else:
                prop = self.propagate({g: frozenset((v,)) for g, v in out.items()})
                if any(prop.get(g) != {v} for g, v in out.items()):
                    out = None
        self._reals[key] = out
        return out


_NEVER = float("inf")

#: what an update is to a chain (:meth:`Elimination._kind`)
_SEEN, _OWN, _UNSEEN, _WITNESSED, _NOTHING, _NOT_SEEN = range(6)


def _empty(prop: dict) -> bool:
    """Does a propagation end with a fluent that can take no value (a contradiction)?"""
    return any(v is not None and not v for v in prop.values())


__all__ = ["Elimination"]
