"""Side by side with ExploreToM's belief tracker (``belief bench exploretom --exploretom DIR``).

ExploreToM (facebookresearch/ExploreToM, CC BY-NC 4.0) keeps first- and second-order beliefs in dicts
(``FullBeliefTracker`` in its ``belief_tracker.py``); a question is a dict look-up. Its code is not part of this
repository: :func:`load_exploretom` imports ``belief_tracker.py`` from a checkout the user names.

The same stories drive both trackers. They come from our generator (:func:`belief.stories.generator.generate_story`)
restricted to what ``FullBeliefTracker`` supports (no quiet entries; no opaque flag of its own, see below) and
mapped action by action (:func:`plan_story`):

- ``enter`` -> ``enter_room`` per agent; ``exit`` -> ``leave_room``;
- the opening's "the apple is in the box" (a ``statement`` seen by those present) -> ``move_object_container`` by
  the first person present (same observers);
- a move into a container -> ``move_object_container``, its ``secret_observers`` / ``inattentive`` as
  ``people_peeking`` / ``people_distracted``. ExploreToM's containers are closed (an object inside one is hidden
  from later arrivals); ours are open unless a move says ``opaque``, so our side marks every placement opaque;
- a move into another room: ExploreToM's ``move_object_room`` carries the object *and* walks the mover there,
  while our generator leaves the mover behind; both sides get the carry and the walk back (ours: a statement
  that the object is gone, seen in the old room; ``enter`` the new room; a statement that it is there, seen in
  the new room; ``enter`` the old one. ExploreToM: ``move_object_room``, ``enter_room`` the old room).
  ``move_object_room`` takes no peeking or distraction: such twists are dropped from both sides (counted);
- ``tell`` -> ``private_communication`` (``overheard_by`` as ``people_peeking``), ``announce`` ->
  ``broadcast_communication``, the content as a world-state topic (container or room location). ExploreToM
  passes on only what the speaker knows, and refuses a private tell when the sender already thinks the listener
  believes it; a message whose sender does not believe it (our tracker's answer) or that ExploreToM refuses is
  dropped from both sides (counted), and so is a peek or overhearing by someone only that message named.

After every action (one generated event), ``questions_per_event`` random questions are put to both: "where does A
think X is" and "where does A think B thinks X is" (A != B, X an object or a person other than them, as
ExploreToM's question generator asks), about people and objects named so far. An ExploreToM answer is the
believed container if it names one, else the believed room, else unknown ("not(...)" is unknown); ours is
:meth:`belief.Tracker.value` (a marker is unknown). Times are CPU seconds of this process
(``time.process_time``): appends and questions of each side, story by story, ours then theirs; the clock's own
cost is measured and taken off each interval.

Disagreements are explained by replaying their story: the action after which the two answers to that question
parted names it (:func:`explain`); four labels are the known errors of ExploreToM's tracker
(docs/evaluation.md, :data:`KNOWN`); anything else (a named fifth, ``told_room_keeps_container``, or an
``other:...`` label) is counted as ``outside_known``.
"""

from __future__ import annotations

import collections
import gc
import importlib.util
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from belief.errors import BeliefError

#: our generator's phenomena that ExploreToM's tracker has: everything but quiet entries and our own opaque
#: flag (every placement is opaque here, as ExploreToM's containers are closed)
FEATURES = ("tell", "announce", "peek", "distracted", "overhear", "room_move")

#: the four known errors of ExploreToM's tracker (docs/evaluation.md), by the label :func:`explain` gives
KNOWN = {
    "walk_not_seen_leaving": "a person walking from one room into another is not seen leaving by those left behind",
    "carried_keeps_container": "an object carried to another room keeps its old container",
    "open_object_hidden": "an object left in the open is treated as hidden from later arrivals",
    "distracted_second_order": "a distracted person's second-order beliefs are updated by the move it missed",
}
MODULE_NAME = "_exploretom_belief_tracker"


class ExploreToMError(BeliefError):
    """No ExploreToM checkout where one was named, or a story ExploreToM's tracker did not take."""


