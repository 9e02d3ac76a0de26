"""CoBel agents for ``household_v0``: zero- and first-order beliefs, partner prediction, targeted messages.

Beliefs: the private record (:mod:`belief.agents.household.memory`): zero order (where I believe each
object is, which containers are open, what I have seen) and first order (what I believe the partner
believes, where I last saw it, what it has seen). From those the partner's *situation* (its room, its
hands, its believed object locations, what it has seen, what it knows of my plan) feeds a Bayesian
prediction of its next subgoal (:mod:`belief.agents.household.predict`).

Miscoordination, every step:

* **conflict**: my subgoal (fetch an object, explore a room) is the partner's predicted one with
  probability >= ``CONFLICT_P``: a *detection*. The one who is closer keeps it (ties: the name that sorts
  first); if that is the partner I *yield* (choose again without it); an *avoided duplicate* when the
  new choice differs.
* **information**, priced by value of information: facts I hold that my model of the partner lacks
  (object locations of goal classes, what I carry, receptacles I have seen), and my plan, are sent only
  when the steps they are expected to save the partner (:meth:`CoBelAgent.saved_steps`: the expected
  waste of its predicted subgoals before being told minus after) exceed ``MESSAGE_COST``, the step the
  message costs me; the message carries the parts that save something on their own.

Ablations (the study's, CoBel-World Table 3, and one more): ``silent`` is the same agent without messages
(``talks=False``); ``cobel_nobbc`` keeps the symbolic beliefs (zero and first order) but has no Bayesian belief
collaboration (``bbc=False``): no prediction, no detection or yield, and messages not priced by value of
information: it tells what my model of the partner lacks (goal-object facts, seen receptacles) and a new plan,
at most every ``NOBBC_GAP`` steps; ``cobel_nomodel`` keeps prediction, detection and priced messages but has no
model of what the partner perceives (``model=False``): the partner is taken to know only what I told it, in a
room I do not know (as if never seen), so nothing it saw for itself or where it stands enters the prediction.
"""

from __future__ import annotations

from dataclasses import replace

from belief.agents.household import messages as msgs
from belief.agents.household.agent import PLAN_MEMORY, HouseholdAgent
from belief.agents.household.mhp import Situation, choose, pending
from belief.agents.household.predict import PartnerPredictor, posterior
from belief.envs.household.world import object_class

CONFLICT_P = 0.3
MIN_GAP = 2  # steps between two messages
SEEN_RECENTLY = 2  # steps: a partner seen longer ago may be anywhere near
MESSAGE_COST = 1.0  # steps: sending costs its sender the step
NOBBC_GAP = 4  # steps between two messages of cobel_nobbc (as coela and the messenger)
YIELD_DOORS = 2  # doors' walks yielding the same subgoal before the name that sorts first takes it (yield_limit)
# a partner waiting while objects are missing could have worked a door's walk (IDLE_STEPS = the task's walk_steps)


