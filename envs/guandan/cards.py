"""Guandan cards: two standard decks with their four jokers (108 cards), the level rank and its wild hearts.

A card is an id 0..107 (deck ``id // 54``); its *face* is ``id % 54``: faces 0..51 are ``rank * 4 + suit``
(rank 0..12 for 2, 3, ..., K, A; suit 0..3 for spades, hearts, clubs, diamonds), face 52 is the black
(small) joker and 53 the red (big) joker. Two cards with the same face are interchangeable in play.

The *level* is a rank index (0 is "2", 12 is "A"). For singles, pairs, triples, full houses and bombs the
level rank ranks above the ace and below the jokers (:func:`order`); in sequences every rank keeps its
natural place. The two hearts of the level rank are wild (:func:`wild_face`): they stand for any card but a
joker.
"""

from __future__ import annotations

RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("spades", "hearts", "clubs", "diamonds")
SUIT_SIGNS = ("S", "H", "C", "D")
HEART = 1
BLACK_JOKER, RED_JOKER = 52, 53          # faces
JOKER_RANKS = (13, 14)                   # rank() of the black and the red joker
N_FACES = 54
DECK_SIZE = 108
HAND_SIZE = 27
ACE = 12
TEN = 8


def face(card: int) -> int:
    return card % N_FACES


def rank(f: int) -> int:
    """The rank of a face: 0..12 (2..A), 13 the black joker, 14 the red joker."""
    return f // 4 if f < 52 else f - 39


def suit(f: int) -> int | None:
    return f % 4 if f < 52 else None


def make_face(r: int, s: int) -> int:
    return r * 4 + s


def wild_face(level: int) -> int:
    """The heart of the level rank: the wild card (two in the deck)."""
    return level * 4 + HEART


def is_joker(f: int) -> bool:
    return f >= 52


def order(r: int, level: int) -> int:
    """Rank order for singles, pairs, triples, full houses and bombs: 2..A (the level rank left out) below
    the level rank (13), below the black joker (14), below the red joker (15)."""
    if r >= 13:
        return r + 1
    return 13 if r == level else r


def face_order(f: int, level: int) -> int:
    return order(rank(f), level)


def face_name(f: int) -> str:
    """'10H', 'AS', 'BJ' (black joker), 'RJ' (red joker)."""
    if f == BLACK_JOKER:
        return "BJ"
    if f == RED_JOKER:
        return "RJ"
    return RANK_NAMES[rank(f)] + SUIT_SIGNS[suit(f)]


def parse_face(text: str) -> int:
    """The face named by :func:`face_name` ('10H', 'as', 'BJ'); ValueError otherwise."""
    t = text.strip().upper()
    if t in ("BJ", "RJ"):
        return BLACK_JOKER if t == "BJ" else RED_JOKER
    if len(t) >= 2 and t[:-1] in RANK_NAMES and t[-1] in SUIT_SIGNS:
        return make_face(RANK_NAMES.index(t[:-1]), SUIT_SIGNS.index(t[-1]))
    raise ValueError(f"not a card name: {text!r} (expected e.g. 10H, AS, BJ, RJ)")


def card_name(card: int) -> str:
    return face_name(face(card))


def rank_name(r: int) -> str:
    if r == 13:
        return "black joker"
    if r == 14:
        return "red joker"
    return RANK_NAMES[r]


__all__ = ["ACE", "BLACK_JOKER", "DECK_SIZE", "HAND_SIZE", "HEART", "JOKER_RANKS", "N_FACES", "RANK_NAMES",
           "RED_JOKER", "SUITS", "SUIT_SIGNS", "TEN", "card_name", "face", "face_name", "face_order", "is_joker",
           "make_face", "order", "parse_face", "rank", "rank_name", "suit", "wild_face"]
