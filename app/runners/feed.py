"""The loop step the turn-based runners share: hand each agent what it perceived, then ask the questions that
each new event of the global trace raises, of the agent they are for, at once (before anyone acts again)."""

from __future__ import annotations

from typing import Callable, Iterable, Mapping


class QuestionFeed:
    """Call it after every step. ``questions_of(event)`` gives the questions an event raises (none for most);
    each is asked of ``agents[q.asked]`` with ``q.public()``. ``asked`` keeps the questions in order, ``given``
    the answers by question id."""

    def __init__(self, env, agents: Mapping, questions_of: Callable[[object], Iterable]):
        self.env, self.agents, self.questions_of = env, agents, questions_of
        self.asked: list = []
        self.given: dict = {}
        self._fed = 0

    def __call__(self) -> None:
        for name, agent in self.agents.items():
            agent.perceive(self.env.take_perceived(name), self.env.infos.get(name))
        trace = self.env.trace
        while self._fed < len(trace):
            ev = trace[self._fed]
            self._fed += 1
            for q in self.questions_of(ev):
                self.asked.append(q)
                self.given[q.id] = self.agents[q.asked].answer(q.public())


__all__ = ["QuestionFeed"]
