"""The agent kinds of ``household_v0`` and how a team is made: ``cobel``, ``coela``, ``silent``, ``single``."""

from __future__ import annotations

from belief.agents.household.agent import HouseholdAgent
from belief.agents.household.cobel import CoBelAgent
from belief.agents.household.coela import CoELAAgent

AGENT_KINDS = ("cobel", "coela", "silent", "single")


def team_size(kind: str) -> int:
    return 1 if kind == "single" else 2


def make_agent(kind: str, name: str, task_info: dict) -> HouseholdAgent:
    if kind == "cobel":
        return CoBelAgent(name, task_info)
    if kind == "silent":
        return CoBelAgent(name, task_info, talks=False)
    if kind == "coela":
        return CoELAAgent(name, task_info)
    if kind == "single":
        return HouseholdAgent(name, task_info)
    raise ValueError(f"unknown household agent kind {kind!r}; choose from {', '.join(AGENT_KINDS)}")


def make_team(kind: str, task_info: dict) -> dict:
    return {a: make_agent(kind, a, task_info) for a in task_info["agents"]}


__all__ = ["AGENT_KINDS", "make_agent", "make_team", "team_size"]