def load_exploretom(directory) -> ModuleType:
    """ExploreToM's ``belief_tracker`` module, imported from the checkout ``directory``."""
    where = Path(directory)
    if not where.is_dir():
        raise ExploreToMError(f"--exploretom {where}: no such directory (get ExploreToM with "
                              "`git clone https://github.com/facebookresearch/ExploreToM`)")
    path = where / "belief_tracker.py"
    if not path.is_file():
        raise ExploreToMError(f"--exploretom {where}: no belief_tracker.py there (the root of a checkout of "
                              "https://github.com/facebookresearch/ExploreToM holds it)")
    if MODULE_NAME in sys.modules and getattr(sys.modules[MODULE_NAME], "__file__", None) == str(path):
        return sys.modules[MODULE_NAME]
    spec = importlib.util.spec_from_file_location(MODULE_NAME, path)
    if spec is None or spec.loader is None:
        raise ExploreToMError(f"{path}: cannot be imported")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # its code, not ours: whatever it raises is reported as one line
        raise ExploreToMError(f"{path}: importing it failed: {type(e).__name__}: {e}") from e
    if not hasattr(module, "FullBeliefTracker"):
        raise ExploreToMError(f"{path}: defines no FullBeliefTracker (not ExploreToM's belief tracker?)")
    sys.modules[MODULE_NAME] = module
    return module


# --- the mapping ------------------------------------------------------------------------------------------

@dataclass
class Step:
    """One generated event as both trackers take it: our events (dicts), ExploreToM's calls
    ``(method, args, kwargs)``, and what :func:`explain` needs to know about it."""

    ours: list
    theirs: list
    kind: str                       # enter, exit, place, move, carry, tell, announce
    about: dict = field(default_factory=dict)
    questions: list = field(default_factory=list)  # [(chain, fluent)] asked after the step


@dataclass
class Plan:
    """A story mapped for both trackers, with its questions (see :func:`plan_story`)."""

    id: str
    steps: list
    dropped_messages: int = 0
    dropped_twists: int = 0


def _twists(ev: dict) -> dict:
    out = {}
    if ev.get("secret_observers"):
        out["people_peeking"] = list(ev["secret_observers"])
    if ev.get("inattentive"):
        out["people_distracted"] = list(ev["inattentive"])
    return out


