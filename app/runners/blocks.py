"""Play COBLOCK episodes: one episode is a pure, picklable function of (config, seed) returning a plain dict."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from belief.agents.blocks.baseline import BlocksBaselineAgent
from belief.agents.blocks.belief import BlocksBeliefAgent
from belief.agents.blocks.naive import BlocksNaiveAgent
from belief.agents.blocks.oracle import BlocksOracle
from belief.agents.protocol import Agent
from belief.app.runners.feed import QuestionFeed
from belief.envs.blocks import environment as blocks_v0
from belief.envs.blocks.world import DEFAULT_RULES
from belief.envs.base.selected import SelectedQuestion
from belief.envs.blocks.tom import answer as exact_answer
from belief.envs.blocks.tom import SelectedSet, is_move, move_questions, own_or_told_answer, question_fluent
from belief.errors import BeliefError
from belief.grading.questions import Question, gold_answer
from belief.grading.report import grade, read_answer
from belief.grading.shortcuts import Panel
from belief.truth.checker import check

#: ``silent`` never speaks nor fixes a block; ``baseline`` is its old name
AGENT_KINDS = ("belief", "naive", "silent", "baseline", "oracle")


@dataclass(frozen=True)
class BlocksConfig:
    agents: str = "belief"          # one kind for both builders
    family: Optional[str] = None    # None: the seed picks independent / skill / goal in turn
    slip: Optional[float] = None    # None: the rules' default (0 under the source's, 0.1 under the project's)
    max_rounds: Optional[int] = None
    ask: bool = True                # ToM questions after every move
    rules: str = DEFAULT_RULES
    tom_rows: bool = False          # ask the selected set too and return every question as a ToM-table row
    files: bool = False             # return the episode's files (trace, questions, answers) as ``_files``


def make_agent(kind: str, name: str, task) -> Agent:
    if kind == "belief":
        return BlocksBeliefAgent(name)
    if kind == "naive":
        return BlocksNaiveAgent(name)
    if kind in ("silent", "baseline"):
        return BlocksBaselineAgent(name)
    if kind == "oracle":
        return BlocksOracle(name, task)
    raise BeliefError(f"unknown blocks agent kind {kind!r}; expected one of {', '.join(AGENT_KINDS)}")


def level_general(q) -> Question:
    """A level question (:class:`belief.envs.blocks.tom.BlocksQuestion`) as a question of the general model."""
    chain = tuple(q.chain)
    return Question(id=q.id, kind="aware" if len(chain) > 1 else "knows", chain=chain,
                    fluent=question_fluent(q.template, q.subject), time=q.t, agent=q.asked, level=q.level,
                    template=q.type, text=q.text)


def play_episode(config: BlocksConfig, seed: int, *, keep_trace: bool = False) -> dict:
    """One seeded episode: success, timesteps, workload balance, and the ToM accuracy of the agents' answers;
    with ``tom_rows`` also every question as a ToM-table row (the level questions and the selected set, each
    beside the kernel's panel of shortcuts)."""
    e = blocks_v0.raw_env(seed=seed, family=config.family, slip=config.slip, max_rounds=config.max_rounds,
                          rules=config.rules)
    agents = {a: make_agent(config.agents, a, e.task) for a in e.possible_agents}
    answering = config.ask and config.agents != "oracle"
    selected = SelectedSet(e.trace.meta, seed) if answering and (config.tom_rows or config.files) else None

    def questions_of(ev) -> list:
        out = list(move_questions(ev, e.trace.meta, seed)) if answering and is_move(ev) else []
        return out + (selected.feed(ev) if selected is not None else [])

    update = QuestionFeed(e, agents, questions_of)
    update()
    while e.agents and not all(e.terminations[a] or e.truncations[a] for a in e.agents):
        name = e.agent_selection
        action = agents[name].act(e.observe(name), e.infos[name])
        facts = agents[name].message()
        if facts:
            e.say(facts)
        e.step(action)
        update()
    qs = [q for q in update.asked if not isinstance(q, SelectedQuestion)]
    out = e.metrics()
    out.update({"seed": seed, "agents": config.agents, "questions": len(qs)})
    if answering:
        answers = [{"id": q.id, "agent": q.asked, "answer": update.given[q.id]} for q in qs]
        truth = check(e.trace)
        for q in qs:
            q.answer = exact_answer(truth, q, q.t)
        out.update(grade(qs, answers).level_figures())
        kept = selected.kept() if selected is not None else set()
        asked = [(level_general(q), q.type) for q in qs]
        asked += [(q.question, q.template) for q in update.asked if isinstance(q, SelectedQuestion) and q.id in kept]
        if config.files:
            from belief.app.runners.episode_files import episode_texts

            out["_files"] = episode_texts(f"blocks_{seed}", e.trace, [g for g, _ in asked],
                                          [{"id": g.id, "agent": g.agent, "answer": update.given[g.id]}
                                           for g, _ in asked])
        if config.tom_rows:
            panel = Panel(truth, {"own_or_told": own_or_told_answer(e.trace)})
            out["tom_rows"] = [{"type": kind, "gold": gold_answer(truth, g), "episode": seed,
                                "answers": {config.agents: read_answer(g, update.given[g.id]), **panel.answers(g)}}
                               for g, kind in asked]
    if keep_trace:
        out["_trace"] = e.trace
    return out


__all__ = ["BlocksConfig", "play_episode", "make_agent", "AGENT_KINDS"]
