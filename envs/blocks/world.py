"""The COBLOCK world: a 3D grid of coloured blocks, gravity, two builders with private inventories.

The action table's grid is ``x`` 0..9, ``y`` (height) 0..5, ``z`` 0..3 with six colours; a task's rules
(the rule sets below) say which part of it is used and how gravity, removal and success work.
Gravity: a block may be placed in an empty cell when the cell is on the ground (``y == 0``), or on top of a
block (``(x, y-1, z)``), or next to a block horizontally (``x±1`` or ``z±1`` at the same height), and under
the source's rules also right under a block (any of the six neighbours). A block may be removed only when
every other block stays connected to the ground through such supports (no floating parts). A placed block
comes from the placer's inventory; a removed block is lost (source) or goes back to the remover (project).

Rule sets: the source's (default) and this project's earlier variant.

``source`` follows "Your Co-Workers Matter" (Wu et al.; code github.com/jnzs1836/coblock):

* six colours (the web portal's palette: red, yellow, green, blue, purple, black);
* a block may be placed on the ground or next to any block (six neighbours, above included: the portal's
  ``checkPlaceBlockValid``), and no structure may float;
* a removed ("broken") block is lost: "the block will not be used anymore" (paper, section 2.1), and the
  portal's inventory counts only the place actions;
* the task ends when the target is built or when *either* agent takes ``end`` (paper, section 2.1);
  the target counts as built when every target block stands there (the portal's ``validCurrentStructure``;
  other blocks may stand too);
* no slips (placements land as chosen; a slip probability is an option);
* timesteps = the number of actions both agents took (paper, "Task Completion Timesteps");
* workload balance (Eq. 2-3): a = N_a * N*_b / N*_a, b = N_b, gamma = a*b / (a^2 + b^2), N the agents' build
  actions and N* the optimal assignment of Algorithm 1 (appendix A.4).

``project`` is this project's first variant: five colours, a 5 x 4 x 3 box, support from below or beside
only, a removed block returns to the remover, slips of 0.1, the end when both agents' latest move is
``end`` and the target equals the structure exactly, timesteps in rounds, gamma over the target blocks each
agent placed, normalised by the best split the inventories allow.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from belief.errors import BeliefError

#: every colour of the action table (the source's six); the project variant uses the first five
ALL_COLOURS = ("red", "green", "blue", "yellow", "purple", "black")
#: the action table's grid: x 0..9, height y 0..5, z 0..3
GRID = (10, 6, 4)


@dataclass(frozen=True)
class Rules:
    name: str
    box: tuple            # (x, y, z) extent of the usable grid, from the origin
    colours: tuple
    slip: float           # default slip probability
    removed_returns: bool  # a removed block goes back to the remover's inventory
    hang: bool            # a block may be supported by the block above it (six-neighbour adjacency)
    either_ends: bool     # one agent's ``end`` ends the episode (else both must end)
    exact_target: bool    # success: structure == target (else every target block is in place)
    timesteps: str        # "actions" (both agents' actions) or "rounds"
    balance: str          # "source" (Eq. 2-3 with Algorithm 1) or "project"
    max_rounds: int = 30

    def in_box(self, cell) -> bool:
        return all(0 <= v < n for v, n in zip(cell, self.box))


SOURCE = Rules("source", GRID, ALL_COLOURS, 0.0, removed_returns=False, hang=True, either_ends=True,
               exact_target=False, timesteps="actions", balance="source", max_rounds=30)
PROJECT = Rules("project", (5, 4, 3), ALL_COLOURS[:5], 0.1, removed_returns=True, hang=False, either_ends=False,
                exact_target=True, timesteps="rounds", balance="project", max_rounds=30)
RULES = {r.name: r for r in (SOURCE, PROJECT)}
DEFAULT_RULES = "source"


class UnknownRulesError(BeliefError):
    """A rule-set name that is not one of :data:`RULES`."""


def rules_of(name) -> Rules:
    if isinstance(name, Rules):
        return name
    if name not in RULES:
        raise UnknownRulesError(f"unknown blocks rules {name!r}; expected one of {', '.join(RULES)}")
    return RULES[name]


__all__ = ["ALL_COLOURS", "GRID", "Rules", "SOURCE", "PROJECT", "RULES", "DEFAULT_RULES", "UnknownRulesError",
           "rules_of"]


AGENTS = ("alice", "bob")
COLOURS = ALL_COLOURS
SIZE = GRID  # x, y (height), z
Cell = tuple[int, int, int]


class BlocksError(BeliefError):
    """An illegal blocks-world move or a malformed task."""


def all_cells() -> list[Cell]:
    return [(x, y, z) for y in range(SIZE[1]) for x in range(SIZE[0]) for z in range(SIZE[2])]


CELLS = tuple(all_cells())
CELL_INDEX = {c: i for i, c in enumerate(CELLS)}


def in_grid(cell: Cell) -> bool:
    return all(0 <= v < n for v, n in zip(cell, SIZE))


def cell_name(cell: Cell) -> str:
    return "cell_{}_{}_{}".format(*cell)


def cell_text(cell: Cell) -> str:
    return "({}, {}, {})".format(*cell)


def supports(cell: Cell, hang: bool = False) -> list[Cell]:
    """The cells whose block would hold a block in ``cell`` (below, the horizontal neighbours, and with
    ``hang`` the cell above)."""
    x, y, z = cell
    near = [(x, y - 1, z), (x - 1, y, z), (x + 1, y, z), (x, y, z - 1), (x, y, z + 1)] + ([(x, y + 1, z)] if hang else [])
    return [c for c in near if in_grid(c)]


def supported(cell: Cell, blocks, hang: bool = False) -> bool:
    return cell[1] == 0 or any(c in blocks for c in supports(cell, hang))


def grounded(blocks, hang: bool = False) -> bool:
    """Is every block connected to the ground through supports (see :func:`supports`, both directions)?"""
    return not floating(blocks, hang)


def resting_on(blocks, cell: Cell, hang: bool = False) -> set:
    """The blocks that would float if the block in ``cell`` were removed."""
    return floating(set(blocks) - {cell}, hang)


def floating(blocks, hang: bool = False) -> set:
    """The blocks not connected to the ground through supports."""
    cells = set(blocks)
    reached = {c for c in cells if c[1] == 0}
    frontier = list(reached)
    while frontier:
        c = frontier.pop()
        x, y, z = c
        near = [(x, y + 1, z), (x - 1, y, z), (x + 1, y, z), (x, y, z - 1), (x, y, z + 1)] + ([(x, y - 1, z)] if hang else [])
        for n in near:
            if n in cells and n not in reached:
                reached.add(n)
                frontier.append(n)
    return cells - reached


@dataclass(frozen=True)
class Step:
    """One block of a task's reference plan: who places which colour where (in a valid order)."""

    cell: Cell
    colour: str
    builder: str


