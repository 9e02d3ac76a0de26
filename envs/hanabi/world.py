"""The rules of Hanabi for 2-5 players, as a small pure state machine (no PettingZoo, no trace).

Standard rules, as in the Hanabi Learning Environment: 5 colours x ranks 1,1,1,2,2,3,3,4,4,5 (50 cards),
hands of 5 (2-3 players) or 4 (4-5 players), 8 hint tokens, 3 lives.
A hint names a colour or a rank and touches every matching card of another player's hand (at least one);
it costs a token. Discarding regains a token (not at 8 tokens: discarding is then illegal), and so does
completing a firework with its 5. A misplay costs a life. The game ends when the last life is lost
(score 0, as in the Hanabi Learning Environment), when all five fireworks are complete (25), or after each
player has taken one more turn once the deck is empty. Otherwise the score is the sum of the fireworks.

Hands are ordered lists of card ids; slot 0 is the newest card (a drawn card goes to slot 0), so the
highest slot holds the oldest card ("chop" in convention terms).

Actions (``Discrete(n_actions(players))``): ``0..H-1`` play slot s, ``H..2H-1`` discard slot s (H the hand
size), then per other player at turn offset o = 1..N-1 a block of ten: ``2H + 10(o-1) + i`` hints colour i
(i < 5) or rank i - 4 (i >= 5). With 2 players that is the old layout: 0-4 play, 5-9 discard, 10-14 colour,
15-19 rank.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Optional

from belief.errors import BeliefError

COLOURS = ("red", "yellow", "green", "blue", "white")
RANKS = (1, 2, 3, 4, 5)
COPIES = {1: 3, 2: 2, 3: 2, 4: 2, 5: 1}
PLAYER_NAMES = ("alice", "bob", "carol", "dave", "erin")
PLAYERS = PLAYER_NAMES[:2]          # the default, two players
MIN_PLAYERS, MAX_PLAYERS = 2, 5
HAND_SIZE = 5                       # the hand of 2-3 players (4-5 players hold 4: hand_size(n))
MAX_HINTS = 8
MAX_LIVES = 3
MAX_SCORE = 25

# Discrete action layout
PLAY, DISCARD, HINT_COLOUR, HINT_RANK = "play", "discard", "hint_colour", "hint_rank"
N_ACTIONS = 4 * HAND_SIZE          # of two players (n_actions(n) in general)


def players_of(n: int) -> tuple:
    """The player names of an n-player game (alice, bob, carol, dave, erin)."""
    if not MIN_PLAYERS <= int(n) <= MAX_PLAYERS:
        raise HanabiError(f"Hanabi is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {n}")
    return PLAYER_NAMES[:int(n)]


def hand_size(n: int) -> int:
    return 5 if n <= 3 else 4


def n_actions(n: int) -> int:
    return 2 * hand_size(n) + 10 * (n - 1)


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
    position in COLOURS / rank - 1, ``target`` = the receiver's turn offset from the giver, 1..N-1).
    ``hand`` is the hand size of the game (5 with 2-3 players, 4 with 4-5), which fixes the numbering."""

    kind: str
    index: int
    target: int = 1
    hand: int = HAND_SIZE

    @property
    def action(self) -> int:
        if self.kind in (PLAY, DISCARD):
            return (0 if self.kind == PLAY else self.hand) + self.index
        return 2 * self.hand + 10 * (self.target - 1) + (0 if self.kind == HINT_COLOUR else 5) + self.index

    @classmethod
    def of(cls, action: int, players: int = 2) -> "Move":
        a = int(action)
        h, top = hand_size(players), n_actions(players)
        if not 0 <= a < top:
            raise HanabiError(f"action {a} out of range 0..{top - 1}")
        if a < 2 * h:
            return cls(PLAY if a < h else DISCARD, a % h, 1, h)
        target, i = divmod(a - 2 * h, 10)
        return cls(HINT_COLOUR if i < 5 else HINT_RANK, i % 5, target + 1, h)

    @property
    def is_hint(self) -> bool:
        return self.kind in (HINT_COLOUR, HINT_RANK)

    @property
    def hint_value(self):
        return COLOURS[self.index] if self.kind == HINT_COLOUR else self.index + 1

    def describe(self) -> str:
        if self.kind in (PLAY, DISCARD):
            return f"{self.kind} slot {self.index}"
        return f"hint {self.hint_value}" + (f" to player +{self.target}" if self.target != 1 else "")


def deck_in_order() -> list[Card]:
    """The 50 cards unshuffled; a card's id is its position here (a stable name)."""
    return [Card(i, c, r) for i, (c, r) in enumerate((c, r) for c in COLOURS for r in RANKS for _ in range(COPIES[r]))]


def deck(seed) -> list[Card]:
    """The 50 cards shuffled by ``seed``; card ids are positions in the unshuffled deck (stable names)."""
    cards = deck_in_order()
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
    receiver: Optional[str] = None      # of a hint


