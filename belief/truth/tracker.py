"""Online tracking: append events one at a time, ask any chain at any moment, always equal to the batch check.

:class:`Tracker` keeps the checker's replay (:class:`~belief.truth.index.IndexBuilder`) alive instead of
running it over a finished trace. ``append`` replays one event (its cost is proportional to the agents who
observe it, and, for an entry, to what the room holds), and queries read the same per-fluent update lists
the batch :func:`~belief.truth.checker.check` builds, so a query costs the same as on a batch truth
(logarithmic in the trace length) and ``tracker.truth()`` gives exactly what ``check(tracker.trace)``
gives. Whatever the replay learns to do (new event fields, new semantics) the tracker does too.

    from belief import Tracker

    tr = Tracker()
    tr.append({"kind": "enter", "agents": ["Anne", "Carl"], "room": "kitchen"})
    tr.append('{"kind": "move", "agent": "Anne", "object": "apple", "to": "box"}')
    tr.value(("Carl", "Anne"), ("in", "apple"))      # 'box'
    tr.answer("? Carl BELIEVE Anne BELIEVE apple IN ?c").value

A bad event (malformed JSON, an exit of an agent who is in no room, a name the domain does not know, ...)
raises a one-line :class:`~belief.errors.TraceError` and leaves the tracker as it was.

A question asked again with nothing appended since is a dict look-up: ``value``, ``lookup`` and ``knows_chain``
at the last event keep their answers by ``(chain, fluent)`` as given, and every append empties that table
(an answer at the last event can change with any event: the time it is about moves on).
"""

from __future__ import annotations

from itertools import islice
from typing import Any, Optional, Sequence, Union, cast

from belief.errors import TraceError
from belief.logic.constraints import constraints_of
from belief.logic.domain import Domain
from belief.logic.formula import Formula
from belief.logic.policies import TrustPolicy, get_policy
from belief.truth.ground import OPAQUE, GroundTruth, TraceNames, TruthAnswer
from belief.truth.index import JOINT_MAX, IndexBuilder
from belief.truth.trace import Trace, _Event, parse_event, share_fields
from belief.truth.typed_trace import MAX_REPORTED, type_problems


_MISS = object()
_LOOKUP, _KNOWS = object(), object()  # tags of the kept answers of lookup and knows_chain (value's: no tag)
#: answers kept between two appends at most (a bound on memory for a caller asking many distinct questions)
MAX_CACHED = 1 << 16
#: chain as given -> its normalised chain (:meth:`GroundTruth.normalize`: a pure function of the chain), shared
#: by every tracker, whose chain ids are their own (a fresh tracker per story asks the same chains again)
_NORMALISED: dict = {}
#: an index of at most this many updates is searched by reading its observer masks from the end (a few dozen
#: ANDs cost less than :meth:`GroundTruth._latest_group`'s galloping and bitset blocks on a short history)
SCAN_MAX = 32


class _Prefix(Sequence):
    """The first ``n`` events of a list that keeps growing (a view, not a copy)."""

    __slots__ = ("_items", "_n")

    def __init__(self, items: list, n: int):
        self._items = items
        self._n = n

    def __len__(self):
        return self._n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return self._items[:self._n][i]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        return self._items[i]

    def __iter__(self):
        return islice(self._items, self._n)


