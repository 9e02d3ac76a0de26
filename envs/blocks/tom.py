"""ToM questions about COBLOCK goals and inventories: sampling and wording; every answer is a checker query.

After every move the builder who moved ("you") is asked about a fact F and its partner X: introspection
"Do you know F?" (``K(you)``), first order "Does X know F?" (``K(X)``), and two second-order questions, "Does X
know that you know F?" (``K(X, you)``, form ``x_knows_you_know``) and "Do you know that X knows F?"
(``K(you, X)``, form ``you_know_x_knows``), where ``K`` is
:meth:`belief.truth.ground.GroundTruth.knows_chain` on F's fluent (:mod:`belief.envs.blocks.events`).
F is drawn by seed among

* ``target``: the colour a goal wants in a goal cell (``target(cell)``), of either builder's goal;
* ``inventory``: how many blocks of a colour a builder holds (``inventory(agent, colour)``).

Pure: the same trace gives the same questions and answers (one checker run per trace).

The **selected set** (:class:`SelectedSet`, the ToM table of ``belief bench blocks``) is the kernel's selector
(:mod:`belief.grading.selector`) on this world's cells: after every move, "Does X know F?" and "Is X aware that
Y knows [that ...] F?" (chains of 1 to 4 builders, never the mover alone) on every goal cell's target colour
and every builder's count of every colour, asked of the mover, kept where the gold differs from a shortcut of
the panel (and this world's own ``own_or_told``: :func:`own_or_told_answer`) or shows a named phenomenon, and
balanced per template (``knows/target``, ``knows/inventory``, ``aware/target``, ``aware/inventory``) once the
episode is over.

In this world every move is public and every private look is witnessed, so ``K(X, you)`` equals
``K(you)`` by construction (the first form answers exactly as introspection does); ``K(you, X)`` does not.
Two trivial answerers are scored beside every answer (:func:`trivial_answers`): ``as_self`` (answer about
yourself: ``K(you)``) and ``public_record`` (the chain's last agent knows F when F is its own goal cell or
count, or F was said in a message to it).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from typing import Optional

from belief.envs.base import labels as tom_labels
from belief.envs.base.labels import X_KNOWS_YOU_KNOW, TurnQuestion, knowledge_question
from belief.envs.blocks.events import f_inventory, f_target
from belief.envs.base.selected import SelectedQuestion, SelectedStream
from belief.envs.blocks.world import rules_of
from belief.envs.blocks.world import AGENTS, cell_text
from belief.grading.levels import LEVELS, level_chain
from belief.grading.render import Phrasing, render
from belief.grading.selector import Cell, Limits, chains
from belief.truth.tracker import Tracker

TEMPLATES = ("target", "inventory")
#: the two second-order forms: X knows that you know F, you know that X knows F
FORMS = ("x_knows_you_know", "you_know_x_knows")


@dataclass
class BlocksQuestion(TurnQuestion):
    subject: list        # [x, y, z] for target, [agent, colour] for inventory
    text: str = ""
    answer: Optional[bool] = None
    form: str = ""       # second order: one of FORMS
    chain: list = None   # the belief chain asked about (derived from level and form when None)

    @property
    def type(self) -> str:
        """The question's type in ToM tables: level, second-order form, template."""
        return "/".join(x for x in (self.level, self.form, self.template) if x)


def question_fluent(template: str, subject) -> tuple:
    return f_target(tuple(subject)) if template == "target" else f_inventory(subject[0], subject[1])


def chain_of(d: dict) -> tuple:
    if d.get("chain"):
        return tuple(d["chain"])
    if d.get("form") == "you_know_x_knows":
        return (d["asked"], d["target"])
    return level_chain(d["level"], d["asked"], d["target"])


def answer(truth, q, at: Optional[int] = None) -> bool:
    """The exact answer of a question (dict or BlocksQuestion) from a GroundTruth, global or private."""
    d = q if isinstance(q, dict) else asdict(q)
    return truth.knows_chain(chain_of(d), question_fluent(d["template"], d["subject"]), at)


