"""``hanabi_v0``: 2-player Hanabi as a PettingZoo AEC environment that writes the global trace.

Rules: :mod:`belief.envs.hanabi.rules`. What each player observes, as trace events:
:mod:`belief.envs.hanabi.events`. ToM questions with exact answers from the checker:
:mod:`belief.envs.hanabi.tom` (``questions(env.trace)``). Each player's private trace (the events it
perceived, values it did not see masked) comes from ``env.take_perceived(agent)``.

Actions (``Discrete(20)``): 0-4 play slot s, 5-9 discard slot s, 10-14 hint a colour (red, yellow, green,
blue, white), 15-19 hint a rank 1-5; illegal moves are masked (``infos[agent]["action_mask"]`` and the
observation's ``action_mask``). Observation::

    Dict(observation: Box(0, 50, (20,), int64)  # hints, lives, deck size, 5 fireworks, own hand size,
                                                # partner's 5 cards as (colour index + 1, rank), turn % 50
         action_mask: Box(0, 1, (20,), int8),
         text: Text(0..4096, printable))

The reward is the score change (a final loss of all lives takes the score to 0).
"""

from __future__ import annotations

import numpy as np

from belief.envs.base.parallel import turn_based_constructors
from belief.envs.hanabi.events import hint_events, reveal_events, setup_events
from belief.envs.hanabi.rules import (COLOURS, HAND_SIZE, MAX_SCORE, N_ACTIONS, PLAYERS, RANKS, Game, Move,
                                      HINT_COLOUR)
from belief.envs.base.spaces import printable
from belief.envs.base.text_env import TurnBasedTextEnv
from belief.truth.trace import Action, Trace
from belief.envs.base.render import rendered

TEXT_MAX = 4096
OBS_LEN = 20


