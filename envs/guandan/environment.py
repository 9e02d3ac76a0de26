"""``guandan_v0``: 4-player Guandan as a PettingZoo AEC environment that writes the global trace.

Rules: :mod:`belief.envs.guandan.world` (a deal), :mod:`belief.envs.guandan.match` (levels and tribute between
deals), :mod:`belief.envs.guandan.moves` (the legal plays). Events: :mod:`belief.envs.guandan.events` and
:mod:`belief.envs.guandan.ruling_out`. ToM questions: :mod:`belief.envs.guandan.tom`.

Actions (``Discrete(1 + MAX_PLAYS)``, a per-turn list padded to a fixed bound): action 0 is the pass, action
``i >= 1`` the i-th play of the current list, ``env.moves(agent)`` (also ``infos[agent]["moves"]`` of the
player to act): the sorted legal plays of :func:`~belief.envs.guandan.moves.legal_plays`. Every other index is
masked (``infos[agent]["action_mask"]`` and the observation's ``action_mask``); the pass is masked when
leading (and, under ``pass_rule="must_beat"``, when a play beats the table). Observation::

    Dict(observation: Box(0, 108, (64,), int64)  # own hand as 54 face counts; cards left per seat from
                                                 # seat 0; level; table kind (index in KINDS, 11 = none),
                                                 # table key + 2; table owner (4 = none); seat to act;
                                                 # deal number
         action_mask: Box(0, 1, (1 + MAX_PLAYS,), int8),
         text: Text(0..4096, printable))

``deals`` deals are played (tribute before each but the first); the episode also ends when a team wins the
match at level A. ``private_traces=False`` keeps the global trace but hands no private traces out
(``take_perceived`` is then empty; the agents here read ``infos``). Reward at the end of each deal: +1 to the winning team's players, -1 to the others.
"""

from __future__ import annotations

import numpy as np

from belief.envs.base.parallel import turn_based_constructors
from belief.envs.base.render import rendered
from belief.envs.base.spaces import printable
from belief.envs.base.text_env import TurnBasedTextEnv
from belief.envs.guandan.cards import DECK_SIZE, face
from belief.envs.guandan.combinations import KINDS, PASS
from belief.envs.guandan.world import Deal, partner, team
from belief.envs.guandan.events import PLAYERS, deal_events
from belief.envs.guandan.match import Match
from belief.envs.guandan.moves import MAX_PLAYS
from belief.envs.guandan.ruling_out import pass_events, play_events, tribute_events
from belief.envs.guandan.text import observation_text
from belief.errors import BeliefError
from belief.truth.trace import Action, Trace

TEXT_MAX = 4096
OBS_LEN = 64
N_ACTIONS = 1 + MAX_PLAYS


