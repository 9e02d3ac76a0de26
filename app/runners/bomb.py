"""Play bomb_v0 episodes with a team of agents, ask the ToM questions after every action, collect metrics.

:func:`play_episode` is the unit of work of a run: a top-level, picklable, pure function of a
:class:`BombConfig` and a seed returning plain data (the episode's result row, its question rows and the
text of its files), so runs can be sharded over processes or Ray (:mod:`belief.app.runs.executor`). Files of one
episode (names relative to the run directory; nothing in them depends on where or when they were made):

* ``bomb_<seed>.trace.jsonl``: the global trace (meta ``episode``: ``bomb_<seed>``; ends with its end marker);
* ``bomb_<seed>.answers.jsonl``: the agents' free-text answers ``{"id", "episode", "agent", "answer", "trace"}``
  (``trace``: the trace's digest; graded by ``belief grade TRACE ANSWERS``);
* ``bomb_<seed>.questions.jsonl``: one flat row per question (:data:`QUESTION_COLUMNS`): the exact answer
  ``gold``, the agent's ``answer``, its ``reading`` (yes/no/none) and ``correct``, and ``as_self``: the yes/no
  of the trivial "answer as yourself" answerer (the asked agent's own belief of F, from its own private record;
  see :func:`tom_rows`).
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
from belief.grading.report import grade_questions, level_question, trace_digest
from belief.files.outputs import atomic_write_text, jsonl_text

AGENT_KINDS = ("belief", "planner", "random", "llm")


def make_agent(kind: str, name: str, env, seed) -> Agent:
    w = env.world
    if kind == "belief":
        # the game's rules are public: its record knows by elimination too (docs/logic.md)
        return BeliefAgent(name, w.map, w.cutters, constraints=env.trace.meta["constraints"])
    if kind == "planner":
        return PlannerAgent(name, world=w)
    if kind == "random":
        return RandomAgent(name, seed=seed)
    if kind == "llm":  # configured by belief.agents.bomb.llm.configure (the CLI's --base-url / --model)
        from belief.agents.bomb.llm import make_llm_agent

        return make_llm_agent(name, env, seed)
    raise BeliefError(f"unknown agent kind {kind!r}; expected one of {', '.join(AGENT_KINDS)}")


def _play(kinds, seed: int, *, random_maps: bool, max_rounds: int, ask: bool):
    """Play one episode: (env, metrics, questions, answers, as_self {question id: yes/no})."""
    if isinstance(kinds, str):
        kinds = [kinds] * 3
    e = bomb_v0.raw_env(seed=seed, random_maps=random_maps, max_rounds=max_rounds)
    agents = {a: make_agent(k, a, e, seed) for a, k in zip(e.possible_agents, kinds)}
    # "answer as yourself" reads each agent's own record: the belief agent's, or (other kinds keep none) a
    # record of the same perceived events kept beside the agent
    kind_of = dict(zip(e.possible_agents, kinds))
    selves = {a: ag if kind_of[a] == "belief" else make_agent("belief", a, e, seed)
              for a, ag in agents.items()} if ask else {}
    stream = QuestionStream(e.trace.meta) if ask else None
    episode = episode_name(seed)
    fed = 0
    qs, answers, as_self = [], [], {}

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
            events = e.take_perceived(a, upto)
            ag.perceive(events, e.infos.get(a))
            if a in selves and selves[a] is not ag:
                selves[a].record(events)

    def ask_all(new):
        for q in new:
            # what it perceived up to the question, not after: a turn's questions come once the next turn's
            # first events (a new round's deliveries among them) are in the trace
            perceive(q.t)
            qs.append(q)
            answers.append({"id": q.id, "episode": episode, "agent": q.asked,
                            "answer": agents[q.asked].answer(q.public())})
            as_self[q.id] = "yes" if selves[q.asked].believes(q.public(), egocentric=True) else "no"

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
    e.trace.meta["episode"] = episode
    digest = trace_digest(e.trace)  # the trace's own identity: grade refuses these answers on another trace
    for a in answers:
        a["trace"] = digest
    m = e.metrics()
    m.update({"seed": seed, "agents": list(kinds), "questions": len(qs)})
    return e, m, qs, answers, as_self


def episode_name(seed: int) -> str:
    return f"bomb_{seed}"


def episode_files(seed: int) -> dict:
    """The file names of an episode, by role (relative to the run directory)."""
    stem = episode_name(seed)
    return {"trace": f"{stem}.trace.jsonl", "questions": f"{stem}.questions.jsonl", "answers": f"{stem}.answers.jsonl"}


#: the columns of a question row (``bomb_<seed>.questions.jsonl``, the run's ``questions.jsonl|csv``)
QUESTION_COLUMNS = ("episode", "seed", "id", "t", "turn", "round", "set", "level", "order", "template", "subject",
                    "variant", "agent", "kind", "target", "question", "gold", "answer", "reading", "correct",
                    "as_self")
#: the columns of an episode row (the run's ``episodes.jsonl|csv``)
EPISODE_COLUMNS = ("episode", "seed", "agents", "score", "max_score", "rounds", "completed", "end_reason", "actions",
                   "valid_action_rate", "questions", "unreadable", "accuracy_introspection",
                   "accuracy_first_order", "accuracy_second_order")


def _reading(graded: dict) -> str:
    """yes / no, or none for an unreadable or missing answer."""
    return graded["reading"] if graded["reading"] in ("yes", "no") else "none"


def question_rows(seed: int, kinds, qs, answers, as_self: dict | None = None) -> list[dict]:
    """One flat row per question: the exact answer (`gold`) beside the agent's text (`answer`), its reading, and
    the "answer as yourself" yes/no (`as_self`, None when not computed)."""
    as_self = as_self or {}
    team = dict(zip(AGENTS, [kinds] * 3 if isinstance(kinds, str) else kinds))
    by_id = {a["id"]: a["answer"] for a in answers}
    graded = {r["id"]: r for r in grade_questions(None, [level_question(q) for q in qs], by_id).rows}  # one reader
    rows = []
    for q in qs:
        text = by_id.get(q.id)
        rows.append({"episode": episode_name(seed), "seed": seed, "id": q.id, "t": q.t, "turn": q.turn,
                     "round": q.round, "set": q.set, "level": q.level, "order": graded[q.id]["order"],
                     "template": q.template, "subject": q.subject, "variant": q.variant, "agent": q.asked,
                     "kind": team.get(q.asked), "target": q.target, "question": q.text, "gold": graded[q.id]["gold"],
                     "answer": text, "reading": _reading(graded[q.id]), "correct": graded[q.id]["correct"],
                     "as_self": as_self.get(q.id)})
    return rows


def team_label(kinds) -> str:
    """The answerer name of a team: its kind, or the kinds of alpha, bravo, charlie joined by commas."""
    kinds = list(kinds)
    return kinds[0] if len(set(kinds)) == 1 else ",".join(kinds)


def tom_rows(questions: list[dict], answerer: str, by: str = "level") -> list[dict]:
    """Rows for :func:`belief.grading.trivial.tom_table`, one per graded question: its type (``by="level"``: the
    level; ``"template"``: level/template), the checker's gold, what the agents said as the grader read it (a
    correct reading counts as the gold) under `answerer`, and ``as_self`` when the row has it."""
    out = []
    for q in questions:
        said = {answerer: q["gold"] if q["correct"] else q["reading"]}
        if q.get("as_self") is not None:
            said["as_self"] = q["as_self"]
        kind = q["level"] if by == "level" else f"{q['level']}/{q['template']}"
        out.append({"type": kind, "gold": q["gold"], "answers": said})
    return out


def tom_tables(questions: list[dict], answerer: str) -> dict:
    """``{"tom": by level, "tom_by_template": by level/template}``: the agents' ToM accuracy beside the trivial
    answerers (``majority`` per type, ``as_self``); a type a trivial answerer gets > 80% right has ``tom: false``."""
    from belief.grading.trivial import tom_table

    if not questions:
        return {"tom": None, "tom_by_template": None}
    return {"tom": tom_table(tom_rows(questions, answerer)),
            "tom_by_template": tom_table(tom_rows(questions, answerer, by="template"))}


def accuracy(rows, level: str | None = None) -> float | None:
    """Fraction of `rows` (question rows) answered correctly, unreadable answers counted wrong; None if none."""
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


def play_episode(config: BombConfig, seed: int) -> dict:
    """Play and grade one episode: ``{"name", "seed", "result" (the episode row),
    "files" (file name -> text)}``; plain data, the same in any process."""
    env, m, qs, answers, as_self = _play(list(config.agents), seed, random_maps=config.random_maps,
                                         max_rounds=config.max_rounds, ask=True)
    rows = question_rows(seed, config.agents, qs, answers, as_self)
    names = episode_files(seed)
    return {"name": episode_name(seed), "seed": seed, "result": episode_row(env, m, rows),
            "files": {names["trace"]: env.trace.dumps(), names["questions"]: jsonl_text(rows),
                      names["answers"]: jsonl_text(answers)}}


def play_task(task) -> dict:
    """:func:`play_episode` on one ``(config, seed)`` task (the executor's calling convention)."""
    return play_episode(*task)


def run_episode(kinds, seed: int, *, random_maps: bool = False, max_rounds: int = 30, out: Path | None = None,
                ask: bool = True) -> dict:
    """Play one episode for library callers: the env's metrics plus ``_questions``, ``_answers``, ``_as_self`` and
    ``_trace``
    (objects, not serialised); with `out`, the episode's files are written there (atomically)."""
    e, m, qs, answers, as_self = _play(kinds, seed, random_maps=random_maps, max_rounds=max_rounds, ask=ask)
    if out is not None:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        names = episode_files(seed)
        rows = question_rows(seed, m["agents"], qs, answers, as_self)
        texts = {"trace": e.trace.dumps(), "questions": jsonl_text(rows), "answers": jsonl_text(answers)}
        for role, text in texts.items():
            atomic_write_text(out / names[role], text)
        m["files"] = {role: str(out / name) for role, name in names.items()}
    m["_questions"] = qs
    m["_answers"] = answers
    m["_as_self"] = as_self  # question id -> the "answer as yourself" yes/no
    m["_trace"] = e.trace  # (like the other _ keys: for library callers, not serialised)
    return m


__all__ = ["AGENT_KINDS", "BombConfig", "EPISODE_COLUMNS", "QUESTION_COLUMNS", "accuracy", "episode_files",
           "episode_name", "make_agent", "play_episode", "play_task", "question_rows", "run_episode", "team_label",
           "tom_rows", "tom_tables"]