def map_events(events: list, rooms, module) -> tuple[list, int]:
    """Our story's events as :class:`Step`s (no questions yet), and how many peek/distraction twists of moves
    into another room were dropped. ``rooms``: the story's room names; ``module``: ExploreToM's, for the names
    of its properties."""
    bt = module.FullBeliefTracker
    loc: dict = {}   # person -> room (None: in no room)
    where: dict = {}  # object -> container or room
    steps, dropped = [], 0
    for ev in events:
        k = ev["kind"]
        if k == "enter":
            came_from = {a: loc.get(a) for a in ev["agents"]}
            behind = [p for p, r in loc.items() if r in came_from.values() and r not in (None, ev["room"])
                      and p not in came_from]
            present = [p for p, r in loc.items() if r == ev["room"]]
            steps.append(Step([ev], [("enter_room", (a, ev["room"]), {}) for a in ev["agents"]], "enter",
                              {"agents": list(ev["agents"]), "room": ev["room"], "came_from": came_from,
                               "left_behind": behind, "present": present}))
            loc.update({a: ev["room"] for a in ev["agents"]})
        elif k == "exit":
            steps.append(Step([ev], [("leave_room", (a, ev["room"]), {}) for a in ev["agents"]], "exit",
                              {"agents": list(ev["agents"]), "room": ev["room"]}))
            loc.update({a: None for a in ev["agents"]})
        elif k == "statement":
            (obj,), room = ev["subject"], ev["room"]
            present = [p for p, r in loc.items() if r == room]
            if not present:
                raise ExploreToMError(f"the statement {ev} has nobody present to place the {obj} (ExploreToM "
                                      "places objects by a person's move)")
            steps.append(Step([{**ev, "opaque": True}], [("move_object_container", (present[0], obj, ev["value"]), {})],
                              "place", {"object": obj, "room": room}))
            where[obj] = ev["value"]
        elif k == "move":
            p, obj, to = ev["agent"], ev["object"], ev["to"]
            room = loc[p]
            if to in rooms:  # a carry: the mover takes it there and walks back
                dropped += any(ev.get(key) for key in ("secret_observers", "inattentive"))
                steps.append(Step([{"kind": "statement", "subject": [obj], "value": None, "room": room},
                                   {"kind": "enter", "agents": [p], "room": to},
                                   {"kind": "statement", "subject": [obj], "value": to, "room": to},
                                   {"kind": "enter", "agents": [p], "room": room}],
                                  [("move_object_room", (p, obj, to), {}), ("enter_room", (p, room), {})],
                                  "carry", {"agent": p, "object": obj, "from": room, "to": to,
                                            "left_behind": [q for q, r in loc.items() if r == to]}))
            else:
                steps.append(Step([{**ev, "opaque": True}], [("move_object_container", (p, obj, to), _twists(ev))],
                                  "move", {"agent": p, "object": obj, "room": room,
                                           "inattentive": list(ev.get("inattentive", ())),
                                           "secret": list(ev.get("secret_observers", ()))}))
            where[obj] = to
        elif k in ("tell", "announce"):
            (item,) = ev["content"]
            (obj,), value = item["subject"], item["value"]
            to_room = value in rooms
            prop = bt.ROOM_LOCATION if to_room else bt.CONTAINER_LOCATION
            topic = (obj, prop, value, True)
            if k == "tell":
                (to,) = ev["recipients"]
                peek = {"people_peeking": list(ev["overheard_by"])} if ev.get("overheard_by") else {}
                call = ("private_communication", (ev["sender"], to, topic), peek)
                about = {"sender": ev["sender"], "to": [to], "object": obj, "value": value, "to_room": to_room,
                         "overheard": list(ev.get("overheard_by", ()))}
            else:
                call = ("broadcast_communication", (ev["sender"], topic), {})
                about = {"sender": ev["sender"], "room": loc.get(ev["sender"]), "object": obj, "value": value,
                         "to_room": to_room}
            steps.append(Step([ev], [call], k, about))
        else:
            raise ExploreToMError(f"no ExploreToM action for a {k!r} event")
    return steps, dropped


def _refused_tell(tracker, step: Step) -> bool:
    """ExploreToM's precondition of a private tell: the sender does not already think the listener believes
    it (else ``private_communication`` does nothing and returns False)."""
    if step.kind != "tell":
        return False
    sender, to, (obj, prop, value, _) = step.theirs[0][1]
    believed = tracker.second_order_beliefs.get(sender, {}).get(to)
    return believed is not None and believed.get(obj, prop) == value


def _apply(tracker, step: Step) -> None:
    for method, args, kwargs in step.theirs:
        done = getattr(tracker, method)(*args, **kwargs)
        if not done and method not in ("private_communication", "broadcast_communication"):
            # (a message that changes nothing returns False after doing its updates: not a refusal)
            raise ExploreToMError(f"ExploreToM's tracker refused {method}{args} {kwargs or ''}".strip())


def _strip_strangers(step: Step, known: set) -> bool:
    """Take off a peek or an overhearing by someone the story has not named yet (our tracker refuses a name
    first met in a perception field; a dropped message can leave one such): True if one was taken off."""
    fields = {"move": ("secret_observers", "secret", "people_peeking"),
              "tell": ("overheard_by", "overheard", "people_peeking")}.get(step.kind)
    if fields is None:
        return False
    ours_key, about_key, their_key = fields
    (ev,), ((method, args, kwargs),) = step.ours, step.theirs
    if all(a in known for a in ev.get(ours_key, ())):
        return False
    step.ours = [{k: v for k, v in ev.items() if k != ours_key}]
    step.theirs = [(method, args, {k: v for k, v in kwargs.items() if k != their_key})]
    step.about[about_key] = []
    return True


