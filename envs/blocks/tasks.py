"""Seeded COBLOCK task generation under the project's rules (``rules="project"``), solvable by construction;
:func:`generate` also dispatches to the source's generator (:mod:`belief.envs.blocks.tasks_source`).

Every goal is grown block by block, each new block in a cell gravity allows given the blocks before it
(:func:`belief.envs.blocks.world.supported`), so the growth order is a build order. Each task carries that
order with a builder per block (``Task.plan``) whose inventory holds the colour: replaying the plan builds
the target (``replay_plan`` checks it, and the generator refuses a task it cannot replay).

Families (the study's three):

* ``independent``: alice builds in x 0-1 and bob in x 3-4 (never adjacent); each inventory holds the
  colours of its own goal (plus one spare block);
* ``skill``: the same layout, but one agent (sometimes both) lacks every block of a colour its goal needs;
  the partner holds them and must place them (it has to learn where: goals are private);
* ``goal``: one agent builds a ground layer anywhere; the other's goal rests on it (no ground block of
  its own), so its blocks can be placed only after the first agent's: order matters.
"""

from __future__ import annotations

import random
from collections import Counter

from belief.envs.blocks.lacking import choose_lacking
from belief.envs.blocks.world import DEFAULT_RULES, PROJECT, rules_of
from belief.envs.blocks.world import AGENTS, CELLS, BlocksError, Step, Task, replay_plan, supported

COLOURS = PROJECT.colours

FAMILIES = ("independent", "skill", "goal")
REGIONS = {"alice": (0, 1), "bob": (3, 4)}


def _grow(rng: random.Random, n: int, allowed, existing: dict) -> list:
    """``n`` cells grown one by one among ``allowed``, each supported by ``existing`` or earlier ones."""
    blocks = dict(existing)
    out = []
    for _ in range(n):
        options = [c for c in CELLS if c not in blocks and PROJECT.in_box(c) and allowed(c) and supported(c, blocks)]
        if not options:
            break
        # half the time stack on the previous block: structures with some height, not only floors
        above = [c for c in options if out and c[1] > 0 and (c[0], c[1] - 1, c[2]) == out[-1]]
        cell = above[0] if above and rng.random() < 0.5 else rng.choice(options)
        blocks[cell] = True
        out.append(cell)
    return out


def _interleave(a: list, b: list) -> list:
    out = []
    for i in range(max(len(a), len(b))):
        out += a[i:i + 1] + b[i:i + 1]
    return out


def check_family(family):
    if family is not None and family not in FAMILIES:
        raise BlocksError(f"unknown task family {family!r}; expected one of {', '.join(FAMILIES)}")


def generate(seed: int, family: str | None = None, rules: str = DEFAULT_RULES) -> Task:
    """The task of ``seed`` under ``rules`` (family chosen by the seed when not given)."""
    check_family(family)
    if rules_of(rules).name == "source":
        from belief.envs.blocks.tasks_source import generate_source

        return generate_source(seed, family)
    return generate_project(seed, family)


def generate_project(seed: int, family: str | None = None) -> Task:
    """The project variant's task of ``seed``: 2-5 block goals in a 5 x 4 x 3 box, five colours."""
    rng = random.Random(f"coblock:{seed}:{family}")
    family = family or FAMILIES[seed % len(FAMILIES)]
    check_family(family)
    orders: dict = {}
    if family in ("independent", "skill"):
        for a in AGENTS:
            xs = REGIONS[a]
            orders[a] = _grow(rng, rng.randint(3, 5), lambda c, xs=xs: c[0] in xs, {})
    else:
        base, top = rng.sample(AGENTS, 2)
        orders[base] = _grow(rng, rng.randint(3, 5), lambda c: c[1] == 0, {})
        orders[top] = _grow(rng, rng.randint(2, 4), lambda c: c[1] > 0, dict.fromkeys(orders[base], True))
    goals = {a: {c: rng.choice(COLOURS) for c in orders[a]} for a in AGENTS}
    builder = {c: a for a in AGENTS for c in goals[a]}
    inventories = {a: Counter(goals[a].values()) for a in AGENTS}
    lacking: dict = {a: set() for a in AGENTS}
    if family == "skill":
        first = rng.choice(AGENTS)
        dependents = [first] + ([a for a in AGENTS if a != first] if rng.random() < 0.4 else [])
        for d in dependents:
            helper = next(a for a in AGENTS if a != d)
            colour = choose_lacking(rng, goals, lacking, d, helper)
            if colour is None:
                continue
            moved = inventories[d].pop(colour)
            inventories[helper][colour] += moved
            for c, col in goals[d].items():
                if col == colour:
                    builder[c] = helper
    for a in AGENTS:  # one spare block, of a colour the agent is not meant to lack
        inventories[a][rng.choice([c for c in COLOURS if c not in lacking[a]])] += 1
    order = _interleave(orders["alice"], orders["bob"]) if family != "goal" else orders[base] + orders[top]
    target = {c: col for g in goals.values() for c, col in g.items()}
    task = Task(family, seed, goals, inventories, tuple(Step(c, target[c], builder[c]) for c in order), "project")
    replay_plan(task)
    return task


__all__ = ["FAMILIES", "check_family", "generate", "generate_project", "replay_plan"]
