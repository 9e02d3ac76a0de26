"""Play bomb_v0 episodes with a team of agents, ask the ToM questions after every action, collect metrics.

:func:`play_episode` is the unit of work of a run: a top-level, picklable, pure function of a
:class:`BombConfig` and a seed returning plain data (the episode's result row, its question rows and the
text of its files), so runs can be sharded over processes or Ray (:mod:`belief.app.runs.executor`). Files of one
episode (names relative to the run directory; nothing in them depends on where or when they were made):

* ``bomb_<seed>.trace.jsonl``: the global trace (meta ``episode``: ``bomb_<seed>``; ends with its end marker);
* ``bomb_<seed>.answers.jsonl``: the agents' free-text answers ``{"id", "episode", "agent", "answer", "trace"}``
  (``trace``: the trace's digest; graded by ``belief grade TRACE ANSWERS``);
* ``bomb_<seed>.questions.jsonl``: the episode's questions in the grading format
  (:mod:`belief.grading.questions`: kind, chain, fluent, values, time, template, phenomenon, text; naming the
  episode), so ``belief grade bomb_<seed>.trace.jsonl bomb_<seed>.answers.jsonl --questions
  bomb_<seed>.questions.jsonl`` regrades it and a tool outside the project can audit every question;
* ``bomb_<seed>.rows.jsonl``: one flat row per question (:data:`QUESTION_COLUMNS`): its set (``study``,
  ``probe``, ``selected``), the exact answer ``gold``, the agent's ``answer``, its ``reading`` and
  ``correct``, and every shortcut's answer (:mod:`belief.grading.shortcuts`: ``reality``, ``as_self``,
  ``depth_collapse``, ``public_record``; see :func:`tom_rows`).

The selected set (:mod:`belief.envs.bomb.tom`) is asked only of teams with an agent that answers ToM questions
(``belief``, ``llm``): the trace's meta says whether (``tom_selected``), so its questions are the same
whichever way they are regenerated.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from belief.agents.bomb.belief import BeliefAgent
from belief.agents.protocol import Agent
from belief.agents.bomb.planner import PlannerAgent
from belief.agents.bomb.random_agent import RandomAgent
from belief.envs.bomb import environment as bomb_v0
from belief.envs.bomb.world import AGENTS
from belief.envs.bomb.tom import QuestionStream
from belief.errors import BeliefError
from belief.grading.levels import LEVELS
from belief.grading.report import grade_questions, trace_digest
from belief.grading.shortcuts import QUESTION_SHORTCUTS
from belief.files.outputs import atomic_write_text, jsonl_text
from belief.truth.checker import check

AGENT_KINDS = ("belief", "no_minds", "planner", "random", "llm")


def make_agent(kind: str, name: str, env, seed) -> Agent:
    w = env.world
    if kind == "belief":
        # the game's rules are public: its record knows by elimination too (docs/logic.md)
        return BeliefAgent(name, w.map, w.cutters, constraints=env.trace.meta["constraints"])
    if kind == "no_minds":  # the belief agent without its model of teammates (agents/bomb/no_minds.py)
        from belief.agents.bomb.no_minds import NoMindsAgent

        return NoMindsAgent(name, w.map, w.cutters, constraints=env.trace.meta["constraints"])
    if kind == "planner":
        return PlannerAgent(name, world=w)
    if kind == "random":
        return RandomAgent(name, seed=seed)
    if kind == "llm":  # configured by belief.agents.bomb.llm.configure (the CLI's --base-url / --model)
        from belief.agents.bomb.llm import make_llm_agent

        return make_llm_agent(name, env, seed)
    raise BeliefError(f"unknown agent kind {kind!r}; expected one of {', '.join(AGENT_KINDS)}")


#: the agent kinds that answer ToM questions (the selected set is asked of a team with one of them)
ANSWERING = ("belief", "no_minds", "llm")


def _play(kinds, seed: int, *, random_maps: bool, max_rounds: int, ask: bool):
    """Play one episode: (env, metrics, questions, answers)."""
    if isinstance(kinds, str):
        kinds = [kinds] * 3
    e = bomb_v0.raw_env(seed=seed, random_maps=random_maps, max_rounds=max_rounds)
    agents = {a: make_agent(k, a, e, seed) for a, k in zip(e.possible_agents, kinds)}
    e.trace.meta["tom_selected"] = any(k in ANSWERING for k in kinds)
    stream = QuestionStream(e.trace.meta, selected=e.trace.meta["tom_selected"]) if ask else None
    episode = episode_name(seed)
    fed = 0
    qs: list = []
    answers: list = []

    def pump():
        nonlocal fed
        new = []
        while fed < len(e.trace):
            ev = e.trace[fed]
            fed += 1
            if stream is not None:
                new.extend(stream.feed(ev))
        return new

    def perceive(upto=None):
        # what each agent perceived (its private trace) and its info (its own action's result)
        for a, ag in agents.items():
            ag.perceive(e.take_perceived(a, upto), e.infos.get(a))

    def ask_all(new):
        for q in new:
            # what it perceived up to the question, not after: a turn's questions come once the next turn's
            # first events (a new round's deliveries among them) are in the trace
            perceive(q.t)
            qs.append(q)
            answers.append({"id": q.id, "episode": episode, "agent": q.asked,
                            "answer": agents[q.asked].answer(q.public())})

    perceive()
    while not (all(e.terminations.values()) or all(e.truncations.values())):
        perceive()
        name = e.agent_selection
        ag = agents[name]
        action = ag.act(e.observe(name), e.infos[name])
        e.say(ag.message())
        e.step(action)
        ask_all(pump())
    ask_all(pump())
    if stream is not None:
        ask_all(stream.flush())
        kept = stream.kept()
        if kept is not None:  # the selected questions the balance dropped are not graded (nor written)
            qs = [q for q in qs if q.set != "selected" or q.id in kept]
            ids = {q.id for q in qs}
            answers = [a for a in answers if a["id"] in ids]
    e.trace.meta["episode"] = episode
    digest = trace_digest(e.trace)  # the trace's own identity: grade refuses these answers on another trace
    for a in answers:
        a["trace"] = digest
    m = e.metrics()
    m.update({"seed": seed, "agents": list(kinds), "questions": len(qs)})
    return e, m, qs, answers


def episode_name(seed: int) -> str:
    return f"bomb_{seed}"


def episode_files(seed: int) -> dict:
    """The file names of an episode, by role (relative to the run directory)."""
    stem = episode_name(seed)
    return {"trace": f"{stem}.trace.jsonl", "questions": f"{stem}.questions.jsonl", "answers": f"{stem}.answers.jsonl",
            "rows": f"{stem}.rows.jsonl"}


#: the columns of a question row (``bomb_<seed>.rows.jsonl``, the run's ``questions.jsonl|csv``)
QUESTION_COLUMNS = ("episode", "seed", "id", "t", "turn", "round", "set", "level", "order", "template", "subject",
                    "variant", "phenomenon", "agent", "kind", "target", "question", "gold", "answer", "reading",
                    "correct") + QUESTION_SHORTCUTS
#: the columns of an episode row (the run's ``episodes.jsonl|csv``)
EPISODE_COLUMNS = ("episode", "seed", "agents", "score", "max_score", "rounds", "completed", "end_reason", "actions",
                   "valid_action_rate", "questions", "unreadable", "accuracy_introspection",
                   "accuracy_first_order", "accuracy_second_order")


def _reading(graded: dict) -> str:
    """yes / no, or none for an unreadable or missing answer."""
    return graded["reading"] if graded["reading"] in ("yes", "no") else "none"


def question_records(qs, episode: str) -> list[dict]:
    """The questions in the grading format (one JSON object per question, naming the episode)."""
    return [{**q.general().to_json(), "episode": episode} for q in qs]


def question_rows(seed: int, kinds, qs, answers, trace) -> list[dict]:
    """One flat row per question: the exact answer (`gold`, the checker's on ``trace``) beside the agent's text
    (`answer`), its reading by the one reader, and every shortcut's answer."""
    team = dict(zip(AGENTS, [kinds] * 3 if isinstance(kinds, str) else kinds))
    by_id = {a["id"]: a["answer"] for a in answers}
    general = [q.general() for q in qs]
    graded = {r["id"]: r for r in grade_questions(check(trace), general, by_id).rows}  # the one reader
    rows = []
    for q, g in zip(qs, general):
        study = q.set != "selected"
        rows.append({"episode": episode_name(seed), "seed": seed, "id": q.id, "t": q.t, "turn": q.turn,
                     "round": q.round, "set": q.set, "level": q.level, "order": g.order, "template": q.template,
                     "subject": q.subject if study else None, "variant": q.variant if study else None,
                     "phenomenon": g.phenomenon, "agent": q.asked, "kind": team.get(q.asked),
                     "target": q.target if study else None, "question": q.text, "gold": graded[q.id]["gold"],
                     "answer": by_id.get(q.id), "reading": _reading(graded[q.id]), "correct": graded[q.id]["correct"],
                     **{s: q.shortcuts.get(s) for s in QUESTION_SHORTCUTS}})
    return rows


def team_label(kinds) -> str:
    """The answerer name of a team: its kind, or the kinds of alpha, bravo, charlie joined by commas."""
    kinds = list(kinds)
    return kinds[0] if len(set(kinds)) == 1 else ",".join(kinds)


def row_type(q: dict) -> str:
    """The ToM table type of a question row: ``study/<level>``, ``probe/<level>`` or the selected template."""
    return f"{q['set']}/{q['level']}" if q["set"] in ("study", "probe") else str(q["template"])


def tom_rows(questions: list[dict], answerer: str, by: str = "template") -> list[dict]:
    """Rows for :func:`belief.grading.trivial.tom_table`, one per graded question: its type (``by="template"``:
    :func:`row_type`; ``"level"``: the study's level, study and probe questions only), the checker's gold, what the agents
    said as the grader read it (a correct reading counts as the gold) under `answerer`, every shortcut's answer,
    and its episode (the margin's intervals are clustered by episode)."""
    out = []
    for q in questions:
        if by == "level" and q["level"] is None:
            continue
        said = {answerer: q["gold"] if q["correct"] else q["reading"]}
        said.update({s: q[s] for s in QUESTION_SHORTCUTS if q.get(s) is not None})
        out.append({"type": q["level"] if by == "level" else row_type(q), "gold": q["gold"], "answers": said,
                    "episode": q["episode"]})
    return out


def tom_tables(questions: list[dict], answerer: str) -> dict:
    """``{"tom": per template (study and probe by level, the selected templates), "tom_levels": the study's
    three levels over the study and probe sets (Table 2)}``: the agents' accuracy beside every shortcut, the best
    one, ``tom`` (best shortcut at most 0.65) and the agents' paired margin over it."""
    from belief.grading.trivial import tom_table

    if not questions:
        return {"tom": None, "tom_levels": None}
    levels = tom_rows(questions, answerer, by="level")
    return {"tom": tom_table(tom_rows(questions, answerer), headline=answerer),
            "tom_levels": tom_table(levels, headline=answerer) if levels else None}


def accuracy(rows, level: str | None = None) -> float | None:
    """Fraction of `rows` (question rows) answered correctly, unreadable answers counted wrong; None if none.
    With a `level`: the study and probe questions of that level (Table 2's figure)."""
    rows = [r for r in rows if level is None or r["level"] == level]
    return sum(r["correct"] for r in rows) / len(rows) if rows else None


def episode_row(env, metrics: dict, rows: list[dict]) -> dict:
    seed = metrics["seed"]
    row = {"episode": episode_name(seed), "seed": seed, "agents": ",".join(metrics["agents"]),
           "score": metrics["score"], "max_score": metrics["max_score"], "rounds": metrics["rounds"],
           "completed": metrics["completed"], "end_reason": metrics["end_reason"], "actions": metrics["actions"],
           "valid_action_rate": metrics["valid_action_rate"],
           "questions": len(rows), "unreadable": sum(r["reading"] == "none" for r in rows)}
    row.update({f"accuracy_{lvl}": accuracy(rows, lvl) for lvl in LEVELS})
    return row


@dataclass(frozen=True)
class BombConfig:
    """What a run plays: the team (one kind per agent), the map, the round limit."""

    agents: tuple = ("belief", "belief", "belief")
    random_maps: bool = False
    max_rounds: int = 30

    def to_json(self) -> dict:
        d = asdict(self)
        d["agents"] = list(self.agents)
        return d


def _files(env, seed: int, qs, answers, rows) -> dict:
    names = episode_files(seed)
    return {names["trace"]: env.trace.dumps(), names["questions"]: jsonl_text(question_records(qs, episode_name(seed))),
            names["answers"]: jsonl_text(answers), names["rows"]: jsonl_text(rows)}


def play_episode(config: BombConfig, seed: int) -> dict:
    """Play and grade one episode: ``{"name", "seed", "result" (the episode row),
    "files" (file name -> text)}``; plain data, the same in any process."""
    env, m, qs, answers = _play(list(config.agents), seed, random_maps=config.random_maps,
                                max_rounds=config.max_rounds, ask=True)
    rows = question_rows(seed, config.agents, qs, answers, env.trace)
    return {"name": episode_name(seed), "seed": seed, "result": episode_row(env, m, rows),
            "files": _files(env, seed, qs, answers, rows)}


def play_task(task) -> dict:
    """:func:`play_episode` on one ``(config, seed)`` task (the executor's calling convention)."""
    return play_episode(*task)


def run_episode(kinds, seed: int, *, random_maps: bool = False, max_rounds: int = 30, out: Path | None = None,
                ask: bool = True) -> dict:
    """Play one episode for library callers: the env's metrics plus ``_questions``, ``_answers``, ``_rows`` (the
    graded question rows) and ``_trace`` (objects, not serialised); with `out`, the episode's files are written
    there (atomically)."""
    e, m, qs, answers = _play(kinds, seed, random_maps=random_maps, max_rounds=max_rounds, ask=ask)
    rows = question_rows(seed, m["agents"], qs, answers, e.trace) if qs else []
    if out is not None:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        texts = _files(e, seed, qs, answers, rows)
        for name, text in texts.items():
            atomic_write_text(out / name, text)
        m["files"] = {role: str(out / name) for role, name in episode_files(seed).items()}
    m["_questions"] = qs
    m["_answers"] = answers
    m["_rows"] = rows
    m["_trace"] = e.trace  # (like the other _ keys: for library callers, not serialised)
    return m


__all__ = ["AGENT_KINDS", "ANSWERING", "BombConfig", "EPISODE_COLUMNS", "QUESTION_COLUMNS", "accuracy",
           "episode_files", "episode_name", "make_agent", "play_episode", "play_task", "question_records",
           "question_rows", "row_type", "run_episode", "team_label", "tom_rows", "tom_tables"]
