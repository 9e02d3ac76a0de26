"""Random baseline for bomb_v0: a uniformly random valid action each turn, random yes/no ToM answers."""

from __future__ import annotations

import random

import numpy as np

from belief.agents.bomb.common import BombAgent


class RandomAgent(BombAgent):
    kind = "random"

    def __init__(self, name: str, seed: int | None = None, **_):
        self.name = name
        self.rng = random.Random(f"random:{seed}:{name}")

    def choose(self, obs: dict, mask=None) -> tuple[int, str]:
        valid = list(np.flatnonzero(mask)) if mask is not None else list(range(9))
        return int(self.rng.choice(valid)), ""

    def answer(self, q: dict) -> str:
        return "Yes." if self.rng.random() < 0.5 else "No."


__all__ = ["RandomAgent"]
