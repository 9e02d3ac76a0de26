"""What a Hanabi player knows about cards, read from the checker on its own private trace.

A player's knowledge of a card is what its chain holds for the card's fluents
(:mod:`belief.envs.hanabi.events`): ``colour``/``rank`` when known, else the colours and ranks whose
``has_colour``/``has_rank`` fluent it does not hold as ``no``. Its model of its partner's knowledge is the
same query on the partner's chain, answered by the checker on the *player's* private trace (what it saw
the partner observe: the hints). Card counting (copies not yet seen by the player) turns a knowledge set
into a probability that the card is playable.

:class:`HanabiPlayer` is the common part of the agents: it keeps the private trace (``perceive``),
answers ToM questions with the checker on it (``answer``), and tracks which cards were hinted.
"""

from __future__ import annotations

from collections import Counter

from belief.agents.protocol import AgentBase
from belief.truth.record import PrivateRecord
from belief.envs.hanabi.events import CONSTRAINTS, f_colour, f_has_colour, f_has_rank, f_rank
from belief.envs.hanabi.knowledge import HintKnowledge
from belief.envs.hanabi.world import COLOURS, COPIES, RANKS
from belief.envs.hanabi.tom import card_question
from belief.grading.questions import private_answer
from belief.grading.render import say


def possible(truth, chain, card: int) -> tuple[frozenset, frozenset]:
    """The colours and ranks ``chain`` has not ruled out for ``card`` (from a GroundTruth): the checker's
    possible-value sets when the trace declares the game's rules (knowledge by elimination), else read from
    the per-colour and per-rank fluents one by one."""
    if getattr(truth, "constraints", None) is not None:
        colours = truth.possible(chain, f_colour(card))
        ranks = truth.possible(chain, f_rank(card))
        if colours is not None and ranks is not None:
            return frozenset(colours), frozenset(int(r) for r in ranks)
    colour = truth.value(chain, f_colour(card))
    colours = {colour} if colour in COLOURS else {c for c in COLOURS if truth.value(chain, f_has_colour(card, c)) != "no"}
    rank = truth.value(chain, f_rank(card))
    ranks = ({int(rank)} if isinstance(rank, str) and rank.isdigit()
             else {r for r in RANKS if truth.value(chain, f_has_rank(card, r)) != "no"})
    return frozenset(colours), frozenset(ranks)


def unseen_counts(view: dict) -> Counter:
    """Copies of each (colour, rank) that the viewer cannot see (not played, discarded or in the partner's hand)."""
    left = Counter({(c, r): COPIES[r] for c in COLOURS for r in RANKS})
    for c, top in view["fireworks"].items():
        for r in range(1, top + 1):
            left[(c, r)] -= 1
    for _, c, r in view["discards"]:
        left[(c, r)] -= 1
    for c, r in view.get("visible_cards", view["partner_cards"]).values():
        left[(c, r)] -= 1
    return left


def weights(colours, ranks, counts: Counter) -> dict:
    """(colour, rank) -> number of unseen copies, over the pairs knowledge allows (counts may be None)."""
    out = {(c, r): (counts[(c, r)] if counts is not None else 1) for c in colours for r in ranks}
    return {k: v for k, v in out.items() if v > 0} or {(c, r): 1 for c in colours for r in ranks}


def p_playable(colours, ranks, fireworks: dict, counts: Counter | None) -> float:
    w = weights(colours, ranks, counts)
    total = sum(w.values())
    return sum(v for (c, r), v in w.items() if fireworks[c] == r - 1) / total if total else 0.0


def p_useless(colours, ranks, fireworks: dict, counts: Counter | None) -> float:
    """Probability that the card can never be played (its rank is already on its firework)."""
    w = weights(colours, ranks, counts)
    total = sum(w.values())
    return sum(v for (c, r), v in w.items() if fireworks[c] >= r) / total if total else 0.0


def focus(hand: list, touched: list, previously: set):
    """The card a hint points at: the newest (lowest slot) card it newly touches, else None."""
    for k in hand:
        if k in touched and k not in previously:
            return k
    return None


class HanabiPlayer(AgentBase):
    """Private trace, ToM answers and hint bookkeeping shared by the Hanabi agents; under the agent protocol
    ``perceive`` also reads the last public move from ``info["obs"]`` (:meth:`note_move`), and ``act`` is
    :meth:`choose` on the structured view and the action mask.

    ``players`` (turn order) defaults to the two of ``name`` and ``partner``; ``partner`` is the next player."""

    kind = "player"

    def __init__(self, name: str, partner: str | None = None, players=None):
        self.name = name
        self.players = tuple(players) if players else (name, partner)
        i = self.players.index(name)
        self.partner = self.players[(i + 1) % len(self.players)]
        # what it perceived, and the checker on it, kept up to date, under the game's public rules (a card's
        # colour known from four negative hints is the checker's knowledge by elimination)
        self.private_record = PrivateRecord(name, meta={"constraints": CONSTRAINTS})
        self.hinted = HintKnowledge()       # every card's possible values from the hints (public)
        self.touched: set = set()           # cards (of any hand) a hint has touched
        self.marked_play: set = set()       # cards a play clue pointed at (any hand)
        self.marked_keep: set = set()       # cards a save clue pointed at
        self._seen_turn = -1

    def perceive(self, events, info: dict | None = None) -> None:
        """Append the events this player perceived (``env.take_perceived(name)``) to its private trace, then
        read the last public move from its view (``info["obs"]``)."""
        self.private_record.add(events)
        if info is not None:
            self.note_move(info["obs"])

    def choose(self, view: dict, mask) -> int:  # pragma: no cover - every agent overrides it
        raise NotImplementedError

    def act(self, observation, info: dict) -> int:
        return self.choose(info["obs"], info["action_mask"])

    @property
    def private(self):
        """The private trace so far."""
        return self.private_record.trace

    def private_truth(self):
        """The checker on this player's private trace (incremental: it costs what the new events cost)."""
        return self.private_record.truth()

    def answer(self, q: dict) -> str:
        """A free-text answer to the question it was shown (its general question, ``q["question"]``, or a card
        question's labels), from the checker on this player's own private trace
        (:func:`belief.grading.questions.private_answer`)."""
        general = card_question(q)
        return say(general, private_answer(self.private_truth(), general))

    def knowledge(self, chain, card: int):
        """What the last player of ``chain`` knows about ``card`` (possible colours, ranks), by the checker."""
        return possible(self.private_truth(), chain, card)

    def note_move(self, view: dict) -> None:
        """Read the last public move once: which cards a hint touched and what the convention marks."""
        last = view.get("last_move")
        if not last or view["turn"] == self._seen_turn:
            return
        self._seen_turn = view["turn"]
        if last["kind"] in ("play", "discard"):
            self.marked_play.discard(last["card"])
            self.marked_keep.discard(last["card"])
            return
        receiver = last.get("receiver") or (self.partner if last["player"] == self.name else self.name)
        self.hinted.apply_hint({"kind": last["kind"], "value": last["value"], "touched": last["touched"],
                                "untouched": last.get("untouched", ())})
        self.interpret_hint(view, receiver, last)
        self.touched.update(last["touched"])

    def interpret_hint(self, view: dict, receiver: str, last: dict) -> None:  # conventions: the subclasses
        pass


__all__ = ["HanabiPlayer", "possible", "unseen_counts", "weights", "p_playable", "p_useless", "focus"]
