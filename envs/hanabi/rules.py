"""The rules of 2-player Hanabi, as a small pure state machine (no PettingZoo, no trace).

Standard rules: 5 colours x ranks 1,1,1,2,2,3,3,4,4,5 (50 cards), hands of 5, 8 hint tokens, 3 lives.
A hint names a colour or a rank and touches every matching card of the partner's hand (at least one);
it costs a token. Discarding regains a token (not at 8 tokens: discarding is then illegal), and so does
completing a firework with its 5. A misplay costs a life. The game ends when the last life is lost
(score 0, as in the Hanabi Learning Environment), when all five fireworks are complete (25), or after each
player has taken one more turn once the deck is empty. Otherwise the score is the sum of the fireworks.

Hands are ordered lists of card ids; slot 0 is the newest card (a drawn card goes to slot 0), so the
highest slot holds the oldest card ("chop" in convention terms).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Optional

from belief.errors import BeliefError

COLOURS = ("red", "yellow", "green", "blue", "white")
RANKS = (1, 2, 3, 4, 5)
COPIES = {1: 3, 2: 2, 3: 2, 4: 2, 5: 1}
PLAYERS = ("alice", "bob")
HAND_SIZE = 5
MAX_HINTS = 8
MAX_LIVES = 3
MAX_SCORE = 25

# Discrete action layout
PLAY, DISCARD, HINT_COLOUR, HINT_RANK = "play", "discard", "hint_colour", "hint_rank"
N_ACTIONS = 4 * HAND_SIZE


class HanabiError(BeliefError):
    """An illegal Hanabi move."""


@dataclass(frozen=True)
class Card:
    id: int
    colour: str
    rank: int

    def name(self) -> str:
        return f"{self.colour} {self.rank}"


@dataclass(frozen=True)
class Move:
    """A decoded action: ``kind`` is play/discard (``index`` = slot) or hint_colour/hint_rank (``index`` =
    position in COLOURS / rank - 1)."""

    kind: str
    index: int

    @property
    def action(self) -> int:
        return (PLAY, DISCARD, HINT_COLOUR, HINT_RANK).index(self.kind) * HAND_SIZE + self.index

    @classmethod
    def of(cls, action: int) -> "Move":
        a = int(action)
        if not 0 <= a < N_ACTIONS:
            raise HanabiError(f"action {a} out of range 0..{N_ACTIONS - 1}")
        return cls((PLAY, DISCARD, HINT_COLOUR, HINT_RANK)[a // HAND_SIZE], a % HAND_SIZE)

    @property
    def hint_value(self):
        return COLOURS[self.index] if self.kind == HINT_COLOUR else self.index + 1

    def describe(self) -> str:
        if self.kind in (PLAY, DISCARD):
            return f"{self.kind} slot {self.index}"
        return f"hint {self.hint_value}"


def deck(seed) -> list[Card]:
    """The 50 cards shuffled by ``seed``; card ids are positions in the unshuffled deck (stable names)."""
    cards = [Card(i, c, r) for i, (c, r) in enumerate((c, r) for c in COLOURS for r in RANKS for _ in range(COPIES[r]))]
    random.Random(f"hanabi:{seed}").shuffle(cards)
    return cards


def touches(card: Card, move: Move) -> bool:
    if move.kind == HINT_COLOUR:
        return card.colour == move.hint_value
    return card.rank == move.hint_value


@dataclass
class Outcome:
    """What one move did (for the trace and the text observation)."""

    player: str
    move: Move
    card: Optional[Card] = None         # played or discarded card
    success: Optional[bool] = None      # for a play
    drawn: Optional[Card] = None
    touched: tuple = ()                 # hinted card ids
    untouched: tuple = ()
    gained_hint: bool = False


@dataclass
class Game:
    cards: dict
    draw_pile: list
    hands: dict
    fireworks: dict = field(default_factory=lambda: {c: 0 for c in COLOURS})
    hints: int = MAX_HINTS
    lives: int = MAX_LIVES
    discards: list = field(default_factory=list)
    turn: int = 0
    final_turns: Optional[int] = None   # turns left once the deck is empty
    over: bool = False
    end_reason: Optional[str] = None

    @classmethod
    def new(cls, seed) -> "Game":
        shuffled = deck(seed)
        cards = {c.id: c for c in shuffled}
        pile = [c.id for c in shuffled]
        hands = {p: [] for p in PLAYERS}
        for _ in range(HAND_SIZE):
            for p in PLAYERS:
                hands[p].insert(0, pile.pop())
        return cls(cards=cards, draw_pile=pile, hands=hands)

    # --- queries -----------------------------------------------------------------------------------
    @property
    def current(self) -> str:
        return PLAYERS[self.turn % len(PLAYERS)]

    def partner(self, player: str) -> str:
        return PLAYERS[1 - PLAYERS.index(player)]

    def score(self) -> int:
        return 0 if self.lives == 0 else sum(self.fireworks.values())

    def playable(self, card: Card) -> bool:
        return self.fireworks[card.colour] == card.rank - 1

    def legal(self, player: str) -> list[bool]:
        """The action mask of ``player`` (all False when it is not its turn or the game is over)."""
        mask = [False] * N_ACTIONS
        if self.over or player != self.current:
            return mask
        n = len(self.hands[player])
        other = [self.cards[c] for c in self.hands[self.partner(player)]]
        for a in range(N_ACTIONS):
            m = Move.of(a)
            if m.kind == PLAY:
                mask[a] = m.index < n
            elif m.kind == DISCARD:
                mask[a] = m.index < n and self.hints < MAX_HINTS
            else:
                mask[a] = self.hints > 0 and any(touches(c, m) for c in other)
        return mask

    # --- the move ----------------------------------------------------------------------------------
    def step(self, action: int) -> Outcome:
        player = self.current
        move = Move.of(action)
        if not self.legal(player)[move.action]:
            raise HanabiError(f"illegal move for {player}: {move.describe()}")
        out = Outcome(player, move)
        if move.kind in (PLAY, DISCARD):
            card = self.cards[self.hands[player].pop(move.index)]
            out.card = card
            if move.kind == PLAY:
                out.success = self.playable(card)
                if out.success:
                    self.fireworks[card.colour] = card.rank
                    if card.rank == 5 and self.hints < MAX_HINTS:
                        self.hints += 1
                        out.gained_hint = True
                else:
                    self.lives -= 1
                    self.discards.append(card.id)
            else:
                self.discards.append(card.id)
                self.hints += 1
                out.gained_hint = True
            if self.draw_pile:
                drawn = self.draw_pile.pop()
                self.hands[player].insert(0, drawn)
                out.drawn = self.cards[drawn]
        else:
            hand = self.hands[self.partner(player)]
            out.touched = tuple(c for c in hand if touches(self.cards[c], move))
            out.untouched = tuple(c for c in hand if c not in out.touched)
            self.hints -= 1
        self._advance()
        return out

    def _advance(self) -> None:
        self.turn += 1
        if self.final_turns is not None:
            self.final_turns -= 1
        elif not self.draw_pile:
            self.final_turns = len(PLAYERS)
        if self.lives == 0:
            self.over, self.end_reason = True, "no lives left"
        elif all(v == 5 for v in self.fireworks.values()):
            self.over, self.end_reason = True, "all fireworks complete"
        elif self.final_turns == 0:
            self.over, self.end_reason = True, "deck exhausted"


__all__ = ["COLOURS", "RANKS", "COPIES", "PLAYERS", "HAND_SIZE", "MAX_HINTS", "MAX_LIVES", "MAX_SCORE",
           "N_ACTIONS", "PLAY", "DISCARD", "HINT_COLOUR", "HINT_RANK", "Card", "Move", "Outcome", "Game",
           "HanabiError", "deck", "touches"]
