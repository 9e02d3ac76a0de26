"""``smartbot``: a port of Arthur O'Dwyer's SmartBot (github.com/Quuxplusone/Hanabi, ``SmartBot.cc``) to our
engine, 2-5 players.

SmartBot is the strongest of O'Dwyer's hand-written bots: 23.09 points on average with two players in his
framework (29.52% perfect games; his README). Its conventions, which every player follows and so can read:

* every player tracks what every player knows about its own hand (hints, negative hints included, and the
  public count of played and discarded copies; a card whose every copy is accounted for by played, discarded
  or *located* cards, cards whose identity their holder knows, is ruled out, to a fixed point);
* **play hint**: a colour hint, or a rank hint that is not a warning, says that the newest touched card that
  might be playable *is* playable (unless the hint already made some card known-playable);
* **warning**: the player about to act next (the next player in turn order) will discard its "next discard"
  card (the not-known-valuable card most likely worthless, oldest first); if that card is the last copy of a
  useful card, the player before it warns with a rank hint touching it; a rank hint to the next player that
  touches its next discard card and could make it valuable *is* that warning; any other move of the player
  before tells the next player that its next discard card is not valuable;
* **discard finesse**: discarding a known playable card says that a partner's newest card is that card;
* a rank hint to the previous player's oldest card with all 8 tokens is only a way to pass (hint-stone
  reclaim), not a play hint.

Its turn, in order: with the deck empty, play its lowest known-playable card, else a "mystery" card (with
lives to spare: at most 1 card left with 1-2 lives, at most 3 with 3); warn the next player; discard-finesse;
play its lowest playable card (preferring a card nobody else knows it knows is playable); give the hint
that rules out most possibilities among those that reveal a playable card and mislead nobody; play a
mystery card late in the deck; with 8 tokens hint the previous player's oldest card's rank; else discard a
worthless card, else its next discard card, else its highest card.

Differences from the C++ original, none of them in the decisions: hands are indexed oldest first inside the
bot, as in O'Dwyer's framework, and turned into our slots (slot 0 newest) only for the action; colours follow
our order (red yellow green blue white), which changes only the order in which equally good colour hints are
tried. Knowledge that contradicts itself (every identity ruled out, which the C++ code asserts never
happens) is treated as unknown and unplayable; :attr:`SmartBotAgent.contradictions` counts it.

Rules: his framework tallies the fireworks when the third life is lost; our engine (like the Hanabi
Learning Environment) scores such a game 0. SmartBot still plays mystery cards on its last life late in the
deck, as the original does, so its score under our rules is below its ``fireworks`` tally (the figure to
check against 23.09).

The bot needs every move: the runner calls ``perceive`` after every step for every player (as
:func:`belief.app.runners.hanabi.play_game` does); a gap raises :class:`~belief.errors.BeliefError`.
"""

from __future__ import annotations

from belief.agents.hanabi.knowledge import HanabiPlayer
from belief.envs.hanabi.world import COLOURS, COPIES, HINT_COLOUR, HINT_RANK, MAX_HINTS, Move, hand_size
from belief.errors import BeliefError

NO, MAYBE, YES = 0, 1, 2
K = len(COLOURS)
CELLS = tuple((k, v) for k in range(K) for v in range(1, 6))
#: play a mystery card when the deck holds at most this many cards, by lives left (O'Dwyer's table)
MYSTERY_DECK = (-99, 1, 1, 3)


def _cell(k: int, v: int) -> int:
    return k * 5 + v - 1


