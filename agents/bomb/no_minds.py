"""The belief agent with its beliefs about teammates switched off: the ablation that shows what they earn.

Everything else is the belief agent's (:class:`belief.agents.bomb.belief.BeliefAgent`): the same record of
what it perceived, the same planning over rooms, bombs and sequences, the same team protocol (a tool is applied
once the sequence is common knowledge through the delivered messages). What goes is its model of what each
teammate knows: it never assumes a teammate knows anything, so each message tells everything it knows (the
environment cuts a message at 600 characters), it inspects a bomb unless it knows the sequence itself, and it
answers a ToM question about a teammate as if asked about itself ("Does Bravo know F?" read as "Do I know F?").
"""

from __future__ import annotations

from belief.agents.bomb.belief import PHRASING, BeliefAgent
from belief.grading.questions import private_answer
from belief.grading.render import say


class NoMindsAgent(BeliefAgent):
    kind = "no_minds"

    def _knows(self, chain, fluent) -> bool:
        # no model of teammates: only what it knows itself counts
        return tuple(chain) == (self.name,) and super()._knows(chain, fluent)

    def answer(self, q: dict) -> str:
        general = self.question(q)
        return say(general, private_answer(self.private_truth(), general, (self.name,)), PHRASING)
