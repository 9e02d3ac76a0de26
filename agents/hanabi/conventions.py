"""The ``conventional`` Hanabi bot: public conventions and card counting, no model of anyone's mind beyond
the hint record (a rule bot for 2-5 players). It is not SmartBot's equal: about 19.2 points with two players
(docs/worlds/hanabi.md), near ValueBot (19.79) and below HolmesBot (20.75) and SmartBot (23.09), whose port
is :mod:`belief.agents.hanabi.smartbot`.

Conventions every player follows (so each can read the others' hints):

* **focus**: a hint's focus is the newest card it newly touches;
* **play clue**: the focus is playable, unless the receiver's knowledge after the hint (hints plus the
  public counts: copies discarded or played) rules playability out; then it is a **save** (keep it); a
  rank-5 hint is always a save;
* **chop**: a player discards its oldest untouched card, unless a card is known useless.

On its turn a player, in order: (1) plays a card it knows is playable (hint knowledge plus counting the
copies it can see: the discard pile, the fireworks, the other hands); (2) plays the card a play clue
pointed at, while it may still be playable; (3) when the deck is gone and a life is to spare, plays its
likeliest card (at least 1/2); (4) saves a critical card (the last copy of a useful card, every 5) on the
chop of a player who has nothing to play, with a hint read as a save or as a correct play (for the next
player this comes first, before its own play: that player discards next); (5) gives the
best play clue (on a playable card nobody already holds as a known or clued play; lower ranks first,
then the hint that tells most); (6) discards: a card it knows is useless, else its chop, else the card
least likely to be critical; (7) with 8 tokens, a hint that misleads nobody.
"""

from __future__ import annotations

from collections import Counter

from belief.agents.hanabi.knowledge import HanabiPlayer
from belief.envs.hanabi.world import COLOURS, COPIES, HINT_COLOUR, HINT_RANK, MAX_HINTS, RANKS, Move, hand_size

ALL_PAIRS = tuple((c, r) for c in COLOURS for r in RANKS)


class Table:
    """Public facts of one moment: fireworks, copies not discarded, how far each colour can still go."""

    def __init__(self, view: dict):
        self.fw = dict(view["fireworks"])
        self.left = Counter({p: COPIES[p[1]] for p in ALL_PAIRS})       # copies not discarded
        for _, c, r in view["discards"]:
            self.left[(c, r)] -= 1
        self.reach = {}
        for c in COLOURS:
            top = 5
            for r in range(self.fw[c] + 1, 6):
                if self.left[(c, r)] == 0:
                    top = r - 1
                    break
            self.reach[c] = top

    def playable(self, pair) -> bool:
        return self.fw[pair[0]] == pair[1] - 1

    def useless(self, pair) -> bool:
        c, r = pair
        return self.fw[c] >= r or r > self.reach[c]

    def critical(self, pair) -> bool:
        return not self.useless(pair) and self.left[pair] == 1

    def public_counts(self) -> Counter:
        """Copies of each card that may still be in a hand or the deck (not discarded, not played)."""
        out = Counter(self.left)
        for c in COLOURS:
            for r in range(1, self.fw[c] + 1):
                out[(c, r)] -= 1
        return out

    def value(self, pair) -> float:
        """What losing this card costs (for discards): 0 useless, high for critical cards."""
        if self.useless(pair):
            return 0.0
        if self.critical(pair):
            return 10.0 + (5 - pair[1])
        return 1.0 + 0.2 * (5 - (pair[1] - self.fw[pair[0]]))


def candidates(colours, ranks, counts: Counter) -> list:
    """The (colour, rank) pairs a card can be: allowed by knowledge, with a copy left in ``counts``."""
    allowed = [p for p in ALL_PAIRS if p[0] in colours and p[1] in ranks]   # a fixed order: deterministic
    return [p for p in allowed if counts[p] > 0] or allowed


def weighted(pairs, counts: Counter) -> list:
    return [(p, max(counts[p], 0) or 1) for p in pairs]


def share(pairs, counts: Counter, test) -> float:
    w = weighted(pairs, counts)
    total = sum(n for _, n in w)
    return sum(n for p, n in w if test(p)) / total if total else 0.0