class CoBelAgent(HouseholdAgent):
    kind = "cobel"

    def __init__(self, name: str, task_info: dict, talks: bool = True, bbc: bool = True, model: bool = True):
        super().__init__(name, task_info)
        self.talks, self.bbc, self.model = talks, bbc, model
        if not talks:
            self.kind = "silent"
        elif not bbc:
            self.kind = "cobel_nobbc"
        elif not model:
            self.kind = "cobel_nomodel"
        self.told_where: dict = {}   # what I told the partner (cobel_nomodel's whole model of it)
        self.told_checked: set = set()
        self.predictor = PartnerPredictor(self.task)
        self.prediction = None
        self.last_sent = -MIN_GAP
        self._checked_step = -1
        self._conflict_counted = False
        self._yielding = (None, -1, 0)  # (subgoal I yield, last step, consecutive steps)
        self.stats.update(detections=0, yields=0, avoided_duplicates=0, predictions=0)

    # --- the partner, as I believe it sees things --------------------------------------------------
    def partner_situation(self) -> Situation:
        r, p = self.record, self.partner
        if not self.model:  # only what I told it; where it is, what it saw and holds: unknown
            return Situation(p, r.room, (None, None), dict(self.told_where), set(), set(self.told_checked),
                             *self._told_plan_sets())
        where = {f[1]: v for f, v in r.first.items() if f[0] == "in" and isinstance(v, str)}
        hands = [o for f, v in r.zero.items() if f[0] == "in" and v == p for o in [f[1]]][:2]
        for o in hands:
            where[o] = p
        hands = tuple(hands + [None] * (2 - len(hands)))
        opened = {f[1] for f, v in r.first.items() if f[0] == "open" and v == "open"}
        return Situation(p, r.partner_room or r.room, hands, where, opened, set(r.partner_checked),
                         *self._told_plan_sets())

    def _told_plan_sets(self) -> tuple:
        """``(claimed, avoid_rooms)`` the partner knows of my announced plan, while credible."""
        claimed, avoid = frozenset(), frozenset()
        if self.announced and self.record.step - self.announced[1] <= PLAN_MEMORY:
            kind, arg = self.announced[0]
            claimed = frozenset([arg]) if kind == "fetch" else claimed
            avoid = frozenset([arg]) if kind == "explore" else avoid
        return claimed, avoid

    def _partner_located(self) -> bool:
        """Do I know where the partner stands (seen lately)? Never without a partner model."""
        r = self.record
        return self.model and r.partner_room is not None and r.step - r.partner_seen <= SEEN_RECENTLY

    def _predict(self):
        if self._checked_step == self.record.step:
            return
        self._checked_step = self.record.step
        self.predictor.update(self.partner_situation(), self.told_plan())
        self.prediction = self.predictor.best()[0]
        self.stats["predictions"] += 1
        self._conflict_counted = False

    def _partner_keeps(self, subgoal, psit: Situation, sit: Situation) -> bool:
        if self.told_plan() == subgoal:  # it said so; if I said so too, the name that sorts first keeps it
            mine = self.announced is not None and self.announced[0] == subgoal \
                and self.record.step - self.announced[1] <= PLAN_MEMORY
            return not mine or self.partner < self.name
        if not self._partner_located():
            return False  # not seen lately: nothing says it is closer
        kind, arg = subgoal
        room = self.task.room_of(sit.where[arg]) if kind == "fetch" else arg
        mine, theirs = self.task.dist(sit.room, room), self.task.dist(psit.room, room)
        return theirs < mine or (theirs == mine and self.partner < self.name)

    # --- deciding ------------------------------------------------------------------------------
    def decide(self, sit: Situation):
        subgoal, action = choose(self.task, sit)
        if self.partner is None or not self.bbc:
            return subgoal, action
        self._predict()
        self.intent = subgoal
        pred, p = self.predictor.best()
        if pred != subgoal or subgoal[0] not in ("fetch", "explore") or p < CONFLICT_P:
            return subgoal, action
        self.flagged = True
        if not self._conflict_counted:
            self.stats["detections"] += 1
        if not self._partner_keeps(subgoal, self.partner_situation(), sit) or self._deadlocked(subgoal):
            self._conflict_counted = True
            return subgoal, action
        if not self._conflict_counted:
            self.stats["yields"] += 1
        if subgoal[0] == "fetch":
            sit.banned.add(subgoal[1])
        else:
            sit.avoid_rooms = sit.avoid_rooms | {subgoal[1]}
        again, act2 = choose(self.task, sit)
        if again != subgoal and not self._conflict_counted:
            self.stats["avoided_duplicates"] += 1
        self._conflict_counted = True
        return (again, act2) if again != subgoal else (subgoal, action)

    def _deadlocked(self, subgoal) -> bool:
        """Have I yielded ``subgoal`` for :attr:`yield_limit` steps in a row (the partner may be yielding it to me
        on beliefs that disagree with mine)? Then the name that sorts first stops yielding: both agents apply
        the same rule, so one of them takes it."""
        last, step, n = self._yielding
        now = self.record.step
        if step != now:
            n = n + 1 if last == subgoal and step == now - 1 else 1
        self._yielding = (subgoal, now, n)
        return n > self.yield_limit and self.name < self.partner

    @property
    def yield_limit(self) -> int:
        """Steps yielding one subgoal before the name that sorts first takes it: ``YIELD_DOORS`` doors' walks."""
        return YIELD_DOORS * self.task.walk_steps

    # --- messages: only what changes the partner's plan --------------------------------------------
    def compose_message(self, sit: Situation, subgoal) -> str | None:
        if not self.bbc:
            return self._plain_message(sit, subgoal)
        if not self.talks or self.partner is None or self.record.step - self.last_sent < MIN_GAP:
            return None
        if self.model and self.record.partner_here():
            return None  # we see the same things; a plan conflict is settled by the rule both apply
        psits = self._partner_situations()
        mine = subgoal[1] if subgoal[0] == "fetch" else None
        facts = [(o, loc) for o, loc in self._fact_diff(sit, psits[0]) if o != mine]
        checked = sorted(sit.checked - psits[0].checked)
        plan = None
        if subgoal[0] in ("fetch", "explore") and not self._partner_keeps(subgoal, psits[0], sit):
            plan = subgoal
        parts = {k: v for k, v in (("facts", facts), ("checked", checked), ("plan", plan)) if v}
        if not parts or self.saved_steps(psits, parts, sit, subgoal) <= MESSAGE_COST:
            return None
        useful = {k: v for k, v in parts.items() if self.saved_steps(psits, {k: v}, sit, subgoal) > 0} or parts
        if "plan" in useful:
            self.announced = (plan, self.record.step)
        return self._send(useful.get("facts", ()), useful.get("checked", ()), useful.get("plan"))

    def _send(self, facts, checked, plan) -> str:
        self.record.partner_checked |= set(checked)
        self.told_where.update(dict(facts))
        self.told_checked |= set(checked)
        self.last_sent = self.record.step
        return msgs.compose(facts, checked, plan)

    def _plain_message(self, sit: Situation, subgoal) -> str | None:
        """cobel_nobbc: what my model of the partner lacks and a new plan, unpriced, at most every NOBBC_GAP steps."""
        if not self.talks or self.partner is None or self.record.step - self.last_sent < NOBBC_GAP \
                or self.record.partner_here():
            return None
        psit = self.partner_situation()
        need = pending(self.task, sit)
        mine = subgoal[1] if subgoal[0] == "fetch" else None
        facts = [(o, loc) for o, loc in self._fact_diff(sit, psit) if o != mine and need.get(object_class(o), 0) > 0
                 and self.task.is_receptacle(loc) and loc != self.task.target_of[object_class(o)]]
        checked = sorted(sit.checked - psit.checked)
        fresh = self.announced is None or self.announced[0] != subgoal
        plan = subgoal if subgoal[0] in ("fetch", "explore") and fresh else None
        if not facts and plan is None:
            return None
        if plan is not None:
            self.announced = (plan, self.record.step)
        return self._send(facts, checked, plan)

    def wasted(self, partner_subgoal, sit: Situation, mine) -> bool:
        """Would the partner's subgoal waste its steps, by what I know? (fetching what I hold, take or saw
        delivered; exploring a room I have seen; waiting while objects are missing)."""
        kind, arg = partner_subgoal
        if kind == "fetch":
            loc = sit.where.get(arg)
            return arg == mine or loc is None or not self.task.is_receptacle(loc) or \
                loc == self.task.target_of[object_class(arg)]
        if kind == "explore":
            return all(f in sit.checked for f in self.task.furniture if self.task.room_of(f) == arg)
        if kind == "wait":
            return any(pending(self.task, sit).values())
        return False

    def saved_steps(self, psits: list, parts: dict, sit: Situation, subgoal) -> float:
        """Expected steps telling ``parts`` saves the partner: over the rooms it may be in (equally likely),
        the expected steps its predicted subgoal wastes (P(subgoal) x the steps of each wasted one) before
        being told minus after (the prediction again from its situation once told)."""
        mine = subgoal[1] if subgoal[0] == "fetch" else None
        total = 0.0
        for p in psits:
            before = self._partner_posterior(p, psits)
            told = self._told(p, **parts)
            after = posterior(self.task, told, self.told_plan(), before)
            total += (self._expected_waste(before, p, sit, mine) - self._expected_waste(after, told, sit, mine))
        return total / len(psits)

    def _expected_waste(self, post: dict, psit: Situation, sit: Situation, mine) -> float:
        return sum(q * self.waste_steps(s, psit) for s, q in post.items() if self.wasted(s, sit, mine))

    def waste_steps(self, partner_subgoal, psit: Situation) -> float:
        """Steps the partner spends on a wasted subgoal, by its beliefs: the walk there (the task's ``walk_steps``
        a door), walking up to and opening the containers, the failed grasp; waiting while objects are missing:
        a door's walk."""
        kind, arg = partner_subgoal
        if kind == "fetch":
            loc = psit.where.get(arg)
            if not self.task.is_receptacle(loc):
                return 0.0
            shut = self.task.is_container(loc) and loc not in psit.opened
            walk = self.task.walk_steps * self.task.dist(psit.room, self.task.room_of(loc))
            return walk + self.task.approach_steps + shut + 1
        if kind == "explore":
            shut = sum(1 for f in self.task.furniture if self.task.room_of(f) == arg and f not in psit.checked
                       and self.task.is_container(f))
            return self.task.walk_steps * self.task.dist(psit.room, arg) + (1 + self.task.approach_steps) * shut
        return self.task.walk_steps if kind == "wait" else 0.0

    def _partner_posterior(self, psit: Situation, psits: list) -> dict:
        """My prediction of its subgoal: the running one where I last saw it, else afresh for that room."""
        if len(psits) == 1 and self.predictor.posterior:
            return self.predictor.posterior
        return posterior(self.task, psit, self.told_plan())

    def _partner_situations(self) -> list:
        """The partner's situation where I last saw it; never seen: one per room other than mine."""
        psit = self.partner_situation()
        if self.model and self.record.partner_room is not None:
            return [psit]
        return [replace(psit, room=r) for r in self.task.rooms if r != self.record.room]

    def _fact_diff(self, sit: Situation, psit: Situation) -> list:
        """Locations of goal-class objects I hold definite beliefs about that my model of the partner lacks."""
        out = []
        for o, loc in sorted(sit.where.items()):
            if object_class(o) in self.task.target_of and psit.where.get(o) != loc and loc != self.partner:
                out.append((o, loc))
        return out

    def _told(self, psit: Situation, facts=(), checked=(), plan=None) -> Situation:
        where = dict(psit.where)
        where.update(dict(facts))
        claimed, avoid = psit.claimed, psit.avoid_rooms
        if plan is not None:
            claimed = frozenset([plan[1]]) if plan[0] == "fetch" else claimed
            avoid = frozenset([plan[1]]) if plan[0] == "explore" else avoid
        return replace(psit, where=where, checked=set(psit.checked) | set(checked), claimed=claimed,
                       avoid_rooms=avoid)


__all__ = ["CONFLICT_P", "CoBelAgent"]
