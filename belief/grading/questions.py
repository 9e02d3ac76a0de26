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
* ``kind`` ``given``: a question whose gold is not about beliefs in the trace (a planner's best action, a
  fact of the map), so the file states it: ``gold`` (one answer or the list of every correct one) and
  ``answer_type`` ``yes_no`` (gold ``yes`` / ``no``) or ``choice`` (a place, entity or action named from
  ``choices``; the gold must be among them). No ``fluent`` or ``values``; ``chain`` is only a label (whose
  mind the question is about). The checker stays the only source of gold for ``value`` / ``knows`` /
  ``aware``: a ``gold`` or ``answer_type`` on those kinds is an error, not an override.
* ``template``, ``agent`` (who answers; "Do you know ...?" when the chain is just that agent), ``level``,
  ``category`` (e.g. CoordinationQA's ``EC`` / ``ToM`` / ``JP``), ``phenomenon`` (why answering takes Theory of
  Mind: ``false_belief``, ``divergent_second_order``, ``missed_change``, ``secret_observation``,
  ``elimination``, ``message_borne``; :mod:`belief.grading.selector` defines them) and ``text`` are labels for
  breakdowns and people; ``choices`` lists the places a ``value`` answer may name (default: every value the
  fluent takes in the trace). Every label is optional: a file written before ``phenomenon`` existed reads the
  same.

:func:`gold_answer` is the exact answer on the global trace; :func:`private_answer` is the same question
answered from an agent's own record (the checker on its private trace, where the owner's beliefs stand for
reality): how the belief agents of every world answer, and how the "answer as yourself" shortcut does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Literal, Optional, Sequence, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from belief.errors import BeliefError
from belief.truth.ground import GroundTruth
from belief.truth.index import is_marker

CHECKER_KINDS = ("value", "knows", "aware")
GIVEN = "given"
KINDS = CHECKER_KINDS + (GIVEN,)
ANSWER_TYPES = ("yes_no", "choice")
YES, NO = "yes", "no"
UNKNOWN, NOWHERE = "unknown", "nowhere"
_CALL = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*\(\s*([^()]*)\)\s*$")


class GradingError(BeliefError):
    """Questions or answers that cannot be graded (bad file, unknown ids, another episode, ...)."""


def parse_fluent(spec: object) -> tuple[str, ...]:
    """``"in(marble)"``, ``"contents(room_5)"``, ``"in marble"`` or ``["in", "marble"]`` as a fluent tuple."""
    call = _CALL.match(spec) if isinstance(spec, str) else None
    if isinstance(spec, (list, tuple)) and spec and all(isinstance(x, str) and x for x in spec):
        parts = tuple(spec)
    elif call:
        parts = (call.group(1), *[a.strip() for a in call.group(2).split(",") if a.strip()])
    elif isinstance(spec, str):
        parts = tuple(spec.split())
    else:
        raise ValueError(f"not a fluent: {spec!r} (expected e.g. \"in(marble)\")")
    if len(parts) < 2:
        raise ValueError(f"fluent {spec!r} needs a predicate and a subject, like \"in(marble)\"")
    return parts


def _as_tuple(x: str | Iterable[str] | None) -> Optional[tuple[str, ...]]:
    if x is None:
        return None
    return (x,) if isinstance(x, str) else tuple(x)