class TrackedTruth(GroundTruth):
    """The ground truth of a tracker's first ``n`` events, sharing the tracker's replay (no copy).

    Updates appended later carry later times, so every query at a time of the prefix (the default: its last
    event) reads only what the prefix says: it answers as ``check`` of the prefix does. The tracker's own
    queries go through one *live* instance that follows every append (``live=True``).
    """

    def __init__(self, tracker: "Tracker", live: bool = False):
        b = tracker.replay
        events = tracker.trace._events if live else _Prefix(tracker.trace._events, len(tracker.trace))
        # agent -> id only grows (b.aid is shared): ids of agents met later are never in the prefix's updates.
        # The world's rules are the tracker's; the elimination memo is the live truth's, shared by the views of
        # prefixes (every memo is about a time); the live one forgets it when an append names a new fluent or agent
        super().__init__(tracker.trace, b.policy, tracker.agent_names(), b.index, b.loc, b.chapters,
                         tracker.constraints, events=events, aid=b.aid)
        self._n_fluents = None if live else len(b.index)
        self._tracker = tracker
        #: chain as given -> (normalised chain, agent ids, sorted distinct ids, their mask): see :meth:`value_now`
        self._chains: dict = {}

    @property
    def final_locations(self) -> dict:
        return {a: self.location(a) for a in self.agents}

    def value_now(self, chain, fluent):
        """:meth:`value` at the last event, for a hashable ``chain`` (the tracker's fresh questions): the same
        search as :meth:`_find` with fewer steps. The chain's agent ids are kept per chain as given (an agent's
        id never changes), the update lists are read from their end (every update is at or before the last
        event), and a fluent or chain this does not handle (a fluent given as text, the empty chain) goes the
        general way. A chain naming an agent not met yet, or a fluent nothing has written, holds no value
        (as :meth:`_find` finds): None at once."""
        info = self._chains.get(chain)
        if info is None or (info[1] is None and info[2] != len(self._aid)):
            info = self._chain_info(chain)
            if info is None:
                return self.value(chain, fluent)
        idx = self._index.get(fluent)
        if idx is None or info[1] is None:
            if type(fluent) is tuple:  # (no update of the fluent, or an agent of the chain not met yet)
                return None
            return self.value(chain, fluent)
        norm, ids, uniq, smask = info
        j = -1
        n = len(idx.times)
        if n:
            if len(uniq) == 1:
                lst = idx.by_agent.get(uniq[0])
                if lst:
                    j = lst[-1]
                    if idx.excl and idx.excl.get(j) == smask:
                        j = self._latest_group(idx, uniq, smask, j - 1)
            else:  # the latest update all of them observed: kept current by the replay once asked
                joint = idx.joint
                j = joint.get(smask, -2)
                if j == -2:
                    if n <= SCAN_MAX:  # a short index: read its masks from the end
                        masks = idx.masks
                        j = n - 1
                        while j >= 0 and masks[j] & smask != smask:
                            j -= 1
                    else:
                        j = self._latest_group(idx, uniq, smask, n - 1)
                    if len(joint) < JOINT_MAX:
                        joint[smask] = j
            percs, conds = idx.percs, idx.conds
            if percs or conds:
                while j >= 0 and ((percs and j in percs and not percs[j].reaches(ids))
                                  or (conds and not self._cond_ok(idx, j, norm))):
                    if len(uniq) > 1 and j <= SCAN_MAX:
                        masks = idx.masks
                        j -= 1
                        while j >= 0 and masks[j] & smask != smask:
                            j -= 1
                    else:
                        j = self._latest_group(idx, uniq, smask, j - 1)
        if idx.overrides:
            ov = idx.overrides.get(ids)
            if ov is not None and (j < 0 or ov[3][-1] > idx.seqs[j]):
                return ov[1][-1]  # the chain's own latest update (a policy's) came after the group's
        if j < 0:
            return None
        v = idx.values[j]
        if v is OPAQUE:
            return self._resolve(fluent, v, idx.times[j], len(self.events) - 1)
        return v

    def _chain_info(self, chain) -> Optional[tuple]:
        """``(normalised chain, agent ids, sorted distinct ids, their mask)`` of ``chain``, kept for
        :meth:`value_now`; for a chain naming an agent not met yet ``(normalised chain, None, agents met, 0)``
        (asked again once more agents are met); None for the empty chain (not kept). A chain that is no chain
        raises QueryError as :meth:`normalize` does."""
        norm = _NORMALISED.get(chain)
        if norm is None:
            norm = self.normalize(chain)  # (raises for a chain that is no chain: nothing kept)
            if norm == chain:
                norm = chain  # (one tuple where they are equal)
            if len(_NORMALISED) >= MAX_CACHED:
                _NORMALISED.clear()
            _NORMALISED[chain] = norm
        if not norm:
            return None
        chains = self._chains
        if len(chains) >= MAX_CACHED:
            chains.clear()
        get = self._aid.get
        info: tuple
        key: tuple
        if len(norm) <= 2:  # (the commonest: one or two agents, never the same one twice in a row)
            i = get(norm[0])
            k = i if len(norm) == 1 else get(norm[1])
            if i is None or k is None:
                info = chains[chain] = (norm, None, len(self._aid), 0)
            elif i == k:
                info = chains[chain] = (norm, (i,), (i,), 1 << i)
            else:
                key = (i, k)
                info = chains[chain] = (norm, key, key if i < k else (k, i), (1 << i) | (1 << k))
            return info
        ids = []
        for a in norm:
            i = get(a)
            if i is None:
                info = chains[chain] = (norm, None, len(self._aid), 0)
                return info
            ids.append(i)
        key = tuple(ids)
        uniq = tuple(sorted(set(key)))
        smask = 0
        for i in uniq:
            smask |= 1 << i
        info = chains[chain] = (norm, key, uniq, smask)
        return info

    def fluents(self) -> list[tuple]:
        return list(self._index if self._n_fluents is None else islice(self._index, self._n_fluents))

    def trace_names(self) -> TraceNames:
        if self._n_fluents is None:  # live: the tracker's names, read up to now
            return self._tracker._names_upto(len(self.events), len(self._index), self.agents)
        if self._trace_names is None:
            names = self._tracker._names_upto(len(self.events), self._n_fluents, self.agents)
            self._trace_names = names.snapshot()
        return self._trace_names


