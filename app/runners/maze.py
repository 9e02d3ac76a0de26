"""Play CollabCapture / CollabEscape episodes: one episode is a pure, picklable function of (config, seed)
returning a plain dict (figures, ToM accuracy of the players' own answers, JP agreement).

Every ``ask_every`` rounds (before Alice acts) each active player is asked three ToM questions about its
partner (:func:`belief.envs.coordqa.questions.tom_questions`), answered from its private trace and graded against the
checker on the global trace (:func:`belief.grading.report.grade_trace`); the JP question's gold (BFS planner) is
compared with the action the player then takes (``jp_agreement``), which is also its answer to it
(:func:`belief.envs.coordqa.questions.action_answer`); each player's JP question is about the state it acts in (Bob's
after Alice's move). The two EC questions per player are answered from its own map (door states it believes,
rooms it believes the adversary may be in), so a player that missed a door or lost the adversary answers
wrongly. ``coordqa`` holds ``{category: [correct, questions]}`` (EC / ToM / JP) of the episode.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Optional

from belief.agents.maze.baseline import CaptureBaselineAgent, EscapeBaselineAgent
from belief.agents.maze.belief import CaptureBeliefAgent, EscapeBeliefAgent, EscapeLookaheadAgent
from belief.agents.protocol import Agent
from belief.envs.maze import capture as capture_v0
from belief.envs.maze import escape as escape_v0
from belief.envs.coordqa.questions import action_answer, ec_questions, jp_question, tom_questions
from belief.envs.maze.environment import PLAYERS
from belief.envs.maze.tom import selected_set
from belief.envs.maze.world import ACTION_NAMES
from belief.grading.shortcuts import Panel
from belief.truth.checker import check
from belief.errors import BeliefError
from belief.grading.levels import LEVELS
from belief.grading.report import grade_trace

GAMES = {"capture": (capture_v0.raw_env, {"belief": CaptureBeliefAgent, "baseline": CaptureBaselineAgent}),
         "escape": (escape_v0.raw_env, {"belief": EscapeBeliefAgent, "baseline": EscapeBaselineAgent,
                                         "lookahead": EscapeLookaheadAgent})}
AGENT_KINDS = ("belief", "baseline", "lookahead")


@dataclass(frozen=True)
class MazeConfig:
    game: str = "capture"
    agents: str = "belief"             # one kind for both players
    ask_every: int = 3                 # rounds between question moments (0: no questions)
    max_rounds: Optional[int] = None   # default: the game's own
    rules: str = "source"              # "source" (LLM-Coordination's game) or "project" (seeded mazes, partial view)
    tom_rows: bool = False             # also return each ToM question's gold and answers (``tom_rows``), and
                                       # ask the selected set (envs/maze/tom.py) of every active player after
                                       # every player's action
    files: bool = False                # return the episode's files (trace, questions, answers) as ``_files``


def make_agents(config: MazeConfig, e, seed) -> dict[str, Agent]:
    if config.game not in GAMES:
        raise BeliefError(f"unknown maze game {config.game!r}; expected one of {', '.join(GAMES)}")
    kinds = GAMES[config.game][1]
    if config.agents not in kinds:
        raise BeliefError(f"unknown agent kind {config.agents!r}; expected one of {', '.join(kinds)}")
    layout = e.layout_meta()
    a, b = PLAYERS
    cls = kinds[config.agents]
    extra = {"seed": seed} if config.agents == "baseline" else {}
    return {a: cls(a, b, e.adversary, layout, **extra), b: cls(b, a, e.adversary, layout, **extra)}


def snapshot(e, game: str) -> dict:
    """The state the CoordinationQA questions are about (the maze copied, plus the escape extras)."""
    state = {"game": game, "adversary": e.adversary, "maze": e.maze.copy()}
    if game == "escape":
        state.update(generator=e.generator_room, generators=e.unfixed_generators(), exit=e.exit_room,
                     gate_open=e.gate_open)
    return state


def ask_round(e, agents: dict, config: MazeConfig, rng: random.Random) -> tuple:
    """The question moment before Alice acts: three ToM and two EC questions for each active player about
    this state, answered by the player from its own records. Returns (ToM questions, EC questions, answers)."""
    state, t = snapshot(e, config.game), len(e.trace) - 1
    tom, ec, answers, as_self = [], [], [], []
    for p in PLAYERS:
        if not e.active(p):
            continue
        partner = next(x for x in PLAYERS if x != p)
        asked = tom_questions(state, p, partner, t, f"r{e.round}-{p}", rng) + ec_questions(state, p, t, f"r{e.round}-{p}", rng)
        for q in asked:
            (tom if q.category == "ToM" else ec).append(q)
            answers.append({"id": q.id, "answer": agents[p].answer(q.to_json())})
            if q.category == "ToM":  # the trivial answerer "answer as yourself": the player's own belief
                as_self.append({"id": q.id, "answer": agents[p].tracker.answer(q.to_json(), egocentric=True)})
    return tom, ec, answers, as_self


def category_scores(report) -> dict:
    """``{category: (correct, questions)}`` of a graded report."""
    return {c: (v["correct"], v["questions"]) for c, v in report.breakdown("category").items()}


def play_episode(config: MazeConfig, seed: int, *, keep: bool = False) -> dict:
    """One seeded episode; with ``keep`` also the global trace and the questions (``_trace``, ``_tom``,
    ``_plan``: EC and JP) and the players' answers (``_answers``)."""
    env_cls = GAMES.get(config.game, (None,))[0]
    if env_cls is None:
        raise BeliefError(f"unknown maze game {config.game!r}; expected one of {', '.join(GAMES)}")
    e = env_cls(seed=seed, max_rounds=config.max_rounds, rules=config.rules)
    agents = make_agents(config, e, seed)
    rng = random.Random(f"coordqa:{config.game}:{seed}")
    tom, plans, answers, as_self, jp_hits, jp_total = [], [], [], [], 0, 0
    asked: set = set()  # (round, player) of the JP questions asked
    selected = selected_set(e.trace.meta, seed, PLAYERS) if config.tom_rows or config.files else None
    sel_asked: list = []
    sel_given: dict = {}
    fed = 0
    for name, ag in agents.items():
        ag.perceive(e.take_perceived(name), e.infos[name])
    while e.agents:
        name = e.agent_selection
        if e.terminations[name] or e.truncations[name]:
            e.step(None)
            continue
        ag = agents[name]
        jp = None
        if config.ask_every and e.round % config.ask_every == 0 and (e.round, name) not in asked and e.active(name):
            if not any(r == e.round for r, _ in asked):
                more_tom, ec, more_answers, more_selves = ask_round(e, agents, config, rng)
                tom, plans, answers, as_self = tom + more_tom, plans + ec, answers + more_answers, as_self + more_selves
            asked.add((e.round, name))
            # each player's JP question is about the state it acts in (after its partner's move)
            jp = jp_question(snapshot(e, config.game), name, len(e.trace) - 1, f"r{e.round}-{name}")
        action = ag.act(e.observe(name), e.infos[name])
        e.tell(ag.message())
        if jp is not None:
            plans.append(jp)
            jp_total += 1
            jp_hits += ACTION_NAMES[action] in jp.gold
            answers.append({"id": jp.id, "answer": action_answer(action)})
        e.step(action)
        for p, other in agents.items():
            other.perceive(e.take_perceived(p), e.infos[p])
        if selected is not None:  # the selected questions at the end of this step, asked of every active
            # player (the one who acted first): a step changes what both perceived, as in the other worlds
            while fed < len(e.trace):
                selected.feed(e.trace[fed])
                fed += 1
            for p in (name, *(x for x in PLAYERS if x != name)):
                for q in selected.ask(p) if e.active(p) else ():
                    sel_asked.append(q)
                    sel_given[q.id] = agents[q.asked].answer(q.public())
    out = {**e.metrics(), "seed": seed, "game": config.game, "agents": config.agents, "rules": config.rules,
           "questions": len(tom),
           "jp_agreement": jp_hits / jp_total if jp_total else None}
    if tom or plans:
        rep = grade_trace(e.trace, tom + plans, answers)
        tom_rows = [r for r in rep.rows if r["category"] == "ToM"]
        out["tom_correct"] = {lvl: sum(r["correct"] for r in tom_rows if r["level"] == lvl) for lvl in LEVELS}
        out["tom_total"] = {lvl: sum(1 for r in tom_rows if r["level"] == lvl) for lvl in LEVELS}
        out["coordqa"] = {c: list(v) for c, v in category_scores(rep).items()}
        out["missing"] = len(rep.missing())
        if config.tom_rows and tom:
            panel = Panel(check(e.trace))
            shortcuts = {q.id: panel.answers(q) for q in tom}
            out["tom_rows"] = tom_table_rows(rep.rows, grade_trace(e.trace, tom, as_self).rows, config.agents,
                                             shortcuts, seed)
    if selected is not None:
        kept = selected.kept()
        sel = [q for q in sel_asked if q.id in kept]
        if config.tom_rows:
            from belief.grading.report import read_answer

            out["tom_rows"] = out.get("tom_rows", []) + [
                {"type": q.template, "gold": q.gold, "episode": seed, "set": "selected",
                 "answers": {config.agents: read_answer(q.question, sel_given[q.id]), **q.shortcuts}} for q in sel]
        if config.files:
            from belief.app.runners.episode_files import episode_texts

            out["_files"] = episode_texts(f"{config.game}_{seed}", e.trace, list(tom) + list(plans) + [q.question for q in sel],
                                          list(answers) + [{"id": q.id, "agent": q.asked, "answer": sel_given[q.id]}
                                                           for q in sel])
    if keep:
        out.update(_trace=e.trace, _tom=tom, _answers=answers, _plan=plans)
    return out


def tom_table_rows(graded: list, as_self: list, answerer: str, shortcuts: dict | None = None,
                   episode=None) -> list:
    """Rows for :func:`belief.grading.trivial.tom_table`: per ToM question its type (level/template), gold,
    what the agent said (a correct reading counts as the gold) and the shortcuts' answers: the panel's
    (``shortcuts``: question id -> :meth:`belief.grading.shortcuts.Panel.answers`, on the global trace) and,
    without it, the player's own "answer as yourself" (from its own record)."""
    selves = {r["id"]: r for r in as_self}

    def said(row) -> str:
        return row["gold"] if row["correct"] else row["reading"]

    out = []
    for r in graded:
        if r["category"] != "ToM" or r["id"] not in selves:
            continue
        answers = {answerer: said(r)}
        answers.update((shortcuts or {}).get(r["id"]) or {"as_self": said(selves[r["id"]])})
        out.append({"type": f"{r['level']}/{r['template']}", "gold": r["gold"], "answers": answers,
                    "episode": episode})
    return out


__all__ = ["MazeConfig", "tom_table_rows", "play_episode", "ask_round", "category_scores", "make_agents", "snapshot", "GAMES", "AGENT_KINDS"]