class CardKnowledge:
    """What a card's holder knows about it, with SmartBot's cached (lazily recomputed) facts.

    ``color``/``value``: -2 not computed, -1 ambiguous, else the index / rank. Trivalues and probabilities
    are cached: a probability of -1 means "recompute"; like the original, some facts stay cached until an
    event invalidates them (``befuddle_*``)."""

    __slots__ = ("bot", "cant", "possibilities_", "color_", "value_", "playable_", "valuable_", "worthless_",
                 "p_playable", "p_valuable", "p_worthless")

    def __init__(self, bot: "SmartBotAgent"):
        self.bot = bot
        self.cant = [False] * (K * 5)
        self.possibilities_ = -1
        self.color_ = -2
        self.value_ = -2
        self.playable_ = self.valuable_ = self.worthless_ = MAYBE
        self.p_playable = self.p_valuable = self.p_worthless = -1.0

    def copy(self) -> "CardKnowledge":
        new = CardKnowledge.__new__(CardKnowledge)
        for s in self.__slots__:
            setattr(new, s, getattr(self, s))
        new.cant = list(self.cant)
        return new

    # --- identity -------------------------------------------------------------------------------------
    def _identity(self) -> None:
        if self.color_ != -2 and self.value_ != -2:
            return
        color = value = -2
        for k, v in CELLS:
            if self.cant[_cell(k, v)]:
                continue
            color = k if color in (-2, k) else -1
            value = v if value in (-2, v) else -1
        if color == -2:                 # contradictory knowledge: nothing left; treat as unknown
            self.bot.contradictions += 1
            color = value = -1
        self.color_, self.value_ = color, value

    def known(self) -> bool:
        self._identity()
        return self.color_ != -1 and self.value_ != -1

    def color(self) -> int:
        self._identity()
        return self.color_

    def value(self) -> int:
        self._identity()
        return self.value_

    def possibilities(self) -> int:
        if self.possibilities_ == -1:
            self.possibilities_ = sum(not c for c in self.cant)
        return self.possibilities_

    def cannot_be_value(self, value: int) -> bool:
        if self.value_ >= 0:
            return self.value_ != value
        return all(self.cant[_cell(k, value)] for k in range(K))

    # --- cached facts ---------------------------------------------------------------------------------
    def _share(self, test) -> tuple[float, int]:
        total = yes = 0
        for k, v in CELLS:
            if self.cant[_cell(k, v)]:
                continue
            total += 1
            yes += bool(test(k, v))
        if total == 0:
            return 0.0, NO
        return yes / total, (YES if yes == total else MAYBE if yes else NO)

    def playable(self) -> int:
        if self.p_playable == -1.0:
            fw = self.bot.fw
            self.p_playable, self.playable_ = self._share(lambda k, v: v == fw[k] + 1)
        return self.playable_

    def valuable(self) -> int:
        if self.p_valuable == -1.0:
            self.p_valuable, self.valuable_ = self._share(self.bot.is_valuable)
        return self.valuable_

    def worthless(self) -> int:
        if self.p_worthless == -1.0:
            self.p_worthless, self.worthless_ = self._share(self.bot.is_worthless)
        return self.worthless_

    def probability_playable(self) -> float:
        self.playable()
        return self.p_playable

    def probability_worthless(self) -> float:
        self.worthless()
        return self.p_worthless

    def _invalidate_maybes(self) -> None:
        if self.playable_ == MAYBE:
            self.p_playable = -1.0
        if self.valuable_ == MAYBE:
            self.p_valuable = -1.0
        if self.worthless_ == MAYBE:
            self.p_worthless = -1.0

    # --- learning -------------------------------------------------------------------------------------
    def set_must_be_color(self, color: int) -> None:
        for k, v in CELLS:
            if k != color:
                self.cant[_cell(k, v)] = True
        self.possibilities_ = -1
        self.color_ = color
        if self.value_ == -1:
            self.value_ = -2
        self._invalidate_maybes()

    def set_must_be_value(self, value: int) -> None:
        for k, v in CELLS:
            if v != value:
                self.cant[_cell(k, v)] = True
        self.possibilities_ = -1
        if self.color_ == -1:
            self.color_ = -2
        self.value_ = value
        self._invalidate_maybes()

    def _narrowed(self) -> None:
        self.possibilities_ = -1
        if self.color_ == -1:
            self.color_ = -2
        if self.value_ == -1:
            self.value_ = -2

    def set_cannot_be_color(self, color: int) -> None:
        for v in range(1, 6):
            self.cant[_cell(color, v)] = True
        self._narrowed()
        self._invalidate_maybes()

    def set_cannot_be_value(self, value: int) -> None:
        for k in range(K):
            self.cant[_cell(k, value)] = True
        self._narrowed()
        self._invalidate_maybes()

    def _keep_only(self, test) -> None:
        for k, v in CELLS:
            i = _cell(k, v)
            if not self.cant[i] and not test(k, v):
                self.cant[i] = True
        self._narrowed()

    def set_is_playable(self, yes: bool) -> None:
        fw = self.bot.fw
        self._keep_only(lambda k, v: (v == fw[k] + 1) == yes)
        self.playable_, self.p_playable = (YES, 1.0) if yes else (NO, 0.0)
        if self.valuable_ == MAYBE:
            self.p_valuable = -1.0
        if self.worthless_ == MAYBE:
            self.p_worthless = -1.0
        if yes:
            self.worthless_, self.p_worthless = NO, 0.0

    def set_is_valuable(self, yes: bool) -> None:
        self._keep_only(lambda k, v: self.bot.is_valuable(k, v) == yes)
        if self.playable_ == MAYBE:
            self.p_playable = -1.0
        self.valuable_, self.p_valuable = (YES, 1.0) if yes else (NO, 0.0)
        if self.worthless_ == MAYBE:
            self.p_worthless = -1.0
        if yes:
            self.worthless_, self.p_worthless = NO, 0.0

    def befuddle_by_discard(self) -> None:
        if self.worthless_ != YES:
            self.valuable_, self.p_valuable = MAYBE, -1.0
            self.worthless_, self.p_worthless = MAYBE, -1.0

    def befuddle_by_play(self, success: bool) -> None:
        if success:
            self.playable_, self.p_playable = MAYBE, -1.0
        else:
            self.valuable_, self.p_valuable = MAYBE, -1.0
        if self.worthless_ != YES:
            self.worthless_, self.p_worthless = MAYBE, -1.0

    def update(self, held) -> None:
        """Rule out identities whose every copy is played, discarded or in ``held`` (located or seen)."""
        if self.known():
            return
        played = self.bot.played
        changed = False
        for k, v in CELLS:
            i = _cell(k, v)
            if not self.cant[i] and played[i] + held[i] >= COPIES[v]:
                self.cant[i] = True
                changed = True
        if changed:
            self.possibilities_ = -1
            self.color_ = self.value_ = -2
            self.playable_ = self.valuable_ = self.worthless_ = MAYBE
            self.p_playable = self.p_valuable = self.p_worthless = -1.0

    def could_be_valuable_with_value(self, value: int) -> bool:
        if value < 1 or value > 5 or self.cannot_be_value(value):
            return False
        if self.valuable() != MAYBE:
            return False
        new = self.copy()
        new.set_must_be_value(value)
        return new.valuable() != NO


