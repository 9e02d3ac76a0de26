"""``messenger``: a rule messenger for ``household_v0`` with no partner model ("say what is new, plus my plan").

The baseline CoBel's beliefs about the partner must beat: it plans with MHP (honouring the partner's
announced plan, as every team agent does) and, whenever it has learned goal-class object locations since
its last message or its subgoal changed, it sends those new facts, the receptacles it saw since, and its
plan, at most every ``MIN_GAP`` steps. It keeps no record of what the partner saw or knows.
"""

from __future__ import annotations

from belief.agents.household import messages as msgs
from belief.agents.household.agent import HouseholdAgent
from belief.agents.household.mhp import Situation, pending
from belief.envs.household.world import object_class

MIN_GAP = 4  # steps between two messages (as coela)


class MessengerAgent(HouseholdAgent):
    kind = "messenger"

    def __init__(self, name: str, task_info: dict):
        super().__init__(name, task_info)
        self.last_sent = -MIN_GAP
        self.said_facts: set = set()
        self.said_checked: set = set()
        self.said_plan = None

    def compose_message(self, sit: Situation, subgoal) -> str | None:
        if self.partner is None or self.record.step - self.last_sent < MIN_GAP:
            return None
        need = pending(self.task, sit)
        facts = {(o, loc) for o, loc in sit.where.items()
                 if object_class(o) in self.task.target_of and self.task.is_receptacle(loc)
                 and loc != self.task.target_of[object_class(o)]}
        new = sorted((o, loc) for o, loc in facts - self.said_facts if need.get(object_class(o), 0) > 0)
        new_plan = subgoal[0] in ("fetch", "explore") and subgoal != self.said_plan
        if not new and not new_plan:
            return None
        checked = sorted(set(sit.checked) - self.said_checked)
        self.last_sent, self.said_plan = self.record.step, subgoal
        self.said_facts |= facts
        self.said_checked |= set(sit.checked)
        self.announced = (subgoal, self.record.step)
        return msgs.compose(new, checked, subgoal)


__all__ = ["MessengerAgent"]
