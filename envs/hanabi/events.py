"""What each Hanabi player observes, written as events of the general trace vocabulary.

Fluents (all values are strings), for every card ``card_K`` (K = its position in the unshuffled deck):

==============================  ==========================================================
``colour(card_K)``              ``red`` ... ``white``
``rank(card_K)``                ``1`` ... ``5``
``has_colour(card_K, C)``       ``yes`` / ``no``: one fluent per colour C, so that "not red" is a value
``has_rank(card_K, R)``         ``yes`` / ``no``: one fluent per rank R
``where(card_K)``               ``deck``, a player (``alice``, ``bob``, ...), ``played`` or ``discarded`` (public)
``firework(C)``                 the highest rank played in colour C, ``0`` to ``5`` (public)
==============================  ==========================================================

The trace vocabulary has values, not sets of possible values: a hint's negative information ("the
untouched cards are not red") is the value ``no`` of the per-colour fluent, and a player's knowledge of a
card is the set of its per-colour and per-rank fluents it holds. Observation model:

* setup: the deck, seen by nobody;
* a card dealt or drawn into a hand is seen by the *other* players (``observe``), and every player knows it
  was seen (``witnesses``): the holder knows the others know the card, without knowing it itself;
* a hint is seen by everyone (a joint ``observe``: common knowledge): for the touched cards their colour (or
  rank) and every per-colour (per-rank) fluent; for the untouched cards the hinted colour's (rank's)
  fluent, ``no``. What the negatives entail (four "not" leave one colour) is the checker's knowledge by
  elimination under the game's public rules (:data:`CONSTRAINTS`, in the trace meta), not an event;
* a played or discarded card is revealed to everyone (joint observation), and its move is public (``action``).

``players`` (the game's player names) defaults to the two-player ``PLAYERS``.
"""

from __future__ import annotations

from belief.envs.hanabi.world import COLOURS, PLAYERS, RANKS, Card
from belief.truth.trace import Action, Effect, Observe

EVERYONE = tuple(PLAYERS)


def card_id(k: int) -> str:
    return f"card_{k}"


def f_colour(k: int) -> tuple:
    return ("colour", card_id(k))


def f_rank(k: int) -> tuple:
    return ("rank", card_id(k))


def f_has_colour(k: int, colour: str) -> tuple:
    return ("has_colour", card_id(k), colour)


def f_has_rank(k: int, rank: int) -> tuple:
    return ("has_rank", card_id(k), str(rank))


def f_where(k: int) -> tuple:
    return ("where", card_id(k))


def f_firework(colour: str) -> tuple:
    return ("firework", colour)


def card_fluents(k: int) -> tuple:
    """Every identity fluent of a card (what seeing the card reveals)."""
    return ((f_colour(k), f_rank(k)) + tuple(f_has_colour(k, c) for c in COLOURS)
            + tuple(f_has_rank(k, r) for r in RANKS))


def _eff(f, v) -> Effect:
    return Effect(predicate=f[0], subject=f[1:], value=str(v))


def _card_effects(card: Card) -> list:
    out = [_eff(f_colour(card.id), card.colour), _eff(f_rank(card.id), card.rank)]
    out += [_eff(f_has_colour(card.id, c), "yes" if c == card.colour else "no") for c in COLOURS]
    out += [_eff(f_has_rank(card.id, r), "yes" if r == card.rank else "no") for r in RANKS]
    return out


def setup_events(cards, hands: dict, source: str) -> list:
    """The shuffled deck (seen by nobody), public fireworks and holders, each hand seen by the others
    (the players are the keys of ``hands``, in turn order)."""
    players = tuple(hands)
    effects = []
    for card in cards:
        effects += _card_effects(card)
    out = [Action(name="setup", effects=tuple(effects), visible_to=(), source=source)]
    public = [_eff(f_firework(c), 0) for c in COLOURS]
    holder = {k: p for p, hand in hands.items() for k in hand}
    public += [_eff(f_where(card.id), holder.get(card.id, "deck")) for card in cards]
    out.append(Action(name="deal", effects=tuple(public), visible_to=players, source=source))
    for p, hand in hands.items():
        out += seen_by_partner_events(p, hand, source, players)
    return out


