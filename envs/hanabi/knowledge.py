"""What the hints say about each card: its possible colours and ranks, read from the trace's hint events.

Hints are public, and nobody sees their own cards, so what a player knows about a card in its own hand
(before card counting) is exactly what the hints say: the hinted value for a touched card (positive
information), every other value minus the hinted one for an untouched card (negative information). That
is what the Hanabi Learning Environment's ``card_knowledge()`` reports, and what the checker holds for the
per-value fluents ``has_colour``/``has_rank`` (:mod:`belief.envs.hanabi.events`).

:func:`possible_from_hints` is the one place that computes it, from the ``hint`` actions of a trace
(global or private: the action and its params are public). The incremental form, :class:`HintKnowledge`,
folds one hint event at a time (:meth:`HintKnowledge.apply_hint`) for agents that read the trace as it grows.
"""

from __future__ import annotations

from belief.envs.hanabi.world import COLOURS, RANKS

ALL_COLOURS = frozenset(COLOURS)
ALL_RANKS = frozenset(RANKS)


def card_number(name) -> int:
    """``card_12`` (or 12) -> 12."""
    return int(str(name).rsplit("_", 1)[-1])


def is_hint_event(ev) -> bool:
    return getattr(ev, "kind", None) == "action" and getattr(ev, "name", None) == "hint" and "touched" in ev.params


class HintKnowledge:
    """card id -> (possible colours, possible ranks) from the hints seen so far (cards never hinted are absent:
    everything is possible)."""

    def __init__(self):
        self.colours: dict[int, frozenset] = {}
        self.ranks: dict[int, frozenset] = {}

    def apply_hint(self, params: dict) -> None:
        """Fold one hint (the params of a ``hint`` action: kind, value, touched, untouched)."""
        is_colour = params["kind"] == "hint_colour"
        value = params["value"] if is_colour else int(params["value"])
        table, everything = (self.colours, ALL_COLOURS) if is_colour else (self.ranks, ALL_RANKS)
        for k in map(card_number, params["touched"]):
            table[k] = frozenset({value})
        for k in map(card_number, params.get("untouched", ())):
            table[k] = table.get(k, everything) - {value}

    def possible(self, card: int) -> tuple[frozenset, frozenset]:
        return self.colours.get(card, ALL_COLOURS), self.ranks.get(card, ALL_RANKS)

    def ruled_out(self, card: int, is_colour: bool) -> set:
        """The colours (ranks) hints have ruled out for ``card``."""
        colours, ranks = self.possible(card)
        return set(ALL_COLOURS - colours) if is_colour else set(ALL_RANKS - ranks)


def possible_from_hints(events) -> HintKnowledge:
    """Every card's possible colours and ranks after the hint events among ``events`` (a trace or a list),
    positive and negative information both."""
    out = HintKnowledge()
    for ev in events:
        if is_hint_event(ev):
            out.apply_hint(ev.params)
    return out


__all__ = ["HintKnowledge", "possible_from_hints", "is_hint_event", "card_number", "ALL_COLOURS", "ALL_RANKS"]
