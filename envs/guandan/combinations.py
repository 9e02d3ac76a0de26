"""Guandan combinations and their order.

A :class:`Move` is a combination type (``kind``), a ``key`` that orders combinations of that type, and the
faces played (``cards``, sorted; wild hearts included). Types:

=================  =================================================  ==========================================
kind               cards                                              key
=================  =================================================  ==========================================
``single``         1 card                                             rank order (:func:`~.cards.order`)
``pair``           2 of a rank (two jokers only of the same colour)   rank order
``triple``         3 of a rank (no jokers)                            rank order
``full_house``     a triple and a pair of another rank (no jokers)    rank order of the triple
``straight``       5 consecutive ranks, any suits                     the lowest rank's place, -1 for A-2-3-4-5
``tube``           3 consecutive pairs (AA2233 .. QQKKAA)             the lowest rank's place
``plate``          2 consecutive triples (AAA222 .. KKKAAA)           the lowest rank's place
``bomb``           4 to 10 cards of a rank (no jokers)                rank order
``straight_flush`` a straight in one suit                             the lowest rank's place
``joker_bomb``     the four jokers                                    0
``pass``           nothing                                            0
=================  =================================================  ==========================================

Sequences use the natural rank order (the ace below the 2 or above the king, never both; the level rank in
its natural place); the other types use the level order. A combination beats the table when it is of the same
type and has a higher key, or when it is a bomb stronger than the table (:func:`power`): four jokers > bombs
of 6 or more cards (more cards first, then rank) > straight flushes > 5-card bombs > 4-card bombs > any
other combination. Wild hearts (:func:`~.cards.wild_face`) stand for any card but a joker.
"""

from __future__ import annotations

from typing import NamedTuple

from belief.envs.guandan.cards import RANK_NAMES, SUITS, face_name, rank, rank_name

KINDS = ("single", "pair", "triple", "full_house", "straight", "tube", "plate", "bomb", "straight_flush",
         "joker_bomb", "pass")
BOMB_KINDS = ("bomb", "straight_flush", "joker_bomb")
SEQUENCE_KINDS = ("straight", "tube", "plate", "straight_flush")


class Move(NamedTuple):
    kind: str
    key: int
    cards: tuple          # faces, sorted
    suit: int = -1        # the suit of a straight flush

    @property
    def is_bomb(self) -> bool:
        return self.kind in BOMB_KINDS

    def __str__(self) -> str:
        return describe(self)


PASS = Move("pass", 0, ())


def power(m: Move) -> tuple:
    """``(tier, size, key)``: tier 0 for every non-bomb; 1 a 4-card bomb, 2 a 5-card bomb, 3 a straight
    flush, 4 a bomb of 6+ cards, 5 the four jokers."""
    if m.kind == "joker_bomb":
        return (5, 4, 0)
    if m.kind == "straight_flush":
        return (3, 5, m.key)
    if m.kind == "bomb":
        n = len(m.cards)
        return (4 if n >= 6 else n - 3, n, m.key)
    return (0, len(m.cards), m.key)


def beats(m: Move, table: Move | None) -> bool:
    """Does ``m`` beat ``table`` (None or a pass: nothing to beat, any combination leads)?"""
    if m.kind == "pass":
        return False
    if table is None or table.kind == "pass":
        return True
    pm, pt = power(m), power(table)
    if pm[0] or pt[0]:
        return pm > pt
    return m.kind == table.kind and m.key > table.key


def sequence_rank(start: int, i: int) -> int:
    """The natural rank at position ``i`` of a sequence starting at ``start`` (-1: the low ace)."""
    return 12 if start + i == -1 else start + i


def _seq_name(start: int, length: int) -> str:
    return "-".join(RANK_NAMES[sequence_rank(start, i)] for i in range(length))


def describe(m: Move) -> str:
    """'pair of 7s [7S 7H]', 'straight 10-J-Q-K-A [...]', 'pass'."""
    if m.kind == "pass":
        return "pass"
    shown = " ".join(face_name(f) for f in m.cards)
    k = m.kind
    if k in ("single", "pair", "triple", "bomb"):
        r = _rank_of_key(m)
        what = {"single": f"single {rank_name(r)}", "pair": f"pair of {rank_name(r)}s",
                "triple": f"triple {rank_name(r)}s", "bomb": f"bomb of {len(m.cards)} {rank_name(r)}s"}[k]
    elif k == "full_house":
        what = f"full house, triple {rank_name(_rank_of_key(m))}s"
    elif k == "straight":
        what = f"straight {_seq_name(m.key, 5)}"
    elif k == "straight_flush":
        what = f"straight flush {_seq_name(m.key, 5)} of {SUITS[m.suit]}"
    elif k == "tube":
        what = f"three pairs {_seq_name(m.key, 3)}"
    elif k == "plate":
        what = f"two triples {_seq_name(m.key, 2)}"
    else:
        what = "four jokers"
    return f"{what} [{shown}]"


def _rank_of_key(m: Move) -> int:
    """The rank of a same-rank combination (of a full house: its triple's) from its key and cards: a key
    below 13 is the rank itself; 13 is the level rank, the most common rank of the cards (wild hearts are
    level cards too)."""
    if m.key >= 14:
        return m.key - 1
    if m.key == 13:
        ranks = [rank(f) for f in m.cards]
        return max(set(ranks), key=ranks.count)
    return m.key


__all__ = ["BOMB_KINDS", "KINDS", "Move", "PASS", "SEQUENCE_KINDS", "beats", "describe", "power", "sequence_rank"]
