"""What the worlds' ToM question modules share: the question values, the wording of a knowledge question, and
exact answers from one checker run over the episode's global trace.

The question modules (``blocks``, ``hanabi``, ...) only sample and word questions; every answer comes from
:func:`belief.truth.checker.check`, never from an environment's own logic.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Callable, Iterable

from belief.truth.checker import check
from belief.errors import TraceError


class LabelledQuestion:
    """Base of an environment's question dataclass: ``answer`` is the exact answer, never shown to agents."""

    def public(self) -> dict:
        """What an agent is shown (no answer)."""
        d = asdict(self)
        d.pop("answer")
        return d

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class TurnQuestion(LabelledQuestion):
    """A question asked of ``asked`` about ``target`` after trace event ``t`` (the game's turn ``turn``), of a
    belief ``level`` and a ``template``: the fields the turn-based worlds' questions share."""

    id: str
    t: int
    turn: int
    asked: str
    target: str
    level: str
    template: str


#: the usual second-order knowledge question (``{x}``: the other agent, ``{fact}``: what is known)
X_KNOWS_YOU_KNOW = "Does {x} know that you know {fact}?"


def knowledge_question(level: str, fact: str, target: str, second_order: str = X_KNOWS_YOU_KNOW) -> str:
    """A yes/no question of a belief ``level`` about ``fact`` (words such as ``the sequence of Bomb 2``): "Do you
    know F?", "Does X know F?" (X: ``target``, capitalised), or the world's ``second_order`` wording."""
    x = target.capitalize()
    if level == "introspection":
        return f"Do you know {fact}?"
    if level == "first_order":
        return f"Does {x} know {fact}?"
    return second_order.format(x=x, fact=fact)


def label(trace, qs: Iterable, env: str, answer: Callable) -> list:
    """Fill in every question's ``answer`` (``answer(truth, q, q.t)``) from the global trace of ``env``."""
    if trace.meta.get("env") != env:
        raise TraceError(f"not a {env} trace (meta env = {trace.meta.get('env')!r})")
    truth = check(trace)
    qs = list(qs)
    for q in qs:
        q.answer = answer(truth, q, q.t)
    return qs


def questions_of(trace, env: str, is_move: Callable, move_questions: Callable, answer: Callable) -> list:
    """Every question ``move_questions(ev)`` asks after each move of the trace, labelled by :func:`label`."""
    try:
        qs = [q for ev in trace if is_move(ev) for q in move_questions(ev)]
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise TraceError(f"malformed {env} trace: {type(e).__name__}: {e}") from None
    return label(trace, qs, env, answer)
