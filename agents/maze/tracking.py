"""What a maze player knows, read from its private trace only (the events it perceived, in the trace
vocabulary): the door states, who it has seen where and when, and the rooms the adversary may be in
(``possible``: the last sighting, spread by one door per adversary move, minus the rooms seen empty).
ToM answers come from the general checker on the same private trace (a
:class:`~belief.truth.record.PrivateRecord`, updated event by event).
"""

from __future__ import annotations

from belief.agents.protocol import AgentBase
from belief.envs.maze.world import Maze
from belief.grading.questions import NO, YES, parse_fluent, private_answer, question_from_dict
from belief.grading.render import say
from belief.truth.index import is_marker
from belief.truth.record import PrivateRecord


class MazeTracker:
    """One player's record: ``feed`` its perceived events, ``new_round`` after every adversary move."""

    def __init__(self, name: str, partner: str, adversary: str, layout: dict):
        self.name, self.partner, self.adversary = name, partner, adversary
        self.maze = Maze.from_layout(layout)
        self.known: dict = {}          # fluent -> last value perceived (seen, done or told)
        self.record = PrivateRecord(name)   # the events it perceived, and the checker on them
        self.possible: set = set(self.maze.rooms)

    # --- perceiving -----------------------------------------------------------------------------------
    def feed(self, events) -> None:
        for ev in self.record.add(events):
            for f, v in self._facts(ev):
                self.known[f] = v
                if f[0] == "door":
                    self.maze.open[f[1]] = v == "open"
                elif f == ("at", self.adversary) and v is not None:
                    self.possible = {v}
        self._rule_out_seen()

    @staticmethod
    def _facts(ev):
        if ev.kind == "action":
            return [(e.fluent, e.value) for e in ev.effects]
        if ev.kind == "observe" and ev.values is not None:
            return [(tuple(f), v) for f, v in zip(ev.fluents, ev.values) if v is not None]
        if ev.kind == "tell":
            return [(c.fluent, c.value) for c in ev.content]
        return []

    def where(self, who: str):
        return self.known.get(("at", who))

    def _rule_out_seen(self) -> None:
        me = self.where(self.name)
        if me not in self.maze.rooms:
            return
        seen = self.maze.visible_rooms(me)
        if self.known.get(("at", self.adversary)) in seen:
            return
        left = self.possible - seen
        self.possible = left or (set(self.maze.rooms) - seen)

    def new_round(self) -> None:
        """The adversary may have moved one room through an open door (as far as this player knows)."""
        spread = set(self.possible)
        for r in self.possible:
            spread.update(self.maze.open_neighbours(r))
        self.possible = spread
        self._rule_out_seen()

    def adversary_known(self):
        """The adversary's room when only one is possible, else None."""
        return next(iter(self.possible)) if len(self.possible) == 1 else None

    # --- answering ToM questions from the private trace -------------------------------------------------
    @property
    def private(self):
        """The private trace (the events this player perceived)."""
        return self.record.trace

    def truth(self):
        """The checker on the private trace (kept up to date as events arrive)."""
        return self.record.truth()

    def answer(self, q: dict, egocentric: bool = False) -> str:
        """A free-text answer to a general question (kind value/knows, chain, fluent): the checker on the
        private trace. ``egocentric``: no partner model, the chain is read as the player's own belief. A
        question of the general model (``q["question"]``: the selected set) is answered by
        :func:`belief.grading.questions.private_answer` on the same record, in words the one reader reads."""
        if "question" in q:
            general = question_from_dict(q["question"])[0]
            if any(a not in self.truth().agents for a in general.chain):
                return say(general, None)
            return say(general, private_answer(self.truth(), general, (self.name,) if egocentric else None))
        chain = tuple(q["chain"])
        if egocentric:
            chain = (self.name,)
        fluent = parse_fluent(q["fluent"])
        truth = self.truth()
        known_names = set(truth.agents)
        if any(a not in known_names for a in chain):
            return "I do not know."
        if q["kind"] == "value":
            v = truth.value(chain, fluent)
            if isinstance(v, str) and not is_marker(v):
                return f"In {v}."
            return "I do not know where." if chain == (self.name,) else "They do not know where it is."
        if fluent not in set(truth.fluents()):
            return NO
        holds = q.get("values") is None or self.known.get(fluent) in q["values"]
        return YES if holds and truth.knows_chain(chain, fluent) else NO


class MazePlayer(AgentBase):
    """A maze player under the agent protocol: ``perceive`` starts a new round in its tracker when its view's
    round moved on (the adversary may have moved) before it feeds the events; ``act`` decides the message
    (:meth:`compose_message`) on the view it acts on, then the action (:meth:`choose`)."""

    tracker: MazeTracker
    _round = None
    _outgoing = None

    def perceive(self, events, info: dict | None = None) -> None:
        if info is not None:
            round_ = info["obs"]["round"]
            if self._round is not None and round_ != self._round:
                self.new_round()
            self._round = round_
        self.tracker.feed(events)

    def new_round(self) -> None:
        """The adversary moved (as far as this player knows)."""

    def compose_message(self, view: dict):
        """Facts for the partner (``{fluent: value}``), or None."""
        return None

    def choose(self, view: dict, mask) -> int:  # pragma: no cover - every agent overrides it
        raise NotImplementedError

    def act(self, observation, info: dict) -> int:
        view = info["obs"]
        self._outgoing = self.compose_message(view)
        return self.choose(view, info["action_mask"])

    def message(self):
        return self._outgoing


__all__ = ["MazePlayer", "MazeTracker"]
