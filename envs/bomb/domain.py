"""The bomb-defusal game as a belief domain: types, predicates, entity names and static facts.

Facts about a game (:mod:`belief.envs.bomb.environment`) live in the ``bomb`` domain: agents ``AT`` rooms, bombs
``IN`` rooms, a bomb's remaining colour sequence (``seq(bomb_3, red_green)``, ``none`` once defused), its
``state`` (active/defused), the cutters each agent ``has`` and the hallways (``adjacent``). Used by the
rule translator (:mod:`belief.envs.bomb.translation`) and by the agents that keep a belief store.
"""

from __future__ import annotations

import functools
import itertools
from typing import Iterable

from belief.logic.domain import Domain
from belief.logic.formula import Atom, Fact

BOMB_AGENTS = ("alpha", "bravo", "charlie")
BOMB_COLOURS = ("red", "green", "blue")
BOMB_CUTTERS = {"alpha": ("red", "green"), "bravo": ("green", "blue"), "charlie": ("blue", "red")}
BOMB_ROOMS = (0, 3, 5, 6, 8)
BOMB_EDGES = ((0, 3), (0, 5), (0, 6), (0, 8), (3, 8), (5, 6), (6, 8))
BOMB_DOMAIN_TEXT = """
; The bomb-defusal game: agents in rooms, bombs with a remaining colour sequence, wire cutters per agent.
(define (domain bomb)
  (:types room bomb sequence cutter bomb_state - entity)
  (:constants red_cutter green_cutter blue_cutter - cutter  active defused - bomb_state)
  (:predicates (at ?a - agent ?r - room)
               (in ?b - bomb ?r - room)
               (seq ?b - bomb ?s - sequence)
               (state ?b - bomb ?s - bomb_state)
               (has ?a - agent ?c - cutter)
               (adjacent ?r - room ?s - room))
  (:functional at in seq state))
"""


def seq_name(colours: Iterable[str]) -> str:
    """The entity naming a remaining sequence: ``red_green``; ``none`` once defused."""
    colours = [c.lower() for c in colours]
    return "_".join(colours) if colours else "none"


def cutter_name(colour: str) -> str:
    """The entity naming a wire cutter: ``red_cutter``."""
    return f"{colour.lower()}_cutter"


def bomb_entities(rooms=BOMB_ROOMS, bombs: Iterable[int] = range(1, 6), agents=BOMB_AGENTS,
                  max_phases: int = 3) -> dict[str, str]:
    """The known entities of one game: agents, ``room_<r>``, ``bomb_<b>`` and every sequence name."""
    ents = {a: "agent" for a in agents}
    ents.update({f"room_{r}": "room" for r in rooms})
    ents.update({f"bomb_{b}": "bomb" for b in bombs})
    ents["none"] = "sequence"
    for n in range(1, max_phases + 1):
        for combo in itertools.product(BOMB_COLOURS, repeat=n):
            ents[seq_name(combo)] = "sequence"
    return ents


def bomb_static_facts(rooms=BOMB_ROOMS, edges=BOMB_EDGES, cutters=None) -> tuple[Fact, ...]:
    """Reality that never changes in one game: the hallways (both ways) and each agent's cutters."""
    cutters = cutters or BOMB_CUTTERS
    out = []
    for a, b in edges:
        out.append(Fact(Atom("adjacent", (f"room_{a}", f"room_{b}"))))
        out.append(Fact(Atom("adjacent", (f"room_{b}", f"room_{a}"))))
    for agent, cols in cutters.items():
        for c in cols:
            out.append(Fact(Atom("has", (agent, cutter_name(c)))))
    return tuple(out)


@functools.lru_cache(maxsize=None)
def bomb_domain() -> Domain:
    """The ``bomb`` domain (parsed once)."""
    return Domain.parse(BOMB_DOMAIN_TEXT)


__all__ = ["BOMB_AGENTS", "BOMB_COLOURS", "BOMB_CUTTERS", "BOMB_DOMAIN_TEXT", "BOMB_EDGES", "BOMB_ROOMS",
           "bomb_domain", "bomb_entities", "bomb_static_facts", "cutter_name", "seq_name"]
