"""What every COBLOCK agent shares: its private trace, the checker on it, and its ToM answers.

The agent's record is only what the env handed it (``env.take_perceived``): its own goal and inventory,
the public moves, the messages it heard. Beliefs about the partner are the checker's answers for the
partner's chain on that record.
"""

from __future__ import annotations

from belief.agents.protocol import ChoosingAgent
from belief.truth.record import PrivateRecord
from belief.envs.blocks.tom import answer as question_answer
from belief.envs.blocks.tom import chain_of, question_fluent
from belief.envs.blocks.text import remove_action
from belief.envs.blocks.world import AGENTS, Cell, resting_on
from belief.grading.questions import NO, YES, private_answer, question_from_dict
from belief.grading.render import say
from belief.truth.index import is_marker


def cell_of(name: str) -> Cell:
    """``cell_1_0_2`` -> (1, 0, 2)."""
    return tuple(int(v) for v in name.split("_")[1:])  # type: ignore[return-value]


def low_first(cells) -> list:
    """The cells from the lowest up (then by position)."""
    return sorted(cells, key=lambda c: (c[1], c))


def block_to_remove(built: dict, cell: Cell, hang: bool, mask) -> Cell | None:
    """The block to remove to take away the one at ``cell``: itself, else the highest block resting on it
    that the mask lets go; None when the mask allows none of them."""
    for r in [cell] + low_first(resting_on(built, cell, hang))[::-1]:
        if mask[remove_action(r)]:
            return r
    return None


class BlocksPlayer(ChoosingAgent):
    """A builder under the agent protocol: :meth:`choose` gives the action and the facts to tell with it (a
    MESSAGE action's facts; empty: the env's default message)."""

    _chosen_message: list = []


class BlocksAgent(BlocksPlayer):
    kind = "agent"

    def __init__(self, name: str):
        self.name = name
        self.partner = next(a for a in AGENTS if a != name)
        self.private_record = PrivateRecord(name)  # what it perceived, and the checker on it, kept up to date

    @property
    def record(self):
        """The private trace so far."""
        return self.private_record.trace

    def perceive(self, events, info: dict | None = None) -> None:
        self.private_record.add(events)

    @property
    def truth(self):
        """The general checker on this agent's private trace (incremental: it costs what the new events cost)."""
        return self.private_record.truth()

    def held(self, chain, fluent):
        """The definite value ``chain`` holds in this agent's record, or None (unknown or unsure)."""
        v = self.truth.value(chain, fluent)
        return None if v is None or is_marker(v) else v

    def goals(self, chain) -> dict:
        """The goal cells ``chain`` holds a target colour and an owner for: cell -> (colour, owner)."""
        out = {}
        for f in self.truth.fluents():
            if f[0] == "target":
                colour, owner = self.held(chain, f), self.held(chain, ("owner", f[1]))
                if colour is not None:
                    out[cell_of(f[1])] = (colour, owner)
        return out

    def answer(self, q: dict) -> str:
        """Yes when the chain holds a definite value of the fact in this record (no one lies here, so a
        definite belief is knowledge) or the checker grants the knowledge on the record; a question of the
        general model (``q["question"]``: the selected set) is answered the same way
        (:func:`belief.grading.questions.private_answer`)."""
        if "question" in q:
            general = question_from_dict(q["question"])[0]
            yes = (self.held(general.chain, general.fluent) is not None
                   or private_answer(self.truth, general) == YES)
            return say(general, YES if yes else NO)
        chain = chain_of(q)
        yes = self.held(chain, question_fluent(q["template"], q["subject"])) is not None or question_answer(self.truth, q)
        return ("Yes. " if yes else "No. ") + ("I think so: " if yes else "I do not think so: ") + q["text"]


__all__ = ["BlocksAgent", "BlocksPlayer", "block_to_remove", "cell_of", "low_first"]
