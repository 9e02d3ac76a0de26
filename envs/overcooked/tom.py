"""ToM questions of overcooked_v0: sampling and wording here, every belief answer from the checker
(:func:`belief.truth.checker.check` on the global trace), the intent answer from the partner's actual plan.

At a question moment (time ``t`` of the trace) chef A is asked about its partner B:

==================  ========================================================  ======================================
type                question                                                  gold
==================  ========================================================  ======================================
``pot_belief``      What does B believe is in pot X?                          B's value of ``pot(X)`` at t
                                                                              (``unknown`` if never seen)
``knows_ready``     (only when pot X is ready) Does B know the soup in pot X  ``yes`` iff B's value of ``pot(X)``
                    is ready?                                                 is ``ready``
``partner_intent``  What does B intend to do next?                            ``intent(B)`` at t: the subgoal B's
                                                                              own plan pursues
==================  ========================================================  ======================================

Under full view a chef's belief about a pot is the pot's real content, so the trivial ``public_record``
answerer (the real content; ``yes``) gets the two pot types right: :func:`belief.grading.trivial.tom_table`
flags them, and they measure ToM only under a partial view (``fov``), where out-of-sight pots go stale.
The ``as_self`` answerer says B intends what A intends.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Optional

from belief.envs.base.labels import LabelledQuestion, label
from belief.envs.overcooked.events import CHEFS, SUBGOALS, cell, f_intent, f_pot, pot_value

TYPES = ("pot_belief", "knows_ready", "partner_intent")
POT_VALUES = ("empty", "onions_1", "onions_2", "onions_3", "cooking", "ready", "unknown")


@dataclass
class Question(LabelledQuestion):
    id: str
    t: int               # the trace index the question is about (after that event)
    type: str
    asked: str
    target: str
    subject: str         # the pot (``pot_x_y``) or ""
    text: str
    options: list = field(default_factory=list)
    answer: Optional[str] = None


def pot_answer(question: dict, truth, chain: tuple, at: Optional[int] = None) -> str:
    """The answer to a ``pot_belief`` / ``knows_ready`` question from ``truth`` (global or private) for the
    chain whose belief is asked (``(B,)`` on the global trace, ``(A, B)`` on A's private one)."""
    fluent = ("pot", question["subject"])
    v = truth.value(chain, fluent, at)
    v = v if isinstance(v, str) and v in POT_VALUES else "unknown"
    if question["type"] == "knows_ready":
        return "yes" if v == "ready" else "no"
    return v


def questions_at(env, t: int, rng: random.Random, prefix: str) -> list:
    """The questions of one moment: for each chef about its partner, one pot question per pot (a
    ``knows_ready`` one for a ready pot), and the partner's intent when it has declared one."""
    out = []
    for asked in CHEFS:
        target = CHEFS[1 - CHEFS.index(asked)]
        pots = env.mdp.get_pot_locations()
        pot = pots[rng.randrange(len(pots))]
        name = f_pot(pot)[1]
        if pot_value(env.state, pot) == "ready":
            out.append(Question(f"{prefix}-{asked}-ready", t, "knows_ready", asked, target, name,
                                f"Does {target.capitalize()} know that the soup in the pot at {cell(pot)} is ready?",
                                ["yes", "no"]))
        out.append(Question(f"{prefix}-{asked}-pot", t, "pot_belief", asked, target, name,
                            f"What does {target.capitalize()} believe is in the pot at {cell(pot)}?",
                            list(POT_VALUES)))
        if target in env.intents:
            out.append(Question(f"{prefix}-{asked}-intent", t, "partner_intent", asked, target, "",
                                f"What does {target.capitalize()} intend to do next?", list(SUBGOALS)))
    return out


def gold(truth, q: Question, t: int) -> str:
    if q.type == "partner_intent":
        return truth.reality(f_intent(q.target), t) or "unknown"
    return pot_answer(q.public(), truth, (q.target,), t)


def label_questions(trace, qs) -> list:
    """Fill in every question's gold from one checker run over the global trace."""
    return label(trace, qs, "overcooked_v0", gold)


def trivial_answers(truth, q: Question) -> dict:
    """The shortcuts scored beside every answerer: ``public_record`` (the pot's real content; ``yes`` it is
    ready) and ``as_self`` (the partner intends what the asked chef intends)."""
    if q.type == "partner_intent":
        return {"as_self": truth.reality(f_intent(q.asked), q.t) or "unknown"}
    real = truth.reality(("pot", q.subject), q.t) or "unknown"
    return {"public_record": "yes" if q.type == "knows_ready" else real}


__all__ = ["Question", "TYPES", "POT_VALUES", "pot_answer", "questions_at", "gold", "label_questions",
           "trivial_answers"]
