"""CoBel agents for ``transport_v0``: collaborative belief reasoning (CoBel-World) without an LLM.

The agent keeps its beliefs in a :class:`belief.store.BeliefStore` over the ``transport-tdw`` domain
(:data:`belief.envs.transport_world.DOMAIN_TEXT`): zero order in chain ``(me,)``
(``alice BELIEVE apple_1 IN kitchen_1``), first order in ``(me, partner)``
(``alice BELIEVE bob BELIEVE kitchen_1 EXPLORED all``). The store holds *evidence* only: what the agent
saw (alone: zero order; with the partner present: both orders) and what messages said (a received fact:
both orders, as the partner holds what it said; a sent fact: first order). That is exactly what the
checker's ground truth models, so belief accuracy measures the tracker. Predictions are kept apart,
as explicit probabilities:

* ``loc_prob``: P(an unseen target is in room r) = prior(room type) x P(not yet revealed | explored
  state), normalised (Bayes' rule with likelihood 1 / 0.5 / 0 for none / part / all);
* ``goal_prob``: P(partner's next subgoal = g) over fetch(o) / explore(r) / deliver, predicted from my
  model of the partner's beliefs and position (a softmax over frame costs), its announced plan, and
  updated with what I see it do (goals consistent with its room and actions gain mass).

Decision (every time the agent is idle): choose a subgoal (a batch of known targets to collect, a
container to fetch, a room to explore by expected targets per frame, or delivery), plan it with
:class:`belief.agents.transport_planner.Planner` (a UP problem built from the store; pyperplan by
default; plans cached and followed until the beliefs change what matters), then check for
*miscoordination*: (a) conflict: my subgoal overlaps the partner's predicted one (same object or same
room to explore) with probability >= ``conflict_threshold``; if the partner is closer I yield and
choose again, else I tell my plan; (b) decision-relevant facts I hold that my model of the partner
lacks (``store.diff((me,), (me, partner))``) that would change its predicted subgoal. A message carries
only those facts and my plan; otherwise no message.

The step functions are pure, tomsup style: :func:`update` ``(state, view) -> state``,
:func:`predict` ``(state, config) -> state``, :func:`decide` ``(state, config, planner, mask, names)
-> (state, action, message)``. :class:`TransportAgent` only holds the state between calls.
"""

from __future__ import annotations

import copy
import math
import re
from dataclasses import dataclass, field, replace

from belief.agents.transport_planner import Planner
from belief.envs import transport_world as tw
from belief.envs.transport_v0 import parse_message_facts
from belief.errors import BeliefError
from belief.formula import Atom, Believes, Fact
from belief.store import BeliefStore

EXPLORE_LIKELIHOOD = {0: 1.0, 1: 0.5, 2: 0.0}  # P(target not seen | it is in the room, explored state)
PLAN_RE = re.compile(r"PLAN (\w+): (.*)")
PLAN_MEMORY = 600  # frames an announced plan stays credible


@dataclass(frozen=True)
class Config:
    """What an agent type does. ``comm``: none | cobel | always."""

    comm: str = "cobel"
    partner_model: bool = True
    bayes: bool = True
    first_order: bool = True
    planner: str = "pyperplan"
    conflict_threshold: float = 0.35
    temperature: float = 80.0  # frames, softmax of the partner-subgoal prediction
    message_writer: object = None  # optional callable(facts, plan_text, default) -> text (LLM mode)
    fact_reader: object = None  # optional callable(state, view) -> [Fact] | None (LLM mode; None: fall back)
    goal_picker: object = None  # optional callable(state, cand, goal_prob) -> goal_prob | None (LLM mode)


PRESETS = {
    "cobel": Config(),
    "silent": Config(comm="none"),
    "always": Config(comm="always"),
    "rule": Config(comm="none", partner_model=False, bayes=False, first_order=False, planner="greedy"),
    "single": Config(comm="none"),
}


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


