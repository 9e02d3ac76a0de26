"""What one Guandan player can know about the hands, from its own view (``infos[agent]["obs"]``): its hand,
the public plays and passes, the cards left per player, the tribute it saw. Rebuilt from the view each turn.

* first order - :attr:`HandBeliefs.known` (card -> the player I know holds it), :attr:`HandBeliefs.excluded`
  (player -> cards I know it does not hold: played cards, cards I hold or know elsewhere, and under the
  ``must_beat`` pass policy the cards a pass on a single rules out), and :meth:`p_can_beat` (the chance that a
  player can beat a combination, sampling its unknown cards uniformly from the cards it may hold);
* second order - :meth:`known_to` (what another player can know that I hold: the public part of my hand,
  cards it gave me or saw given to me in tribute) and :meth:`located_for_everyone` (cards whose place is on
  the public record).

The same observation model as the trace (:mod:`belief.envs.guandan.ruling_out`), so the answers it gives to
the ToM questions can be checked against the checker's.
"""

from __future__ import annotations

import math
import random
from belief.envs.guandan.cards import DECK_SIZE, face, face_order
from belief.envs.guandan.moves import face_counts, legal_plays
from belief.envs.guandan.tom import group, is_bomb


class HandBeliefs:
    def __init__(self, view: dict):
        self.me = view["agent"]
        self.level = view["level"]
        self.players = list(view["cards_left"])
        self.cards_left = dict(view["cards_left"])
        self.hand = set(view["hand"])
        self.played = set(view["played"])
        self.known: dict[int, str] = {k: self.me for k in self.hand}
        self.public: dict[int, str] = {}          # card -> holder, on the public record (tribute)
        self.given_by: dict[int, str] = {}        # card in my hand -> who gave it to me (seen by both)
        for giver, receiver, card, kind in view.get("tributes", []):
            if card is None or card in self.played:
                continue
            if kind == "tribute":
                self.public[card] = receiver
            if receiver == self.me:
                self.given_by[card] = giver
            self.known.setdefault(card, receiver)
            if card not in self.hand and receiver == self.me:
                del self.known[card]               # given away again since
        self.excluded: dict[str, set] = {p: set(self.played) for p in self.players}
        self.public_excluded: dict[str, set] = {p: set() for p in self.players}
        for k, p in self.known.items():
            for q in self.players:
                if q != p:
                    self.excluded[q].add(k)
        if view.get("pass_rule") == "must_beat":
            self._passes(view["history"])

    def _passes(self, history) -> None:
        """Under ``must_beat`` a pass on a single shows (to everyone) that the player holds no higher card; a
        pass follows the trick's last play, so that play is the table it passed on."""
        table = None
        for player, move in history:
            if move.kind != "pass":
                table = move
                continue
            if table is not None and table.kind == "single":
                ruled = {k for k in range(DECK_SIZE) if face_order(face(k), self.level) > table.key}
                self.excluded[player] |= ruled
                self.public_excluded[player] |= ruled

    # --- first order ------------------------------------------------------------------------------------
    def possible_cards(self, player: str) -> list:
        """Cards ``player`` may hold, as far as I know (its known cards included)."""
        if player == self.me:
            return sorted(self.hand)
        return [k for k in range(DECK_SIZE) if k not in self.excluded[player]
                and self.known.get(k, player) == player]

    def knows_not_held(self, player: str, cards) -> bool:
        """Do I know that ``player`` holds none of ``cards``?"""
        return all(k in self.excluded[player] or self.known.get(k, player) != player for k in cards)

    def p_can_beat(self, player: str, table, samples: int = 6, rng: random.Random | None = None) -> float:
        """The chance that ``player`` holds a reply to ``table`` (its unknown cards drawn uniformly)."""
        h = self.cards_left.get(player, 0)
        if h == 0:
            return 0.0
        sure = [k for k, p in self.known.items() if p == player and k not in self.played]
        pool = [k for k in self.possible_cards(player) if k not in sure]
        n_unknown = max(0, min(len(pool), h - len(sure)))
        if table.kind == "single" and not sure:
            higher = sum(1 for k in pool if face_order(face(k), self.level) > table.key)
            return 1.0 - _none_of(len(pool), higher, n_unknown)
        rng = rng or random.Random(0)
        hits = 0
        for _ in range(samples):
            cards = sure + rng.sample(pool, n_unknown)
            if legal_plays(face_counts(face(k) for k in cards), self.level, table):
                hits += 1
        return hits / samples

    # --- second order -----------------------------------------------------------------------------------
    def known_to(self, other: str) -> set:
        """The cards of my hand that ``other`` can know I hold."""
        return {k for k in self.hand if self.public.get(k) == self.me or self.given_by.get(k) == other}

    def located_for_everyone(self, cards) -> bool:
        """Is the place of every card on the public record (played, or given in a public tribute)?"""
        return all(k in self.played or k in self.public for k in cards)

    # --- the ToM questions (envs/guandan/tom.py) --------------------------------------------------------
    def answer(self, q: dict) -> bool:
        level, target, template = q["level"], q["target"], q["template"]
        lvl = q.get("game_level", self.level)
        if template == "bomb":
            if level == "introspection":
                return is_bomb([k for k, p in self.known.items() if p == target and k not in self.played], lvl)
            return is_bomb(self.known_to(target), lvl)
        cards = group(template, lvl)
        if level == "introspection":
            return self.knows_not_held(target, cards)
        if any(k in self.hand for k in cards):
            return False                           # nobody can know a falsehood
        public = [k for k in cards if not (k in self.played or k in self.public or k in self.public_excluded[self.me])]
        if level == "first_order":                 # the target knows: public, or in its own hand (if I know)
            return all(self.known.get(k) == target for k in public)
        return not public                          # I know it knows: only what is public


def _none_of(pool: int, good: int, draws: int) -> float:
    """Hypergeometric: the chance that ``draws`` cards from ``pool`` hold none of ``good``."""
    if draws > pool - good:
        return 0.0
    return math.comb(pool - good, draws) / math.comb(pool, draws) if pool else 1.0


__all__ = ["HandBeliefs"]
