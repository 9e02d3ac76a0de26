"""Ruling out: what the players learn about hands from public events, written as observations. THE place to
switch to the checker's world constraints (possible-value sets, "each card is in exactly one hand") once it
has them: every function here states, per card, what the event lets someone exclude.

* :func:`play_events` - a play is public: the cards leave the player's hand (``holds = no``), and everyone
  sees that no player holds them.
* :func:`tribute_events` - a tribute card is shown to everyone as it changes hands; a returned card is seen
  by the two players only, and the other two know that some card of the giver's may now be the receiver's
  (a ``possible`` event over those holdings).
* :func:`pass_events` - a pass is informative only under the stated play policy ``must_beat`` ("a player
  passes only when nothing beats the table", enforced by the deal): passing on a single shows that the
  player holds no card whose single would beat it (every higher rank, wild hearts and jokers included). Under
  the rules' free passing a pass rules nothing out and this writes nothing. Passes on other combinations rule
  out no single card, so they write nothing either.
"""

from __future__ import annotations

from belief.envs.guandan.cards import DECK_SIZE, face, face_order
from belief.envs.guandan.combinations import Move
from belief.envs.guandan.events import EVERYONE, PLAYERS, effect, f_holds
from belief.truth.trace import Action, Observe, Possible


def play_events(player: str, move: Move, cards, source: str, params: dict) -> list:
    """A public play (``params`` go into the action for question samplers) and what it rules out."""
    effects = tuple(effect(f_holds(k, player), "no") for k in cards)
    out = []
    if cards:  # everyone sees where the cards were; the move's public action comes last (questions follow it)
        out.append(Observe(agents=EVERYONE, fluents=tuple(f_holds(k, q) for k in cards for q in PLAYERS),
                           source=source))
    out.append(Action(name="play", agent=player, params=params, effects=effects, visible_to=EVERYONE, source=source))
    return out


def tribute_events(giver: str, receiver: str, card: int, kind: str, located: set, source: str) -> list:
    """A tribute (public) or a return (seen by the two); ``located``: the cards everyone already places."""
    effects = (effect(f_holds(card, giver), "no"), effect(f_holds(card, receiver), "yes"))
    params = {"giver": giver, "receiver": receiver, "kind": kind}
    if kind == "tribute":
        params["card"] = card
        return [Action(name="tribute", agent=giver, params=params, effects=effects, visible_to=EVERYONE,
                       source=source),
                Observe(agents=EVERYONE, fluents=tuple(f_holds(card, q) for q in PLAYERS), source=source)]
    pair = (giver, receiver)
    others = tuple(p for p in PLAYERS if p not in pair)
    unsure = tuple(f for k in range(DECK_SIZE) if k not in located for f in (f_holds(k, giver), f_holds(k, receiver)))
    out = [Action(name="return_tribute", agent=giver, params=params, effects=effects, visible_to=pair, source=source),
           Observe(agents=pair, fluents=tuple(f_holds(card, q) for q in PLAYERS), source=source)]
    if unsure:
        out.append(Possible(agent=giver, observers=others, fluents=unsure, source=source))
    return out


def pass_events(player: str, table: Move | None, level: int, unplayed, pass_rule: str, source: str,
                params: dict) -> list:
    """A public pass, and under ``must_beat`` on a single what it rules out (see the module doc)."""
    out = [Action(name="pass", agent=player, params=params, visible_to=EVERYONE, source=source)]
    if pass_rule != "must_beat" or table is None or table.kind != "single":
        return out
    beaters = tuple(f_holds(k, player) for k in sorted(unplayed) if face_order(face(k), level) > table.key)
    if beaters:
        out.append(Observe(agents=EVERYONE, fluents=beaters, source=source))
    return out


__all__ = ["pass_events", "play_events", "tribute_events"]
