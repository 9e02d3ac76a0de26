"""Type-check a trace against a domain: every fluent an event writes, observes or mentions is an atom of the
domain (declared predicate, arity, argument types), and every actor is an agent.

A fluent ``(pred, subject...)`` with value ``v`` is the atom ``pred(subject..., v)``; a fluent given without
a value (an observation in a global trace, a possible change) is checked for its predicate, arity and
subject only. With ``entities`` (name -> type, e.g. a scenario's agents and objects) unknown names and wrong
types are errors too; without, only predicates and arity are checked (and the domain's constants typed).
"""

from __future__ import annotations

from typing import Iterator, Optional

from belief.logic.domain import AGENT_TYPE, Domain
from belief.errors import BeliefError, TraceError, did_you_mean
from belief.logic.formula import Atom, Var
from belief.truth.trace import (Action, Announce, Enter, Move, Observe, Possible, Set, Statement, Tell,
                                 perception_agents)

#: how many problems a TraceError spells out (the rest are counted)
MAX_REPORTED = 5
_ANY = Var("value")


def _atoms(event) -> Iterator[tuple]:
    """(predicate, args) pairs an event states; the value is ``_ANY`` when the event does not name it."""
    if isinstance(event, Move):
        yield event.predicate, (event.object, event.to)
    elif isinstance(event, (Set, Statement)):
        yield event.predicate, (*event.subject, event.value if event.value is not None else _ANY)
    elif isinstance(event, Observe):
        values = event.values or (None,) * len(event.fluents)
        for fluent, value in zip(event.fluents, values):
            yield fluent[0], (*fluent[1:], value if value is not None else _ANY)
        if event.given is not None:
            for value in event.given.values:
                yield event.given.fluent[0], (*event.given.fluent[1:], value)
    elif isinstance(event, Possible):
        for fluent in event.fluents:
            yield fluent[0], (*fluent[1:], _ANY)
    elif isinstance(event, (Tell, Announce)):
        for c in event.content:
            yield c.predicate, (*c.subject, c.value if c.value is not None else _ANY)
    elif isinstance(event, Action):
        for eff in event.effects:
            yield eff.predicate, (*eff.subject, eff.value if eff.value is not None else _ANY)


def type_problems(trace, domain: Domain, entities: Optional[dict] = None) -> list[str]:
    """Every problem of ``trace`` against ``domain`` (empty: it fits), each naming the event."""
    known = None if entities is None else {**domain.constants, **entities}
    problems: list[str] = []
    for event in trace:
        where = event.where() if event.source_line is not None else f"t={event.t}"
        for pred, args in _atoms(event):
            try:
                domain.validate(Atom(pred, args), known)
            except BeliefError as e:
                problems.append(f"{where}: {e}")
        if isinstance(event, Enter) and "at" in domain.predicates:
            for agent in event.agents:
                try:
                    domain.validate(Atom("at", (agent, event.room)), known)
                except BeliefError as e:
                    problems.append(f"{where}: {e}")
        if known is not None:
            for agent in perception_agents(event) if event.has_perception else ():
                if agent in known and not domain.is_subtype(known[agent], AGENT_TYPE):
                    problems.append(f"{where}: {agent!r} is named as perceiving the event but is "
                                    f"{known[agent]!r}, not an agent")
                elif agent not in known:
                    agents = [k for k, t in known.items() if t == AGENT_TYPE]
                    problems.append(f"{where}: no such agent {agent!r}{did_you_mean(agent, agents)}")
            for agent in event.actors:
                if agent in known and not domain.is_subtype(known[agent], AGENT_TYPE):
                    problems.append(f"{where}: {agent!r} acts but is {known[agent]!r}, not an agent")
                elif agent not in known:
                    agents = [k for k, t in known.items() if t == AGENT_TYPE]
                    problems.append(f"{where}: no such agent {agent!r}{did_you_mean(agent, agents)}")
    return problems


def type_check(trace, domain: Domain, entities: Optional[dict] = None) -> None:
    """TraceError listing the first problems of ``trace`` against ``domain`` (see :func:`type_problems`)."""
    problems = type_problems(trace, domain, entities)
    if problems:
        more = f" (and {len(problems) - MAX_REPORTED} more)" if len(problems) > MAX_REPORTED else ""
        raise TraceError(f"the trace does not fit domain {domain.name}: "
                         + "; ".join(problems[:MAX_REPORTED]) + more)


__all__ = ["MAX_REPORTED", "type_check", "type_problems"]
