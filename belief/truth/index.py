"""Replay of a trace into per-fluent update lists: the data behind :class:`belief.truth.ground.GroundTruth`.

Per fluent the index keeps the list of *updates* in order, each with

* ``mask``: the agents who see the value together (every chain over them holds it);
* ``wmask``: the agents who know the update happened (``mask`` plus witnesses who did not see the value; the
  witnessing is joint: :func:`credits` says which chains it makes aware);
* ``value``: a string, ``None`` ("nowhere"), :data:`UNSURE` (a possible change) or :data:`OPAQUE`
  (the real value at that moment, which the trace does not name);
* ``change``: whether the update may have changed the fluent (a real change or a possible one);
* an optional condition (only chains that believed one of some values draw the update),
* and an optional excluded solo chain (the actor of a possible change, the speaker of a message),
* and, for an event that says who perceived it beyond the default (secret observers, inattentive agents,
  hidden listeners, ``perceived_as``), its :class:`Perception`: ``mask`` is then every agent a chain reached
  by the update may contain, and a query checks the chain against the perception exactly,

plus, for every agent, the positions it observed (``by_agent``) and witnessed (``wit_by_agent``), and the
fluent's real history. The cost per event is proportional to its observers (and, for an entry, the
fluents visible in the room), never to the number of chains. An entry into a room of ``n`` agents
costs ``n`` squared (each sees where every other is), so a trace may name at most :data:`MAX_AGENTS`
agents: more is refused with a TraceError before any per-agent structure grows (10^6 agents in one event
header would otherwise take minutes and gigabytes), and the whole replay may record at most
:func:`observation_limit` observations (one per update and agent who observes or witnesses it): 160 events of
1,000 agents entering and leaving a room would otherwise take 2.6 GB.

:meth:`IndexBuilder.apply` replays one event all or nothing (the online tracker): a refused event leaves the
builder as it was, whatever the replay wrote before it refused.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, cast

from belief.errors import TraceError
from belief.logic.formula import normalize_chain
from belief.logic.policies import ChainEffect, GroupEffect, PolicyContext, TrustPolicy
from belief.truth.conditions import MayCondition, may_condition
from belief.truth.trace import declared_rooms, event_agents, perception_agents

#: how a value reached a chain
HOW_REALITY = "reality"
HOW_SEEN = "observed"          # present when it happened / was stated
HOW_ENTERED = "seen-on-entering"
HOW_TOLD = "told"              # a message, through the trust policy
HOW_POSSIBLE = "possible-change"
#: the ``how`` of a group update by its code (:attr:`FluentIndex.hows` keeps codes, one byte each)
HOWS = (HOW_SEEN, HOW_ENTERED, HOW_TOLD, HOW_POSSIBLE)
HOW_CODE = {how: code for code, how in enumerate(HOWS)}
_SEEN_CODE = HOW_CODE[HOW_SEEN]


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


#: the largest number the replay's int arrays hold as 4-byte ints ("i"); beyond it they become 8-byte ("q") ints
NARROW_LIMIT = 2**31 - 1


#: the fields of an event that name agents besides its actors (an event kind has some of them)
_NAMING_FIELDS = ("recipients", "audience", "visible_to", "witnesses", "observers")
_WITNESSES = ("witnesses",)
_FIELDS_OF: dict = {}


def _fields_of(cls: type, names: tuple) -> tuple:
    """Those of ``names`` that events of class ``cls`` have (kept per class: ``getattr`` of a name a pydantic
    model lacks goes through its slow ``__getattr__``, and events forbid extra fields)."""
    key = (cls, names)
    got = _FIELDS_OF.get(key)
    if got is None:
        fields = getattr(cls, "model_fields", {})
        got = _FIELDS_OF[key] = tuple(n for n in names if n in fields or hasattr(cls, n))
    return got


class FluentIndex:
    __slots__ = ("code", "times", "masks", "wmasks", "values", "events", "hows", "seqs", "changes", "excl", "conds",
                 "percs", "by_agent", "wit_by_agent", "bits", "common", "joint", "joint_read", "real_t", "real_v", "real_e",
                 "change_t", "overrides", "outcomes")

    def __init__(self, code: str = "i"):
        # compact columns (issue 32): numbers the replay makes itself (event positions, update numbers, positions
        # per agent) are machine integers in arrays of typecode ``code``: 4 bytes each ("i") instead of a pointer
        # and a 32-byte int object, 8 ("q") once the replay passed :data:`NARROW_LIMIT` (:meth:`widen`);
        # times, masks and values stay lists (they share objects with the events and the replay's state)
        self.times: list[int] = []
        self.masks: list[int] = []
        # the same list as ``masks`` until an update is witnessed by an agent who did not see it (then a copy)
        self.wmasks: list[int] = self.masks
        self.values: list = []
        self.code = code
        self.events: array = array(code)       # position of the update's event in the trace
        self.hows: bytearray = bytearray()    # how the update reached its chains: its code in HOWS
        self.seqs: array = array(code)         # the builder's update number (orders group and chain updates)
        self.changes: bytearray = bytearray()  # 1: the update may have changed the fluent
        self.excl: dict[int, int] = {}      # position -> bit of the agent whose solo chain is excluded
        self.conds: dict[int, tuple] = {}   # position -> (fluent, frozenset of values), or a MayCondition
        self.outcomes: dict[int, Any] = {}  # position of a possible change -> the value it gives if it happened
        self.percs: dict[int, Perception] = {}  # position -> who perceived it, when not every observer alike
        self.by_agent: dict[int, array] = {}      # agent id -> positions (an array of ``code``), increasing
        # an agent's witnessed positions are the same array as its observed ones until they differ (a copy then)
        self.wit_by_agent: dict[int, array] = {}
        # by_agent as bitset blocks, built lazily at query time: aid -> [positions folded in, blocks]; an
        # index that grows (the online tracker) extends them from the positions appended since
        self.bits: dict[int, list] = {}
        self.common: dict[int, tuple] = {}  # agents' bitmask -> (position asked, their latest joint update by then)
        # agents' bitmask (two or more agents) -> the latest position they all observed (-1: none), kept current
        # by every update written (:func:`fold_joint`): the online tracker registers the sets it is asked about
        self.joint: dict[int, int] = {}
        # the position of the last update that read (or forgot) every registered set (:func:`fold_joint`)
        self.joint_read = 0
        self.real_t: list[int] = []
        self.real_v: list = []
        self.real_e: array = array(code)
        self.change_t: list[int] = []       # times at which the real value changed
        # chain (tuple of agent ids) -> [times, values, events, seqs, hows]
        self.overrides: dict[tuple, list] = {}

    def widen(self) -> None:
        """Make the int arrays 8-byte ints (an agent's two position arrays stay one array where they were)."""
        self.code = "q"
        self.events, self.seqs, self.real_e = array("q", self.events), array("q", self.seqs), array("q", self.real_e)
        wide: dict = {}
        for positions in (self.by_agent, self.wit_by_agent):
            for i, p in positions.items():
                q = wide.get(id(p))
                if q is None:
                    q = wide[id(p)] = array("q", p)
                positions[i] = q


#: agent sets whose latest joint update one index keeps current (:attr:`FluentIndex.joint`)
JOINT_MAX = 4096
#: the most set look-ups one update may spend keeping them current; an update that would need more (many
#: observers and many sets) empties them instead (they are registered again when asked)
JOINT_WORK = 64


#: mask -> its subsets of two agents or more (the only sets :attr:`FluentIndex.joint` holds), for masks of at
#: most log2(JOINT_WORK) agents; emptied past IDS_CACHE masks
_GROUPS: dict[int, tuple] = {}


def _groups_in(mask: int) -> tuple:
    out = []
    s = mask
    while s:
        if s & (s - 1):  # two bits or more
            out.append(s)
        s = (s - 1) & mask
    if len(_GROUPS) >= IDS_CACHE:
        _GROUPS.clear()
    got = _GROUPS[mask] = tuple(out)
    return got


def fold_joint(idx: "FluentIndex", mask: int, pos: int) -> None:
    """Update position ``pos`` of ``idx``, observed by ``mask``, is now the latest joint update of every set
    registered in ``idx.joint`` inside ``mask``. Reads the subsets of ``mask`` or the registered sets, whichever are
    fewer, when that is at most :data:`JOINT_WORK` look-ups. More (many observers and many sets) is paid for by
    the updates since the last such read, at most JOINT_WORK look-ups each on average: the sets are read if
    that pays, else forgotten (registered again when asked)."""
    c = mask.bit_count()
    if c < 2:
        return
    joint = idx.joint
    n = len(joint)
    if (1 << c) <= n:
        if (1 << c) <= JOINT_WORK:
            subsets = _GROUPS.get(mask)
            if subsets is None:
                subsets = _groups_in(mask)
            for s in subsets:
                if s in joint:
                    joint[s] = pos
            return
    elif n <= JOINT_WORK:
        for s in joint:
            if s & mask == s:
                joint[s] = pos
        return
    if n <= JOINT_WORK * (pos - idx.joint_read):
        for s in joint:
            if s & mask == s:
                joint[s] = pos
    else:
        joint.clear()
    idx.joint_read = pos


class Perception:
    """Who perceived one update and whom each agent believes perceived it: an event model, by agent ids.

    The event, as agent ``x`` takes it, was perceived by ``view(x)`` (``views[x]``, else ``default``: the
    event's observers). A chain ``(a1, .., ak)`` is reached iff ``a1`` perceived it (``perceivers``) and
    each ``a(i+1)`` is in ``view(a(i))``. ``reach`` is every agent such a chain may contain. ``witnesses``
    (an ``observe``'s): agents every perceiver takes to know of the look without seeing the value
    (:meth:`credits`).
    """

    __slots__ = ("perceivers", "default", "views", "reach", "witnesses")

    def __init__(self, perceivers: int, default: int, views: dict, witnesses: int = 0):
        self.perceivers = perceivers
        self.default = default
        self.views = views
        self.witnesses = witnesses
        reach = perceivers | default
        for m in views.values():
            reach |= m
        self.reach = reach

    def __reduce__(self):  # (copy and pickle; also in the compiled build, whose classes have no __dict__)
        return type(self), (self.perceivers, self.default, self.views, self.witnesses)

    def reaches(self, ids) -> bool:
        """Is the chain (agent ids, in order) reached by the update?"""
        return bool((self.perceivers >> ids[0]) & 1) and self.follows(ids)

    def follows(self, ids) -> bool:
        """Does each agent of ``ids`` after the first believe, in the previous one's view, that it perceived?"""
        views, default = self.views, self.default
        for k in range(len(ids) - 1):
            if not (views.get(ids[k], default) >> ids[k + 1]) & 1:
                return False
        return True

    def credits(self, ids) -> bool:
        """Awareness (:func:`credits`): in each agent's view the next one knows of the look (perceived it, or is
        a witness), and, in the view of the last but one, the last perceived it (saw the value)."""
        views, default, wit = self.views, self.default, self.witnesses
        last = len(ids) - 2
        for k in range(last + 1):
            seen = views.get(ids[k], default)
            if k < last:
                seen |= wit
            if not (seen >> ids[k + 1]) & 1:
                return False
        return True

    def __repr__(self):
        return (f"Perception(perceivers={self.perceivers:b}, default={self.default:b}, views={self.views}, "
                f"witnesses={self.witnesses:b})")


def credits(idx: "FluentIndex", j: int, ids) -> bool:
    """Does update ``j`` make the chain ``ids`` (agent ids, two or more) aware, before its value, condition and
    excluded actor are weighed: does ``ids[0]`` know that ``ids[1]`` knows that .. ``ids[-1]`` saw the value?

    Witnessing is joint: the witnesses and observers of a look know together that the observers looked. So
    the chain is credited iff every agent knows of the update (``wmask``: observed or witnessed) and the last
    one saw the value (``mask``). ``Observe(agents=[c], witnesses=[a, b, c])`` credits ``(a, b, c)``,
    ``(b, a, c)``, ``(c, b, c)``, not ``(a, c, b)`` (b never saw it). An update with a :class:`Perception`
    reads it along the chain instead (:meth:`Perception.credits`): the first agent perceived or witnessed it,
    and every other may be reached by it (or witnessed it)."""
    wm = idx.wmasks[j]
    if not (wm >> ids[0]) & 1:
        return False
    perc = idx.percs.get(j) if idx.percs else None
    if perc is None:
        for i in ids[1:-1]:
            if not (wm >> i) & 1:
                return False
        return bool((idx.masks[j] >> ids[-1]) & 1)
    mask = idx.masks[j]
    for i in ids[1:-1]:
        if not ((mask | perc.witnesses) >> i) & 1:
            return False
    return bool((mask >> ids[-1]) & 1) and perc.credits(ids)


@dataclass
class Chapter:
    participants: set = field(default_factory=set)
    exit_rank: dict = field(default_factory=dict)


#: the most agents a trace may name (1,000 agents entering one room: about 3 s and 0.1 GB to check)
MAX_AGENTS = 1000
#: observations a replay may record (one per update and agent who observes or witnesses it): this many, plus
#: :data:`OBSERVATIONS_PER_EVENT` for each event read so far (about 16 bytes and 1 us each)
OBSERVATIONS_BASE = 4_000_000
OBSERVATIONS_PER_EVENT = 4_096
#: distinct observer sets whose agent ids :meth:`IndexBuilder.ids` keeps (the cache is emptied beyond)
IDS_CACHE = 4_096


def observation_limit(events: int) -> int:
    """The observations a replay of ``events`` events may record (:data:`OBSERVATIONS_BASE` + per event)."""
    return OBSERVATIONS_BASE + OBSERVATIONS_PER_EVENT * events


_MISSING = object()
_NO_CHAPTER = (None, None)


class _Undo:
    """What applying one event changed in an :class:`IndexBuilder`, enough to put it back: the sizes of what
    only grows (agents, fluents, the global update count ``seq``), and the old value of each dict entry the
    event wrote that the index does not keep (rooms, places). Update lists are cut back by ``seq`` (and real
    values by event) when the event is refused, so applying an event that is taken costs almost nothing
    more. One per builder, emptied for each event."""

    __slots__ = ("e", "marks", "chapter", "wrote", "rooms", "loc", "occ", "fluent_room", "container_room")

    def __init__(self) -> None:
        self.e: int = 0            # the event's index
        self.marks: tuple = ()     # sizes of what only grows
        self.chapter: tuple = ()   # the event's chapter before it (:meth:`chapter_of`)
        self.wrote = False         # whether the event wrote any update
        self.rooms: list = []      # rooms the event added
        self.loc: dict = {}        # agent -> its room before the event (_MISSING: not there)
        self.occ: dict = {}
        self.fluent_room: dict = {}
        self.container_room: dict = {}

    @staticmethod
    def chapter_of(b: "IndexBuilder", chapter) -> tuple:
        ch = b.chapters.get(chapter)
        return chapter, None if ch is None else (set(ch.participants), dict(ch.exit_rank))

    def clear(self) -> None:
        """Empty what the event saved (after it was taken or undone)."""
        for d in (self.loc, self.occ, self.fluent_room, self.container_room, self.rooms):
            d.clear()

    def undo(self, b: "IndexBuilder") -> None:
        n_agents, n_fluents, seq, observations, last_chapter = self.marks
        while len(b.index) > n_fluents:  # fluents met first in this event: the last ones in
            b.index.popitem()
        if b.seq != seq or self.wrote:  # updates were written before the refusal: cut them back
            for f, idx in b.index.items():
                _cut(idx, seq, self.e, b.ids)
                if idx.real_v:
                    b.reality[f] = idx.real_v[-1]
                else:
                    b.reality.pop(f, None)
            for f in [f for f in b.reality if f not in b.index]:
                del b.reality[f]
        for f, room in self.fluent_room.items():
            now = b.fluent_room.get(f)
            if now is not None:
                b.room_fluents[now].pop(f, None)
            if room is not _MISSING and room is not None:
                b.room_fluents.setdefault(room, {})[f] = None
        for d, was in ((b.loc, self.loc), (b.occ, self.occ), (b.fluent_room, self.fluent_room),
                       (b.container_room, self.container_room)):
            for k, old in was.items():
                _restore(d, k, old)
        b.rooms.difference_update(self.rooms)
        for a in b.agents[n_agents:]:
            del b.aid[a]
            b.loc.pop(a, None)
        del b.agents[n_agents:]
        chapter, saved = self.chapter
        if chapter is not None:
            if saved is None:
                b.chapters.pop(chapter, None)
            else:
                b.chapters[chapter].participants, b.chapters[chapter].exit_rank = saved
        b.seq, b.observations, b.last_chapter = seq, observations, last_chapter


def _restore(d: dict, key, old) -> None:
    if old is _MISSING:
        d.pop(key, None)
    else:
        d[key] = old


def _short(text: str, width: int = 200) -> str:
    return text if len(text) <= width else text[:width] + f"... ({len(text) - width:,} more characters)"


def _cut(idx: FluentIndex, seq: int, e: int, ids) -> None:
    """Drop the updates of ``idx`` numbered ``seq`` or later, and its real values recorded at event ``e``."""
    n = len(idx.seqs)
    while n and idx.seqs[n - 1] >= seq:
        n -= 1
    if n < len(idx.seqs):
        for positions, masks in ((idx.by_agent, idx.masks), (idx.wit_by_agent, idx.wmasks)):
            for p in range(n, len(masks)):
                for i in ids(masks[p]):
                    lst = positions.get(i)
                    while lst and lst[-1] >= n:
                        lst.pop()
                    if lst is not None and not lst:
                        del positions[i]
        columns: tuple[Any, ...] = (idx.times, idx.masks, idx.wmasks, idx.values, idx.events, idx.hows, idx.seqs,
                                      idx.changes)
        for column in columns:  # (wmasks may be masks: cut twice, the second time a no-op)
            del column[n:]
        for d in (idx.excl, idx.conds, idx.outcomes, idx.percs):  # keyed by position, in increasing order
            while d and next(reversed(d)) >= n:
                d.popitem()
        for s in [s for s, p in idx.joint.items() if p >= n]:  # registered again when asked
            del idx.joint[s]
    k = len(idx.real_e)
    while k and idx.real_e[k - 1] == e:
        k -= 1
    if k < len(idx.real_e):
        t = idx.real_t[k]
        real: tuple[Any, ...] = (idx.real_t, idx.real_v, idx.real_e)
        for lst in real:
            del lst[k:]
        while idx.change_t and idx.change_t[-1] >= t:
            idx.change_t.pop()
    for key in [key for key, ov in idx.overrides.items() if ov[3] and ov[3][-1] >= seq]:
        ov = idx.overrides[key]
        m = len(ov[3])
        while m and ov[3][m - 1] >= seq:
            m -= 1
        if m:
            for lst in ov:
                del lst[m:]
        else:
            del idx.overrides[key]


def _observed(by: dict, wit: dict, ids, pos: int, code: str) -> None:
    """Agents ``ids`` observed update ``pos`` (and so witnessed it): append it to their position arrays, which
    stay one array per agent while the two are equal."""
    for i in ids:
        lst = by.get(i)
        if lst is not None:
            lst.append(pos)
            w = wit.get(i)
            if w is None:
                wit[i] = array(code, (pos,))
            elif w is not lst:
                w.append(pos)
        else:
            w = wit.get(i)
            if w is None:
                by[i] = wit[i] = array(code, (pos,))
            else:
                by[i] = array(code, (pos,))
                w.append(pos)


class IndexBuilder:
    """Replays a trace event by event (``on_<kind>``) into :class:`FluentIndex` objects.

    Times and observer masks are left unannotated where updates append them: the compiled build
    (``BELIEF_COMPILE=1``, setup.py) then appends the event's own int objects, as the interpreter does, instead of
    a new one each (an annotated ``int`` is held unboxed and boxed again for a list)."""

    def __init__(self, trace, policy: TrustPolicy, rooms: Optional[Iterable[str]] = None):
        """``rooms``: the rooms known up front (default: the trace's ``meta["room_names"]``, :func:`declared_rooms`)."""
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
        #: rooms before any event names them: a move's ``to`` naming one is a room, never a container
        self.declared = frozenset(rooms) if rooms is not None else declared_rooms(getattr(trace, "meta", None))
        self.rooms: set = set(self.declared)
        self.chapters: dict[int, Chapter] = {}
        self.last_chapter: Optional[int] = None
        self.seq = 0
        #: observations recorded so far (see :func:`observation_limit`)
        self.observations = 0
        self._limit = observation_limit(0)
        self._ev: Any = None  # the event being replayed
        self._undo: Optional[_Undo] = None  # what the event being applied changed (None: plain replay)
        self._undo_record = _Undo()
        self._on: dict = {}  # event kind -> its on_<kind> function
        self._bits_cache: dict[int, tuple] = {}
        self._code = "i"  # the typecode of the indexes' int arrays (:data:`NARROW_LIMIT`)
        # the current event's perception fields, as (secret mask, inattentive mask, {id: believed mask}); None:
        # the default (every observer perceives, and believes exactly the observers did)
        self._spec: Optional[tuple] = None
        self._percs: dict[int, Optional[Perception]] = {}  # observer mask -> Perception, for the current event
        self._msg_perc: Optional[Perception] = None       # a message's perception (its observers are fixed)
        self._named: dict[str, None] = {}   # agents named by the events before position _named_upto
        self._named_upto = 0

    def __reduce__(self):
        """Copy and pickle: built again from its trace and policy, then given its state (the compiled build's
        classes cannot be made without calling ``__init__``)."""
        return type(self), (self.trace, self.policy), self.__getstate__()

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
        """The agent ids of ``mask``, in increasing order (cached for :data:`IDS_CACHE` masks at a time)."""
        r = self._bits_cache.get(mask)
        if r is None:
            out = []
            m = mask
            while m:
                low = m & -m
                out.append(low.bit_length() - 1)
                m ^= low
            if len(self._bits_cache) >= IDS_CACHE:
                self._bits_cache.clear()
            r = self._bits_cache[mask] = tuple(out)
        return r

    # -- what an applied event changes, saved before it is written (see _Undo) --
    def _add_room(self, room: str) -> None:
        if room not in self.rooms:
            if self._undo is not None:
                self._undo.rooms.append(room)
            self.rooms.add(room)

    def _set_container(self, container: str, room: str) -> str:
        """Place ``container`` in ``room``; its room."""
        u = self._undo
        if u is not None and container not in u.container_room:
            u.container_room[container] = self.container_room.get(container, _MISSING)
        self.container_room[container] = room
        return room

    def named_agents(self, ev, e: int) -> list:
        """Every agent named by the events up to and including ``ev`` (at position ``e``), in order of first
        mention. Causal, so that replaying a prefix (the online tracker) gives what the whole trace gives;
        folded in lazily, so each event is read once however many such messages come."""
        if self.trace is not None:
            for k in range(self._named_upto, e):
                for a in event_agents(self.trace[k]):
                    self._named.setdefault(a, None)
            self._named_upto = max(self._named_upto, e)
        names = dict(self._named)
        for a in event_agents(ev):
            names.setdefault(a, None)
        for a in self.agents:  # a builder without its trace (a filter's replay) knows the agents it met
            names.setdefault(a, None)
        return list(names)

    def fidx(self, f: tuple) -> FluentIndex:
        """The index of ``f``, to write to (made on first use)."""
        idx = self.index.get(f)
        if idx is None:
            idx = self.index[f] = FluentIndex(self._code)
        return idx

    def perception(self, observers: int) -> Optional[Perception]:
        """The current event's perception of an update whose default observers are ``observers``."""
        if self._spec is None:
            return None
        if observers not in self._percs:
            secret, inattentive, believed = self._spec
            if not secret and not believed and not observers & inattentive:
                perc = None  # nothing special about this update
            else:
                views = {s: observers | (1 << s) for s in self.ids(secret)}
                views.update(believed)
                ev: Any = self._ev
                witnesses = ev.witnesses if _fields_of(type(ev), _WITNESSES) else None
                perc = Perception((observers & ~inattentive) | secret, observers, views,
                                  self.mask_of(witnesses) if witnesses else 0)
            self._percs[observers] = perc
        return self._percs[observers]

    def group(self, f: tuple, mask, value, t, e: int, how: str, excl: int = 0, *,
              wmask: int = 0, change: bool = False, cond: Optional[tuple] = None):
        perc = None
        if self._msg_perc is not None:  # a message: the policy chose the agents; perception narrows them
            perc = self._msg_perc
            mask &= perc.reach
            wmask |= mask & perc.perceivers
        elif self._spec is not None:
            perc = self.perception(mask)
            if perc is not None:
                mask = perc.reach
                wmask |= mask & perc.perceivers
            else:
                wmask = wmask | mask if wmask else mask
        else:
            wmask = wmask | mask if wmask else mask  # (the same int object: no new one per update)
        if not wmask:
            return -1  # nobody perceived it: no chain is reached, nobody knows of it
        n = self.observations + mask.bit_count() + wmask.bit_count()
        if n > self._limit:
            self._over_limit()
        self.observations = n
        seq = self.seq
        if seq >= NARROW_LIMIT or e >= NARROW_LIMIT:
            self._widen()
        idx = self.index.get(f)
        if idx is None:
            idx = self.index[f] = FluentIndex(self._code)
        times = idx.times
        pos = len(times)
        times.append(t)
        masks = idx.masks
        same = wmask == mask
        if same:
            masks.append(mask)
            if idx.wmasks is not masks:
                idx.wmasks.append(wmask)
        else:
            if idx.wmasks is masks:
                idx.wmasks = masks.copy()
            masks.append(mask)
            idx.wmasks.append(wmask)
        idx.values.append(value)
        idx.events.append(e)
        idx.hows.append(HOW_CODE[how])
        idx.seqs.append(seq)
        idx.changes.append(change)
        self.seq = seq + 1
        if excl:
            idx.excl[pos] = excl
        if cond is not None:
            idx.conds[pos] = cond
        if perc is not None:
            idx.percs[pos] = perc
        if idx.joint:
            fold_joint(idx, mask, pos)
        by, wit = idx.by_agent, idx.wit_by_agent
        ids = self._bits_cache.get(mask)
        if ids is None:
            ids = self.ids(mask)
        if same:  # (almost every update) an agent's two position arrays stay one while they are equal
            if idx.wmasks is masks:  # never parted: every agent's two are one array (or none)
                for i in ids:
                    lst = by.get(i)
                    if lst is None:
                        by[i] = wit[i] = array(idx.code, (pos,))
                    else:
                        lst.append(pos)
            else:
                _observed(by, wit, ids, pos, idx.code)
            return pos
        for i in ids:
            lst = by.get(i)
            if lst is None:
                by[i] = array(idx.code, (pos,))
            else:
                if wit.get(i) is lst:
                    wit[i] = array(idx.code, lst)  # they part here
                lst.append(pos)
        for i in self.ids(wmask):
            w = wit.get(i)
            if w is None:
                wit[i] = array(idx.code, (pos,))
            else:
                if w is by.get(i):
                    w = wit[i] = array(idx.code, w)
                w.append(pos)
        return pos

    def seen(self, f: tuple, mask, value, t, e: int, room: Optional[str]) -> None:
        """The agents of ``mask`` see ``f`` become ``value``: :meth:`set_real` (the value shown later in ``room``),
        then one group update (``HOW_SEEN``), a change iff reality changed. The commonest write (a move, the
        whereabouts of who enters or leaves, a statement, an action's effect): when the event says nothing of
        who perceived it, the update is written here, without :meth:`group`'s perception steps (its observers
        are its witnesses; no exclusion, no condition). The columns are written as :meth:`show` writes them."""
        change = self.set_real(f, value, t, e, room)
        if self._spec is not None or self._msg_perc is not None:  # (secret observers may see what nobody saw)
            self.group(f, mask, value, t, e, HOW_SEEN, change=change)
            return
        if not mask:
            return  # nobody saw it (as group: no update)
        n = self.observations + 2 * mask.bit_count()  # (its observers, who also witness it)
        if n > self._limit:
            self._over_limit()
        self.observations = n
        seq = self.seq
        if seq >= NARROW_LIMIT:  # (set_real widened the arrays for e)
            self._widen()
        idx = self.index[f]  # (set_real made it)
        times = idx.times
        pos = len(times)
        times.append(t)
        masks = idx.masks
        masks.append(mask)
        if idx.wmasks is not masks:
            idx.wmasks.append(mask)
        idx.values.append(value)
        idx.events.append(e)
        idx.hows.append(_SEEN_CODE)
        idx.seqs.append(seq)
        idx.changes.append(change)
        self.seq = seq + 1
        if idx.joint:
            fold_joint(idx, mask, pos)
        ids = self._bits_cache.get(mask)
        if ids is None:
            ids = self.ids(mask)
        by = idx.by_agent
        if idx.wmasks is masks:  # (as in group)
            wit = idx.wit_by_agent
            for i in ids:
                lst = by.get(i)
                if lst is None:
                    by[i] = wit[i] = array(idx.code, (pos,))
                else:
                    lst.append(pos)
        else:
            _observed(by, idx.wit_by_agent, ids, pos, idx.code)

    def show(self, shown: dict, mask, t, e: int, skip: set) -> None:
        """An entry shows the fluents of ``shown`` but those in ``skip`` (their real values) to ``mask``:
        :meth:`group` of each (``HOW_ENTERED``), with what the updates share (observers, the observation count,
        agent ids) worked out once. An event that says who perceived it, or a replay near :data:`NARROW_LIMIT`,
        goes through :meth:`group`."""
        k = len(shown) - len(shown.keys() & skip)
        seq = self.seq
        if (not mask or self._spec is not None or self._msg_perc is not None or seq + k >= NARROW_LIMIT
                or e >= NARROW_LIMIT):
            for f in shown:
                if f not in skip:
                    self.group(f, mask, self.reality.get(f), t, e, HOW_ENTERED)
            return
        n = self.observations + 2 * k * mask.bit_count()  # (each update: its observers, who also witness it)
        if n > self._limit:
            self._over_limit()
        self.observations = n
        ids = self._bits_cache.get(mask)
        if ids is None:
            ids = self.ids(mask)
        how = HOW_CODE[HOW_ENTERED]
        index, reality = self.index, self.reality
        for f in shown:
            if f in skip:
                continue
            idx = index.get(f)
            if idx is None:
                idx = index[f] = FluentIndex(self._code)
            times = idx.times
            pos = len(times)
            times.append(t)
            masks = idx.masks
            masks.append(mask)
            if idx.wmasks is not masks:
                idx.wmasks.append(mask)
            idx.values.append(reality.get(f))
            idx.events.append(e)
            idx.hows.append(how)
            idx.seqs.append(seq)
            idx.changes.append(0)
            seq += 1
            if idx.joint:
                fold_joint(idx, mask, pos)
            by = idx.by_agent
            if idx.wmasks is masks:  # (as in group)
                wit = idx.wit_by_agent
                for i in ids:
                    lst = by.get(i)
                    if lst is None:
                        by[i] = wit[i] = array(idx.code, (pos,))
                    else:
                        lst.append(pos)
            else:
                _observed(by, idx.wit_by_agent, ids, pos, idx.code)
        self.seq = seq

    def chain_update(self, f: tuple, chain: tuple, value, t, e: int, how: str):
        chain = cast("tuple[str, ...]", normalize_chain(chain))  # a trace's chains name agents, never variables
        if not chain:
            return
        for a in chain:
            self.bit(a)
        key = tuple(self.aid[a] for a in chain)
        if self._msg_perc is not None and not self._msg_perc.reaches(key):
            return  # the chain does not perceive the message (a hidden listener, an inattentive recipient)
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

    def set_real(self, f: tuple, value, t, e: int, room: Optional[str], *, reveal: bool = False) -> bool:
        """Record the fluent's real value; True iff that is a change (a reveal of an unknown value is not)."""
        if e >= NARROW_LIMIT:
            self._widen()
        idx = self.index.get(f)
        if idx is None:
            idx = self.index[f] = FluentIndex(self._code)
        reality = self.reality
        before = reality.get(f, _MISSING)
        changed = (value != before) if before is not _MISSING else not reveal
        idx.real_t.append(t)
        idx.real_v.append(value)
        idx.real_e.append(e)
        if changed:
            idx.change_t.append(t)
        reality[f] = value
        u = self._undo
        if u is not None:
            u.wrote = True
        if room is not None or not reveal:
            old = self.fluent_room.get(f, _MISSING)
            if old is not room and old != room:  # (else the room's fluents already hold it)
                if u is not None and f not in u.fluent_room:
                    u.fluent_room[f] = old
                if isinstance(old, str):  # not None, not _MISSING
                    self.room_fluents[old].pop(f, None)
                self.fluent_room[f] = room
                if room is not None:
                    here = self.room_fluents.get(room)
                    if here is None:
                        here = self.room_fluents[room] = {}
                    here[f] = None
        return changed

    def _widen(self) -> None:
        """Past :data:`NARROW_LIMIT` updates or events: every index's int arrays become 8-byte ints."""
        if self._code != "q":
            self._code = "q"
            for idx in self.index.values():
                idx.widen()

    def room_of_actor(self, ev, agent: Optional[str]) -> Optional[str]:
        if ev.room is not None:
            return ev.room
        if agent is None:
            return None
        self.bit(agent)
        return self.loc.get(agent)

    def fail(self, ev, msg: str):
        raise TraceError(f"{ev.where()}: {msg} (event t={ev.t}: {_short(ev.describe())})")

    def _over_limit(self):
        ev = self._ev
        where = f"{ev.where()}: " if ev is not None else ""
        raise TraceError(f"{where}the replay would record more than {self._limit:,} observations by this event (the "
                         f"checker's limit: {OBSERVATIONS_BASE:,} + {OBSERVATIONS_PER_EVENT:,} per event; an update "
                         f"costs one per agent who observes it, so n agents entering a room cost n squared)")

    def leave(self, agent: str, t, e: int):
        room = self.loc.get(agent)
        if room is None:
            return
        mask = self.occ.get(room, 0)
        f = ("at", agent)
        self.seen(f, mask, None, t, e, None)
        u = self._undo
        if u is not None:  # (saved inline: leaving and entering are the commonest events)
            u.loc.setdefault(agent, room)
            u.occ.setdefault(room, mask)
        self.occ[room] = mask & ~(1 << self.aid[agent])  # (an agent in a room was met)
        self.loc[agent] = None

    # -- events --
    def run(self):
        for e, ev in enumerate(self.trace):
            self.step(ev, e)
        return self

    def step(self, ev, e: int):
        """Replay one event at position ``e`` (``run`` does this for each event of the trace). On an error the
        builder may be left half-way: :meth:`apply` is the all-or-nothing form."""
        t = ev.t if ev.t is not None else e
        self._ev, self._limit = ev, OBSERVATIONS_BASE + OBSERVATIONS_PER_EVENT * (e + 1)  # observation_limit
        spec = self._perception_spec(ev) if ev.has_perception else None  # checked before anything changes
        if ev.chapter is not None:
            self.last_chapter = ev.chapter
        on = self._on.get(ev.kind)
        if on is None:
            on = self._on[ev.kind] = getattr(type(self), "on_" + ev.kind)
        if spec is None:
            on(self, ev, t, e)
            return
        self._spec, self._percs, self._msg_perc = spec, {}, None
        try:
            on(self, ev, t, e)
        finally:
            self._spec = self._msg_perc = None

    def apply(self, ev, e: int) -> bool:
        """:meth:`step`, all or nothing: if the event is refused (a TraceError, or any error midway) the
        builder is put back as it was before, and the error raised. Costs what the event writes, not the
        replay's size: each dict entry the event writes is saved once, each index's lengths once. True iff the
        event met an agent or a fluent for the first time (the online tracker then starts its memos afresh)."""
        u = self._undo_record
        n_agents, n_fluents = len(self.agents), len(self.index)
        u.e, u.wrote = e, False  # wrote: a real value was recorded (set_real)
        u.marks = (n_agents, n_fluents, self.seq, self.observations, self.last_chapter)
        chapter = ev.chapter
        u.chapter = _NO_CHAPTER if chapter is None else u.chapter_of(self, chapter)
        self._undo = u
        try:
            if chapter is None and not ev.has_perception:  # (step's commonest path, inline)
                self._ev, self._limit = ev, OBSERVATIONS_BASE + OBSERVATIONS_PER_EVENT * (e + 1)
                on = self._on.get(ev.kind)
                if on is None:
                    on = self._on[ev.kind] = getattr(type(self), "on_" + ev.kind)
                t = ev.t
                on(self, ev, e if t is None else t, e)
            else:
                self.step(ev, e)
        except BaseException:
            u.undo(self)
            raise
        finally:
            self._undo = None
            if u.loc:  # (the commonest: an entry or an exit)
                u.loc.clear()
            if u.occ:
                u.occ.clear()
            if u.fluent_room:
                u.fluent_room.clear()
            if u.container_room or u.rooms:
                u.clear()
        return len(self.agents) != n_agents or len(self.index) != n_fluents

    # -- perception that is not common knowledge --
    def event_observers(self, ev) -> int:
        """The agents who observe the event by default (before it happens), as a mask."""
        k = ev.kind
        if k == "enter":  # those in the room, and those in the rooms the arrivals leave
            m = self.occ.get(ev.room, 0) | self.mask_of(ev.agents)
            for a in ev.agents:
                old = self.loc.get(a)
                if old is not None and old != ev.room:
                    m |= self.occ.get(old, 0)
            return m
        if k == "exit":
            m = 0
            for a in ev.agents:
                room = self.loc.get(a)
                if room is not None:
                    m |= self.occ.get(room, 0)
            return m
        if k == "observe":
            return self.mask_of(ev.agents)
        if k == "possible":
            return self.mask_of(ev.observers)
        if k == "tell":
            return self.mask_of((ev.sender, *ev.recipients))
        if k == "announce" and ev.audience is not None:
            return self.mask_of((ev.sender, *ev.audience))
        if k == "action" and ev.visible_to is not None:
            return self.mask_of(ev.visible_to)
        if k == "noise":
            return 0
        room = ev.room if k == "statement" else self.room_of_actor(ev, getattr(ev, "sender", getattr(ev, "agent", None)))
        if room is None:
            return self.mask_of(self.agents) if k == "announce" else 0
        return self.occ.get(room, 0)

    def _perception_spec(self, ev) -> tuple:
        """Check the event's perception fields against who observes it; (secret, inattentive, believed)."""
        named = set(ev.actors)
        for name in _fields_of(type(ev), _NAMING_FIELDS):
            named.update(getattr(ev, name) or ())
        named.add((getattr(self.trace, "meta", None) or {}).get("private_to"))  # a private trace's owner
        for a in perception_agents(ev):
            if a not in self.aid and a not in named:
                self.fail(ev, f"unknown agent {a!r} in its perception fields (secret_observers, inattentive, "
                              f"overheard_by, perceived_as name agents of the trace)")
        observers = self.event_observers(ev)
        secret = self.mask_of(ev.secret)
        inattentive = self.mask_of(ev.inattentive or ())
        for a in ev.secret:
            if observers >> self.aid[a] & 1:
                self.fail(ev, f"{a} is a secret observer but also a plain observer of the event (only an agent "
                              f"who would not observe it can perceive it secretly)")
        actors = set(ev.actors)
        for a in ev.inattentive or ():
            if a in actors:
                self.fail(ev, f"{a} acts in the event, so it cannot be inattentive to it")
            if not observers >> self.aid[a] & 1:
                self.fail(ev, f"{a} is inattentive but does not observe the event (inattentive agents are "
                              f"observers who miss it)")
        perceivers = (observers & ~inattentive) | secret
        believed = {}
        for a, agents in (ev.perceived_as or {}).items():
            if not perceivers & self.bit(a):  # (an agent the event names may be met here first)
                self.fail(ev, f"perceived_as: {a} does not perceive the event (add it to secret_observers)")
            believed[self.aid[a]] = self.mask_of(agents) | self.bit(a)
        return secret, inattentive, believed

    def on_enter(self, ev, t, e):
        room = ev.room
        if room not in self.rooms:
            self._add_room(room)
        aid, loc = self.aid, self.loc
        for a in ev.agents:
            if a not in aid:
                self.bit(a)
            if loc.get(a) not in (None, room):
                self.leave(a, t, e)  # entering elsewhere implies leaving the old room
        u = self._undo
        for a in ev.agents:
            if u is not None:
                if a not in u.loc:
                    u.loc[a] = self.loc.get(a, _MISSING)
                if room not in u.occ:
                    u.occ[room] = self.occ.get(room, _MISSING)
            self.occ[room] = self.occ.get(room, 0) | (1 << aid[a])  # (met above)
            loc[a] = room
        mask = self.occ[room]
        entering = set()
        for a in ev.agents:
            f = ("at", a)
            entering.add(f)
            self.seen(f, mask, room, t, e, room)
        looking = self.mask_of(ev.agents) if ev.quiet else mask  # a quiet entry: only the arrivals look
        shown = self.room_fluents.get(room)
        if shown:
            self.show(shown, looking, t, e, entering)
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
        room = ev.room
        if room is None and agent is not None:  # (room_of_actor, inline: a move is the commonest event)
            self.bit(agent)
            room = self.loc.get(agent)
        if room is None:
            self.fail(ev, f"{agent} acts but is in no room (give the event a room or let {agent} enter first)")
        if ev.room is not None and self.loc.get(agent) != ev.room:
            self.fail(ev, f"{agent} acts in the {ev.room} but is in {self.loc.get(agent) or 'no room'}")
        return room

    def on_move(self, ev, t, e):
        """``to`` is a container in ``to_room`` when given; else a room if it is one already (declared in
        ``meta["room_names"]``, entered, or the room of a statement); else a container, in its room if placed
        before, or in the mover's room (an undeclared room nobody has named yet is taken for a container)."""
        agent, room = ev.agent, ev.room
        if room is None and agent in self.aid:  # (_actor_room's commonest case, inline)
            room = self.loc.get(agent)
        if room is None or ev.room is not None:
            room = self._actor_room(ev, agent)
        to = ev.to
        if ev.to_room is not None:
            if to in self.declared:
                self.fail(ev, f"the {to} is a room (meta room_names) but to_room makes it a container in the {ev.to_room} "
                              f"(drop to_room to move the {ev.object} into that room, or the {to} from meta room_names)")
            dest = self._set_container(to, ev.to_room)
        elif to in self.rooms:
            dest = to
        else:
            dest = self.container_room.get(to) or self._set_container(to, room)
        f = (ev.predicate, ev.object)  # (ev.fluent, inline)
        self.seen(f, self.occ.get(room, 0), to, t, e, None if ev.opaque else dest)  # opaque: not shown to later arrivals

    def on_statement(self, ev, t, e):
        room = ev.room
        if room is None:
            self.fail(ev, "a statement needs the room where it is visible")
        if room not in self.rooms:
            self._add_room(room)
        f = ev.fluent
        if ev.value is not None and ev.predicate == "in" and ev.value not in self.rooms:
            self._set_container(ev.value, room)
        self.seen(f, self.occ.get(room, 0), ev.value, t, e, None if ev.opaque else room)

    def on_set(self, ev, t, e):
        room = self.room_of_actor(ev, ev.agent)
        f = ev.fluent
        self.seen(f, self.occ.get(room, 0) if room is not None else 0, ev.value, t, e, None if ev.opaque else room)

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
            self.seen(f, mask, eff.value, t, e, None if ev.opaque else room)

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

    def _message(self, ev, listeners: tuple, public: bool, t, e):
        """The trust policy's effects of a message heard by ``listeners`` (the sender excluded; every agent met).
        A policy whose claims are group claims (:attr:`TrustPolicy.group_claims`, :class:`StrictTruthful`'s) has
        its one group update per claim written directly: the same updates as :meth:`_apply` of its effects,
        without the context and effect objects."""
        if getattr(self.policy, "group_claims", False):  # (a duck-typed policy may not say)
            heard = self._overheard(ev, listeners)
            get = self.aid.get
            i = get(ev.sender)
            excl = self.bit(ev.sender) if i is None else 1 << i
            mask = excl
            for a in heard:
                i = get(a)
                mask |= self.bit(a) if i is None else 1 << i
            for c in ev.content:
                self.group((c.predicate, *c.subject), mask, c.value, t, e, HOW_TOLD, excl)  # (c.fluent, inline)
            return
        self._apply(ev, self._context(ev, self._overheard(ev, listeners), public), t, e)

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

    def _check_as_of(self, ev, t):
        if ev.as_of is not None and ev.as_of > t:
            self.fail(ev, f"as_of={ev.as_of} is later than the message itself (t={t}): claims are formed before "
                          f"they are delivered")

    def on_tell(self, ev, t, e):
        self._check_as_of(ev, t)
        self.bit(ev.sender)
        listeners = tuple(dict.fromkeys(r for r in ev.recipients if r != ev.sender))
        for r in listeners:
            self.bit(r)
        self._message(ev, listeners, False, t, e)

    def on_announce(self, ev, t, e):
        self._check_as_of(ev, t)
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
            else:  # the sender is in no room: a public message reaches every agent named so far
                listeners = tuple(a for a in self.named_agents(ev, e) if a != ev.sender)
                for a in listeners:
                    self.bit(a)
        self._message(ev, listeners, True, t, e)

    def _overheard(self, ev, listeners: tuple) -> tuple:
        """The listeners a trust policy sees: the audience plus hidden listeners. A message that says who
        perceived it fixes its perception here (observers: the sender and the audience); the policy's
        effects then reach only the chains that perceive the message."""
        if self._spec is None:
            return listeners
        self._msg_perc = self.perception(self.mask_of((ev.sender, *listeners)))
        return tuple(dict.fromkeys((*listeners, *(a for a in ev.secret if a != ev.sender))))


__all__ = ["JOINT_MAX", "JOINT_WORK", "fold_joint", "MAX_AGENTS", "OBSERVATIONS_BASE", "OBSERVATIONS_PER_EVENT", "observation_limit", "FluentIndex", "Perception",
           "credits", "MayCondition", "may_condition", "Chapter", "IndexBuilder", "UNSURE",
           "OPAQUE", "is_marker", "HOW_ENTERED", "HOWS",
           "HOW_REALITY", "HOW_SEEN", "HOW_TOLD", "HOW_POSSIBLE"]
