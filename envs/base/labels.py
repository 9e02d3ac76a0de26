"""Exact answers for an environment's ToM questions: one checker run over the episode's global trace.

Shared by the environments whose question modules (``blocks_tom``, ``hanabi_tom``) only sample and word
questions; every answer comes from :func:`belief.truth.checker.check`, never from an environment's own logic.
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