def kind_problem(kind: str, *, chain: Sequence[str] = (), fluent: object = None, values: object = None,
                 gold: Optional[Sequence[str]] = None, answer_type: Optional[str] = None,
                 choices: Optional[Sequence[str]] = None) -> Optional[str]:
    """Why these fields do not make a question of ``kind`` (None when they do): checker kinds take their gold
    from the checker and need a fluent; ``given`` questions bring their gold and answer type instead."""
    if kind not in KINDS:
        return f"kind must be one of {', '.join(KINDS)}, got {kind!r}"
    if kind != GIVEN:
        if gold is not None or answer_type is not None:
            return (f"a {kind!r} question's gold answer comes from the checker; a questions file cannot give "
                    f"'gold' or 'answer_type' (use kind \"given\" for a question the checker does not answer)")
        if fluent is None:
            return f"a {kind!r} question needs a 'fluent'"
        if kind == "knows" and len(chain) < 1:
            return "a 'knows' question needs an agent in its chain"
        if kind == "aware" and len(chain) < 2:
            return "an 'aware' question needs a chain of two or more agents"
        return None
    if fluent is not None or values is not None:
        return "a 'given' question has no 'fluent' or 'values' (its gold is given, not derived from the trace)"
    if not gold:
        return "a 'given' question needs its 'gold' answer (one, or a list of every correct one)"
    if answer_type not in ANSWER_TYPES:
        return f"a 'given' question needs 'answer_type' {' or '.join(ANSWER_TYPES)}, got {answer_type!r}"
    if answer_type == "yes_no":
        if choices is not None:
            return "a yes_no question has no 'choices'"
        if not set(gold) <= {YES, NO}:
            return f"a yes_no question's gold must be yes or no, got {', '.join(map(repr, gold))}"
        return None
    if not choices:
        return "a choice question needs its 'choices' (what an answer may name)"
    stray = [g for g in gold if g not in choices]
    if stray:
        return f"gold {stray[0]!r} is not one of the choices ({', '.join(choices)})"
    return None


class QuestionRecord(BaseModel):
    """One line of a questions file (the boundary model; :class:`Question` is the value used inside)."""

    # strict: a value of the wrong JSON type ("time": "3") is refused, not coerced
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    id: Union[str, int]
    kind: Literal["value", "knows", "aware", "given"]
    chain: list[str] = Field(default_factory=list)
    fluent: Optional[Union[str, list[str]]] = None
    time: Union[int, Literal["end"]] = "end"
    values: Optional[list[str]] = None
    template: Optional[str] = None
    agent: Optional[str] = None
    level: Optional[str] = None
    text: Optional[str] = None
    choices: Optional[list[str]] = None
    category: Optional[str] = None
    phenomenon: Optional[str] = None
    gold: Optional[Union[str, list[str]]] = None
    answer_type: Optional[Literal["yes_no", "choice"]] = None
    episode: Optional[str] = None

    @field_validator("fluent")
    @classmethod
    def _fluent(cls, v: Optional[Union[str, list[str]]]) -> Optional[Union[str, list[str]]]:
        if v is not None:
            parse_fluent(v)
        return v

    @model_validator(mode="after")
    def _kind_fields(self) -> "QuestionRecord":
        problem = kind_problem(self.kind, chain=self.chain, fluent=self.fluent, values=self.values,
                               gold=_as_tuple(self.gold), answer_type=self.answer_type, choices=self.choices)
        if problem:
            raise ValueError(problem)
        return self

    @field_validator("time")
    @classmethod
    def _time(cls, v: Union[int, Literal["end"]]) -> Union[int, Literal["end"]]:
        if isinstance(v, int) and v < 0:
            raise ValueError("time must be an event index >= 0 or \"end\"")
        return v