def fact_words(template: str, subject, asked: str) -> str:
    if template == "target":
        return f"which colour the goal wants at {cell_text(tuple(subject))}"
    who = "you hold" if subject[0] == asked else f"{subject[0].capitalize()} holds"
    return f"how many {subject[1]} blocks {who}"


def question_text(level: str, template: str, subject, asked: str, target: str, form: str = "") -> str:
    second_order = "Do you know that {x} knows {fact}?" if form == "you_know_x_knows" else X_KNOWS_YOU_KNOW
    return knowledge_question(level, fact_words(template, subject, asked), target, second_order)


def is_move(ev) -> bool:
    return ev.kind == "action" and ev.agent is not None and "turn" in ev.params and "player" in ev.params


def move_questions(ev, meta: dict, seed) -> list[BlocksQuestion]:
    """The three unanswered questions asked right after a move event, for the mover about its partner."""
    p = ev.params
    asked, turn = p["player"], int(p["turn"])
    target = next(a for a in AGENTS if a != asked)
    rng = random.Random(f"coblock-tom:{seed}:{turn}")
    cells = sorted(tuple(g[:3]) for goal in meta["task"]["goals"].values() for g in goal)
    colours = rules_of(meta["task"].get("rules", "project")).colours
    if rng.random() < 0.6:
        template, subject = "target", list(rng.choice(cells))
    else:
        template, subject = "inventory", [rng.choice(AGENTS), rng.choice(colours)]
    kinds = [(level, "") for level in LEVELS if level != "second_order"] + [("second_order", f) for f in FORMS]
    out = []
    for level, form in kinds:
        d = {"level": level, "form": form, "asked": asked, "target": target}
        out.append(BlocksQuestion(id=f"q{turn}-{level}" + (f"-{form}" if form else ""), t=ev.t, turn=turn,
                                  asked=asked, target=target, level=level, template=template, subject=subject,
                                  text=question_text(level, template, subject, asked, target, form), form=form,
                                  chain=list(chain_of(d))))
    return out


def fact_owner(meta: dict, template: str, subject) -> str:
    """Whose private fact F is: the goal's owner for a target cell, the holder for a count."""
    if template == "inventory":
        return subject[0]
    cell = list(subject)
    return next(a for a, goal in meta["task"]["goals"].items() if any(list(g[:3]) == cell for g in goal))


def said_to(trace, agent: str, fluent: tuple, before: int) -> bool:
    """Was ``fluent`` in a message to ``agent`` before event ``before``?"""
    for ev in trace:
        if ev.t is not None and ev.t >= before:
            break
        if ev.kind == "announce" and agent in ev.audience and any(
                (c.predicate, *c.subject) == fluent for c in ev.content):
            return True
    return False


def trivial_answers(trace, truth, q) -> dict:
    """The two trivial answers of a question: ``as_self`` (``K(you)`` from the global truth) and
    ``public_record`` (F is the chain's last agent's own fact or was said to it)."""
    d = q if isinstance(q, dict) else asdict(q)
    fluent = question_fluent(d["template"], d["subject"])
    inner = chain_of(d)[-1]
    record = fact_owner(trace.meta, d["template"], d["subject"]) == inner or said_to(trace, inner, fluent, d["t"])
    return {"as_self": truth.knows_chain((d["asked"],), fluent, d["t"]), "public_record": record}


def label(trace, qs) -> list[BlocksQuestion]:
    """Fill in every question's exact answer from the global trace (one checker run)."""
    return tom_labels.label(trace, qs, "blocks_v0", answer)


def questions(trace, seed=None) -> list[BlocksQuestion]:
    """Every ToM question of a blocks_v0 trace with its exact answer."""
    seed = trace.meta.get("seed") if seed is None else seed
    return tom_labels.questions_of(trace, "blocks_v0", is_move,
                                   lambda ev: move_questions(ev, trace.meta, seed), answer)


