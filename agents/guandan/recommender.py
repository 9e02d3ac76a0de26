"""The action recommender: the top k legal moves by a documented heuristic score (the study used a learned
model that is not available offline; this stands in for it).

``score(move)`` (higher is better), from the player's own hand only:

* ``+100`` if the move empties the hand (it wins the trick's race outright);
* ``+1.0`` per card shed (patterns that shed many cards first);
* ``-0.3 * key`` for same-rank patterns (low cards first; the key is the level order, 0..15), ``-0.2 * key``
  for sequences (their start rank);
* ``-2.5`` per wild heart used (wilds are kept for later);
* ``-(6 + size)`` for a bomb, ``-8`` for a straight flush, ``-12`` for the four jokers (bombs are kept), unless
  the move empties the hand;
* ``-1.5`` per bomb of the hand the move breaks (a rank with 4+ cards that the move takes cards from without
  playing them all as a bomb);
* ``-0.5`` per rank left with a lone card after the move (isolated singles are hard to get rid of).

The pass is never recommended by the score; a caller that may pass decides that itself.
"""

from __future__ import annotations

from collections import Counter

from belief.envs.guandan.cards import face, rank, wild_face
from belief.envs.guandan.combinations import SEQUENCE_KINDS


def score(move, hand_faces: Counter, level: int) -> float:
    n_hand = sum(hand_faces.values())
    n = len(move.cards)
    if n == n_hand:
        return 100.0 + n
    wild = wild_face(level)
    s = float(n)
    s -= (0.2 if move.kind in SEQUENCE_KINDS else 0.3) * move.key
    s -= 2.5 * move.cards.count(wild)
    if move.kind == "bomb":
        s -= 6 + n
    elif move.kind == "straight_flush":
        s -= 8
    elif move.kind == "joker_bomb":
        s -= 12
    left = hand_faces - Counter(move.cards)
    by_rank_before = Counter(rank(f) for f in hand_faces.elements() if f != wild and f < 52)
    by_rank_after = Counter(rank(f) for f in left.elements() if f != wild and f < 52)
    taken = set(rank(f) for f in move.cards if f != wild and f < 52)
    if move.kind != "bomb":
        s -= 1.5 * sum(1 for r in taken if by_rank_before[r] >= 4)
    s -= 0.5 * sum(1 for c in by_rank_after.values() if c == 1)
    return s


def recommend(moves: list, hand: list, level: int, k: int = 5) -> list:
    """The top ``k`` of ``moves`` (plays) by :func:`score` for the hand ``hand`` (card ids), best first."""
    faces = Counter(face(c) for c in hand)
    ranked = sorted(moves, key=lambda m: -score(m, faces, level))
    return ranked[:k]


__all__ = ["recommend", "score"]