@dataclass(frozen=True)
class Question:
    """A question about a trace (see the module docstring); ``order`` is the chain's length (None for a
    ``given`` question without a chain)."""

    id: str
    kind: str
    chain: tuple[str, ...]
    fluent: Optional[tuple[str, ...]]
    time: Union[int, Literal["end"]] = "end"
    values: Optional[tuple[str, ...]] = None
    template: Optional[str] = None
    agent: Optional[str] = None
    level: Optional[str] = None
    text: Optional[str] = None
    choices: Optional[tuple[str, ...]] = None
    category: Optional[str] = None
    gold: Optional[tuple[str, ...]] = None  # kind "given" only: every correct answer
    answer_type: Optional[str] = None    # kind "given" only: yes_no | choice
    phenomenon: Optional[str] = None     # why it takes ToM (belief.grading.selector.PHENOMENA)

    def __post_init__(self) -> None:
        problem = kind_problem(self.kind, chain=self.chain, fluent=self.fluent, values=self.values, gold=self.gold,
                               answer_type=self.answer_type, choices=self.choices)
        if problem:
            raise GradingError(f"question {self.id}: {problem}")

    @property
    def order(self) -> Optional[int]:
        return None if self.kind == GIVEN and not self.chain else len(self.chain)

    @property
    def yes_no(self) -> bool:
        """Answered yes or no (``knows``, ``aware``, a ``yes_no`` given question)."""
        return self.kind in ("knows", "aware") or self.answer_type == "yes_no"

    @property
    def about_self(self) -> bool:
        """Asked of the agent about its own knowledge ("Do you know F?")."""
        return self.kind in ("knows", GIVEN) and self.agent is not None and self.chain == (self.agent,)

    @property
    def fluent_text(self) -> Optional[str]:
        return None if self.fluent is None else f"{self.fluent[0]}({', '.join(self.fluent[1:])})"

    @classmethod
    def from_record(cls, rec: QuestionRecord) -> "Question":
        return cls(id=str(rec.id), kind=rec.kind, chain=tuple(rec.chain),
                   fluent=parse_fluent(rec.fluent) if rec.fluent is not None else None, time=rec.time,
                   values=_as_tuple(rec.values), template=rec.template, agent=rec.agent, level=rec.level,
                   text=rec.text, choices=_as_tuple(rec.choices), category=rec.category, gold=_as_tuple(rec.gold),
                   answer_type=rec.answer_type, phenomenon=rec.phenomenon)

    def to_json(self) -> dict:
        """One line of a questions file (what :func:`question_from_dict` reads back); unset fields left out."""
        d: dict[str, object] = {"id": self.id, "kind": self.kind, "chain": list(self.chain), "fluent": self.fluent_text,
             "time": self.time, "values": self.values, "template": self.template, "agent": self.agent,
             "level": self.level, "category": self.category, "text": self.text, "choices": self.choices,
             "gold": self.gold, "answer_type": self.answer_type, "phenomenon": self.phenomenon}
        return {k: list(v) if isinstance(v, tuple) else v for k, v in d.items() if v is not None}


def question_from_dict(d: object, where: str = "") -> tuple[Question, Optional[str]]:
    """(question, the episode it names or None) from one parsed JSON object; GradingError on bad input."""
    try:
        rec = QuestionRecord.model_validate(d)
    except ValidationError as e:
        problems = "; ".join(f"{'.'.join(str(x) for x in err['loc']) or 'question'}: {err['msg']}" for err in e.errors())
        raise GradingError(f"{where}invalid question: {problems}") from None
    try:
        return Question.from_record(rec), rec.episode
    except GradingError as e:
        raise GradingError(f"{where}{e}") from None


def _time(truth: GroundTruth, q: Question) -> int:
    if q.time == "end":
        return truth.end
    if q.time > truth.end:
        raise GradingError(f"question {q.id}: time {q.time} is after the trace's last event ({truth.end})")
    return q.time


def _checker(truth: Optional[GroundTruth], q: Question) -> GroundTruth:
    """The checker that answers ``q`` (a question of a checker kind); GradingError when there is none."""
    if truth is None:
        raise GradingError(f"question {q.id}: a {q.kind!r} question is answered by the checker: it needs a trace")
    return truth


def _given_gold(q: Question) -> tuple[str, ...]:
    assert q.gold is not None  # a given question brings its gold (kind_problem)
    return q.gold


def check_question(truth: Optional[GroundTruth], q: Question) -> None:
    """Refuse a question the trace cannot answer: unknown agents or fluents are typos, not 'no'."""
    if q.kind != GIVEN:
        _checker(truth, q)
    if truth is None:
        return
    missing = [a for a in q.chain if a not in truth.agents]
    if missing:
        raise GradingError(f"question {q.id}: agent {missing[0]!r} does not occur in the trace "
                           f"(agents: {', '.join(truth.agents)})")
    if q.fluent is not None and q.fluent not in set(truth.fluents()):
        raise GradingError(f"question {q.id}: fluent {q.fluent[0]}({', '.join(q.fluent[1:])}) does not occur in the "
                           f"trace")
    _time(truth, q)


