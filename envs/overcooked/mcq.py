"""CoordinationQA-style multiple-choice questions about Overcooked states (LLM-Coordination's CoordQA asks
Environment Comprehension, ToM and Joint Planning questions about fixed game states).

Asked of chef A at a state, with the options listed:

================  ========  =====================================================  ============================
type              category  question                                               gold
================  ========  =====================================================  ============================
``pot_state``     EC        What is in the pot at X?                               the pot's content
``partner_held``  EC        What is B holding?                                     B's held item
``partner_next``  ToM       Which subgoal is B pursuing?                           B's subgoal from its own plan
================  ========  =====================================================  ============================

Three answerers score every set beside the chefs: ``random`` (a seeded uniform pick among the options),
``majority`` (added by :func:`belief.grading.trivial.tom_table`) and ``heuristic`` (reads the state for EC; for
``partner_next`` the rule of what B holds: nothing -> fetch an onion, an onion -> fill a pot, a dish -> take
the soup, a soup -> serve). No Joint Planning type: its gold would need an optimal joint planner this
project does not have.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field

from belief.envs.overcooked.events import CHEFS, SUBGOALS, cell, held_value, pot_value

POT_OPTIONS = ("empty", "onions_1", "onions_2", "onions_3", "cooking", "ready")
HELD_OPTIONS = ("nothing", "onion", "dish", "soup")
CATEGORY = {"pot_state": "EC", "partner_held": "EC", "partner_next": "ToM"}
HELD_RULE = {"nothing": "fetch_onion", "onion": "fill_pot", "dish": "take_soup", "soup": "serve"}


@dataclass
class Choice:
    id: str
    type: str
    asked: str
    text: str
    options: list = field(default_factory=list)
    gold: str = ""
    heuristic: str = ""
    subject: list = field(default_factory=list)  # the pot's cell [x, y] (pot_state)

    @property
    def category(self) -> str:
        return CATEGORY[self.type]

    def to_json(self) -> dict:
        return {**asdict(self), "category": self.category}

    def public(self) -> dict:
        """What a chef is shown (no gold, no heuristic answer)."""
        d = self.to_json()
        d.pop("gold"), d.pop("heuristic")
        return d


def choices_at(env, intents: dict, rng: random.Random, prefix: str) -> list:
    """The multiple-choice questions of one state of ``env`` for each chef (``intents``: each chef's
    current subgoal from its own plan; a chef without one gets no ``partner_next`` question)."""
    s = env.state
    out = []
    for i, asked in enumerate(CHEFS):
        b = CHEFS[1 - i]
        pots = env.mdp.get_pot_locations()
        pot = pots[rng.randrange(len(pots))]
        v = pot_value(s, pot)
        out.append(Choice(f"{prefix}-{asked}-pot", "pot_state", asked, f"What is in the pot at {cell(pot)}?",
                          list(POT_OPTIONS), v, v, list(pot)))
        held = held_value(s.players[1 - i])
        out.append(Choice(f"{prefix}-{asked}-held", "partner_held", asked, f"What is {b.capitalize()} holding?",
                          list(HELD_OPTIONS), held, held))
        if intents.get(b):
            out.append(Choice(f"{prefix}-{asked}-next", "partner_next", asked,
                              f"Which subgoal is {b.capitalize()} pursuing?", list(SUBGOALS), intents[b],
                              HELD_RULE[held]))
    return out


def rows_of(choices, answers: dict, seed: int) -> list:
    """``tom_table`` rows: each question's gold and the answers of ``random``, ``heuristic`` and the chefs
    (``answers``: {id: {answerer: answer}})."""
    rng = random.Random(f"overcooked:mcq:random:{seed}")
    return [{"type": c.type, "gold": c.gold, "category": c.category,
             "answers": {"random": rng.choice(c.options), "heuristic": c.heuristic, **answers.get(c.id, {})}}
            for c in choices]


__all__ = ["Choice", "CATEGORY", "POT_OPTIONS", "HELD_OPTIONS", "choices_at", "rows_of"]
