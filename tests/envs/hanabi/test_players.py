"""Hanabi for 2-5 players: hands, the action numbering, the hint record read from hint events."""

import random

import pytest
from pettingzoo.test import api_test

from belief.agents.hanabi.knowledge import possible
from belief.envs.hanabi import environment as hanabi_env
from belief.envs.hanabi.knowledge import possible_from_hints
from belief.envs.hanabi.world import COLOURS, Game, HanabiError, Move, hand_size, n_actions, players_of
from belief.truth.checker import check
from belief.truth.filter import private_trace


@pytest.mark.parametrize("n,hand,actions", [(2, 5, 20), (3, 5, 30), (4, 4, 38), (5, 4, 48)])
def test_hand_sizes_and_action_counts(n, hand, actions):
    g = Game.new(1, n)
    assert g.players == players_of(n) and hand_size(n) == hand and n_actions(n) == actions
    assert all(len(h) == hand for h in g.hands.values()) and len(g.draw_pile) == 50 - n * hand
    for a in range(actions):
        assert Move.of(a, n).action == a


def test_two_players_keep_the_old_numbering():
    assert Move.of(12) == Move("hint_colour", 2) and Move.of(17).hint_value == 3 and Move.of(7).kind == "discard"


def test_too_many_players_is_an_error():
    with pytest.raises(HanabiError, match="2 to 5 players"):
        Game.new(0, 6)


def test_hint_to_the_player_two_seats_on():
    g = Game.new(2, 4)
    carol = g.hands["carol"]
    colour = g.cards[carol[0]].colour
    out = g.step(Move("hint_colour", COLOURS.index(colour), target=2, hand=4).action)
    assert out.receiver == "carol" and carol[0] in out.touched and g.current == "bob"


def test_from_deal_deals_hands_in_turn_then_draws_in_order():
    dealt = [("red", 1)] * 3 + [("blue", 2)] * 2 + [("green", 5), ("white", 4), ("yellow", 3), ("blue", 1),
                                                   ("red", 2), ("white", 5)]
    g = Game.from_deal(dealt, 2)
    assert [(g.cards[k].colour, g.cards[k].rank) for k in reversed(g.hands["alice"])] == dealt[:5]
    assert (g.cards[g.draw_pile[-1]].colour, g.cards[g.draw_pile[-1]].rank) == ("white", 5)


def test_api_test_with_four_players():
    api_test(hanabi_env.env(seed=1, players=4), num_cycles=25)


def test_hint_events_say_what_the_checker_says_each_player_knows():
    """The hint record read from the trace's hint events (positive and negative) equals, card by card, what
    the checker says each player knows about its own hand (3 players, random hints and discards)."""
    e = hanabi_env.raw_env(seed=4, players=3)
    rng = random.Random(4)
    for _ in range(24):
        mask = e.infos[e.agent_selection]["action_mask"]
        legal = [a for a, ok in enumerate(mask) if ok and a >= 5]  # hints and discards
        e.step(rng.choice(legal))
    hinted = possible_from_hints(e.trace)
    narrowed = 0
    for p in e.game.players:
        truth = check(private_trace(e.trace, p))
        for k in e.game.hands[p]:
            assert possible(truth, (p,), k) == hinted.possible(k)
            narrowed += hinted.possible(k) != (frozenset(COLOURS), frozenset(range(1, 6)))
    assert narrowed > 3
