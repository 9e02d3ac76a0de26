"""Seeded COBLOCK tasks under the source's rules: goals made of its five structure types, solvable by construction.

The source builds its 24 target structures from "five types of common structures: symbol, bridge, arch,
tower, and rectangle" (appendix A.1; the arch's rule: two pillars of height > 3 and width 1, more than 3
apart). Its tasks are not published (they live in the study's database), so they are generated here by
seed, with these types and sizes (a goal of 4-13 blocks, a task of 8-26, about 16 on average; the paper's
bridge example has two 4-block pillars and a 4-block deck):

* ``tower``: a column of 3-5 blocks, one or two colours;
* ``rectangle``: a flat 2-4 x 2-3 block rectangle on the ground, one or two colours;
* ``bridge``: two pillars of 2-3 blocks, 4-5 apart end to end, and a deck across their tops;
* ``arch``: two pillars of 4 blocks, 5 apart end to end, and a lintel across;
* ``symbol``: a letter standing in the x-y plane: L (5 blocks), T (6) or U (7).

Families (the source's three; each agent's inventory holds only colours of the target, one spare block of
each colour it holds):

* ``independent``: alice builds in x 0-4, bob in x 5-9; each holds the colours of its own goal;
* ``skill``: the same structures, but one agent (sometimes both) lacks every block of a colour its goal
  needs and the partner holds them (the source: "the skill-dependent structures share the same structures
  but with different inventories");
* ``goal``: one agent's goal (a ground rectangle, or a bridge's two pillars) carries the other's (towers or
  a wall on the rectangle, the deck on the pillars): order matters; half of them also lack a colour.

Every task carries a build order with a builder per block (``Task.plan``) and is replayed before it is
returned (:func:`belief.envs.blocks.world.replay_plan`).
"""

from __future__ import annotations

import random
from collections import Counter

from belief.envs.blocks.world import SOURCE
from belief.envs.blocks.lacking import choose_lacking
from belief.envs.blocks.world import AGENTS, BlocksError, Step, Task, replay_plan, supported

FAMILIES = ("independent", "skill", "goal")
SHAPES = ("tower", "rectangle", "bridge", "arch", "symbol")
REGIONS = {"alice": 0, "bob": 5}   # first x of each agent's 5-wide area (independent, skill)
COLOURS = SOURCE.colours


def _two_colours(rng):
    a, b = rng.sample(COLOURS, 2)
    return a, (b if rng.random() < 0.5 else a)


def tower(rng, x0: int, z0: int) -> dict:
    h = rng.randint(3, 5)
    low, high = _two_colours(rng)
    cut = rng.randint(1, h)
    x = x0 + rng.randint(0, 4)
    return {(x, y, z0): (low if y < cut else high) for y in range(h)}


def rectangle(rng, x0: int, z0: int) -> dict:
    w, d = rng.randint(2, 4), rng.randint(2, 3)
    a, b = _two_colours(rng)
    x1, z1 = x0 + rng.randint(0, 5 - w), min(z0, 4 - d)
    return {(x1 + i, 0, z1 + k): (a if k % 2 == 0 else b) for i in range(w) for k in range(d)}


def bridge(rng, x0: int, z0: int) -> dict:
    span, h = rng.randint(4, 5), rng.randint(2, 3)
    pillar, deck = rng.sample(COLOURS, 2)
    x1 = x0 + rng.randint(0, 5 - span)
    cells = {(x, y, z0): pillar for x in (x1, x1 + span - 1) for y in range(h)}
    cells.update({(x, h, z0): deck for x in range(x1, x1 + span)})
    return cells


def arch(rng, x0: int, z0: int) -> dict:
    pillar, lintel = _two_colours(rng)
    cells = {(x, y, z0): pillar for x in (x0, x0 + 4) for y in range(4)}
    cells.update({(x, 4, z0): lintel for x in range(x0, x0 + 5)})
    return cells


def symbol(rng, x0: int, z0: int) -> dict:
    colour = rng.choice(COLOURS)
    letter = rng.choice("LTU")
    x1 = x0 + rng.randint(0, 2)
    if letter == "L":
        cells = [(x1, y) for y in range(3)] + [(x1 + 1, 0), (x1 + 2, 0)]
    elif letter == "T":
        cells = [(x1 + 1, 0), (x1 + 1, 1), (x1 + 1, 2), (x1, 2), (x1 + 2, 2), (x1 + 1, 3)]
    else:
        cells = [(x1, y) for y in range(3)] + [(x1 + 2, y) for y in range(3)] + [(x1 + 1, 0)]
    return {(x, y, z0): colour for x, y in cells}


