"""What a ``transport_v0`` agent says, and when: one policy per agent type (``Config.comm``).

``cobel``   CoBel-World with value-of-information messaging: every fact a teammate lacks (``store.diff``
            of my chain and my model of its beliefs) and my plan are priced by the frames they are expected
            to save it (:func:`fact_values`, :func:`plan_value`: a search of a room I know is searched
            further, a trip to an object that has moved, a search for a target whose place I know, a
            duplicate of my subgoal where I have priority), weighted by my prediction of its subgoals; a
            message is sent when what it saves exceeds its frame cost (TDW-MAT: one frame per started 500
            characters). The facts that change its predicted plan (:func:`_plan_changers`: its fetch rests
            on an out-of-date location, its search is of a room I know is searched, a target it would
            prefer, a container when it has none) always count. After sending, my first-order chains hold
            the facts.
``coela``   CoELA's communication module: when it has news since its last message (object locations or
            room searches it has not reported, or a plan it has not told), a message as CoELA's prompts
            write it: where it is, what it holds, the news (at most ``MAX_NEWS`` lines) and its plan; at
            most one message every ``MIN_FRAMES`` frames. (It used to send its whole store on every
            change: 3 times the study's CoELA tokens, and storms of thousands of messages in a few worlds.)
``messenger`` the rule messenger with no partner model ("say what is new, plus my plan"): the news lines
            and the plan line, under the same bounds.
``always``  the always-communicate ablation: the same full message before every action.
``none``    never.
"""

from __future__ import annotations

import math

from belief.agents.transport.beliefs import (BeliefState, available, contained, containers_available, explored_level,
                                             fact, fact_line, go_frames, value)
from belief.agents.transport.partner import candidates, top_goal
from belief.envs.transport import world as tw

MAX_SPARE = 3
MIN_FRAMES = 25  # frames between two messages of the rule messengers (coela, messenger): a grasp
MAX_NEWS = 20  # fact lines per message of the rule messengers


def plan_line(s: BeliefState, goal) -> str:
    return f"PLAN {s.me}: {goal.text()}"


def _told(s: BeliefState, facts: list) -> BeliefState:
    """Every teammate heard the broadcast: my first-order chains now hold ``facts``."""
    if not facts:
        return s
    s = s.copy()
    batch = []
    for p in s.partners:
        for pred, subj, val in facts:
            held = value(s, subj, pred, (s.me, p))
            if pred == "explored" and held and tw.EXPLORE_STATES.index(held) >= tw.EXPLORE_STATES.index(val):
                continue
            batch.append(fact((s.me, p), pred, subj, val))
    s.store.apply(batch, mode="replace")
    return s


def _lacks(s: BeliefState, partner: str) -> dict:
    """{(pred, subject): value} I hold that my model of ``partner`` lacks or holds otherwise."""
    return {(f.atom.pred, f.atom.args[0]): f.atom.args[1] for f in s.store.diff((s.me,), (s.me, partner))
            if f.atom.pred in ("in", "explored")}


def _plan_changers(s: BeliefState, partner: str, goal, config) -> list:
    """Facts (pred, subject, value) that change ``partner``'s predicted subgoal (rules 1-3)."""
    lacks = _lacks(s, partner)
    top = top_goal(s, partner)
    mine = goal.objects() if goal is not None else set()
    rooms = s.task["room_type"]
    out = []
    if top is not None and top[0] == "fetch":  # (1) it goes for something I know has moved
        o = top[1]
        mv = value(s, o)
        if ("in", o) in lacks and mv is not None and mv not in rooms:
            out.append(("in", o, mv))
    moved = {("fetch", subj) for pred, subj, _ in out if pred == "in"}  # what it learns is gone
    if moved:  # its next choice once it knows
        rest = {g: q for g, q in s.models[partner].goal_prob.items() if g not in moved}
        top = max(rest.items(), key=lambda kv: (kv[1], kv[0]))[0] if rest else None
    if top is not None and top[0] == "explore" and explored_level(s, top[1]) >= 2 \
            and ("explored", top[1]) in lacks:  # (2) it would search a room searched fully
        out.append(("explored", top[1], "all"))
        out += [("in", o, r) for o, r in available(s).items() if r == top[1] and ("in", o) in lacks]
    # (3) targets it lacks that it would prefer to what it is predicted to do (once told the above)
    cand = candidates(s, partner, config.first_order)
    here = s.models[partner].room
    best = max((w * math.exp(-c / config.temperature) for g, (c, w) in cand.items() if g not in moved),
               default=0.0)
    spare = [(o, r) for o, r in available(s).items() if o not in mine and ("in", o) in lacks]
    spare.sort(key=lambda x: (go_frames(s, here, x[1]), x[0]))
    better = [(o, r) for o, r in spare
              if math.exp(-(go_frames(s, here, r) + tw.GRASP) / config.temperature) > best]
    out += [("in", o, r) for o, r in better[:MAX_SPARE]]
    m = s.models[partner]
    if not m.holding and not any(v in rooms for c in s.task.get("containers", [])
                                 for v in [value(s, c, chain=(s.me, partner))]):
        conts = [(c, r) for c, r in containers_available(s).items() if c not in mine and ("in", c) in lacks]
        conts.sort(key=lambda x: (go_frames(s, here, x[1]), x[0]))
        out += [("in", c, r) for c, r in conts[:1]]
    return list(dict.fromkeys(out))