@dataclass
class BeliefState:
    me: str
    partner: str | None
    task: dict
    store: BeliefStore
    frame: int = 0
    room: str = ""
    holding: list = field(default_factory=list)
    contents: dict = field(default_factory=dict)
    visible: dict = field(default_factory=dict)
    partner_room: str | None = None
    partner_frame: int = -1
    partner_holding: tuple = ()
    partner_plan: dict | None = None
    partner_plan_frame: int = -10 ** 9
    gone: frozenset = frozenset()
    loc_prob: dict = field(default_factory=dict)
    expected: dict = field(default_factory=dict)
    goal_prob: dict = field(default_factory=dict)
    plan: tuple = ()
    plan_goal: Goal | None = None
    told: frozenset = frozenset()  # plan texts already told
    last_action: str | None = None
    last_feedback: str | None = None
    messages_sent: int = 0
    alternate: bool = False

    def copy(self) -> "BeliefState":
        new = copy.copy(self)
        new.store = self.store.copy()
        return new


# ---------------------------------------------------------------------------------------------
# reading the store
# ---------------------------------------------------------------------------------------------

def value(state: BeliefState, subj: str, pred: str = "in", chain: tuple | None = None):
    return state.store.value(chain if chain is not None else (state.me,), pred, subj)


def explored_level(state: BeliefState, room: str, chain: tuple | None = None) -> int:
    v = value(state, room, "explored", chain)
    return tw.EXPLORE_STATES.index(v) if v else 0


def snapshot(state: BeliefState) -> dict:
    """{chain: {(pred, subject): value}} for the agent's zero- and first-order chains."""
    out = {}
    chains = [(state.me,)] + ([(state.me, state.partner)] if state.partner else [])
    for ch in chains:
        out[ch] = {(k[0], k[1]): v for k, v in state.store.values(ch).items()}
    return out


def _fact(chain: tuple, pred: str, subj: str, val: str) -> Fact:
    f = Atom(pred, (subj, val))
    for a in reversed(chain):
        f = Believes(a, f)
    return Fact(f)


def initial_state(me: str, task: dict) -> BeliefState:
    agents = task["agents"]
    partner = next((a for a in agents if a != me), None)
    ent = {r: "room" for r in task["rooms"]}
    ent.update({o: task["family"] for o in task["targets"]})
    ent.update({c: "container" for c in task.get("containers", [])})
    ent[tw.BED] = "bed"
    ent.update({a: "agent" for a in agents})
    store = BeliefStore(tw.domain(), ent)
    prior = tw.room_prior(task["rooms"], task["room_type"], task["family"])
    task = dict(task, prior=prior, entities=ent)
    return BeliefState(me, partner, task, store, loc_prob=dict(prior))


# ---------------------------------------------------------------------------------------------
# update: (state, view) -> state
# ---------------------------------------------------------------------------------------------