#: the deepest chain of the selected questions
DEPTH = 4
#: the selected set's balance: two questions per template and move, from 32 cells examined
LIMITS = Limits(per_time=2, examined=32)


def own_or_told_answer(trace):
    """This world's own shortcut (``own_or_told``): "does X (know that Y knows ...) F?" is yes iff F is the
    chain's last builder's own fact (its goal cell, its count) or was said to it in a message before the
    question; the rule a reader of who owns what and who was told what applies, without modelling anyone's
    observations. ``trace`` is the global trace (it may still grow)."""
    def answer(q) -> str:
        assert q.fluent is not None
        pred, last = q.fluent[0], q.chain[-1]
        if pred == "inventory":
            owner = q.fluent[1]
        else:
            cell = [int(x) for x in q.fluent[1].split("_")[1:]]
            owner = next((a for a, goal in trace.meta["task"]["goals"].items()
                          if any(list(g[:3]) == cell for g in goal)), None)
        at = len(trace) if q.time == "end" else int(q.time) + 1
        return "yes" if owner == last or said_to(trace, last, tuple(q.fluent), at) else "no"
    return answer


def selected_template(cell: Cell) -> str:
    """``knows/target``, ``knows/inventory`` (a chain of one builder), ``aware/target``, ``aware/inventory``."""
    return f"{'knows' if len(cell.chain) == 1 else 'aware'}/{cell.fluent[0]}"


def _cell_of(name: str) -> tuple:
    return tuple(int(x) for x in name.split("_")[1:])


def phrasing() -> Phrasing:
    """The builders' names and the facts of this world ("which colour the goal wants at (x, y, z)", "how many
    red blocks Bob holds", "you hold" when asked of that builder)."""
    def fact_for(you):
        def fact(fluent: tuple, values) -> str:
            if fluent[0] == "target":
                return f"which colour the goal wants at {cell_text(_cell_of(fluent[1]))}"
            return fact_words("inventory", [fluent[1], fluent[2]], you or "")
        return fact

    return Phrasing(fact=fact_for(None), special=lambda q: render(q, Phrasing(fact=fact_for(q.agent))))


class SelectedSet:
    """The selected set of a blocks_v0 trace, fed one event at a time (the runner asks the builders as the
    episode goes): ``feed(event)`` returns the questions picked after a move, :meth:`kept` the ids the balance
    keeps once it is over. Pure: the same trace gives the same questions."""

    def __init__(self, meta: dict, seed=None):
        self.seed = meta.get("seed") if seed is None else seed
        task = meta["task"]
        self.cells = sorted(tuple(g[:3]) for goal in task["goals"].values() for g in goal)
        self.colours = rules_of(task.get("rules", "project")).colours
        tracker = Tracker(meta=meta)  # the global trace so far, which the world's own shortcut reads too
        self.stream = SelectedStream(meta, seed=f"blocks:{self.seed}", limits=LIMITS, template=selected_template,
                                     extra={"own_or_told": own_or_told_answer(tracker.trace)}, tracker=tracker)
        self.words = phrasing()

    def feed(self, ev) -> list[SelectedQuestion]:
        ev = self.stream.feed(ev)
        if not is_move(ev):
            return []
        asked, turn = ev.params["player"], int(ev.params["turn"])
        fluents = [f_target(c) for c in self.cells] + [f_inventory(a, col) for a in AGENTS for col in self.colours]
        cells = [Cell(ev.t, "knows" if len(c) == 1 else "aware", c, f, agent=asked)
                 for c in chains(AGENTS, DEPTH) if c != (asked,) for f in fluents]
        return self.stream.ask(cells, turn, asked, self.words, id_prefix="s")

    def kept(self) -> set:
        return self.stream.kept()


__all__ = ["SelectedSet", "selected_template", "phrasing", "own_or_told_answer", "BlocksQuestion", "FORMS", "LEVELS", "TEMPLATES", "answer", "chain_of", "level_chain", "question_fluent",
           "question_text", "is_move", "move_questions", "label", "questions", "fact_owner", "said_to",
           "trivial_answers"]
