"""Every legal play of a Guandan hand, exactly, fast enough to call every turn (``belief bench guandan-moves``).

A play is a :class:`~belief.envs.guandan.combinations.Move`. Two plays that differ only in which suits of a
rank are played are one move (suits matter only in a straight flush, which names its suit): the move takes
the natural cards of a rank in the fixed suit order diamonds, clubs, spades, hearts (:data:`SUIT_PREFERENCE`).
Wild hearts are counted apart from the level rank's other cards, so a pair of 5s from one 5 and one wild and
a pair of 5s from two natural 5s are two moves (different cards leave the hand). A combination holds at least
one natural card of its rank unless that rank is the level (two wild hearts played alone are a pair of level
cards, not "a pair of 5s").

:func:`legal_plays` lists every play that beats the table (every combination when leading); the caller adds
the pass. The list comes in a fixed order (by kind in the order of
:data:`~belief.envs.guandan.combinations.KINDS`, then rank or start, then wild split), so the same hand and
table give the same list; it holds no duplicates.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations as _subsets

from belief.envs.guandan.cards import BLACK_JOKER, RED_JOKER, order, wild_face
from belief.envs.guandan.combinations import KINDS, Move, beats, power, sequence_rank  # noqa: F401 (beats)

SUIT_PREFERENCE = (3, 2, 0, 1)  # diamonds, clubs, spades, hearts

STRAIGHT_STARTS = range(-1, 9)   # A-2-3-4-5 .. 10-J-Q-K-A
TUBE_STARTS = range(-1, 11)      # AA2233 .. QQKKAA
PLATE_STARTS = range(-1, 12)     # AAA222 .. KKKAAA


def face_counts(faces) -> list:
    counts = [0] * 54
    for f in faces:
        counts[f] += 1
    return counts


class _Hand:
    """A hand's natural cards per rank (wild hearts apart) and its wild count."""

    __slots__ = ("level", "wild", "w", "nat", "counts")

    def __init__(self, counts, level: int):
        self.level = level
        self.counts = counts
        self.wild = wild_face(level)
        self.w = counts[self.wild]
        self.nat = []
        for r in range(13):
            faces = []
            for s in SUIT_PREFERENCE:
                f = r * 4 + s
                if f != self.wild:
                    faces += [f] * counts[f]
            self.nat.append(faces)

    def same(self, r: int, k: int, w: int) -> tuple:
        return tuple(sorted(self.nat[r][:k - w] + [self.wild] * w))

    def wild_range(self, r: int, k: int) -> range:
        """How many wilds a k-card combination of rank r can use (at least one natural card but for the level)."""
        n = len(self.nat[r])
        lo = max(0, k - n)
        hi = min(self.w, k if r == self.level else k - 1)
        return range(lo, hi + 1)


def _same_rank(h: _Hand, kind: str, k: int, out: list, min_key: int) -> None:
    level = h.level
    for r in range(13):
        key = order(r, level)
        if key <= min_key:
            continue
        for w in h.wild_range(r, k):
            out.append(Move(kind, key, h.same(r, k, w)))


def _jokers(h: _Hand, k: int, kind: str, out: list, min_key: int) -> None:
    for f, key in ((BLACK_JOKER, 14), (RED_JOKER, 15)):
        if h.counts[f] >= k and key > min_key:
            out.append(Move(kind, key, (f,) * k))


def _full_houses(h: _Hand, out: list, min_key: int) -> None:
    level = h.level
    pairs = [(r, w) for r in range(13) for w in h.wild_range(r, 2)]
    for t in range(13):
        key = order(t, level)
        if key <= min_key:
            continue
        for wt in h.wild_range(t, 3):
            for p, wp in pairs:
                if p != t and wt + wp <= h.w:
                    out.append(Move("full_house", key, tuple(sorted(
                        h.nat[t][:3 - wt] + h.nat[p][:2 - wp] + [h.wild] * (wt + wp)))))


def _runs(h: _Hand, kind: str, starts, length: int, width: int, out: list, min_key: int) -> None:
    """Straights (width 1), tubes (2), plates (3): ``length`` consecutive ranks, ``width`` cards each."""
    W, wild = h.w, h.wild
    nat = h.nat
    for s in starts:
        if s <= min_key:
            continue
        ranks = [sequence_rank(s, i) for i in range(length)]
        have = tuple(min(width, len(nat[r])) for r in ranks)
        need = length * width - sum(have)
        if need > W:
            continue
        # replace `extra` natural cards by wilds beyond the needed ones, at most have[i] at position i
        for extra in range(0, W - need + 1):
            for used in _spread(have, extra):
                cards = []
                for r, u, n in zip(ranks, used, have):
                    cards += nat[r][:n - u]
                cards += [wild] * (need + extra)
                cards.sort()
                out.append(Move(kind, s, tuple(cards)))


