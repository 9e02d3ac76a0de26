"""Differential tests against DeepMind's Hanabi Learning Environment (the optional extra ``hle``).

HLE deals at random (0.0.4 has no "deal this card" call), so each game is played in HLE first with seeded
random legal moves, recording the cards it dealt; our engine is then dealt the same cards in the same order
(:meth:`Game.from_deal`) and replays the same moves. At every step both must agree on the legal moves, the
score, the tokens, the lives and the end; and every player's knowledge of every card in its hand (HLE's
``card_knowledge()``: possible colours and ranks, negative hints included) must equal what the hint events
of our trace say (:func:`possible_from_hints`) and what the checker says the player knows (the
``has_colour``/``has_rank`` fluents on the player's chain in its own private trace).
"""

import random

import pytest

from belief.agents.hanabi.knowledge import possible
from belief.envs.hanabi import environment as hanabi_env
from belief.envs.hanabi.events import CONSTRAINTS
from belief.envs.hanabi.knowledge import possible_from_hints
from belief.envs.hanabi.world import COLOURS, DISCARD, HINT_COLOUR, HINT_RANK, PLAY, Game, Move, hand_size
from belief.truth.checker import check
from belief.truth.trace import Trace

pyhanabi = pytest.importorskip("hanabi_learning_environment.pyhanabi")

HLE_COLOURS = "RYGWB"  # HLE's colour order; ours is red yellow green blue white


def colour_of(i: int) -> str:
    return {"R": "red", "Y": "yellow", "G": "green", "W": "white", "B": "blue"}[HLE_COLOURS[i]]


def hle_card(card) -> tuple:
    return colour_of(card.color()), card.rank() + 1


def hle_to_ours(move, hand_len: int, h: int) -> Move:
    """An HLE move as ours: HLE's card index 0 is the oldest card, our slot 0 the newest."""
    t = move.type()
    if t == pyhanabi.HanabiMoveType.PLAY:
        return Move(PLAY, hand_len - 1 - move.card_index(), 1, h)
    if t == pyhanabi.HanabiMoveType.DISCARD:
        return Move(DISCARD, hand_len - 1 - move.card_index(), 1, h)
    if t == pyhanabi.HanabiMoveType.REVEAL_COLOR:
        return Move(HINT_COLOUR, COLOURS.index(colour_of(move.color())), move.target_offset(), h)
    return Move(HINT_RANK, move.rank(), move.target_offset(), h)


def deal_all(state):
    while state.cur_player() == pyhanabi.CHANCE_PLAYER_ID:
        state.deal_random_card()


def negative_hint(state, legal, rng):
    """A hint that does not touch the next player's oldest card (negative information on it), if any."""
    oldest = state.player_hands()[(state.cur_player() + 1) % state.num_players()][0]
    out = [m for m in legal if m.target_offset() == 1 and (
        m.type() == pyhanabi.HanabiMoveType.REVEAL_COLOR and m.color() != oldest.color()
        or m.type() == pyhanabi.HanabiMoveType.REVEAL_RANK and m.rank() != oldest.rank())]
    return rng.choice(out) if out else None


def play_hle(players: int, seed: int, max_moves: int = 400, p_hint: float = 0.45, prefer=None):
    """One HLE game with seeded random legal moves (plays rare, so that games run to the end of the deck;
    hints and discards half and half, so knowledge builds up): the cards in the order dealt and the moves."""
    game = pyhanabi.HanabiGame({"players": players, "random_start_player": False, "seed": seed})
    state = game.new_initial_state()
    deal_all(state)
    dealt = [hle_card(c) for hand in state.player_hands() for c in hand]
    rng = random.Random(seed)
    moves = []
    while not state.is_terminal() and len(moves) < max_moves:
        legal = state.legal_moves()
        kinds = {}
        for m in legal:
            kinds.setdefault("play" if m.type() == pyhanabi.HanabiMoveType.PLAY else
                             "discard" if m.type() == pyhanabi.HanabiMoveType.DISCARD else "hint", []).append(m)
        r = rng.random()
        kind = "play" if r < 0.1 and state.life_tokens() > 1 else "hint" if r < 0.1 + p_hint else "discard"
        move = rng.choice(kinds.get(kind) or kinds.get("hint") or kinds.get("discard") or legal)
        if prefer is not None and kind == "hint":
            move = prefer(state, legal, rng) or move
        before, mover = state.deck_size(), state.cur_player()
        state.apply_move(move)
        moves.append(move)
        deal_all(state)
        if state.deck_size() < before:  # a card was drawn: the newest (last) card of the mover's hand
            dealt.append(hle_card(state.player_hands()[mover][-1]))
    return game, dealt, moves