def update(state: BeliefState, view: dict, config: Config = PRESETS["cobel"]) -> BeliefState:
    """Condition the beliefs on one observation (what was seen, with whom, and the messages received)."""
    s = state.copy()
    me, partner = s.me, s.partner
    s.frame = view["frame"]
    s.room = view["room"]
    s.holding = list(view["holding"])
    s.contents = {c: list(v) for c, v in view["contents"].items()}
    s.visible = dict(view["visible"])
    if view.get("feedback"):
        s.last_feedback = view["feedback"]
    facts = {}
    msg_keys = set()
    fo = config.first_order and partner is not None
    gone = set(s.gone)
    for ev in view["events"]:
        kind = ev[0]
        if kind == "saw":
            _, pred, subj, val, observers = ev
            facts[((me,), pred, subj)] = val
            if fo and partner in observers:
                facts[((me, partner), pred, subj)] = val
            gone.discard(subj)
        elif kind == "entered" and ev[1] == partner:
            s.partner_room, s.partner_frame = ev[2], s.frame
        elif kind == "left" and ev[1] == partner:
            s.partner_room, s.partner_frame = None, s.frame
    if partner in view["present"]:
        s.partner_room, s.partner_frame = s.room, s.frame
        s.partner_holding = tuple(o for o, loc in view["visible"].items() if loc == partner)
    for sender, text in view["messages"]:
        if sender != partner:
            continue
        for pred, subj, val in parse_message_facts(text, s.task["entities"]):
            # trust the partner, except against what I see or hold right now
            if not (subj in s.visible or subj in s.holding or subj in _contained(s)):
                facts[((me,), pred, subj)] = val
                msg_keys.add(((me,), pred, subj))
                gone.discard(subj)
            if fo:
                facts[((me, partner), pred, subj)] = val
                msg_keys.add(((me, partner), pred, subj))
        m = PLAN_RE.search(text)
        if m:
            s.partner_plan = parse_plan(m.group(2), s.task)
            s.partner_plan_frame = s.frame
    if facts:
        batch = [_fact(ch, p, subj, v) for (ch, p, subj), v in facts.items()]
        if config.fact_reader is not None and len(msg_keys) < len(facts):
            # LLM mode: the observation's facts come from the checked translation of its text (messages
            # stay data, read by the env's parser and the trust rule above); None means: fall back
            read = config.fact_reader(s, view)
            if read is not None:
                merged = {(f.chain, f.atom.pred, f.atom.args[0]): f for f in read}
                merged.update({k: _fact(k[0], k[1], k[2], facts[k]) for k in facts if k in msg_keys})
                try:
                    s.store.apply(list(merged.values()), mode="replace")  # all-or-nothing
                    batch = None
                except BeliefError as e:
                    note = getattr(config.fact_reader, "rejected", None)
                    if note is not None:
                        note(str(e))
        if batch is not None:
            s.store.apply(batch, mode="replace")
    # absence is evidence for planning (not for the store): a target I placed here is not here any more
    if view["idle"]:
        for (pred, subj, *_), where in s.store.values((me,)).items():
            if pred == "in" and where == s.room and subj not in s.visible:
                gone.add(subj)
    s.gone = frozenset(gone)
    return s


def _contained(s: BeliefState) -> set:
    return {t for v in s.contents.values() for t in v}


def parse_plan(text: str, task: dict) -> dict:
    words = set(re.findall(r"[A-Za-z0-9_]+", text))
    objs = words & (set(task["targets"]) | set(task.get("containers", [])))
    rooms = [r for r in task["rooms"] if r in words]
    return {"objects": objs, "explore": rooms[0] if text.startswith("explore") and rooms else None,
            "deliver": "deliver" in words}


# ---------------------------------------------------------------------------------------------
# predict: explicit probabilities over unseen targets and the partner's next subgoal
# ---------------------------------------------------------------------------------------------

def available(state: BeliefState, chain: tuple | None = None) -> dict:
    """Targets believed lying in a room (and not noticed gone): {target: room}."""
    rooms = state.task["room_type"]
    out = {}
    for o in state.task["targets"]:
        v = value(state, o, chain=chain)
        if v in rooms and (chain is not None or o not in state.gone):
            out[o] = v
    return out


def containers_available(state: BeliefState) -> dict:
    rooms = state.task["room_type"]
    out = {}
    for c in state.task.get("containers", []):
        v = value(state, c)
        if v in rooms and c not in state.gone:
            out[c] = v
    return out


def unseen_targets(state: BeliefState, chain: tuple | None = None) -> list:
    return [o for o in state.task["targets"] if value(state, o, chain=chain) is None]


def location_posterior(state: BeliefState, chain: tuple | None = None) -> dict:
    """P(an unseen target is in room r | the explored states held by ``chain``)."""
    prior = state.task["prior"]
    w = {r: prior[r] * EXPLORE_LIKELIHOOD[explored_level(state, r, chain)] for r in state.task["rooms"]}
    z = sum(w.values())
    return {r: (v / z if z > 0 else 0.0) for r, v in w.items()}