@lru_cache(maxsize=None)
def _spread(have: tuple, extra: int) -> tuple:
    """Ways to replace ``extra`` natural cards by wilds, at most ``have[i]`` at position i."""
    if not have:
        return ((),) if extra == 0 else ()
    out = []
    for u in range(min(have[0], extra) + 1):
        for rest in _spread(have[1:], extra - u):
            out.append((u,) + rest)
    return tuple(out)


def _straight_flushes(h: _Hand, out: list, min_power: tuple) -> None:
    W, counts, wild = h.w, h.counts, h.wild
    for su in range(4):
        # present[r]: a natural card of rank r in this suit (the wild heart counts as a wild, not here)
        present = [counts[r * 4 + su] > 0 and r * 4 + su != wild for r in range(13)]
        if sum(present) < 5 - W:
            continue
        for s in STRAIGHT_STARTS:
            if (3, 5, s) <= min_power:
                continue
            ranks = [sequence_rank(s, i) for i in range(5)]
            have = [present[r] for r in ranks]
            n_missing = 5 - sum(have)
            if n_missing > W:
                continue
            kept = [i for i in range(5) if have[i]]
            for extra in range(0, W - n_missing + 1):
                for swapped in _subsets(kept, extra):
                    cards = [ranks[i] * 4 + su for i in kept if i not in swapped]
                    out.append(Move("straight_flush", s, tuple(sorted(cards + [wild] * (n_missing + extra))), su))


def _bombs(h: _Hand, out: list, min_power: tuple) -> None:
    level = h.level
    for r in range(13):
        key = order(r, level)
        n = len(h.nat[r])
        for size in range(4, n + h.w + 1):
            if (4 if size >= 6 else size - 3, size, key) <= min_power:
                continue
            for w in h.wild_range(r, size):
                out.append(Move("bomb", key, h.same(r, size, w)))
    if h.counts[BLACK_JOKER] == 2 and h.counts[RED_JOKER] == 2 and (5, 4, 0) > min_power:
        out.append(Move("joker_bomb", 0, (BLACK_JOKER, BLACK_JOKER, RED_JOKER, RED_JOKER)))


def legal_plays(counts, level: int, table: Move | None = None) -> list:
    """Every move from a hand (``counts``: 54 face counts, :func:`face_counts`) that beats ``table``
    (None: leading, every combination), sorted. The pass is not in it."""
    h = _Hand(counts, level)
    out: list = []
    if table is None or table.kind == "pass":
        kinds, lo, min_power = set(KINDS), -99, (0, 99, 99)
    else:
        kinds = {table.kind} if not table.is_bomb else set()
        lo = table.key
        min_power = power(table)
    if "single" in kinds:
        _same_rank(h, "single", 1, out, lo)
        _jokers(h, 1, "single", out, lo)
    if "pair" in kinds:
        _same_rank(h, "pair", 2, out, lo)
        _jokers(h, 2, "pair", out, lo)
    if "triple" in kinds:
        _same_rank(h, "triple", 3, out, lo)
    if "full_house" in kinds:
        _full_houses(h, out, lo)
    if "straight" in kinds:
        _runs(h, "straight", STRAIGHT_STARTS, 5, 1, out, lo)
    if "tube" in kinds:
        _runs(h, "tube", TUBE_STARTS, 3, 2, out, lo)
    if "plate" in kinds:
        _runs(h, "plate", PLATE_STARTS, 2, 3, out, lo)
    _bombs(h, out, min_power)
    _straight_flushes(h, out, min_power)
    return out


def is_legal(move: Move, counts, level: int, table: Move | None) -> bool:
    return move in set(legal_plays(counts, level, table))


__all__ = ["MAX_PLAYS", "PLATE_STARTS", "STRAIGHT_STARTS", "SUIT_PREFERENCE", "TUBE_STARTS", "face_counts", "is_legal",
           "legal_plays", "max_plays", "beats"]


def max_plays() -> int:
    """An upper bound on the number of plays of any hand (every type, key and wild split the rules allow);
    the size of the env's action space is this plus one (the pass)."""
    level = 0
    singles = 12 + 2 + 2                      # natural ranks, the level (natural or wild), two jokers
    pairs = 12 * 2 + 3 + 2
    triples = 13 * 3
    t_opts = [(t, w) for t in range(13) for w in range(3)]
    p_opts = [(p, w) for p in range(13) for w in (range(3) if p == level else range(2))]
    full_houses = sum(1 for t, wt in t_opts for p, wp in p_opts if t != p and wt + wp <= 2)
    wild_splits5 = 1 + 5 + 10                 # which of 5 positions the (up to two) wilds fill
    straights = len(STRAIGHT_STARTS) * wild_splits5
    tubes = len(TUBE_STARTS) * (1 + 3 + 6)
    plates = len(PLATE_STARTS) * (1 + 2 + 3)
    bombs = 13 * 7 * 3 + 1                    # sizes 4..10, 0..2 wilds; the four jokers
    flushes = 4 * len(STRAIGHT_STARTS) * wild_splits5
    return singles + pairs + triples + full_houses + straights + tubes + plates + bombs + flushes


MAX_PLAYS = max_plays()
