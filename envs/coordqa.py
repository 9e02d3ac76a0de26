"""CoordinationQA-style questions (Agashe et al. 2023) from CollabCapture / CollabEscape states, with
exact gold answers:

* **ToM** (theory-of-mind reasoning): general questions (:class:`belief.grade_questions.Question`: kind,
  chain, fluent, time), answered by the checker on the episode's global trace and graded by
  ``belief grade TRACE ANSWERS --questions Q``. "Where does Bob think the thief is?" (first order), "Where
  do you think Bob is?" (introspection), "Does Bob know that door_3 is open?" (first order), "Where does Bob
  think you think the thief is?" (second order).
* **EC** (environment comprehension) and **JP** (joint planning): questions about the maze state at the
  same moment, gold from BFS: "If door_3 were closed, could the thief reach room_4?", "Where does Alice get
  by moving north?", and "What is the best next action for Alice?" whose gold is every first action of a
  shortest plan over (room, door states) (moves and button presses) to the thief (capture), or to the
  generator, then the exit, without entering the killer's room (escape). The checker's question format
  has no place for a non-checker gold, so these are graded by :func:`grade_planning` with the same
  free-text readers (:mod:`belief.answer_reading`).

Pure functions of their inputs: the same state and seed give the same questions.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass

from belief.answer_reading import read_place, read_yes_no
from belief.envs.maze_world import ACTION_NAMES, DIRECTIONS, Maze, plan_first_actions
from belief.grade_questions import NO, YES, Question
from belief.grading import MISSING, UNREADABLE, answers_by_id

PLAN_KINDS = ("EC", "JP")


@dataclass(frozen=True)
class PlanQuestion:
    """An EC or JP question: ``gold`` lists every correct answer (``yes`` / ``no``, a room, an action)."""

    id: str
    kind: str          # EC | JP
    template: str
    agent: str
    text: str
    choices: tuple     # what an answer may name (read with read_place); () for yes/no
    gold: tuple
    time: int
    round: int

    def to_json(self) -> dict:
        d = asdict(self)
        d["choices"], d["gold"] = list(self.choices), list(self.gold)
        return d

    @classmethod
    def from_json(cls, d: dict) -> "PlanQuestion":
        return cls(**{**d, "choices": tuple(d["choices"]), "gold": tuple(d["gold"])})


# --- ToM questions (the checker answers them) ----------------------------------------------------------
def tom_questions(state: dict, asked: str, partner: str, t: int, prefix: str, rng: random.Random) -> list:
    """Three general questions for ``asked`` about ``partner`` after event ``t``, one per level."""
    adv = state["adversary"]
    name, adv_name = partner.capitalize(), f"the {adv}"
    if rng.random() < 0.5:
        intro = Question(f"{prefix}-intro", "value", (asked,), ("at", partner), t, template="partner_location",
                         agent=asked, level="introspection", text=f"Where do you think {name} is?")
    else:
        intro = Question(f"{prefix}-intro", "value", (asked,), ("at", adv), t, template="adversary_location",
                         agent=asked, level="introspection", text=f"Where do you think {adv_name} is?")
    maze: Maze = state["maze"]
    if rng.random() < 0.5:
        door = rng.choice(sorted(maze.doors))
        value = "open" if maze.open[door] else "closed"
        first = Question(f"{prefix}-first", "knows", (partner,), ("door", door), t, values=(value,),
                         template="door_state", agent=asked, level="first_order",
                         text=f"Does {name} know that {door} is {value}?")
    else:
        first = Question(f"{prefix}-first", "value", (partner,), ("at", adv), t, template="adversary_location",
                         agent=asked, level="first_order", text=f"Where does {name} think {adv_name} is?")
    second = Question(f"{prefix}-second", "value", (partner, asked), ("at", adv), t, template="adversary_location",
                      agent=asked, level="second_order", text=f"Where does {name} think you think {adv_name} is?")
    return [intro, first, second]


# --- planning over (room, door states) -------------------------------------------------------------------
def best_actions(maze: Maze, start: str, goals, avoid=()) -> tuple:
    """The names (:data:`ACTION_NAMES`) of :func:`belief.envs.maze_world.plan_first_actions`."""
    return tuple(ACTION_NAMES[x] for x in plan_first_actions(maze, start, goals, avoid))


def plan_goal(state: dict, agent: str) -> tuple:
    """(goal rooms, rooms to avoid) of ``agent`` in this state."""
    maze = state["maze"]
    if state["game"] == "capture":
        return {maze.pos[state["adversary"]]}, ()
    goal = state["exit"] if state["gate_open"] else state["generator"]
    return {goal}, {maze.pos[state["adversary"]]} - {goal}


def plan_questions(state: dict, agent: str, t: int, round_: int, prefix: str, rng: random.Random) -> list:
    """Two EC questions and one JP question for ``agent`` in ``state`` (the maze at event ``t``)."""
    maze: Maze = state["maze"]
    adv = state["adversary"]
    room = maze.pos[agent]
    out = []
    open_doors = sorted(d for d, o in maze.open.items() if o)
    if open_doors:
        door = rng.choice(open_doors)
        target = rng.choice(sorted(set(maze.rooms) - {maze.pos[adv]}))
        closed = dict(maze.open)
        closed[door] = False
        can = target in maze.reachable(maze.pos[adv], closed)
        out.append(PlanQuestion(f"{prefix}-ec-reach", "EC", "reach_if_closed", agent,
                                f"If {door} were closed, could the {adv} reach {target}?", (), (YES if can else NO,),
                                t, round_))
    direction = rng.choice(DIRECTIONS)
    lands = maze.step_to(room, direction) or "nowhere"
    out.append(PlanQuestion(f"{prefix}-ec-move", "EC", "move_leads_to", agent,
                            f"{agent.capitalize()} is in {room}. Where does {agent.capitalize()} get by moving "
                            f"{direction}? (nowhere if no open door leads that way)", tuple(maze.rooms) + ("nowhere",),
                            (lands,), t, round_))
    goals, avoid = plan_goal(state, agent)
    gold = best_actions(maze, room, goals, avoid)
    names = ACTION_NAMES if state["game"] == "escape" else ACTION_NAMES[:6]
    if state["game"] == "escape" and gold == ("stay",):
        gold = ("use",)  # at the generator (gate closed) or the exit (gate open)
    if gold:
        out.append(PlanQuestion(f"{prefix}-jp", "JP", "best_action", agent,
                                f"What is the best next action for {agent.capitalize()}? (one of: {', '.join(names)})",
                                names, gold, t, round_))
    return out


def describe_state(state: dict) -> str:
    """The full state in words (for people and LLM prompts asking EC/JP questions)."""
    maze: Maze = state["maze"]
    doors = "; ".join(f"{d} joins {a} and {b} ({'open' if maze.open[d] else 'closed'})"
                      for d, (a, b) in maze.doors.items())
    buttons = "; ".join(f"a button in {r} toggles {d}" for r, d in sorted(maze.buttons.items()))
    where = ", ".join(f"{e} in {r}" for e, r in maze.pos.items() if r is not None)
    text = f"Rooms room_0..room_8 on a 3x3 grid (room_0 north-west). Doors: {doors}. Buttons: {buttons}. {where}."
    if state["game"] == "escape":
        text += (f" The generator is in {state['generator']}, the exit in {state['exit']}; the gate is "
                 f"{'open' if state['gate_open'] else 'closed'}.")
    return text


# --- grading EC / JP --------------------------------------------------------------------------------------
def read_plan_answer(q: PlanQuestion, text) -> str:
    if text is None:
        return MISSING
    if not q.choices:
        got = read_yes_no(text)
        return UNREADABLE if got is None else (YES if got else NO)
    got = read_place(text, q.choices)
    return got if got in q.choices else UNREADABLE


def grade_planning(questions, answers) -> dict:
    """Accuracy per kind (EC, JP) and template of free-text ``answers`` (``[{"id", "answer"}]`` or
    ``{id: text}``); an answer is correct when its reading is one of the question's gold answers."""
    texts = answers_by_id(answers)
    rows = []
    for q in questions:
        reading = read_plan_answer(q, texts.get(q.id))
        rows.append({"id": q.id, "kind": q.kind, "template": q.template, "gold": list(q.gold),
                     "reading": reading, "correct": reading in q.gold})

    def tally(rs):
        return {"questions": len(rs), "correct": sum(r["correct"] for r in rs),
                "accuracy": sum(r["correct"] for r in rs) / len(rs) if rs else None}

    return {**tally(rows), "by_kind": {k: tally([r for r in rows if r["kind"] == k]) for k in PLAN_KINDS},
            "by_template": {tpl: tally([r for r in rows if r["template"] == tpl])
                            for tpl in sorted({r["template"] for r in rows})}, "rows": rows}


__all__ = ["PlanQuestion", "tom_questions", "plan_questions", "best_actions", "plan_goal", "describe_state",
           "read_plan_answer", "grade_planning", "PLAN_KINDS"]
