"""The global trace: an append-only, schema-versioned log of everything that happened in an episode.

Events are pydantic v2 models, a discriminated union on ``kind``::

    enter      agents enter a room (they and everyone present observe the room's contents)
    exit       agents leave their room (everyone in the room sees them go)
    move       an agent moves an object to a container/location (change of the ``in`` fluent)
    set        a generic functional fluent takes a value (``pred(subject...) = value``)
    statement  a fact made visible to everyone in a room ("The apple is in the box.")
    observe    named agents observe fluents' current values (peeking; optionally witnessed by others,
               optionally only by the chains that believed a condition)
    possible   a possible change: observers see that fluents may have changed, without the outcome
    tell       a private message: sender -> recipients, content facts
    announce   a public message: sender -> everyone who can hear (or an explicit audience)
    noop       an agent stays / does nothing observable
    noise      a sentence without any effect on the world
    action     an environment-specific action with explicit fluent effects (``params`` is metadata
               for people and question samplers; the checker reads only ``effects``/``visible_to``)

Any event may also say who perceived it beyond the default (every observer, common knowledge):
``secret_observers`` (perceive it unknown to the others), ``inattentive`` (observers who miss it),
``perceived_as`` (the general form: perceiver -> the agents it believes perceived it); messages take
``overheard_by`` (hidden listeners), changes ``opaque`` (inside a closed container: not shown to later
arrivals) and ``enter`` ``quiet`` (only the arriving agents look). docs/logic.md gives the semantics.

Every event carries ``t`` (its index in the trace), an optional ``room`` (when omitted it is derived
from the actor's location by the checker, so observer sets are never hand-written), an optional
``chapter`` and ``source_line`` / ``source`` (where the event came from, for error messages and
explanations).

A fluent is ``(predicate, subject, ...)``: ``("in", "apple")`` is "where the apple is",
``("at", "alice")`` "where Alice is".  The value is a string (or ``None`` for "nowhere").

On disk a trace is JSON Lines: a header ``{"schema_version": 1, "format": "belief-trace", ...}``
followed by one event per line and an end marker ``{"end": {"events": N}}``; a trace read without its end
marker (cut short, or written by hand) has ``ended == False``.
"""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Iterable, Iterator, Literal, Optional, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from belief.files.atomic import atomic_write_text
from belief.errors import TraceError
from belief.logic.constraints import constraints_of
from belief.logic.formula import Atom, decompose
from belief.grammar import parse_formula
from belief.files.json_input import fast_json_lines, load_json

SCHEMA_VERSION = 1
FORMAT_NAME = "belief-trace"
END_KEY = "end"  # the key of the last line of a complete trace file: {"end": {"events": N}}

Fluent = tuple[str, ...]


def _valid_name(name: str) -> str:
    """Agent, room, entity, predicate and value names: non-empty, no whitespace, no control characters."""
    if not name or " " in name or not name.isprintable():
        shown = repr(name) if len(name) <= 40 else repr(name[:40]) + "..."
        raise ValueError(f"invalid name {shown}: a name is non-empty, without spaces or control characters")
    return name


#: names kept by :class:`_Names` at most (beyond, names are still checked but no longer kept)
MAX_KEPT_NAMES = 100_000


class _Names(dict):
    """The names already found valid, each mapped to itself: ``names[s]`` is a dict look-up (C, no Python call)
    for a known name and :func:`_valid_name` for a new one. A trace names few agents, rooms and objects many
    times, so reading it checks each name once, and its events share one string per name (less memory)."""

    def __missing__(self, name: str) -> str:
        name = _valid_name(name)
        if type(name) is str and len(self) < MAX_KEPT_NAMES:
            self[name] = name
        return name


_NAMES = _Names()

#: a name in an event (free text lives only in ``source``, ``text``, ``params`` and message ``fact``s)
Name = Annotated[str, AfterValidator(_NAMES.__getitem__)]

#: tuples of names kept by :class:`_Tuples` at most, and their longest length (longer ones are not kept)
MAX_KEPT_TUPLES = 100_000
MAX_KEPT_TUPLE_LEN = 4


class _Tuples(dict):
    """Short tuples of names already met, each mapped to itself, so the events that name the same agents (or the
    same subject) share one tuple (pydantic makes a new one per event: 56-80 bytes each)."""

    def __missing__(self, names: tuple) -> tuple:
        if len(names) <= MAX_KEPT_TUPLE_LEN and len(self) < MAX_KEPT_TUPLES:
            self[names] = names
        return names


