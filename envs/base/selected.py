"""The selected questions of a world (:mod:`belief.grading.selector`), asked as its trace grows: one question
type and one stream for every world that asks where ToM is needed.

A world feeds :class:`SelectedStream` its global trace event by event (``feed``) and, at the times it asks
(after a move, a turn), its *cells* (``ask``): the stream keeps the checker of the trace so far and one panel
of shortcuts, picks the questions with the selector, words them with the world's phrasing and returns them as
:class:`SelectedQuestion` s (the general question, the asked agent, the gold, the shortcuts' answers); once the
trace is complete, :meth:`SelectedStream.kept` gives the ids the balance keeps.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Mapping, Optional, Sequence

from belief.grading import questions as model
from belief.grading.render import Phrasing, render
from belief.grading.selector import ORDER_NAMES, Cell, Limits, Selector, chains, template_of
from belief.grading.shortcuts import Panel, Shortcut
from belief.truth.tracker import Tracker


@dataclass
class SelectedQuestion:
    """A selected question: the general question, asked of ``asked`` after event ``t`` (the world's ``turn`` and
    ``round``), with its gold and every shortcut's answer."""

    id: str
    t: int
    turn: int
    asked: str
    question: model.Question
    gold: str
    shortcuts: dict = field(default_factory=dict)
    round: int = 0
    set: str = "selected"

    @property
    def template(self) -> str:
        return str(self.question.template)

    @property
    def text(self) -> str:
        return str(self.question.text)

    @property
    def level(self) -> Optional[str]:
        return None

    def general(self) -> model.Question:
        return self.question

    def public(self) -> dict:
        """What the asked agent is shown: the general question (no gold, no shortcuts)."""
        return {"id": self.id, "t": self.t, "turn": self.turn, "asked": self.asked, "text": self.text,
                "set": self.set, "question": self.question.to_json()}

    def to_json(self) -> dict:
        return {**self.public(), "round": self.round, "gold": self.gold, "shortcuts": dict(self.shortcuts)}


class SelectedStream:
    """The selector on a trace that grows (see the module docstring). ``template`` names a cell's template,
    ``extra`` adds the world's own shortcuts, ``limits`` the balance; ``tracker`` shares a world's own tracker
    of the global trace (else the stream keeps one, fed by :meth:`feed`)."""

    def __init__(self, meta: dict, *, seed: object, limits: Limits = Limits(), prefix: str = "s",
                 template: Callable[[Cell], str] = template_of, extra: Optional[Mapping[str, Shortcut]] = None,
                 tracker: Optional[Tracker] = None):
        self.tracker = tracker if tracker is not None else Tracker(meta=meta)
        self.selector = Selector(limits=limits, seed=seed, prefix=prefix, template=template, extra=extra)
        self.panel: Optional[Panel] = None
        self._kept: Optional[set] = None

    def feed(self, ev):
        """Append one event of the global trace (renumbered); returns it as stored."""
        return self.tracker.append(ev, renumber=True)

    def panel_for(self, truth) -> Panel:
        """The stream's one panel of shortcuts, advanced to ``truth`` (the checker of the trace so far): a world
        that scores its other questions too shares it (one public record)."""
        if self.panel is None:
            self.panel = Panel(truth, self.selector.extra)
        self.panel.advance(truth)
        return self.panel

    def ask(self, cells: Iterable[Cell], turn: int, asked: str, phrasing: Phrasing, round: int = 0,
            id_prefix: str = "q") -> list[SelectedQuestion]:
        """The questions picked among ``cells`` (all at the trace's last event), worded by ``phrasing``."""
        truth = self.tracker.truth()
        panel = self.panel_for(truth)
        out = []
        for c in self.selector.offer(truth, cells, panel):
            q = c.question = replace(c.question, id=f"{id_prefix}{turn}-{c.question.id}",
                                     text=render(c.question, phrasing))
            out.append(SelectedQuestion(id=q.id, t=int(q.time), turn=turn, asked=asked, question=q, gold=c.gold,
                                        shortcuts=dict(c.shortcuts), round=round))
        return out

    def kept(self) -> set:
        """The ids of the questions the balance keeps (call once the trace is complete)."""
        if self._kept is None:
            self._kept = {c.question.id for c in self.selector.finish()}
        return self._kept