@dataclass
class Game:
    cards: dict
    draw_pile: list                     # the next card drawn is the last one
    hands: dict
    players: tuple = PLAYERS
    fireworks: dict = field(default_factory=lambda: {c: 0 for c in COLOURS})
    hints: int = MAX_HINTS
    lives: int = MAX_LIVES
    discards: list = field(default_factory=list)
    turn: int = 0
    final_turns: Optional[int] = None   # turns left once the deck is empty
    over: bool = False
    end_reason: Optional[str] = None

    @classmethod
    def new(cls, seed, players: int = 2) -> "Game":
        """A game dealt from the deck shuffled by ``seed``: each player in turn takes one card until the
        hands are full."""
        shuffled = deck(seed)
        names = players_of(players)
        pile = [c.id for c in shuffled]
        hands = {p: [] for p in names}
        for _ in range(hand_size(players)):
            for p in names:
                hands[p].insert(0, pile.pop())
        return cls(cards={c.id: c for c in shuffled}, draw_pile=pile, hands=hands, players=names)

    @classmethod
    def from_deal(cls, dealt: list, players: int = 2) -> "Game":
        """A game whose cards come in the order of ``dealt`` (a list of (colour, rank)): the first hand
        takes the first H cards, the next hand the next H, ..., then draws follow the list (the order the
        Hanabi Learning Environment deals in). Card ids are positions in the unshuffled deck."""
        names, h = players_of(players), hand_size(players)
        free = {}
        for c in deck_in_order():
            free.setdefault((c.colour, c.rank), []).append(c)
        order = []
        for colour, rank in dealt:
            if not free.get((colour, rank)):
                raise HanabiError(f"from_deal: too many {colour} {rank} cards")
            order.append(free[(colour, rank)].pop(0))
        rest = [c for cs in free.values() for c in cs]
        order += rest
        hands = {p: [c.id for c in reversed(order[i * h:(i + 1) * h])] for i, p in enumerate(names)}
        pile = [c.id for c in reversed(order[len(names) * h:])]
        return cls(cards={c.id: c for c in order}, draw_pile=pile, hands=hands, players=names)

    # --- queries -----------------------------------------------------------------------------------
    @property
    def hand_size(self) -> int:
        return hand_size(len(self.players))

    @property
    def n_actions(self) -> int:
        return n_actions(len(self.players))

    @property
    def current(self) -> str:
        return self.players[self.turn % len(self.players)]

    def at_offset(self, player: str, offset: int) -> str:
        """The player ``offset`` turns after ``player``."""
        return self.players[(self.players.index(player) + offset) % len(self.players)]

    def partner(self, player: str) -> str:
        """The next player (the partner, with two players)."""
        return self.at_offset(player, 1)

    def others(self, player: str) -> list:
        """The other players in turn order, starting with the next one."""
        return [self.at_offset(player, o) for o in range(1, len(self.players))]

    def move(self, action: int) -> Move:
        return Move.of(action, len(self.players))

    def receiver(self, player: str, move: Move) -> str:
        return self.at_offset(player, move.target)

    def score(self) -> int:
        return 0 if self.lives == 0 else sum(self.fireworks.values())

    def playable(self, card: Card) -> bool:
        return self.fireworks[card.colour] == card.rank - 1

    def legal(self, player: str) -> list[bool]:
        """The action mask of ``player`` (all False when it is not its turn or the game is over)."""
        mask = [False] * self.n_actions
        if self.over or player != self.current:
            return mask
        n = len(self.hands[player])
        for a in range(self.n_actions):
            m = self.move(a)
            if m.kind == PLAY:
                mask[a] = m.index < n
            elif m.kind == DISCARD:
                mask[a] = m.index < n and self.hints < MAX_HINTS
            else:
                other = self.hands[self.receiver(player, m)]
                mask[a] = self.hints > 0 and any(touches(self.cards[c], m) for c in other)
        return mask

    # --- the move ----------------------------------------------------------------------------------
    def step(self, action: int) -> Outcome:
        player = self.current
        move = self.move(action)
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
            hand = self.hands[self.receiver(player, move)]
            out.receiver = self.receiver(player, move)
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
            self.final_turns = len(self.players)
        if self.lives == 0:
            self.over, self.end_reason = True, "no lives left"
        elif all(v == 5 for v in self.fireworks.values()):
            self.over, self.end_reason = True, "all fireworks complete"
        elif self.final_turns == 0:
            self.over, self.end_reason = True, "deck exhausted"


__all__ = ["COLOURS", "RANKS", "COPIES", "PLAYERS", "PLAYER_NAMES", "MIN_PLAYERS", "MAX_PLAYERS", "players_of",
           "hand_size", "n_actions", "deck_in_order", "HAND_SIZE", "MAX_HINTS", "MAX_LIVES", "MAX_SCORE",
           "N_ACTIONS", "PLAY", "DISCARD", "HINT_COLOUR", "HINT_RANK", "Card", "Move", "Outcome", "Game",
           "HanabiError", "deck", "touches"]
