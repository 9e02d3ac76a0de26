"""Multiple-choice CoordinationQA (:mod:`belief.envs.coordqa.choice`) from played maze episodes, answered by the
belief agent's models and by the shortcuts every score is printed beside.

Questions come from random states of a game (its map; players, adversary, doors, generators drawn at
random), each player of a belief team knowing the state as its rules let it: per state and player an EC
question, a ToM question about the partner ("what will it do next?", gold: what the partner's policy does
there; full view only) and, where the partner changes the answer, a JP question.

Answerers:

* ``belief``: EC from its map; ToM by simulating the partner with a copy of its own policy and records (the
  partner "plans like me"; asked in full view only, where the partner sees what it sees); JP the action the
  belief player took.
* ``single_agent``: the best action for a player planning alone (JP), and for the partner's intention, that
  the partner heads alone for its nearest goal (ToM); EC as ``belief`` (a map is not teamwork).
* ``random``: a uniformly random option (seeded); ``majority``: the most common gold option text per category.
"""

from __future__ import annotations

import copy
import random

from belief.app.runners.maze import GAMES, MazeConfig, make_agents, snapshot
from belief.envs.coordqa.choice import action_text, ec_question, jp_question, tom_question
from belief.envs.maze.environment import PLAYERS
from belief.envs.maze.world import DIRECTIONS, MOVES, STAY, USE
from belief.errors import BeliefError

ANSWERERS = ("belief", "single_agent", "random")
CATEGORY_ORDER = ("EC", "ToM", "JP")


def _state(e, game: str) -> dict:
    state = snapshot(e, game)
    state["round_start"] = dict(e.round_start)
    return state


def predict_partner(me_agent, partner: str, partner_view: dict, mask) -> int:
    """The belief player's model of its partner: the partner plans as the belief player itself would, with what
    the belief player knows (a copy of its own policy and records, in the partner's place). Only asked in full
    view, where what the partner sees is what the belief player sees."""
    model = copy.deepcopy(me_agent)
    me = model.name
    model.name, model.partner = partner, me
    model.tracker.name, model.tracker.partner = partner, me
    return model.choose(partner_view, mask)


def alone_action(state: dict, who: str) -> int:
    """What a player planning alone does: ``use`` on a generator it stands on, else a shortest step towards its
    nearest goal (the thief, or the nearest generator still to fix, then the exit)."""
    maze = state["maze"]
    room = maze.pos[who]
    if state["game"] == "capture":
        goal = maze.pos[state["adversary"]]
    elif state.get("gate_open") or not state.get("generators"):
        goal = state["exit"]
    else:
        if room in state["generators"]:
            return USE
        near = maze.distances(room)
        goal = min(state["generators"], key=lambda g: (near.get(g, 99), g))
    steps = maze.first_steps(room, goal)
    return MOVES[steps[0]] if steps else STAY


def random_state(game: str, rules: str, seed, index: int):
    """A game in a random state (the rules' map; players, adversary, doors and, in escape, the generators drawn
    at random), with both belief players' records of it and, with the same records, two ``baseline`` players
    (the partners of another kind whose intentions the ToM questions ask about): ``(env, agents, others)``."""
    env = GAMES[game][0](seed=seed, rules=rules)
    rng = random.Random(f"coordqa-state:{game}:{rules}:{seed}:{index}")
    maze = env.maze
    rooms = rng.sample(maze.rooms, 3)
    maze.pos.update({"alice": rooms[0], "bob": rooms[1], env.adversary: rooms[2]})
    for door in maze.doors:
        if any(d == door for d in maze.buttons.values()):
            maze.open[door] = rng.random() < 0.6
    if game == "escape":
        for g in env.generator_rooms:
            env.repairs[g] = rng.choice([0, 0, 1, env.repairs_needed])
        if env.gate_open:
            env.repairs[env.generator_rooms[0]] = 0
    env.round = rng.randrange(0, 10)
    env.round_start = dict(maze.pos)
    env._log(_state_event(env, game))
    for room in sorted({maze.pos[p] for p in PLAYERS}):
        env._look(room, "state")
    env._refresh_infos()
    agents = make_agents(MazeConfig(game=game, agents="belief", rules=rules), env, seed)
    others = make_agents(MazeConfig(game=game, agents="baseline", rules=rules), env, seed)
    for name, ag in agents.items():
        events = env.take_perceived(name)
        ag.perceive(events, env.infos[name])
        others[name].perceive(events, env.infos[name])
    return env, agents, others