@dataclass
class Task:
    """A COBLOCK task: each agent's private goal (cells -> colours), its private inventory, a plan."""

    family: str
    seed: int
    goals: dict            # agent -> {cell: colour}
    inventories: dict      # agent -> Counter(colour -> count)
    plan: tuple            # Steps in an order gravity allows; proves the task solvable
    rules: str = DEFAULT_RULES
    shapes: tuple = ()     # the source's structure types of each goal, e.g. (("alice", "arch"), ("bob", "tower"))

    @property
    def target(self) -> dict:
        return {c: col for g in self.goals.values() for c, col in g.items()}

    def owner(self, cell: Cell):
        return next((a for a, g in self.goals.items() if cell in g), None)

    def to_json(self) -> dict:
        return {"family": self.family, "seed": self.seed,
                "goals": {a: [[*c, col] for c, col in sorted(g.items())] for a, g in self.goals.items()},
                "inventories": {a: dict(inv) for a, inv in self.inventories.items()},
                "plan": [[*s.cell, s.colour, s.builder] for s in self.plan], "rules": self.rules,
                "shapes": [list(x) for x in self.shapes]}


@dataclass
class World:
    task: Task
    blocks: dict = field(default_factory=dict)      # cell -> colour
    placed_by: dict = field(default_factory=dict)   # cell -> agent
    inventories: dict = field(default_factory=dict)

    @classmethod
    def start(cls, task: Task) -> "World":
        return cls(task, inventories={a: Counter(inv) for a, inv in task.inventories.items()})

    @property
    def rules(self):
        return rules_of(self.task.rules)

    def can_place(self, agent: str, cell: Cell, colour: str) -> bool:
        return (self.rules.in_box(cell) and cell not in self.blocks and self.inventories[agent][colour] > 0
                and supported(cell, self.blocks, self.rules.hang))

    def placeable_cells(self) -> list[Cell]:
        """The empty cells of the rules' box where gravity allows a block now (any colour)."""
        rules = self.rules
        return [c for c in CELLS if c not in self.blocks and rules.in_box(c) and supported(c, self.blocks, rules.hang)]

    def can_remove(self, cell: Cell) -> bool:
        if cell not in self.blocks:
            return False
        rest = dict(self.blocks)
        del rest[cell]
        return grounded(rest, self.rules.hang)

    def place(self, agent: str, cell: Cell, colour: str) -> None:
        if not self.can_place(agent, cell, colour):
            raise BlocksError(f"{agent} cannot place {colour} at {cell_text(cell)}")
        self.blocks[cell] = colour
        self.placed_by[cell] = agent
        self.inventories[agent][colour] -= 1

    def remove(self, agent: str, cell: Cell) -> str:
        if not self.can_remove(cell):
            raise BlocksError(f"{agent} cannot remove the block at {cell_text(cell)}")
        colour = self.blocks.pop(cell)
        self.placed_by.pop(cell, None)
        if self.rules.removed_returns:
            self.inventories[agent][colour] += 1
        return colour

    def complete(self) -> bool:
        target = self.task.target
        if self.rules.exact_target:
            return self.blocks == target
        return all(self.blocks.get(c) == col for c, col in target.items())

    def workload(self) -> dict:
        """Blocks of the target structure (right colour, right cell) per agent who placed them."""
        target = self.task.target
        counts = Counter(self.placed_by[c] for c, col in self.blocks.items() if target.get(c) == col)
        return {a: counts.get(a, 0) for a in AGENTS}


