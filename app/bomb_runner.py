"""Run bomb_v0 episodes with a team of agents, ask the ToM questions after every action, collect metrics.

Each episode writes three JSONL files into ``out``: the global trace (``bomb_<seed>.trace.jsonl``),
the questions with their exact answers (``.questions.jsonl``) and the agents' free-text answers
(``.answers.jsonl``, graded by ``belief grade``).
"""

from __future__ import annotations

import json
from pathlib import Path

from belief.agents.bomb_belief import BeliefAgent
from belief.agents.bomb_planner import PlannerAgent
from belief.agents.bomb_random import RandomAgent
from belief.envs import bomb_v0
from belief.envs.bomb_tom import QuestionStream
from belief.errors import BeliefError

AGENT_KINDS = ("belief", "planner", "random", "llm")


def make_agent(kind: str, name: str, env, seed):
    w = env.world
    if kind == "belief":
        return BeliefAgent(name, w.map, w.cutters)
    if kind == "planner":
        return PlannerAgent(name, world=w)
    if kind == "random":
        return RandomAgent(name, seed=seed)
    if kind == "llm":  # configured by belief.agents.bomb_llm.configure (the CLI's --base-url / --model)
        from belief.agents.bomb_llm import make_llm_agent

        return make_llm_agent(name, env, seed)
    raise BeliefError(f"unknown agent kind {kind!r}; expected one of {', '.join(AGENT_KINDS)}")


def run_episode(kinds, seed: int, *, random_maps: bool = False, max_rounds: int = 30, out: Path | None = None,
                ask: bool = True) -> dict:
    """Play one episode; `kinds` is one agent kind for the whole team or one per agent."""
    if isinstance(kinds, str):
        kinds = [kinds] * 3
    e = bomb_v0.raw_env(seed=seed, random_maps=random_maps, max_rounds=max_rounds)
    agents = {a: make_agent(k, a, e, seed) for a, k in zip(e.possible_agents, kinds)}
    stream = QuestionStream(e.trace.meta) if ask else None
    fed = 0
    qs, answers = [], []

    def pump():
        nonlocal fed
        new = []
        while fed < len(e.trace):
            ev = e.trace[fed]
            fed += 1
            if stream is not None:
                new.extend(stream.feed(ev))
        return new

    def perceive():
        # each agent's private trace: only what it perceived (agents without a tracker ignore it)
        for a, ag in agents.items():
            events = e.take_perceived(a)
            if hasattr(ag, "perceive"):
                ag.perceive(events)

    def ask_all(new):
        perceive()
        for q in new:
            qs.append(q)
            answers.append({"id": q.id, "agent": q.asked, "answer": agents[q.asked].answer(q.public())})

    perceive()
    while not (all(e.terminations.values()) or all(e.truncations.values())):
        perceive()
        name = e.agent_selection
        ag = agents[name]
        obs = e.infos[name]["obs"]
        mask = e.infos[name]["action_mask"]
        action, message = ag.act(obs, mask) if not isinstance(ag, BeliefAgent) else ag.act(obs)
        e.say(message)
        e.step(action)
        ag.observe_result(e.infos[name]["result"], message)
        ask_all(pump())
    ask_all(pump())
    if stream is not None:
        ask_all(stream.flush())
    m = e.metrics()
    m.update({"seed": seed, "agents": list(kinds), "questions": len(qs)})
    if out is not None:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        stem = out / f"bomb_{seed}"
        e.trace.write(f"{stem}.trace.jsonl")
        Path(f"{stem}.questions.jsonl").write_text("".join(json.dumps(q.to_json()) + "\n" for q in qs))
        Path(f"{stem}.answers.jsonl").write_text("".join(json.dumps(a) + "\n" for a in answers))
        m["files"] = {"trace": f"{stem}.trace.jsonl", "questions": f"{stem}.questions.jsonl",
                      "answers": f"{stem}.answers.jsonl"}
    m["_questions"] = qs
    m["_answers"] = answers
    m["_trace"] = e.trace  # (like the other _ keys: for library callers, not serialised)
    return m


__all__ = ["run_episode", "make_agent", "AGENT_KINDS"]