class HanabiConventionalAgent(HanabiPlayer):
    kind = "conventional"

    #: endgame gamble: play the likeliest card when the deck is gone, a life is spare and p >= this
    endgame_threshold = 0.5
    #: with no free chop, hint rather than discard a clued card
    hint_before_clued_discard = False

    # --- knowledge: the hint record (the belief agent reads it from the checker instead) ------------------
    def possible_of(self, player: str, card: int) -> tuple:
        """What ``player`` knows about ``card`` in its own hand: possible colours and ranks."""
        return self.hinted.possible(card)

    def my_counts(self, view: dict, table: Table) -> Counter:
        """Copies I cannot see: not discarded, not played, not in the other hands."""
        counts = table.public_counts()
        for c, r in view["visible_cards"].values():
            counts[(c, r)] -= 1
        return counts

    def counts_of(self, player: str, view: dict, table: Table) -> Counter:
        """My model of the copies ``player`` cannot see (the hands we both see; my own hand, which it sees and
        I do not, is left in)."""
        if player == self.name:
            return self.my_counts(view, table)
        counts = table.public_counts()
        for p, hand in view["hands"].items():
            if p in (player, self.name):
                continue
            for k in hand:
                counts[view["visible_cards"][k]] -= 1
        return counts

    # --- reading a hint (every player the same way) ----------------------------------------------------
    def public_chop(self, hand, before: set):
        """The card a player will discard next as everyone can tell: its oldest card no hint touched."""
        return next((k for k in reversed(hand) if k not in before and k not in self.marked_keep), None)

    def read_hint(self, view: dict, receiver: str, kind: str, value, touched, before: set, table: Table,
                  knowledge=None):
        """(focus card, "play" | "save") of a hint as its receiver reads it; None if it touches nothing new.
        ``knowledge(card)`` is the receiver's knowledge after the hint (default: what it knows now).

        The focus is the newest newly touched card; the hint is a play clue when the focus may be playable
        (else a save); a rank-5 hint is always a save."""
        hand = view["hands"][receiver]
        new = [k for k in hand if k in touched and k not in before]
        if not new:
            return None
        focus = new[0]
        if kind == HINT_RANK and int(value) == 5:
            return focus, "save"
        colours, ranks = (knowledge or (lambda k: self.possible_of(receiver, k)))(focus)
        pairs = candidates(colours, ranks, table.public_counts())
        return focus, "play" if any(table.playable(p) for p in pairs) else "save"

    def interpret_hint(self, view: dict, receiver: str, last: dict) -> None:
        table = Table(view)
        read = self.read_hint(view, receiver, last["kind"], last["value"], last["touched"], self.touched, table)
        if read is None:
            return
        focus, kind = read
        if kind == "save":
            self.marked_keep.update(last["touched"] if last["kind"] == HINT_RANK and int(last["value"]) == 5
                                    else [focus])
        else:
            self.marked_play.add(focus)

    # --- my own cards --------------------------------------------------------------------------------
    def own_play(self, view: dict, table: Table, player: str | None = None):
        """The slot ``player`` (default: me) plays by the conventions, or None, judged with its knowledge."""
        player = player or self.name
        counts = self.counts_of(player, view, table)
        hand = view["hands"][player]
        cards = [(s, k, candidates(*self.possible_of(player, k), counts)) for s, k in enumerate(hand)]
        sure = [(min(r for _, r in pairs), s) for s, k, pairs in cards if all(table.playable(p) for p in pairs)]
        if sure:
            return min(sure)[1]
        for s, k, pairs in cards:
            if k in self.marked_play and any(table.playable(p) for p in pairs):
                return s
        if view["deck"] == 0 and view["lives"] > 1 and cards:
            s, k, pairs = max(cards, key=lambda x: share(x[2], counts, table.playable))
            if share(pairs, counts, table.playable) >= self.endgame_threshold:
                return s
        return None

    def chop(self, view: dict, table: Table, player: str | None = None) -> int:
        """The slot ``player`` discards: a card it knows is useless, else its oldest untouched card not kept,
        else its card least likely to matter."""
        player = player or self.name
        counts = self.counts_of(player, view, table)
        hand = view["hands"][player]
        cards = [(s, k, candidates(*self.possible_of(player, k), counts)) for s, k in enumerate(hand)]
        for s, k, pairs in reversed(cards):
            if all(table.useless(p) for p in pairs):
                return s
        for s, k, pairs in reversed(cards):
            if k not in self.touched and k not in self.marked_keep:
                return s

        def expected_loss(x):
            w = weighted(x[2], counts)
            return sum(n * table.value(p) for p, n in w) / sum(n for _, n in w)
        return min(reversed(cards), key=expected_loss)[0]

    # --- hints ---------------------------------------------------------------------------------------
    def hints(self, view: dict, mask):
        """Every legal hint: (action, receiver, kind, value, touched cards)."""
        h = hand_size(len(self.players))
        me = self.players.index(self.name)
        for offset in range(1, len(self.players)):
            receiver = self.players[(me + offset) % len(self.players)]
            hand = view["hands"][receiver]
            for kind, values in ((HINT_COLOUR, COLOURS), (HINT_RANK, RANKS)):
                for i, v in enumerate(values):
                    a = Move(kind, i, offset, h).action
                    if not mask[a]:
                        continue
                    touched = [k for k in hand if view["visible_cards"][k][0 if kind == HINT_COLOUR else 1] == v]
                    yield a, receiver, kind, v, touched

    def after_hint(self, receiver: str, kind: str, value, touched, hand):
        """The receiver's knowledge after a hint (a function card -> (colours, ranks))."""
        def knowledge(k):
            colours, ranks = self.possible_of(receiver, k)
            if kind == HINT_COLOUR:
                colours = frozenset({value}) if k in touched else colours - {value}
            else:
                ranks = frozenset({value}) if k in touched else ranks - {value}
            return colours, ranks
        return knowledge

    def pending_plays(self, view: dict) -> set:
        """The cards (as (colour, rank)) already on their way: known or clued plays in the hands I see."""
        out = set()
        for p, hand in view["hands"].items():
            if p == self.name:
                continue
            for k in hand:
                if k in self.marked_play:
                    out.add(view["visible_cards"][k])
        return out

    def hint_outcome(self, view: dict, table: Table, receiver: str, kind: str, value, touched):
        """(misreads, good play, focus pair, reading) of a hint: misreads are cards it would lead the receiver
        to play wrongly."""
        knowledge = self.after_hint(receiver, kind, value, touched, view["hands"][receiver])
        read = self.read_hint(view, receiver, kind, value, touched, self.touched, table, knowledge)
        if read is None:
            return 0, False, None, None
        focus, reading = read
        pair = view["visible_cards"][focus]
        if reading == "play":
            return (0, True, pair, reading) if table.playable(pair) else (1, False, pair, reading)
        return 0, False, pair, reading

    def play_clue(self, view: dict, mask, table: Table):
        pending = self.pending_plays(view)
        best = None
        for a, receiver, kind, value, touched in self.hints(view, mask):
            bad, good, pair, reading = self.hint_outcome(view, table, receiver, kind, value, touched)
            if bad or not good or pair in pending:
                continue
            if self.possible_of(receiver, self._focus(view, receiver, touched)) and \
                    self._known_playable(receiver, self._focus(view, receiver, touched), table, view):
                continue
            distance = (self.players.index(receiver) - self.players.index(self.name)) % len(self.players)
            key = (pair[1], distance, -len([k for k in touched if k not in self.touched]))
            if best is None or key < best[0]:
                best = (key, a)
        return best[1] if best else None

    def _focus(self, view, receiver, touched):
        return next((k for k in view["hands"][receiver] if k in touched and k not in self.touched), None)

    def _known_playable(self, player, card, table, view) -> bool:
        pairs = candidates(*self.possible_of(player, card), self.counts_of(player, view, table))
        return all(table.playable(p) for p in pairs)

    def save_clue(self, view: dict, mask, table: Table, offsets=None):
        """A hint protecting a critical card on the chop of a player with nothing to play (nearest first)."""
        me = self.players.index(self.name)
        for offset in offsets or range(1, len(self.players)):
            receiver = self.players[(me + offset) % len(self.players)]
            hand = view["hands"][receiver]
            busy = self.own_play(view, table, receiver)
            if not hand or busy is not None and table.playable(view["visible_cards"][hand[busy]]):
                continue  # it plays a good card this turn (an unsure play may turn into a discard)
            slot = self.chop(view, table, receiver)
            k = hand[slot]
            if k in self.touched or not table.critical(view["visible_cards"][k]):
                continue
            options = []
            for a, r, kind, value, touched in self.hints(view, mask):
                if r != receiver or k not in touched:
                    continue
                bad, good, pair, reading = self.hint_outcome(view, table, r, kind, value, touched)
                if not bad:
                    options.append((-good, len(touched), a))
            if options:
                return min(options)[2]
        return None

    def harmless_hint(self, view: dict, mask, table: Table):
        best = None
        for a, receiver, kind, value, touched in self.hints(view, mask):
            bad, good, pair, reading = self.hint_outcome(view, table, receiver, kind, value, touched)
            if bad:
                continue
            key = (-good, -len([k for k in touched if k not in self.touched]))
            if best is None or key < best[0]:
                best = (key, a)
        return best[1] if best else None

    # --- the decision --------------------------------------------------------------------------------
    def choose(self, view: dict, mask) -> int:
        table = Table(view)
        h = hand_size(len(self.players))
        if view["hints"] > 0:  # the next player is about to discard a critical card
            a = self.save_clue(view, mask, table, offsets=[1])
            if a is not None:
                return a
        slot = self.own_play(view, table)
        if slot is not None:
            return slot
        if view["hints"] > 0:
            for rule in (self.save_clue, self.play_clue):
                a = rule(view, mask, table)
                if a is not None:
                    return a
        if view["hints"] < MAX_HINTS:
            slot = self.chop(view, table)
            k = view["hands"][self.name][slot]
            if self.hint_before_clued_discard and view["hints"] > 0 and (k in self.touched or k in self.marked_keep):
                a = self.harmless_hint(view, mask, table)  # no free chop: keep my clued cards, hint instead
                if a is not None:
                    return a
            return h + slot
        a = self.harmless_hint(view, mask, table)
        if a is not None:
            return a
        return next(a for a, ok in enumerate(mask) if ok)


__all__ = ["HanabiConventionalAgent", "Table", "candidates", "share", "weighted"]