def replay_plan(task: Task) -> World:
    """Build the task by its plan; BlocksError if a step breaks gravity or an inventory (never, by construction)."""
    w = World.start(task)
    for s in task.plan:
        w.place(s.builder, s.cell, s.colour)
    if not w.complete():
        raise BlocksError(f"task {task.seed}: the plan does not build the target")
    return w



def balance(a: int, b: int) -> float:
    """Workload balance gamma = a*b / (a^2 + b^2): 0.5 when equal, 0 when one agent did everything."""
    return a * b / (a * a + b * b) if a or b else 0.0


def optimal_balance(task: Task) -> float:
    """gamma of the most balanced assignment the inventories allow (any agent may place any block it holds).

    Per colour c with n_c target blocks, alice can place k_c blocks for any k_c in
    [max(0, n_c - bob's c), min(n_c, alice's c)]; alice's total ranges over the sums of those bounds (every
    integer between is reachable), so the best split is the reachable total closest to N/2.
    """
    need = Counter(task.target.values())
    ia, ib = (task.inventories[a] for a in AGENTS)
    lo = sum(max(0, n - ib[c]) for c, n in need.items())
    hi = sum(min(n, ia[c]) for c, n in need.items())
    n = sum(need.values())
    a = min(max(n // 2, lo), hi)
    best = max((balance(k, n - k) for k in {a, min(max((n + 1) // 2, lo), hi)}), default=0.0)
    return best


def optimal_assignment(task: Task) -> dict:
    """Algorithm 1 of the source (appendix A.4): target blocks of a colour only one agent holds go to it; the
    blocks of colours both hold are dealt one by one to the agent with fewer blocks so far (alice on ties),
    never beyond what an agent holds. Returns ``{agent: N*}``."""
    ia, ib = (task.inventories[a] for a in AGENTS)
    count = {a: 0 for a in AGENTS}
    mutual = []
    for cell, c in sorted(task.target.items()):
        if ia[c] > 0 and ib[c] > 0:
            mutual.append(c)
        else:
            count["alice" if ia[c] > 0 else "bob"] += 1
    used = {a: Counter() for a in AGENTS}
    for c in mutual:
        first = "alice" if count["alice"] <= count["bob"] else "bob"
        other = "bob" if first == "alice" else "alice"
        who = first if used[first][c] < task.inventories[first][c] else other
        used[who][c] += 1
        count[who] += 1
    return count


def source_balance(actions: dict, optimal: dict):
    """Eq. 2-3 of the source: a = N_a * N*_b / N*_a, b = N_b, gamma = a*b / (a^2 + b^2) (0.5 when the agents
    split the work as the optimal assignment does); None when the optimal assignment leaves an agent nothing
    (the normalisation is undefined)."""
    na, nb = (actions[a] for a in AGENTS)
    sa, sb = (optimal[a] for a in AGENTS)
    if sa == 0 or sb == 0:
        return None
    return balance(na * sb / sa, nb)


__all__ = ["AGENTS", "COLOURS", "SIZE", "CELLS", "CELL_INDEX", "Cell", "BlocksError", "Step", "Task", "World",
           "all_cells", "in_grid", "cell_name", "cell_text", "supports", "supported", "grounded", "floating",
           "resting_on", "balance",
           "optimal_balance", "optimal_assignment", "source_balance", "replay_plan"]