def dist(state: BeliefState, a: str | None, b: str) -> float:
    if a is None:
        d = state.task["distance"][b]
        return sum(d.values()) / len(d)
    return state.task["distance"][a][b]


def go_frames(state: BeliefState, a: str | None, b: str) -> float:
    return 0.0 if a == b else tw.GO_BASE + tw.FRAMES_PER_METER * dist(state, a, b)


def predict(state: BeliefState, config: Config) -> BeliefState:
    s = copy.copy(state)
    n_unseen = len(unseen_targets(s))
    if config.bayes:
        s.loc_prob = location_posterior(s)
        s.expected = {r: n_unseen * p for r, p in s.loc_prob.items()}
    else:
        s.expected = {r: (1.0 if explored_level(s, r) < 2 else 0.0) for r in s.task["rooms"]}
    if s.partner is None or not config.partner_model:
        s.goal_prob = {}
        return s
    # the partner's candidate subgoals, from my model of its beliefs (first order)
    pchain = (s.me, s.partner) if config.first_order else None
    here = s.partner_room
    cand = {}
    p_avail = available(s, pchain) if pchain else {}
    for o, r in p_avail.items():
        if o in s.holding or o in _contained(s):
            continue
        cand[("fetch", o)] = (go_frames(s, here, r) + tw.GRASP, 1.0)
    p_post = location_posterior(s, pchain)
    n_p = len(unseen_targets(s, pchain)) if pchain else n_unseen
    for r in s.task["rooms"]:
        lvl = explored_level(s, r, pchain)
        if lvl < 2:
            gain = n_p * p_post[r] * 0.5 * (2 - lvl)
            if gain > 0.05:
                cand[("explore", r)] = (go_frames(s, here, r) + tw.EXPLORE, min(1.0, gain / 2))
    if s.partner_holding:
        cand[("deliver",)] = (go_frames(s, here, s.task["bedroom"]), 0.7)
    if not cand:
        s.goal_prob = {}
        return s
    t = config.temperature
    model = {g: w * math.exp(-c / t) for g, (c, w) in cand.items()}
    plan = s.partner_plan if s.frame - s.partner_plan_frame <= PLAN_MEMORY else None
    if plan:
        for g in model:
            if (g[0] == "fetch" and g[1] in plan["objects"]) or (g[0] == "explore" and g[1] == plan["explore"]) \
                    or (g[0] == "deliver" and plan["deliver"] and not plan["objects"]):
                model[g] *= 20.0
    z = sum(model.values())
    model = {g: v / z for g, v in model.items()}
    # Bayesian-style filtering: yesterday's posterior as a sticky prior, today's model as likelihood
    prev = s.goal_prob
    post = {g: model[g] * (0.25 + prev.get(g, 0.0)) for g in model}
    z = sum(post.values())
    s.goal_prob = {g: v / z for g, v in post.items()}
    if config.goal_picker is not None and len(s.goal_prob) > 1:
        # LLM mode: the model picks among these candidates; its answer is blended in (None: keep these)
        picked = config.goal_picker(s, cand, s.goal_prob)
        if picked is not None:
            s.goal_prob = picked
    return s


# ---------------------------------------------------------------------------------------------
# decide: subgoal, plan, miscoordination, message
# ---------------------------------------------------------------------------------------------

def capacity(s: BeliefState) -> tuple[int, int]:
    """(targets I can still take, targets carried). One container + one hand: 4 targets at most."""
    conts = [c for c in s.holding if c in s.contents]
    loose = [o for o in s.holding if o not in s.contents]
    carried = len(_contained(s)) + len(loose)
    if len(conts) == 1:
        return max(0, (tw.CONTAINER_SLOTS - len(s.contents[conts[0]])) + 1 - len(loose)), carried
    if len(conts) >= 2:
        return 0, carried
    return 2 - len(s.holding), carried


