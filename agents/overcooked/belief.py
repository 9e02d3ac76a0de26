"""The belief chef: it keeps what it last saw of the kitchen (pots, counters, its partner), infers its
partner's current subgoal from its moves (a Bayesian update over :data:`~belief.envs.overcooked.events.SUBGOALS`)
and picks its own subgoal to complement it: no second chef fetching the one dish a soup needs, no pot race,
no onion fetched for a pot the partner is about to fill; it walks around its partner, and passes items over a
shared counter where it cannot reach the goal itself (Forced Coordination).

Inference. The hypotheses are the subgoals open to the partner given what it holds (``OPEN_TO``), uniform
when its held item changes (a new phase of its plan). Each step the posterior is tempered (power ``DECAY``,
so an old move counts less) and multiplied by the likelihood of the partner's move under each subgoal: moving
closer to the subgoal's nearest target (walking steps, turns and the interact) is likely
(``P_PROGRESS``), staying as far is less so, moving away unlikely; ``wait`` expects standing still.
``infer_partner=False`` is the ablation: the same chef, planning as if its partner had no plan.

What the partner has seen (partial view). "Does Bob know what is on the counter at (1, 3)?" needs what Bob saw
while out of this chef's sight. The chef keeps :class:`~belief.agents.overcooked.partner_sight.PartnerSight`: a
filter over where its partner is (from its start cell, public in the layout; collapsed wherever the chef sees
it; moving by a walk steered by the posterior over its subgoal, ``STEER``) and, per pot, counter and the chef's
own place and hand, the value the partner last saw there. It answers a first-order "does the partner know F"
about those by whether that chance is at least ``KNOWS_AT`` (a chef always knows where it is and what it
holds); deeper chains ("are you aware that Bob knows ...") from the checker on its private record, which holds
what it saw its partner see. The ablation answers everything from the record.
"""

from __future__ import annotations

import functools
import random

from belief.agents.overcooked.kitchen import (DIRS, INF, INTERACT, OPEN_TO, STAY, kitchen_of, onions_in,
                                              subgoal_cost, targets)
from belief.agents.overcooked.partner_sight import PartnerSight, steered_walk
from belief.agents.protocol import AgentBase
from belief.envs.overcooked.events import CHEFS, SUBGOALS, cell, f_at, f_counter, f_holds, f_pot, pos_of, sees
from belief.envs.overcooked.tom import pot_answer
from belief.grading.questions import NO, YES, private_answer, question_from_dict
from belief.grading.render import say
from belief.truth.record import PrivateRecord

FACING_VEC = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}
DECAY = 0.8
#: the usual next errand of a chef by what it holds, and its prior weight against each other open subgoal
USUAL = {"nothing": "fetch_onion", "onion": "fill_pot", "dish": "take_soup", "soup": "serve"}
PRIOR_USUAL = 1.0  # uniform: a heavier prior (3.0) stalled Counter Circuit self-play and did not predict better
P_PROGRESS, P_SAME, P_AWAY = 0.7, 0.25, 0.05
#: own subgoals' base values (a soup on the way out first)
VALUE = {"serve": 10, "start_cooking": 9, "take_soup": 8, "fetch_dish": 6, "fill_pot": 7, "fetch_onion": 5,
         "pass_item": 4, "wait": 0}
#: subgoals of which the team needs only one chef at a time
EXCLUSIVE = ("start_cooking", "fetch_dish", "take_soup")
CONFLICT_PENALTY = 6.0
YIELD_STEPS = 3
DETOUR_STEPS = 2
#: "does the partner know F" is yes when the chance that the partner's last view of F is the value now is at least
#: this (the Bayes choice; 0.4 and 0.6 did no better at fov=1, not the bench's fov=2: docs/worlds/overcooked.md)
KNOWS_AT = 0.5
#: the partner's walk while unseen: steered by the posterior over its subgoal (False: a random walk)
STEER = True


