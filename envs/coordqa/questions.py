"""CoordinationQA-style questions (Agashe et al. 2023) from CollabCapture / CollabEscape states, with
exact gold answers, all in the general question model (:class:`belief.grading.questions.Question`) so one
``belief grade TRACE ANSWERS --questions Q`` call grades a whole file set, with a breakdown by ``category``:

* **ToM** (theory-of-mind reasoning; kinds ``value`` / ``knows``): answered by the checker on the episode's
  global trace. "Where does Bob think the thief is?" (first order), "Where do you think Bob is?"
  (introspection), "Does Bob know that door_3 is open?" (first order), "Where does Bob think you think the
  thief is?" (second order).
* **EC** (environment comprehension) and **JP** (joint planning; kind ``given``, gold from BFS): questions
  about the maze state at the same moment: "If door_3 were closed, could the thief reach room_4?" (yes/no),
  "Where does Alice get by moving north?" (a room or ``nowhere``), and "What is the best next action for
  Alice?" whose gold is every first action of a shortest plan over (room, door states) (moves and button
  presses) to the thief (capture), or to the generator, then the exit, without entering the killer's room
  (escape).

Pure functions of their inputs: the same state and seed give the same questions.
"""

from __future__ import annotations

import random
import re

from belief.envs.maze.world import ACTION_NAMES, DIRECTIONS, Maze, plan_first_actions
from belief.grading.levels import level_chain
from belief.grading.questions import GIVEN, NO, YES, Question

CATEGORIES = ("EC", "ToM", "JP")


def plan_question(id_: str, category: str, template: str, agent: str, text: str, t: int, gold: tuple,
                  choices: tuple = ()) -> Question:
    """An EC / JP question with its BFS gold: yes/no without ``choices``, else one of ``choices``."""
    return Question(id_, GIVEN, (), None, t, template=template, agent=agent, text=text, category=category,
                    choices=tuple(choices) or None, gold=tuple(gold), answer_type="choice" if choices else "yes_no")


# --- ToM questions (the checker answers them) ----------------------------------------------------------
def tom_questions(state: dict, asked: str, partner: str, t: int, prefix: str, rng: random.Random) -> list:
    """Three general questions for ``asked`` about ``partner`` after event ``t``, one per level."""
    adv = state["adversary"]
    name, adv_name = partner.capitalize(), f"the {adv}"
    intro_chain, first_chain, second_chain = (level_chain(lvl, asked, partner)
                                              for lvl in ("introspection", "first_order", "second_order"))
    if rng.random() < 0.5:
        intro = Question(f"{prefix}-intro", "value", intro_chain, ("at", partner), t, template="partner_location",
                         agent=asked, level="introspection", category="ToM", text=f"Where do you think {name} is?")
    else:
        intro = Question(f"{prefix}-intro", "value", intro_chain, ("at", adv), t, template="adversary_location",
                         agent=asked, level="introspection", category="ToM",
                         text=f"Where do you think {adv_name} is?")
    maze: Maze = state["maze"]
    if rng.random() < 0.5:
        door = rng.choice(sorted(maze.doors))
        value = "open" if maze.open[door] else "closed"
        first = Question(f"{prefix}-first", "knows", first_chain, ("door", door), t, values=(value,),
                         template="door_state", agent=asked, level="first_order", category="ToM",
                         text=f"Does {name} know that {door} is {value}?")
    else:
        first = Question(f"{prefix}-first", "value", first_chain, ("at", adv), t, template="adversary_location",
                         agent=asked, level="first_order", category="ToM",
                         text=f"Where does {name} think {adv_name} is?")
    second = Question(f"{prefix}-second", "value", second_chain, ("at", adv), t, template="adversary_location",
                      agent=asked, level="second_order", category="ToM",
                      text=f"Where does {name} think you think {adv_name} is?")
    return [intro, first, second]


# --- planning over (room, door states) -------------------------------------------------------------------
def best_actions(maze: Maze, start: str, goals, avoid=()) -> tuple:
    """The names (:data:`ACTION_NAMES`) of :func:`belief.envs.maze.world.plan_first_actions`."""
    return tuple(ACTION_NAMES[x] for x in plan_first_actions(maze, start, goals, avoid))


def plan_goal(state: dict, agent: str) -> tuple:
    """(goal rooms, rooms to avoid) of ``agent`` in this state."""
    maze = state["maze"]
    if state["game"] == "capture":
        return {maze.pos[state["adversary"]]}, ()
    if state["gate_open"]:
        goals = {state["exit"]}
    else:  # any generator still to fix (the source game has two)
        goals = set(state.get("generators") or (state["generator"],))
    return goals, {maze.pos[state["adversary"]]} - goals


REACH_TEXT = re.compile(r"If (?P<door>door_\d+) were closed, could the (?P<adversary>\w+) reach (?P<target>room_\d+)\?")
MOVE_TEXT = re.compile(r"(?P<who>\w+) is in (?P<room>room_\d+)\. Where does \w+ get by moving (?P<direction>north|east|south|west)\?")


