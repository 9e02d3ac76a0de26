"""The two rule sets of the COBLOCK world: the source's (default) and this project's earlier variant.

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

from dataclasses import dataclass

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
