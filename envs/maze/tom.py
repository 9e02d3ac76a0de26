"""The selected ToM questions of CollabCapture / CollabEscape (:mod:`belief.grading.selector`), asked as the
episode goes.

At the end of every step of a player (its move or press and what follows), for each active player ("you"; the one
who acted first), the selector is offered "Does <partner> know F?" and "Are you aware that <partner> knows [that
you know ...] F?" (chains of 1 to 4 players, the first order about the partner, the deeper ones beginning with the
asked player) on every fluent of the trace so far: where each
player and the adversary are, each door's state, the generator's repairs, the gate. It keeps the cells where
the gold differs from a shortcut of the kernel's panel (reality, as_self, depth collapse, the public record)
or shows a named phenomenon, balanced per template (``knows/<topic>``, ``aware/<topic>``: the adversary's room, a player's, a door...) once the
episode is over (:meth:`SelectedSet.kept`). Under the source's rules everything is in view, so the set is
(nearly) empty; under the project's (partial view) players miss moves, presses and sightings.

Pure: the same trace gives the same questions (seeded order, no clock).
"""

from __future__ import annotations

from belief.envs.base.selected import StepSelection
from belief.grading.render import Phrasing, render
from belief.grading.selector import Cell, Limits

#: the deepest chain of the selected questions
DEPTH = 4
#: the balance: per move and template at most two questions, from 48 cells examined
LIMITS = Limits(per_time=2, examined=48)

_SUBJECTS = {"at": "where", "door": "whether", "repairs": "how many repairs", "gate": "whether",
             "status": "the status of"}


def topic(fluent: tuple, players: tuple[str, ...]) -> str:
    """What a fluent is about: ``adversary`` / ``player`` (where it is), else its predicate (``door``, ...)."""
    if fluent[0] == "at":
        return "player" if fluent[1] in players else "adversary"
    return fluent[0]


def template_for(players: tuple[str, ...]):
    """The template of a cell: ``knows/<topic>`` (the partner alone) or ``aware/<topic>`` (chains of two to
    four), :func:`topic` of its fluent."""
    def template(cell: Cell) -> str:
        return f"{'knows' if len(cell.chain) == 1 else 'aware'}/{topic(cell.fluent, players)}"
    return template


def _plain(name: str) -> str:
    return name.replace("_", " ")


def phrasing(players: tuple[str, ...]) -> Phrasing:
    """Players by name ("Alice"), facts: "where the killer is", "whether door 3 is open", "how many repairs the
    generator still needs", ... ("you are" when the fact is where the asked player is)."""
    def fact_for(you):
        def fact(fluent: tuple, values) -> str:
            pred, subject = fluent[0], _plain(fluent[1])
            if pred == "at":
                who = "you are" if fluent[1] == you else (
                    f"{subject.capitalize()} is" if fluent[1] in players else f"the {subject} is")
                return f"where {who}"
            if pred == "door":
                return f"whether {subject} is open"
            if pred == "repairs":
                return f"how many repairs the {subject} has had"
            if pred == "gate":
                return f"whether the {subject} gate is open"
            return f"the {pred} of {subject}"
        return fact

    return Phrasing(fact=fact_for(None), special=lambda q: render(q, Phrasing(fact=fact_for(q.agent))))


#: the panel's optional shortcut the maze worlds add: the world as it first was (a player who has not moved is
#: where it started, and "aware that X knows where X is" is often asked before anyone moved; without it the
#: selected ``aware/player`` questions of capture were answered 0.653 right by it, 100 episodes)
EXTRA_SHORTCUTS = {"first_value": "first_value"}


def selected_set(meta: dict, seed, players: tuple[str, ...]) -> StepSelection:
    """The selected set of one maze episode (see the module docstring): ``feed`` it every event of the global
    trace, ``ask(player)`` for every active player at the end of each step, ``kept()`` once the episode is over."""
    return StepSelection(meta, seed=f"maze:{meta.get('env')}:{seed}", agents=players, phrasing=phrasing(players),
                         template=template_for(players), limits=LIMITS, depth=DEPTH, extra=EXTRA_SHORTCUTS)


__all__ = ["selected_set", "EXTRA_SHORTCUTS", "template_for", "topic", "phrasing", "LIMITS", "DEPTH"]
