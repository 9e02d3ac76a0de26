import random
from collections import Counter

import pytest
from pettingzoo.test import api_test

from belief.envs.hanabi import environment as hanabi_v0
from belief.envs.hanabi.world import COLOURS, MAX_HINTS, Game, HanabiError, Move, deck


def test_api_test():
    api_test(hanabi_v0.env(seed=1), num_cycles=300)


def test_spaces_memoised():
    e = hanabi_v0.raw_env(seed=0)
    assert e.observation_space("alice") is e.observation_space("alice")
    assert e.action_space("bob") is e.action_space("bob")


def test_deck_composition_and_seeding():
    d = deck(3)
    assert len(d) == 50
    assert Counter(c.rank for c in d) == {1: 15, 2: 10, 3: 10, 4: 10, 5: 5}
    assert Counter(c.colour for c in d) == {c: 10 for c in COLOURS}
    assert [c.id for c in deck(3)] == [c.id for c in d] and [c.id for c in deck(4)] != [c.id for c in d]


def test_hint_touches_matching_cards_and_costs_a_token():
    g = Game.new(0)
    bob = [g.cards[k] for k in g.hands["bob"]]
    colour = bob[0].colour
    out = g.step(Move("hint_colour", COLOURS.index(colour)).action)
    assert set(out.touched) == {c.id for c in bob if c.colour == colour}
    assert set(out.untouched) == {c.id for c in bob if c.colour != colour}
    assert g.hints == MAX_HINTS - 1 and g.current == "bob"


def test_discard_illegal_at_eight_tokens_and_regains_one():
    g = Game.new(0)
    with pytest.raises(HanabiError):
        g.step(Move("discard", 0).action)
    g.step(Move("hint_rank", next(c.rank for c in (g.cards[k] for k in g.hands["bob"])) - 1).action)
    g.step(Move("discard", 4).action)  # bob discards his oldest card
    assert g.hints == MAX_HINTS and len(g.hands["bob"]) == 5 and len(g.discards) == 1


def test_three_misplays_end_the_game_with_score_zero():
    g = Game.new(0)
    g.fireworks = {c: 5 if c != "red" else 0 for c in COLOURS}  # nearly everything is unplayable
    while not g.over:
        hand = g.hands[g.current]
        slot = next((i for i, k in enumerate(hand) if not g.playable(g.cards[k])), 0)
        g.step(Move("play", slot).action)
    assert g.lives == 0 and g.score() == 0 and g.end_reason == "no lives left"


def test_game_ends_one_round_after_the_deck():
    g = Game.new(1)

    def safe_move():  # never play: discard the oldest card when allowed, else hint
        legal = g.legal(g.current)
        return Move("discard", len(g.hands[g.current]) - 1).action if g.hints < MAX_HINTS else legal.index(True, 10)

    while g.draw_pile:
        g.step(safe_move())
    assert not g.over and g.final_turns == 2
    g.step(safe_move())
    assert not g.over
    g.step(safe_move())
    assert g.over and g.end_reason == "deck exhausted" and g.score() == 0 and g.lives == 3


def test_random_play_is_deterministic_and_writes_a_trace():
    def play(seed):
        e = hanabi_v0.raw_env(seed=seed)
        rng = random.Random(seed)
        while not all(e.terminations.values()):
            m = e.infos[e.agent_selection]["action_mask"]
            e.step(rng.choice([i for i, ok in enumerate(m) if ok]))
        return e.trace.dumps(), e.metrics()
    a, b = play(5), play(5)
    assert a == b
    assert '"env": "hanabi_v0"' in a[0] and a[1]["turns"] > 0
