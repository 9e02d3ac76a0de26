"""What the text environments share: the observation space docs/architecture.md describes for `api_test`
(a small array, the action mask, and printable text) and the filter that keeps text inside it."""

from __future__ import annotations

import functools
import string

import numpy as np
from gymnasium import spaces

_PRINTABLE = frozenset(string.printable)


def printable(text: str | None, limit: int) -> str:
    """``text`` cut to ``limit`` characters, non-printable characters replaced by '?'."""
    return "".join(ch if ch in _PRINTABLE else "?" for ch in (text or ""))[:limit]


def text_observation_space(observation: spaces.Box, n_actions: int, text_max: int) -> spaces.Dict:
    """``Dict(observation=<small Box>, action_mask=Box(0, 1, (n_actions,)), text=Text(printable))``."""
    return spaces.Dict({
        "observation": observation,
        "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
        "text": spaces.Text(max_length=text_max, min_length=0, charset=string.printable),
    })


class TextSpaces:
    """``observation_space`` / ``action_space`` of a text environment (a mixin placed before the PettingZoo base).

    A subclass states ``OBS_BOX = (low, high, shape, dtype)`` of its small array, ``N_ACTIONS`` and ``TEXT_MAX``;
    each agent gets the same spaces, built once per environment instance.
    """

    OBS_BOX: tuple
    N_ACTIONS: int
    TEXT_MAX: int

    @functools.lru_cache(maxsize=None)  # noqa: B019  (api_test needs the identical space object; envs are few)
    def observation_space(self, agent):
        return text_observation_space(spaces.Box(*self.OBS_BOX), self.N_ACTIONS, self.TEXT_MAX)

    @functools.lru_cache(maxsize=None)  # noqa: B019  (api_test needs the identical space object; envs are few)
    def action_space(self, agent):
        return spaces.Discrete(self.N_ACTIONS)