def _named(step: Step) -> list:
    a = step.about
    names = list(a.get("agents", ())) + [a[k] for k in ("agent", "sender") if k in a]
    for k in ("to", "overheard", "inattentive", "secret"):
        people = a.get(k, ())
        if not isinstance(people, str):  # a carry's "to" is the room it goes to, not a list of people
            names += people
    return names


def plan_story(story, module, questions_per_event: int, rng: random.Random) -> Plan:
    """``story`` (a :class:`belief.stories.generator.Story`) mapped for both trackers, tells ExploreToM refuses
    dropped, and ``questions_per_event`` questions drawn after each step: a chain of one or two distinct
    people named so far, about an object of the story or a named person not in the chain."""
    from belief.truth.tracker import Tracker

    steps, dropped_twists = map_events(story.events, set(story.rooms), module)
    scratch, ours = module.FullBeliefTracker(), Tracker()  # which messages both can take
    kept, named, dropped_messages = [], [], 0
    for step in steps:
        if _refused_tell(scratch, step) or (step.kind in ("tell", "announce") and _ours(
                ours.value((step.about["sender"],), ("in", step.about["object"]))) != step.about["value"]):
            dropped_messages += 1
            continue
        if _strip_strangers(step, set(ours.agent_names())):
            dropped_twists += 1
        _apply(scratch, step)
        for ev in step.ours:
            ours.append(ev, renumber=True)
        named += [n for n in _named(step) if n not in named]
        for _ in range(questions_per_event):
            chain = (rng.choice(named),) if len(named) < 2 or rng.random() < 0.5 else tuple(rng.sample(named, 2))
            things = [("in", o) for o in story.objects] + [("at", p) for p in named if p not in chain]
            step.questions.append((chain, rng.choice(things)))
        kept.append(step)
    return Plan(story.id, kept, dropped_messages, dropped_twists)


# --- answering ----------------------------------------------------------------------------------------

def exploretom_answerer(module):
    """``answer(tracker, chain, fluent)``: ExploreToM's answer to "where does chain think the thing is": the
    believed container if it names one, else the believed room, else None."""
    container, room = module.FullBeliefTracker.CONTAINER_LOCATION, module.FullBeliefTracker.ROOM_LOCATION

    def answer(tracker, chain, fluent):
        if len(chain) == 1:
            state = tracker.first_order_beliefs.get(chain[0])
        else:
            state = tracker.second_order_beliefs.get(chain[0], {}).get(chain[1])
        if state is None:
            return None
        props = state.world_state.get(fluent[1])
        if not props:
            return None
        if fluent[0] == "in":
            c = props.get(container)
            if c is not None and not c.startswith("not("):
                return c
        r = props.get(room)
        return r if r is not None and not r.startswith("not(") else None

    return answer


def _ours(value):
    from belief.truth.index import is_marker

    return value if isinstance(value, str) and not is_marker(value) else None


