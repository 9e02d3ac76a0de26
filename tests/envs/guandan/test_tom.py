"""Guandan ToM questions: exact answers are checker queries; hand-built traces for the two queries of the
issue ("player 2 knows player 0 holds no joker", "player 1 believes player 3 believes I hold a bomb")."""

import random

import numpy as np

from belief.envs.guandan import environment as guandan_v0
from belief.envs.guandan.cards import BLACK_JOKER, RED_JOKER, face
from belief.envs.guandan.events import deal_events
from belief.envs.guandan.ruling_out import play_events, tribute_events
from belief.envs.guandan.combinations import Move
from belief.envs.guandan.tom import HandQuestion, answer, is_bomb, questions, question_text
from belief.grading.levels import LEVELS
from belief.truth.checker import check
from belief.truth.trace import Trace

JOKERS = [52, 53, 106, 107]


def _trace(hands, events=()):
    tr = Trace(meta={"env": "guandan_v0", "seed": 0})
    for ev in deal_events(hands, "deal"):
        tr.append(ev)
    for ev in events:
        tr.append(ev)
    return tr


def _q(level, template, asked, target, game_level=0) -> HandQuestion:
    return HandQuestion(id="q", t=0, turn=0, asked=asked, target=target, level=level, template=template,
                        game_level=game_level)


def _hands_with_jokers_at(seats: dict) -> list:
    """Four hands; ``seats``: card -> seat for the named cards, the rest dealt round-robin."""
    hands = [[], [], [], []]
    for k, s in seats.items():
        hands[s].append(k)
    rest = [k for k in range(108) if k not in seats]
    for i, k in enumerate(rest):
        hands[min(range(4), key=lambda s: len(hands[s]))].append(k)
    return hands


def test_player_2_knows_player_0_holds_no_joker_only_once_every_joker_is_placed_for_it():
    # player 2 holds two jokers; the other two are with player 1
    hands = _hands_with_jokers_at({52: 2, 106: 2, 53: 1, 107: 1})
    tr = _trace(hands)
    truth = check(tr)
    q = _q("introspection", "no_joker", "player_2", "player_0")
    assert not answer(truth, q)            # player 2 cannot tell where the red jokers are
    tr2 = _trace(hands, play_events("player_1", Move("pair", 15, (RED_JOKER, RED_JOKER)), (53, 107), "p", {}))
    assert answer(check(tr2), q)           # they were played by player 1: player 2 now knows


def test_player_1_believes_player_3_believes_i_hold_a_bomb_after_seeing_tribute():
    hands = _hands_with_jokers_at({0: 3, 54: 1, 1: 1, 55: 1})    # player 1 holds three 2s, player 3 one 2
    q = _q("second_order", "bomb", "player_1", "player_3")        # chain (player_1, player_3), holder player_1
    assert not answer(check(_trace(hands)), q)
    hands[3].remove(0)
    hands[1].append(0)                                             # the 2 goes to player 1 as a public tribute
    ev = tribute_events("player_3", "player_1", 0, "tribute", set(), "t")
    tr = _trace([[k for k in h if k != 0] + ([0] if i == 3 else []) for i, h in enumerate(hands)], ev)
    truth = check(tr)
    # player 3 saw one 2 go to player 1: not a bomb; player 1 knows player 3 knows of that one card only
    assert not answer(truth, q)
    assert truth.believes(("player_1", "player_3"), ("holds", "card_0", "player_1"), "yes")


def test_is_bomb_counts_wilds_and_the_four_jokers():
    assert is_bomb([0, 54, 1, 55], game_level=5)          # four 2s
    assert is_bomb([4, 58, 5, 21], game_level=5)          # three 3s and the 5 of hearts (wild at level 5)
    assert not is_bomb([4, 58, 5, 20], game_level=5)      # 5 of spades is no wild
    assert is_bomb(JOKERS, game_level=0)
    assert {face(k) for k in JOKERS} == {BLACK_JOKER, RED_JOKER}


def test_every_order_is_asked_after_each_play_with_exact_answers():
    e = guandan_v0.raw_env(seed=11)
    rng = random.Random(11)
    for _ in range(40):
        a = e.agent_selection
        e.step(int(rng.choice(np.flatnonzero(e.infos[a]["action_mask"]))))
    qs = questions(e.trace)
    plays = [ev for ev in e.trace if ev.kind == "action" and ev.name == "play"]
    assert len(qs) == 3 * len(plays)
    assert {q.level for q in qs} == set(LEVELS) and all(q.answer in (True, False) for q in qs)
    assert questions(e.trace) == qs                        # pure: the same trace, the same questions


def test_question_wording():
    assert question_text("second_order", "bomb", "player_3") == \
        "Do you believe that player_3 believes that you hold a bomb?"
    assert question_text("first_order", "no_joker", "player_2") == "Does player_2 know that you hold no joker?"
    assert question_text("introspection", "no_wild", "player_0") == "Do you know that player_0 holds no wild card?"