_TUPLES = _Tuples()

#: a tuple of names in an event (agents, a subject), shared by the events that give the same one
Names = Annotated[tuple[Name, ...], AfterValidator(_TUPLES.__getitem__)]

#: distinct fields sets kept by :func:`share_fields` at most (a schema gives few: the fields an input names)
MAX_FIELDS_SETS = 4096
_FIELDS_SETS: dict = {}


def share_fields(model):
    """Make ``model`` share one ``__pydantic_fields_set__`` (the names of the fields its input gave, which pydantic
    keeps per object: 200-700 bytes, a third of an event) with every event or part of one that gave the same
    fields; returns it. Run by the models' after-validators, so every event made or read shares it. Safe because
    these models are frozen: pydantic adds to that set only on assignment, which a frozen model refuses, and
    ``model_copy`` gives the copy a set of its own."""
    names = model.__pydantic_fields_set__
    key = frozenset(names)
    kept = _FIELDS_SETS.get(key)
    if kept is None:
        if len(_FIELDS_SETS) >= MAX_FIELDS_SETS:
            return model
        kept = _FIELDS_SETS[key] = names
    object.__setattr__(model, "__pydantic_fields_set__", kept)
    return model


def _subject_as_tuple(d):
    """``subject="apple"`` is accepted for ``subject=("apple",)``."""
    if isinstance(d, dict) and isinstance(d.get("subject"), str):
        d = dict(d)
        d["subject"] = (d["subject"],)
    return d