def replay(players: int, seed: int, check_knowledge_every: int = 0, **policy):
    """Replay an HLE game move by move in both engines, asserting they agree at every step."""
    game = pyhanabi.HanabiGame({"players": players, "random_start_player": False, "seed": seed})
    state = game.new_initial_state()
    deal_all(state)
    # first pass: the cards HLE deals, in order (initial hands, then one per draw)
    _, dealt, moves = play_hle(players, seed, **policy)
    ours = Game.from_deal(dealt, players)
    env = hanabi_env.raw_env(seed=0, players=players)
    env.reset(game=ours)
    g = env.game
    h = hand_size(players)
    private = {p: Trace(meta={"constraints": CONSTRAINTS}) for p in g.players}  # the game's public rules
    for step, move in enumerate(moves):
        cur = state.cur_player()
        player = g.players[cur]
        assert g.current == player
        # same hands (HLE's index 0 is the oldest card)
        for i, p in enumerate(g.players):
            assert [hle_card(c) for c in reversed(state.player_hands()[i])] == \
                   [(g.cards[k].colour, g.cards[k].rank) for k in g.hands[p]]
        # same legal moves
        hle_legal = {hle_to_ours(m, len(g.hands[player]), h).action for m in state.legal_moves()}
        assert hle_legal == {a for a, ok in enumerate(g.legal(player)) if ok}
        # same knowledge: every player's possible values of every card in its own hand
        hinted = possible_from_hints(env.trace)
        for p, tr in private.items():
            for ev in env.take_perceived(p):
                tr.append(ev.model_copy(update={"t": None}))
        truths = ({p: check(private[p]) for p in g.players}
                  if check_knowledge_every and step % check_knowledge_every == 0 else None)
        for i, p in enumerate(g.players):
            obs = state.observation(i)  # kept alive: the knowledge objects point into it
            know = obs.card_knowledge()[0]  # offset 0: the observer's own hand
            for j, ck in enumerate(reversed(know)):
                k = g.hands[p][j]
                hle = (frozenset(colour_of(c) for c in range(5) if ck.color_plausible(c)),
                       frozenset(r + 1 for r in range(5) if ck.rank_plausible(r)))
                assert hinted.possible(k) == hle, (step, p, j)
                if truths is not None:
                    assert possible(truths[p], (p,), k) == hle, (step, p, j)
        ours_move = hle_to_ours(move, len(g.hands[player]), h)
        state.apply_move(move)
        deal_all(state)
        env.step(ours_move.action)
        assert (g.score(), g.hints, g.lives, len(g.draw_pile)) == \
               (state.score(), state.information_tokens(), state.life_tokens(), state.deck_size())
        assert g.fireworks == {colour_of(i): n for i, n in enumerate(state.fireworks())}
        assert g.over == state.is_terminal(), step
    assert g.over and state.is_terminal()
    return env


def eliminated(trace) -> int:
    """(card, colour or rank) whose value the hints fixed with no hint of that kind touching the card."""
    hinted = possible_from_hints(trace)
    touched = {(ev.params["kind"], k) for ev in trace if ev.kind == "action" and ev.name == "hint"
               for k in ev.params["touched"]}
    return sum((kind, f"card_{k}") not in touched and len(values) == 1
               for kind, table in ((HINT_COLOUR, hinted.colours), (HINT_RANK, hinted.ranks))
               for k, values in table.items())


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 3), (4, 4), (5, 5)])
def test_same_deal_and_moves_give_the_same_game(players, seed):
    g = replay(players, seed).game
    assert g.turn > 30 and g.end_reason in ("deck exhausted", "no lives left")


@pytest.mark.parametrize("players,seed", [(3, 8)])
def test_the_checker_knows_what_hle_says_each_player_knows(players, seed):
    """The checker on each player's private trace (negative hints included) against HLE's card knowledge,
    every 6th move (the checker is the slow part)."""
    replay(players, seed, check_knowledge_every=6)


def test_elimination_by_negative_hints_matches_hle():
    """Games full of negative hints reach cards whose colour or rank is known only by elimination; the
    replay compares them with HLE at every step (and with the checker every 4th move)."""
    found = 0
    for seed in (1, 2):
        env = replay(2, seed, check_knowledge_every=8 if seed == 1 else 0, p_hint=0.85, prefer=negative_hint)
        found += eliminated(env.trace)
    assert found > 0
