"""Hand-worked Guandan cases: every combination type, wild hearts, jokers, bombs against straight flushes,
following, the lead after a finished hand, upgrades, tribute (single, double, anti-tribute) and the match."""

import random
from collections import Counter

import pytest

from belief.envs.guandan.cards import (DECK_SIZE, RANK_NAMES, face, face_name, order, parse_face,
                                       wild_face)
from belief.envs.guandan.combinations import PASS, Move, beats, describe, power
from belief.envs.guandan.world import Deal, IllegalMove, shuffled_hands, upgrade
from belief.envs.guandan.match import Match, return_card, tribute, tribute_card
from belief.envs.guandan.moves import face_counts, legal_plays

L = {name: i for i, name in enumerate(RANK_NAMES)}  # level by rank name


def faces(text: str) -> list:
    return [parse_face(t) for t in text.split()]


def plays(text: str, level: str = "2", table: Move | None = None) -> list:
    return legal_plays(face_counts(faces(text)), L[level], table)


def kinds(text: str, kind: str, level: str = "2", table=None) -> list:
    return [m for m in plays(text, level, table) if m.kind == kind]


def names(m: Move) -> list:
    return sorted(face_name(f) for f in m.cards)


# --- cards ----------------------------------------------------------------------------------------------
def test_two_decks_with_four_jokers():
    counts = Counter(face(c) for c in range(DECK_SIZE))
    assert len(counts) == 54 and set(counts.values()) == {2}
    assert sum(1 for c in range(DECK_SIZE) if face(c) >= 52) == 4
    hands = shuffled_hands(random.Random(0))
    assert [len(h) for h in hands] == [27] * 4 and sorted(sum(hands, [])) == list(range(DECK_SIZE))


def test_level_rank_is_above_the_ace_and_below_the_jokers():
    level = L["7"]
    assert order(L["A"], level) < order(L["7"], level) < order(13, level) < order(14, level)
    assert order(L["8"], level) > order(L["6"], level)
    assert face_name(wild_face(level)) == "7H"


# --- combination types ------------------------------------------------------------------------------------
def test_singles_pairs_and_jokers():
    assert [describe(m) for m in plays("3S 7D BJ")] == ["single 3 [3S]", "single 7 [7D]", "single black joker [BJ]"]
    assert [names(m) for m in kinds("BJ BJ RJ", "pair")] == [["BJ", "BJ"]]
    assert kinds("BJ RJ", "pair") == []          # two jokers of different colours are no pair
    assert kinds("BJ BJ", "triple") == []


def test_a_wild_heart_makes_a_pair_but_not_from_wilds_alone():
    # level 7: 7H is wild
    pairs = kinds("5S 7H", "pair", level="7")
    assert [names(m) for m in pairs] == [["5S", "7H"]]
    assert pairs[0].key == order(L["5"], L["7"])
    # two wild hearts alone are a pair of level cards, the highest pair below jokers
    assert [(m.key, names(m)) for m in kinds("7H 7H", "pair", level="7")] == [(13, ["7H", "7H"])]
    assert kinds("BJ 7H", "pair", level="7") == []  # a wild never stands for a joker


def test_triples_and_full_houses():
    assert [names(m) for m in kinds("3S 3D 3C", "triple")] == [["3C", "3D", "3S"]]
    fh = kinds("3S 3D 3C 9S 9H", "full_house")
    assert [(m.key, names(m)) for m in fh] == [(order(L["3"], 0), ["3C", "3D", "3S", "9H", "9S"])]
    assert beats(Move("full_house", order(L["4"], 0), ()), fh[0])
    assert not beats(Move("full_house", order(L["3"], 0), ()), fh[0])
    assert kinds("3S 3D 3C BJ BJ", "full_house") == []   # jokers are no part of a full house


def test_a_full_house_with_a_wild_in_the_triple_or_in_the_pair():
    fh = {tuple(names(m)) for m in kinds("3S 3D 9S 9D 2H", "full_house")}
    assert fh == {("2H", "3D", "3S", "9D", "9S")}  # the same five cards, read two ways
    keys = sorted(m.key for m in kinds("3S 3D 9S 9D 2H", "full_house"))
    assert keys == [order(L["3"], 0), order(L["9"], 0)]  # triple 3s + pair 9s, or triple 9s + pair 3s


def test_straights_ace_low_ace_high_no_wrap_no_jokers():
    assert [m.key for m in kinds("AS 2D 3C 4S 5H", "straight", level="7")] == [-1]
    assert [m.key for m in kinds("10S JD QC KS AH", "straight", level="7")] == [8]
    assert kinds("QS KD AC 2S 3H", "straight", level="7") == []
    assert kinds("JS QS KS AS RJ", "straight", level="7") == []


