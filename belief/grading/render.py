"""One renderer of questions to text, and of an answerer's verdict to a short answer, for every world.

A question of the general model (:class:`~belief.grading.questions.Question`) is worded from its kind, its
chain, its fluent and who answers it (``agent``: "you"); the world supplies only names and phrasing
(:class:`Phrasing`):

* ``agent(name)``: how an agent is named ("Alpha" for ``alpha``);
* ``fact(fluent, values)``: what is known, the object of "know": "the contents of Room 5", "that Bomb 2 has
  changed" (``values`` is the question's, when it asks whether the fluent is one of them);
* ``subject(fluent)``: ``(wh-word, subject)`` of a value question: ``("where", "the marble")`` words "Where does
  Anne think the marble is?";
* ``value(v)``: how a value is said in an answer ("the box");
* ``aware``: the form of "A1 is aware that A2 knows ...", with ``{x}`` (A1, already named) and ``{rest}`` (the
  bomb world keeps the study's "Based on the observation and previous history, is {x} aware of the fact that
  {rest}?");
* ``special(q)``: a world's own wording of some questions (None: the general form).

Forms (``you`` is the answering agent, when the question names one)::

    value,  chain ()            Where is the marble?
    value,  chain (A, B)        Where does Anne think Bob thinks the marble is?   (you: "do you think")
    knows,  chain (A,)          Does Anne know F?          (you: "Do you know F?")
    aware,  chain (A, B, ...)   Is Anne aware that Bob knows [that Carl knows] F?

:func:`say` is the other direction: the short free-text answer an answerer that computed a verdict (yes / no,
a value, ``unknown``) gives, which the one reader (:func:`belief.grading.report.read_answer`) reads back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from belief.grading.questions import GIVEN, NO, NOWHERE, UNKNOWN, YES, Question

Fluent = tuple[str, ...]


def _plain_name(name: str) -> str:
    return name.replace("_", " ")


def _default_agent(name: str) -> str:
    return name[:1].upper() + name[1:]


def _default_fact(fluent: Fluent, values: Optional[tuple[str, ...]]) -> str:
    what = f"the {_plain_name(fluent[0])} of the {' '.join(_plain_name(x) for x in fluent[1:])}"
    if fluent[0] == "in":
        what = f"where the {' '.join(_plain_name(x) for x in fluent[1:])} is"
    if values:
        return f"that {what} is {' or '.join(_plain_name(v) for v in values)}"
    return what


def _default_subject(fluent: Fluent) -> tuple[str, str]:
    if fluent[0] in ("in", "at"):
        return "where", f"the {' '.join(_plain_name(x) for x in fluent[1:])}"
    return "what", f"the {_plain_name(fluent[0])} of the {' '.join(_plain_name(x) for x in fluent[1:])}"


def _default_value(v: str) -> str:
    return f"the {_plain_name(v)}"


@dataclass(frozen=True)
class Phrasing:
    """A world's names and phrasing (see the module docstring); every field has a plain default."""

    agent: Callable[[str], str] = _default_agent
    fact: Callable[[Fluent, Optional[tuple[str, ...]]], str] = _default_fact
    subject: Callable[[Fluent], tuple[str, str]] = _default_subject
    value: Callable[[str], str] = _default_value
    aware: str = "Is {x} aware that {rest}?"
    special: Callable[[Question], Optional[str]] = field(default=lambda q: None)


PLAIN = Phrasing()


def _name(p: Phrasing, agent: str, you: Optional[str]) -> str:
    return "you" if agent == you else p.agent(agent)


def _knows(p: Phrasing, agent: str, you: Optional[str]) -> str:
    return "you know" if agent == you else f"{p.agent(agent)} knows"


def _capital(s: str) -> str:
    return s[:1].upper() + s[1:]


def render(q: Question, phrasing: Phrasing = PLAIN) -> str:
    """The question in words (see the module docstring); a ``given`` question keeps its own ``text``."""
    special = phrasing.special(q)
    if special is not None:
        return special
    if q.kind == GIVEN or q.fluent is None:
        if q.text is None:
            raise ValueError(f"question {q.id}: a 'given' question brings its own text")
        return q.text
    you = q.agent
    chain = q.chain
    if q.kind == "value":
        wh, subject = phrasing.subject(q.fluent)
        if not chain:
            return _capital(f"{wh} is {subject}?")
        first = "do you think" if chain[0] == you else f"does {phrasing.agent(chain[0])} think"
        rest = "".join(f" {_name(phrasing, a, you)} {'think' if a == you else 'thinks'}" for a in chain[1:])
        return _capital(f"{wh} {first}{rest} {subject} is?")
    fact = phrasing.fact(q.fluent, q.values)
    if len(chain) == 1:
        a = chain[0]
        return f"Do you know {fact}?" if a == you else f"Does {phrasing.agent(a)} know {fact}?"
    inner = " that ".join(_knows(phrasing, a, you) for a in chain[1:])
    first = chain[0]
    if first == you:
        return f"Are you aware that {inner} {fact}?"
    return phrasing.aware.format(x=phrasing.agent(first), rest=f"{inner} {fact}")


def say(q: Question, verdict: Optional[str], phrasing: Phrasing = PLAIN) -> str:
    """A short answer stating ``verdict``: ``yes`` / ``no`` for a yes/no question, a value (or ``unknown`` /
    ``nowhere``) for a value question; None: "I don't know." (unreadable, never a guess)."""
    if verdict is None:
        return "I don't know."
    if q.yes_no:
        return "Yes." if verdict == YES else "No." if verdict == NO else "I don't know."
    if verdict == UNKNOWN:
        return "They don't know."
    if verdict == NOWHERE:
        return "Nowhere."
    return _capital(f"{phrasing.value(verdict)}.")


__all__ = ["Phrasing", "PLAIN", "render", "say"]
