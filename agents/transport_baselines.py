"""Baselines for ``transport_v0`` (the agent types the CoBel agent is measured against).

All share the perception of :mod:`belief.agents.transport_cobel` (a belief store fed only by what the
agent saw and was told) so that only the named ingredient differs:

``always``  CoELA-style communication: before every physical action, a templated message with everything
            it knows (every object location and exploration state in its store, its room, what it holds)
            and its plan; otherwise the CoBel planner and partner model.
``silent``  CoBel with communication switched off (it still predicts the partner from what it sees).
``rule``    a rule-based hierarchical planner like the study's RHP: greedy (nearest container when
            empty-handed, nearest known targets up to capacity, else the nearest unexplored room,
            deliver when full), zero-order beliefs only, no partner model, no messages, no UP engine.
``single``  one CoBel agent alone in the house (``transport_v0.parallel_env(n_agents=1)``).
"""

from __future__ import annotations

from belief.agents.transport_cobel import PRESETS, Config, TransportAgent, make_agents

BASELINES = ("always", "silent", "rule", "single")


def always(name: str, **kw) -> TransportAgent:
    return TransportAgent(name, PRESETS["always"], **kw)


def silent(name: str, **kw) -> TransportAgent:
    return TransportAgent(name, PRESETS["silent"], **kw)


def rule(name: str, **kw) -> TransportAgent:
    return TransportAgent(name, PRESETS["rule"], **kw)


def single(name: str = "alice", **kw) -> TransportAgent:
    return TransportAgent(name, PRESETS["single"], **kw)


__all__ = ["BASELINES", "Config", "always", "make_agents", "rule", "silent", "single"]
