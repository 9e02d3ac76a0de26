"""ToM questions about Guandan hands: sampling, wording, exact answers from the checker, trivial answerers.

After every play the player who played ("you", ``asked``) is asked one question per order about another
player X (``target``), on one of four templates about a *holder*'s hand: ``no_joker`` (holds none of the four
jokers), ``no_red_joker``, ``no_wild`` (holds none of the level's wild hearts) and ``bomb`` (holds four or more
cards of a rank, wild hearts counted, or the four jokers). Orders, as belief chains over the per-card fluents
``holds(card_K, player)`` of :mod:`belief.envs.guandan.events`:

* introspection  chain (you,),   holder X:   "Do you know that X holds no joker?"
* first_order    chain (X,),     holder you: "Does X know that you hold no joker?"
* second_order   chain (you, X), holder you: "Do you know that X knows that you hold no joker?" /
  "Do you believe that X believes you hold a bomb?"

The answers are checker queries (:func:`answer`): "chain knows H holds no G" is true when the chain's value of
``holds(k, H)`` is ``no`` for every card k of the group (and really is); "chain believes H holds a bomb" when
the cards the chain believes H holds (``holds(k, H) = yes``) make a bomb. Two trivial answerers come with every
question (:func:`trivial_answers`), for :func:`belief.grading.trivial.tom_table`: ``public_record`` (only the
cards played so far: "no" unless every card of the group has been played; never a bomb) and ``as_self`` (the
property read off the asked player's own hand, ignoring whose mind the question is about).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Optional

from belief.envs.base import labels as tom_labels
from belief.envs.base.labels import TurnQuestion
from belief.envs.guandan.cards import BLACK_JOKER, DECK_SIZE, RED_JOKER, face, rank, wild_face
from belief.envs.base.selected import SelectedQuestion, SelectedStream
from belief.envs.guandan.cards import card_name
from belief.envs.guandan.events import PLAYERS, f_holds
from belief.grading.levels import LEVELS
from belief.grading.render import Phrasing
from belief.grading.selector import ORDER_NAMES, Cell, Limits, chains

ENV = "guandan_v0"
TEMPLATES = ("no_joker", "no_red_joker", "no_wild", "bomb")


@dataclass
class HandQuestion(TurnQuestion):
    game_level: int     # the deal's level rank (which hearts are wild)
    text: str = ""
    answer: Optional[bool] = None


def chain_and_holder(level: str, asked: str, target: str) -> tuple:
    """The belief chain and whose hand a question of ``level`` is about (see the module doc; unlike
    :func:`belief.grading.levels.level_chain`, the second order here is "you believe X believes ...")."""
    if level == "introspection":
        return (asked,), target
    if level == "first_order":
        return (target,), asked
    if level == "second_order":
        return (asked, target), asked
    raise KeyError(level)


def group(template: str, game_level: int) -> list:
    """The cards a ``no_*`` template is about."""
    faces = {"no_joker": (BLACK_JOKER, RED_JOKER), "no_red_joker": (RED_JOKER,),
             "no_wild": (wild_face(game_level),)}[template]
    return [k for k in range(DECK_SIZE) if face(k) in faces]


def is_bomb(cards, game_level: int) -> bool:
    """Do these cards hold a bomb (4+ of a rank, wild hearts counted; or the four jokers)?"""
    faces = [face(k) for k in cards]
    if faces.count(BLACK_JOKER) == 2 and faces.count(RED_JOKER) == 2:
        return True
    wild = wild_face(game_level)
    wilds = faces.count(wild)
    ranks = Counter(rank(f) for f in faces if f != wild and f < 52)
    return any(n + wilds >= 4 for n in ranks.values())


def answer(truth, q, at: Optional[int] = None) -> bool:
    """The exact answer of a question (dict or HandQuestion) from a GroundTruth."""
    d = q if isinstance(q, dict) else asdict(q)
    chain, holder = chain_and_holder(d["level"], d["asked"], d["target"])
    if d["template"] == "bomb":
        believed = [k for k in range(DECK_SIZE) if truth.believes(chain, f_holds(k, holder), "yes", at)]
        return is_bomb(believed, d["game_level"])
    cards = group(d["template"], d["game_level"])
    return all(truth.believes(chain, f_holds(k, holder), "no", at) and truth.reality(f_holds(k, holder), at) == "no"
               for k in cards)


def fact_text(template: str, holder_words: str, verb_s: bool) -> str:
    hold = "holds" if verb_s else "hold"
    return {"no_joker": f"{holder_words} {hold} no joker", "no_red_joker": f"{holder_words} {hold} no red joker",
            "no_wild": f"{holder_words} {hold} no wild card", "bomb": f"{holder_words} {hold} a bomb"}[template]


def question_text(level: str, template: str, target: str) -> str:
    bomb = template == "bomb"
    if level == "introspection":
        fact = fact_text(template, target, True)
        return f"Do you believe that {fact}?" if bomb else f"Do you know that {fact}?"
    fact = fact_text(template, "you", False)
    if level == "first_order":
        return f"Does {target} believe that {fact}?" if bomb else f"Does {target} know that {fact}?"
    return (f"Do you believe that {target} believes that {fact}?" if bomb
            else f"Do you know that {target} knows that {fact}?")


def is_play(ev) -> bool:
    return ev.kind == "action" and ev.name == "play" and "turn" in ev.params


def play_questions(ev, seed) -> list[HandQuestion]:
    """The three unanswered questions asked right after a play, to the player who played."""
    p = ev.params
    asked, turn = p["player"], int(p["turn"])
    rng = random.Random(f"guandan-tom:{seed}:{p.get('deal', 1)}:{turn}")
    out = []
    for level in LEVELS:
        target = rng.choice([a for a in PLAYERS if a != asked])
        template = rng.choice(TEMPLATES)
        out.append(HandQuestion(id=f"q{p.get('deal', 1)}-{turn}-{level}", t=ev.t, turn=turn, asked=asked,
                                target=target, level=level, template=template, game_level=int(p["level"]),
                                text=question_text(level, template, target)))
    return out


def label(trace, qs) -> list[HandQuestion]:
    return tom_labels.label(trace, qs, ENV, answer)


def questions(trace, seed=None) -> list[HandQuestion]:
    """Every ToM question of a guandan_v0 trace with its exact answer."""
    seed = trace.meta.get("seed") if seed is None else seed
    return tom_labels.questions_of(trace, ENV, is_play, lambda ev: play_questions(ev, seed), answer)


def trivial_answers(truth, q: HandQuestion, played: set) -> dict:
    """``public_record`` and ``as_self`` (see the module doc); ``played``: the cards played up to ``q.t``."""
    if q.template == "bomb":
        public = False
        own = [k for k in range(DECK_SIZE) if truth.reality(f_holds(k, q.asked), q.t) == "yes"]
        as_self = is_bomb(own, q.game_level)
    else:
        cards = group(q.template, q.game_level)
        public = all(k in played for k in cards)
        as_self = all(truth.reality(f_holds(k, q.asked), q.t) == "no" for k in cards)
    return {"public_record": public, "as_self": as_self}


#: the deepest chain of the selected questions
DEPTH = 4
#: the selected set's balance: per play and template at most two questions, from 48 cells examined
LIMITS = Limits(per_time=2, examined=48)
#: cards drawn per play for the cells (every holder of each): the selector examines a seeded sample anyway
CARDS_PER_PLAY = 24


def selected_template(cell: Cell) -> str:
    """``aware/second_order``, ``aware/third_order``, ``aware/fourth_order`` (the chain's length)."""
    return f"{cell.kind}/{ORDER_NAMES[min(len(cell.chain), DEPTH)]}"


def _player_words(name: str) -> str:
    return "Player " + name.split("_")[-1]


def _card_of(fluent: tuple) -> int:
    return int(fluent[1].split("_")[-1])


def phrasing() -> Phrasing:
    """Players as "Player 2", facts as "whether Player 3 holds the 7 of hearts (card 23)" ("you hold" when asked
    of that player)."""
    def fact_for(you):
        def fact(fluent: tuple, values) -> str:
            holder = "you hold" if fluent[2] == you else f"{_player_words(fluent[2])} holds"
            what = f"{card_name(_card_of(fluent))} (card {_card_of(fluent)})"
            if values:
                return f"that the answer to whether {holder} {what} is {' or '.join(values)}"
            return f"whether {holder} {what}"
        return fact

    def special(q):
        from belief.grading.render import render
        return render(q, Phrasing(agent=_player_words, fact=fact_for(q.agent)))

    return Phrasing(agent=_player_words, fact=fact_for(None), special=special)


class SelectedSet:
    """The selected set of a guandan_v0 game (:mod:`belief.grading.selector`), fed its global trace one event
    at a time: after every play of a player in ``asked``, "Are you aware that X knows [that Y knows ...] whether
    H holds card K?" (chains of 2 to 4 players beginning with the one who played, every holder), on a seeded
    draw of cards; kept where the gold differs from a shortcut of the panel or shows a named phenomenon, and
    balanced per template once the game is over (:meth:`kept`). Pure: the same trace gives the same questions."""

    def __init__(self, meta: dict, seed=None, asked=PLAYERS):
        self.seed = meta.get("seed") if seed is None else seed
        self.asked = set(asked)
        self.stream = SelectedStream(meta, seed=f"guandan:{self.seed}", limits=LIMITS, template=selected_template)
        self.words = phrasing()
        self.chains = chains(PLAYERS, DEPTH)

    def feed(self, ev) -> list[SelectedQuestion]:
        ev = self.stream.feed(ev)
        if not is_play(ev) or ev.params["player"] not in self.asked:
            return []
        p = ev.params
        asked, deal, turn = p["player"], int(p.get("deal", 1)), int(p["turn"])
        rng = random.Random(f"guandan-selected:{self.seed}:{deal}:{turn}")
        cards = rng.sample(range(DECK_SIZE), CARDS_PER_PLAY)
        cells = [Cell(ev.t, "aware", c, f_holds(k, h), agent=asked)
                 for c in self.chains if len(c) >= 2 and c[0] == asked for k in cards for h in PLAYERS]
        return self.stream.ask(cells, turn, asked, self.words, id_prefix=f"s{deal}-")

    def kept(self) -> set:
        return self.stream.kept()


__all__ = ["SelectedSet", "selected_template", "phrasing", "LIMITS", "DEPTH", "ENV", "HandQuestion", "TEMPLATES", "answer", "chain_and_holder", "group", "is_bomb", "is_play",
           "label", "play_questions", "question_text", "questions", "trivial_answers"]
