"""Properties of the Guandan rules: the enumeration is exact (against a brute-force classifier that tries
every value of each wild heart), every legal reply beats the table and is held, the deck is conserved, every
deal and every match ends."""

import random
from collections import Counter
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from belief.envs.guandan.cards import DECK_SIZE, face, order, rank, suit, wild_face
from belief.envs.guandan.combinations import beats
from belief.envs.guandan.world import Deal
from belief.envs.guandan.match import Match
from belief.envs.guandan.moves import face_counts, legal_plays

SEQ = {length: [[12 if s + i == -1 else s + i for i in range(length)] for s in range(-1, 14 - length)]
       for length in (2, 3, 5)}


def classify(faces: list, natural: list, level: int) -> set:
    """Every (kind, key, suit) a concrete set of faces forms; ``natural[i]``: face i is not a wild."""
    n = len(faces)
    ranks = [rank(f) for f in faces]
    out = set()
    if any(r >= 13 for r in ranks):
        if n == 1:
            out.add(("single", order(ranks[0], level), -1))
        elif n == 2 and faces[0] == faces[1]:
            out.add(("pair", order(ranks[0], level), -1))
        elif n == 4 and sorted(faces) == [52, 52, 53, 53]:
            out.add(("joker_bomb", 0, -1))
        return out
    count = Counter(ranks)

    def has_natural(r):
        return r == level or any(nat and rk == r for rk, nat in zip(ranks, natural))
    if len(count) == 1 and has_natural(ranks[0]):
        kind = {1: "single", 2: "pair", 3: "triple"}.get(n, "bomb")
        out.add((kind, order(ranks[0], level), -1))
    if n == 5 and sorted(count.values()) == [2, 3]:
        t = next(r for r, c in count.items() if c == 3)
        p = next(r for r, c in count.items() if c == 2)
        if has_natural(t) and has_natural(p):
            out.add(("full_house", order(t, level), -1))
    for length, width, kind in ((5, 1, "straight"), (3, 2, "tube"), (2, 3, "plate")):
        if n != length * width:
            continue
        for s, seq in zip(range(-1, 14 - length), SEQ[length]):
            if Counter({r: width for r in seq}) == count:
                out.add((kind, s, -1))
                if kind == "straight" and len({suit(f) for f in faces}) == 1:
                    out.add(("straight_flush", s, suit(faces[0])))
    return out


def brute_force(hand_faces: list, level: int) -> set:
    """Every (kind, key, suit, natural ranks, wilds) a sub-multiset of the hand forms."""
    wild = wild_face(level)
    out = set()
    counts = Counter(hand_faces)
    items = sorted(counts)
    for take in product(*(range(counts[f] + 1) for f in items)):
        chosen = [f for f, k in zip(items, take) for _ in range(k)]
        if not chosen:
            continue
        nat = [f for f in chosen if f != wild]
        w = len(chosen) - len(nat)
        for values in product(range(52), repeat=w):
            for kind, key, su in classify(nat + list(values), [True] * len(nat) + [False] * w, level):
                out.add((kind, key, su, tuple(sorted(rank(f) for f in nat)), w))
    return out


def signature(m, level: int) -> tuple:
    wild = wild_face(level)
    nat = [f for f in m.cards if f != wild]
    return (m.kind, m.key, m.suit, tuple(sorted(rank(f) for f in nat)), len(m.cards) - len(nat))


small_hands = st.tuples(st.integers(0, 12), st.lists(st.integers(0, DECK_SIZE - 1), min_size=1, max_size=7,
                                                     unique=True), st.booleans())


@settings(max_examples=60)
@given(small_hands)
def test_the_enumeration_is_exact(case):
    level, ids, add_wild = case
    hand = [face(c) for c in ids]
    if add_wild and len(hand) < 7:
        hand.append(wild_face(level))       # wild hearts are rare in a random hand: add one often
    if hand.count(wild_face(level)) > 1:
        hand.remove(wild_face(level))       # the brute force tries 52 values per wild: keep it to one
    got = legal_plays(face_counts(hand), level)
    assert len(set(got)) == len(got)
    assert {signature(m, level) for m in got} == brute_force(hand, level)


@settings(max_examples=40)
@given(st.integers(0, 10**6), st.integers(0, 12))
def test_every_legal_reply_beats_the_table_and_is_held(seed, level):
    rng = random.Random(seed)
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    leader, follower = [face(c) for c in deck[:27]], [face(c) for c in deck[27:54]]
    table = rng.choice(legal_plays(face_counts(leader), level))
    held = Counter(follower)
    for reply in legal_plays(face_counts(follower), level, table):
        assert beats(reply, table)
        assert not Counter(reply.cards) - held


def _deck_conserved(d: Deal) -> bool:
    played = [c for p in d.history for c in p.cards]
    everything = sorted(played + [c for h in d.hands for c in h])
    return everything == list(range(DECK_SIZE))


@settings(max_examples=8)
@given(st.integers(0, 10**6), st.sampled_from(["free", "must_beat"]))
def test_a_random_deal_conserves_the_deck_and_ends(seed, pass_rule):
    rng = random.Random(seed)
    d = Deal.new(seed, level=rng.randrange(13), leader=rng.randrange(4), pass_rule=pass_rule)
    steps = 0
    while not d.over:
        d.step(rng.choice(d.legal()))
        steps += 1
        assert _deck_conserved(d)
        assert steps < 2000
    assert sorted(d.finish) == [0, 1, 2, 3] and d.upgrade() in (1, 2, 3)


def test_a_random_match_ends_with_tribute_between_deals():
    rng = random.Random(5)
    m = Match(seed=5)
    while m.winner is None:
        d = m.next_deal()
        assert sorted(c for h in d.hands for c in h) == list(range(DECK_SIZE))
        while not d.over:
            d.step(rng.choice(d.legal()))
        m.finish_deal(d)
        assert m.deals < 200
    assert m.levels[m.winner] == 12
