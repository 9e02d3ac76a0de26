"""Between deals: levels, tribute and return tribute (with the anti-tribute rule), and the end of a match.

Each team has a level (a rank index; both start at 2). A deal is played at the level of the team that won
the previous deal (the first at 2). After a deal the winners go up by :func:`~belief.envs.guandan.world.upgrade`
(capped at A); a team that wins a deal played at its level A with its partner not last wins the match.

Tribute before every deal but the first (:func:`tribute`):

* the last player of the previous deal gives its highest card (by the level order, never a wild heart) to
  the first; when the losers were 3rd and 4th (a double tribute) both give one, the higher card to the first
  player and the other to the second (equal cards: the player after the first in turn order gives to the
  first);
* anti-tribute: when the givers hold both red jokers between them, nobody gives, and the first player leads;
* each receiver returns one card of rank 10 or lower to its giver (this engine returns the lowest such card,
  or the lowest card when it has none: a fixed policy, so the tribute needs no decision);
* the giver of the (higher) tribute leads the deal.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from belief.envs.guandan.cards import ACE, RED_JOKER, TEN, face, face_order, rank, wild_face
from belief.envs.guandan.world import Deal, partner, shuffled_hands, team, upgrade


@dataclass(frozen=True)
class Transfer:
    giver: int
    receiver: int
    card: int
    kind: str  # "tribute" or "return"


@dataclass(frozen=True)
class TributeResult:
    transfers: tuple       # Transfer, tributes then returns
    anti_tribute: bool
    leader: int


def tribute_card(hand, level: int) -> int:
    """The card a giver must give: its highest by the level order, a wild heart excepted (lowest id on ties)."""
    wild = wild_face(level)
    choices = [c for c in hand if face(c) != wild]
    return max(choices, key=lambda c: (face_order(face(c), level), -c))


def return_card(hand, level: int, exclude=()) -> int:
    """The card a receiver returns: its lowest of rank 10 or lower (or its lowest card when it has none)."""
    hand = [c for c in hand if c not in exclude]
    low = [c for c in hand if rank(face(c)) <= TEN and face(c) != wild_face(level)]
    pool = low or hand
    return min(pool, key=lambda c: (face_order(face(c), level), c))


def tribute(hands: list, finish: list, level: int) -> TributeResult:
    """Tribute and return tribute on ``hands`` (changed in place) after a deal that ended in ``finish``."""
    first, second = finish[0], finish[1]
    double = team(first) == team(second)
    givers = [finish[2], finish[3]] if double else [finish[3]]
    red = sum(1 for g in givers for c in hands[g] if face(c) == RED_JOKER)
    if red == 2:
        return TributeResult((), True, first)
    cards = {g: tribute_card(hands[g], level) for g in givers}
    if double:
        a, b = givers
        oa, ob = face_order(face(cards[a]), level), face_order(face(cards[b]), level)
        if oa == ob:  # the giver after the first player in turn order gives to the first
            after = [(first + i) % 4 for i in range(1, 4)]
            high = a if after.index(a) < after.index(b) else b
        else:
            high = a if oa > ob else b
        low = b if high == a else a
        pairs = [(high, first), (low, second)]
    else:
        pairs = [(givers[0], first)]
    transfers = []
    for g, r in pairs:
        c = cards[g]
        hands[g].remove(c)
        hands[r].append(c)
        transfers.append(Transfer(g, r, c, "tribute"))
    for g, r in pairs:
        received = [t.card for t in transfers if t.receiver == r]
        c = return_card(hands[r], level, exclude=received)
        hands[r].remove(c)
        hands[g].append(c)
        transfers.append(Transfer(r, g, c, "return"))
    for h in hands:
        h.sort()
    return TributeResult(tuple(transfers), False, pairs[0][0])


@dataclass
class Match:
    """Deals in a row: levels per team, tribute between deals, the match winner (None while it goes on)."""

    seed: int | None = None
    pass_rule: str = "free"
    levels: list = field(default_factory=lambda: [0, 0])
    deal_team: int = 0
    deals: int = 0
    winner: int | None = None
    last_finish: list | None = None
    last_tribute: TributeResult | None = None
    rng: random.Random = field(init=False)

    def __post_init__(self):
        self.rng = random.Random(self.seed)

    @property
    def level(self) -> int:
        return self.levels[self.deal_team]

    def next_deal(self) -> Deal:
        """Deal new hands; tribute from the previous deal's finishing order (not before the first deal)."""
        hands = shuffled_hands(self.rng)
        leader = 0
        self.last_tribute = None
        if self.last_finish is not None:
            self.last_tribute = tribute(hands, self.last_finish, self.level)
            leader = self.last_tribute.leader
        self.deals += 1
        return Deal(hands, self.level, leader, self.pass_rule)

    def finish_deal(self, deal: Deal) -> None:
        """Record a finished deal: the winners go up (or win the match at A); they set the next level."""
        win = deal.winning_team
        gain = upgrade(deal.finish)
        if self.levels[win] == ACE and self.deal_team == win and gain >= 2:
            self.winner = win
        self.levels[win] = min(ACE, self.levels[win] + gain)
        self.deal_team = win
        self.last_finish = list(deal.finish)


__all__ = ["Match", "Transfer", "TributeResult", "return_card", "tribute", "tribute_card", "partner"]