class _Event(BaseModel):
    """Fields common to all events. Events are frozen: nothing downstream can mutate the trace."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    t: Optional[int] = Field(default=None, ge=0, description="index in the trace (set by Trace.append)")
    room: Optional[Name] = Field(default=None, description="where it happens; derived from the actor if omitted")
    chapter: Optional[int] = None
    source_line: Optional[int] = Field(default=None, ge=0)
    source: Optional[str] = None
    # perception that is not common knowledge (docs/logic.md, "Perception that is not common knowledge")
    secret_observers: Optional[Names] = Field(
        default=None, description="perceive the event (also from outside the room); nobody else believes they did")
    inattentive: Optional[Names] = Field(
        default=None, description="observers who do not perceive the event; the others believe they did")
    perceived_as: Optional[dict[Name, Names]] = Field(
        default=None, description="perceiver -> the agents it believes perceived the event (the general form)")

    @model_validator(mode="after")
    def _check_perception(self):
        share_fields(self)  # (here: one Python call per event for both)
        if not self.inattentive:  # both checks below are about the inattentive (and most events have none)
            return self
        secret, inattentive = set(self.secret), set(self.inattentive or ())
        both = sorted(secret & inattentive)
        if both:
            raise ValueError(f"{_names(both)} cannot be both a secret observer and inattentive")
        for a in sorted(inattentive & set(self.perceived_as or ())):
            raise ValueError(f"perceived_as: {a} is inattentive, so it perceives nothing and believes nothing of it")
        return self

    @property
    def secret(self) -> tuple[str, ...]:
        """Every agent that perceives the event unknown to the others (secret observers, hidden listeners)."""
        return self.secret_observers or ()

    @property
    def has_perception(self) -> bool:
        """Does the event say who perceived it beyond the default (every observer, common knowledge)?"""
        if self.secret_observers is None and self.inattentive is None and self.perceived_as is None:
            return False
        return bool(self.secret or self.inattentive or self.perceived_as)

    @property
    def actors(self) -> tuple[str, ...]:
        return ()

    def where(self) -> str:
        """'file:line' of the sentence that produced the event, or 't=N'."""
        if self.source_line is not None:
            return f"{self.source or '<input>'}:{self.source_line}"
        return f"t={self.t}"

    def describe(self) -> str:  # pragma: no cover - overridden
        return self.kind  # type: ignore[attr-defined]


def _one_or_many(data: Any, single: str = "agent", many: str = "agents") -> Any:
    if isinstance(data, dict) and single in data and many not in data:
        data = dict(data)
        data[many] = [data.pop(single)]
    return data


class Enter(_Event):
    kind: Literal["enter"] = "enter"
    agents: Names = Field(min_length=1)
    room: Name
    quiet: Optional[bool] = Field(default=None, description="only the arriving agents look at the room; those "
                                  "already present see them arrive but do not look again")

    _norm = model_validator(mode="before")(lambda cls, d: _one_or_many(d))

    @property
    def actors(self):
        return self.agents

    def describe(self):
        return f"{_names(self.agents)} entered the {self.room}"


class Exit(_Event):
    kind: Literal["exit"] = "exit"
    agents: Names = Field(min_length=1)

    _norm = model_validator(mode="before")(lambda cls, d: _one_or_many(d))

    @property
    def actors(self):
        return self.agents

    def describe(self):
        return f"{_names(self.agents)} exited the {self.room or 'room'}"


class Move(_Event):
    """``agent`` moves ``object`` to ``to`` (a container or location): sets fluent (predicate, object) = to."""

    kind: Literal["move"] = "move"
    agent: Name
    object: Name
    to: Name
    predicate: Name = "in"
    to_room: Optional[Name] = Field(default=None, description="room where `to` lies, if not the event's room")
    opaque: Optional[bool] = Field(default=None, description="a change inside a closed container: seen by who "
                                   "sees it happen, not shown to later arrivals in the room")

    @property
    def actors(self):
        return (self.agent,)

    @property
    def fluent(self) -> Fluent:
        return (self.predicate, self.object)

    def describe(self):
        return f"{self.agent} moved the {self.object} to the {self.to}"


class Set(_Event):
    """A generic functional fluent change: ``predicate(*subject) = value`` (value None: nowhere/unset)."""

    kind: Literal["set"] = "set"
    predicate: Name
    subject: Names = Field(min_length=1)
    _subject = model_validator(mode="before")(_subject_as_tuple)
    value: Optional[Name] = None  # None: unset; omitted in JSONL (exclude_none)
    agent: Optional[Name] = None
    opaque: Optional[bool] = Field(default=None, description="a change inside a closed container: seen by who "
                                   "sees it happen, not shown to later arrivals in the room")

    @property
    def actors(self):
        return (self.agent,) if self.agent else ()

    @property
    def fluent(self) -> Fluent:
        return (self.predicate, *self.subject)

    def describe(self):
        who = f"{self.agent} set " if self.agent else ""
        return f"{who}{self.predicate}({', '.join(self.subject)}) = {self.value}"


class Statement(_Event):
    """A fact made visible to everyone in ``room``: "The apple is in the box." (also sets reality)."""

    kind: Literal["statement"] = "statement"
    predicate: Name = "in"
    subject: Names = Field(min_length=1)
    _subject = model_validator(mode="before")(_subject_as_tuple)
    value: Optional[Name] = None
    opaque: Optional[bool] = Field(default=None, description="a change inside a closed container: seen by who "
                                   "sees it happen, not shown to later arrivals in the room")

    @property
    def fluent(self) -> Fluent:
        return (self.predicate, *self.subject)

    def describe(self):
        return f"the {' '.join(self.subject)} is {self.predicate} the {self.value} (seen in the {self.room})"


class Condition(BaseModel):
    """Who draws a conclusion: the chains whose value of ``fluent`` (just before the event) is one of ``values``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    fluent: Names = Field(min_length=2)
    values: Names = Field(min_length=1)

    _share = model_validator(mode="after")(share_fields)


class Observe(_Event):
    """Named agents observe the current value of fluents (no change of the world).

    ``agents`` see the values together (every chain over them holds them). ``witnesses`` (a superset,
    optional) know that ``agents`` looked, without seeing the values: "Bravo sees Alpha walk into Room 5,
    so Bravo knows Alpha now knows what Room 5 holds". Witnessing is joint (common knowledge among the
    witnesses): a chain over the witnesses that ends with an observer is aware that it knows
    (docs/logic.md, "Awareness"). ``values`` (one per fluent) are the values seen;
    they may be omitted in a global trace (the current real values are meant) and are masked in a private
    trace for fluents the agent did not see. ``given`` restricts the observation to the chains that
    believed one of the condition's values just before, e.g. "whoever thought Bomb 3 was in Room 5 and
    now sees Room 5 empty learns that Bomb 3 is defused".
    """

    kind: Literal["observe"] = "observe"
    agents: Names = Field(min_length=1)
    fluents: tuple[Names, ...] = Field(min_length=1)
    values: Optional[tuple[Optional[Name], ...]] = None
    witnesses: Optional[Names] = None
    given: Optional[Condition] = None

    _norm = model_validator(mode="before")(lambda cls, d: _one_or_many(d))

    @model_validator(mode="after")
    def _check_shapes(self):
        if self.values is not None and len(self.values) != len(self.fluents):
            raise ValueError(f"observe: {len(self.values)} values for {len(self.fluents)} fluents")
        return self

    @property
    def actors(self):
        return self.agents

    def describe(self):
        shown = ", ".join("(" + " ".join(f) + ")" + (f" = {v}" if v is not None else "")
                          for f, v in zip(self.fluents, self.values or (None,) * len(self.fluents)))
        cond = (f" (those who thought {' '.join(self.given.fluent)} was {' or '.join(self.given.values)})"
                if self.given else "")
        return f"{_names(self.agents)} observed {shown}{cond}"


