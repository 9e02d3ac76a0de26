"""A CoELA-like baseline for ``household_v0``: it talks when it has news worth a step.

CoELA's planner chooses "send a message" when it has something its partner should hear; the message,
written by its communication module, carries its progress and plan: what it has found, what it holds,
which goals are done, where it has looked, what it will do. This agent does that without an LLM and
without a model of what the partner knows: it plans with MHP (honouring the partner's announced plan) and
sends a message only when it has *news worth a step* (:meth:`CoELAAgent.news`):

* it located goal-class objects still needed since its last message, while the partner was not in the
  room with it (what it saw with the partner there, the partner saw too), other than the one it fetches;
* or it starts a fetch or an exploration the partner has not heard of (so the partner leaves it alone).

It waits at least ``MIN_GAP`` steps between messages (each one costs its sender a step). The message
holds the progress per goal, its room and hands, the goal-class object locations it learned since its
last message, the receptacles it has seen since then, and its plan.

Before, this agent sent its whole store whenever anything changed (at most every other step): it spent
38% of its steps sending and was barely faster than one agent alone.
"""

from __future__ import annotations

from belief.agents.household import messages as msgs
from belief.agents.household.agent import HouseholdAgent
from belief.agents.household.mhp import Situation, missing, pending
from belief.envs.household.world import object_class

MIN_GAP = 4  # steps between two messages


class CoELAAgent(HouseholdAgent):
    kind = "coela"

    def __init__(self, name: str, task_info: dict):
        super().__init__(name, task_info)
        self.last_sent = -MIN_GAP
        self.sent_facts: set = set()    # (object, place) pairs said or seen with the partner
        self.sent_checked: set = set()
        self.sent_plan = None

    def _shared(self, sit: Situation) -> None:
        """What I see while the partner is in the room with me, it sees too: no news for it."""
        if self.record.partner_here():
            self.sent_facts |= self._facts(sit)
            self.sent_checked |= set(sit.checked)

    def _facts(self, sit: Situation) -> set:
        return {(o, loc) for o, loc in sit.where.items()
                if object_class(o) in self.task.target_of and self.task.is_receptacle(loc)}

    def news(self, sit: Situation, subgoal) -> tuple[list, bool]:
        """``(new goal-object facts the partner can use, whether my plan is news)``."""
        need = pending(self.task, sit)
        mine = subgoal[1] if subgoal[0] == "fetch" else None
        facts = sorted((o, loc) for o, loc in self._facts(sit) - self.sent_facts
                       if o != mine and need.get(object_class(o), 0) > 0
                       and loc != self.task.target_of[object_class(o)])
        plan_news = subgoal[0] in ("fetch", "explore") and subgoal != self.sent_plan
        return facts, plan_news

    def compose_message(self, sit: Situation, subgoal) -> str | None:
        if self.partner is None:
            return None
        self._shared(sit)
        if self.record.step - self.last_sent < MIN_GAP or self.record.partner_here():
            return None
        facts, plan_news = self.news(sit, subgoal)
        if not facts and not plan_news:
            return None
        checked = sorted(set(sit.checked) - self.sent_checked)
        self.last_sent, self.sent_plan = self.record.step, subgoal
        self.sent_facts |= self._facts(sit)
        self.sent_checked |= set(sit.checked)
        self.announced = (subgoal, self.record.step)
        need = missing(self.task, sit.where)
        progress = "Progress: " + "; ".join(f"{g.relation}({g.cls}, {g.target}) {g.count - need[g.cls]}/{g.count}"
                                            for g in self.task.goals) + "."
        held = ", ".join(o for o in sit.hands if o) or "nothing"
        where = f"I am in the {sit.room}, holding {held}."
        return msgs.compose(facts, checked, subgoal, preamble=(progress, where))


__all__ = ["CoELAAgent", "MIN_GAP"]
