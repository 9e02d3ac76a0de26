"""The ToM planner: the recommender's top k, chosen with first-order beliefs about every hand
(:class:`~belief.agents.guandan.beliefs.HandBeliefs`); its ToM answers come from the same beliefs, first and
second order.

Leading (``k`` candidates from :func:`~belief.agents.guandan.recommender.recommend`):

* cooperative - when the partner is still in and has :data:`CLOSE` (3) cards or fewer, lead the candidate the partner most
  probably beats and the next opponent least probably beats (a low single or pair to let the partner through);
* blocking - when an opponent has :data:`CLOSE` cards or fewer, lead the candidate the opponents least probably beat;
* otherwise the recommender's first choice.

Following:

* the partner owns the table: pass (cooperative), unless a move empties my hand, or the next opponent has
  few cards (<= :data:`CLOSE`) and probably beats the partner's play (then block with the recommender's best reply);
* an opponent owns it: the recommender's best non-bomb reply; with an opponent on :data:`CLOSE` cards or fewer, the reply
  the opponents least probably beat; a bomb only against an opponent on :data:`BOMB_AT` (6) cards or fewer (or if passing is
  not allowed); else pass.

Probabilities are :meth:`~belief.agents.guandan.beliefs.HandBeliefs.p_can_beat` (exact for singles,
sampled otherwise, from a generator seeded by the agent's name and seed).

:class:`GuandanPlannerAgent` (kind ``planner``) is the same planner with every belief branch switched off (the
ablation): it leads the recommender's first choice, passes when its partner owns the table, and otherwise
plays the recommender's best reply, bombing under the same rule; what separates it from ``tom`` is exactly what
the beliefs about the other hands decide.
"""

from __future__ import annotations

import random

from belief.agents.guandan.basic import action_of
from belief.agents.guandan.beliefs import HandBeliefs
from belief.agents.guandan.recommender import recommend
from belief.agents.protocol import AgentBase
from belief.envs.guandan.combinations import power
from belief.grading.questions import private_answer, question_from_dict
from belief.grading.render import say
from belief.truth.record import PrivateRecord

CLOSE = 3          # cards left that make a player "close to finishing" (tuned, see docs/worlds/guandan.md)
BOMB_AT = 6        # an opponent with this many cards or fewer is worth a bomb (tuned likewise)


class GuandanToMAgent(AgentBase):
    kind = "tom"
    #: whether the belief branches decide (False: :class:`GuandanPlannerAgent`, the ablation)
    use_beliefs = True

    def __init__(self, name: str, seed: int = 0, k: int = 5):
        self.name = name
        self.k = k
        self.rng = random.Random(f"guandan-tom:{name}:{seed}")
        self._view: dict | None = None
        self.private_record = PrivateRecord(name)  # what it perceived (when the env hands private traces out)

    def perceive(self, events, info=None) -> None:
        """Keeps the latest view (the answers to the level questions are read from it) and adds the perceived
        events to its private record (the answers to questions of the general model are read from that)."""
        if info and "obs" in info:
            self._view = info["obs"]
        if events:
            self.private_record.add(events)

    def beliefs(self, view: dict) -> HandBeliefs:
        return HandBeliefs(view)

    def _next_opponent(self, view: dict) -> str | None:
        players = list(view["cards_left"])
        i = players.index(self.name)
        for j in range(1, 4):
            p = players[(i + j) % 4]
            if p != view["partner"] and view["cards_left"][p] > 0:
                return p
        return None

    def _opponents(self, view: dict) -> list:
        return [p for p in view["cards_left"] if p not in (self.name, view["partner"]) and view["cards_left"][p] > 0]

    def act(self, observation, info: dict) -> int:
        view, moves, mask = info["obs"], info["moves"], info["action_mask"]
        b = self.beliefs(view)
        hand = view["hand"]
        level = view["level"]
        finishing = [m for m in moves if len(m.cards) == len(hand)]
        if finishing:
            return action_of(moves, finishing[0])
        left = view["cards_left"]
        partner = view["partner"]
        opps = self._opponents(view)
        close_opps = [p for p in opps if left[p] <= CLOSE]
        nxt = self._next_opponent(view)
        if view["table"] is None:
            cands = recommend([m for m in moves if not m.is_bomb] or moves, hand, level, self.k)
            if not self.use_beliefs:
                return action_of(moves, cands[0])
            if left[partner] and left[partner] <= CLOSE:
                def coop(m):
                    p_partner = b.p_can_beat(partner, m, rng=self.rng)
                    p_opp = b.p_can_beat(nxt, m, rng=self.rng) if nxt else 0.0
                    return p_partner - p_opp
                return action_of(moves, max(cands, key=coop))
            if close_opps:
                return action_of(moves, min(cands, key=lambda m: max(b.p_can_beat(p, m, rng=self.rng)
                                                                     for p in close_opps)))
            return action_of(moves, cands[0])
        table, owner = view["table"], view["table_owner"]
        plain = [m for m in moves if not m.is_bomb]
        if owner == partner and mask[0]:
            if (self.use_beliefs and nxt and left[nxt] <= CLOSE and plain
                    and b.p_can_beat(nxt, table, rng=self.rng) > 0.5):
                return action_of(moves, recommend(plain, hand, level, 1)[0])
            return 0
        if plain:
            cands = recommend(plain, hand, level, self.k)
            if self.use_beliefs and close_opps:
                return action_of(moves, min(cands, key=lambda m: max(b.p_can_beat(p, m, rng=self.rng)
                                                                     for p in close_opps)))
            return action_of(moves, cands[0])
        bombs = [m for m in moves if m.is_bomb]
        if bombs and (left.get(owner, 0) <= BOMB_AT or not mask[0]):
            return action_of(moves, min(bombs, key=power))
        return 0 if mask[0] else 1

    def answer(self, question: dict) -> str:
        """Yes or No from its beliefs (first and second order) on its latest view; a question of the general
        model (``question["question"]``: the selected set) from the checker on its private record
        (:func:`belief.grading.questions.private_answer`), in words the one reader reads."""
        if "question" in question:
            general = question_from_dict(question["question"])[0]
            if not len(self.private_record):
                return say(general, None)
            return say(general, private_answer(self.private_record.truth(), general))
        if self._view is None or question.get("asked") != self.name:
            return "I do not know."
        return "Yes" if self.beliefs(self._view).answer(question) else "No"


class GuandanPlannerAgent(GuandanToMAgent):
    """The ToM planner with its belief branches off (see the module doc)."""

    kind = "planner"
    use_beliefs = False


__all__ = ["GuandanPlannerAgent", "GuandanToMAgent"]