BUILDERS = {"tower": tower, "rectangle": rectangle, "bridge": bridge, "arch": arch, "symbol": symbol}


def build_order(cells, existing=()) -> list:
    """``cells`` in an order gravity (the source's six-neighbour support) allows on top of ``existing``."""
    placed = set(existing)
    todo = sorted(cells, key=lambda c: (c[1], c))
    out = []
    while todo:
        nxt = next((c for c in todo if supported(c, placed, hang=True)), None)
        if nxt is None:
            raise BlocksError(f"cells {todo} cannot be built on {sorted(placed)}")
        todo.remove(nxt)
        placed.add(nxt)
        out.append(nxt)
    return out


def _goal_family(rng) -> tuple[dict, dict, tuple]:
    base, top = rng.sample(AGENTS, 2)
    x0, z0 = rng.randint(0, 5), rng.randint(0, 1)
    if rng.random() < 0.5:   # pillars carry a deck (and perhaps a tower on it)
        h = rng.randint(2, 3)
        pillar, deck = rng.sample(COLOURS, 2)
        low = {(x, y, z0): pillar for x in (x0, x0 + 4) for y in range(h)}
        high = {(x, h, z0): deck for x in range(x0, x0 + 5)}
        if rng.random() < 0.5:
            high.update({(x0 + 2, y, z0): deck for y in range(h + 1, h + 3)})
        shapes = ((base, "bridge pillars"), (top, "bridge deck"))
    else:                    # a ground rectangle carries towers or a wall
        w, d = rng.randint(3, 5), rng.randint(2, 3)
        a, b = _two_colours(rng)
        low = {(x0 + i, 0, z0 + k): (a if k % 2 == 0 else b) for i in range(w) for k in range(d)}
        colour = rng.choice(COLOURS)
        if rng.random() < 0.5:
            xs = rng.sample(range(x0, x0 + w), 2)
            high = {(x, y, z0): colour for x in xs for y in range(1, rng.randint(3, 4))}
            shapes = ((base, "rectangle"), (top, "tower"))
        else:
            high = {(x0 + i, y, z0 + d - 1): colour for i in range(w) for y in (1, 2)}
            shapes = ((base, "rectangle"), (top, "wall"))
    goals = {base: low, top: high}
    return goals, build_order(low) + build_order(high, low), shapes


def generate_source(seed: int, family: str | None = None) -> Task:
    """The source-rules task of ``seed`` (family chosen by the seed when not given)."""
    rng = random.Random(f"coblock-source:{seed}:{family}")
    family = family or FAMILIES[seed % len(FAMILIES)]
    if family == "goal":
        goals, order, shapes = _goal_family(rng)
    else:
        goals, orders, names = {}, {}, []
        for a in AGENTS:
            shape = rng.choice(SHAPES)
            goals[a] = BUILDERS[shape](rng, REGIONS[a], rng.randint(0, 3))
            orders[a] = build_order(goals[a])
            names.append((a, shape))
        shapes = tuple(names)
        order = []
        for i in range(max(len(o) for o in orders.values())):
            order += [orders[a][i] for a in AGENTS if i < len(orders[a])]
    builder = {c: a for a in AGENTS for c in goals[a]}
    inventories = {a: Counter(goals[a].values()) for a in AGENTS}
    lacking: dict = {a: set() for a in AGENTS}
    if family == "skill" or (family == "goal" and rng.random() < 0.5):
        first = rng.choice(AGENTS)
        dependents = [first] + ([a for a in AGENTS if a != first] if family == "skill" and rng.random() < 0.4 else [])
        for d in dependents:
            helper = next(a for a in AGENTS if a != d)
            colour = choose_lacking(rng, goals, lacking, d, helper)
            if colour is None:
                continue
            cells = [c for c in order if goals[d].get(c) == colour]
            # a goal of several colours lacks this one; a one-colour goal keeps about half of it ("I only
            # have three green blocks", the source's figure 1)
            keep = 0 if len(set(goals[d].values())) > 1 else len(cells) // 2
            inventories[d][colour] = keep
            inventories[helper][colour] += len(cells) - keep
            for c in cells[keep:]:
                builder[c] = helper
    for a in AGENTS:   # one spare block of each colour held
        for c in list(inventories[a]):
            if inventories[a][c] > 0:
                inventories[a][c] += 1
    target = {c: col for g in goals.values() for c, col in g.items()}
    task = Task(family, seed, goals, inventories, tuple(Step(c, target[c], builder[c]) for c in order), "source",
                shapes)
    replay_plan(task)
    return task


__all__ = ["FAMILIES", "SHAPES", "BUILDERS", "build_order", "generate_source"]
