"""The two baselines of the Guandan study: a random player and the rule-based player ("best pattern, lowest
value").

Both act on ``infos[agent]``: ``moves`` (action i >= 1 is ``moves[i - 1]``) and ``action_mask`` (action 0,
the pass, is allowed when ``mask[0]``).

Rule-based: leading, it plays the non-bomb pattern that sheds the most cards (plate, tube, straight and full
house before triple, pair, single), at its lowest value, with the fewest wild hearts; it leads a bomb only
when nothing else is left. Following, it passes when its partner owns the table, else plays the lowest
non-bomb reply with the fewest wilds; with none, the lowest bomb only against an opponent who has 10 cards or
fewer left; otherwise it passes.
"""

from __future__ import annotations

import random

from belief.agents.protocol import AgentBase
from belief.envs.guandan.cards import wild_face
from belief.envs.guandan.combinations import power

BASIC_KINDS = ("random", "rule")


def wilds_in(move, level: int) -> int:
    return move.cards.count(wild_face(level))


def action_of(moves: list, move) -> int:
    return moves.index(move) + 1


class GuandanRandomAgent(AgentBase):
    kind = "random"

    def __init__(self, name: str, seed: int = 0):
        self.name = name
        self.rng = random.Random(f"guandan-random:{name}:{seed}")

    def act(self, observation, info: dict) -> int:
        mask = info["action_mask"]
        choices = ([0] if mask[0] else []) + list(range(1, len(info["moves"]) + 1))
        return self.rng.choice(choices)


def lead_score(move, level: int) -> tuple:
    """Larger is better when leading: more cards shed, lower value, fewer wilds."""
    return (len(move.cards), -move.key, -wilds_in(move, level))


def lowest_reply(moves: list, level: int):
    """The cheapest non-bomb reply (lowest key, fewest wilds), or None."""
    plain = [m for m in moves if not m.is_bomb]
    if not plain:
        return None
    return min(plain, key=lambda m: (m.key, wilds_in(m, level), len(m.cards)))


class GuandanRuleAgent(AgentBase):
    kind = "rule"

    def __init__(self, name: str, seed: int = 0):
        self.name = name

    def act(self, observation, info: dict) -> int:
        view, moves = info["obs"], info["moves"]
        level = view["level"]
        if view["table"] is None:
            plain = [m for m in moves if not m.is_bomb]
            pool = plain or moves
            return action_of(moves, max(pool, key=lambda m: lead_score(m, level)))
        if view["table_owner"] == view["partner"] and info["action_mask"][0]:
            return 0
        reply = lowest_reply(moves, level)
        if reply is not None:
            return action_of(moves, reply)
        bombs = [m for m in moves if m.is_bomb]
        owner_left = view["cards_left"][view["table_owner"]]
        if bombs and (owner_left <= 10 or not info["action_mask"][0]):
            return action_of(moves, min(bombs, key=power))
        return 0 if info["action_mask"][0] else 1


__all__ = ["BASIC_KINDS", "GuandanRandomAgent", "GuandanRuleAgent", "action_of", "lead_score", "lowest_reply",
           "wilds_in"]