def partner_first(s: BeliefState, room: str) -> bool:
    """Does the partner have priority for work in ``room``? The closer agent does (frames from each
    one's last known room; an unknown partner position counts as the mean distance); a tie goes to
    the alphabetically first name. Both agents apply the same rule, so a shared conflict has one winner."""
    return (round(go_frames(s, s.partner_room, room)), s.partner) < (round(go_frames(s, s.room, room)), s.me)


def _claimed(s: BeliefState, config: Config) -> tuple[set, set]:
    """Objects and rooms I leave to the partner: announced or predicted, where the partner has priority."""
    objs, rooms = set(), set()
    plan = s.partner_plan if s.frame - s.partner_plan_frame <= PLAN_MEMORY else None
    rooms_of = s.task["room_type"]
    if plan:
        for o in plan["objects"]:
            r = value(s, o)
            if r not in rooms_of or partner_first(s, r):
                objs.add(o)
        if plan["explore"] and partner_first(s, plan["explore"]):
            rooms.add(plan["explore"])
    if config.partner_model:
        for g, p in s.goal_prob.items():
            if p < config.conflict_threshold:
                continue
            if g[0] == "fetch":
                r = value(s, g[1])
                if r in rooms_of and partner_first(s, r):
                    objs.add(g[1])
            elif g[0] == "explore" and partner_first(s, g[1]):
                rooms.add(g[1])
    objs -= set(s.holding) | _contained(s)
    return objs, rooms


def choose_goal(s: BeliefState, config: Config, avoid_objs=frozenset(), avoid_rooms=frozenset()) -> Goal:
    bedroom = s.task["bedroom"]
    cap, carried = capacity(s)
    left = s.task["budget"] - s.frame
    to_bed = go_frames(s, s.room, bedroom) + tw.TRANSPORT
    if carried and left < to_bed + 60:
        return Goal("deliver", deliver=True)
    claimed_objs, claimed_rooms = _claimed(s, config)
    claimed_objs |= set(avoid_objs)
    claimed_rooms |= set(avoid_rooms)
    avail = {o: r for o, r in available(s).items() if o not in claimed_objs}
    if not avail and claimed_objs:  # nothing else to do: share the partner's work
        avail = {o: r for o, r in available(s).items()}
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
        # a far batch with something in hand: deliver first when the bed is on the way
        return Goal("fetch", tuple(batch), deliver=full)
    rooms = _explorable(s, claimed_rooms) or _explorable(s, set())
    if rooms:
        if carried and cap <= 1:
            return Goal("deliver", deliver=True)
        if config.bayes:
            best = max(rooms, key=lambda r: (s.expected.get(r, 0.0) / (go_frames(s, s.room, r) + tw.EXPLORE
                                                                         * (2 - explored_level(s, r))), r))
        else:
            best = min(rooms, key=lambda r: (go_frames(s, s.room, r), r))
        return Goal("explore", room=best)
    if carried:
        return Goal("deliver", deliver=True)
    return Goal("wait")


def _explorable(s: BeliefState, exclude: set) -> list:
    out = []
    for r in s.task["rooms"]:
        if r in exclude or explored_level(s, r) >= 2:
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
        return tuple(acts + ["explore"] * (2 - explored_level(s, goal.room)))
    if goal.kind == "deliver":
        return tuple(([] if s.room == s.task["bedroom"] else [f"go to {s.task['bedroom']}"]) + ["transport to bed"])
    if goal.kind == "wait":
        return ("wait",)
    locs = {o: value(s, o) for o in (*goal.batch, *goal.containers)}
    acts = planner.plan(s.room, list(s.holding), s.contents, locs, s.task["bedroom"], list(goal.batch),
                        list(goal.containers), goal.deliver, dist=lambda a, b: dist(s, a, b),
                        price=lambda acts, room: plan_cost(s, acts, room))
    return tuple(acts) or ("wait",)


