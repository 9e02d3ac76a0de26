"""``hanabi_v0``: Hanabi for 2-5 players as a PettingZoo AEC environment that writes the global trace.

Rules: :mod:`belief.envs.hanabi.world` (as in the Hanabi Learning Environment; checked against it by
``tests/envs/hanabi/test_hle_differential.py``). What each player observes, as trace events:
:mod:`belief.envs.hanabi.events`. What the hints say about each card: :mod:`belief.envs.hanabi.knowledge`.
ToM questions with exact answers from the checker: :mod:`belief.envs.hanabi.tom` (``questions(env.trace)``).
Each player's private trace (the events it perceived, values it did not see masked) comes from
``env.take_perceived(agent)``.

Actions (``Discrete(n_actions(N))``, 20 with two players): play slot s, discard slot s, then per other
player a block of ten hints (five colours, red yellow green blue white, then ranks 1-5); see
:mod:`belief.envs.hanabi.world`. Illegal moves are masked (``infos[agent]["action_mask"]`` and the
observation's ``action_mask``). Observation::

    Dict(observation: Box(0, 50, (10 + 2H(N-1),), int64)  # hints, lives, deck size, 5 fireworks, own hand
                                                # size, each other player's H cards in turn order as
                                                # (colour index + 1, rank), turn % 50
         action_mask: Box(0, 1, (n_actions,), int8),
         text: Text(0..4096, printable))

The reward is the score change (a final loss of all lives takes the score to 0).
"""

from __future__ import annotations

import numpy as np

from belief.envs.base.parallel import turn_based_constructors
from belief.envs.hanabi.events import CONSTRAINTS, hint_events, reveal_events, setup_events
from belief.envs.hanabi.knowledge import HintKnowledge
from belief.envs.hanabi.world import COLOURS, MAX_SCORE, RANKS, Game, HINT_COLOUR, hand_size, n_actions, players_of
from belief.envs.base.spaces import printable
from belief.envs.base.text_env import TurnBasedTextEnv
from belief.truth.trace import Action, Trace
from belief.envs.base.render import rendered

TEXT_MAX = 4096
OBS_LEN = 20    # of two players (obs_len(n) in general)


def obs_len(players: int) -> int:
    return 10 + 2 * hand_size(players) * (players - 1)


