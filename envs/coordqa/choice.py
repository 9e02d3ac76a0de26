"""CoordinationQA as multiple choice, as in the source (Agashe et al. 2023): lettered options, one correct,
in its three categories, built from CollabCapture / CollabEscape states.

* **EC** (environment comprehension): "Which of these rooms can Alice reach in one move?" (one neighbour
  through an open door among rooms that are not).
* **ToM** (the partner's intention, the source's ToM question): "What action does Bob intend to take next?";
  the options are Bob's legal actions, the gold is the action Bob then took (the truth from its actual plan).
* **JP** (joint planning): "What is the best next action for Alice?", asked only where the partner changes
  the answer: the joint best action (given where the partner goes next) is not what a player planning alone
  would do (:func:`jp_gold`). Escape: the safe first step towards the generator the team assignment gives
  this player (total distance least; the partner takes the other), or the exit; alone, the nearest generator.
  Capture (source rules, where the thief's rule is deterministic): every action that starts a fastest joint
  capture (exact search over both hunters' moves and presses, the thief fleeing by its rule), the partner
  going to its next room first; alone, a shortest step towards the thief. (Under the project's rules the
  thief's moves are random, so capture has no JP questions there.)

The state is :func:`belief.app.runners.maze.snapshot`'s dict; everything here is a pure function of it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from collections import deque

from belief.envs.maze.capture import source_flee
from belief.envs.maze.world import DIRECTIONS, MOVES, PRESS, STAY, USE, Maze, room_index

LETTERS = "ABCDEFGHIJ"


@dataclass(frozen=True)
class ChoiceQuestion:
    """One multiple-choice question: ``options`` are texts, ``gold`` the index of the right one."""

    id: str
    category: str
    template: str
    asked: str
    text: str
    options: tuple
    gold: int

    @property
    def gold_letter(self) -> str:
        return LETTERS[self.gold]

    @property
    def gold_text(self) -> str:
        return self.options[self.gold]

    def prompt(self) -> str:
        return self.text + "\n" + "\n".join(f"{LETTERS[i]}. {o}" for i, o in enumerate(self.options))

    def letter_of(self, option_text: str):
        """The letter of an option given by its text (None when it is not an option)."""
        return LETTERS[self.options.index(option_text)] if option_text in self.options else None

    def to_json(self) -> dict:
        return {"id": self.id, "category": self.category, "template": self.template, "asked": self.asked,
                "text": self.text, "options": list(self.options), "gold": self.gold_letter}


def action_text(maze: Maze, room: str, action: int, game: str) -> str:
    """An action in words, the way the source's options read ("move to room_3", "fix the generator")."""
    if action == STAY:
        return "stay"
    if action == PRESS:
        return f"press the button ({maze.buttons.get(room)})"
    if action == USE:
        return "fix the generator" if game == "escape" else "use"
    after = maze.step_to(room, DIRECTIONS[action - 1])
    return f"move to {after}"


def legal_actions(state: dict, who: str) -> list:
    """``who``'s legal actions in ``state`` (indices), as the environment's mask would give them."""
    maze: Maze = state["maze"]
    room = maze.pos[who]
    out = [STAY] + [MOVES[d] for d in DIRECTIONS if maze.step_to(room, d) is not None]
    if room in maze.buttons:
        out.append(PRESS)
    if state["game"] == "escape" and room in state.get("generators", ()):
        out.append(USE)
    return out


def _shuffled(options: list, gold_text: str, rng: random.Random) -> tuple:
    options = list(dict.fromkeys(options))
    rng.shuffle(options)
    return tuple(options), options.index(gold_text)


def ec_question(state: dict, asked: str, qid: str, rng: random.Random):
    """Which of four rooms ``asked`` can reach in one move (None when it has no open door)."""
    maze: Maze = state["maze"]
    room = maze.pos[asked]
    near = sorted(maze.open_neighbours(room), key=room_index)
    if not near:
        return None
    gold = rng.choice(near)
    others = [r for r in maze.rooms if r not in near and r != room]
    options, index = _shuffled([gold] + rng.sample(others, min(3, len(others))), gold, rng)
    return ChoiceQuestion(qid, "EC", "one_move", asked, f"{asked.capitalize()} is in {room}. Which of these rooms "
                          f"can {asked.capitalize()} reach in one move?", options, index)


def tom_question(state: dict, asked: str, partner: str, partner_action: int, qid: str, rng: random.Random):
    """What ``partner`` intends to do next: its legal actions, the gold the one it then took."""
    maze: Maze = state["maze"]
    room = maze.pos[partner]
    legal = legal_actions(state, partner)
    if partner_action not in legal or len(legal) < 2:
        return None
    texts = [action_text(maze, room, a, state["game"]) for a in legal]
    gold = action_text(maze, room, partner_action, state["game"])
    options, index = _shuffled(texts, gold, rng)
    return ChoiceQuestion(qid, "ToM", "partner_intention", asked,
                          f"What action does {partner.capitalize()} intend to take next?", options, index)


def _first_steps(maze: Maze, start: str, goal: str, danger=()) -> set:
    """Moves starting a shortest route from ``start`` to ``goal`` that do not end in ``danger``."""
    return {MOVES[d] for d in maze.first_steps(start, goal) if maze.step_to(start, d) not in danger}


def killer_danger(state: dict) -> set:
    """Rooms the escape killer may enter at the end of this round (the source's rule, from the round's start)."""
    maze: Maze = state["maze"]
    killer = maze.pos[state["adversary"]]
    near = maze.open_neighbours(killer)
    for p in ("alice", "bob"):
        start = state.get("round_start", maze.pos).get(p)
        if start in near:
            return {start}
    return set(near)


