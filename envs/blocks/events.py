"""What each COBLOCK builder observes, written as events of the general trace vocabulary.

Fluents (values are strings):

=============================  ==============================================================
``block(cell_X_Y_Z)``          the colour of the block there, or ``empty``: public (the shared
                               workspace is in view of both builders)
``target(cell_X_Y_Z)``         the colour a goal wants there (only for goal cells): private
``owner(cell_X_Y_Z)``          whose goal the cell belongs to: private
``inventory(agent, colour)``   how many blocks of that colour the agent holds: private
=============================  ==============================================================

Observation model:

* setup (seen by nobody) writes goals and inventories; the empty grid is public;
* each builder reads its own goal and inventory; the partner witnesses it (each knows the other knows its
  own goal, without knowing what it is);
* a placement or a removal is seen by both (``action`` visible to both); the actor's inventory changes
  privately: the partner sees a *possible change* of that count, and if it held the old count it learns
  the new one (a conditional observation: "who knew Alice had 3 red blocks and sees her place one knows
  she has 2"); the actor sees its new count, and the partner witnesses that it does;
* a message (``announce`` to the partner) carries facts of these fluents (goal cells, counts); what the
  hearer believes goes through the trust policy, as everywhere.
"""

from __future__ import annotations

from belief.envs.blocks.world import rules_of
from belief.envs.blocks.world import AGENTS, CELLS, cell_name
from belief.truth.trace import Action, Announce, Condition, Content, Effect, Observe

EVERYONE = tuple(AGENTS)


def f_block(cell) -> tuple:
    return ("block", cell_name(cell))


def f_target(cell) -> tuple:
    return ("target", cell_name(cell))


def f_owner(cell) -> tuple:
    return ("owner", cell_name(cell))


def f_inventory(agent: str, colour: str) -> tuple:
    return ("inventory", agent, colour)


def _eff(f, v) -> Effect:
    return Effect(predicate=f[0], subject=f[1:], value=str(v))


def private_fluents(task, agent: str) -> tuple:
    """What ``agent`` knows from the start: its goal cells (target, owner) and its inventory."""
    cells = sorted(task.goals[agent])
    return (tuple(f for c in cells for f in (f_target(c), f_owner(c)))
            + tuple(f_inventory(agent, col) for col in rules_of(task.rules).colours))


def setup_events(task, source: str) -> list:
    effects = [_eff(f, v) for a in AGENTS for c, col in sorted(task.goals[a].items())
               for f, v in ((f_target(c), col), (f_owner(c), a))]
    effects += [_eff(f_inventory(a, col), task.inventories[a][col]) for a in AGENTS for col in rules_of(task.rules).colours]
    out = [Action(name="setup", effects=tuple(effects), visible_to=(), source=source),
           Action(name="start", effects=tuple(_eff(f_block(c), "empty") for c in CELLS), visible_to=EVERYONE,
                  source=source)]
    out += [Observe(agents=(a,), fluents=private_fluents(task, a), witnesses=EVERYONE, source=source) for a in AGENTS]
    return out


def inventory_change_events(agent: str, colour: str, before: int, after: int, source: str) -> list:
    """``agent``'s count of ``colour`` went from ``before`` to ``after``; the partner saw it use or take one."""
    f = f_inventory(agent, colour)
    partner = tuple(a for a in EVERYONE if a != agent)
    # no ``possible`` event: a partner who knew the old count learns the new one below, and one who did not
    # stays unaware; a ``possible`` first would leave the partner's own record unsure of the old count, so
    # its conditional look would fail there while the global checker grants it
    return [Action(name="inventory", agent=agent, effects=(_eff(f, after),), visible_to=(), source=source),
            # the actor sees its blocks, and both know it does; whoever knew the old count knows the new one
            Observe(agents=(agent,), fluents=(f,), witnesses=EVERYONE, source=source),
            Observe(agents=partner, fluents=(f,), given=Condition(fluent=f, values=(str(before),)),
                    witnesses=EVERYONE, source=source)]


def move_event(agent: str, name: str, cell, colour, source: str, params: dict) -> Action:
    """The public move itself (last event of a turn: questions are asked after it)."""
    effects = () if cell is None else (_eff(f_block(cell), colour if name == "place" else "empty"),)
    return Action(name=name, agent=agent, effects=effects, visible_to=EVERYONE, params=params, source=source)


def message_event(sender: str, facts, source: str):
    """``facts``: (fluent, value) pairs of this module's fluents, told to the partner."""
    content = tuple(Content(predicate=f[0], subject=f[1:], value=str(v)) for f, v in facts)
    if not content:
        return None
    audience = tuple(a for a in AGENTS if a != sender)
    return Announce(sender=sender, audience=audience, content=content, source=source)


__all__ = ["EVERYONE", "f_block", "f_target", "f_owner", "f_inventory", "private_fluents", "setup_events",
           "inventory_change_events", "move_event", "message_event"]