def decide(state: BeliefState, config: Config, planner, mask=None, names=None):
    """(state, action name, message text or None). With a message the action is 'send message'."""
    s = copy.copy(state)
    goal = choose_goal(s, config)
    # miscoordination: conflicting predicted subgoals
    if config.partner_model and s.partner and s.goal_prob and goal.kind in ("fetch", "explore"):
        p_conf, p_closer = _conflict(s, goal)
        if p_conf >= config.conflict_threshold and p_closer:
            # the partner is closer: yield those objects / that room and choose again
            if goal.kind == "fetch":
                goal = choose_goal(s, config, avoid_objs=goal.objects())
            else:
                goal = choose_goal(s, config, avoid_rooms={goal.room})
    msg = None
    if s.partner and config.comm == "cobel":
        msg, s = cobel_message(s, goal, config)
    elif s.partner and config.comm == "always":
        if not s.alternate:
            msg, s = always_message(s, goal, config)
        s.alternate = not s.alternate
    if msg:
        s.messages_sent += 1
        s.last_action = "send message"
        return s, "send message", msg
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
                return s, "wait", None
    s.plan = s.plan[1:]
    s.last_action = action
    return s, action, None


def _conflict(s: BeliefState, goal: Goal) -> tuple[float, bool]:
    """P(partner's next subgoal overlaps mine) and whether the partner is closer to it."""
    p, closer = 0.0, False
    objs = goal.objects()
    for g, q in s.goal_prob.items():
        if g[0] == "fetch" and g[1] in objs:
            p += q
            r = value(s, g[1])
            if r in s.task["room_type"] and partner_first(s, r):
                closer = True
        elif g[0] == "explore" and goal.kind == "explore" and g[1] == goal.room:
            p += q
            if partner_first(s, g[1]):
                closer = True
    return p, closer


def _line(f: Fact) -> str:
    a = f.formula
    return f"{a.args[0]} {'IN' if a.pred == 'in' else 'EXPLORED'} {a.args[1]}"


def cobel_message(s: BeliefState, goal: Goal, config: Config):
    """Only decision-relevant facts the partner lacks, and my plan when it conflicts; else None."""
    me, partner = s.me, s.partner
    pchain = (me, partner)
    lacks = {(f.atom.pred, f.atom.args[0]): f for f in s.store.diff((me,), pchain)
             if f.atom.pred in ("in", "explored")}
    relevant: list[Fact] = []
    top = max(s.goal_prob.items(), key=lambda kv: kv[1])[0] if s.goal_prob else None
    mine = goal.objects()
    avail = available(s)
    # (b1) the partner's predicted subgoal rests on something I know is wrong
    if top is not None and top[0] == "fetch":
        o = top[1]
        if o not in avail and ("in", o) in lacks and o not in mine:
            relevant.append(lacks[("in", o)])
    if top is not None and top[0] == "explore" and ("explored", top[1]) in lacks \
            and explored_level(s, top[1]) >= 2:
        relevant.append(lacks[("explored", top[1])])
    # (b2) targets it lacks that I leave to it: worth telling when it has no work of its own (it would
    # explore, or my plan takes what it was going for), since then they change its next subgoal
    p_has_work = top is not None and top[0] in ("fetch", "deliver") and (
        top[0] == "deliver" or (top[1] in available(s, pchain) and top[1] not in mine))
    if not p_has_work or relevant:
        spare = [o for o in avail if o not in mine and ("in", o) in lacks]
        spare.sort(key=lambda o: (go_frames(s, s.partner_room, avail[o]), o))
        relevant += [lacks[("in", o)] for o in spare[:4]]
    # (a) conflict: tell my plan
    conflict = False
    if s.goal_prob and goal.kind in ("fetch", "explore"):
        p_conf, _ = _conflict(s, goal)
        conflict = p_conf >= config.conflict_threshold
    plan_text = goal.text()
    if not relevant and not (conflict and plan_text not in s.told):
        return None, s
    s = s.copy()
    lines = [_line(f) for f in relevant] + [f"PLAN {me}: {plan_text}"]
    if relevant:
        s.store.apply([_fact(pchain, f.atom.pred, f.atom.args[0], f.atom.args[1]) for f in relevant], mode="replace")
    s.told = s.told | {plan_text}
    text = "\n".join(lines)
    if config.message_writer is not None:
        text = config.message_writer([_line(f) for f in relevant], plan_text, text)
    return text, s