class Possible(_Event):
    """A possible change that leaves reality alone: ``observers`` see that ``fluents`` may have changed.

    Every chain over ``observers`` becomes unsure of those fluents, except the solo chain of ``agent`` (the
    actor knows what it did; what it learned comes as its own event). Environments emit it when an agent
    acts where others cannot see the outcome but know it could have changed something, e.g. a teammate
    who stays in a bomb's room and holds the cutter for the bomb's next phase.
    """

    kind: Literal["possible"] = "possible"
    agent: Optional[Name] = None
    observers: Names = Field(min_length=1)
    fluents: tuple[Names, ...] = Field(min_length=1)
    #: the value each fluent takes if the change happened (None: not named); the fluents of one possible
    #: change change together or not at all (knowledge by elimination, docs/logic.md)
    values: Optional[tuple[Optional[Name], ...]] = None
    #: the change is possible only where every condition may hold: a chain whose value of a condition's
    #: fluent is none of its values rules the change out (and is not made unsure)
    given: Optional[tuple[Condition, ...]] = None

    @model_validator(mode="before")
    @classmethod
    def _one_condition(cls, d):
        if isinstance(d, dict) and isinstance(d.get("given"), (dict, Condition)):
            d = {**d, "given": (d["given"],)}
        return d

    @model_validator(mode="after")
    def _check_values(self):
        if self.values is not None and len(self.values) != len(self.fluents):
            raise ValueError(f"possible: {len(self.values)} values for {len(self.fluents)} fluents")
        return self

    @property
    def actors(self):
        return (self.agent,) if self.agent else ()

    def describe(self):
        who = f"{self.agent} may have changed " if self.agent else "possibly changed: "
        return who + ", ".join("(" + " ".join(f) + ")" for f in self.fluents) + f" (seen by {_names(self.observers)})"


