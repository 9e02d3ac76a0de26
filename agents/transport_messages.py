"""What a ``transport_v0`` agent says, and when: one policy per agent type (``Config.comm``).

``cobel``   CoBel-World: a message only when it changes a teammate's plan, as my partner model predicts it:
            (1) its predicted fetch rests on a location I know is out of date; (2) its predicted search is
            of a room I know is fully searched (I send the room's report: the level and the targets I know
            there that it lacks); (3) a target it lacks that it would prefer to its predicted subgoal (a
            higher likelihood under the same cost model), or a container when it has none and holds
            nothing; (4) a detected conflict where I have priority: my plan. Facts go only to those who
            lack them (``store.diff``); after sending, my first-order chains hold them.
``coela``   CoELA's communication module: when the planner's progress changed since its last message
            (new facts about objects or rooms, or a new plan), a message with its full progress, as
            CoELA's prompts carry it: where it is, what it holds, every object location and room search
            level it knows, and its plan.
``always``  the always-communicate ablation: the same full message before every action.
``none``    never.
"""

from __future__ import annotations

import math

from belief.agents.transport_beliefs import (BeliefState, available, contained, containers_available, explored_level,
                                             fact, fact_line, go_frames, value)
from belief.agents.transport_partner import candidates, top_goal
from belief.envs import transport_world as tw

MAX_SPARE = 3


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


def cobel_message(s: BeliefState, goal, config, conflicts: list = ()):
    """(text or None, state): only what changes a teammate's predicted plan, and my plan on a conflict I win."""
    facts: list = []
    for p in s.partners:
        facts += _plan_changers(s, p, goal, config)
    facts = list(dict.fromkeys(facts))
    plan = plan_line(s, goal)
    tell_plan = bool(conflicts) and plan not in s.told
    if not facts and not tell_plan:
        return None, s
    s = _told(s, facts)
    s.told = s.told | {plan}
    lines = [fact_line(*f) for f in facts]
    text = "\n".join(lines + [plan])
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


def coela_message(s: BeliefState, goal, config, conflicts: list = ()):
    """CoELA: the full progress, whenever it changed since my last message (new facts or a new plan)."""
    facts = progress(s)
    report = frozenset(facts) | {("plan", goal.text())}
    if report == s.last_report or goal.kind == "wait":
        return None, s
    s = _told(s, facts)
    s.last_report = report
    return progress_text(s, goal, facts), s


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


POLICIES = {"cobel": cobel_message, "coela": coela_message, "always": always_message, "none": silent}

__all__ = ["POLICIES", "always_message", "cobel_message", "coela_message", "contained", "progress", "progress_text"]
