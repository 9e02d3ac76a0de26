"""Play overcooked_v0 episodes: one episode is a pure, picklable function of (config, seed) returning a plain
dict (soups served, score, play CPU per episode and per step; with questions, the ToM rows).

A pairing names the two chefs, alice first (``belief+greedy``: the belief chef as alice, overcooked-ai's
greedy planning agent as bob). The engine's planner set-up (the ``MediumLevelActionManager`` the greedy agent
needs, the motion planner the engine's env needs) is built once per layout and process, before the clock of
an episode starts; :func:`setup_cpu` reports what it cost.

With ``ask_every`` > 0 the episode records its trace, declares each chef's current subgoal
(``env.declare_intent``) and every ``ask_every`` steps asks both chefs the questions of
:mod:`belief.envs.overcooked.tom`; after the episode one checker run labels them, and each row carries the
asked chef's answer beside the trivial answerers. A belief chef's row of the selected set also carries
``no_inference``: the same question answered from its private record alone (the no-inference chef's way, with
the same perception), the paired ablation of its model of what the partner saw.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Optional

import numpy as np

from belief.agents.overcooked.baselines import GreedyChef, GreedyYieldChef, RandomChef
from belief.agents.overcooked.belief import BeliefChef
from belief.envs.overcooked.world import HORIZON, LAYOUTS, SETUP_CPU_S, action_manager, motion_planner
from belief.envs.overcooked.environment import raw_env
from belief.envs.overcooked.events import CHEFS
from belief.envs.overcooked.mcq import choices_at, rows_of
from belief.envs.overcooked.tom import label_questions, questions_at, selected_set, trivial_answers
from belief.errors import BeliefError
from belief.truth.checker import check

KINDS = ("belief", "no_inference", "greedy", "greedy_yield", "random", "llm")  # llm: opt-in, an endpoint configured (docs/llm.md)
PAIRINGS = ("belief+belief", "belief+greedy", "no_inference+no_inference", "no_inference+greedy", "greedy+greedy",
            "greedy_yield+greedy_yield", "random+random")


@dataclass(frozen=True)
class OvercookedConfig:
    layout: str = "cramped_room"
    pairing: str = "belief+belief"
    horizon: int = HORIZON
    fov: Optional[int] = None      # None: the source's full view
    ask_every: int = 0             # steps between question moments (0: no questions, no trace)
    selected: bool = True          # at those moments also the selected set (envs/overcooked/tom.py)
    files: bool = False            # return the episode's files (trace, questions, answers) as ``_files``


def parse_pairing(pairing: str) -> tuple[str, str]:
    kinds = tuple(pairing.split("+"))
    if len(kinds) != 2 or any(k not in KINDS for k in kinds):
        raise BeliefError(f"unknown pairing {pairing!r}; expected KIND+KIND with KIND one of {', '.join(KINDS)}")
    return kinds


def make_chef(kind: str, name: str, layout: str, seed: int):
    partner = CHEFS[1 - CHEFS.index(name)]
    if kind == "belief":
        return BeliefChef(name, partner, layout, seed=seed)
    if kind == "no_inference":
        return BeliefChef(name, partner, layout, infer_partner=False, seed=seed)
    if kind == "greedy":
        return GreedyChef(name, layout, seed=seed)
    if kind == "greedy_yield":
        return GreedyYieldChef(name, layout, seed=seed)
    if kind == "random":
        return RandomChef(name, seed=seed)
    if kind == "llm":
        from belief.agents.overcooked.llm import LLMChef
        from belief.llm.client import LLMClient

        return LLMChef(name, LLMClient.from_env())
    raise BeliefError(f"unknown chef kind {kind!r}; expected one of {', '.join(KINDS)}")


def prepare(layout: str, kinds) -> None:
    """Build the layout's cached planners (outside any episode's clock)."""
    motion_planner(layout)
    if {"greedy", "greedy_yield"} & set(kinds):
        action_manager(layout)


def setup_cpu() -> dict:
    """CPU seconds of the planner set-up this process did: {layout: {"motion": s, "mlam": s}}."""
    out: dict = {}
    for (what, layout), s in SETUP_CPU_S.items():
        out.setdefault(layout, {})[what] = round(s, 4)
    return out


def play_episode(config: OvercookedConfig, seed: int, *, keep: bool = False) -> dict:
    """One seeded episode; with ``keep`` also the global trace (``_trace``) and the questions (``_questions``)."""
    if config.layout not in LAYOUTS:
        raise BeliefError(f"unknown Overcooked layout {config.layout!r}; expected one of {', '.join(LAYOUTS)}")
    kinds = parse_pairing(config.pairing)
    prepare(config.layout, kinds)
    asking = config.ask_every > 0
    np.random.seed(seed % 2 ** 32)  # the greedy model's unstuck moves
    e = raw_env(layout=config.layout, horizon=config.horizon, fov=config.fov, seed=seed, record_trace=asking)
    obs, infos = e.reset(seed=seed)
    chefs = {c: make_chef(k, c, config.layout, seed) for c, k in zip(CHEFS, kinds)}
    for c, chef in chefs.items():
        chef.reset()
        chef.perceive(e.take_perceived(c), infos[c])
    rng = random.Random(f"overcooked:questions:{seed}")
    selected = selected_set(e.trace.meta, seed) if asking and (config.selected or config.files) else None
    sel_asked: list = []
    fed = 0
    questions, answers, choices, choice_answers = [], {}, [], {}
    record_answers: dict = {}  # a belief chef's selected questions answered from its record alone
    steps, cpu = 0, time.process_time()
    while e.agents:
        actions = {}
        for c, chef in chefs.items():
            actions[c] = chef.act(obs[c], {**infos[c], "state": e.state})
            if asking and chef.subgoal:  # every chef of make_chef states its subgoal (None: no plan)
                e.declare_intent(c, chef.subgoal)
        if asking and steps % config.ask_every == 0:
            for q in questions_at(e, len(e.trace) - 1, rng, f"s{steps}"):
                questions.append(q)
                answers[q.id] = chefs[q.asked].answer(q.public())
            if selected is not None:
                while fed < len(e.trace):
                    selected.feed(e.trace[fed])
                    fed += 1
                for c in CHEFS:
                    for sq in selected.ask(c, id_prefix=f"s{steps}-"):
                        sel_asked.append(sq)
                        answers[sq.id] = chefs[c].answer(sq.public())
                        if kinds[CHEFS.index(c)] == "belief":  # the ablation, on the same question
                            record_answers[sq.id] = chefs[c].record_answer(sq.public())
            intents = {c: chef.subgoal for c, chef in chefs.items()}
            for ch in choices_at(e, intents, rng, f"s{steps}"):
                choices.append(ch)
                asked = chefs[ch.asked]
                if asked.kind in ("belief", "no_inference"):
                    q = ch.public()
                    choice_answers[ch.id] = {asked.kind: asked.partner_intent() if ch.type == "partner_next"
                                             else asked.answer(q)}
        obs, _, _, _, infos = e.step(actions)
        steps += 1
        for c, chef in chefs.items():
            chef.perceive(e.take_perceived(c), infos.get(c))
    cpu = time.process_time() - cpu
    out = {**e.metrics(), "seed": seed, "pairing": config.pairing, "steps": steps, "cpu_s": cpu,
           "cpu_ms_per_step": 1000 * cpu / max(steps, 1)}
    if asking:
        label_questions(e.trace, questions)
        truth = check(e.trace)
        out["tom_rows"] = [{"type": q.type, "gold": q.answer, "asked": q.asked, "id": q.id,
                            "answers": {kinds[CHEFS.index(q.asked)]: answers[q.id], **trivial_answers(truth, q)}}
                           for q in questions]
        out["mc_rows"] = rows_of(choices, choice_answers, seed)
        kept = selected.kept() if selected is not None else set()
        sel = [q for q in sel_asked if q.id in kept]
        if sel and config.selected:
            from belief.grading.report import read_answer

            out["tom_rows"] += [{"type": q.template, "gold": q.gold, "asked": q.asked, "id": q.id, "set": "selected",
                                 "episode": f"{config.layout}:{seed}",
                                 "answers": {kinds[CHEFS.index(q.asked)]: read_answer(q.question, answers[q.id]),
                                             **({"no_inference": read_answer(q.question, record_answers[q.id])}
                                                if q.id in record_answers else {}),
                                             **q.shortcuts}} for q in sel]
        if config.files:
            from belief.app.runners.episode_files import episode_texts

            from belief.envs.overcooked.tom import grading_question

            written = [grading_question(q) for q in questions] + [q.question for q in sel]
            out["_files"] = episode_texts(f"overcooked_{config.layout}_{seed}", e.trace, written,
                                          [{"id": q.id, "agent": q.asked, "answer": answers[q.id]}
                                           for q in [*questions, *sel]])
    if keep:
        out.update(_trace=e.trace, _questions=questions)
    return out


__all__ = ["OvercookedConfig", "KINDS", "PAIRINGS", "make_chef", "parse_pairing", "play_episode", "prepare",
           "setup_cpu"]
