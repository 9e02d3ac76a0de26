"""What each Guandan player observes, as events of the general trace vocabulary.

One fluent per (card, player): ``holds(card_K, player_P)`` is ``yes`` or ``no`` (card K = id 0..107, see
:mod:`belief.envs.guandan.cards`). Per-player fluents let a value say "not in P's hand" while the holder is
still unknown, which one holder fluent cannot. Observation model:

* the deal: the world's holdings, seen by nobody (an ``action`` with no audience); then each player looks at
  its own hand: it observes ``holds(k, P)`` for every card k, and everyone knows it does (``witnesses``), so
  "player 1 knows that player 3 knows whether player 3 holds card 5" holds; it also concludes
  ``holds(k, Q) = no`` for its own cards and every other player Q, privately (the fluents of that conclusion
  name its cards, so nobody witnesses it);
* a play is public (an ``action`` everyone sees); what everyone rules out from it, and from tribute and
  passes, is written by :mod:`belief.envs.guandan.ruling_out` (the one place to change when the checker
  gains constraints such as "each card is in exactly one hand");
* a new deal (of a match) makes every holding unsure for everyone (a ``possible`` event) before the deal.
"""

from __future__ import annotations

from belief.envs.guandan.cards import DECK_SIZE
from belief.truth.trace import Action, Effect, Observe, Possible

PLAYERS = ("player_0", "player_1", "player_2", "player_3")
EVERYONE = PLAYERS


def card_id(k: int) -> str:
    return f"card_{k}"


def f_holds(k: int, player: str) -> tuple:
    return ("holds", card_id(k), player)


def effect(fluent: tuple, value: str) -> Effect:
    return Effect(predicate=fluent[0], subject=fluent[1:], value=value)


def all_holds_fluents() -> tuple:
    return tuple(f_holds(k, p) for k in range(DECK_SIZE) for p in PLAYERS)


def deal_events(hands: list, source: str, new_deal: bool = False) -> list:
    """The dealt hands (seat -> card ids): the world's holdings (unseen), each player's look at its hand."""
    out = []
    if new_deal:
        out.append(Possible(observers=EVERYONE, fluents=all_holds_fluents(), source=source))
    holder = {k: PLAYERS[s] for s, hand in enumerate(hands) for k in hand}
    effects = tuple(effect(f_holds(k, p), "yes" if holder.get(k) == p else "no")
                    for k in range(DECK_SIZE) for p in PLAYERS)
    out.append(Action(name="deal", effects=effects, visible_to=(), source=source))
    for s, hand in enumerate(hands):
        out += own_hand_events(PLAYERS[s], hand, source)
    return out


def own_hand_events(player: str, hand, source: str) -> list:
    """``player`` looks at its hand (witnessed: everyone knows it knows its own hand) and concludes, privately,
    that nobody else holds its cards."""
    own = Observe(agents=(player,), fluents=tuple(f_holds(k, player) for k in range(DECK_SIZE)),
                  witnesses=EVERYONE, source=source)
    others = tuple(f_holds(k, q) for k in sorted(hand) for q in PLAYERS if q != player)
    out = [own]
    if others:
        out.append(Observe(agents=(player,), fluents=others, source=source))
    return out


__all__ = ["EVERYONE", "PLAYERS", "all_holds_fluents", "card_id", "deal_events", "effect", "f_holds",
           "own_hand_events"]