class StepSelection:
    """The selected set of a world whose agents are asked at the end of their steps about every fluent of the
    trace so far: "Does <other> know F?" (the first order, of every other agent) and "Are you aware that X knows
    [that ...] F?" (chains of 2 to ``depth`` agents beginning with the asked one, which the asked agent answers
    from its own record). :meth:`feed` each event of the global trace, :meth:`ask` at the end of a step;
    :meth:`kept` once the episode is over. ``fluents`` filters the fluents asked about."""

    def __init__(self, meta: dict, *, seed: object, agents: Iterable[str], phrasing: Phrasing,
                 template: Callable[[Cell], str], limits: Limits = Limits(per_time=2, examined=48), depth: int = 4,
                 fluents: Callable[[tuple], bool] = lambda f: True, extra: Optional[Mapping[str, Shortcut]] = None):
        self.agents = tuple(agents)
        self.stream = SelectedStream(meta, seed=seed, limits=limits, template=template, extra=extra)
        self.words = phrasing
        self.chains = chains(self.agents, depth)
        self.wanted = fluents
        self._turn = 0

    def feed(self, ev) -> None:
        self.stream.feed(ev)

    def ask(self, you: str, id_prefix: str = "s") -> list[SelectedQuestion]:
        """The questions picked for ``you`` at the trace's last event."""
        self._turn += 1
        truth = self.stream.tracker.truth()
        at = len(self.stream.tracker.trace) - 1
        fluents = sorted((f for f in truth.fluents() if self.wanted(f)), key=lambda f: tuple(map(str, f)))
        cells = [Cell(at, "knows" if len(c) == 1 else "aware", c, f, agent=you)
                 for c in self.chains if (len(c) == 1 and c[0] != you) or (len(c) > 1 and c[0] == you)
                 for f in fluents]
        return self.stream.ask(cells, self._turn, you, self.words, id_prefix=id_prefix)

    def kept(self) -> set:
        return self.stream.kept()


#: the deepest chain a :class:`PerspectiveSet` world asks (household, transport)
PERSPECTIVE_DEPTH = 4
#: two questions per template, asked agent and step, from 8 cells examined
PERSPECTIVE_LIMITS = Limits(per_time=2, examined=8)


def perspective_depth(agents) -> int:
    """:data:`PERSPECTIVE_DEPTH` with three agents or more; 1 with two (or one). Two agents perceive every event
    they share together and never secretly, so a chain of two or more holds exactly what both perceived: the
    public record answers every such cell and the balance keeps none (measured: none kept in 50 episodes of each
    kind of household and transport team); not offering them saves most of the selector's time."""
    return PERSPECTIVE_DEPTH if len(tuple(agents)) > 2 else 1


def perspective_template(cell: Cell) -> str:
    """``kind/who/predicate``: ``who`` is ``self`` when the chain is the asked agent alone ("Do you know where the
    cupcake is?"), else the chain's order (``first_order``: "Does Bob know ...?"); e.g. ``knows/first_order/in``,
    ``aware/second_order/explored``, ``value/self/in``."""
    who = "self" if cell.chain == (cell.agent,) else ORDER_NAMES[min(len(cell.chain), len(ORDER_NAMES) - 1)]
    return f"{cell.kind}/{who}/{cell.fluent[0]}"


def perspective_cells(at: int, agents: Sequence[str], asked: str, fluents: Iterable[tuple],
                      depth: int) -> list[Cell]:
    """Every question a world with these ``agents`` could ask ``asked`` after event ``at`` about ``fluents``: for
    every chain of 1 to ``depth`` agents (no agent twice in a row), "where does the chain think F is" (value)
    and "does X know F" / "is X aware that Y knows F" (knows for one agent, aware for more)."""
    fluents = list(fluents)
    out = []
    for chain in chains(agents, depth):
        kind = "knows" if len(chain) == 1 else "aware"
        for f in fluents:
            out.append(Cell(at, "value", chain, f, agent=asked))
            out.append(Cell(at, kind, chain, f, agent=asked))
    return out


