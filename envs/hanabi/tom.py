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

Those three levels are answered 100% by reading the public hint record. The **ToM set**
(:func:`tom_questions`, the table of ``belief bench hanabi``) asks what takes more than that, in three types:

* ``elimination``: "Does X know the colour (rank) of their card in slot s?" about a card that no hint of
  that kind named but negative hints narrowed (about half of them known by elimination);
* ``third_order``: "Does X know that you know that X knows the colour (rank) of their card in slot s?"
  (chain X, you, X) on the same kind of card;
* ``seen``: "Does X know the colour (rank) of [your | their] card in slot s?": X sees every hand but its
  own, so the answer differs from the public record (on your cards) and from your own knowledge.

Beside each question :func:`trivial_answers` gives the shortcuts every ToM table shows: ``public_record``
(yes iff a hint named that colour or rank of the card) and ``as_self`` (what you yourself know of the fact).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from typing import Optional

from belief.envs.base import labels as tom_labels
from belief.envs.base.labels import LabelledQuestion, knowledge_question
from belief.envs.hanabi.events import f_colour, f_has_colour, f_has_rank, f_rank
from belief.envs.hanabi.knowledge import HintKnowledge, is_hint_event
from belief.envs.hanabi.world import COLOURS, RANKS
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


def answer(truth, q, at: Optional[int] = None) -> bool:
    """The exact answer of a question (dict or CardQuestion) from a GroundTruth, global or private."""
    d = q if isinstance(q, dict) else asdict(q)
    fluent = question_fluent(d["template"], d["card"], d.get("value", ""))
    chain = tuple(d.get("chain") or ()) or level_chain(d["level"], d["asked"], d["target"])
    return truth.knows_chain(chain, fluent, at)


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


TOM_TYPES = ("elimination", "seen", "third_order")


def _card_text(template: str, whose: str, slot: int) -> str:
    return f"the {template} of {whose} card in slot {slot}"


def tom_move_questions(ev, seed, hinted: HintKnowledge, positive: set, balance: dict | None = None) -> list:
    """The ToM-set questions asked right after a move (see the module doc), for the mover about the next
    player; ``hinted`` and ``positive`` ((kind, card) pairs a hint named) are the hint record so far;
    ``balance`` (kind -> [known, unknown] asked so far) keeps the elimination kinds about half known."""
    p = ev.params
    asked, turn, hands = p["player"], int(p["turn"]), p["hands"]
    order = list(hands)
    target = order[(order.index(asked) + 1) % len(order)]
    rng = random.Random(f"hanabi-tom-set:{seed}:{turn}")
    x = target.capitalize()
    balance = {} if balance is None else balance
    out = []

    def add(kind, template, holder, slot, chain, text):
        out.append(CardQuestion(id=f"t{turn}-{kind}", t=ev.t, turn=turn, asked=asked, target=target, level=kind,
                                template=template, card=int(hands[holder][slot]), slot=slot, text=text,
                                chain=tuple(chain), holder=holder))

    # on the target's own cards that negative hints narrowed and no hint of that kind named
    pool = []
    for slot, k in enumerate(hands[target]):
        colours, ranks = hinted.possible(int(k))
        for template, values, kind in (("colour", colours, "hint_colour"), ("rank", ranks, "hint_rank")):
            if (kind, int(k)) not in positive and len(values) < 5:
                pool.append((len(values) == 1, slot, template))
    for kind, chain in (("elimination", (target,)), ("third_order", (target, asked, target))):
        counts = balance.setdefault(kind, [0, 0])
        known = [c for c in pool if c[0]]
        unknown = [c for c in pool if not c[0]]
        if known and counts[0] <= counts[1]:
            pick = rng.choice(known)
        elif unknown and counts[1] <= counts[0]:
            pick = rng.choice(unknown)
        else:
            continue
        counts[0 if pick[0] else 1] += 1
        fact = _card_text(pick[2], "their", pick[1])
        text = (f"Does {x} know {fact}?" if kind == "elimination" else
                f"Does {x} know that you know that {x} knows {fact}?")
        add(kind, pick[2], target, pick[1], chain, text)
    # seen: any card of yours or theirs (they see yours, not theirs)
    holder = rng.choice((asked, target))
    if hands[holder]:
        slot = rng.randrange(len(hands[holder]))
        template = rng.choice(("colour", "rank"))
        add("seen", template, holder, slot, (target,),
            f"Does {x} know {_card_text(template, 'your' if holder == asked else 'their', slot)}?")
    return out


class TomSet:
    """The ToM-set sampler fed one trace event at a time (the runner asks the agents as the game goes)."""

    def __init__(self, seed):
        self.seed = seed
        self.hinted, self.positive, self.balance = HintKnowledge(), set(), {}
        self.named: list = []   # (t, kind, card) of every positive hint, for the public_record answerer

    def feed(self, ev) -> list:
        if is_hint_event(ev):
            self.hinted.apply_hint(ev.params)
            for k in ev.params["touched"]:
                card = int(str(k).rsplit("_", 1)[-1])
                self.positive.add((ev.params["kind"], card))
                self.named.append((ev.t, ev.params["kind"], card))
        if is_move(ev):
            return tom_move_questions(ev, self.seed, self.hinted, self.positive, self.balance)
        return []


def tom_questions(trace, seed=None) -> list[CardQuestion]:
    """The ToM set of a hanabi_v0 trace (see the module doc), labelled by the checker (one run)."""
    sampler = TomSet(trace.meta.get("seed") if seed is None else seed)
    return label(trace, [q for ev in trace for q in sampler.feed(ev)])


def trivial_answers(q, positive: set, truth) -> dict:
    """The shortcuts beside every ToM score: ``public_record`` (yes iff a hint named this colour or rank of
    the card: the public record read literally) and ``as_self`` (the asked player's own knowledge of the
    fact, from ``truth``, the checker on the global trace)."""
    d = q if isinstance(q, dict) else asdict(q)
    kind = "hint_colour" if d["template"] in ("colour", "is_colour") else "hint_rank"
    mine = truth.knows_chain((d["asked"],), question_fluent(d["template"], d["card"], d.get("value", "")), d["t"])
    return {"public_record": (kind, d["card"]) in positive_at(positive, d["t"]), "as_self": mine}


def positive_at(positive, t) -> set:
    """``positive`` is either a set of (kind, card) or a list of (t, kind, card): the pairs named up to t."""
    if isinstance(positive, set):
        return positive
    return {(kind, card) for when, kind, card in positive if when <= t}


def positive_record(trace) -> list:
    """Every (t, hint kind, card) a hint named in ``trace`` (for :func:`trivial_answers`)."""
    return [(ev.t, ev.params["kind"], int(str(k).rsplit("_", 1)[-1])) for ev in trace if is_hint_event(ev)
            for k in ev.params["touched"]]


__all__ = ["CardQuestion", "LEVELS", "TEMPLATES", "TOM_TYPES", "answer", "label", "level_chain", "question_fluent",
           "question_text", "move_questions", "is_move", "questions", "tom_move_questions", "tom_questions",
           "trivial_answers", "positive_record", "TomSet"]