#: event classes met by :meth:`Tracker.append` (subclasses of ``_Event``)
_EVENT_CLASSES: set = set()


class Tracker:
    """The exact ground truth of a trace that grows: ``append`` events, query at any moment.

    ``Tracker(policy="strict-truthful", domain=None, entities=None, meta=None)``: the trust policy of
    :func:`~belief.truth.checker.check`; with a ``domain`` (and ``entities``: name -> type) every event is
    type-checked before it is taken; ``meta`` is the trace's meta (``{"private_to": agent}`` makes it that
    agent's private record, whose own beliefs stand for reality).
    """

    def __init__(self, policy: Union[str, TrustPolicy, None] = "strict-truthful", *, domain: Optional[Domain] = None,
                 entities: Optional[dict] = None, meta: Optional[dict] = None):
        self.trace = Trace(meta=meta)
        self.policy = get_policy(policy)
        #: knowledge by elimination (docs/logic.md) under the rules of ``meta["constraints"]``
        self.constraints = constraints_of(self.trace, None) or None
        self.domain = domain
        self.entities = entities
        #: the checker's replay so far (where everyone is, what the world holds, every update): read only
        self.replay = IndexBuilder(self.trace, self.policy)
        self._truth: Optional[TrackedTruth] = None
        self._agents: tuple = ()
        self._names = TraceNames()
        self._live = TrackedTruth(self, live=True)
        self._value_now = self._live.value_now  # (bound once: the commonest question's path)
        #: (chain, fluent) as given -> value's answer at the last event; with a tag, lookup's or knows_chain's.
        #: Emptied by every append; only hashable keys (a chain given as a list is answered, not kept)
        self._answers: dict = {}

    def __len__(self) -> int:
        return len(self.trace)

    def __repr__(self) -> str:
        return f"Tracker({len(self.trace)} events, {len(self.replay.agents)} agents)"

    # --- appending ------------------------------------------------------------------------------
    def append(self, event: Union[_Event, dict, str, bytes], *, renumber: bool = False) -> Any:
        """Take one event (an event object, a dict, or one JSON line) and return it as stored (with its ``t``).

        The event's ``t`` must be its index in the trace (or absent); ``renumber=True`` gives it the next
        index whatever it carries (events taken from another trace, e.g. an agent's perceptions). On a bad
        event: TraceError, and the tracker is unchanged.
        """
        events = self.trace._events
        n = len(events)
        ev: _Event
        if type(event) in _EVENT_CLASSES:  # (pydantic's isinstance runs Python code: the classes met are kept)
            ev = cast(_Event, event)
        elif isinstance(event, _Event):
            _EVENT_CLASSES.add(type(event))
            ev = event
        elif isinstance(event, (dict, str, bytes)):
            ev = parse_event(event)
        else:
            raise TraceError(f"not an event: {str(event)[:60]!r} (expected an event, a dict or a JSON line)")
        if ev.t != n:
            if ev.t is not None and not renumber:
                raise TraceError(f"{ev.where()}: event has t={ev.t} but is appended at index {n}")
            ev = share_fields(ev.model_copy(update={"t": n}))
        if self.domain is not None:
            problems = type_problems((ev,), self.domain, self.entities)
            if problems:
                raise TraceError(f"the event does not fit domain {self.domain.name}: "
                                 + "; ".join(problems[:MAX_REPORTED]))
        self._answers.clear()  # before the replay moves: its answers were about the last event
        new_names = self.replay.apply(ev, n)  # all or nothing: a refused event leaves the replay as it was
        events.append(ev)  # already checked: its t is its index
        self._truth = None
        live = self._live
        if new_names:  # a new fluent may join a constraint group, a new agent new chains: start afresh
            live.forget()
            if len(self._agents) != len(self.replay.agents):
                live.agents = self.agent_names()
        elif live._elim is not None:  # (live.grow(), inline)
            live._elim.budget.grow(1)  # what was memoised is about earlier times, which the new event does not change
        return ev

    def extend(self, events, *, renumber: bool = False) -> list:
        """:meth:`append` each event in turn; returns the stored events (stops at the first bad one)."""
        return [self.append(e, renumber=renumber) for e in events]

    # --- the truth so far -----------------------------------------------------------------------
    def agent_names(self) -> tuple:
        """The agents met so far, in the replay's order (one tuple until an event names a new one)."""
        if len(self._agents) != len(self.replay.agents):
            self._agents = tuple(self.replay.agents)
        return self._agents

    def _names_upto(self, n_events: int, n_fluents: int, agents: tuple) -> TraceNames:
        """The names of the first ``n_events`` events (shared and read incrementally; a view of an earlier
        prefix, asked after later events were read, gets its own)."""
        names = self._names
        if names.events_read > n_events or names.fluents_read > n_fluents:
            names = TraceNames()
        elif names.events_read == n_events and names.fluents_read == n_fluents and len(names.agents) >= len(agents):
            return names  # nothing new (the agents of the replay are agents of the events)
        names.add_agents(agents)
        if self.trace.meta.get("private_to") is not None:
            names.add_names((self.trace.meta["private_to"],))
        names.add_fluents(islice(self.replay.index, n_fluents))
        names.add_events(self.trace._events, n_events)
        return names

    def truth(self) -> TrackedTruth:
        """A :class:`~belief.truth.ground.GroundTruth` of the events so far, answering as
        ``check(self.trace, policy)`` does (it stays that prefix's truth after later appends).
        Cheap: it shares the tracker's replay; the same object until the next append."""
        if self._truth is None:
            self._truth = TrackedTruth(self)
            self._truth.share_memos(self._live)
        return self._truth

    # --- queries (the GroundTruth methods, on the events so far) --------------------------------
    def value(self, chain, fluent, at: Optional[int] = None):
        """The value ``chain`` holds for ``fluent`` (None: never observed, or observed 'nowhere')."""
        if at is None:  # (what _last does, inline: the commonest question)
            key = (chain, fluent)
            answers = self._answers
            try:
                v = answers.get(key, _MISS)
            except TypeError:  # a chain given as a list: answered, not kept
                return self._live.value(chain, fluent)
            if v is _MISS:
                v = self._value_now(chain, fluent)
                if len(answers) >= MAX_CACHED:
                    answers.clear()
                answers[key] = v
            return v
        return self._live.value(chain, fluent, at)

    def lookup(self, chain, fluent, at: Optional[int] = None):
        """The update behind :meth:`value` (:meth:`GroundTruth.lookup <belief.truth.ground.GroundTruth.lookup>`)."""
        if at is None:
            return self._last((chain, fluent, _LOOKUP), self._live.lookup, chain, fluent)
        return self._live.lookup(chain, fluent, at)

    def _last(self, key: tuple, ask, chain, fluent):
        """``ask(chain, fluent)`` at the last event, kept under ``key`` until the next append (a chain given as
        a list is unhashable: answered, not kept)."""
        try:
            v = self._answers.get(key, _MISS)
        except TypeError:
            return ask(chain, fluent)
        return self._keep(key, ask(chain, fluent)) if v is _MISS else v

    def _keep(self, key: tuple, answer):
        """Keep `answer` (to the question `key`, at the last event) until the next append."""
        answers = self._answers
        if len(answers) >= MAX_CACHED:
            answers.clear()
        answers[key] = answer
        return answer

    def reality(self, fluent, at: Optional[int] = None):
        return self._live.reality(fluent, at)

    def answer(self, query: Union[str, Formula], at: Optional[int] = None) -> TruthAnswer:
        """Answer ``? A BELIEVE B BELIEVE apple IN ?c`` (open) or a ground fact (yes/no)."""
        return self._live.answer(query, at)

    def knows(self, agent: str, fluent, perspective=(), at: Optional[int] = None) -> bool:
        return self._live.knows(agent, fluent, perspective, at)

    def knows_chain(self, chain, fluent, at: Optional[int] = None) -> bool:
        if at is None:
            return self._last((chain, fluent, _KNOWS), self._live.knows_chain, chain, fluent)
        return self._live.knows_chain(chain, fluent, at)

    def clear_caches(self) -> None:
        """Forget every memo and kept answer (they never change an answer: tests compare answers both ways)."""
        self._answers.clear()
        self._live.forget()
        if self._truth is not None:
            self._truth.share_memos(self._live)

    def aware_that_knows(self, a: str, b: str, fluent, at: Optional[int] = None) -> bool:
        return self._live.aware_that_knows(a, b, fluent, at)


__all__ = ["Tracker", "TrackedTruth"]