class Content(BaseModel):
    """What a message claims: fluent ``predicate(subject...) = value``, or a readable fact ``apple IN box``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    predicate: Name = "in"
    subject: Names = ()
    value: Optional[Name] = None
    fact: Optional[str] = None

    @model_validator(mode="before")
    @classmethod
    def _subject(cls, d):
        return _subject_as_tuple({"fact": d} if isinstance(d, str) else d)

    @model_validator(mode="after")
    def _resolve(self):
        if self.fact is not None and not self.subject:
            try:
                f = parse_formula(self.fact)
            except Exception as e:  # BeliefSyntaxError and friends
                raise ValueError(f"message content {self.fact!r} is not a readable fact: {e}") from None
            chain, _stance, atom = decompose(f)
            if chain or not isinstance(f, Atom) or len(atom.args) < 2:
                raise ValueError(f"message content {self.fact!r} must be a plain relation like 'apple IN box'")
            object.__setattr__(self, "predicate", atom.pred)
            object.__setattr__(self, "subject", tuple(atom.args[:-1]))
            object.__setattr__(self, "value", atom.args[-1])
        if not self.subject:
            raise ValueError("message content needs a subject (or a fact)")
        return share_fields(self)

    @property
    def fluent(self) -> Fluent:
        return (self.predicate, *self.subject)

    def text(self) -> str:
        if self.predicate == "in" and len(self.subject) == 1:
            return f"the {self.subject[0]} is in the {self.value}"
        return f"{self.predicate}({', '.join(self.subject)}) = {self.value}"


#: message contents kept by :class:`_Contents` at most
MAX_KEPT_CONTENTS = 10_000


class _Contents(dict):
    """The content tuples of messages already met, by their claims and the fields each claim gave, so messages
    that claim the same (a fact told to one agent, then another) share one tuple of :class:`Content` objects
    (about 400 bytes per message). Frozen, so sharing is invisible but for identity."""

    def keep(self, content: tuple) -> tuple:
        if len(content) > MAX_KEPT_TUPLE_LEN:
            return content
        key = tuple((c.predicate, c.subject, c.value, c.fact, frozenset(c.__pydantic_fields_set__)) for c in content)
        kept = self.get(key)
        if kept is None:
            if len(self) >= MAX_KEPT_CONTENTS:
                return content
            kept = self[key] = content
        return kept


_CONTENTS = _Contents()

#: what a message claims (shared by the messages that claim the same)
Contents = Annotated[tuple[Content, ...], AfterValidator(_CONTENTS.keep)]


def _overheard_by():
    return Field(default=None, description="hidden listeners: they receive the content, the sender and "
                                           "recipients do not know")


def _as_of():
    return Field(default=None, ge=-1, description="the event index at which the sender formed the claims (posted "
                                                  "the message), when earlier than its delivery; -1: before "
                                                  "the trace's first event")


class _Message(_Event):
    """What a private and a public message share (the fields stay in the subclasses, in their dump order)."""

    if TYPE_CHECKING:  # a pydantic field of each subclass (declared there, in its dump order)
        overheard_by: Optional[Names]

    @property
    def secret(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((*(self.secret_observers or ()), *(self.overheard_by or ()))))

    @property
    def has_perception(self) -> bool:
        return bool(self.secret or self.inattentive or self.perceived_as)

    @model_validator(mode="before")
    @classmethod
    def _one_content(cls, d):
        if isinstance(d, dict) and isinstance(d.get("content"), (dict, str)):
            d = dict(d)
            d["content"] = (d["content"],)
        return d

    @property
    def actors(self):
        return (self.sender,)


class Tell(_Message):
    """A private message: only ``recipients`` (and the sender) know of it."""

    kind: Literal["tell"] = "tell"
    sender: Name
    recipients: Names = Field(min_length=1)
    content: Contents = Field(min_length=1)
    overheard_by: Optional[Names] = _overheard_by()
    as_of: Optional[int] = _as_of()

    @model_validator(mode="before")
    @classmethod
    def _norm(cls, d):
        return _one_or_many(d, "recipient", "recipients")

    def describe(self):
        return f"{self.sender} privately told {_names(self.recipients)} that " + "; ".join(
            c.text() for c in self.content)


class Announce(_Message):
    """A public message: heard by ``audience`` if given, else by everyone in the sender's room."""

    kind: Literal["announce"] = "announce"
    sender: Name
    audience: Optional[Names] = None
    content: Contents = Field(min_length=1)
    overheard_by: Optional[Names] = _overheard_by()
    as_of: Optional[int] = _as_of()

    def describe(self):
        return f"{self.sender} publicly claimed that " + "; ".join(c.text() for c in self.content)


class Noop(_Event):
    """An agent stays where it is ("made no movements and stayed in the L for 1 minute")."""

    kind: Literal["noop"] = "noop"
    agent: Name

    @property
    def actors(self):
        return (self.agent,)

    def describe(self):
        return f"{self.agent} stayed in the {self.room or 'room'}"


class Noise(_Event):
    """A sentence without effect on any fluent (distractor)."""

    kind: Literal["noise"] = "noise"
    text: str = ""

    def describe(self):
        return f"noise: {self.text}"


