"""ToM questions of ``transport_v0``: the kernel's selector on this world's cells, asked as the episode goes.

After every step each agent ("you") may be asked, about every target's and container's place (``in(o)``: a
room, a container, the bed, or the agent holding it) and every room's team search level (``explored(r)``:
none / part / all), "Where do you think Bob thinks apple_1 is?" (value), "Does Bob know where apple_1 is?"
(knows) or "Are you aware that Bob knows ...?" (aware), for chains of 1 to :data:`DEPTH` agents
(:func:`belief.envs.base.selected.perspective_cells`). The selector keeps the cells where the gold (the checker
on the global trace) differs from a shortcut of the kernel's panel or shows a named phenomenon, balanced per
template (``knows/first_order/in``, ``knows/self/explored``, ...). The fluents are read from the episode's
own objects and rooms, so any house (fixed or generated, 2 to 4 agents) is asked the same way.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from belief.envs.base.selected import PERSPECTIVE_DEPTH as DEPTH
from belief.envs.base.selected import PERSPECTIVE_LIMITS as LIMITS
from belief.envs.base.selected import PerspectiveSet
from belief.envs.base.selected import perspective_depth as depth_for
from belief.grading.render import Phrasing, render


def phrasing(agents: Iterable[str] = ()) -> Phrasing:
    """Agents by name ("Alice"); objects, rooms and agents as the trace names them ("apple_1", "kitchen_1",
    "bob"), so an answer names the same place the trace does."""
    def fact(fluent: tuple, values) -> str:
        if fluent[0] == "explored":
            return f"how far {fluent[1]} has been searched"
        return f"where {fluent[1]} is"

    def subject(fluent: tuple) -> tuple[str, str]:
        return ("what", f"the search level of {fluent[1]}") if fluent[0] == "explored" else ("where", fluent[1])

    def special(q) -> str | None:
        if q.kind != "value" or q.fluent[0] != "explored" or not q.chain:
            return None
        return render(replace(q, fluent=("in", q.fluent[1])), plain)[:-len(" is?")] + \
            " has been searched (none, part or all)?"

    plain = Phrasing(subject=lambda f: ("how far", f[1]))
    return Phrasing(fact=fact, subject=subject, value=lambda v: v, special=special)


def selected_set(meta: dict, agents: Iterable[str], objects: Iterable[str], rooms: Iterable[str],
                 seed: object = None) -> PerspectiveSet:
    """The selected set of one transport_v0 episode (:class:`belief.envs.base.selected.PerspectiveSet`): every
    target's and container's place and every room's search level, chains of 1 to :data:`DEPTH` agents."""
    agents = tuple(agents)
    fluents = [("in", o) for o in objects] + [("explored", r) for r in rooms]
    return PerspectiveSet(meta, agents, fluents, phrasing(agents), name="transport", seed=seed, depth=depth_for(agents),
                          limits=LIMITS)


__all__ = ["DEPTH", "LIMITS", "depth_for", "phrasing", "selected_set"]