class raw_env(TurnBasedTextEnv):
    metadata = {"name": "hanabi_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    OBS_BOX = (0, 50, (OBS_LEN,), np.int64)
    N_ACTIONS = N_ACTIONS
    TEXT_MAX = TEXT_MAX

    def __init__(self, seed: int | None = None, render_mode: str | None = None):
        super().__init__(render_mode)
        self.possible_agents = list(PLAYERS)
        self._seed = seed
        self.reset(seed=seed)

    # --- lifecycle ---------------------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed = seed
        self.game = Game.new(self._seed)
        g = self.game
        self._start_episode()
        #: the public hint history: card -> colours / ranks that hints have ruled out
        self.not_colour: dict[int, set] = {}
        self.not_rank: dict[int, set] = {}
        self.known_colour: dict[int, str] = {}
        self.known_rank: dict[int, int] = {}
        self.last_move: str = ""
        self._last_public: dict | None = None
        self.trace = Trace(meta={"env": "hanabi_v0", "seed": self._seed, "agents": list(PLAYERS),
                                 "colours": list(COLOURS), "ranks": list(RANKS)})
        for ev in setup_events(sorted(g.cards.values(), key=lambda c: c.id), g.hands, "setup"):
            self._log(ev)
        self._refresh_infos()

    # --- observation -------------------------------------------------------------------------------
    def observe(self, agent):
        g = self.game
        partner = g.partner(agent)
        cards = [g.cards[k] for k in g.hands[partner]]
        hand = []
        for i in range(HAND_SIZE):
            c = cards[i] if i < len(cards) else None
            hand += [COLOURS.index(c.colour) + 1, c.rank] if c else [0, 0]
        vec = np.array([g.hints, g.lives, len(g.draw_pile), *(g.fireworks[c] for c in COLOURS),
                        len(g.hands[agent]), *hand, g.turn % 50], dtype=np.int64)
        return {"observation": vec, "action_mask": np.array(g.legal(agent), dtype=np.int8),
                "text": printable(self.text(agent), TEXT_MAX)}

    def hint_knowledge(self, card: int) -> str:
        """What the public hints say about a card, e.g. 'red ?' or '? not 1,2'."""
        colour = self.known_colour.get(card) or "?"
        rank = str(self.known_rank.get(card) or "?")
        nots = sorted(self.not_colour.get(card, ())) + [str(r) for r in sorted(self.not_rank.get(card, ()))]
        return f"{colour} {rank}" + (f" (not {','.join(nots)})" if nots and (colour == "?" or rank == "?") else "")

    def text(self, agent: str) -> str:
        g = self.game
        partner = g.partner(agent)
        lines = [f"Turn {g.turn}. Hint tokens {g.hints}, lives {g.lives}, deck {len(g.draw_pile)}, score {g.score()}.",
                 "Fireworks: " + ", ".join(f"{c} {g.fireworks[c]}" for c in COLOURS) + "."]
        if self.last_move:
            lines.append(f"Last move: {self.last_move}")
        lines.append(f"{partner.capitalize()}'s hand (slot 0 newest): " + "; ".join(
            f"{i}: {g.cards[k].name()} [they know: {self.hint_knowledge(k)}]" for i, k in enumerate(g.hands[partner])))
        lines.append("Your hand (what hints told you): " + "; ".join(
            f"{i}: {self.hint_knowledge(k)}" for i, k in enumerate(g.hands[agent])))
        return "\n".join(lines)

    def public_view(self, agent: str) -> dict:
        """What ``agent`` sees, structured: the public state, the partner's cards, its own card ids (not
        their faces) and the last move (for programmatic agents; ``infos[agent]["obs"]``)."""
        g = self.game
        partner = g.partner(agent)
        return {"agent": agent, "turn": g.turn, "hints": g.hints, "lives": g.lives, "deck": len(g.draw_pile),
                "fireworks": dict(g.fireworks), "hands": {p: list(h) for p, h in g.hands.items()},
                "partner_cards": {k: (g.cards[k].colour, g.cards[k].rank) for k in g.hands[partner]},
                "discards": [(k, g.cards[k].colour, g.cards[k].rank) for k in g.discards],
                "last_move": dict(self._last_public) if self._last_public else None}

    def _refresh_infos(self) -> None:
        self.infos = {a: {"action_mask": np.array(self.game.legal(a), dtype=np.int8), "obs": self.public_view(a)}
                      for a in self.agents}

    # --- stepping ----------------------------------------------------------------------------------
    def step(self, action):
        if self._dead_step(action):
            return
        agent = self.agent_selection
        g = self.game
        before = g.score()
        move = Move.of(action)
        out = g.step(move.action)
        source = f"turn {g.turn - 1} {agent}"
        public = {"turn": g.turn - 1, "hands": {p: list(h) for p, h in g.hands.items()}}
        if out.touched or out.untouched:
            self._record_hint(move, out)
            negatives = self.not_colour if move.kind == HINT_COLOUR else self.not_rank
            events = hint_events(agent, move, out.touched, out.untouched, negatives, source, public)
            what = ", ".join(f"slot {g.hands[g.partner(agent)].index(k)}" for k in out.touched)
            self.last_move = f"{agent.capitalize()} hinted {move.hint_value} to {g.partner(agent).capitalize()}: {what}."
        else:
            events = reveal_events(out, g.fireworks, source, public)
            verb = ("played" if out.success else "misplayed") if move.kind == "play" else "discarded"
            self.last_move = f"{agent.capitalize()} {verb} {out.card.name()} from slot {move.index}."
        for ev in events:
            self._log(ev)
        self._last_public = {"player": agent, "kind": move.kind, "index": move.index,
                             "touched": list(out.touched), "success": out.success,
                             "card": out.card.id if out.card else None}
        self._reward_everyone(g.score() - before, agent)
        if g.over:
            self._log(Action(name="end", visible_to=(), source="end",
                             params={"reason": g.end_reason, **self.metrics()}))
            self._end_episode(truncated=False)
        self.agent_selection = self._selector.next()
        self._refresh_infos()
        if self.render_mode == "human":
            self.render()

    def _record_hint(self, move, out) -> None:
        value = move.hint_value
        for k in out.touched:
            if move.kind == HINT_COLOUR:
                self.known_colour[k] = value
            else:
                self.known_rank[k] = value
        for k in out.untouched:
            negatives, values, known = ((self.not_colour, COLOURS, self.known_colour) if move.kind == HINT_COLOUR
                                        else (self.not_rank, RANKS, self.known_rank))
            negatives.setdefault(k, set()).add(value)
            left = [v for v in values if v not in negatives[k]]
            if len(left) == 1:
                known[k] = left[0]

    # --- metrics & rendering -----------------------------------------------------------------------
    def metrics(self) -> dict:
        g = self.game
        return {"score": g.score(), "fireworks": sum(g.fireworks.values()), "max_score": MAX_SCORE,
                "lives": g.lives, "hints": g.hints, "turns": g.turn, "end_reason": g.end_reason}

    def render(self):
        text = "\n".join(self.text(a) for a in PLAYERS)
        return rendered(self.render_mode, text)


#: ``env()`` (AEC, wrapped) and ``parallel_env()`` (one turn per step)
env, parallel_env = turn_based_constructors(raw_env)


def global_trace(seed, actions) -> Trace:
    """The global trace of a game played from ``seed`` with a list of actions (for scripted questions)."""
    e = raw_env(seed=seed)
    for a in actions:
        if not e.agents:
            break
        e.step(a)
    return e.trace


__all__ = ["env", "parallel_env", "raw_env", "global_trace", "OBS_LEN", "TEXT_MAX"]