SEARCH_SAVED = 0.5 * tw.EXPLORE  # frames a told target location saves: about half a level of search to find it
DUPLICATE_FRAMES = tw.EXPLORE  # frames a teammate wastes duplicating my subgoal (a search level, or a trip and grasp)
MUST_SAY = 1.0  # the floor value of a fact that changes the predicted plan: it alone pays for a message


def _p_goal(s: BeliefState, partner: str, key: tuple, n_options: int) -> float:
    """P(``partner`` pursues ``key`` before it would learn otherwise): its predicted probability, at least
    one in ``n_options`` (it works through its options one after the other)."""
    return max(s.models[partner].goal_prob.get(key, 0.0), 1.0 / max(n_options, 1))


def fact_values(s: BeliefState, partner: str, goal) -> dict:
    """{(pred, subject, value): expected frames the fact saves ``partner``} for the facts it lacks: a search
    level above its own saves the levels it would search again (times P(it searches that room)); a new
    place of an object it believes lying elsewhere saves the trip there (times P(it fetches it)); the
    place of a target it does not know saves a search (targets of my own subgoal excluded: telling them
    would draw it to my work); the place of a container only when it knows none."""
    chain = (s.me, partner)
    rooms = s.task["room_type"]
    mine = goal.objects() if goal is not None else set()
    here = s.models[partner].room
    its_avail = available(s, chain)
    its_rooms = [r for r in s.task["rooms"] if explored_level(s, r, chain) < 2]
    knows_container = any(value(s, c, chain=chain) in rooms for c in s.task.get("containers", []))
    out = {}
    for (pred, subj), val in _lacks(s, partner).items():
        if pred == "explored":
            gain = tw.EXPLORE_STATES.index(val) - explored_level(s, subj, chain)
            if gain > 0:
                out[(pred, subj, val)] = gain * tw.EXPLORE * _p_goal(s, partner, ("explore", subj), len(its_rooms))
        elif val == partner or subj in s.gone:
            continue
        elif subj in its_avail:  # it believes the object lies elsewhere: a futile trip saved
            trip = go_frames(s, here, its_avail[subj]) + tw.GRASP
            out[(pred, subj, val)] = trip * _p_goal(s, partner, ("fetch", subj), len(its_avail))
        elif val in rooms and subj not in mine:
            if subj in s.task["targets"] or not knows_container:
                out[(pred, subj, val)] = SEARCH_SAVED
    return out


def plan_value(s: BeliefState, conflicts) -> float:
    """Expected frames my plan saves teammates: P(its subgoal overlaps mine) x a duplicate's cost, summed
    over the teammates whose overlap I win (``conflicts``: (teammate, probability, I win))."""
    return sum(q * DUPLICATE_FRAMES for _, q, win in conflicts if win)


def position_value(s: BeliefState, conflicts) -> float:
    """Expected frames telling where I am saves, once I moved since I last said it: the priority rule
    reads each agent's position, so a teammate that believes me elsewhere may pick the wrong winner of any
    overlap (either way)."""
    if s.told_room == s.room:
        return 0.0
    return sum(q * DUPLICATE_FRAMES for _, q, _ in conflicts)


