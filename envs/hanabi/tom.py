"""ToM questions about Hanabi card knowledge: sampling and wording; every answer is a checker query.

After every move the player who moved ("you") is asked the three levels about its partner X:

* introspection: "Do you know the colour of your card in slot 2?"            K(you) on a card in your hand
* first order:   "Does X know the colour of their card in slot 2?"           K(X) on a card in X's hand
* second order:  "Does X know that you know the colour of your card in slot 2?"  K(X, you) on your card

``K(chain, f)`` is :meth:`belief.truth.ground.GroundTruth.knows_chain` on the fluents of
:mod:`belief.envs.hanabi.events`: ``colour(card)``, ``rank(card)`` (template ``colour`` / ``rank``),
``has_colour(card, C)`` / ``has_rank(card, R)`` ("whether the card is red": ``is_colour`` / ``is_rank``).
Pure: the same trace gives the same questions and answers (the checker is run once per trace).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from typing import Optional

from belief.envs.base import labels as tom_labels
from belief.envs.base.labels import LabelledQuestion
from belief.envs.hanabi.events import f_colour, f_has_colour, f_has_rank, f_rank
from belief.envs.hanabi.rules import COLOURS, PLAYERS, RANKS
from belief.grading.levels import LEVELS, level_chain

TEMPLATES = ("colour", "rank", "is_colour", "is_rank")


@dataclass
class CardQuestion(LabelledQuestion):
    id: str
    t: int              # the trace event after which it is asked
    turn: int
    asked: str
    target: str
    level: str
    template: str
    card: int           # card id (the slot is how the question names it)
    slot: int
    value: str = ""     # the colour or rank of is_colour / is_rank
    text: str = ""
    answer: Optional[bool] = None


def question_fluent(template: str, card: int, value: str = "") -> tuple:
    if template == "colour":
        return f_colour(card)
    if template == "rank":
        return f_rank(card)
    if template == "is_colour":
        return f_has_colour(card, value)
    return f_has_rank(card, int(value))


def answer(truth, q, at: Optional[int] = None) -> bool:
    """The exact answer of a question (dict or CardQuestion) from a GroundTruth, global or private."""
    d = q if isinstance(q, dict) else asdict(q)
    fluent = question_fluent(d["template"], d["card"], d.get("value", ""))
    return truth.knows_chain(level_chain(d["level"], d["asked"], d["target"]), fluent, at)


def question_text(level: str, template: str, slot: int, target: str, value: str = "") -> str:
    x = target.capitalize()
    whose = "their" if level == "first_order" else "your"
    fact = {"colour": f"the colour of {whose} card in slot {slot}",
            "rank": f"the rank of {whose} card in slot {slot}",
            "is_colour": f"whether {whose} card in slot {slot} is {value}",
            "is_rank": f"whether {whose} card in slot {slot} is a {value}"}[template]
    if level == "introspection":
        return f"Do you know {fact}?"
    if level == "first_order":
        return f"Does {x} know {fact}?"
    return f"Does {x} know that you know {fact}?"


MOVE_ACTIONS = ("play", "discard", "hint")


def move_questions(ev, seed) -> list[CardQuestion]:
    """The three unanswered questions asked right after a move event (its params carry the turn, the mover
    and the hands after the move), for the mover about its partner."""
    p = ev.params
    asked, turn, hands = p["player"], int(p["turn"]), p["hands"]
    target = next(a for a in PLAYERS if a != asked)
    rng = random.Random(f"hanabi-tom:{seed}:{turn}")
    out = []
    for level in LEVELS:
        hand = hands[target if level == "first_order" else asked]
        if not hand:
            continue
        slot = rng.randrange(len(hand))
        template = rng.choice(TEMPLATES)
        value = ""
        if template == "is_colour":
            value = rng.choice(COLOURS)
        elif template == "is_rank":
            value = str(rng.choice(RANKS))
        out.append(CardQuestion(id=f"q{turn}-{level}", t=ev.t, turn=turn, asked=asked, target=target, level=level,
                                template=template, card=int(hand[slot]), slot=slot, value=value,
                                text=question_text(level, template, slot, target, value)))
    return out


def is_move(ev) -> bool:
    return ev.kind == "action" and ev.name in MOVE_ACTIONS and "turn" in ev.params


def label(trace, qs) -> list[CardQuestion]:
    """Fill in every question's exact answer from the global trace (one checker run)."""
    return tom_labels.label(trace, qs, "hanabi_v0", answer)


def questions(trace, seed=None) -> list[CardQuestion]:
    """Every ToM question of a hanabi_v0 trace with its exact answer (pure: same trace, same questions)."""
    seed = trace.meta.get("seed") if seed is None else seed
    return tom_labels.questions_of(trace, "hanabi_v0", is_move, lambda ev: move_questions(ev, seed), answer)


__all__ = ["CardQuestion", "LEVELS", "TEMPLATES", "answer", "label", "level_chain", "question_fluent",
           "question_text", "move_questions", "is_move", "questions"]