def gold_answer(truth: Optional[GroundTruth], q: Question) -> str:
    """The exact answer: from the checker, a place / ``unknown`` / ``nowhere`` (value) or ``yes`` / ``no``;
    for a ``given`` question its stated gold (several correct answers joined by ``|``)."""
    if q.kind == GIVEN:
        return "|".join(_given_gold(q))
    truth = _checker(truth, q)
    assert q.fluent is not None  # a checker kind has its fluent (kind_problem)
    return checker_answer(truth, q.kind, q.chain, q.fluent, _time(truth, q), q.values)


def checker_answer(truth: GroundTruth, kind: str, chain: tuple[str, ...], fluent: tuple[str, ...], at: int,
                   values: Optional[tuple[str, ...]] = None) -> str:
    """The exact answer of a question of a checker kind given by its parts (what :func:`gold_answer` computes;
    the shortcut panel asks variants of a question this way, without building each one)."""
    if kind == "value":
        prov = truth.lookup(chain, fluent, at)
        if prov is None or is_marker(prov.value):
            return UNKNOWN
        return NOWHERE if prov.value is None else str(prov.value)
    holds = values is None or truth.reality(fluent, at) in values
    return YES if holds and truth.knows_chain(chain, fluent, at) else NO


def private_answer(record: GroundTruth, q: Question, chain: Optional[Sequence[str]] = None) -> str:
    """``q`` answered from an agent's own record (``record``: the checker on its private trace, whose
    ``owner`` it is): at the record's end (the question's ``time`` indexes the global trace, not the record),
    with the owner's own definite belief standing for reality in a fact's ``values``. ``chain`` replaces the
    question's chain (the "answer as yourself" shortcut asks ``(owner,)``). Without an owner (a global trace)
    reality is the trace's own."""
    if q.kind == GIVEN:
        raise GradingError(f"question {q.id}: a 'given' question is not answered from a record")
    chain = q.chain if chain is None else tuple(chain)
    assert q.fluent is not None  # a checker kind has its fluent (kind_problem)
    at = record.end
    if q.kind == "value":
        prov = record.lookup(chain, q.fluent, at)
        if prov is None or is_marker(prov.value):
            return UNKNOWN
        return NOWHERE if prov.value is None else str(prov.value)
    if not chain:
        raise GradingError(f"question {q.id}: a {q.kind!r} question needs an agent in its chain")
    if q.values is not None:
        owner = record.owner
        real = record.value((owner,), q.fluent, at) if owner in record.agents else record.reality(q.fluent, at)
        if not (isinstance(real, str) and not is_marker(real) and real in q.values):
            return NO
    return YES if record.knows_chain(chain, q.fluent, at) else NO


def correct_answers(truth: Optional[GroundTruth], q: Question) -> tuple[str, ...]:
    """Every reading graded correct: a ``given`` question's gold, else the checker's one answer."""
    return _given_gold(q) if q.kind == GIVEN else (gold_answer(truth, q),)


def place_candidates(truth: Optional[GroundTruth], q: Question) -> tuple[str, ...]:
    """The names a ``value`` or ``choice`` answer may use: the question's choices, else (value) every value
    of its fluent in the trace."""
    if q.choices is not None:
        return q.choices
    if q.kind != "value":
        return ()
    truth = _checker(truth, q)
    assert q.fluent is not None  # a checker kind has its fluent (kind_problem)
    seen: dict[str, None] = {}
    for p in truth.history(q.fluent) + truth.updates_of(q.fluent):
        if isinstance(p.value, str) and not is_marker(p.value):
            seen.setdefault(p.value, None)
    for a in truth.agents:
        for p in truth.chain_updates_of(q.fluent, (a,)):
            if isinstance(p.value, str) and not is_marker(p.value):
                seen.setdefault(p.value, None)
    return tuple(seen)


__all__ = ["Question", "QuestionRecord", "GradingError", "question_from_dict", "parse_fluent", "gold_answer",
           "private_answer", "checker_answer",
           "correct_answers", "check_question", "place_candidates", "kind_problem", "KINDS", "CHECKER_KINDS",
           "GIVEN", "ANSWER_TYPES", "YES", "NO", "UNKNOWN", "NOWHERE"]