def _assigned_goal(state: dict, me: str, partner_room: str) -> str:
    maze: Maze = state["maze"]
    left = tuple(sorted(state.get("generators") or ()))
    if state.get("gate_open") or not left:
        return state["exit"]
    if len(left) == 1:
        return left[0]
    mine, theirs = maze.distances(maze.pos[me]), maze.distances(partner_room)
    straight = mine.get(left[0], 99) + theirs.get(left[1], 99)
    crossed = mine.get(left[1], 99) + theirs.get(left[0], 99)
    return left[0] if straight <= crossed else left[1]


def _nearest_goal(state: dict, me: str) -> str:
    maze: Maze = state["maze"]
    left = tuple(sorted(state.get("generators") or ()))
    if state.get("gate_open") or not left:
        return state["exit"]
    near = maze.distances(maze.pos[me])
    return min(left, key=lambda g: (near.get(g, 99), g))


def jp_gold(state: dict, me: str, partner_next: str) -> tuple[set, set]:
    """(joint best actions, actions of a player planning alone) for ``me``, the partner going to
    ``partner_next`` this round."""
    maze: Maze = state["maze"]
    room = maze.pos[me]
    if state["game"] == "escape":
        danger = killer_danger(state)
        goal, alone_goal = _assigned_goal(state, me, partner_next), _nearest_goal(state, me)
        joint = {USE} if room == goal and goal != state["exit"] and room not in danger else \
            _first_steps(maze, room, goal, danger)
        alone = {USE} if room == alone_goal and alone_goal != state["exit"] else _first_steps(maze, room, alone_goal)
        return joint, alone
    if not maze.full_view:
        return set(), set()  # the project's thief is random: no exact joint plan
    thief = maze.pos[state["adversary"]]
    partner = next(p for p in maze.pos if p not in (me, state["adversary"]))
    rounds = {a: _capture_rounds(maze, state["adversary"], thief, (me, partner), (room, partner_next), a)
              for a in legal_actions(state, me)}
    best = min(rounds.values())
    joint = {a for a, r in rounds.items() if r == best} if best < _HORIZON else set()
    return joint, _first_steps(maze, room, thief)


_HORIZON = 12


def _after(maze: Maze, room: str, action: int, open_: dict) -> tuple:
    """(room, door states) after ``action`` from ``room``."""
    if action == PRESS:
        toggled = dict(open_)
        toggled[maze.buttons[room]] = not toggled[maze.buttons[room]]
        return room, toggled
    if action == STAY or action == USE:
        return room, open_
    return maze.step_to(room, DIRECTIONS[action - 1], open_), open_


def _hunter_options(maze: Maze, room: str, open_: dict) -> list:
    out = [(room, open_)] + [(r, open_) for r in maze.open_neighbours(room, open_)]
    if room in maze.buttons:
        out.append(_after(maze, room, PRESS, open_))
    return out


def _capture_rounds(maze: Maze, adversary: str, thief: str, hunters: tuple, rooms: tuple, first: int) -> int:
    """Rounds to a capture when the first hunter opens with ``first``, the second goes to ``rooms[1]``, and from
    then on both play the fastest joint plan against the thief's (deterministic) rule; ``_HORIZON`` if none."""
    doors = tuple(sorted(maze.doors))

    def thief_move(h1: str, h2: str, t: str, open_: dict) -> str:
        probe = Maze(maze.doors, open_, maze.buttons, {hunters[0]: h1, hunters[1]: h2, adversary: t}, maze.links,
                     maze.full_view)
        return source_flee(probe, adversary, hunters)

    mine, open_ = _after(maze, rooms[0], first, dict(maze.open))
    if mine is None:
        return _HORIZON
    other = rooms[1]
    t = thief_move(mine, other, thief, open_)
    if t in (mine, other):
        return 1
    start = (mine, other, t, tuple(open_[d] for d in doors))
    depth = {start: 1}
    queue = deque([start])
    while queue:
        h1, h2, t, state = queue.popleft()
        d = depth[(h1, h2, t, state)]
        if d >= _HORIZON:
            continue
        now = dict(zip(doors, state))
        for r1, open1 in _hunter_options(maze, h1, now):
            for r2, open2 in _hunter_options(maze, h2, open1):
                t2 = thief_move(r1, r2, t, open2)
                if t2 in (r1, r2):
                    return d + 1
                nxt = (r1, r2, t2, tuple(open2[x] for x in doors))
                if nxt not in depth:
                    depth[nxt] = d + 1
                    queue.append(nxt)
    return _HORIZON


def jp_question(state: dict, asked: str, partner_next: str, qid: str, rng: random.Random):
    """The best next action for ``asked``, only where planning alone gives another answer (else None)."""
    maze: Maze = state["maze"]
    joint, alone = jp_gold(state, asked, partner_next)
    if len(joint) != 1 or not alone or alone & joint:
        return None
    room = maze.pos[asked]
    legal = legal_actions(state, asked)
    texts = [action_text(maze, room, a, state["game"]) for a in legal]
    gold = action_text(maze, room, next(iter(joint)), state["game"])
    if gold not in texts:
        return None
    options, index = _shuffled(texts, gold, rng)
    return ChoiceQuestion(qid, "JP", "best_action", asked,
                          f"What is the best next action for {asked.capitalize()}?", options, index)


__all__ = ["ChoiceQuestion", "LETTERS", "action_text", "legal_actions", "ec_question", "tom_question", "jp_question",
           "jp_gold", "killer_danger"]