def seen_by_partner_events(holder: str, card_ids, source: str, players=EVERYONE) -> list:
    """Cards entering ``holder``'s hand: the other players see them; everyone knows they do."""
    fluents = tuple(f for k in card_ids for f in card_fluents(k))
    if not fluents:
        return []
    others = tuple(p for p in players if p != holder)
    return [Observe(agents=others, fluents=fluents, witnesses=tuple(players), source=source)]


#: the public rules the checker reasons with (docs/logic.md, "Knowledge by elimination"): a card has one
#: colour and one rank, and ``has_colour(card, c)`` is ``yes`` exactly when its colour is c (likewise ranks)
CONSTRAINTS = [{"kind": "domain", "predicate": "colour", "values": list(COLOURS)},
               {"kind": "domain", "predicate": "rank", "values": [str(r) for r in RANKS]},
               {"kind": "indicator", "fluent": "colour", "indicator": "has_colour"},
               {"kind": "indicator", "fluent": "rank", "indicator": "has_rank"}]


def hint_events(giver: str, move, touched, untouched, negatives: dict, source: str, public: dict,
                players=EVERYONE, receiver: str | None = None) -> list:
    """A hint, seen by everyone: what it reveals about touched and untouched cards, and what the public hint
    history now entails (``negatives``: card -> the colours (ranks) hints have ruled out, after this one).
    ``public`` (the turn and the hands after the move) goes into the move's params, for question samplers."""
    is_colour = move.kind == "hint_colour"
    value = move.hint_value
    values = COLOURS if is_colour else RANKS
    f_value, f_has = (f_colour, f_has_colour) if is_colour else (f_rank, f_has_rank)
    fluents = []
    for k in touched:
        fluents.append(f_value(k))
        fluents += [f_has(k, v) for v in values]
    for k in untouched:
        fluents.append(f_has(k, value))
    params = {"player": giver, "kind": move.kind, "value": str(value), "touched": [card_id(k) for k in touched],
              "untouched": [card_id(k) for k in untouched], **public}
    if receiver is not None:
        params["receiver"] = receiver
    # the move's public action comes last: questions about the move are asked after its event
    return [Observe(agents=tuple(players), fluents=tuple(fluents), source=source),
            Action(name="hint", agent=giver, params=params, visible_to=tuple(players), source=source)]


def reveal_events(out, fireworks: dict, source: str, public: dict, players=EVERYONE) -> list:
    """A play or a discard: the card is shown to everyone; its new place and the fireworks are public."""
    card = out.card
    dest = "played" if out.success else "discarded"
    effects = [_eff(f_where(card.id), dest)]
    if out.success:
        effects.append(_eff(f_firework(card.colour), fireworks[card.colour]))
    if out.drawn is not None:
        effects.append(_eff(f_where(out.drawn.id), out.player))
    params = {"player": out.player, "kind": out.move.kind, "slot": out.move.index, "card": card_id(card.id),
              "success": out.success, **public}
    events = [Observe(agents=tuple(players), fluents=card_fluents(card.id), source=source)]
    if out.drawn is not None:
        events += seen_by_partner_events(out.player, [out.drawn.id], source, players)
    return events + [Action(name=out.move.kind, agent=out.player, params=params, effects=tuple(effects),
                            visible_to=tuple(players), source=source)]


__all__ = ["CONSTRAINTS", "EVERYONE", "card_id", "f_colour", "f_rank", "f_has_colour", "f_has_rank", "f_where", "f_firework",
           "card_fluents", "setup_events", "seen_by_partner_events", "hint_events", "reveal_events"]
