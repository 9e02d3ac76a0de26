"""The SmartBot port: legal moves through the wrapped PettingZoo env, determinism, its conventions.

Its mean over many games against O'Dwyer's published 23.09 is a benchmark (``belief bench hanabi``), not a test.
"""

import pytest

from belief.agents.hanabi.smartbot import MAYBE, NO, YES, CardKnowledge, SmartBotAgent
from belief.envs.hanabi import environment as hanabi_v0
from belief.envs.hanabi.world import COLOURS, Game, Move
from belief.errors import BeliefError


def play(seed: int, players: int = 2):
    """A whole game through the wrapped AEC env; every bot perceives after every step. Returns the actions,
    the final metrics and the bots."""
    e = hanabi_v0.env(seed=seed, players=players)
    e.reset(seed=seed)
    bots = {a: SmartBotAgent(a, players=e.possible_agents) for a in e.possible_agents}
    raw = e.unwrapped
    actions = []

    def perceive():
        for n, bot in bots.items():
            bot.perceive(raw.take_perceived(n), raw.infos[n])

    perceive()
    for name in e.agent_iter():
        obs, _, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        a = bots[name].act(obs, info)
        assert obs["action_mask"][a] == 1
        actions.append(a)
        e.step(a)
        perceive()
    return actions, raw.metrics(), bots


@pytest.mark.parametrize("players", [2, 3])
def test_smartbot_plays_legal_moves_to_the_end_and_well(players):
    actions, m, bots = play(11, players)
    assert m["end_reason"] in ("deck exhausted", "all fireworks complete")
    assert m["fireworks"] >= 15 and m["lives"] >= 1
    assert all(b.contradictions == 0 for b in bots.values())
    kinds = {Move.of(a, players).kind for a in actions}
    assert {"play", "discard"} <= kinds and kinds & {"hint_colour", "hint_rank"}


def test_smartbot_is_deterministic():
    assert play(4)[0] == play(4)[0]


def test_smartbot_needs_every_move():
    e = hanabi_v0.raw_env(seed=0)
    bot = SmartBotAgent("alice", players=e.possible_agents)
    bot.perceive(e.take_perceived("alice"), e.infos["alice"])
    for _ in range(2):
        e.step(next(a for a, ok in enumerate(e.infos[e.agent_selection]["action_mask"]) if ok))
    with pytest.raises(BeliefError, match="missed a move"):
        bot.perceive(e.take_perceived("alice"), e.infos["alice"])


def test_a_colour_hint_marks_the_newest_maybe_playable_touched_card_playable():
    """Bob holds two red cards, red 1 (older) and red 3 (newest); alice hints red: by SmartBot's convention the
    newest touched card that might be playable is playable, so bob's record of the red 3 says playable, of the
    red 1 only red."""
    deal = [("white", 2), ("white", 3), ("white", 4), ("green", 4), ("green", 3),     # alice
            ("red", 1), ("yellow", 4), ("yellow", 3), ("blue", 4), ("red", 3)]        # bob
    g = Game.from_deal(deal)
    e = hanabi_v0.raw_env(seed=0)
    e.reset(game=g)
    bots = {a: SmartBotAgent(a, players=e.possible_agents) for a in e.possible_agents}
    for n, b in bots.items():
        b.perceive(e.take_perceived(n), e.infos[n])
    assert [g.cards[k].name() for k in reversed(g.hands["bob"])][0] == "red 1"   # oldest first
    e.step(Move("hint_colour", COLOURS.index("red")).action)
    for n, b in bots.items():
        b.perceive(e.take_perceived(n), e.infos[n])
    for b in bots.values():
        b._set_state(e.infos["bob"]["obs"])
        bob = b.hk[1]
        assert bob[-1].playable() == YES and bob[-1].color() == 0      # the newest red: read as playable
        assert bob[0].color() == 0 and bob[0].playable() == MAYBE        # the older red: only its colour
        assert all(k.playable() == NO or k.playable() == MAYBE for k in bob[1:-1])


def test_card_knowledge_counts_copies_and_worthless_cards():
    bot = SmartBotAgent("alice", players=("alice", "bob"))
    k = CardKnowledge(bot)
    assert k.possibilities() == 25 and not k.known() and k.playable() == MAYBE
    k.set_must_be_value(1)
    assert k.playable() == YES and k.probability_playable() == 1.0   # every 1 is playable at the start
    red5 = bot.is_worthless(0, 5)
    for _ in range(2):
        bot._see_public(0, 4)                                         # both red 4s gone
    assert not red5 and bot.is_worthless(0, 5) and not bot.is_valuable(0, 5)
    bot._see_public(0, 3)
    assert bot.is_valuable(0, 3)                                      # the last red 3
