"""What a ``transport_v0`` agent believes, and how one observation updates it (shared by every agent type).

Beliefs live in a :class:`belief.logic.store.BeliefStore` over the ``transport-tdw`` domain
(:data:`belief.envs.transport.world.DOMAIN_TEXT`): zero order in chain ``(me,)``
(``alice BELIEVE apple_1 IN kitchen_1``), first order in ``(me, partner)`` for every teammate
(``alice BELIEVE bob BELIEVE kitchen_1 EXPLORED all``). The store holds evidence only: what the agent
saw (zero order; first order for the teammates that saw it too) and what messages said (zero order,
through the trust rule below; first order for the sender and every other recipient). ``explored`` is
the team's search level of a room as far as the agent knows (its own searches, searches it saw, levels
it was told). Where the teammates are, what they hold and what they announced are kept per teammate in
:class:`PartnerModel`.

Trust rule (the stale-echo fix): newer own evidence wins. A told location replaces mine only when the
message was sent after my own latest evidence about that object and does not contradict what I see or
hold right now; a told search level never lowers the one I hold (searches only go up). So an agent that
searched a room fully keeps ``all`` after a teammate's older ``part``, and does not search it again.

Absence is evidence: an object I believed in my room and do not see there (I know of it, so I would see
it) is gone: the belief is retracted and the object remembered as ``gone`` until seen again.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field

from belief.envs.transport import world as tw
from belief.envs.transport.environment import parse_message_facts
from belief.errors import BeliefError
from belief.logic.formula import Atom, Believes, Fact
from belief.logic.store import BeliefStore

EXPLORE_LIKELIHOOD = {0: 1.0, 1: 0.5, 2: 0.0}  # P(target not seen | it is in the room, explored state)
PLAN_RE = re.compile(r"PLAN (\w+): (.*)")
PLAN_MEMORY = 600  # frames an announced plan stays credible


@dataclass
class PartnerModel:
    """What I know of one teammate besides its beliefs (which are the store's first-order chain)."""

    room: str | None = None
    frame: int = -1
    holding: tuple = ()
    plan: dict | None = None
    plan_frame: int = -10 ** 9
    goal_prob: dict = field(default_factory=dict)
    # what I perceived of its subgoals (for the information-matched predictors the benchmark scores the
    # prediction against): the last one I saw or was told, ``(frame, kind, keys)`` (keys empty when I saw
    # only the kind: a grasp), and how often I saw or was told each kind
    seen: tuple = ()
    kinds: dict = field(default_factory=dict)

    def saw(self, frame: int, kind: str, keys=frozenset()) -> None:
        self.seen = (frame, kind, frozenset(keys))
        self.kinds = {**self.kinds, kind: self.kinds.get(kind, 0) + 1}


@dataclass
class BeliefState:
    me: str
    partners: tuple
    task: dict
    store: BeliefStore
    frame: int = 0
    room: str = ""
    holding: list = field(default_factory=list)
    contents: dict = field(default_factory=dict)
    visible: dict = field(default_factory=dict)
    models: dict = field(default_factory=dict)  # partner -> PartnerModel
    evidence: dict = field(default_factory=dict)  # (pred, subject) -> frame of my newest evidence
    searched: dict = field(default_factory=dict)  # room -> my own search level
    gone: frozenset = frozenset()
    noticed_gone: int = 0
    loc_prob: dict = field(default_factory=dict)
    expected: dict = field(default_factory=dict)
    plan: tuple = ()
    plan_goal: object = None
    goal: object = None
    told: frozenset = frozenset()  # plan texts already told
    told_room: str | None = None  # where I was when I last sent a message
    last_feedback: str | None = None
    last_report: frozenset = frozenset()  # (coela, messenger) the facts I have reported
    last_sent: int = -10 ** 9  # (coela, messenger) the frame of my last message
    alternate: bool = False

    @property
    def partner(self) -> str | None:
        """The first teammate (the only one in two-agent episodes)."""
        return self.partners[0] if self.partners else None

    def copy(self) -> "BeliefState":
        new = copy.copy(self)
        new.store = self.store.copy()
        new.models = {p: copy.copy(m) for p, m in self.models.items()}
        return new


# ---------------------------------------------------------------------------------------------
# reading the store
# ---------------------------------------------------------------------------------------------

def value(state: BeliefState, subj: str, pred: str = "in", chain: tuple | None = None):
    return state.store.value(chain if chain is not None else (state.me,), pred, subj)


def explored_level(state: BeliefState, room: str, chain: tuple | None = None) -> int:
    v = value(state, room, "explored", chain)
    return tw.EXPLORE_STATES.index(v) if v else 0


def chains(state: BeliefState, first_order: bool = True) -> list:
    return [(state.me,)] + ([(state.me, p) for p in state.partners] if first_order else [])


def snapshot(state: BeliefState) -> dict:
    """{chain: {(pred, subject): value}} for the agent's zero- and first-order chains."""
    return {ch: {(k[0], k[1]): v for k, v in state.store.values(ch).items()} for ch in chains(state)}


def fact(chain: tuple, pred: str, subj: str, val: str) -> Fact:
    f = Atom(pred, (subj, val))
    for a in reversed(chain):
        f = Believes(a, f)
    return Fact(f)


def fact_line(pred: str, subj: str, val: str) -> str:
    return f"{subj} {'IN' if pred == 'in' else 'EXPLORED'} {val}"


def initial_state(me: str, task: dict) -> BeliefState:
    agents = task["agents"]
    partners = tuple(a for a in agents if a != me)
    ent = {r: "room" for r in task["rooms"]}
    ent.update({o: task["family"] for o in task["targets"]})
    ent.update({c: "container" for c in task.get("containers", [])})
    ent[tw.BED] = "bed"
    ent.update({a: "agent" for a in agents})
    store = BeliefStore(tw.domain(), ent)
    prior = tw.room_prior(task["rooms"], task["room_type"], task["family"])
    task = dict(task, prior=prior, entities=ent)
    return BeliefState(me, partners, task, store, loc_prob=dict(prior), models={p: PartnerModel() for p in partners})


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
    gone = state.gone if chain is None else frozenset()
    return [o for o in state.task["targets"] if value(state, o, chain=chain) is None and o not in gone]


def location_posterior(state: BeliefState, chain: tuple | None = None) -> dict:
    """P(an unseen target is in room r | the explored states held by ``chain``) (Bayes' rule: prior of
    the room type x P(not yet seen | searched none / part / all) = 1 / 0.5 / 0, normalised)."""
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


def contained(state: BeliefState) -> set:
    return {t for v in state.contents.values() for t in v}


def parse_plan(text: str, task: dict) -> dict:
    words = set(re.findall(r"[A-Za-z0-9_]+", text))
    objs = words & (set(task["targets"]) | set(task.get("containers", [])))
    rooms = [r for r in task["rooms"] if r in words]
    return {"objects": objs, "explore": rooms[0] if text.startswith("explore") and rooms else None,
            "deliver": "deliver" in words}


def plan_keys(plan: dict) -> tuple[str, set]:
    """(kind, subgoal keys) an announced plan names (the keys of :func:`belief.agents.transport.partner.goal_key`)."""
    if plan["objects"]:
        return "fetch", {("fetch", o) for o in plan["objects"]}
    if plan["explore"]:
        return "explore", {("explore", plan["explore"])}
    if plan["deliver"]:
        return "deliver", {("deliver",)}
    return "wait", {("wait",)}


def current_plan(state: BeliefState, partner: str) -> dict | None:
    m = state.models[partner]
    return m.plan if state.frame - m.plan_frame <= PLAN_MEMORY else None


# ---------------------------------------------------------------------------------------------
# update: (state, view) -> state
# ---------------------------------------------------------------------------------------------

def _merge(facts: dict, key: tuple, val: str):
    """Put a fact in the batch; a search level never goes down."""
    chain, pred, subj = key
    if pred == "explored":
        old = facts.get(key)
        if old is not None and tw.EXPLORE_STATES.index(old) >= tw.EXPLORE_STATES.index(val):
            return
    facts[key] = val


def _not_lower(state: BeliefState, facts: dict) -> dict:
    """Drop search levels lower than what the chain already holds."""
    out = {}
    for (chain, pred, subj), val in facts.items():
        if pred == "explored":
            held = value(state, subj, "explored", chain)
            if held is not None and tw.EXPLORE_STATES.index(held) >= tw.EXPLORE_STATES.index(val):
                continue
        out[(chain, pred, subj)] = val
    return out


def update(state: BeliefState, view: dict, config=None) -> BeliefState:
    """Condition the beliefs on one observation (what was seen, with whom, and the messages received).
    ``config``: the agent's :class:`belief.agents.transport.cobel.Config` (None: first order, no LLM reader)."""
    s = state.copy()
    me = s.me
    fo = config is None or config.first_order
    s.frame = view["frame"]
    s.room = view["room"]
    s.holding = list(view["holding"])
    s.contents = {c: list(v) for c, v in view["contents"].items()}
    s.visible = dict(view["visible"])
    if view.get("feedback"):
        s.last_feedback = view["feedback"]
    facts: dict = {}
    msg_keys = set()
    gone = set(s.gone)
    own = tw.EXPLORE_STATES.index(view["explored"])
    if own > s.searched.get(s.room, 0):
        s.searched = {**s.searched, s.room: own}
        _merge(facts, ((me,), "explored", s.room), view["explored"])
    for ev in view["events"]:
        kind = ev[0]
        if kind == "saw":
            _, pred, subj, val, observers = ev
            if pred == "in" and val in s.models and value(state, subj) != val:  # I watched it grasp subj
                s.models[val].saw(s.frame, "fetch")
            _merge(facts, ((me,), pred, subj), val)
            s.evidence[(pred, subj)] = s.frame
            if fo:
                for p in observers:
                    if p in s.models:
                        _merge(facts, ((me, p), pred, subj), val)
            gone.discard(subj)
        elif kind in ("entered", "left") and ev[1] in s.models:
            m = s.models[ev[1]]
            m.room, m.frame = ev[2], s.frame  # a teammate that left is still near the room it left
        elif kind == "searched" and ev[1] in s.models:  # I watched a teammate search
            s.models[ev[1]].saw(s.frame, "explore", {("explore", ev[2])})
            if fo:
                _merge(facts, ((me, ev[1]), "explored", ev[2]), ev[3])
    for p in view["present"]:
        if p in s.models:
            m = s.models[p]
            m.room, m.frame = s.room, s.frame
            m.holding = tuple(o for o, loc in view["visible"].items() if loc == p)
    here = set(s.visible) | set(s.holding) | contained(s)
    for sender, text, *sent in view["messages"]:
        if sender not in s.models:
            continue
        sent_frame = sent[0] if sent else s.frame
        hearers = [sender] + [p for p in s.partners if p != sender]
        for pred, subj, val in parse_message_facts(text, s.task["entities"]):
            if pred == "explored" or (subj not in here and s.evidence.get((pred, subj), -1) < sent_frame):
                _merge(facts, ((me,), pred, subj), val)
                msg_keys.add(((me,), pred, subj))
                if pred == "in":
                    s.evidence[(pred, subj)] = sent_frame
                    gone.discard(subj)
            if fo:
                for p in hearers:
                    _merge(facts, ((me, p), pred, subj), val)
                    msg_keys.add(((me, p), pred, subj))
        plan = PLAN_RE.search(text)
        if plan and plan.group(1) == sender:
            told = s.models[sender].plan = parse_plan(plan.group(2), s.task)
            s.models[sender].plan_frame = s.frame
            s.models[sender].saw(sent_frame, *plan_keys(told))
        where = re.search(r"\bI am in (\w+)", text)
        if where and where.group(1) in s.task["room_type"]:
            s.models[sender].room, s.models[sender].frame = where.group(1), sent_frame
    facts = _not_lower(s, facts)
    if facts:
        _apply(s, facts, msg_keys, view, config)
    if view["idle"]:  # absence is evidence: what I believed here and do not see has gone
        for (pred, subj, *_), where in s.store.values((me,)).items():
            if pred == "in" and where == s.room and subj not in s.visible:
                gone.add(subj)
                s.noticed_gone += 1
                s.store.retract(fact((me,), pred, subj, where))
                s.evidence[(pred, subj)] = s.frame
    s.gone = frozenset(gone)
    return s


def _apply(s: BeliefState, facts: dict, msg_keys: set, view: dict, config) -> None:
    batch = [fact(ch, p, subj, v) for (ch, p, subj), v in facts.items()]
    reader = getattr(config, "fact_reader", None)
    if reader is not None and len(msg_keys) < len(facts):
        # LLM mode: the observation's facts come from the checked translation of its text (messages
        # stay data, read by the env's parser and the trust rule above); None means: fall back
        read = reader(s, view)
        if read is not None:
            merged = {(f.chain, f.atom.pred, f.atom.args[0]): f for f in read}
            merged.update({k: fact(k[0], k[1], k[2], facts[k]) for k in facts if k in msg_keys})
            try:
                s.store.apply(list(merged.values()), mode="replace")  # all-or-nothing
                return
            except BeliefError as e:
                note = getattr(reader, "rejected", None)
                if note is not None:
                    note(str(e))
    s.store.apply(batch, mode="replace")


__all__ = ["BeliefState", "EXPLORE_LIKELIHOOD", "PLAN_MEMORY", "PartnerModel", "available", "chains",
           "containers_available", "contained", "current_plan", "dist", "explored_level", "fact", "fact_line",
           "go_frames", "initial_state", "location_posterior", "parse_plan", "plan_keys", "snapshot", "unseen_targets", "update",
           "value"]