class BeliefChef(AgentBase):
    kind = "belief"

    def __init__(self, name: str, partner: str, layout: str, *, infer_partner: bool = True, seed: int = 0):
        self.name, self.partner, self.layout = name, partner, layout
        self.infer_partner = infer_partner
        self.kitchen = kitchen_of(layout)
        self.rng = random.Random(f"overcooked:{name}:{seed}")
        self.reset()

    def reset(self, task=None) -> None:
        self.pots: dict = {}
        self.counters: dict = {}
        self.partner_seen = None  # (pos, facing, held) last seen
        self.posterior = {}
        self.subgoal = "wait"
        self._last_pos, self._frozen, self._yield = None, 0, 0
        self._avoid = (None, 0)
        self._fov = None
        self.kind = "belief" if self.infer_partner else "no_inference"
        self.private_record = PrivateRecord(self.name)  # what it perceived, and the checker on it, kept up to date
        self.sight: PartnerSight | None = None  # what the partner has seen (partial view, with inference)
        self._me: tuple | None = None  # (pos, held) at the last perception
        self._interact: tuple | None = None  # the cell this chef interacted with in its last action

    # --- what it believes -----------------------------------------------------------------------------
    def _update_world(self, view: dict) -> None:
        me, fov = view["pos"], view["fov"]
        self._fov = fov
        for p in self.kitchen.features["P"]:
            if p in view["pots"]:
                self.pots[p] = view["pots"][p]
            elif p not in self.pots:
                self.pots[p] = "empty"  # never seen: the start state
        for c in self.kitchen.features["X"]:
            if sees(me, c, fov):
                if c in view["counters"]:
                    self.counters[c] = view["counters"][c]
                else:
                    self.counters.pop(c, None)

    def world(self, view: dict) -> dict:
        partner = self.partner_seen or (view["pos"], (0, -1), "nothing")
        return {"pots": dict(self.pots), "counters": dict(self.counters),
                "players": [(view["pos"], FACING_VEC[view["facing"]], view["holds"]), partner]}

    def _observe_partner(self, view: dict) -> None:
        p = view["partner"]
        if p is None:
            return
        now = (p["pos"], FACING_VEC[p["facing"]], p["holds"])
        before = self.partner_seen
        self.partner_seen = now
        if not self.infer_partner:
            return
        if before is None or before[2] != now[2] or not self.posterior:
            # prior: the usual next errand for what it holds (an onion goes to a pot ...) is the likeliest
            self.posterior = {g: PRIOR_USUAL if g == USUAL[now[2]] else 1.0 for g in OPEN_TO[now[2]]}
        else:
            world = self.world(view)
            for g in list(self.posterior):
                self.posterior[g] = self.posterior[g] ** DECAY * self._likelihood(world, g, before, now, view["pos"])
        total = sum(self.posterior.values()) or 1.0
        self.posterior = {g: v / total for g, v in self.posterior.items()}

    def _likelihood(self, world, g, before, now, me) -> float:
        moved = before[:2] != now[:2]
        if g == "wait":
            return 0.3 if not moved else 0.1  # standing still is also a blocked move: barely above P_SAME
        c0 = subgoal_cost(self.kitchen, world, g, before[0], before[1], me)
        c1 = subgoal_cost(self.kitchen, world, g, now[0], now[1], me)
        if c0 >= INF:
            return P_AWAY
        return P_PROGRESS if c1 < c0 else P_SAME if c1 == c0 else P_AWAY

    def partner_intent(self) -> str:
        """The partner's most likely subgoal now (the rule of what it holds without inference)."""
        if self.posterior:
            return max(self.posterior, key=lambda g: (self.posterior[g], -SUBGOALS.index(g)))
        return USUAL[self.partner_seen[2] if self.partner_seen else "nothing"]

    # --- what it does ---------------------------------------------------------------------------------
    def perceive(self, events, info=None) -> None:
        events = list(events)
        for ev in events:
            self.private_record.add_one(ev)
        if info and "view" in info:
            view = info["view"]
            before = (dict(self.pots), dict(self.counters))
            self._update_world(view)
            self._observe_partner(view)
            if self.infer_partner and view.get("fov") is not None:
                self._follow_partner_sight(events, view, before)
            self._me = (view["pos"], view["holds"])

    # --- what the partner has seen --------------------------------------------------------------------
    def _feature_fluents(self):
        return [(f_pot(p), p) for p in self.kitchen.features["P"]] + \
               [(f_counter(c), c) for c in self.kitchen.features["X"]]

    def _believed(self, pos) -> str:
        if pos in self.kitchen.features["P"]:
            return self.pots.get(pos, "empty")
        return self.counters.get(pos, "empty")

    def _follow_partner_sight(self, events, view: dict, before) -> None:
        """Advance :attr:`sight` by one step of the kitchen (or start it): the changes this chef saw or made,
        who made them, where it sees its partner."""
        me, held = view["pos"], view["holds"]
        partner = view["partner"]["pos"] if view["partner"] else None
        k = self.kitchen
        if self.sight is None:
            from belief.envs.overcooked.world import gridworld

            start = tuple(gridworld(self.layout).start_player_positions[CHEFS.index(self.partner)])
            self.sight = PartnerSight(k.floor, {c: [q for _, q in k.neighbours(c)] for c in k.floor}, view["fov"],
                                      start)
            self.sight.observe(partner, me)
            for f, pos in self._feature_fluents():
                self.sight.track(f, pos, self._believed(pos))
            self.sight.track(f_at(self.name), me, cell(me))
            self.sight.track(f_holds(self.name), me, held)
            return
        old_pots, old_counters = before
        ticked = {(e.predicate, e.subject[0]) for ev in events if getattr(ev, "kind", None) == "action"
                  for e in (ev.effects or ()) if e.predicate in ("pot", "counter")}
        changes, hand = {}, []
        for f, pos in self._feature_fluents():
            was = (old_pots.get(pos, "empty") if f[0] == "pot" else old_counters.get(pos, "empty"))
            now = self._believed(pos)
            if now == was:
                continue
            clock = f[0] == "pot" and was == "cooking" and now == "ready"
            if f in ticked:
                changes[f] = (pos, now)
                if pos != self._interact and not clock:
                    hand += k.spots(pos)  # its partner's hand
            elif clock:
                self.sight.set_value(f, now)  # a soup found ready: the partner saw it where it sees the pot
            else:
                self.sight.made_by_partner(f, now)  # found changed out of sight: its partner's doing
        if self._me is not None:
            changes[f_at(self.name)] = (me, cell(me))
            changes[f_holds(self.name)] = (me, held)
        self.sight.step(changes, transition=self._partner_walk(view), partner_at=partner, my_view=me,
                        partner_hand=hand)

    def _partner_walk(self, view: dict):
        """The partner's motion while out of sight: toward the targets of its likely subgoals (``STEER``)."""
        if not (STEER and self.posterior and self.partner_seen):
            return None
        k = self.kitchen
        world = self.world(view)
        goals = {}
        for g, prob in self.posterior.items():
            ts = targets(k, world, g, self.partner_seen[0], view["pos"])
            spots = tuple(sorted({s for t in ts for s in k.spots(t)}))
            goals[g] = (prob, _spot_distances(k, spots) if spots and g != "wait" else None)
        return steered_walk(self.sight.cells, self.sight.neighbours, goals)

    def partner_knows(self, fluent: tuple):
        """The chance that the partner knows ``fluent``'s value (None: not a fluent this chef follows)."""
        if fluent in (f_at(self.partner), f_holds(self.partner)):
            return 1.0  # a chef always sees itself
        return self.sight.knows(fluent) if self.sight is not None else None

    def choose_subgoal(self, view: dict) -> str:
        world = self.world(view)
        me, facing, held = world["players"][0]
        partner_pos, _, partner_held = world["players"][1]
        k = self.kitchen
        cost = lambda g: subgoal_cost(k, world, g, me, facing, partner_pos)  # noqa: E731
        if held != "nothing":
            direct = {"onion": "fill_pot", "dish": "take_soup", "soup": "serve"}[held]
            if cost(direct) < INF:
                return direct
            if held == "dish" and any(k.reaches(me, p) for p in k.features["P"]):
                return "wait"  # a dish and a pot within reach: wait there for a soup
            return "pass_item" if cost("pass_item") < INF else "wait"
        pots = world["pots"]
        counters = world["counters"]
        onions_needed = sum(3 - onions_in(v) for v in pots.values() if v not in ("cooking", "ready"))
        onions_ready = sum(n == "onion" for n in counters.values()) + (partner_held == "onion")
        soups = sum(v in ("cooking", "ready", "onions_3") for v in pots.values())
        reach_pot = any(k.reaches(me, p) for p in k.features["P"])
        # dishes already on their way to a soup: the partner's, and (for a chef who cannot reach a pot) those
        # passed over a counter; a chef at the pots fetches a dish from that counter
        dishes = (partner_held in ("dish", "soup")) + sum(n == "soup" for n in counters.values()) + \
            (0 if reach_pot else sum(n == "dish" for n in counters.values()))
        scores = {"wait": 0.0}
        if cost("start_cooking") < INF:
            scores["start_cooking"] = VALUE["start_cooking"]
        if any(n == "soup" for n in counters.values()) and cost("take_soup") < INF:
            scores["take_soup"] = VALUE["take_soup"]
        if soups > dishes and cost("fetch_dish") < INF:
            scores["fetch_dish"] = VALUE["fetch_dish"] + 2 * any(v == "ready" for v in pots.values())
        if cost("fetch_onion") < INF and (onions_needed > onions_ready if not reach_pot else onions_needed > 0):
            scores["fetch_onion"] = VALUE["fetch_onion"]
        if self.infer_partner and self.posterior and self.partner_seen:
            p = self.posterior
            for g in list(scores):
                clash = p.get(g, 0.0) if g in EXCLUSIVE else 0.0
                if g == "fetch_onion":  # the partner brings the last onion a pot needs
                    clash = (p.get("fetch_onion", 0.0) + p.get("fill_pot", 0.0)) * (onions_needed - onions_ready <= 1)
                if g == "fetch_dish":
                    clash = max(clash, p.get("take_soup", 0.0) if partner_held == "dish" else 0.0)
                partner_cost = subgoal_cost(k, world, g, partner_pos, self.partner_seen[1], me)
                closer = partner_cost <= cost(g)
                scores[g] -= CONFLICT_PENALTY * clash * (1.0 if closer else 0.5)
        return max(scores, key=lambda g: (scores[g] - 0.05 * min(cost(g), 100) if g != "wait" else scores[g],
                                          -SUBGOALS.index(g)))

    def act(self, observation, info) -> int:
        view = info["view"]
        self._update_world(view)
        self.subgoal = self.choose_subgoal(view)
        world = self.world(view)
        me, facing, _ = world["players"][0]
        blocked = self.partner_seen[0] if self.partner_seen and view["partner"] else None
        # a detour around the partner is kept for a few steps (re-planned each step, two chefs flip between
        # the short way and the detour as each moves, and oscillate)
        action = STAY
        ts = targets(self.kitchen, world, self.subgoal, me, blocked or me)
        if ts:
            target = min(ts, key=lambda t: (self.kitchen.cost(me, facing, t), t))
            step = self.kitchen.step_toward(me, facing, target, self._avoid[0] if self._avoid[1] > 0 else None)
            if blocked is not None and step in DIRS and _next(me, step) == blocked:
                self._avoid = (blocked, DETOUR_STEPS)  # the partner stands in the way: go round it
                step = self.kitchen.step_toward(me, facing, target, blocked)
            self._avoid = (self._avoid[0], max(self._avoid[1] - 1, 0))
            action = STAY if step is None else step
        # stuck (a head-on meeting in a corridor, or each standing where the other must go): the chef whose
        # errand matters less steps away from its partner for a few steps
        self._frozen = self._frozen + 1 if me == self._last_pos and action < 4 else 0
        self._last_pos = me
        if self._frozen >= 2 and blocked is not None and self._yields():
            self._yield = YIELD_STEPS
        if self._yield > 0 and blocked is not None:
            self._yield -= 1
            self._frozen = 0
            self._interact = None
            return self._give_way(world, me, blocked)
        if self._frozen >= 3:
            moves = [d for d, q in self.kitchen.neighbours(me) if q != blocked]
            action = self.rng.choice(moves) if moves else STAY
            self._frozen = 0
        self._interact = (me[0] + facing[0], me[1] + facing[1]) if action == INTERACT else None
        return action

    def _give_way(self, world, me, partner) -> int:
        """A step out of the partner's way: off every shortest path to the targets of its likely subgoal
        (with inference), else as far from it as possible."""
        k = self.kitchen
        path = set()
        if self.infer_partner and self.posterior:
            spots = [s for t in targets(k, world, self.partner_intent(), partner, me) for s in k.spots(t)]
            togo = k._to_spots(tuple(spots), None) if spots else {}
            if partner in togo:
                path = {q for q in togo if k.dist(partner, q) + togo[q] == togo[partner]}
        moves = [(q not in path, k.dist(q, partner), self.rng.random(), d) for d, q in k.neighbours(me) if q != partner]
        if not moves or (path and me not in path):
            return STAY  # already out of its way
        return max(moves)[3]

    def _yields(self) -> bool:
        """Does this chef give way? With inference: when the partner's likely errand is worth more (a tie:
        bob gives way); without: bob always does."""
        if self.infer_partner and self.posterior:
            errands = {g: p for g, p in self.posterior.items() if g != "wait"}
            theirs = VALUE[max(errands, key=errands.get)] if errands else 0
            mine = VALUE[self.subgoal]
            if mine != theirs:
                return mine < theirs
        return self.name > self.partner

    def answer(self, question: dict) -> str:
        """The partner's intent from the posterior; what the partner believes or knows about a pot from this
        chef's own record (what it saw its partner see); a question of the general model (``question["question"]``:
        the selected set) from the checker on its record (:func:`belief.grading.questions.private_answer`), in
        words the one reader reads."""
        if "question" in question:
            general = question_from_dict(question["question"])[0]
            if general.kind == "knows" and general.chain == (self.partner,) and general.values is None \
                    and general.fluent is not None:
                p = self.partner_knows(tuple(general.fluent))
                if p is not None:
                    return say(general, YES if p >= KNOWS_AT else NO)
            return self.record_answer(question)
        if question.get("type") == "partner_intent":
            return self.partner_intent()
        if question.get("type") in ("pot_belief", "knows_ready"):
            truth = self.truth()
            if self._partner_sees(pos_of(question["subject"])):
                # the partner stands (as last seen) where it sees that pot: it sees what this chef believes
                return pot_answer(question, truth, (self.name,))
            # else what this chef saw its partner see of the pot (stale or ``unknown``)
            return pot_answer(question, truth, (self.name, self.partner))
        if question.get("type") == "pot_state":
            return self.pots.get(tuple(question["subject"]), "empty")
        if question.get("type") == "partner_held":
            return self.partner_seen[2] if self.partner_seen else "nothing"
        return "I do not know."

    def record_answer(self, question: dict) -> str:
        """A question of the general model answered from the private record alone, as the no-inference chef
        answers it (the same perception, no model of what the partner saw out of sight): the ablation, on the
        same questions."""
        general = question_from_dict(question["question"])[0]
        return say(general, private_answer(self.truth(), general))

    def _partner_sees(self, cell_pos) -> bool:
        """Does the partner, where this chef last saw it, see ``cell_pos`` (the views have one radius)?"""
        return self.partner_seen is not None and sees(self.partner_seen[0], cell_pos, self._fov)

    def truth(self):
        """The checker on this chef's private trace (what it perceived; incremental)."""
        return self.private_record.truth()

    @property
    def private(self):
        """The private trace so far."""
        return self.private_record.trace


def _next(pos, action):
    dx, dy = DIRS[action]
    return pos[0] + dx, pos[1] + dy


@functools.lru_cache(maxsize=4096)
def _spot_distances(kitchen, spots: tuple) -> dict:
    """Steps from each floor cell to the nearest of ``spots`` (the kitchens are cached per layout)."""
    return kitchen._to_spots(spots, None)


def no_inference_chef(name: str, partner: str, layout: str, *, seed: int = 0) -> BeliefChef:
    """The ablation: the belief chef without partner inference."""
    return BeliefChef(name, partner, layout, infer_partner=False, seed=seed)


__all__ = ["BeliefChef", "no_inference_chef"]
