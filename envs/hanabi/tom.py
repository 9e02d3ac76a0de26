"""ToM questions about Hanabi card knowledge: sampling and wording; every answer is a checker query.

After every move the player who moved ("you") is asked the three levels about the next player X
(:func:`questions`, the per-level accuracy of ``belief run hanabi``):

* introspection: "Do you know the colour of your card in slot 2?"            K(you) on a card in your hand
* first order:   "Does X know the colour of their card in slot 2?"           K(X) on a card in X's hand
* second order:  "Does X know that you know the colour of your card in slot 2?"  K(X, you) on your card

``K(chain, f)`` is :meth:`belief.truth.ground.GroundTruth.knows_chain` on the fluents of
:mod:`belief.envs.hanabi.events`: ``colour(card)``, ``rank(card)`` (template ``colour`` / ``rank``),
``has_colour(card, C)`` / ``has_rank(card, R)`` ("whether the card is red": ``is_colour`` / ``is_rank``).
Pure: the same trace gives the same questions and answers (the checker is run once per trace).

Those three levels are answered 100% by reading the public hint record. The **selected set**
(:class:`SelectedSet`, the ToM table of ``belief bench hanabi``) asks where ToM is needed
(:mod:`belief.grading.selector`): after every move, cells "Does X know the colour (rank) of <card>?" and "Is X
aware that Y knows [that ...] ...?" (chains of 1 to 4 players, not the mover alone) on every card in a hand,
kept where the gold differs from a shortcut of the panel (:mod:`belief.grading.shortcuts`) or shows a named
phenomenon, balanced per template (``knows/colour``, ``knows/rank``, ``aware/colour``, ``aware/rank``) once
the game is over. The cards are chosen by the checker and the panel only, never by the hint bookkeeping.
Hanabi registers its own shortcut (:func:`hint_record_answer`, ``hint_record``): the public hint record with
its negative hints, read literally (a card's colour is known iff the hints leave one colour).

Every question is one question of the general model (:func:`card_question`: chain, fluent), worded by the one
renderer with the hands of the moment (:func:`phrasing`); its gold is
:func:`belief.grading.questions.gold_answer` on the global trace, and the players answer the same question
from their own record (:func:`belief.grading.questions.private_answer`).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field, replace
from typing import Optional

from belief.envs.base import labels as tom_labels
from belief.envs.base.labels import LabelledQuestion, knowledge_question
from belief.envs.hanabi.events import f_colour, f_has_colour, f_has_rank, f_rank
from belief.envs.hanabi.knowledge import HintKnowledge, card_number, is_hint_event
from belief.envs.hanabi.world import COLOURS, RANKS
from belief.grading import questions as model
from belief.grading.levels import LEVELS, level_chain
from belief.grading.render import Phrasing, render
from belief.grading.selector import Cell, Limits, Selector, chains
from belief.grading.shortcuts import Panel
from belief.truth.tracker import Tracker

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
    chain: tuple = ()   # the belief chain asked about, when the level does not fix it (the ToM set)
    holder: str = ""    # whose hand holds the card (the ToM set)


def question_fluent(template: str, card: int, value: str = "") -> tuple:
    if template == "colour":
        return f_colour(card)
    if template == "rank":
        return f_rank(card)
    if template == "is_colour":
        return f_has_colour(card, value)
    return f_has_rank(card, int(value))


def card_question(q) -> model.Question:
    """The one meaning of a card question (dict or CardQuestion): K(chain, fluent), the chain its own when the
    ToM set gave one, else the level's."""
    d = q if isinstance(q, dict) else asdict(q)
    if "question" in d:
        return model.question_from_dict(d["question"])[0]
    fluent = question_fluent(d["template"], d["card"], d.get("value", ""))
    chain = tuple(d.get("chain") or ()) or level_chain(d["level"], d["asked"], d["target"])
    return model.Question(id=str(d.get("id", "q")), kind="aware" if len(chain) > 1 else "knows", chain=chain,
                          fluent=fluent, time=d.get("t", "end"), template=d.get("template"), agent=d.get("asked"),
                          level=d.get("level"), text=d.get("text"))


