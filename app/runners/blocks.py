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
from belief.envs.blocks.tom import answer as exact_answer
from belief.envs.blocks.tom import is_move, move_questions, trivial_answers
from belief.errors import BeliefError
from belief.grading.report import grade
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
    tom_rows: bool = False          # return every question as a ToM-table row (type, gold, answers)


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


def _yes(text: str) -> str:
    return "yes" if str(text).strip().lower().startswith("yes") else "no"


def play_episode(config: BlocksConfig, seed: int, *, keep_trace: bool = False) -> dict:
    """One seeded episode: success, timesteps, workload balance, and the ToM accuracy of the agents' answers."""
    e = blocks_v0.raw_env(seed=seed, family=config.family, slip=config.slip, max_rounds=config.max_rounds,
                          rules=config.rules)
    agents = {a: make_agent(config.agents, a, e.task) for a in e.possible_agents}
    answering = config.ask and config.agents != "oracle"
    update = QuestionFeed(e, agents, lambda ev: move_questions(ev, e.trace.meta, seed)
                          if answering and is_move(ev) else ())
    qs = update.asked
    update()
    while e.agents and not all(e.terminations[a] or e.truncations[a] for a in e.agents):
        name = e.agent_selection
        action = agents[name].act(e.observe(name), e.infos[name])
        facts = agents[name].message()
        if facts:
            e.say(facts)
        e.step(action)
        update()
    out = e.metrics()
    out.update({"seed": seed, "agents": config.agents, "questions": len(qs)})
    if answering:
        answers = [{"id": q.id, "agent": q.asked, "answer": update.given[q.id]} for q in qs]
        truth = check(e.trace)
        for q in qs:
            q.answer = exact_answer(truth, q, q.t)
        out.update(grade(qs, answers).level_figures())
        if config.tom_rows:
            given = {a["id"]: _yes(a["answer"]) for a in answers}
            out["tom_rows"] = [{"type": q.type, "gold": "yes" if q.answer else "no",
                                "answers": {config.agents: given[q.id],
                                            **{k: "yes" if v else "no"
                                               for k, v in trivial_answers(e.trace, truth, q).items()}}}
                               for q in qs]
    if keep_trace:
        out["_trace"] = e.trace
    return out


__all__ = ["BlocksConfig", "play_episode", "make_agent", "AGENT_KINDS"]