class raw_env(TurnBasedTextEnv):
    metadata = {"name": "hanabi_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    OBS_BOX = (0, 50, (OBS_LEN,), np.int64)
    N_ACTIONS = n_actions(2)
    TEXT_MAX = TEXT_MAX

    def __init__(self, seed: int | None = None, render_mode: str | None = None, players: int = 2):
        super().__init__(render_mode)
        self.possible_agents = list(players_of(players))
        self.n_players = int(players)
        self.OBS_BOX = (0, 50, (obs_len(self.n_players),), np.int64)
        self.N_ACTIONS = n_actions(self.n_players)
        self._seed = seed
        self.reset(seed=seed)

    # --- lifecycle ---------------------------------------------------------------------------------
    def reset(self, seed=None, options=None, game: Game | None = None):
        """A new game from ``seed``, or ``game`` (a dealt :class:`Game`, e.g. :meth:`Game.from_deal`)."""
        if seed is not None:
            self._seed = seed
        self.game = game if game is not None else Game.new(self._seed, self.n_players)
        g = self.game
        self._start_episode()
        #: the public hint history: card -> its possible colours and ranks
        self.hinted = HintKnowledge()
        self.last_move: str = ""
        self._last_public: dict | None = None
        self.trace = Trace(meta={"env": "hanabi_v0", "seed": self._seed, "agents": list(g.players),
                                 "players": len(g.players), "colours": list(COLOURS), "ranks": list(RANKS),
                                 "constraints": CONSTRAINTS})
        for ev in setup_events(sorted(g.cards.values(), key=lambda c: c.id), g.hands, "setup"):
            self._log(ev)
        self._refresh_infos()

    # --- observation -------------------------------------------------------------------------------
    def observe(self, agent):
        g = self.game
        h = g.hand_size
        hand = []
        for other in g.others(agent):
            cards = [g.cards[k] for k in g.hands[other]]
            for i in range(h):
                c = cards[i] if i < len(cards) else None
                hand += [COLOURS.index(c.colour) + 1, c.rank] if c else [0, 0]
        vec = np.array([g.hints, g.lives, len(g.draw_pile), *(g.fireworks[c] for c in COLOURS),
                        len(g.hands[agent]), *hand, g.turn % 50], dtype=np.int64)
        return {"observation": vec, "action_mask": np.array(g.legal(agent), dtype=np.int8),
                "text": printable(self.text(agent), TEXT_MAX)}

    def hint_knowledge(self, card: int) -> str:
        """What the public hints say about a card, e.g. 'red ?' or '? (not red,yellow,1,2)'."""
        colours, ranks = self.hinted.possible(card)
        colour = next(iter(colours)) if len(colours) == 1 else "?"
        rank = str(next(iter(ranks))) if len(ranks) == 1 else "?"
        nots = [c for c in COLOURS if c not in colours] + [str(r) for r in RANKS if r not in ranks]
        return f"{colour} {rank}" + (f" (not {','.join(nots)})" if nots and (colour == "?" or rank == "?") else "")

    def text(self, agent: str) -> str:
        g = self.game
        lines = [f"Turn {g.turn}. Hint tokens {g.hints}, lives {g.lives}, deck {len(g.draw_pile)}, score {g.score()}.",
                 "Fireworks: " + ", ".join(f"{c} {g.fireworks[c]}" for c in COLOURS) + "."]
        if self.last_move:
            lines.append(f"Last move: {self.last_move}")
        for other in g.others(agent):
            lines.append(f"{other.capitalize()}'s hand (slot 0 newest): " + "; ".join(
                f"{i}: {g.cards[k].name()} [they know: {self.hint_knowledge(k)}]" for i, k in enumerate(g.hands[other])))
        lines.append("Your hand (what hints told you): " + "; ".join(
            f"{i}: {self.hint_knowledge(k)}" for i, k in enumerate(g.hands[agent])))
        return "\n".join(lines)

    def public_view(self, agent: str) -> dict:
        """What ``agent`` sees, structured: the public state, the other players' cards (``visible_cards``;
        ``partner_cards`` is the same dict), its own card ids (not their faces) and the last move (for
        programmatic agents; ``infos[agent]["obs"]``)."""
        g = self.game
        visible = {k: (g.cards[k].colour, g.cards[k].rank) for other in g.others(agent) for k in g.hands[other]}
        return {"agent": agent, "players": list(g.players), "turn": g.turn, "hints": g.hints, "lives": g.lives,
                "deck": len(g.draw_pile), "fireworks": dict(g.fireworks),
                "hands": {p: list(h) for p, h in g.hands.items()},
                "visible_cards": visible, "partner_cards": visible,
                "discards": [(k, g.cards[k].colour, g.cards[k].rank) for k in g.discards],
                "final_turns": g.final_turns,
                "last_move": dict(self._last_public) if self._last_public else None}

    def _refresh_infos(self) -> None:
        self.infos = {a: {"action_mask": np.array(self.game.legal(a), dtype=np.int8), "obs": self.public_view(a)}
                      for a in self.agents}

    # --- stepping ----------------------------------------------------------------------------------
    def _take_turn(self, agent, action):
        g = self.game
        before = g.score()
        move = g.move(action)
        out = g.step(move.action)
        source = f"turn {g.turn - 1} {agent}"
        public = {"turn": g.turn - 1, "hands": {p: list(h) for p, h in g.hands.items()}}
        if move.is_hint:
            receiver = out.receiver
            is_colour = move.kind == HINT_COLOUR
            params = {"kind": move.kind, "value": str(move.hint_value), "touched": list(out.touched),
                      "untouched": list(out.untouched)}
            self.hinted.apply_hint(params)
            negatives = {k: self.hinted.ruled_out(k, is_colour) for k in out.untouched}
            events = hint_events(agent, move, out.touched, out.untouched, negatives, source, public,
                                 g.players, receiver)
            what = ", ".join(f"slot {g.hands[receiver].index(k)}" for k in out.touched)
            self.last_move = f"{agent.capitalize()} hinted {move.hint_value} to {receiver.capitalize()}: {what}."
        else:
            receiver = None
            events = reveal_events(out, g.fireworks, source, public, g.players)
            verb = ("played" if out.success else "misplayed") if move.kind == "play" else "discarded"
            self.last_move = f"{agent.capitalize()} {verb} {out.card.name()} from slot {move.index}."
        for ev in events:
            self._log(ev)
        self._last_public = {"player": agent, "kind": move.kind, "index": move.index, "receiver": receiver,
                             "touched": list(out.touched), "untouched": list(out.untouched),
                             "value": move.hint_value if move.is_hint else None, "success": out.success,
                             "card": out.card.id if out.card else None, "turn": g.turn - 1}
        self._reward_everyone(g.score() - before, agent)
        if g.over:
            self._log(Action(name="end", visible_to=(), source="end",
                             params={"reason": g.end_reason, **self.metrics()}))
            self._end_episode(truncated=False)
        self.agent_selection = self._selector.next()
        self._refresh_infos()
        if self.render_mode == "human":
            self.render()

    # --- metrics & rendering -----------------------------------------------------------------------
    def metrics(self) -> dict:
        g = self.game
        return {"score": g.score(), "fireworks": sum(g.fireworks.values()), "max_score": MAX_SCORE,
                "lives": g.lives, "hints": g.hints, "turns": g.turn, "end_reason": g.end_reason}

    def render(self):
        text = "\n".join(self.text(a) for a in self.game.players)
        return rendered(self.render_mode, text)


#: ``env()`` (AEC, wrapped) and ``parallel_env()`` (one turn per step)
env, parallel_env = turn_based_constructors(raw_env)


def global_trace(seed, actions, players: int = 2) -> Trace:
    """The global trace of a game played from ``seed`` with a list of actions (for scripted questions)."""
    e = raw_env(seed=seed, players=players)
    for a in actions:
        if not e.agents:
            break
        e.step(a)
    return e.trace


__all__ = ["env", "parallel_env", "raw_env", "global_trace", "OBS_LEN", "TEXT_MAX", "obs_len"]