def test_the_level_rank_keeps_its_natural_place_in_a_straight():
    # level 5: 3-4-5-6-7 is a straight with the 5 in its place
    assert [m.key for m in kinds("3S 4D 5C 6C 7C", "straight", level="5")] == [L["3"]]


def test_a_wild_heart_fills_a_gap_in_a_straight():
    s = kinds("3S 4D 6C 7S 2H", "straight")  # level 2: 2H stands for the 5
    assert [(m.key, names(m)) for m in s] == [(L["3"], ["2H", "3S", "4D", "6C", "7S"])]


def test_wild_hearts_in_straight_flushes():
    sf = kinds("3S 4S 5S 7S 2H", "straight_flush")  # the wild is the 6 of spades
    assert [(m.key, m.suit, names(m)) for m in sf] == [(L["3"], 0, ["2H", "3S", "4S", "5S", "7S"])]
    assert kinds("3S 4S 5D 7S 2H", "straight_flush") == []  # two gaps, one wild
    two = kinds("3S 4S 7S 2H 2H", "straight_flush")
    assert {m.key for m in two} >= {L["3"]}   # both wilds: 5S and 6S


def test_tubes_and_plates():
    assert [m.key for m in kinds("AS AD 2S 2D 3S 3D", "tube", level="7")] == [-1]
    assert [m.key for m in kinds("QS QD KS KD AS AD", "tube", level="7")] == [10]
    assert kinds("KS KD AS AD 2S 2D", "tube", level="7") == []
    assert [m.key for m in kinds("KS KD KC AS AD AC", "plate", level="7")] == [11]
    assert [m.key for m in kinds("AS AD AC 2S 2D 2C", "plate", level="7")] == [-1]
    assert [names(m) for m in kinds("KS KD KC AS AD 7H", "plate", level="7")] == [["7H", "AD", "AS", "KC", "KD", "KS"]]


def test_bombs_with_wilds_and_the_four_jokers():
    bombs = kinds("9S 9D 9C 2H 2H", "bomb")
    assert sorted(len(m.cards) for m in bombs) == [4, 4, 5]
    assert [names(m) for m in kinds("BJ BJ RJ RJ", "joker_bomb")] == [["BJ", "BJ", "RJ", "RJ"]]
    ten = Move("bomb", order(L["A"], 0), tuple(faces("AS AS AD AD AC AC AH AH 2H 2H")))
    assert beats(Move("joker_bomb", 0, ()), ten)


def test_bombs_against_straight_flushes():
    four = Move("bomb", order(L["A"], 0), tuple(faces("AS AD AC AH")))
    five = Move("bomb", order(L["3"], 0), tuple(faces("3S 3D 3C 3H 3S")))
    six = Move("bomb", order(L["3"], 0), tuple(faces("3S 3D 3C 3H 3S 3D")))
    sf_low = Move("straight_flush", -1, tuple(faces("AS 2S 3S 4S 5S")), 0)
    sf_high = Move("straight_flush", 8, tuple(faces("10S JS QS KS AS")), 0)
    assert beats(sf_low, five) and beats(sf_low, four) and not beats(five, sf_low)
    assert beats(six, sf_high) and not beats(sf_high, six)
    assert beats(sf_high, sf_low) and not beats(sf_low, sf_high)
    assert beats(five, four) and power(four) < power(five)
    assert beats(four, Move("straight", 8, ())) and beats(four, Move("single", 15, ()))


def test_following_lists_only_higher_plays_of_the_type_and_bombs():
    table = Move("pair", order(L["9"], 0), tuple(faces("9S 9D")))
    got = plays("8S 8D 10S 10D 4S 4D 4C 4H", table=table)
    assert {(m.kind, m.key) for m in got} == {("pair", order(L["10"], 0)), ("bomb", order(L["4"], 0))}
    assert all(beats(m, table) for m in got)
    straight = Move("straight", L["3"], ())  # 3-4-5-6-7: only 4-8 and 5-9 beat it
    assert [m.key for m in kinds("3S 4S 5D 6C 7C 8S 9D", "straight", table=straight)] == [L["4"], L["5"]]


# --- a deal ------------------------------------------------------------------------------------------------
def _deal(hands: list, level="2", leader=0, pass_rule="free") -> Deal:
    ids = []
    used = Counter()
    for hand in hands:
        row = []
        for f in faces(hand):
            row.append(f + 54 * used[f])
            used[f] += 1
        ids.append(row)
    return Deal(ids, L[level], leader, pass_rule)


def test_the_partner_leads_after_a_player_goes_out():
    d = _deal(["AS", "3S 4S", "5S 6S", "7S 8S"])
    d.step(d.legal()[0])                      # seat 0 plays its last card, the ace
    assert d.finish == [0] and d.turn == 1
    for _ in range(3):
        d.step(PASS)                          # seats 1, 2, 3 pass
    assert d.turn == 2 and d.table is None    # the partner takes the lead


