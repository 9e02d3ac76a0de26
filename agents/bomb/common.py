"""What every bomb_v0 agent does the same way under the agent protocol (:mod:`belief.agents.protocol`).

A bomb agent chooses an action and a message together (:meth:`BombAgent.choose` on its structured view
``infos[agent]["obs"]`` and the action mask); the result of its own action (``infos[agent]["result"]``) is
taken in once, by :meth:`BombAgent.observe_result`, the first time ``perceive`` sees it.
"""

from __future__ import annotations

from belief.agents.protocol import ChoosingAgent


class BombAgent(ChoosingAgent):
    """:meth:`choose` gives the action and the message (empty: none) of a turn."""

    _chosen_message = ""
    _result_turn = -1

    def perceive(self, events, info: dict | None = None) -> None:
        result = (info or {}).get("result")
        if result is not None and result["turn"] > self._result_turn:
            self._result_turn = result["turn"]
            self.observe_result(result, self._chosen_message)
        self.record(events)

    def record(self, events) -> None:
        """Keep the perceived events (its private trace); by default, none are kept."""

    def observe_result(self, result: dict, message: str = "") -> None:
        """Take in the result of its own action (and the message it sent with it)."""


__all__ = ["BombAgent"]
