"""The hint-less Hanabi baseline: it never reads hints, and gives one only when the rules force it.

It decides from what it sees alone (the partner's hand, the fireworks, the discards: card counting): it
plays its card most likely to be playable when that probability is at least ``threshold`` and it has a
life to spare, else discards its oldest card; with 8 hint tokens, where discarding is illegal, it spends a
token on the first legal hint (carrying no convention) or, if none is legal, plays its likeliest card.
Its ToM answers come from the checker on its private trace, like the belief agent's.
"""

from __future__ import annotations

from belief.agents.hanabi.knowledge import HanabiPlayer, p_playable, unseen_counts
from belief.envs.hanabi.world import COLOURS, MAX_HINTS, RANKS, hand_size


class HanabiHintlessAgent(HanabiPlayer):
    kind = "hintless"

    def __init__(self, name: str, partner: str | None = None, players=None, threshold: float = 0.3):
        super().__init__(name, partner, players)
        self.threshold = threshold

    def choose(self, view: dict, mask) -> int:
        hand = view["hands"][self.name]
        counts = unseen_counts(view)
        # without hints every card of its hand looks alike: one probability, the newest card is played
        p = p_playable(frozenset(COLOURS), frozenset(RANKS), view["fireworks"], counts)
        if p >= self.threshold and view["lives"] > 1:
            return 0
        h = hand_size(len(self.players))
        if view["hints"] < MAX_HINTS:
            return h + len(hand) - 1
        hints = [a for a in range(2 * h, len(mask)) if mask[a]]
        return hints[0] if hints else 0


__all__ = ["HanabiHintlessAgent"]