def cobel_message(s: BeliefState, goal, config, conflicts: list = ()):
    """(text or None, state): value-of-information messaging. ``conflicts``: (teammate, P(overlap), I win)
    per teammate whose predicted subgoal overlaps mine (where I win, its plan yields to mine once told)."""
    values: dict = {}
    for p in s.partners:
        for f, v in fact_values(s, p, goal).items():
            values[f] = values.get(f, 0.0) + v
        for f in _plan_changers(s, p, goal, config):
            values[f] = max(values.get(f, 0.0), MUST_SAY)
    per_char = 1.0 / tw.MESSAGE_CHARS_PER_FRAME
    facts = [f for f, v in values.items() if v > per_char * (len(fact_line(*f)) + 1)]
    plan = plan_line(s, goal)
    saved = sum(values[f] for f in facts) + (plan_value(s, conflicts) if plan not in s.told else 0.0) \
        + position_value(s, conflicts)
    lines = [f"I am in {s.room}."] + [fact_line(*f) for f in facts]  # where I am: one priority rule for both
    text = "\n".join(lines + [plan])
    if not saved or saved < tw.message_frames(text):
        return None, s
    s = _told(s, facts)
    s.told, s.told_room = s.told | {plan}, s.room
    if config.message_writer is not None:
        text = config.message_writer(lines, goal.text(), text)
    return text, s


def progress(s: BeliefState) -> list:
    """Everything I know of objects and rooms (zero order), as (pred, subject, value)."""
    return sorted((k[0], k[1], v) for k, v in s.store.values((s.me,)).items() if k[0] in ("in", "explored"))


def progress_text(s: BeliefState, goal, facts: list) -> str:
    hold = []
    for o in s.holding:
        hold.append(f"{o} (containing {', '.join(s.contents[o]) or 'nothing'})" if o in s.contents else o)
    lines = [f"Hi, this is {s.me}. I am in {s.room} and I hold {', '.join(hold) or 'nothing'}. What I know:"]
    lines += [fact_line(*f) for f in facts]
    lines.append(plan_line(s, goal))
    return "\n".join(lines)


def news(s: BeliefState, goal) -> tuple[list, bool]:
    """``(facts I have not reported, at most MAX_NEWS, whether my plan is one I have not told)``; nothing
    while the last message is younger than ``MIN_FRAMES`` or when I wait."""
    if goal.kind == "wait" or s.frame - s.last_sent < MIN_FRAMES:
        return [], False
    new = [f for f in progress(s) if f not in s.last_report][:MAX_NEWS]
    return new, plan_line(s, goal) not in s.told


def _reported(s: BeliefState, goal, facts: list) -> BeliefState:
    s = _told(s, facts)
    s.last_report = s.last_report | frozenset(facts)
    s.told, s.last_sent = s.told | {plan_line(s, goal)}, s.frame
    return s


def coela_message(s: BeliefState, goal, config, conflicts: list = ()):
    """CoELA: when there is news (facts not reported, a plan not told), where I am, what I hold, the news
    and my plan."""
    facts, new_plan = news(s, goal)
    if not facts and not new_plan:
        return None, s
    s = _reported(s, goal, facts)
    return progress_text(s, goal, facts), s


def messenger_message(s: BeliefState, goal, config, conflicts: list = ()):
    """The rule messenger: what is new, plus my plan."""
    facts, new_plan = news(s, goal)
    if not facts and not new_plan:
        return None, s
    s = _reported(s, goal, facts)
    return "\n".join([fact_line(*f) for f in facts] + [plan_line(s, goal)]), s


def always_message(s: BeliefState, goal, config, conflicts: list = ()):
    """The always-communicate ablation: the full progress before every action."""
    if s.alternate:
        s.alternate = False
        return None, s
    facts = progress(s)
    s = _told(s, facts)
    s.alternate = True
    return progress_text(s, goal, facts), s


def silent(s: BeliefState, goal, config, conflicts: list = ()):
    return None, s


POLICIES = {"cobel": cobel_message, "coela": coela_message, "messenger": messenger_message,
            "always": always_message, "none": silent}

__all__ = ["POLICIES", "always_message", "cobel_message", "coela_message", "contained", "fact_values",
           "messenger_message", "news", "plan_value", "progress", "progress_text"]
