"""The agent kinds of ``household_v0`` and how a team is made.

``cobel`` (beliefs about the partner, prediction, detection, messages priced by value of information);
baselines: ``coela`` (CoELA-like, talks when it has news worth a step), ``messenger`` (a rule messenger
without a partner model: what is new, plus its plan), ``independent`` (two MHP planners, no partner model,
no messages), ``silent`` (cobel without messages: predicts and yields), ``single`` (one MHP agent alone); cobel's ablations
``cobel_nobbc`` (beliefs, no prediction / detection / priced messages: the study's "w/o BBC") and
``cobel_nomodel`` (no model of what the partner perceives).
"""

from __future__ import annotations

from belief.agents.household.agent import HouseholdAgent
from belief.agents.household.cobel import CoBelAgent
from belief.agents.household.coela import CoELAAgent
from belief.agents.household.messenger import MessengerAgent

AGENT_KINDS = ("cobel", "coela", "messenger", "independent", "silent", "cobel_nobbc", "cobel_nomodel", "single")


def team_size(kind: str) -> int:
    return 1 if kind == "single" else 2


def make_agent(kind: str, name: str, task_info: dict) -> HouseholdAgent:
    if kind == "cobel":
        return CoBelAgent(name, task_info)
    if kind == "silent":
        return CoBelAgent(name, task_info, talks=False)
    if kind == "cobel_nobbc":
        return CoBelAgent(name, task_info, bbc=False)
    if kind == "cobel_nomodel":
        return CoBelAgent(name, task_info, model=False)
    if kind == "coela":
        return CoELAAgent(name, task_info)
    if kind == "messenger":
        return MessengerAgent(name, task_info)
    if kind in ("single", "independent"):
        return HouseholdAgent(name, task_info)
    raise ValueError(f"unknown household agent kind {kind!r}; choose from {', '.join(AGENT_KINDS)}")


def make_team(kind: str, task_info: dict) -> dict:
    return {a: make_agent(kind, a, task_info) for a in task_info["agents"]}


__all__ = ["AGENT_KINDS", "make_agent", "make_team", "team_size"]
