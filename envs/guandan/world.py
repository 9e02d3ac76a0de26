"""One Guandan deal: leading, following, passing, the lead after a trick, finishing order and its upgrade.

Seats 0..3 play in turn (seat 0 -> 1 -> 2 -> 3); partners sit opposite (teams {0, 2} and {1, 3}). The leader
plays any combination; each next player with cards beats the table or passes. When every other player still
holding cards has passed since the last play, the trick is over and its last player leads; if that player
has just played out its hand, its partner leads (if the partner is out too, the next player with cards).
The deal ends as soon as both players of a team are out: the team of the first player out wins it and goes up
3 levels when the partner came 2nd, 2 when 3rd, 1 when 4th (:func:`upgrade`).

``pass_rule``: ``"free"`` (the rules: a player may pass whenever it follows) or ``"must_beat"`` (a stated
play policy: a player passes only when no play beats the table; then a pass is informative, see
:mod:`belief.envs.guandan.ruling_out`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from belief.envs.guandan.cards import DECK_SIZE, HAND_SIZE, face
from belief.envs.guandan.combinations import PASS, Move
from belief.envs.guandan.moves import face_counts, legal_plays
from belief.errors import BeliefError

SEATS = (0, 1, 2, 3)
PASS_RULES = ("free", "must_beat")


class IllegalMove(BeliefError):
    """A move that is not legal for the player to act."""


def partner(seat: int) -> int:
    return (seat + 2) % 4


def team(seat: int) -> int:
    return seat % 2


def shuffled_hands(rng: random.Random) -> list[list[int]]:
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    return [sorted(deck[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i in SEATS]


def upgrade(finish: list[int]) -> int:
    """Levels the winning team goes up: 3 (partner 2nd), 2 (3rd) or 1 (4th)."""
    return {1: 3, 2: 2, 3: 1}[finish.index(partner(finish[0]))]


@dataclass
class Play:
    seat: int
    move: Move
    cards: tuple  # card ids (empty for a pass)


@dataclass
class Deal:
    hands: list            # seat -> sorted list of card ids
    level: int
    leader: int = 0
    pass_rule: str = "free"
    turn: int = field(init=False)
    table: Move | None = field(init=False, default=None)
    table_owner: int | None = field(init=False, default=None)
    passes: int = field(init=False, default=0)
    finish: list = field(init=False, default_factory=list)
    history: list = field(init=False, default_factory=list)
    over: bool = field(init=False, default=False)

    def __post_init__(self):
        if self.pass_rule not in PASS_RULES:
            raise BeliefError(f"pass_rule must be one of {', '.join(PASS_RULES)}, got {self.pass_rule!r}")
        self.hands = [sorted(h) for h in self.hands]
        self.turn = self.leader

    @classmethod
    def new(cls, seed, level: int = 0, leader: int = 0, pass_rule: str = "free") -> "Deal":
        return cls(shuffled_hands(random.Random(seed)), level, leader, pass_rule)

    # --- queries -------------------------------------------------------------------------------------------
    def active(self, seat: int) -> bool:
        return bool(self.hands[seat])

    def counts(self, seat: int) -> list:
        return face_counts(face(c) for c in self.hands[seat])

    def legal(self, seat: int | None = None) -> list[Move]:
        """The moves of the player to act: PASS first when following (under ``must_beat`` only if nothing
        beats the table), then every play (:func:`~belief.envs.guandan.moves.legal_plays`)."""
        seat = self.turn if seat is None else seat
        if self.over or seat != self.turn:
            return []
        plays = legal_plays(self.counts(seat), self.level, self.table)
        if self.table is None:
            return plays
        if self.pass_rule == "must_beat" and plays:
            return plays
        return [PASS] + plays

    def cards_for(self, seat: int, move: Move) -> tuple:
        """The card ids a move takes from the seat's hand (the lowest id of each face)."""
        hand = list(self.hands[seat])
        out = []
        for f in move.cards:
            for c in hand:
                if face(c) == f:
                    out.append(c)
                    hand.remove(c)
                    break
            else:
                raise IllegalMove(f"seat {seat} does not hold the cards of {move}")
        return tuple(out)

    # --- stepping ------------------------------------------------------------------------------------------
    def step(self, move: Move) -> Play:
        if self.over:
            raise IllegalMove("the deal is over")
        seat = self.turn
        if move not in self.legal(seat):
            raise IllegalMove(f"seat {seat} cannot play {move} (table: {self.table})")
        if move.kind == "pass":
            play = Play(seat, move, ())
            self.passes += 1
            self.history.append(play)
            others = sum(1 for s in SEATS if s != self.table_owner and self.active(s))
            if self.passes >= others:
                self._new_trick()
            else:
                self.turn = self._next_active(seat)
            return play
        cards = self.cards_for(seat, move)
        for c in cards:
            self.hands[seat].remove(c)
        play = Play(seat, move, cards)
        self.history.append(play)
        self.table, self.table_owner, self.passes = move, seat, 0
        if not self.hands[seat]:
            self.finish.append(seat)
            if partner(seat) in self.finish:  # a team is out: the deal is over
                rest = [s for s in self._order_from(seat) if s not in self.finish]
                self.finish += rest
                self.over = True
                return play
            if sum(self.active(s) for s in SEATS) == 0:  # pragma: no cover - a team is out before
                self.over = True
                return play
        if sum(1 for s in SEATS if s != seat and self.active(s)) == 0:  # pragma: no cover
            self._new_trick()
        else:
            self.turn = self._next_active(seat)
        return play

    def _new_trick(self) -> None:
        owner = self.table_owner
        self.table, self.passes = None, 0
        if self.active(owner):
            self.turn = owner
        elif self.active(partner(owner)):
            self.turn = partner(owner)
        else:
            self.turn = self._next_active(owner)

    def _order_from(self, seat: int) -> list:
        return [(seat + i) % 4 for i in range(1, 5)]

    def _next_active(self, seat: int) -> int:
        for s in self._order_from(seat):
            if self.active(s):
                return s
        raise IllegalMove("no player holds cards")  # pragma: no cover

    # --- the result ----------------------------------------------------------------------------------------
    @property
    def winning_team(self) -> int | None:
        return team(self.finish[0]) if self.over else None

    def upgrade(self) -> int:
        return upgrade(self.finish)


__all__ = ["Deal", "IllegalMove", "PASS_RULES", "Play", "SEATS", "partner", "shuffled_hands", "team", "upgrade"]
