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
from belief.envs.base.selected import StepSelection
from belief.grading.render import Phrasing, render
from belief.grading.selector import Cell, Limits
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


def grading_question(q: Question):
    """``q`` in the general question model (:class:`belief.grading.questions.Question`), for the episode's
    questions file: ``pot_belief`` is a ``value`` question on the partner's chain, ``knows_ready`` a ``knows``
    question that the pot holds ``ready`` (asked only when it does, so "knows" is "believes it is ready"), and
    ``partner_intent`` a ``given`` choice whose gold is the partner's declared plan (the checker does not answer
    it: no chef observes another's plan)."""
    from belief.grading.questions import Question as GeneralQuestion

    common = dict(id=q.id, chain=(q.target,), time=q.t, template=q.type, agent=q.asked, text=q.text,
                  level="first_order")
    if q.type == "pot_belief":
        return GeneralQuestion(kind="value", fluent=("pot", q.subject), choices=POT_VALUES, **common)
    if q.type == "knows_ready":
        return GeneralQuestion(kind="knows", fluent=("pot", q.subject), values=("ready",), **common)
    if q.answer is None:
        raise ValueError(f"question {q.id}: label the questions (label_questions) before writing them")
    return GeneralQuestion(kind="given", fluent=None, gold=(q.answer,), answer_type="choice",
                           choices=tuple(dict.fromkeys((*SUBGOALS, q.answer))), **common)


def trivial_answers(truth, q: Question) -> dict:
    """The shortcuts scored beside every answerer: ``public_record`` (the pot's real content; ``yes`` it is
    ready) and ``as_self`` (the partner intends what the asked chef intends)."""
    if q.type == "partner_intent":
        return {"as_self": truth.reality(f_intent(q.asked), q.t) or "unknown"}
    real = truth.reality(("pot", q.subject), q.t) or "unknown"
    return {"public_record": "yes" if q.type == "knows_ready" else real}


#: the selected set's balance: per question moment, chef and template at most two questions, from 48 examined
SELECTED_LIMITS = Limits(per_time=2, examined=48)
SELECTED_DEPTH = 4


def selected_template(cell: Cell) -> str:
    """``knows/<predicate>`` (the partner alone) or ``aware/<predicate>`` (chains of two to four)."""
    return f"{'knows' if len(cell.chain) == 1 else 'aware'}/{cell.fluent[0]}"


def _where(name: str) -> str:
    x, y = name.split("_")[-2:]
    return f"({x}, {y})"


def selected_phrasing() -> Phrasing:
    """Chefs by name, facts: "what is in the pot at (2, 0)", "where Bob is", "what you hold", "what Bob intends
    to do next", "what is on the counter at (1, 3)", "which orders are open", "how many soups were served"."""
    def fact_for(you):
        def fact(fluent: tuple, values) -> str:
            pred, subject = fluent[0], fluent[1]
            who = "you" if subject == you else subject.capitalize()
            if pred == "pot":
                return f"what is in the pot at {_where(subject)}"
            if pred == "counter":
                return f"what is on the counter at {_where(subject)}"
            if pred == "at":
                return f"where {who} {'are' if subject == you else 'is'}"
            if pred == "holds":
                return f"what {who} {'hold' if subject == you else 'holds'}"
            if pred == "intent":
                return f"what {who} {'intend' if subject == you else 'intends'} to do next"
            if pred == "orders":
                return "which orders are open"
            if pred == "delivered":
                return "how many soups have been served"
            return f"the {pred} of {subject}"
        return fact

    return Phrasing(fact=fact_for(None), special=lambda q: render(q, Phrasing(fact=fact_for(q.agent))))


def selected_set(meta: dict, seed) -> StepSelection:
    """The selected set of one episode (:class:`belief.envs.base.selected.StepSelection`): at each question
    moment each chef is asked "Does <partner> know F?" and "Are you aware that <partner> knows [that ...] F?"
    on every fluent of the trace so far but the intents (pots, counters, where the chefs are and what they hold;
    a chef's intent is the runner's record of its plan, which its partner never observes: the
    ``partner_intent`` questions ask about it),
    kept where the gold differs from a shortcut of the kernel's panel or shows a named phenomenon, balanced per
    template once the episode is over."""
    return StepSelection(meta, seed=f"overcooked:{meta.get('layout')}:{seed}", agents=CHEFS,
                         phrasing=selected_phrasing(), template=selected_template, limits=SELECTED_LIMITS,
                         depth=SELECTED_DEPTH, fluents=lambda f: f[0] != "intent")


__all__ = ["selected_set", "selected_template", "selected_phrasing", "Question", "TYPES", "POT_VALUES", "pot_answer", "questions_at", "gold", "label_questions",
           "grading_question", "trivial_answers"]
