"""A CoELA-like baseline for ``household_v0``: the planner decides when to talk; messages carry everything.

CoELA's communication module writes, when its planner picks "send a message", its full progress and
plan: what it has found, what it holds, which goals are done, where it has looked, what it will do. This
agent does the same without an LLM: it plans with MHP (honouring the partner's announced plan), and it
sends a message whenever it has learned goal-relevant facts since its last message or its plan changed
(at most every other step, as a message costs a step). The message holds the progress per goal, its
room and hands, every goal-class object location it believes, every receptacle it has seen, and its
plan. It keeps no model of what the partner already knows.
"""

from __future__ import annotations

from belief.agents.household import messages as msgs
from belief.agents.household.agent import HouseholdAgent
from belief.agents.household.mhp import Situation, missing
from belief.envs.household.world import object_class

MIN_GAP = 2


class CoELAAgent(HouseholdAgent):
    kind = "coela"

    def __init__(self, name: str, task_info: dict):
        super().__init__(name, task_info)
        self.last_sent = -MIN_GAP
        self.sent_facts: frozenset = frozenset()
        self.sent_plan = None

    def compose_message(self, sit: Situation, subgoal) -> str | None:
        if self.partner is None or self.record.step - self.last_sent < MIN_GAP:
            return None
        facts = frozenset((o, loc) for o, loc in sit.where.items() if object_class(o) in self.task.target_of)
        if facts <= self.sent_facts and subgoal == self.sent_plan:
            return None
        self.last_sent, self.sent_facts, self.sent_plan = self.record.step, facts, subgoal
        self.announced = (subgoal, self.record.step)
        need = missing(self.task, sit.where)
        progress = "Progress: " + "; ".join(f"{g.relation}({g.cls}, {g.target}) {g.count - need[g.cls]}/{g.count}"
                                            for g in self.task.goals) + "."
        held = ", ".join(o for o in sit.hands if o) or "nothing"
        where = f"I am in the {sit.room}, holding {held}."
        return msgs.compose(sorted(facts), sorted(sit.checked), subgoal, preamble=(progress, where))


__all__ = ["CoELAAgent"]