def believed_answer(q: model.Question, me: str, held: Callable[[tuple, tuple], Optional[str]]) -> Optional[str]:
    """The verdict an agent gives to ``q`` from its own beliefs: ``held(chain, fluent)`` is the definite value
    it holds for a chain beginning with itself (None: it holds none). A chain asked about others is read as
    the agent's belief about it (``(me,) + chain``); "does X know F" is yes when the agent believes X holds the
    value the agent itself holds (its own belief stands for reality), "do you know F" when it holds one."""
    assert q.fluent is not None
    chain = q.chain if q.chain[:1] == (me,) else (me, *q.chain)
    mine = held((me,), q.fluent)
    theirs = mine if chain == (me,) else held(chain, q.fluent)
    if q.kind == "value":
        return model.UNKNOWN if theirs is None else theirs
    if q.values is not None and mine not in q.values:
        return model.NO
    return model.YES if theirs is not None and theirs == mine else model.NO


class PerspectiveSet:
    """The selected set of a world whose questions are :func:`perspective_cells` on a fixed list of fluents,
    named by :func:`perspective_template`: :meth:`feed` the global trace as it grows, :meth:`ask` after a step
    for the agent asked, :meth:`kept` once the episode is over. ``depth``: the deepest chain; ``limits``: the
    balance; ``name`` seeds the selector with the world's name. Pure: the same trace gives the same questions."""

    def __init__(self, meta: dict, agents: Iterable[str], fluents: Iterable[tuple], phrasing: Phrasing, *,
                 name: str, seed: object = None, depth: int = 4, limits: Limits = Limits(per_time=2, examined=32),
                 extra: Optional[Mapping[str, Shortcut]] = None):
        self.seed = meta.get("seed") if seed is None else seed
        self.agents = tuple(agents)
        self.fluents = list(fluents)
        self.depth = depth
        self.words = phrasing
        self.stream = SelectedStream(meta, seed=f"{name}:{self.seed}", limits=limits, template=perspective_template,
                                     extra=extra)
        self._fed = 0

    def feed(self, trace) -> None:
        """Take in the events of ``trace`` (the global trace) not fed yet."""
        while self._fed < len(trace):
            self.stream.feed(trace[self._fed])
            self._fed += 1

    def ask(self, step: int, asked: str) -> list[SelectedQuestion]:
        """The questions picked for ``asked`` after the last event fed (ids ``<asked>-t<step>-s<n>``)."""
        at = self._fed - 1
        if at < 0:
            return []
        cells = perspective_cells(at, self.agents, asked, self.fluents, self.depth)
        return self.stream.ask(cells, step, asked, self.words, id_prefix=f"{asked}-t")

    def kept(self) -> set:
        return self.stream.kept()

    def truth(self):
        """The checker of the global trace fed so far."""
        return self.stream.tracker.truth()


def tom_table_rows(qs: Iterable[SelectedQuestion], given: Mapping[str, str], answerer: str, episode: object,
                   truth) -> list[dict]:
    """Selected questions as ToM-table rows (:func:`belief.grading.trivial.tom_table`): the template, the gold,
    the episode, the phenomenon and the answers: ``answerer``'s (its free text ``given[id]`` read by the one
    reader, with the places the fluent takes in the trace ``truth`` as candidates) beside every shortcut of the
    kernel's panel."""
    from belief.grading.report import read_answer

    return [{"type": q.template, "gold": q.gold, "episode": episode, "phenomenon": q.question.phenomenon,
             "answers": {answerer: read_answer(q.question, given[q.id], model.place_candidates(truth, q.question)),
                         **q.shortcuts}} for q in qs]


__all__ = ["PERSPECTIVE_DEPTH", "PERSPECTIVE_LIMITS", "SelectedQuestion", "SelectedStream", "StepSelection", "PerspectiveSet", "perspective_depth", "tom_table_rows", "perspective_template", "perspective_cells",
           "believed_answer"]
