"""What the text environments share: the observation space DESIGN.md prescribes for `api_test`
(a small array, the action mask, and printable text) and the filter that keeps text inside it."""

from __future__ import annotations

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
