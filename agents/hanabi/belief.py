"""The Hanabi belief agent: the conventional bot's conventions, played with beliefs about the others' minds.

Its knowledge of its own cards and its model of every other player's knowledge of theirs are the
checker's answers on its private trace (:meth:`HanabiPlayer.knowledge`, the ``has_colour``/``has_rank``
fluents on the player's chain: negative hints and elimination included), refined by counting the copies
the player can see. On its turn it scores its candidate moves (the conventional move, every hint that
misleads nobody, discarding its chop) by **simulating the other players' policy over their belief states**:
after each candidate, what each other player will know (its knowledge after the hint), how it will read
the hint (the conventions), and so what it will do: which of its cards it will play (right or wrong,
the agent sees them), whether the next player will discard its chop and what that card is worth. The
move with the best simulated outcome is played; the conventional move wins ties.
"""

from __future__ import annotations

from belief.agents.hanabi.conventions import HanabiConventionalAgent, Table, candidates, share, weighted
from belief.envs.hanabi.world import MAX_HINTS, hand_size

MISPLAY = 2.5       # cost of a card that will be played wrongly (a life, and the card)
PROTECT = 0.35      # a touched critical card (it will not be discarded)


class HanabiBeliefAgent(HanabiConventionalAgent):
    kind = "belief"
    #: read knowledge from the checker (False: from the hint record, the same sets by the HLE differential
    #: tests, ten times faster; for experiments)
    use_checker = True

    #: do not discard a chop the previous player has not seen as my chop (it could not have saved it)
    vet_chop = True

    def perceive(self, events, info: dict | None = None) -> None:
        super().perceive(events, info)
        if info is not None:  # my chop and the tokens at the start of each turn: was my chop seen as such?
            view = info["obs"]
            self._chop_at.setdefault(view["turn"], (self.public_chop(view["hands"][self.name], self.touched),
                                                    view["hints"]))

    @property
    def _chop_at(self) -> dict:
        if not hasattr(self, "_chops"):
            self._chops = {}
        return self._chops

    def chop_vetted(self, view: dict) -> bool:
        """Whether the player before me saw my current chop as my chop, with a token to save it, and did not
        (the save convention: it would have, were the card critical)."""
        chop = self.public_chop(view["hands"][self.name], self.touched)
        before = self._chop_at.get(view["turn"] - 1)
        return before is not None and before[0] == chop and before[1] > 0

    # --- knowledge: the checker on the private trace --------------------------------------------------
    def possible_of(self, player: str, card: int) -> tuple:
        if not self.use_checker:
            return self.hinted.possible(card)
        return self.knowledge((player,), card)

    # --- simulating the others ------------------------------------------------------------------------
    def predicted_play(self, view: dict, table: Table, player: str, knowledge, marked: set):
        """The card ``player`` will play next by the conventions, given its knowledge and the play marks."""
        counts = self.counts_of(player, view, table)
        hand = view["hands"][player]
        cards = [(k, candidates(*knowledge(k), counts)) for k in hand]
        sure = [(min(r for _, r in pairs), i, k) for i, (k, pairs) in enumerate(cards)
                if all(table.playable(p) for p in pairs)]
        if sure:
            return min(sure)[2]
        for k, pairs in cards:
            if k in marked and any(table.playable(p) for p in pairs):
                return k
        return None

    def hand_potential(self, view: dict, table: Table, player: str, knowledge, marked: set, touched: set) -> float:
        """What a player's hand is worth given what it knows: cards it will play (right +1 / wrong -MISPLAY:
        it plays a known or clued card), critical cards it will keep (touched)."""
        counts = self.counts_of(player, view, table)
        out = 0.0
        for k in view["hands"][player]:
            pair = view["visible_cards"][k]
            pairs = candidates(*knowledge(k), counts)
            plays = all(table.playable(p) for p in pairs) or k in marked and any(table.playable(p) for p in pairs)
            if plays:
                out += 1.0 if table.playable(pair) else -MISPLAY
            elif k in touched and table.critical(pair):
                out += PROTECT
        return out

    def next_discard_loss(self, view: dict, table: Table, player: str, knowledge, marked: set, touched: set,
                          hints_left: int) -> float:
        """Expected loss when ``player`` (the next to move) has nothing to play and discards its chop."""
        if self.predicted_play(view, table, player, knowledge, marked) is not None:
            return 0.0
        if hints_left >= MAX_HINTS:
            return 0.0
        hand = view["hands"][player]
        chop = next((k for k in reversed(hand) if k not in touched and k not in self.marked_keep), None)
        if chop is None:
            return 0.0
        p_discard = 1.0 if hints_left == 0 else 0.6
        return p_discard * table.value(view["visible_cards"][chop])

    # --- scoring candidate moves ----------------------------------------------------------------------
    def token_value(self, hints: int) -> float:
        return 0.7 if hints <= 1 else 0.5 if hints <= 3 else 0.3

    def hint_score(self, view: dict, table: Table, receiver: str, kind: str, value, touched) -> float | None:
        """The simulated gain of a hint: the receiver's hand potential after it minus before, and the next
        player's discard; None when it would make anyone misplay."""
        before_k = lambda k: self.possible_of(receiver, k)
        after_k = self.after_hint(receiver, kind, value, touched, view["hands"][receiver])
        read = self.read_hint(view, receiver, kind, value, touched, self.touched, table, after_k)
        marked_after, keep_after = set(self.marked_play), set()
        if read is not None:
            focus, reading = read
            (marked_after if reading == "play" else keep_after).add(focus)
        touched_after = self.touched | set(touched)
        gain = (self.hand_potential(view, table, receiver, after_k, marked_after, touched_after)
                - self.hand_potential(view, table, receiver, before_k, self.marked_play, self.touched))
        nxt = self.players[(self.players.index(self.name) + 1) % len(self.players)]
        if nxt == receiver:
            loss_before = self.next_discard_loss(view, table, nxt, before_k, self.marked_play, self.touched,
                                                 view["hints"])
            saved = self.marked_keep
            self.marked_keep = self.marked_keep | keep_after
            loss_after = self.next_discard_loss(view, table, nxt, after_k, marked_after, touched_after,
                                                view["hints"] - 1)
            self.marked_keep = saved
            gain += loss_before - loss_after
        return gain - self.token_value(view["hints"] - 1)

    def my_move_score(self, view: dict, table: Table, kind: str, slot: int) -> float:
        """Expected value of playing or discarding my card in ``slot``, over what it may be."""
        counts = self.my_counts(view, table)
        k = view["hands"][self.name][slot]
        pairs = candidates(*self.possible_of(self.name, k), counts)
        if kind == "play":
            p = share(pairs, counts, table.playable)
            return p - (1 - p) * (MISPLAY if view["lives"] > 1 else 25.0)
        if k not in self.touched and k not in self.marked_keep:
            # the chop: the others would have saved it were it critical (the save convention)
            loss = 0.1
        else:
            w = weighted(pairs, counts)
            loss = sum(n * table.value(p) for p, n in w) / sum(n for _, n in w)
        return self.token_value(view["hints"]) - loss

    def choose(self, view: dict, mask) -> int:
        table = Table(view)
        h = hand_size(len(self.players))
        default = super().choose(view, mask)
        if view["hints"] > 0:
            fix = self.fix_clue(view, mask, table)
            if fix is not None:
                return fix
        if h <= default < 2 * h and self.vet_chop and view["hints"] > 0 and not self.chop_vetted(view):
            k = view["hands"][self.name][default - h]
            if k == self.public_chop(view["hands"][self.name], self.touched):
                best = self.best_hint(view, mask, table, default)
                if best is not None:
                    return best[1]
        if default < 2 * h or self.save_clue(view, mask, table) == default:
            return default
        # a play clue (or a hint at 8 tokens): the one whose simulated outcome is best
        best = self.best_hint(view, mask, table, default)
        return best[1] if best is not None and best[0] > 0 else default

    def best_hint(self, view: dict, mask, table: Table, default: int):
        """(score, action) of the hint whose simulated outcome is best (None if every hint misleads)."""
        best = None
        for a, receiver, kind, value, touched in self.hints(view, mask):
            s = self.hint_score(view, table, receiver, kind, value, touched)
            if s is not None and (best is None or s > best[0] + 1e-9 or (abs(s - best[0]) < 1e-9 and a == default)):
                best = (s, a)
        return best

    def fix_clue(self, view: dict, mask, table: Table):
        """When the next player is about to play a card that is not playable (it sees it as a known or clued
        play), the hint after which its predicted play is right (or nothing)."""
        nxt = self.players[(self.players.index(self.name) + 1) % len(self.players)]
        know = lambda k: self.possible_of(nxt, k)
        k = self.predicted_play(view, table, nxt, know, self.marked_play)
        if k is None or table.playable(view["visible_cards"][k]):
            return None
        best = None
        for a, receiver, kind, value, touched in self.hints(view, mask):
            if receiver != nxt:
                continue
            after = self.after_hint(receiver, kind, value, touched, view["hands"][receiver])
            read = self.read_hint(view, receiver, kind, value, touched, self.touched, table, after)
            marked = set(self.marked_play)
            if read is not None and read[1] == "play":
                marked.add(read[0])
            then = self.predicted_play(view, table, nxt, after, marked)
            if then is not None and not table.playable(view["visible_cards"][then]):
                continue
            s = self.hint_score(view, table, receiver, kind, value, touched)
            if s is not None and (best is None or s > best[0]):
                best = (s, a)
        return best[1] if best else None


__all__ = ["HanabiBeliefAgent", "MISPLAY"]