class Effect(BaseModel):
    """One fluent change of an environment-specific action."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    predicate: Name
    subject: Names = Field(min_length=1)
    _subject = model_validator(mode="before")(_subject_as_tuple)
    _share = model_validator(mode="after")(share_fields)
    value: Optional[Name] = None

    @property
    def fluent(self) -> Fluent:
        return (self.predicate, *self.subject)


class Action(_Event):
    """An environment-specific action (``name`` with free ``params``) and its fluent ``effects``.

    Effects are observed by everyone in the event's room, or only by ``visible_to`` when given
    (for environments with finer observability than rooms).
    """

    kind: Literal["action"] = "action"
    name: Name
    agent: Optional[Name] = None
    params: dict[str, Any] = Field(default_factory=dict)
    effects: tuple[Effect, ...] = ()
    visible_to: Optional[Names] = None
    opaque: Optional[bool] = Field(default=None, description="a change inside a closed container: seen by who "
                                   "sees it happen, not shown to later arrivals in the room")

    @property
    def actors(self):
        return (self.agent,) if self.agent else ()

    def describe(self):
        who = f"{self.agent} " if self.agent else ""
        eff = ", ".join(f"{e.predicate}({', '.join(e.subject)})={e.value}" for e in self.effects)
        return f"{who}did {self.name}" + (f" ({eff})" if eff else "")


Event = Annotated[
    Union[Enter, Exit, Move, Set, Statement, Observe, Possible, Tell, Announce, Noop, Noise, Action],
    Field(discriminator="kind"),
]
EVENT_KINDS = ("enter", "exit", "move", "set", "statement", "observe", "possible", "tell", "announce", "noop",
               "noise", "action")
_EVENT_ADAPTER: TypeAdapter = TypeAdapter(Event)
_EVENTS_ADAPTER: TypeAdapter = TypeAdapter(list[Event])  # many lines' events in one call (Trace.loads)


def perception_agents(e) -> tuple[str, ...]:
    """Every agent an event's perception fields name (secret observers, hidden listeners, inattentive,
    perceived_as keys and values), in order."""
    out: dict[str, None] = dict.fromkeys(e.secret)
    out.update(dict.fromkeys(e.inattentive or ()))
    for a, believed in (e.perceived_as or {}).items():
        out[a] = None
        out.update(dict.fromkeys(believed))
    return tuple(out)


def _names(agents: Iterable[str]) -> str:
    agents = list(agents)
    if len(agents) <= 1:
        return "".join(agents)
    return ", ".join(agents[:-1]) + " and " + agents[-1]


def _fmt_validation(e: ValidationError, kind: str | None = None) -> str:
    parts = []
    errors = e.errors()
    for err in errors:
        loc = list(err.get("loc", ()))
        if err.get("type") == "too_short" and any(len(o["loc"]) > len(loc) and list(o["loc"][:len(loc)]) == loc
                                                  for o in errors):
            continue  # "at least 1 item" because its only item was refused: that refusal says it
        if loc and kind is not None and loc[0] == kind:
            loc = loc[1:]  # the discriminator's tag
        where = ".".join(str(x) for x in loc)
        parts.append(f"{where}: {err.get('msg')}" if where else str(err.get("msg")))
    return "; ".join(parts)


def load_json_line(text: str, where: str = "") -> Any:
    """One JSON value of a trace line; TraceError for malformed or hostile input (:func:`load_json`)."""
    return load_json(text, where, TraceError)


def _end_marker(line: str):
    """The payload of an end-marker line ``{"end": ...}``, or None for any other line."""
    if f'"{END_KEY}"' not in line:
        return None
    try:
        data = load_json_line(line)
    except TraceError:
        return None
    return data[END_KEY] if isinstance(data, dict) and END_KEY in data and "kind" not in data else None


def parse_event(data: Any, *, line: int | None = None, source: str | None = None):
    """Validate one event from a dict (or JSON text); TraceError naming the line on failure."""
    where = f"{source or '<trace>'}:{line}: " if line is not None else ""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise TraceError(f"{where}an event line must be UTF-8: byte {e.start} (0x{data[e.start]:02x}) "
                             f"is not valid UTF-8 there ({e.reason})") from None
    if isinstance(data, str):
        data = load_json_line(data, where)
    if not isinstance(data, dict):
        raise TraceError(f"{where}an event must be a JSON object, got {type(data).__name__}")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in EVENT_KINDS:
        shown = repr(kind) if len(repr(kind)) <= 40 else repr(kind)[:40] + "..."
        raise TraceError(f"{where}unknown event kind {shown}; expected one of {', '.join(EVENT_KINDS)}")
    try:
        return _EVENT_ADAPTER.validate_python(data)
    except ValidationError as e:
        raise TraceError(f"{where}invalid {kind} event: {_fmt_validation(e, kind)}") from None


#: lines decoded and validated together by the bulk reader (4096: the fastest of 512-16384 on 100,000 events)
_CHUNK = 4096


def _read_fast(trace: "Trace", lines: list) -> bool:
    """Read the event lines of a well-formed trace file into ``trace`` in bulk; False, with ``trace``
    untouched, at anything unusual: the line-by-line reader then reads the file again and names the line at
    fault. Each line is decoded by one prebuilt decoder, the events of :data:`_CHUNK` lines are validated in
    one pydantic call (chunks keep the decoded JSON small: faster, and a lower peak of memory), the cyclic
    garbage collector is paused while the objects are made (events that give the same fields share one fields
    set, and the same short tuples of names, as every event does: :func:`share_fields`)."""
    body = [line for line in lines if line and not line.isspace()]
    ended = False
    if body and f'"{END_KEY}"' in body[-1]:
        end = _end_marker(body[-1])
        if end is not None:
            if not isinstance(end, dict) or end.get("events") != len(body) - 1:
                return False
            body.pop()
            ended = True
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        events: list = []
        for start in range(0, len(body), _CHUNK):  # the JSON values of one chunk at a time: a lower peak
            data = fast_json_lines(body[start:start + _CHUNK])
            if data is None:
                return False
            events += _EVENTS_ADAPTER.validate_python(data)
    except ValidationError:
        return False
    finally:
        if paused:
            gc.enable()
    for i, ev in enumerate(events):
        if ev.t != i:
            if ev.t is not None:
                return False
            events[i] = share_fields(ev.model_copy(update={"t": i}))
    trace._events = events
    trace.ended = ended
    return True


#: the key of a trace's meta that names its rooms up front
ROOMS_KEY = "room_names"


def declared_rooms(meta) -> frozenset:
    """The rooms ``meta["room_names"]`` declares up front (a list of names; empty when absent).

    A room is otherwise known only once an event names it as one (an ``enter``, a statement's ``room``), so a
    ``move`` whose ``to`` names a room nobody has entered yet would be taken for a container in the mover's
    room. Declared rooms are rooms from the first event: the replay (batch and online alike) never needs to
    read ahead. TraceError for anything but a list of valid names."""
    rooms = (meta or {}).get(ROOMS_KEY)
    if rooms is None:
        return frozenset()
    if not isinstance(rooms, list):
        shown = repr(rooms) if len(repr(rooms)) <= 40 else repr(rooms)[:40] + "..."
        raise TraceError(f"room_names must be a list of room names, got {shown}")
    for i, name in enumerate(rooms):
        if not isinstance(name, str):
            raise TraceError(f"room_names[{i}] must be a room name (a string), got {type(name).__name__}")
        try:
            _valid_name(name)
        except ValueError as e:
            raise TraceError(f"room_names[{i}]: {e}") from None
    return frozenset(rooms)


#: the fields of an event, besides its actors, that name agents
AGENT_FIELDS = ("recipients", "audience", "visible_to", "witnesses", "observers")


def event_agents(e) -> Iterator[str]:
    """The agents one event names (actors first, then the fields of :data:`AGENT_FIELDS`), repeats included."""
    yield from e.actors
    for name in AGENT_FIELDS:
        yield from getattr(e, name, None) or ()
    if e.has_perception:  # secret observers, hidden listeners, the inattentive, perceived_as
        yield from perception_agents(e)


class Trace:
    """An append-only sequence of events with a schema-versioned JSONL form.

    ``append`` assigns ``t`` (or checks it equals the index); events are frozen, so a trace handed to the
    checker cannot be changed behind its back.
    """

    def __init__(self, events: Iterable = (), *, meta: dict | None = None):
        self._events: list = []
        if meta is not None and not isinstance(meta, dict):
            raise TraceError(f"a trace's meta must be a dict, got {type(meta).__name__}")
        self.meta: dict = dict(meta or {})
        if self.meta.get("constraints") is not None:  # the world's rules: checked when read, not when first used
            constraints_of(self)
        declared_rooms(self.meta)  # the rooms named up front: checked when read too
        self.ended = False  # read from a file that carried its end marker
        for e in events:
            self.append(e)

    # --- building ----------------------------------------------------------------------------
    def append(self, event) -> Any:
        if isinstance(event, dict):
            event = parse_event(event)
        if not isinstance(event, _Event):
            raise TraceError(f"not an event: {event!r}")
        n = len(self._events)
        if event.t is None:
            event = share_fields(event.model_copy(update={"t": n}))
        elif event.t != n:
            raise TraceError(f"{event.where()}: event has t={event.t} but is appended at index {n}")
        self._events.append(event)
        return event

    def extend(self, events: Iterable) -> None:
        for e in events:
            self.append(e)

    # --- reading -----------------------------------------------------------------------------
    @property
    def events(self) -> tuple:
        return tuple(self._events)

    def __len__(self):
        return len(self._events)

    def __iter__(self) -> Iterator:
        return iter(self._events)

    def __getitem__(self, i):
        return self._events[i]

    #: a trace of at most this many events shows them in its repr (as in a failing property test's report)
    REPR_EVENTS = 60

    def __repr__(self):
        """``Trace(n events)``; a short trace also shows its meta and its events as their lines in
        :meth:`dumps`, so the story of a failing example can be read without the code that built it."""
        n = len(self._events)
        if not n or n > self.REPR_EVENTS:
            return f"Trace({n} events)"
        meta = f", meta={json.dumps(self.meta, sort_keys=True, default=repr)}" if self.meta else ""
        lines = (json.dumps(e.model_dump(mode="json", exclude_none=True), sort_keys=True) for e in self._events)
        return f"Trace({n} events{meta}:\n" + "".join(f"  {line}\n" for line in lines) + ")"

    def agents(self) -> list[str]:
        """Every agent named in the trace, in order of first appearance."""
        seen: dict[str, None] = {}
        for e in self._events:
            for a in event_agents(e):
                seen.setdefault(a, None)
        return list(seen)

    # --- JSONL -------------------------------------------------------------------------------
    def header(self) -> dict:
        return {"schema_version": SCHEMA_VERSION, "format": FORMAT_NAME, "meta": self.meta}

    def dumps(self) -> str:
        lines = [json.dumps(self.header(), sort_keys=True)]
        for e in self._events:
            lines.append(json.dumps(e.model_dump(mode="json", exclude_none=True), sort_keys=True))
        lines.append(json.dumps({END_KEY: {"events": len(self._events)}}))
        return "\n".join(lines) + "\n"

    def write(self, path) -> None:
        """Write the JSONL form atomically (a killed writer leaves the old file or the whole new one)."""
        atomic_write_text(path, self.dumps())

    @classmethod
    def loads(cls, text: str, *, source: str | None = None) -> "Trace":
        src = source or "<trace>"
        if text.startswith("\ufeff"):  # a UTF-8 byte order mark, as some editors write
            text = text[1:]
        lines = text.splitlines()
        idx = 0
        while idx < len(lines) and not lines[idx].strip():
            idx += 1
        if idx >= len(lines):
            raise TraceError(f"{src}: empty trace: expected a header line with schema_version")
        header = load_json_line(lines[idx], f"{src}:{idx + 1}: header: ")
        if not isinstance(header, dict) or "schema_version" not in header:
            raise TraceError(f"{src}:{idx + 1}: the first line must be a header with schema_version "
                             f"(got {lines[idx][:60]!r})")
        version = header["schema_version"]
        if version != SCHEMA_VERSION:
            shown = repr(version) if len(repr(version)) <= 40 else repr(version)[:40] + "..."
            raise TraceError(f"{src}:{idx + 1}: unsupported schema_version {shown} "
                             f"(this library reads {SCHEMA_VERSION})")
        meta = header.get("meta")
        if meta is not None and not isinstance(meta, dict):
            raise TraceError(f"{src}:{idx + 1}: header: meta must be a JSON object, got {type(meta).__name__}")
        try:
            trace = cls(meta=meta or {})
        except TraceError as e:  # the world's rules (meta["constraints"]) are checked as they are read
            raise TraceError(f"{src}:{idx + 1}: header: meta: {e}") from None
        if _read_fast(trace, lines[idx + 1:]):
            return trace
        for n, line in enumerate(lines[idx + 1:], start=idx + 2):
            if not line.strip():
                continue
            if trace.ended:
                raise TraceError(f"{src}:{n}: nothing may follow the end marker")
            end = _end_marker(line)
            if end is not None:
                if not isinstance(end, dict) or end.get("events") != len(trace):
                    raise TraceError(f"{src}:{n}: the end marker {line.strip()[:60]} does not match the "
                                     f"{len(trace)} event(s) before it")
                trace.ended = True
                continue
            event = parse_event(line, line=n, source=src)
            try:
                trace.append(event)
            except TraceError as e:
                raise TraceError(f"{src}:{n}: {e}") from None
        return trace

    @classmethod
    def read(cls, path) -> "Trace":
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise TraceError(f"{path}: cannot read trace: {e}") from None
        return cls.loads(text, source=str(path))


__all__ = [
    "SCHEMA_VERSION", "END_KEY", "Fluent", "Event", "EVENT_KINDS", "Enter", "Exit", "Move", "Set", "Statement", "Observe",
    "Condition", "Possible",
    "Content", "Tell", "Announce", "Noop", "Noise", "Effect", "Action", "Trace", "parse_event", "event_agents",
    "load_json_line", "perception_agents", "declared_rooms", "ROOMS_KEY",
]
