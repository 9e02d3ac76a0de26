"""Play Hanabi games: one game is a pure, picklable function of (config, seed) returning a plain dict."""

from __future__ import annotations

from dataclasses import dataclass

from belief.agents.hanabi.belief import HanabiBeliefAgent
from belief.agents.hanabi.conventions import HanabiConventionalAgent
from belief.agents.hanabi.hintless import HanabiHintlessAgent
from belief.agents.hanabi.smartbot import SmartBotAgent
from belief.envs.hanabi import environment as hanabi_v0
from belief.envs.hanabi.tom import SelectedSet, card_question, is_move, label, move_questions
from belief.errors import BeliefError
from belief.grading.report import grade, read_answer
from belief.grading.shortcuts import QUESTION_SHORTCUTS

AGENT_KINDS = {"belief": HanabiBeliefAgent, "conventional": HanabiConventionalAgent,
               "hintless": HanabiHintlessAgent, "smartbot": SmartBotAgent}


@dataclass(frozen=True)
class HanabiConfig:
    agents: str = "belief"      # one kind for both players
    ask: bool = True            # ToM questions after every move (the three levels)
    players: int = 2
    tom_set: bool = False       # the selected set (belief.envs.hanabi.tom.SelectedSet) with the shortcut panel
    files: bool = False         # return the game's files (trace, questions, answers) as ``_files``


def make_agents(kind: str, players) -> dict:
    if kind not in AGENT_KINDS:
        raise BeliefError(f"unknown Hanabi agent kind {kind!r}; expected one of {', '.join(AGENT_KINDS)}")
    players = tuple(players)
    return {p: AGENT_KINDS[kind](p, players=players) for p in players}


def play_game(config: HanabiConfig, seed: int, *, keep_trace: bool = False) -> dict:
    """One seeded game: score, fireworks, turns, and the ToM accuracy of the players' own answers."""
    e = hanabi_v0.raw_env(seed=seed, players=config.players)
    agents = make_agents(config.agents, e.possible_agents)
    qs, answers, fed = [], [], 0
    sampler, tom_qs, tom_said, tom_texts = SelectedSet(e.trace.meta, seed), [], [], []

    def update():
        nonlocal fed
        for name, ag in agents.items():
            ag.perceive(e.take_perceived(name), e.infos[name])
        while fed < len(e.trace):
            ev = e.trace[fed]
            fed += 1
            if config.ask and is_move(ev):
                for q in move_questions(ev, seed):
                    qs.append(q)
                    answers.append({"id": q.id, "agent": q.asked, "answer": agents[q.asked].answer(q.public())})
            if config.tom_set:
                for q in sampler.feed(ev):
                    tom_qs.append(q)
                    # the one reader reads the player's free text, as `belief grade` would
                    tom_texts.append(agents[q.asked].answer(q.public()))
                    tom_said.append(read_answer(q.question, tom_texts[-1]))

    update()
    while not all(e.terminations.values()):
        name = e.agent_selection
        e.step(agents[name].act(e.observe(name), e.infos[name]))
        update()
    out = e.metrics()
    out.update({"seed": seed, "agents": config.agents, "players": config.players, "questions": len(qs)})
    if config.ask:
        out.update(grade(label(e.trace, qs), answers).level_figures())
    kept = sampler.kept() if config.tom_set else set()
    if config.tom_set:
        out["tom_rows"] = tom_rows([(q, a) for q, a in zip(tom_qs, tom_said) if q.id in kept], config.agents, seed)
    if config.files:
        from belief.app.runners.episode_files import episode_texts

        selected = [(q, a) for q, a in zip(tom_qs, tom_texts) if q.id in kept]
        general = [card_question(q) for q in label(e.trace, qs)] + [q.question for q, _ in selected]
        said = answers + [{"id": q.id, "agent": q.asked, "answer": a} for q, a in selected]
        out["_files"] = episode_texts(f"hanabi_{seed}", e.trace, general, said)
    if keep_trace:
        out["_trace"] = e.trace
    return out


def tom_rows(asked: list, agent: str, seed: int) -> list[dict]:
    """Rows for :func:`belief.grading.trivial.tom_table`: per selected question its template, the checker's gold
    (computed as the game went), the asked player's answer as the reader read it, and every shortcut's answer
    (the panel's and Hanabi's ``hint_record``); the game's seed is the episode."""
    return [{"type": q.template, "gold": q.gold, "episode": seed,
             "answers": {agent: said, **{s: q.shortcuts.get(s) for s in (*QUESTION_SHORTCUTS, "hint_record")}}}
            for q, said in asked]


__all__ = ["tom_rows", "HanabiConfig", "play_game", "make_agents", "AGENT_KINDS"]
