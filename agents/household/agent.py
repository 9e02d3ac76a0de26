"""The common body of ``household_v0`` agents: perceive into a private record, plan with MHP, act.

:class:`HouseholdAgent` is the ``single`` agent (MHP alone) and the base of the team agents
(:mod:`belief.agents.household.cobel`, :mod:`belief.agents.household.coela`). Each step it

1. feeds the events it perceived (``info["perceived"]``, its private trace) into its
   :class:`~belief.agents.household.memory.Record`, and reads the partner's messages (plan, seen
   receptacles; the facts already arrived as perceived ``tell`` events);
2. builds its :class:`~belief.agents.household.mhp.Situation` (own hands from its own view);
3. ``decide`` (subclasses add partner reasoning) and ``message`` (subclasses decide whether to talk);
4. returns the action slot, or ``(send, text)``. If the planned action is not available (the record was
   wrong: the object is gone, the container was closed), it forgets that belief and plans again.

It never reads the world or the global trace.
"""

from __future__ import annotations

from belief.agents.household import messages as msgs
from belief.agents.protocol import AgentBase
from belief.agents.household.memory import Record
from belief.agents.household.mhp import Situation, Task, choose
from belief.agents.household.predict import ObservedPartner
from belief.envs.base.selected import believed_answer
from belief.envs.household.environment import A_SEND, A_WAIT
from belief.grading.questions import question_from_dict
from belief.grading.render import say

PLAN_MEMORY = 15  # steps a partner's announced plan stays credible


class HouseholdAgent(AgentBase):
    """Under the agent protocol the env hands the perceived events over in ``info["perceived"]``: ``act``
    takes them in (:meth:`take_in`) with the view, then plans; a message is part of the action
    (``(A_SEND, text)``), so ``message()`` is None."""

    kind = "single"
    prediction = None  # the partner's predicted subgoal at the last step (predicting agents set it)

    def __init__(self, name: str, task_info: dict):
        self.name = name
        self.task = Task(task_info)
        others = [a for a in task_info["agents"] if a != name]
        self.partner = others[0] if others else None
        self.record = Record(name, self.partner, self.task.furniture)
        self.hands: tuple = (None, None)
        self.subgoal = None
        self.partner_plan = None   # (subgoal, step told)
        self.announced = None      # (subgoal, step) of my last announced plan
        self.banned: set = set()   # objects not to choose this step (a yield)
        self.observed = ObservedPartner(self.task, self.partner)  # the partner's subgoals as I perceived them
        self.last_action = None    # the name of my last action (who opened what I saw opened)
        self.intent = None         # this step's MHP choice before any yield (scored by the bench)
        self.flagged = False       # this step: did I predict the partner heads for my subgoal (a detection)?
        self.stats = {"messages": 0, "replans": 0}

    # --- perception ----------------------------------------------------------------------------
    def take_in(self, info: dict, step: int) -> None:
        perceived = info.get("perceived") or ()
        held = {f[1] for f, v in self.record.zero.items() if f[0] == "in" and v == self.partner}
        self.observed.feed(perceived, held, self.last_action)
        self.record.feed(perceived, step)
        view = info["view"]
        self.hands = tuple(view["hands"])
        self.record.room = view["room"]
        for sender, text in view["messages"]:
            if sender != self.partner:
                continue
            plan, checked = msgs.read(text)
            if plan is not None:
                self.partner_plan = (plan, step)
                self.observed.told(plan)
            self.record.checked |= checked
            self.record.partner_checked |= checked

    def told_plan(self):
        """The partner's announced subgoal, while credible."""
        if self.partner_plan and self.record.step - self.partner_plan[1] <= PLAN_MEMORY:
            return self.partner_plan[0]
        return None

    def situation(self) -> Situation:
        r = self.record
        where = {f[1]: v for f, v in r.zero.items() if f[0] == "in" and isinstance(v, str)}
        for o in self.hands:
            if o is not None:
                where[o] = self.name
        plan = self.told_plan()
        if plan is not None and self.announced is not None and self.announced[0] == plan \
                and self.record.step - self.announced[1] <= PLAN_MEMORY and self.name < self.partner:
            plan = None  # we both announced it: the name that sorts first keeps it
        claimed = frozenset([plan[1]]) if plan and plan[0] == "fetch" else frozenset()
        avoid = frozenset([plan[1]]) if plan and plan[0] == "explore" and plan[1] else frozenset()
        opened = {f[1] for f, v in r.zero.items() if f[0] == "open" and v == "open"}
        return Situation(self.name, r.room, self.hands, where, opened, r.checked, claimed, avoid, set(self.banned))

    # --- questions -----------------------------------------------------------------------------
    def held(self, chain: tuple, fluent: tuple):
        """The definite value this agent's record holds for ``chain`` (itself: zero order; itself and its
        partner: first order), or None: it keeps no deeper beliefs."""
        if chain == (self.name,):
            v = self.record.zero.get(fluent)
        elif self.partner is not None and chain == (self.name, self.partner):
            v = self.record.first.get(fluent)
        else:
            return None
        return v if isinstance(v, str) else None

    def answer(self, question: dict) -> str:
        """A question of the general model (``question["question"]``, the selected set) answered from this
        agent's own record (:func:`belief.envs.base.selected.believed_answer`), in words the one reader reads."""
        if "question" not in question:
            return super().answer(question)
        q = question_from_dict(question["question"])[0]
        return say(q, believed_answer(q, self.name, self.held))

    # --- deciding ------------------------------------------------------------------------------
    def decide(self, sit: Situation):
        return choose(self.task, sit)

    def compose_message(self, sit: Situation, subgoal) -> str | None:
        return None

    def act(self, observation, info: dict):
        step = info["view"]["step"]
        self.take_in(info, step)
        names = {n: i for i, n in enumerate(info["action_names"]) if n}
        mask = info["action_mask"]
        for _ in range(4):
            sit = self.situation()
            self.intent, self.flagged = None, False
            subgoal, action = self.decide(sit)
            if self.intent is None:
                self.intent = subgoal
            self.record.checked = sit.checked
            self.subgoal = subgoal
            idx = names.get(action)
            if idx is not None and mask[idx]:
                break
            self.stats["replans"] += 1
            self._repair(action)
        else:
            idx = A_WAIT
        self.last_action = action if idx != A_WAIT else "wait"
        text = self.compose_message(sit, subgoal)
        if text is not None:
            self.last_action = "send message"
            self.stats["messages"] += 1
            return (A_SEND, text)
        return idx

    def _repair(self, action: str) -> None:
        """The planned action is impossible: the belief behind it was wrong; drop it."""
        verb, _, arg = action.partition(" ")
        if verb == "grasp":
            self.record.zero.pop(("in", arg), None)
        elif verb == "put":  # a container believed open is closed
            target = action.rsplit(" ", 1)[-1]
            self.record.zero[("open", target)] = "closed"
        elif verb == "open":  # it is open already
            self.record.zero[("open", arg)] = "open"


__all__ = ["HouseholdAgent", "PLAN_MEMORY"]