class raw_env(TurnBasedTextEnv):
    metadata = {"name": "guandan_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    OBS_BOX = (0, DECK_SIZE, (OBS_LEN,), np.int64)
    N_ACTIONS = N_ACTIONS
    TEXT_MAX = TEXT_MAX

    def __init__(self, seed: int | None = None, render_mode: str | None = None, deals: int = 1,
                 pass_rule: str = "free", record_trace: bool = True, private_traces: bool = True):
        super().__init__(render_mode)
        if deals < 1:
            raise BeliefError(f"guandan_v0: deals must be at least 1, got {deals}")
        self.possible_agents = list(PLAYERS)
        self._seed = seed
        self.n_deals = deals
        self.pass_rule = pass_rule
        self.record_trace = record_trace
        self.private_traces = private_traces
        self.reset(seed=seed)

    def _start_perception(self, agents) -> None:
        """``private_traces=False``: the global trace only (agents that read ``infos`` need no private trace)."""
        super()._start_perception(agents)
        if not self.private_traces:
            self._filters = {}

    # --- lifecycle ---------------------------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed = seed
        self._start_episode()
        self.match = Match(seed=self._seed, pass_rule=self.pass_rule)
        self.trace = Trace(meta={"env": "guandan_v0", "seed": self._seed, "agents": list(PLAYERS),
                                 "deals": self.n_deals, "pass_rule": self.pass_rule})
        self.results: list[dict] = []
        self.turn = 0
        self._start_deal()
        self._refresh()

    def _start_deal(self) -> None:
        m = self.match
        self.deal: Deal = m.next_deal()
        n = m.deals
        source = f"deal {n}"
        # the tribute moved cards before the deal's own hands are final: log the hands as dealt, then the moves
        tribute = m.last_tribute
        hands = [list(h) for h in self.deal.hands]
        if tribute is not None:
            for t in reversed(tribute.transfers):  # undo, to log the deal as it came out of the shuffle
                hands[t.receiver].remove(t.card)
                hands[t.giver].append(t.card)
        for ev in deal_events(hands, source, new_deal=n > 1):
            self._log(ev)
        self._log(Action(name="start_deal", visible_to=tuple(PLAYERS), source=source,
                         params={"deal": n, "level": self.deal.level, "leader": PLAYERS[self.deal.leader],
                                 "anti_tribute": bool(tribute and tribute.anti_tribute)}))
        self.played: set = set()
        self.public_history: list = []
        self.tributes: list = []  # (giver, receiver, card, kind)
        if tribute is not None:
            located = set()
            for t in tribute.transfers:
                for ev in tribute_events(PLAYERS[t.giver], PLAYERS[t.receiver], t.card, t.kind, located, source):
                    self._log(ev)
                if t.kind == "tribute":
                    located.add(t.card)
                self.tributes.append((PLAYERS[t.giver], PLAYERS[t.receiver], t.card, t.kind))

    # --- moves -------------------------------------------------------------------------------------------
    def moves(self, agent: str) -> list:
        """The plays of ``agent`` now (action i >= 1 is ``moves[i - 1]``); empty when it is not its turn."""
        seat = PLAYERS.index(agent)
        if not self.agents or seat != self.deal.turn:
            return []
        return self._moves

    def _refresh(self) -> None:
        d = self.deal
        legal = d.legal() if not d.over else []
        self._pass_ok = bool(legal) and legal[0] == PASS
        self._moves = [m for m in legal if m != PASS]
        if not d.over:
            self.agent_selection = PLAYERS[d.turn]
        self.infos = {a: {"action_mask": self._mask(a), "obs": self.public_view(a), "moves": self.moves(a)}
                      for a in self.agents}

    def _mask(self, agent: str) -> np.ndarray:
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        if self.agents and PLAYERS.index(agent) == self.deal.turn:
            mask[0] = 1 if self._pass_ok else 0
            mask[1:1 + len(self._moves)] = 1
        return mask

    # --- observation -------------------------------------------------------------------------------------
    def public_view(self, agent: str) -> dict:
        """What ``agent`` sees, structured: its hand (card ids), the level, the table, the public history,
        the cards left per player, the finishing order so far, this deal's tribute (a returned card only to
        the two players who saw it) (``infos[agent]["obs"]``)."""
        d = self.deal
        seat = PLAYERS.index(agent)
        return {"agent": agent, "seat": seat, "partner": PLAYERS[partner(seat)], "deal": self.match.deals,
                "level": d.level, "hand": list(d.hands[seat]), "table": d.table,
                "table_owner": PLAYERS[d.table_owner] if d.table is not None else None,
                "to_act": PLAYERS[d.turn], "history": list(self.public_history),
                "cards_left": {p: len(d.hands[i]) for i, p in enumerate(PLAYERS)},
                "finished": [PLAYERS[s] for s in d.finish], "played": sorted(self.played),
                "pass_rule": self.pass_rule, "levels": list(self.match.levels),
                "tributes": [(g, r, c if kind == "tribute" or agent in (g, r) else None, kind)
                             for g, r, c, kind in self.tributes]}

    def text(self, agent: str) -> str:
        return observation_text(self.public_view(agent))

    def observe(self, agent):
        d = self.deal
        seat = PLAYERS.index(agent)
        counts = [0] * 54
        for c in d.hands[seat]:
            counts[face(c)] += 1
        table = d.table
        vec = counts + [len(h) for h in d.hands] + [
            d.level, KINDS.index(table.kind) if table is not None else len(KINDS),
            (table.key + 2) if table is not None else 0,
            d.table_owner if table is not None else 4, d.turn, min(self.match.deals, DECK_SIZE)]
        return {"observation": np.array(vec, dtype=np.int64), "action_mask": self._mask(agent),
                "text": printable(self.text(agent), TEXT_MAX)}

    # --- stepping ----------------------------------------------------------------------------------------
    def _take_turn(self, agent, action):
        d = self.deal
        action = int(action)
        if action == 0 and self._pass_ok:
            move = PASS
        elif 1 <= action <= len(self._moves):
            move = self._moves[action - 1]
        else:
            raise BeliefError(f"guandan_v0: action {action} is not legal for {agent} (see the action mask)")
        table_before = d.table
        play = d.step(move)
        self.turn += 1
        source = f"deal {self.match.deals} turn {self.turn} {agent}"
        params = {"turn": self.turn, "deal": self.match.deals, "player": agent, "kind": move.kind,
                  "key": move.key, "cards": list(play.cards), "table_before": list(table_before) if table_before else None,
                  "cards_left": {p: len(d.hands[i]) for i, p in enumerate(PLAYERS)}, "level": d.level}
        if move.kind == "pass":
            unplayed = [k for k in range(DECK_SIZE) if k not in self.played]
            events = pass_events(agent, table_before, d.level, unplayed, self.pass_rule, source, params)
        else:
            self.played.update(play.cards)
            events = play_events(agent, move, play.cards, source, params)
        for ev in events:
            self._log(ev)
        self.public_history.append((agent, move))
        rewards = {a: 0 for a in self.agents}
        if d.over:
            rewards = self._finish_deal()
        for a in self.agents:
            self.rewards[a] = rewards[a]
        self._cumulative_rewards[agent] = 0
        self._accumulate_rewards()
        self._refresh()  # also after the last play: the agents' views show the final hands
        if self.render_mode == "human":
            self.render()

    def _finish_deal(self) -> dict:
        d, m = self.deal, self.match
        win = d.winning_team
        gain = d.upgrade()
        m.finish_deal(d)
        self.results.append({"deal": m.deals, "finish": [PLAYERS[s] for s in d.finish], "winning_team": win,
                             "upgrade": gain, "levels": list(m.levels)})
        self._log(Action(name="end_deal", visible_to=tuple(PLAYERS), source=f"deal {m.deals} end",
                         params=dict(self.results[-1])))
        rewards = {a: (1 if team(PLAYERS.index(a)) == win else -1) for a in self.agents}
        if m.winner is not None or m.deals >= self.n_deals:
            self._log(Action(name="end", visible_to=(), source="end", params=self.metrics()))
            self._end_episode(truncated=False)
        else:
            self._start_deal()
        return rewards

    # --- metrics & rendering -----------------------------------------------------------------------------
    def metrics(self) -> dict:
        last = self.results[-1] if self.results else None
        return {"deals": len(self.results), "winning_team": last["winning_team"] if last else None,
                "finish": last["finish"] if last else None, "upgrade": last["upgrade"] if last else None,
                "levels": list(self.match.levels), "match_winner": self.match.winner, "turns": self.turn}

    def render(self):
        return rendered(self.render_mode, "\n\n".join(self.text(a) for a in PLAYERS))


#: ``env()`` (AEC, wrapped) and ``parallel_env()`` (one turn per step)
env, parallel_env = turn_based_constructors(raw_env)

__all__ = ["N_ACTIONS", "OBS_LEN", "TEXT_MAX", "env", "parallel_env", "raw_env"]