def clock_cost(clock=time.process_time, n: int = 20_000) -> float:
    """Seconds one interval of ``clock`` reads when nothing runs between its two calls (the median)."""
    gaps = []
    for _ in range(n):
        t0 = clock()
        gaps.append(clock() - t0)
    gaps.sort()
    return gaps[n // 2]


def time_ours(plan: Plan, policy: str = "strict-truthful"):
    """Run our Tracker over ``plan``: (answers per step, seconds making the events from dicts, append seconds,
    question seconds, appends)."""
    from belief.truth.trace import parse_event
    from belief.truth.tracker import Tracker

    clock = time.process_time
    tracker = Tracker(policy)
    append, value = tracker.append, tracker.value
    n, t_parse, t_append, t_ask, answers = 0, 0.0, 0.0, 0.0, []
    for step in plan.steps:
        questions = step.questions
        tp = clock()
        events = []
        for ev in step.ours:  # made apart, as ExploreToM's calls take their arguments ready-made
            events.append(parse_event({**ev, "t": n}))
            n += 1
        t0 = clock()
        t_parse += t0 - tp
        for ev in events:
            append(ev)
        t1 = clock()
        got = [value(chain, fluent) for chain, fluent in questions]
        t2 = clock()
        t_append += t1 - t0
        t_ask += t2 - t1
        answers.append(got)
    return answers, t_parse, t_append, t_ask, n


def time_theirs(plan: Plan, module):
    """Run ExploreToM's FullBeliefTracker over ``plan``: (answers per step, action seconds, question seconds,
    calls)."""
    clock = time.process_time
    tracker = module.FullBeliefTracker()
    answer = exploretom_answerer(module)
    calls, t_act, t_ask, answers = 0, 0.0, 0.0, []
    for step in plan.steps:
        questions = step.questions
        t0 = clock()
        _apply(tracker, step)
        t1 = clock()
        got = [answer(tracker, chain, fluent) for chain, fluent in questions]
        t2 = clock()
        t_act += t1 - t0
        t_ask += t2 - t1
        calls += len(step.theirs)
        answers.append(got)
    return answers, t_act, t_ask, calls


# --- explaining disagreements --------------------------------------------------------------------------

def _label(step: Step, chain: tuple, fluent: tuple, theirs, reality) -> str:
    """What in ``step`` makes the two trackers part on ``chain``'s belief about ``fluent``."""
    a = step.about
    pred, thing = fluent
    if step.kind == "enter":
        if pred == "at" and a["came_from"].get(thing) not in (None, a["room"]) and chain[0] in a["left_behind"]:
            return "walk_not_seen_leaving"
        if pred == "in" and reality == a["room"] and chain[0] in a["agents"] + a["present"]:
            return "open_object_hidden"
    if step.kind == "carry":
        if pred == "in" and thing == a["object"] and theirs is not None and theirs != a["to"]:
            return "carried_keeps_container"
        if pred == "at" and thing == a["agent"] and chain[0] in a["left_behind"]:
            return "walk_not_seen_leaving"  # the walk back from the room the object went to
        if pred == "in" and reality == a["to"] and chain[0] in [a["agent"], *a["left_behind"]]:
            return "open_object_hidden"  # another object in the open there, seen by the mover on arrival
    if step.kind in ("tell", "announce") and a["to_room"] and thing == a["object"] and theirs not in (None, a["value"]):
        return "told_room_keeps_container"  # told the room it is in, ExploreToM keeps the container last believed
    if step.kind in ("move", "place") and len(chain) == 2 and chain[0] in a.get("inattentive", ()):
        return "distracted_second_order"
    extra = [k for k in ("inattentive", "secret", "overheard") if a.get(k)]
    return "other:" + "+".join([step.kind, *extra]) + f":order{len(chain)}:{pred}"


def explain(plan: Plan, keys, module, policy: str = "strict-truthful") -> dict:
    """``{(chain, fluent): (label, step index, ours, theirs)}`` for each disagreeing question ``(chain,
    fluent)`` of ``plan``: both trackers replayed, asked after every step; the label comes from the last step
    after which the two answers went from equal to different (:func:`_label`)."""
    from belief.truth.tracker import Tracker

    ours, theirs, answer = Tracker(policy), module.FullBeliefTracker(), exploretom_answerer(module)
    keys = list(dict.fromkeys(keys))
    agreed = {k: True for k in keys}
    out: dict = {}
    for i, step in enumerate(plan.steps):
        for ev in step.ours:
            ours.append(ev, renumber=True)
        _apply(theirs, step)
        for k in keys:
            o, t = _ours(ours.value(*k)), answer(theirs, *k)
            if o != t and agreed[k]:
                out[k] = (_label(step, k[0], k[1], t, _ours(ours.reality(k[1]))), i, o, t)
            agreed[k] = o == t
    return out


# --- the bench -------------------------------------------------------------------------------------------

def run(directory, n: int = 4000, seed: int = 0, questions_per_event: int = 8, policy: str = "strict-truthful",
        progress=None, examples: int = 5) -> dict:
    """The side by side on ``n`` generated stories (seeded ``seed``): times, ratios and agreement (see the
    module docstring). ``progress(k)`` is called after every k stories."""
    from belief.stories.generator import StoryConfig, generate_story

    module = load_exploretom(directory)
    config = StoryConfig(features=FEATURES)
    rng = random.Random(f"exploretom-bench:{seed}")
    ours_parse = ours_append = ours_ask = their_act = their_ask = 0.0
    appends = calls = steps = questions = repeated = agree = dropped_messages = dropped_twists = 0
    by_order = collections.Counter()
    agree_by_order = collections.Counter()
    labels: collections.Counter = collections.Counter()
    shown: list = []
    gap = clock_cost()
    gc.collect()
    for i in range(n):
        plan = plan_story(generate_story(seed, i, config), module, questions_per_event, rng)
        mine, tp, ta, tq, na = time_ours(plan, policy)
        ours_parse += max(0.0, tp - len(plan.steps) * gap)
        yours, ua, uq, nc = time_theirs(plan, module)
        k = len(plan.steps)
        ours_append += max(0.0, ta - k * gap)
        ours_ask += max(0.0, tq - k * gap)
        their_act += max(0.0, ua - k * gap)
        their_ask += max(0.0, uq - k * gap)
        appends, calls, steps = appends + na, calls + nc, steps + k
        dropped_messages += plan.dropped_messages
        dropped_twists += plan.dropped_twists
        differ = []
        for step in plan.steps:
            repeated += len(step.questions) - len(set(step.questions))
        for step, a, b in zip(plan.steps, mine, yours):
            for q, x, y in zip(step.questions, a, b):
                same = _ours(x) == y
                questions += 1
                agree += same
                by_order[len(q[0])] += 1
                agree_by_order[len(q[0])] += same
                if not same:
                    differ.append(q)
        if differ:
            why = explain(plan, differ, module, policy)
            for q in differ:
                label, at, o, t = why[q]
                labels[label] += 1
                if label not in KNOWN and len(shown) < examples:
                    shown.append({"story": plan.id, "step": at, "chain": list(q[0]), "fluent": list(q[1]),
                                  "ours": o, "exploretom": t})
        if progress is not None:
            progress(1)

    def us(seconds, count):
        return round(1e6 * seconds / count, 3) if count else None

    ours_all, theirs_all = ours_append + ours_ask, their_act + their_ask
    outside = sum(c for lab, c in labels.items() if lab not in KNOWN)
    out = {
        "stories": n, "seed": seed, "questions_per_event": questions_per_event, "policy": policy,
        "actions": steps, "questions": questions,
        "repeated_questions": round(repeated / questions, 4) if questions else None, "our_appends": appends, "exploretom_calls": calls,
        "dropped_messages": dropped_messages, "dropped_twists": dropped_twists,
        "ours": {"parse_us": us(ours_parse, steps), "append_us": us(ours_append, steps), "question_us": us(ours_ask, questions),
                 "per_question_all_in_us": us(ours_all, questions)},
        "exploretom": {"append_us": us(their_act, steps), "question_us": us(their_ask, questions),
                       "per_question_all_in_us": us(theirs_all, questions)},
        "ratio": {"append": round(ours_append / their_act, 2) if their_act else None,
                  "question": round(ours_ask / their_ask, 2) if questions and their_ask else None,
                  "all_in": round(ours_all / theirs_all, 2) if questions and theirs_all else None},
        "goal_met": (ours_all <= theirs_all) if questions and theirs_all else None,
        "clock_cost_us": round(1e6 * gap, 3),
        "agreement": round(agree / questions, 4) if questions else None,
        "agreement_by_order": {str(k): round(agree_by_order[k] / by_order[k], 4) for k in sorted(by_order)},
        "disagreements": dict(labels.most_common()),
        "outside_known": outside,
    }
    if shown:
        out["outside_known_examples"] = shown
    return out


__all__ = ["ExploreToMError", "FEATURES", "KNOWN", "Plan", "Step", "explain", "exploretom_answerer",
           "load_exploretom", "map_events", "plan_story", "run", "time_ours", "time_theirs"]