def answer(truth, q, at: Optional[int] = None) -> bool:
    """The exact answer of a question (dict or CardQuestion) from a GroundTruth, global or private:
    :func:`~belief.grading.questions.gold_answer` of its general question at ``at`` (None: the trace's end)."""
    return model.gold_answer(truth, replace(card_question(q), time="end" if at is None else at)) == model.YES


def question_text(level: str, template: str, slot: int, target: str, value: str = "") -> str:
    whose = "their" if level == "first_order" else "your"
    fact = {"colour": f"the colour of {whose} card in slot {slot}",
            "rank": f"the rank of {whose} card in slot {slot}",
            "is_colour": f"whether {whose} card in slot {slot} is {value}",
            "is_rank": f"whether {whose} card in slot {slot} is a {value}"}[template]
    return knowledge_question(level, fact, target)


MOVE_ACTIONS = ("play", "discard", "hint")


def move_questions(ev, seed) -> list[CardQuestion]:
    """The three unanswered questions asked right after a move event (its params carry the turn, the mover
    and the hands after the move), for the mover about its partner."""
    p = ev.params
    asked, turn, hands = p["player"], int(p["turn"]), p["hands"]
    order = list(hands)
    target = order[(order.index(asked) + 1) % len(order)]
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


#: the deepest chain of the selected questions
DEPTH = 4
#: the selected set's balance: two questions per template and move, from 32 cells examined
LIMITS = Limits(per_time=2, examined=32)


def _attribute(fluent: tuple) -> str:
    return "colour" if fluent[0] in ("colour", "has_colour") else "rank"


def selected_template(cell: Cell) -> str:
    """``knows/colour``, ``knows/rank`` (a chain of one player) and ``aware/colour``, ``aware/rank`` (two to four;
    the order is the question's ``order``)."""
    return f"{'knows' if len(cell.chain) == 1 else 'aware'}/{_attribute(cell.fluent)}"


def phrasing(hands: dict) -> Phrasing:
    """The names of the moment: a card is "<holder>'s card in slot s" (``you`` when asked of its holder), a
    player is its name capitalised."""
    where = {int(k): (p, slot) for p, hand in hands.items() for slot, k in enumerate(hand)}

    def card(k: int, you: Optional[str]) -> str:
        holder, slot = where[k]
        whose = "your" if holder == you else f"{holder.capitalize()}'s"
        return f"{whose} card in slot {slot}"

    def fact_of(you: Optional[str]):
        def fact(fluent: tuple, values) -> str:
            k = card_number(fluent[1])
            if fluent[0] in ("colour", "rank"):
                return f"the {fluent[0]} of {card(k, you)}"
            what = fluent[2] if fluent[0] == "has_colour" else f"a {fluent[2]}"
            return f"whether {card(k, you)} is {what}"
        return fact

    return Phrasing(fact=fact_of(None), special=lambda q: render(q, Phrasing(fact=fact_of(q.agent))))


def hint_record_answer(hinted: HintKnowledge):
    """Hanabi's own shortcut: the public hint record, negative hints included, read literally. "Does X know
    (that Y knows ...) the colour of card c?" is yes iff the hints so far leave one colour of c (whoever the
    chain: hints are public), and likewise ranks; ``has_colour`` / ``has_rank`` facts are known iff the hints
    decide them."""
    def answer(q: model.Question) -> str:
        assert q.fluent is not None
        k = card_number(q.fluent[1])
        colours, ranks = hinted.possible(k)
        pred = q.fluent[0]
        if pred == "colour":
            known = len(colours) == 1
        elif pred == "rank":
            known = len(ranks) == 1
        elif pred == "has_colour":
            known = len(colours) == 1 or q.fluent[2] not in colours
        else:
            known = len(ranks) == 1 or int(q.fluent[2]) not in ranks
        return model.YES if known else model.NO
    return answer


