"""ToM questions of ``household_v0``: the kernel's selector on this world's cells, asked as the episode goes.

After every step each agent ("you") may be asked, about every object's place (``in(o)``: a receptacle, or the
agent holding it) and every container's state (``open(c)``), "Where do you think Bob thinks the cupcake is?"
(value), "Does Bob know where the cupcake is?" (knows) or "Are you aware that Bob knows ...?" (aware), for
chains of 1 to :data:`DEPTH` agents (:func:`belief.envs.base.selected.perspective_cells`). The selector
(:mod:`belief.grading.selector`) keeps the cells where the gold (the checker on the global trace) differs from
a shortcut of the kernel's panel or shows a named phenomenon, balanced per template
(:func:`belief.envs.base.selected.perspective_template`: ``knows/first_order/in``, ``knows/self/open``, ...)
once the episode is over. Nothing here depends on the apartment's size or layout: the fluents are read from
the trace's own objects and containers.

With two agents who perceive only their own room, and see each other whenever they share one, a chain of two
or more agents holds exactly what both saw together: the public record answers it, so the balance keeps none
of those (docs/worlds/household.md has the measured table).
"""

from __future__ import annotations

from typing import Iterable

from belief.envs.base.selected import PERSPECTIVE_DEPTH as DEPTH
from belief.envs.base.selected import PERSPECTIVE_LIMITS as LIMITS
from belief.envs.base.selected import PerspectiveSet
from belief.envs.base.selected import perspective_depth as depth_for
from belief.grading.render import Phrasing


def phrasing(agents: Iterable[str] = ()) -> Phrasing:
    """Agents by name ("Alice"); objects, furniture and agents as the trace names them ("the cupcake_1", "the
    fridge_1", "bob"), so an answer names the same place the trace does."""
    people = set(agents)

    def fact(fluent: tuple, values) -> str:
        if fluent[0] == "open":
            return f"whether the {fluent[1]} is open"
        return f"where the {fluent[1]} is"

    def subject(fluent: tuple) -> tuple[str, str]:
        if fluent[0] == "open":
            return "what", f"the state (open or closed) of the {fluent[1]}"
        return "where", f"the {fluent[1]}"

    def value(v: str) -> str:
        return v if v in people or v in ("open", "closed") else f"the {v}"

    return Phrasing(fact=fact, subject=subject, value=value)


def selected_set(meta: dict, agents: Iterable[str], objects: Iterable[str], containers: Iterable[str],
                 seed: object = None) -> PerspectiveSet:
    """The selected set of one household_v0 episode (:class:`belief.envs.base.selected.PerspectiveSet`): every
    object's place and every container's state, chains of 1 to :data:`DEPTH` agents."""
    agents = tuple(agents)
    fluents = [("in", o) for o in objects] + [("open", c) for c in containers]
    return PerspectiveSet(meta, agents, fluents, phrasing(agents), name="household", seed=seed, depth=depth_for(agents),
                          limits=LIMITS)


__all__ = ["DEPTH", "LIMITS", "depth_for", "phrasing", "selected_set"]
