"""The general ToM question model: any chain, any fluent, any time; the exact answer from the checker.

A question (one JSON object per line of a questions file; validated by pydantic at the boundary)::

    {"id": "q1", "kind": "value", "chain": ["Anne", "Sally"], "fluent": "in(marble)", "time": "end",
     "template": "second_order_belief", "agent": "Anne"}

* ``kind`` ``value``: "Where does A think B thinks ... the marble is?" The gold answer is the value the
  chain holds (``GroundTruth.lookup``), ``unknown`` when it never observed the fluent or is unsure, or
  ``nowhere``. An empty chain asks for reality.
* ``kind`` ``knows``: "Does A know F?" (``GroundTruth.knows_chain``); with ``values``, "Does A know that F
  is one of these?" (the fact must hold too). ``aware``: "Is A aware that B knows F?", a chain of two or
  more agents. Gold answers are ``yes`` / ``no``.
* ``fluent``: ``"in(marble)"``, ``"contents(room_5)"``, ``"in marble"`` or ``["in", "marble"]`` (the trace's
  fluent naming). ``time``: the index of the event after which the question is asked, or ``"end"``.
* ``template``, ``agent`` (who answers; "Do you know ...?" when the chain is just that agent), ``level``
  and ``text`` are labels for breakdowns and people; ``choices`` lists the places a ``value`` answer may
  name (default: every value the fluent takes in the trace).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from belief.errors import BeliefError
from belief.truth import GroundTruth
from belief.truth_index import is_marker

KINDS = ("value", "knows", "aware")
YES, NO = "yes", "no"
UNKNOWN, NOWHERE = "unknown", "nowhere"
_CALL = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*\(\s*([^()]*)\)\s*$")


class GradingError(BeliefError):
    """Questions or answers that cannot be graded (bad file, unknown ids, another episode, ...)."""


def parse_fluent(spec) -> tuple:
    """``"in(marble)"``, ``"contents(room_5)"``, ``"in marble"`` or ``["in", "marble"]`` as a fluent tuple."""
    if isinstance(spec, (list, tuple)) and spec and all(isinstance(x, str) and x for x in spec):
        parts = tuple(spec)
    elif isinstance(spec, str) and _CALL.match(spec):
        m = _CALL.match(spec)
        parts = (m.group(1), *[a.strip() for a in m.group(2).split(",") if a.strip()])
    elif isinstance(spec, str):
        parts = tuple(spec.split())
    else:
        raise ValueError(f"not a fluent: {spec!r} (expected e.g. \"in(marble)\")")
    if len(parts) < 2:
        raise ValueError(f"fluent {spec!r} needs a predicate and a subject, like \"in(marble)\"")
    return parts


class QuestionRecord(BaseModel):
    """One line of a questions file (the boundary model; :class:`Question` is the value used inside)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Union[str, int]
    kind: Literal["value", "knows", "aware"]
    chain: list[str] = Field(default_factory=list)
    fluent: Union[str, list[str]]
    time: Union[int, Literal["end"]] = "end"
    values: Optional[list[str]] = None
    template: Optional[str] = None
    agent: Optional[str] = None
    level: Optional[str] = None
    text: Optional[str] = None
    choices: Optional[list[str]] = None
    episode: Optional[str] = None

    @field_validator("fluent")
    @classmethod
    def _fluent(cls, v):
        parse_fluent(v)
        return v

    @field_validator("time")
    @classmethod
    def _time(cls, v):
        if isinstance(v, int) and v < 0:
            raise ValueError("time must be an event index >= 0 or \"end\"")
        return v