def test_a_trick_ends_when_the_others_pass_and_its_last_player_leads():
    d = _deal(["3S 3D", "4S 9D", "5S 6S", "7S 8S"])
    d.step(d.legal()[0])
    d.step(PASS)
    d.step(PASS)
    d.step(PASS)
    assert d.turn == 0 and d.table is None and d.legal()[0].kind != "pass"


def test_pass_is_illegal_when_leading_and_under_must_beat_when_a_play_beats():
    d = _deal(["3S 3D", "4S 9D", "5S 6S", "7S 8S"], pass_rule="must_beat")
    assert PASS not in d.legal()
    d.step(d.legal()[0])                  # single 3
    assert PASS not in d.legal()          # seat 1 can beat it
    with pytest.raises(IllegalMove):
        d.step(PASS)


def test_the_deal_ends_when_a_team_is_out_and_the_upgrade():
    d = _deal(["AS", "3S 4S", "AD", "7S 8S"])
    d.step(d.legal()[0])                  # seat 0 out
    d.step(PASS), d.step(PASS), d.step(PASS)
    assert d.turn == 2
    d.step(d.legal()[0])                  # seat 2 out: team 0 took 1st and 2nd
    assert d.over and d.finish[:2] == [0, 2] and d.winning_team == 0 and d.upgrade() == 3
    assert upgrade([0, 1, 2, 3]) == 2 and upgrade([0, 1, 3, 2]) == 1 and upgrade([1, 3, 0, 2]) == 3


# --- tribute -----------------------------------------------------------------------------------------------
def _hands(*texts) -> list:
    return _deal(list(texts)).hands


def test_single_tribute_highest_card_not_the_wild_and_a_return_of_ten_or_lower():
    hands = _hands("3S 4S", "5S 6S", "2H 9S KD", "7S JS")   # level 2: 2H is wild
    assert face_name(face(tribute_card(hands[2], 0))) == "KD"
    res = tribute(hands, [0, 1, 3, 2], level=0)       # seat 2 last, seat 0 first
    assert not res.anti_tribute and res.leader == 2
    got = [(t.kind, t.giver, t.receiver, face_name(face(t.card))) for t in res.transfers]
    assert got == [("tribute", 2, 0, "KD"), ("return", 0, 2, "3S")]
    assert sorted(face_name(face(c)) for c in hands[0]) == ["4S", "KD"]


def test_return_card_is_at_most_ten_else_the_lowest():
    hands = _hands("JS QS AS", "10D AD")
    assert face_name(face(return_card(hands[0], 0))) == "JS"
    assert face_name(face(return_card(hands[1], 0))) == "10D"


def test_double_tribute_the_higher_card_goes_to_the_first():
    hands = _hands("3S", "QS 4S", "5S", "AD 6S")
    res = tribute(hands, [0, 2, 1, 3], level=0)      # team 0 took 1st and 2nd: seats 1 and 3 both give
    got = [(t.kind, t.giver, t.receiver, face_name(face(t.card))) for t in res.transfers]
    assert got[:2] == [("tribute", 3, 0, "AD"), ("tribute", 1, 2, "QS")]
    assert res.leader == 3 and {t.giver for t in res.transfers if t.kind == "return"} == {0, 2}


def test_anti_tribute_when_the_givers_hold_both_red_jokers():
    hands = _hands("3S", "RJ 4S", "5S", "RJ 6S")
    res = tribute(hands, [0, 2, 1, 3], level=0)
    assert res.anti_tribute and res.transfers == () and res.leader == 0
    hands = _hands("3S", "4S", "5S", "RJ RJ 6S")
    assert tribute(hands, [0, 1, 2, 3], level=0).anti_tribute
    hands = _hands("3S", "RJ", "5S", "RJ 6S")          # one red joker with the single giver: tribute
    assert not tribute(hands, [0, 1, 2, 3], level=0).anti_tribute


def test_match_levels_and_the_win_at_ace():
    m = Match(seed=0)
    d = _deal(["AS", "3S 4S", "AD", "7S 8S"])
    d.step(d.legal()[0]), d.step(PASS), d.step(PASS), d.step(PASS), d.step(d.legal()[0])
    m.finish_deal(d)
    assert m.levels == [3, 0] and m.deal_team == 0 and m.winner is None
    m.levels = [12, 0]
    m.finish_deal(d)
    assert m.winner == 0
    nxt = m.next_deal()                               # double tribute from seats 1 and 3 (unless anti-tribute)
    assert nxt.level == 12 and sum(len(h) for h in nxt.hands) == DECK_SIZE
    assert m.last_tribute is not None