@dataclass
class SelectedQuestion:
    """A question of the selected set: the general question, asked of ``asked`` after ``turn``, with its gold
    and the panel's answers (``hint_record`` among them)."""

    id: str
    t: int
    turn: int
    asked: str
    question: model.Question
    gold: str
    shortcuts: dict = field(default_factory=dict)

    @property
    def template(self) -> str:
        return str(self.question.template)

    @property
    def text(self) -> str:
        return str(self.question.text)

    def public(self) -> dict:
        """What the asked player is shown: the general question (no gold, no shortcuts)."""
        return {"id": self.id, "t": self.t, "turn": self.turn, "asked": self.asked, "text": self.text,
                "question": self.question.to_json()}

    def to_json(self) -> dict:
        return {**self.public(), "gold": self.gold, "shortcuts": dict(self.shortcuts)}


class SelectedSet:
    """The selected set of a hanabi_v0 trace, fed one event at a time (the runner asks the players as the game
    goes): ``feed(event)`` returns the questions picked after a move, :meth:`kept` the ids the balance keeps
    once the game is over. Pure: the same trace gives the same questions."""

    def __init__(self, meta: dict, seed=None):
        self.seed = meta.get("seed") if seed is None else seed
        self.tracker = Tracker(meta=meta)  # the global trace so far, checked as it comes
        self.hinted = HintKnowledge()
        self.selector = Selector(limits=LIMITS, seed=f"hanabi:{self.seed}", prefix="s", template=selected_template,
                                 extra={"hint_record": hint_record_answer(self.hinted)})
        self.panel: Optional[Panel] = None
        self._kept: Optional[set] = None

    def feed(self, ev) -> list[SelectedQuestion]:
        ev = self.tracker.append(ev, renumber=True)
        if is_hint_event(ev):
            self.hinted.apply_hint(ev.params)
        if not is_move(ev):
            return []
        p = ev.params
        asked, turn, hands = p["player"], int(p["turn"]), p["hands"]
        truth = self.tracker.truth()
        if self.panel is None:
            self.panel = Panel(truth, self.selector.extra)
        self.panel.advance(truth)
        players = list(hands)
        cards = [int(k) for hand in hands.values() for k in hand]
        cells = [Cell(ev.t, "knows" if len(c) == 1 else "aware", c, f, agent=asked)
                 for c in chains(players, DEPTH) if c != (asked,)
                 for k in cards for f in (f_colour(k), f_rank(k))]
        words = phrasing(hands)
        out = []
        for c in self.selector.offer(truth, cells, self.panel):
            q = c.question = replace(c.question, id=f"t{turn}-{c.question.id}", text=render(c.question, words))
            out.append(SelectedQuestion(id=q.id, t=ev.t, turn=turn, asked=asked, question=q, gold=c.gold,
                                        shortcuts=dict(c.shortcuts)))
        return out

    def kept(self) -> set:
        """The ids of the questions the balance keeps (call once the game is over)."""
        if self._kept is None:
            self._kept = {c.question.id for c in self.selector.finish()}
        return self._kept


def selected_questions(trace, seed=None) -> list[SelectedQuestion]:
    """The selected set of a hanabi_v0 trace (see the module doc): the questions the balance keeps."""
    sampler = SelectedSet(trace.meta, seed)
    qs = [q for ev in trace for q in sampler.feed(ev)]
    kept = sampler.kept()
    return [q for q in qs if q.id in kept]


__all__ = ["CardQuestion", "LEVELS", "TEMPLATES", "answer", "card_question", "label", "level_chain",
           "question_fluent", "question_text", "move_questions", "is_move", "questions", "selected_questions",
           "selected_template", "hint_record_answer", "phrasing", "SelectedQuestion", "SelectedSet"]