class SmartBotAgent(HanabiPlayer):
    """O'Dwyer's SmartBot (see the module doc). Its ToM answers come from the checker on its private trace,
    as every Hanabi agent's do."""

    kind = "smartbot"

    def __init__(self, name: str, partner: str | None = None, players=None):
        super().__init__(name, partner, players)
        self.n = len(self.players)
        self.me = self.players.index(name)
        h = hand_size(self.n)
        #: what every player knows about its own hand, oldest card first (as in O'Dwyer's framework)
        self.hk: list[list[CardKnowledge]] = [[CardKnowledge(self) for _ in range(h)] for _ in range(self.n)]
        self.played = [0] * (K * 5)         # copies played or discarded
        self.located = [0] * (K * 5)
        self.eyesight = [0] * (K * 5)
        self.fw = [0] * K
        self.contradictions = 0
        self._view: dict | None = None      # the state before the next move
        self._done_turn = -1

    # --- the public facts -----------------------------------------------------------------------------
    def is_worthless(self, k: int, v: int) -> bool:
        nxt = self.fw[k] + 1
        if v < nxt:
            return True
        while v > nxt:
            v -= 1
            if self.played[_cell(k, v)] == COPIES[v]:
                return True
        return False

    def is_valuable(self, k: int, v: int) -> bool:
        if self.played[_cell(k, v)] != COPIES[v] - 1:
            return False
        return not self.is_worthless(k, v)

    def _hand(self, view: dict, p: int) -> list:
        """Player ``p``'s card ids, oldest first."""
        return list(reversed(view["hands"][self.players[p]]))

    def _face(self, view: dict, card: int) -> tuple[int, int]:
        c, r = view["visible_cards"][card]
        return COLOURS.index(c), r

    def _set_state(self, view: dict) -> None:
        self.fw = [view["fireworks"][c] for c in COLOURS]

    # --- before every move ----------------------------------------------------------------------------
    def _before_move(self, view: dict) -> None:
        self._set_state(view)
        for p in range(self.n):
            if len(self.hk[p]) != len(view["hands"][self.players[p]]):
                raise BeliefError(f"smartbot {self.name}: its record of {self.players[p]}'s hand is out of step")
        self._update_located()
        while True:
            for hand in self.hk:
                for knol in hand:
                    knol.update(self.located)
            if not self._update_located():
                break
        eye = [0] * (K * 5)
        for p in range(self.n):
            if p == self.me:
                for knol in self.hk[p]:
                    if knol.known():
                        eye[_cell(knol.color(), knol.value())] += 1
            else:
                for card in view["hands"][self.players[p]]:
                    eye[_cell(*self._face(view, card))] += 1
        self.eyesight = eye

    def _update_located(self) -> bool:
        new = [0] * (K * 5)
        for hand in self.hk:
            for knol in hand:
                if knol.known():
                    new[_cell(knol.color(), knol.value())] += 1
        changed = new != self.located
        self.located = new
        return changed

    def next_discard_index(self, to: int) -> int:
        best_fitness, best = 0.0, -1
        for i, knol in enumerate(self.hk[to]):
            if knol.playable() == YES or knol.worthless() == YES:
                return -1
            if knol.valuable() == YES:
                continue
            fitness = 100 + knol.probability_worthless()
            if fitness > best_fitness:
                best_fitness, best = fitness, i
        return best

    def _no_warning_given(self, frm: int, view: dict) -> None:
        if view["deck"] == 0 or view["hints"] == 0:
            return
        expecting = (frm + 1) % self.n
        i = self.next_discard_index(expecting)
        if i != -1:
            self.hk[expecting][i].set_is_valuable(False)

    def _see_public(self, k: int, v: int) -> None:
        self.played[_cell(k, v)] += 1

    def _invalidate(self, p: int, i: int, draw: bool) -> None:
        hand = self.hk[p]
        del hand[i]
        if draw:
            hand.append(CardKnowledge(self))

    # --- reading a move -------------------------------------------------------------------------------
    def _observe(self, before: dict, after: dict) -> None:
        """Read the move that took ``before`` to ``after`` (its ``last_move``), in the state before it."""
        last = after["last_move"]
        self._before_move(before)
        frm = self.players.index(last["player"])
        if last["kind"] in ("play", "discard"):
            hand = self._hand(before, frm)
            i = hand.index(last["card"])
            face = self._revealed(before, after, last)
            draw = before["deck"] != 0
            self._no_warning_given(frm, before)
            if last["kind"] == "discard":
                knol = self.hk[frm][i]
                if knol.known() and knol.playable() == YES:        # a discard finesse
                    seen = False
                    for q in range(self.n):
                        if q in (frm, self.me):
                            continue
                        if self._face(before, self._hand(before, q)[-1]) == face:
                            self.hk[q][-1].set_must_be_color(face[0])
                            self.hk[q][-1].set_must_be_value(face[1])
                            seen = True
                            break
                    if not seen:
                        self.hk[self.me][-1].set_must_be_color(face[0])
                        self.hk[self.me][-1].set_must_be_value(face[1])
                for hand_k in self.hk:
                    for knol in hand_k:
                        knol.befuddle_by_discard()
            else:
                success = face[1] == self.fw[face[0]] + 1
                for hand_k in self.hk:
                    for knol in hand_k:
                        knol.befuddle_by_play(success)
            self._see_public(*face)
            self._invalidate(frm, i, draw)
        else:
            to = self.players.index(last["receiver"])
            hand = self._hand(before, to)
            touched = {hand.index(c) for c in last["touched"]}
            self._observe_hint(before, frm, to, last["kind"], last["value"], touched)

    def _revealed(self, before: dict, after: dict, last: dict) -> tuple[int, int]:
        """The face of the played or discarded card (my own cards too: the discard pile or the firework that
        grew)."""
        card = last["card"]
        for k, c, r in after["discards"]:
            if k == card:
                return COLOURS.index(c), r
        for c in COLOURS:
            if after["fireworks"][c] != before["fireworks"][c]:
                return COLOURS.index(c), after["fireworks"][c]
        raise BeliefError(f"smartbot {self.name}: cannot tell which card was played")

    def _observe_hint(self, view: dict, frm: int, to: int, kind: str, value, touched: set) -> None:
        expecting = (frm + 1) % self.n
        is_warning = reclaim = False
        if kind == HINT_RANK:
            value = int(value)
            discard = self.next_discard_index(expecting)
            reclaim = view["hints"] == MAX_HINTS and frm == (to + 1) % self.n and 0 in touched
            is_warning = (not reclaim and to == expecting and discard in touched
                          and self.hk[to][discard].could_be_valuable_with_value(value))
            if is_warning:
                self.hk[to][discard].set_is_valuable(True)
        else:
            value = COLOURS.index(value)
        identified, inferred = False, -1
        hand = self.hk[to]
        for i in range(len(hand) - 1, -1, -1):
            knol = hand[i]
            was_maybe = knol.playable() == MAYBE
            if i in touched:
                knol.set_must_be_color(value) if kind == HINT_COLOUR else knol.set_must_be_value(value)
                if was_maybe:
                    if knol.playable() == YES:
                        identified = True
                    elif knol.playable() == MAYBE and inferred == -1:
                        inferred = i
            else:
                knol.set_cannot_be_color(value) if kind == HINT_COLOUR else knol.set_cannot_be_value(value)
                if was_maybe and knol.playable() == YES:
                    identified = True
        if not is_warning and not reclaim and not identified and inferred >= 0:
            hand[inferred].set_is_playable(True)
        if to != expecting:
            self._no_warning_given(frm, view)

    # --- the agent protocol ---------------------------------------------------------------------------
    def perceive(self, events, info: dict | None = None) -> None:
        super().perceive(events, info)
        if info is not None:
            self._sync(info["obs"])

    def _sync(self, view: dict) -> None:
        if self._view is None:
            self._view = view
            self._done_turn = view["turn"]
            return
        if view["turn"] == self._done_turn:
            return
        if view["turn"] != self._done_turn + 1 or not view.get("last_move"):
            raise BeliefError(f"smartbot {self.name} missed a move (turn {self._done_turn} to {view['turn']}): "
                              "perceive after every step")
        self._observe(self._view, view)
        self._view, self._done_turn = view, view["turn"]

    def choose(self, view: dict, mask) -> int:
        self._sync(view)
        self._before_move(view)
        i_kind, i = self._decide(view)
        h = hand_size(self.n)
        if i_kind in ("play", "discard"):
            slot = len(view["hands"][self.name]) - 1 - i       # oldest-first index -> our slot
            action = (0 if i_kind == "play" else h) + slot
        else:
            to, kind, index = i
            action = Move(kind, index, (to - self.me) % self.n, h).action
        if not mask[action]:
            raise BeliefError(f"smartbot {self.name} chose an illegal move {Move.of(action, self.n).describe()}")
        return action

    # --- the decision (O'Dwyer's pleaseMakeMove) ------------------------------------------------------
    def _decide(self, view: dict):
        if view["deck"] == 0:
            for rule in (self._play_lowest_playable, self._play_mystery):
                move = rule(view)
                if move:
                    return move
        for rule in (self._valuable_warning, self._discard_finesse, self._play_lowest_playable,
                     self._helpful_hint, self._play_mystery):
            move = rule(view)
            if move:
                return move
        if view["hints"] == MAX_HINTS:       # discarding is illegal: hint the previous player's oldest rank
            right = (self.me - 1) % self.n
            _, rank = self._face(view, self._hand(view, right)[0])
            return "hint", (right, HINT_RANK, rank - 1)
        for rule in (self._discard_worthless, self._discard_old):
            move = rule(view)
            if move:
                return move
        mine = self.hk[self.me]
        best = 0
        for i in range(len(mine)):
            if mine[i].value() > mine[best].value():
                best = i
        return "discard", best

    def _eye(self, i: int) -> CardKnowledge:
        knol = self.hk[self.me][i].copy()
        knol.update(self.eyesight)
        return knol

    def _play_lowest_playable(self, view: dict):
        best, best_fitness = -1, 0.0
        for i, knol in enumerate(self.hk[self.me]):
            if knol.playable() == NO:
                continue
            eye = self._eye(i)
            if eye.playable() != YES:
                continue
            fitness = 6.0 - eye.value()
            if knol.playable() != YES:
                fitness += 100
            if fitness > best_fitness:
                best, best_fitness = i, fitness
        return ("play", best) if best != -1 else None

    def _discard_worthless(self, view: dict):
        best, best_fitness = -1, 0.0
        for i, knol in enumerate(self.hk[self.me]):
            if knol.worthless() == NO:
                continue
            if knol.worthless() == MAYBE and self._eye(i).worthless() != YES:
                continue
            fitness = 2.0 - knol.probability_worthless()
            if fitness > best_fitness:
                best, best_fitness = i, fitness
        return ("discard", best) if best != -1 else None

    def _discard_old(self, view: dict):
        i = self.next_discard_index(self.me)
        return ("discard", i) if i != -1 else None

    def _play_mystery(self, view: dict):
        if view["deck"] > MYSTERY_DECK[view["lives"]]:
            return None
        best, best_fitness = -1, 0.0
        for i in range(len(self.hk[self.me]) - 1, -1, -1):
            eye = self._eye(i)
            if eye.playable() == MAYBE:
                fitness = eye.probability_playable()
                if fitness > best_fitness:
                    best, best_fitness = i, fitness
        return ("play", best) if best != -1 else None

    def _discard_finesse(self, view: dict):
        if view["hints"] == MAX_HINTS:
            return None
        newest = [self._face(view, self._hand(view, (self.me + j) % self.n)[-1]) for j in range(1, self.n)]
        for i, knol in enumerate(self.hk[self.me]):
            if knol.known() and knol.valuable() == NO and knol.playable() == YES:
                if newest.count((knol.color(), knol.value())) == 1:
                    return "discard", i
        return None

    def _valuable_warning(self, view: dict):
        if view["hints"] == 0:
            return None
        to = (self.me + 1) % self.n
        i = self.next_discard_index(to)
        if i == -1:
            return None
        k, v = self._face(view, self._hand(view, to)[i])
        if not self.is_valuable(k, v):
            return None
        fitness, hint = self._best_hint_for(view, to)
        if fitness > 0:
            return "hint", hint
        return "hint", (to, HINT_RANK, v - 1)

    def _helpful_hint(self, view: dict):
        if view["hints"] == 0:
            return None
        best_fitness, best = -1, None
        for j in range(1, self.n):
            fitness, hint = self._best_hint_for(view, (self.me + j) % self.n)
            if fitness > best_fitness:
                best_fitness, best = fitness, hint
        return ("hint", best) if best_fitness > 0 else None

    def _best_hint_for(self, view: dict, to: int):
        """(fitness, (to, kind, index)) of the hint to ``to`` that rules out most possibilities among those
        that reveal a playable card and mislead nobody; fitness -1 when there is none."""
        faces = [self._face(view, c) for c in self._hand(view, to)]
        really_playable = [v == self.fw[k] + 1 for k, v in faces]
        avoid = -1
        if to == (self.me + 1) % self.n:
            i = self.next_discard_index(to)
            if i != -1:
                avoid = faces[i][1]
                if not self.hk[to][i].could_be_valuable_with_value(avoid):
                    avoid = -1
        old = self.hk[to]
        best_fitness, best = -1, None
        options = ([(HINT_COLOUR, k) for k in range(K) if any(f[0] == k for f in faces)]
                   + [(HINT_RANK, v) for v in range(1, 6) if any(f[1] == v for f in faces)])
        for kind, x in options:
            if kind == HINT_RANK and x == avoid:
                continue            # it would read as a warning
            pos = 0 if kind == HINT_COLOUR else 1
            new = [knol.copy() for knol in old]
            for c, f in enumerate(faces):
                if f[pos] == x:
                    new[c].set_must_be_color(x) if kind == HINT_COLOUR else new[c].set_must_be_value(x)
                else:
                    new[c].set_cannot_be_color(x) if kind == HINT_COLOUR else new[c].set_cannot_be_value(x)
            reveals, misleading = False, MAYBE
            for c in range(len(faces) - 1, -1, -1):
                if old[c].playable() != MAYBE:
                    continue
                if new[c].playable() == YES:
                    reveals = True
                elif new[c].playable() == MAYBE and faces[c][pos] == x and misleading == MAYBE:
                    misleading = NO if really_playable[c] else YES
            if not (reveals or misleading == NO):
                continue
            fitness = sum(o.possibilities() - n.possibilities() for o, n in zip(old, new))
            if fitness > best_fitness:
                best_fitness, best = fitness, (to, kind, x if kind == HINT_COLOUR else x - 1)
        return best_fitness, best


__all__ = ["SmartBotAgent", "CardKnowledge", "MYSTERY_DECK"]