def reach_if_closed(maze: Maze, door: str, adversary_rooms, target: str) -> bool:
    """Whether ``target`` is reachable with ``door`` closed (other doors as in ``maze``) from most of the
    rooms the adversary may be in (the one it is in, for the gold; a player's believed rooms, for its answer;
    a tie counts as reachable)."""
    closed = dict(maze.open)
    closed[door] = False
    rooms = sorted(adversary_rooms)
    hits = sum(target in maze.reachable(r, closed) for r in rooms)
    return 2 * hits >= len(rooms)


def ec_questions(state: dict, agent: str, t: int, prefix: str, rng: random.Random) -> list:
    """Two EC questions for ``agent`` about ``state`` (the maze at event ``t``): what closing an open door
    would do to the adversary's reach, and where one of ``agent``'s moves leads."""
    maze: Maze = state["maze"]
    adv = state["adversary"]
    out = []
    open_doors = sorted(d for d, o in maze.open.items() if o)
    if open_doors:
        door = rng.choice(open_doors)
        target = rng.choice(sorted(set(maze.rooms) - {maze.pos[adv]}))
        can = reach_if_closed(maze, door, {maze.pos[adv]}, target)
        out.append(plan_question(f"{prefix}-ec-reach", "EC", "reach_if_closed", agent,
                                 f"If {door} were closed, could the {adv} reach {target}?", t, (YES if can else NO,)))
    room, direction = maze.pos[agent], rng.choice(DIRECTIONS)
    lands = maze.step_to(room, direction) or "nowhere"
    out.append(plan_question(f"{prefix}-ec-move", "EC", "move_leads_to", agent,
                             f"{agent.capitalize()} is in {room}. Where does {agent.capitalize()} get by moving "
                             f"{direction}? (nowhere if no open door leads that way)", t, (lands,),
                             tuple(maze.rooms) + ("nowhere",)))
    return out


def jp_question(state: dict, agent: str, t: int, prefix: str):
    """The JP question for ``agent`` about ``state`` (None when no plan reaches its goal): every first action
    of a shortest plan, ``use`` at the generator (gate closed) or the exit (gate open)."""
    maze: Maze = state["maze"]
    goals, avoid = plan_goal(state, agent)
    gold = best_actions(maze, maze.pos[agent], goals, avoid)
    names = ACTION_NAMES if state["game"] == "escape" else ACTION_NAMES[:6]
    if state["game"] == "escape" and gold == ("stay",):
        gold = ("use",)
    if not gold:
        return None
    return plan_question(f"{prefix}-jp", "JP", "best_action", agent,
                         f"What is the best next action for {agent.capitalize()}? (one of: {', '.join(names)})",
                         t, gold, names)


def plan_questions(state: dict, agent: str, t: int, prefix: str, rng: random.Random) -> list:
    """:func:`ec_questions` and (when a plan exists) :func:`jp_question` for ``agent`` in ``state``."""
    jp = jp_question(state, agent, t, prefix)
    return ec_questions(state, agent, t, prefix, rng) + ([jp] if jp is not None else [])


def ec_answer(q: dict, maze: Maze, adversary_rooms) -> str:
    """A player's free-text answer to an EC question (``q`` as in a questions file), from its own map:
    ``maze`` with the door states it believes, ``adversary_rooms`` the rooms it believes the adversary may
    be in. Reads only the question's text (as a person or an LLM would), never its gold."""
    text = q.get("text") or ""
    if m := REACH_TEXT.search(text):
        if not adversary_rooms:
            return "I do not know."
        can = reach_if_closed(maze, m["door"], adversary_rooms, m["target"])
        return f"{'Yes' if can else 'No'}, I think the {m['adversary']} {'could' if can else 'could not'} get there."
    if m := MOVE_TEXT.search(text):
        lands = maze.step_to(m["room"], m["direction"])
        return f"To {lands}." if lands else f"Nowhere: no open door leads {m['direction']}."
    return "I do not know."


def describe_state(state: dict) -> str:
    """The full state in words (for people and LLM prompts asking EC/JP questions)."""
    maze: Maze = state["maze"]
    doors = "; ".join(f"{d} joins {a} and {b} ({'open' if maze.open[d] else 'closed'})"
                      for d, (a, b) in maze.doors.items())
    buttons = "; ".join(f"a button in {r} toggles {d}" for r, d in sorted(maze.buttons.items()))
    where = ", ".join(f"{e} in {r}" for e, r in maze.pos.items() if r is not None)
    grid = "" if maze.links is not None else " on a 3x3 grid (room_0 north-west)"
    text = f"Rooms {', '.join(maze.rooms)}{grid}. Doors: {doors}. Buttons: {buttons or 'none'}. {where}."
    if state["game"] == "escape":
        left = state.get("generators") or (state["generator"],)
        text += (f" Generators still to fix: {', '.join(left) or 'none'}; the exit is in {state['exit']}; the gate is "
                 f"{'open' if state['gate_open'] else 'closed'}.")
    return text


def action_answer(action: int) -> str:
    """A player's answer to its JP question: the action it takes next, in words."""
    name = ACTION_NAMES[action]
    return f"I move {name}." if name in DIRECTIONS else f"I {name}."


__all__ = ["tom_questions", "plan_question", "plan_questions", "ec_questions", "jp_question", "ec_answer",
           "reach_if_closed", "best_actions", "plan_goal", "describe_state",
           "action_answer", "CATEGORIES"]
