"""Which colours an agent lacks: shared by the project's and the source's task generators."""

from __future__ import annotations

import random


def choose_lacking(rng: random.Random, goals: dict, lacking: dict, agent: str, helper: str):
    """A colour of ``agent``'s goal that ``agent`` will lack and ``helper`` will hold (preferably one
    ``helper``'s own goal does not use), added to ``lacking[agent]``; None when there is none to choose."""
    options = sorted(set(goals[agent].values()) - lacking[helper])
    if not options:
        return None
    colour = rng.choice([c for c in options if c not in goals[helper].values()] or options)
    lacking[agent].add(colour)
    return colour


__all__ = ["choose_lacking"]
