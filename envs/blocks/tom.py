"""ToM questions about COBLOCK goals and inventories: sampling and wording; every answer is a checker query.

After every move the builder who moved ("you") is asked the three levels about a fact F and its partner X:
introspection "Do you know F?" (``K(you)``), first order "Does X know F?" (``K(X)``), second order "Does X
know that you know F?" (``K(X, you)``), where ``K`` is :meth:`belief.truth.ground.GroundTruth.knows_chain` on
F's fluent (:mod:`belief.envs.blocks.events`). F is drawn by seed among

* ``target``: the colour a goal wants in a goal cell (``target(cell)``), of either builder's goal;
* ``inventory``: how many blocks of a colour a builder holds (``inventory(agent, colour)``).

Pure: the same trace gives the same questions and answers (one checker run per trace).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from typing import Optional

from belief.envs.base import labels as tom_labels
from belief.envs.base.labels import LabelledQuestion
from belief.envs.blocks.events import f_inventory, f_target
from belief.envs.blocks.world import AGENTS, COLOURS, cell_text
from belief.grading.levels import LEVELS, level_chain

TEMPLATES = ("target", "inventory")


@dataclass
class BlocksQuestion(LabelledQuestion):
    id: str
    t: int
    turn: int
    asked: str
    target: str
    level: str
    template: str
    subject: list        # [x, y, z] for target, [agent, colour] for inventory
    text: str = ""
    answer: Optional[bool] = None


def question_fluent(template: str, subject) -> tuple:
    return f_target(tuple(subject)) if template == "target" else f_inventory(subject[0], subject[1])


def answer(truth, q, at: Optional[int] = None) -> bool:
    """The exact answer of a question (dict or BlocksQuestion) from a GroundTruth, global or private."""
    d = q if isinstance(q, dict) else asdict(q)
    return truth.knows_chain(level_chain(d["level"], d["asked"], d["target"]),
                             question_fluent(d["template"], d["subject"]), at)


def fact_words(template: str, subject, asked: str) -> str:
    if template == "target":
        return f"which colour the goal wants at {cell_text(tuple(subject))}"
    who = "you hold" if subject[0] == asked else f"{subject[0].capitalize()} holds"
    return f"how many {subject[1]} blocks {who}"


def question_text(level: str, template: str, subject, asked: str, target: str) -> str:
    fact = fact_words(template, subject, asked)
    x = target.capitalize()
    if level == "introspection":
        return f"Do you know {fact}?"
    if level == "first_order":
        return f"Does {x} know {fact}?"
    return f"Does {x} know that you know {fact}?"


def is_move(ev) -> bool:
    return ev.kind == "action" and ev.agent is not None and "turn" in ev.params and "player" in ev.params


def move_questions(ev, meta: dict, seed) -> list[BlocksQuestion]:
    """The three unanswered questions asked right after a move event, for the mover about its partner."""
    p = ev.params
    asked, turn = p["player"], int(p["turn"])
    target = next(a for a in AGENTS if a != asked)
    rng = random.Random(f"coblock-tom:{seed}:{turn}")
    cells = sorted(tuple(g[:3]) for goal in meta["task"]["goals"].values() for g in goal)
    if rng.random() < 0.6:
        template, subject = "target", list(rng.choice(cells))
    else:
        template, subject = "inventory", [rng.choice(AGENTS), rng.choice(COLOURS)]
    return [BlocksQuestion(id=f"q{turn}-{level}", t=ev.t, turn=turn, asked=asked, target=target, level=level,
                           template=template, subject=subject,
                           text=question_text(level, template, subject, asked, target)) for level in LEVELS]


def label(trace, qs) -> list[BlocksQuestion]:
    """Fill in every question's exact answer from the global trace (one checker run)."""
    return tom_labels.label(trace, qs, "blocks_v0", answer)


def questions(trace, seed=None) -> list[BlocksQuestion]:
    """Every ToM question of a blocks_v0 trace with its exact answer."""
    seed = trace.meta.get("seed") if seed is None else seed
    return tom_labels.questions_of(trace, "blocks_v0", is_move,
                                   lambda ev: move_questions(ev, trace.meta, seed), answer)


__all__ = ["BlocksQuestion", "LEVELS", "TEMPLATES", "answer", "level_chain", "question_fluent", "question_text",
           "is_move", "move_questions", "label", "questions"]