def _state_event(env, game: str):
    """The drawn state as one event every player perceives (the positions and, in escape, the generators)."""
    from belief.envs.maze.events import eff, f_at, f_door, door_value
    from belief.truth.trace import Action

    effects = [eff(f_at(e), env.maze.pos[e]) for e in env.entities]
    effects += [eff(f_door(d), door_value(o)) for d, o in env.maze.open.items()]
    if game == "escape":
        from belief.envs.maze.escape import F_GATE, f_repairs
        effects += [eff(f_repairs(g, len(env.generator_rooms)), env.repairs[g]) for g in env.generator_rooms]
        effects.append(eff(F_GATE, "open" if env.gate_open else "closed"))
    seen = PLAYERS if env.maze.full_view else ()
    return Action(name="state", effects=tuple(effects), visible_to=seen, source="state")


def choice_questions(game: str, seed: int, rules: str = "source", states: int = 10) -> list:
    """Multiple-choice questions from ``states`` random states of ``game``, each with every answerer's option:
    ``[{"id", "category", "template", "gold", "options", "answers": {answerer: option text}}]``. The partner's
    intention (ToM) is what a ``baseline`` partner does in that state (another kind than the belief player who
    predicts it); its next room for JP comes from the belief team's own policy."""
    if game not in GAMES:
        raise BeliefError(f"unknown maze game {game!r}; expected one of {', '.join(GAMES)}")
    rows = []
    rng = random.Random(f"coordqa-choice:{game}:{rules}:{seed}")
    for index in range(states):
        env, agents, others = random_state(game, rules, seed, index)
        state = _state(env, game)
        if game == "escape":
            state["repairs"] = dict(env.repairs)
        chosen = {p: agents[p].choose(env.infos[p]["obs"], env.infos[p]["action_mask"]) for p in PLAYERS}
        intends = {p: others[p].choose(env.infos[p]["obs"], env.infos[p]["action_mask"]) for p in PLAYERS}
        for name in PLAYERS:
            partner = next(p for p in PLAYERS if p != name)
            qid = f"{seed}-{index}-{name}"
            maze = state["maze"]
            if env.maze.full_view:  # ToM, asked of `name`: what will its partner do now?
                q = tom_question(state, name, partner, intends[partner], f"{qid}-tom", rng)
                if q is not None:
                    guesses = {"belief": predict_partner(agents[name], partner, env.infos[partner]["obs"],
                                                         env.infos[partner]["action_mask"]),
                               "single_agent": alone_action(state, partner)}
                    room = maze.pos[partner]
                    rows.append(_row(q, {k: action_text(maze, room, a, game) for k, a in guesses.items()}, rng))
            ec = ec_question(state, name, f"{qid}-ec", rng)
            if ec is not None:
                rows.append(_row(ec, {"belief": ec.gold_text, "single_agent": ec.gold_text}, rng))
            went, _ = _after_action(maze, maze.pos[partner], chosen[partner])
            _jp_row(state, name, chosen[name], went, qid, rows, rng)
    return rows


def _after_action(maze, room: str, action: int) -> tuple:
    if action in MOVES.values():
        return maze.step_to(room, DIRECTIONS[action - 1]) or room, None
    return room, None


def _jp_row(state0: dict, asked: str, mine: int, partner_next: str, qid: str, rows: list, rng) -> None:
    """The JP question of ``asked`` about the state it acted in, its partner having gone to ``partner_next``."""
    q = jp_question(state0, asked, partner_next, f"{qid}-jp", rng)
    if q is None:
        return
    maze0, game = state0["maze"], state0["game"]
    room0 = maze0.pos[asked]
    answers = {"belief": action_text(maze0, room0, mine, game),
               "single_agent": action_text(maze0, room0, alone_action(state0, asked), game)}
    rows.append(_row(q, answers, rng))


def _row(q, answers: dict, rng: random.Random) -> dict:
    answers = dict(answers, random=rng.choice(q.options))
    return {"id": q.id, "category": q.category, "template": q.template, "gold": q.gold_text,
            "options": list(q.options), "answers": answers}


__all__ = ["predict_partner", "alone_action", "ANSWERERS", "CATEGORY_ORDER"]
