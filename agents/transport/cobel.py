"""CoBel agents for ``transport_v0``: collaborative belief reasoning (CoBel-World) without an LLM, and the
agent types it is measured against (one :class:`Config` each, :data:`PRESETS`).

Beliefs and their update: :mod:`belief.agents.transport.beliefs` (zero and first order in a
:class:`belief.logic.store.BeliefStore`, newer own evidence wins); the Bayesian partner model:
:mod:`belief.agents.transport.partner`; what to say and when: :mod:`belief.agents.transport.messages`.

Decision (every time the agent is idle): choose a subgoal (a batch of known targets to collect, a
container to fetch, a room to search by expected targets per frame, or delivery), leaving to a teammate
what it announced where it has priority (the closer agent; both apply the same rule); then
*miscoordination detection*: for each teammate, P(its predicted next subgoal overlaps mine); at or above
``conflict_threshold`` that is a detection, and when the teammate has priority I yield (choose again
without those objects or that room). Then the message policy speaks or not (cobel: value of information,
each overlap priced by its probability; see :mod:`transport_messages`); otherwise the subgoal is planned
with :class:`belief.agents.transport.planner.Planner` (a UP problem built from the store; plans cached and
followed until the beliefs change what matters).

The step functions are pure, tomsup style: ``update`` ``(state, view) -> state``, ``predict``
``(state, config) -> state``, :func:`decide` ``(state, config, planner, mask, names) -> (state, action,
message)``. :class:`TransportAgent` holds the state between calls and keeps the records the benchmark
scores: its decisions, its predictions of each teammate, its detections and yields.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace

from belief.agents.protocol import AgentBase
from belief.agents.transport.beliefs import (PLAN_MEMORY, BeliefState, available, contained, containers_available,
                                             current_plan, dist, explored_level, go_frames, initial_state,
                                             location_posterior, parse_plan, snapshot, update, value)
from belief.agents.transport.messages import POLICIES, cobel_message
from belief.agents.transport.partner import goal_key, matched_predictors, predict, top_goal
from belief.agents.transport.planner import Planner
from belief.envs.transport import world as tw
from belief.envs.base.selected import believed_answer
from belief.errors import BeliefError
from belief.grading.questions import question_from_dict
from belief.grading.render import say


@dataclass(frozen=True)
class Config:
    """What an agent type does. ``comm``: none | cobel | coela | messenger | always (:mod:`transport_messages`)."""

    comm: str = "cobel"
    partner_model: bool = True  # predict each teammate's next subgoal
    detect: bool = True  # act on predicted conflicts (detections, yields)
    bayes: bool = True
    first_order: bool = True
    planner: str = "pyperplan"
    conflict_threshold: float = 0.35
    temperature: float = 80.0  # frames, softmax of the partner-subgoal prediction
    message_writer: object = None  # optional callable(facts, plan_text, default) -> text (LLM mode)
    fact_reader: object = None  # optional callable(state, view) -> [Fact] | None (LLM mode; None: fall back)
    goal_picker: object = None  # optional callable(state, partner, cand, goal_prob) -> goal_prob | None (LLM mode)


PRESETS = {
    "cobel": Config(),
    "coela": Config(comm="coela", partner_model=False, detect=False, first_order=False),
    "messenger": Config(comm="messenger", partner_model=False, detect=False, first_order=False),
    "independent": Config(comm="none", partner_model=False, detect=False, first_order=False),
    "silent": Config(comm="none"),
    "rhp": Config(comm="none", partner_model=False, detect=False, bayes=False, first_order=False, planner="greedy"),
    "cobel_nopred": Config(partner_model=False, detect=False),
    "cobel_nodetect": Config(detect=False),
    "cobel_nofo": Config(first_order=False),
    "cobel_always": Config(comm="always"),
    # the ablations of the study's table (issue 30), each switching off one thing:
    # no Bayesian belief collaboration (no prediction, hence no detection, and the rule messenger's "what is
    # new, plus my plan" in place of the value-of-information messages; beliefs, first order included, stay)
    "cobel_nobbc": Config(comm="messenger", partner_model=False, detect=False),
    # no partner model: no beliefs about teammates' beliefs or subgoals (no first-order chain from what they
    # perceive, no prediction, hence no detection); messages still priced by value of information
    "cobel_nopartner": Config(partner_model=False, detect=False, first_order=False),
}
PRESETS["rhp_alone"] = PRESETS["rhp"]


@dataclass(frozen=True)
class Goal:
    kind: str  # fetch | explore | deliver | wait
    batch: tuple = ()
    containers: tuple = ()
    room: str | None = None
    deliver: bool = False

    def text(self) -> str:
        if self.kind == "explore":
            return f"explore {self.room}"
        if self.kind == "deliver":
            return "deliver to bed"
        if self.kind == "fetch":
            parts = list(self.containers) + list(self.batch)
            return "grasp " + ", ".join(parts) + (" then deliver to bed" if self.deliver else "")
        return "wait"

    def objects(self) -> set:
        return set(self.batch) | set(self.containers)


# ---------------------------------------------------------------------------------------------
# choosing a subgoal
# ---------------------------------------------------------------------------------------------

def capacity(s: BeliefState) -> tuple[int, int]:
    """(targets I can still take, targets carried). One container + one hand: 4 targets at most."""
    conts = [c for c in s.holding if c in s.contents]
    loose = [o for o in s.holding if o not in s.contents]
    carried = len(contained(s)) + len(loose)
    if len(conts) == 1:
        return max(0, (tw.CONTAINER_SLOTS - len(s.contents[conts[0]])) + 1 - len(loose)), carried
    if len(conts) >= 2:
        return 0, carried
    return 2 - len(s.holding), carried


def partner_first(s: BeliefState, partner: str, room: str) -> bool:
    """Does ``partner`` have priority for work in ``room``? The closer agent does (frames from each one's
    last known room; an unknown position counts as the mean distance); a tie goes to the alphabetically
    first name. Both agents apply the same rule, so a shared conflict has one winner."""
    return (round(go_frames(s, s.models[partner].room, room)), partner) < (round(go_frames(s, s.room, room)), s.me)


def _claimed(s: BeliefState) -> tuple[set, set]:
    """Objects and rooms I leave to teammates: announced in their plans, where they have priority."""
    objs, rooms = set(), set()
    rooms_of = s.task["room_type"]
    for p in s.partners:
        plan = current_plan(s, p)
        if not plan:
            continue
        for o in plan["objects"]:
            r = value(s, o)
            if r not in rooms_of or partner_first(s, p, r):
                objs.add(o)
        if plan["explore"] and partner_first(s, p, plan["explore"]):
            rooms.add(plan["explore"])
    objs -= set(s.holding) | contained(s)
    return objs, rooms


def _own_level(s: BeliefState, room: str) -> int:
    return s.searched.get(room, 0)


def _explorable(s: BeliefState, exclude: set) -> list:
    """Rooms worth searching: not fully searched by the team as far as I know, with expected finds."""
    out = []
    for r in s.task["rooms"]:
        if r in exclude or explored_level(s, r) >= 2 or _own_level(s, r) >= 2:
            continue
        if s.expected and s.expected.get(r, 1.0) <= 0.0:
            continue
        out.append(r)
    return out


def _batch(s: BeliefState, avail: dict, cap: int, start: str) -> list:
    """Up to ``cap`` targets, nearest neighbour from ``start``."""
    todo = dict(avail)
    out, here = [], start
    while todo and len(out) < cap:
        o = min(todo, key=lambda x: (go_frames(s, here, todo[x]), x))
        out.append(o)
        here = todo.pop(o)
    return out


def choose_goal(s: BeliefState, config: Config, avoid_objs=frozenset(), avoid_rooms=frozenset()) -> Goal:
    bedroom = s.task["bedroom"]
    cap, carried = capacity(s)
    left = s.task["budget"] - s.frame
    to_bed = go_frames(s, s.room, bedroom) + tw.TRANSPORT
    if carried and left < to_bed + 60:
        return Goal("deliver", deliver=True)
    claimed_objs, claimed_rooms = _claimed(s)
    claimed_objs |= set(avoid_objs)
    claimed_rooms |= set(avoid_rooms)
    avail = {o: r for o, r in available(s).items() if o not in claimed_objs}
    conts = {c: r for c, r in containers_available(s).items() if c not in claimed_objs}
    has_cont = any(c in s.contents for c in s.holding)
    # a container first, when empty-handed, more than two targets are worth carrying, and it is near
    if not has_cont and not s.holding and conts and (len(avail) + sum(s.expected.values())) > 2:
        c = min(conts, key=lambda x: (go_frames(s, s.room, conts[x]), x))
        near_t = min((go_frames(s, s.room, r) for r in avail.values()), default=300.0)
        if go_frames(s, s.room, conts[c]) <= near_t + 90:
            batch = _batch(s, avail, 3 + 1, conts[c])
            full = len(batch) >= 4 or not _explorable(s, claimed_rooms)
            return Goal("fetch", tuple(batch), (c,), deliver=full and bool(batch))
    if cap <= 0:
        return Goal("deliver", deliver=True)
    if avail:
        batch = _batch(s, avail, cap, s.room)
        full = len(batch) >= cap or not _explorable(s, claimed_rooms)
        return Goal("fetch", tuple(batch), deliver=full)
    rooms = _explorable(s, claimed_rooms) or _explorable(s, set())
    if not rooms and carried:
        return Goal("deliver", deliver=True)
    if not rooms:  # nothing left that I know of: search again what I have not searched myself
        rooms = [r for r in s.task["rooms"] if _own_level(s, r) < 2 and r not in claimed_rooms]
    if rooms:
        if carried and cap <= 1:
            return Goal("deliver", deliver=True)
        if config.bayes:  # the frames to search it, among rooms with expected finds (the posterior filters);
            # measured on generated worlds, this beats expected finds per frame (agents spread out)
            best = min(rooms, key=lambda r: (go_frames(s, s.room, r) + tw.EXPLORE * (2 - _own_level(s, r)), r))
        else:
            best = min(rooms, key=lambda r: (go_frames(s, s.room, r), r))
        return Goal("explore", room=best)
    if carried:
        return Goal("deliver", deliver=True)
    return Goal("wait")


# ---------------------------------------------------------------------------------------------
# planning
# ---------------------------------------------------------------------------------------------

def plan_cost(s: BeliefState, actions: list, room: str) -> float:
    here, total = room, 0.0
    for a in actions:
        if a.startswith("go to "):
            total += go_frames(s, here, a[6:])
            here = a[6:]
        elif a.startswith("grasp"):
            total += tw.GRASP
        elif a.startswith("put"):
            total += tw.PUT
        else:
            total += tw.TRANSPORT
    return total


def _plan_matches(plan: tuple, goal: Goal, plan_goal: Goal | None) -> bool:
    if not plan or plan_goal is None or plan_goal.kind != goal.kind or plan_goal.room != goal.room:
        return False
    grasps = {a[6:] for a in plan if a.startswith("grasp ")}
    return grasps == goal.objects() and (("transport to bed" in plan) == goal.deliver)


def make_plan(s: BeliefState, goal: Goal, planner) -> tuple:
    if goal.kind == "explore":
        acts = [] if s.room == goal.room else [f"go to {goal.room}"]
        return tuple(acts + ["explore"] * (2 - _own_level(s, goal.room)))
    if goal.kind == "deliver":
        return tuple(([] if s.room == s.task["bedroom"] else [f"go to {s.task['bedroom']}"]) + ["transport to bed"])
    if goal.kind == "wait":
        return ("wait",)
    locs = {o: value(s, o) for o in (*goal.batch, *goal.containers)}
    acts = planner.plan(s.room, list(s.holding), s.contents, locs, s.task["bedroom"], list(goal.batch),
                        list(goal.containers), goal.deliver, dist=lambda a, b: dist(s, a, b),
                        price=lambda acts, room: plan_cost(s, acts, room))
    return tuple(acts) or ("wait",)


# ---------------------------------------------------------------------------------------------
# decide: subgoal, miscoordination, message, action
# ---------------------------------------------------------------------------------------------

def conflict(s: BeliefState, partner: str, goal: Goal) -> tuple[float, bool]:
    """P(``partner``'s next subgoal overlaps mine) and whether it has priority for it."""
    p, first = 0.0, False
    objs = goal.objects()
    for g, q in s.models[partner].goal_prob.items():
        if g[0] == "fetch" and g[1] in objs:
            p += q
            r = value(s, g[1])
            if r in s.task["room_type"] and partner_first(s, partner, r):
                first = True
        elif g[0] == "explore" and goal.kind == "explore" and g[1] == goal.room:
            p += q
            if partner_first(s, partner, g[1]):
                first = True
    return p, first


def detect(s: BeliefState, config: Config, goal: Goal):
    """Miscoordination detection: (goal after yielding, detections, yields, overlaps). ``overlaps``:
    ``(teammate, P(overlap), I win)`` for any overlap above zero (what my plan and position are worth to
    it, for the message policy); a detection needs P(overlap) at or above ``conflict_threshold``, and only
    then do I yield where the teammate has priority."""
    detections, yields, won = 0, [], []
    if not (config.detect and config.partner_model) or goal.kind not in ("fetch", "explore"):
        return goal, detections, yields, won
    avoid_objs, avoid_rooms = set(), set()
    for p in s.partners:
        p_conf, p_first = conflict(s, p, goal)
        if p_conf > 0:
            won.append((p, p_conf, not p_first))
        if p_conf < config.conflict_threshold:
            continue
        detections += 1
        if not p_first:
            continue
        keys = goal_key(goal) & set(s.models[p].goal_prob)
        yields.append((p, tuple(sorted(keys))))
        if goal.kind == "fetch":
            avoid_objs |= {k[1] for k in keys if k[0] == "fetch"}
        else:
            avoid_rooms.add(goal.room)
        goal = choose_goal(s, config, avoid_objs=avoid_objs, avoid_rooms=avoid_rooms)
        if goal.kind not in ("fetch", "explore"):
            break
    return goal, detections, yields, won


def decide(state: BeliefState, config: Config, planner, mask=None, names=None):
    """(state, action name, message text or None, record). With a message the action is 'send message'.
    ``record``: this decision's goal, the goal before any yield (``intended``, its keys), detections, yields,
    and ``checks``: ``(teammate, P(its next subgoal overlaps the intended one))`` when detection is on."""
    s = copy.copy(state)
    intended = choose_goal(s, config)
    checks = [(p, conflict(s, p, intended)[0]) for p in s.partners] \
        if config.detect and config.partner_model and intended.kind in ("fetch", "explore") else []
    goal, detections, yields, won = detect(s, config, intended)
    s.goal = goal
    record = {"goal": goal, "intended": goal_key(intended), "detections": detections, "yields": yields,
              "checks": checks}
    msg = None
    if s.partners:
        msg, s = POLICIES[config.comm](s, goal, config, won)
    if msg:
        return s, "send message", msg, record
    if not _plan_matches(s.plan, goal, s.plan_goal) or (s.last_feedback and "failed" in s.last_feedback):
        s.plan = make_plan(s, goal, planner)
        s.plan_goal = goal
        s.last_feedback = None
    action = s.plan[0] if s.plan else "wait"
    if names is not None and mask is not None:
        idx = names.index(action) if action in names else -1
        if idx < 0 or not mask[idx]:
            if action.startswith("grasp "):  # not here after all: note it and think again
                s.gone = s.gone | {action[6:]}
            s.plan_goal = choose_goal(s, config)
            s.plan = make_plan(s, s.plan_goal, planner)
            action = s.plan[0] if s.plan else "wait"
            idx = names.index(action) if action in names else -1
            if idx < 0 or not mask[idx]:
                s.plan = ()
                return s, "wait", None, record
    s.plan = s.plan[1:]
    return s, action, None, record


# ---------------------------------------------------------------------------------------------
# the agent: holds the state between steps, keeps the records the benchmark scores
# ---------------------------------------------------------------------------------------------

class TransportAgent(AgentBase):
    """A ``transport_v0`` agent parameterised by a :class:`Config` (see :data:`PRESETS`).

    Under the agent protocol ``perceive`` takes in its view (``info["view"]``: what it saw and was told) and
    ``act`` decides on the state so updated; a message is part of the action (``(A_SEND, text)``).

    Records (plain lists, read by the benchmark): ``decisions`` ``(frame, goal keys)``; ``predictions``
    ``(frame, teammate, predicted key)`` (the top of its predicted distribution at each decision);
    ``forecasts`` ``(frame, teammate, {predictor: distribution}, in sight)``: the predicted distribution
    (``bayes``) beside the information-matched predictors (:func:`partner.matched_predictors`), the teammate
    in my room or not; ``intended`` (aligned with ``decisions``): each decision's keys before any yield;
    ``checks`` ``(frame, teammate, intended keys, P(overlap))``: each detection test (a detection when
    P(overlap) >= ``conflict_threshold``); ``yields`` ``(frame, teammate, keys)``; ``detections`` (a count)."""

    def __init__(self, name: str, config: Config | str = "cobel", planner=None):
        self.name = name
        self.config = PRESETS[config] if isinstance(config, str) else config
        self.planner = planner or Planner(self.config.planner)
        self.state: BeliefState | None = None
        self.reset_records()

    def reset_records(self) -> None:
        self.decisions: list = []
        self.intended: list = []
        self.predictions: list = []
        self.forecasts: list = []
        self.checks: list = []
        self.yields: list = []
        self.detections = 0

    def reset(self, task: dict | None = None):
        self.state = initial_state(self.name, task)
        self.reset_records()

    def observe(self, view: dict):
        self.state = update(self.state, view, self.config)

    def perceive(self, events, info: dict | None = None) -> None:
        if info is not None:
            self.observe(info["view"])

    def held(self, chain: tuple, fluent: tuple):
        """The definite value this agent's belief store holds for ``chain`` (itself; itself and a teammate when
        it keeps first-order beliefs), or None."""
        if self.state is None or len(fluent) != 2:
            return None
        v = self.state.store.value(tuple(chain), fluent[0], fluent[1])
        return v if isinstance(v, str) else None

    def answer(self, question: dict) -> str:
        """A question of the general model (``question["question"]``, the selected set) answered from this
        agent's own belief store (:func:`belief.envs.base.selected.believed_answer`), in words the one reader
        reads."""
        if "question" not in question:
            return super().answer(question)
        q = question_from_dict(question["question"])[0]
        return say(q, believed_answer(q, self.name, self.held))

    def act(self, observation, info: dict):
        """The env action for the state its views built: an index, or ``(index, text)`` for a message."""
        view, mask, names = info["view"], info["action_mask"], info["action_names"]
        if not view["idle"]:
            return 0
        s = predict(self.state, self.config, choose_goal if self.config.partner_model else None)
        if self.config.partner_model:
            for p in s.partners:
                top = top_goal(s, p)
                if top is not None:
                    self.predictions.append((s.frame, p, top))
                    self.forecasts.append((s.frame, p, {"bayes": dict(s.models[p].goal_prob),
                                                        **matched_predictors(s, p)}, p in view["present"]))
        s, action, msg, record = decide(s, self.config, self.planner, mask, names)
        self.state = s
        self.decisions.append((s.frame, goal_key(record["goal"])))
        self.intended.append(record["intended"])
        self.checks += [(s.frame, p, record["intended"], q) for p, q in record["checks"]]
        self.detections += record["detections"]
        self.yields += [(s.frame, p, keys) for p, keys in record["yields"]]
        idx = names.index(action)
        return (idx, msg) if msg is not None else idx


def make_agents(kind: str, agents, planner_engine: str | None = None, message_writer=None, llm=None) -> dict:
    """Agents of one type (``kind`` in :data:`PRESETS`), or a mixed team ``"a+b"`` (agent i gets the
    i-th kind, cycling). ``message_writer``: e.g. ``llm_message_writer(LLMClient.from_env())`` (LLM mode).
    ``llm``: a :class:`belief.agents.transport.llm.TransportLLM` (LLM mode for ``cobel`` agents: the parts it
    enables replace the update's observation reading, inform the partner prediction, phrase messages)."""
    kinds = kind.split("+")
    out = {}
    for i, a in enumerate(agents):
        k = kinds[i % len(kinds)]
        cfg = PRESETS[k]
        if planner_engine and cfg.planner != "greedy":
            cfg = replace(cfg, planner=planner_engine)
        if message_writer is not None:
            cfg = replace(cfg, message_writer=message_writer)
        if llm is not None and k == "cobel":
            cfg = llm.configure(cfg)
        out[a] = TransportAgent(a, cfg, Planner(cfg.planner))
    return out


def llm_message_writer(client, max_tokens: int = 60, stats: dict | None = None):
    """LLM mode for message generation (through :class:`belief.llm.client.LLMClient`): the model phrases
    the plan in one sentence; the fact lines stay verbatim so the partner's parser (and the checker) read
    the same facts. Any LLM error falls back to the templated text (the offline default); ``stats``
    (optional) counts ``message_calls``, ``message_llm`` and ``message_fallbacks``."""
    stats = stats if stats is not None else {}

    def write(fact_lines: list, plan_text: str, default: str) -> str:
        stats["message_calls"] = stats.get("message_calls", 0) + 1
        prompt = ("You coordinate with a teammate to carry objects to a bed. In one short sentence, tell them "
                  f"your plan: {plan_text}. Do not add facts.")
        try:
            sentence = client.chat([{"role": "user", "content": prompt}], max_tokens=max_tokens).text.strip()
        except BeliefError:
            stats["message_fallbacks"] = stats.get("message_fallbacks", 0) + 1
            return default
        stats["message_llm"] = stats.get("message_llm", 0) + 1
        plan_line = next((ln for ln in default.splitlines() if ln.startswith("PLAN ")), "")
        return "\n".join([*fact_lines, plan_line, sentence.replace("\n", " ")[:300]])

    return write


__all__ = ["PLAN_MEMORY", "PRESETS", "BeliefState", "Config", "Goal", "TransportAgent", "available", "choose_goal",
           "cobel_message", "conflict", "decide", "detect", "initial_state", "llm_message_writer",
           "location_posterior", "make_agents", "parse_plan", "predict", "snapshot", "update", "value"]