def always_message(s: BeliefState, goal: Goal, config: Config):
    """CoELA-style: everything I know, my position and holdings, and my plan, every time."""
    me = s.me
    facts = [f for f in s.store.facts() if f.chain == (me,) and f.atom.pred in ("in", "explored")]
    facts = [Fact(f.atom) for f in facts]
    hold = ", ".join(s.holding) or "nothing"
    lines = [f"Hello {s.partner}, this is {me}. I am in {s.room} and I hold {hold}. Here is what I know:"]
    lines += [_line(f) for f in sorted(facts, key=str)]
    lines.append(f"PLAN {me}: {goal.text()}")
    s = s.copy()
    if facts:
        s.store.apply([_fact((me, s.partner), f.atom.pred, f.atom.args[0], f.atom.args[1]) for f in facts],
                      mode="replace")
    return "\n".join(lines), s


# ---------------------------------------------------------------------------------------------
# the agent: holds the state between steps
# ---------------------------------------------------------------------------------------------

class TransportAgent:
    """A ``transport_v0`` agent parameterised by a :class:`Config` (see :data:`PRESETS`)."""

    def __init__(self, name: str, config: Config | str = "cobel", planner=None):
        self.name = name
        self.config = PRESETS[config] if isinstance(config, str) else config
        self.planner = planner or Planner(self.config.planner)
        self.state: BeliefState | None = None

    def reset(self, task: dict):
        self.state = initial_state(self.name, task)

    def act(self, view: dict, mask, names):
        """The env action for this observation: an index, or ``(index, text)`` for a message."""
        self.state = update(self.state, view, self.config)
        if not view["idle"]:
            return 0
        self.state = predict(self.state, self.config)
        self.state, action, msg = decide(self.state, self.config, self.planner, mask, names)
        idx = names.index(action)
        if msg is not None:
            return (idx, msg)
        return idx


def make_agents(kind: str, agents, planner_engine: str | None = None, message_writer=None, llm=None) -> dict:
    """Agents of one type. ``message_writer``: e.g. ``llm_message_writer(LLMClient.from_env())`` (LLM mode).
    ``llm``: a :class:`belief.agents.transport_llm.TransportLLM` (LLM mode for ``cobel`` only: the parts it
    enables replace the update's observation reading, inform the partner prediction, phrase messages)."""
    cfg = PRESETS[kind]
    if planner_engine and cfg.planner != "greedy":
        cfg = replace(cfg, planner=planner_engine)
    if message_writer is not None:
        cfg = replace(cfg, message_writer=message_writer)
    if llm is not None and kind == "cobel":
        cfg = llm.configure(cfg)
    return {a: TransportAgent(a, cfg, Planner(cfg.planner)) for a in agents}


__all__ = ["BeliefState", "Config", "Goal", "PRESETS", "TransportAgent", "available", "choose_goal", "decide",
           "initial_state", "llm_message_writer", "location_posterior", "make_agents", "predict", "snapshot",
           "update"]


def llm_message_writer(client, max_tokens: int = 60, stats: dict | None = None):
    """LLM mode for message generation (through :class:`belief.llm_client.LLMClient`): the model phrases
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
