"""What every agent offers a runner: one protocol for every world (:class:`Agent`), and :class:`AgentBase`,
the no-op defaults of the optional capabilities, so runners never probe an agent with ``hasattr``.

A runner drives an agent in this order:

1. ``reset(task)`` once, before the episode: ``task`` is what the env tells every agent at the start
   (``infos[agent]["task"]`` where the env has one, else None);
2. ``perceive(events, info)`` after the env's reset and after every step: ``events`` are the trace events the
   agent perceived since the last call (``env.take_perceived(agent)``, its private trace; empty when the env
   hands them over inside ``info``), ``info`` its current ``infos[agent]`` (None when it has none);
3. on its turn ``act(observation, info)``: ``observation`` the env's observation for the agent
   (``env.observe(agent)`` or what ``step`` returned), ``info`` its ``infos[agent]`` (the structured view and the
   action mask); the return value is the env action; then ``message()``: what the agent sends with that
   action (None or empty: nothing; the payload is the world's: text, facts or a fluent map);
4. ``answer(question)`` whenever a ToM question (its public JSON form) is put to it: free text.
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence, runtime_checkable


@runtime_checkable
class Agent(Protocol):
    """The one agent interface every world's runner uses."""

    name: str

    def reset(self, task: dict | None = None) -> None: ...

    def perceive(self, events: Sequence, info: dict | None = None) -> None: ...

    def act(self, observation: Any, info: dict) -> Any: ...

    def message(self) -> Any: ...

    def answer(self, question: dict) -> str: ...


class AgentBase:
    """The optional capabilities as no-ops: an agent that keeps no record, sends nothing and has no view of
    anyone's mind overrides only ``act`` (and sets ``name``)."""

    name: str
    kind = "agent"

    def reset(self, task: dict | None = None) -> None:
        """Nothing to set up."""

    def perceive(self, events: Sequence, info: dict | None = None) -> None:
        """Keeps no record."""

    def act(self, observation: Any, info: dict) -> Any:  # pragma: no cover - every agent overrides it
        raise NotImplementedError

    def message(self) -> Any:
        """Sends nothing."""
        return None

    def answer(self, question: dict) -> str:
        """No view of anyone's mind: an answer the grader reads as neither yes nor a location."""
        return "I do not know."


class ChoosingAgent(AgentBase):
    """An agent that chooses its action and its message together, from its structured view
    (``info["obs"]``) and the action mask (``info["action_mask"]``): :meth:`choose` is all it writes."""

    #: what :meth:`message` gives before the first turn
    _chosen_message: Any = None

    def choose(self, view: dict, mask) -> tuple[Any, Any]:  # pragma: no cover - every agent overrides it
        """The action and the message for this turn."""
        raise NotImplementedError

    def act(self, observation: Any, info: dict) -> Any:
        action, self._chosen_message = self.choose(info["obs"], info["action_mask"])
        return action

    def message(self) -> Any:
        return self._chosen_message


__all__ = ["Agent", "AgentBase", "ChoosingAgent"]
