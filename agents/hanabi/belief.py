"""A Hanabi belief agent: card knowledge and its model of the partner's knowledge from the checker on its
private trace, and a few basic conventions both players follow.

Conventions (both players apply them, so each can predict how its hints will be read):

* **play clue**: the *focus* of a hint (the newest card it newly touches) is playable, unless the
  receiver's knowledge after the hint rules that out; the receiver plays it;
* **5 save**: a rank-5 hint is a save (keep those cards), never a play clue;
* **chop**: discard the oldest card no hint has touched.

On its turn the agent (1) plays a card it knows is playable (knowledge from the checker, refined by
counting the copies it can see), (2) plays a card a play clue pointed at, (3) gives a play clue on a
playable partner card that the partner neither knows is playable nor has been pointed at (judged with its
model of the partner's knowledge: the partner's chain in its own private trace), (4) saves a 5 on the
partner's chop, (5) discards its chop, else (6) gives a hint that creates no play signal.
"""

from __future__ import annotations

from belief.agents.hanabi.knowledge import HanabiPlayer, focus, p_playable, p_useless, unseen_counts
from belief.envs.hanabi.rules import COLOURS, HAND_SIZE, MAX_HINTS, RANKS, Move

PLAY, DISCARD, HINT_C, HINT_R = 0, HAND_SIZE, 2 * HAND_SIZE, 3 * HAND_SIZE


def hint_action(kind: str, value) -> int:
    return HINT_C + COLOURS.index(value) if kind == "colour" else HINT_R + int(value) - 1


class HanabiBeliefAgent(HanabiPlayer):
    kind = "belief"

    # --- conventions: reading a hint ------------------------------------------------------------------
    def interpret_hint(self, view: dict, receiver: str, last: dict) -> None:
        hand = view["hands"][receiver]
        k = focus(hand, last["touched"], self.touched)
        if k is None:
            return
        if last["kind"] == "hint_rank" and last["index"] == 4:
            self.marked_keep.update(c for c in last["touched"])
            return
        colours, ranks = self.knowledge((receiver,), k)  # the receiver's knowledge (mine, or my model of it)
        if p_playable(colours, ranks, view["fireworks"], None) > 0:
            self.marked_play.add(k)
        else:
            self.marked_keep.add(k)

    # --- acting -------------------------------------------------------------------------------------
    def choose(self, view: dict, mask) -> int:
        hand = view["hands"][self.name]
        fw = view["fireworks"]
        counts = unseen_counts(view)
        mine = {k: self.knowledge((self.name,), k) for k in hand}
        # (1) certainly playable, (2) pointed at by a play clue and still possibly playable
        for slot, k in enumerate(hand):
            if p_playable(*mine[k], fw, counts) == 1.0:
                return PLAY + slot
        for slot, k in enumerate(hand):
            if k in self.marked_play and p_playable(*mine[k], fw, counts) > 0:
                return PLAY + slot
        if view["hints"] > 0:
            a = self._play_clue(view, mask)
            if a is None:
                a = self._five_save(view, mask)
            if a is not None:
                return a
        if view["hints"] < MAX_HINTS:
            return DISCARD + self._chop(hand, mine, fw, counts)
        a = self._harmless_hint(view, mask)
        if a is not None:
            return a
        best = max(range(len(hand)), key=lambda s: p_playable(*mine[hand[s]], fw, counts))
        return PLAY + best

    def _chop(self, hand, mine, fw, counts) -> int:
        for slot in range(len(hand) - 1, -1, -1):
            if p_useless(*mine[hand[slot]], fw, counts) == 1.0:
                return slot
        for slot in range(len(hand) - 1, -1, -1):
            if hand[slot] not in self.touched:
                return slot
        return max(range(len(hand)), key=lambda s: p_useless(*mine[hand[s]], fw, counts))

    def _hints(self, view: dict, mask):
        """Every legal hint as (action, touched cards in slot order)."""
        cards = view["partner_cards"]
        hand = view["hands"][self.partner]
        for kind, values in (("colour", COLOURS), ("rank", RANKS)):
            for v in values:
                a = hint_action(kind, v)
                if not mask[a]:
                    continue
                touched = [k for k in hand if (cards[k][0] if kind == "colour" else cards[k][1]) == v]
                yield a, touched

    def _read_as_play(self, view: dict, a: int, touched: list) -> tuple:
        """How the partner reads a hint: (focus card, read as a play clue?), with my model of its knowledge."""
        hand = view["hands"][self.partner]
        k = focus(hand, touched, self.touched)
        if k is None:
            return None, False
        move = Move.of(a)
        if move.kind == "hint_rank" and move.hint_value == 5:
            return k, False
        colours, ranks = self.knowledge((self.partner,), k)
        colour, rank = view["partner_cards"][k]
        if move.kind == "hint_colour":
            colours = frozenset({colour})
        else:
            ranks = frozenset({rank})
        return k, p_playable(colours, ranks, view["fireworks"], None) > 0

    def _play_clue(self, view: dict, mask):
        fw = view["fireworks"]
        cards = view["partner_cards"]
        pointed = {cards[k] for k in self.marked_play if k in cards}
        best = None
        for a, touched in self._hints(view, mask):
            k, as_play = self._read_as_play(view, a, touched)
            if k is None or not as_play or k in self.marked_play:
                continue
            colour, rank = cards[k]
            if fw[colour] != rank - 1 or (colour, rank) in pointed:
                continue
            colours, ranks = self.knowledge((self.partner,), k)
            if p_playable(colours, ranks, fw, None) == 1.0:
                continue  # the partner already knows it is playable
            score = (rank, -len(touched))
            if best is None or score < best[0]:
                best = (score, a)
        return best[1] if best else None

    def _five_save(self, view: dict, mask):
        hand = view["hands"][self.partner]
        chop = next((k for k in reversed(hand) if k not in self.touched), None)
        if chop is None or view["partner_cards"][chop][1] != 5:
            return None
        a = hint_action("rank", 5)
        return a if mask[a] else None

    def _harmless_hint(self, view: dict, mask):
        """A hint nobody reads as a play clue on an unplayable card."""
        fw = view["fireworks"]
        fallback = None
        for a, touched in self._hints(view, mask):
            k, as_play = self._read_as_play(view, a, touched)
            if k is None or not as_play:
                return a
            colour, rank = view["partner_cards"][k]
            if fw[colour] == rank - 1:
                fallback = a
        return fallback


__all__ = ["HanabiBeliefAgent", "hint_action"]