@dataclass(frozen=True)
class Question:
    """A ToM question about a trace (see the module docstring); ``order`` is the chain's length."""

    id: str
    kind: str
    chain: tuple
    fluent: tuple
    time: Union[int, str] = "end"
    values: Optional[tuple] = None
    template: Optional[str] = None
    agent: Optional[str] = None
    level: Optional[str] = None
    text: Optional[str] = None
    choices: Optional[tuple] = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise GradingError(f"question {self.id}: kind must be one of {', '.join(KINDS)}, got {self.kind!r}")
        if self.kind == "knows" and len(self.chain) < 1:
            raise GradingError(f"question {self.id}: a 'knows' question needs an agent in its chain")
        if self.kind == "aware" and len(self.chain) < 2:
            raise GradingError(f"question {self.id}: an 'aware' question needs a chain of two or more agents")

    @property
    def order(self) -> int:
        return len(self.chain)

    @property
    def about_self(self) -> bool:
        """Asked of the agent about its own knowledge ("Do you know F?")."""
        return self.kind == "knows" and self.agent is not None and self.chain == (self.agent,)

    @classmethod
    def from_record(cls, rec: QuestionRecord) -> "Question":
        return cls(id=str(rec.id), kind=rec.kind, chain=tuple(rec.chain), fluent=parse_fluent(rec.fluent),
                   time=rec.time, values=tuple(rec.values) if rec.values is not None else None,
                   template=rec.template, agent=rec.agent, level=rec.level, text=rec.text,
                   choices=tuple(rec.choices) if rec.choices is not None else None)

    def to_json(self) -> dict:
        return {"id": self.id, "kind": self.kind, "chain": list(self.chain),
                "fluent": f"{self.fluent[0]}({', '.join(self.fluent[1:])})", "time": self.time,
                "values": list(self.values) if self.values is not None else None, "template": self.template,
                "agent": self.agent, "level": self.level, "text": self.text}


def question_from_dict(d, where: str = "") -> tuple[Question, Optional[str]]:
    """(question, the episode it names or None) from one parsed JSON object; GradingError on bad input."""
    try:
        rec = QuestionRecord.model_validate(d)
    except ValidationError as e:
        problems = "; ".join(f"{'.'.join(str(x) for x in err['loc']) or 'question'}: {err['msg']}" for err in e.errors())
        raise GradingError(f"{where}invalid question: {problems}") from None
    return Question.from_record(rec), rec.episode


def _time(truth: GroundTruth, q: Question) -> int:
    if q.time == "end":
        return truth.end
    if q.time > truth.end:
        raise GradingError(f"question {q.id}: time {q.time} is after the trace's last event ({truth.end})")
    return q.time


def check_question(truth: GroundTruth, q: Question) -> None:
    """Refuse a question the trace cannot answer: unknown agents or fluents are typos, not 'no'."""
    missing = [a for a in q.chain if a not in truth.agents]
    if missing:
        raise GradingError(f"question {q.id}: agent {missing[0]!r} does not occur in the trace "
                           f"(agents: {', '.join(truth.agents)})")
    if q.fluent not in set(truth.fluents()):
        raise GradingError(f"question {q.id}: fluent {q.fluent[0]}({', '.join(q.fluent[1:])}) does not occur in the "
                           f"trace")
    _time(truth, q)


def gold_answer(truth: GroundTruth, q: Question) -> str:
    """The exact answer from the checker: a place / ``unknown`` / ``nowhere`` (value) or ``yes`` / ``no``."""
    at = _time(truth, q)
    if q.kind == "value":
        prov = truth.lookup(q.chain, q.fluent, at)
        if prov is None or is_marker(prov.value):
            return UNKNOWN
        return NOWHERE if prov.value is None else str(prov.value)
    holds = q.values is None or truth.reality(q.fluent, at) in q.values
    return YES if holds and truth.knows_chain(q.chain, q.fluent, at) else NO


def place_candidates(truth: GroundTruth, q: Question) -> tuple:
    """The places a ``value`` answer may name: the question's choices, else every value of its fluent."""
    if q.choices is not None:
        return q.choices
    seen: dict = {}
    for p in truth.history(q.fluent) + truth.updates_of(q.fluent):
        if isinstance(p.value, str) and not is_marker(p.value):
            seen.setdefault(p.value, None)
    for a in truth.agents:
        for p in truth.chain_updates_of(q.fluent, (a,)):
            if isinstance(p.value, str) and not is_marker(p.value):
                seen.setdefault(p.value, None)
    return tuple(seen)


__all__ = ["Question", "QuestionRecord", "GradingError", "question_from_dict", "parse_fluent", "gold_answer",
           "check_question", "place_candidates", "KINDS", "YES", "NO", "UNKNOWN", "NOWHERE"]
