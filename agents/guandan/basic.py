"""The two baselines of the Guandan study: a random player and the rule-based player ("best pattern, lowest
value").

Both act on ``infos[agent]``: ``moves`` (action i >= 1 is ``moves[i - 1]``) and ``action_mask`` (action 0,
the pass, is allowed when ``mask[0]``).

Rule-based: leading, it plays the non-bomb pattern that sheds the most cards (plate, tube, straight and full
house before triple, pair, single), at its lowest value, with the fewest wild hearts; it leads a bomb only
when nothing else is left. Following, it passes when its partner owns the table, else plays the lowest
non-bomb reply with the fewest wilds; with none, the lowest bomb only against an opponent who has 10 cards or
fewer left; otherwise it passes.

Rule-based, keeping its bombs and wilds (kind ``rule_keep``, the strongest simple baseline): the same rules,
but a play that spends a wild heart or takes cards from a bomb of its hand (a rank with 4 or more cards,
played short of all of them) is used only when it empties the hand, when leading with nothing else left, or
when following and passing is not allowed; following, it otherwise passes or bombs as the rule agent does.
"""

from __future__ import annotations

import random
from collections import Counter

from belief.agents.protocol import AgentBase
from belief.envs.guandan.cards import face, rank, wild_face
from belief.envs.guandan.combinations import power

BASIC_KINDS = ("random", "rule", "rule_keep")


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


def keeps(move, hand_faces: Counter, level: int) -> bool:
    """Whether ``move`` spends no wild heart and breaks no bomb of the hand (whole bombs are not broken)."""
    if wilds_in(move, level):
        return False
    if move.is_bomb:
        return True
    wild = wild_face(level)
    by_rank = Counter(rank(f) for f in hand_faces.elements() if f != wild and f < 52)
    return not any(by_rank[rank(f)] >= 4 for f in move.cards if f != wild and f < 52)


class GuandanKeeperAgent(GuandanRuleAgent):
    kind = "rule_keep"

    def act(self, observation, info: dict) -> int:
        view, moves = info["obs"], info["moves"]
        finishing = [m for m in moves if len(m.cards) == len(view["hand"])]
        if finishing:                    # a play that empties the hand goes, wilds or not
            return action_of(moves, finishing[0])
        faces = Counter(face(c) for c in view["hand"])
        kept = [m for m in moves if keeps(m, faces, view["level"])]
        if view["table"] is None and all(m.is_bomb for m in kept):
            return super().act(observation, info)      # leading: nothing else left
        if view["table"] is not None and not kept:
            return 0 if info["action_mask"][0] else super().act(observation, info)
        # the rule agent's rules over the plays that keep bombs and wilds (and the whole bombs)
        choice = super().act(observation, {**info, "moves": kept})
        return 0 if choice == 0 else action_of(moves, kept[choice - 1])


__all__ = ["BASIC_KINDS", "GuandanKeeperAgent", "keeps", "GuandanRandomAgent", "GuandanRuleAgent", "action_of", "lead_score", "lowest_reply",
           "wilds_in"]
