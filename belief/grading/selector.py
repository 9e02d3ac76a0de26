"""Select the questions where Theory of Mind is needed, in any world, from the global trace and the checker.

A world names its *cells*, the questions it could ask (:class:`Cell`: a time, a kind, a chain, a fluent and
who answers; :func:`chains` gives every chain of 1 to 4 agents), and the selector does the rest:

1. **Gold and shortcuts.** Each cell's gold answer is the checker's (:func:`~belief.grading.questions.gold_answer`),
   and the panel of shortcuts (:class:`~belief.grading.shortcuts.Panel`: reality, as_self, depth collapse,
   the public record, and the world's own) answers it too. A ``value`` cell is asked only when its gold is a
   definite value (never "unknown").
2. **Where ToM is needed.** A cell is a candidate when its gold differs from reality, from the asked agent's
   own belief, from the chain's last agent's own belief or from the public record, or when it shows one of
   the named :data:`PHENOMENA` (knowledge only by elimination or only through a message, a missed change, a
   secret observation).
3. **Balance.** Per template (:func:`template_of`: kind and order, and the world's own label), the selection
   holds every shortcut of the panel to at most ``Limits.high`` right and the commonest gold answer (the
   majority shortcut) to at most ``Limits.high`` of the template; ``Limits.low`` (0 by default) also holds
   every shortcut of a yes/no template to at least that much (a shortcut rarely right is a shortcut when
   negated). Online (:meth:`Selector.offer`, called at each time a world asks, with only the trace so far),
   each template takes at most ``Limits.per_time`` candidates per time, the one that keeps the running set
   closest to the limits (smoothed by a prior of balanced pseudo-questions); :meth:`Selector.finish` then
   drops, one at a time, the question whose removal brings the set closest to the limits, until they hold.
   The same trace gives the same questions (seeded order, no clock).

The phenomenon of a question (:func:`phenomena`, the first that holds in the order of :data:`PHENOMENA`)
is defined on the checker's answers, never on a world's bookkeeping.
"""

from __future__ import annotations

import itertools
import random
import weakref
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Mapping, Optional, Sequence

from belief.grading.questions import NO, NOWHERE, UNKNOWN, YES, Question, checker_answer, gold_answer
from belief.grading.shortcuts import QUESTION_SHORTCUTS, Panel, Shortcut
from belief.truth.ground import GroundTruth
from belief.truth.index import HOW_TOLD, OPAQUE, is_marker

ORDER_NAMES = ("reality", "first_order", "second_order", "third_order", "fourth_order")
MAX_ORDER = 4

#: the named phenomena, in the order a question is labelled (the first that holds), and their definitions
PHENOMENA = {
    "secret_observation": "an agent of the chain holds its own value of the fluent from an update it perceived "
                          "secretly (a peek, an overheard message): the others do not know it did",
    "elimination": "a knows / aware question answered yes about a fluent the world's rules constrain, although the "
                   "chain's last agent holds no record of its real value: it knows only by elimination",
    "message_borne": "the chain holds its value from a message (told or announced), not from seeing it; for a "
                     "knows / aware question, answered yes",
    "divergent_second_order": "a chain of two or more agents whose answer differs from the answer of its first "
                              "agent alone or of its last agent alone",
    "missed_change": "a knows / aware question answered no: the chain holds a value the world has changed since "
                     "(absent, inattentive, or the change was out of sight)",
    "false_belief": "a value question whose answer is a definite value other than the real one",
}


@dataclass(frozen=True)
class Cell:
    """A question a world could ask: at ``time`` (an event index of the global trace), of ``kind`` value /
    knows / aware, about ``chain`` and ``fluent`` (``values``: "is it one of these"), answered by ``agent``
    (None: the chain's first agent, a question to a reader); ``label`` is the world's template label."""

    time: int
    kind: str
    chain: tuple[str, ...]
    fluent: tuple[str, ...]
    values: Optional[tuple[str, ...]] = None
    agent: Optional[str] = None
    label: str = ""


@dataclass(frozen=True)
class Limits:
    """How balanced each template must be (see the module docstring)."""

    high: float = 0.6
    low: float = 0.0
    per_time: int = 1
    #: cells examined per template at one time (a sample, in seeded order) before the best is picked
    examined: int = 24
    #: pseudo-questions of a balanced template that smooth the online choice
    prior: float = 12.0


@dataclass
class Candidate:
    """A selected (or candidate) question with its gold answer, the shortcuts' answers and its phenomena."""

    question: Question
    gold: str
    shortcuts: dict[str, Optional[str]]
    phenomena: tuple[str, ...] = ()

    @property
    def template(self) -> str:
        return str(self.question.template)

    def right(self) -> tuple[bool, ...]:
        """Which shortcuts of :attr:`shortcuts` (in their order) answer it right."""
        return tuple(_same(a, self.gold) for a in self.shortcuts.values())


def _same(a: Optional[str], b: str) -> bool:
    return a is not None and str(a).strip().lower() == str(b).strip().lower()


def chains(agents: Iterable[str], depth: int, first: Optional[str] = None) -> list[tuple[str, ...]]:
    """Every chain of 1 to ``depth`` agents with no agent twice in a row (beginning with ``first`` if given)."""
    agents = tuple(agents)
    out = []
    for k in range(1, min(depth, MAX_ORDER) + 1):
        for c in itertools.product(agents, repeat=k):
            if all(a != b for a, b in zip(c, c[1:])) and (first is None or c[0] == first):
                out.append(c)
    return out


def template_of(cell: Cell) -> str:
    """``belief_<order>`` (value), ``knows_first_order``, ``aware_<order>``, then ``/label`` when the world
    gives one."""
    order = ORDER_NAMES[min(len(cell.chain), MAX_ORDER)]
    base = f"belief_{order}" if cell.kind == "value" else f"{cell.kind}_{order}"
    return f"{base}/{cell.label}" if cell.label else base


def _at(truth: GroundTruth, q: Question) -> int:
    return truth.end if q.time == "end" else q.time


def _definite(v: object) -> bool:
    return v is not None and not is_marker(v)


#: per trace (weakly held): (events scanned, whether any has a secret perceiver)
_SECRET: "weakref.WeakKeyDictionary[object, tuple[int, bool]]" = weakref.WeakKeyDictionary()


def _any_secret(truth: GroundTruth) -> bool:
    """Does any event of the trace so far have a secret perceiver (a peek, an overheard message)?"""
    events = truth.events
    try:
        done, found = _SECRET.get(truth.trace, (0, False))
    except TypeError:  # a trace that cannot be weakly referenced: scan it
        return any(getattr(e, "secret", None) for e in events)
    if not found and done < len(events):
        found = any(getattr(events[i], "secret", None) for i in range(done, len(events)))
        _SECRET[truth.trace] = (len(events), found)
    return found


def phenomena(truth: GroundTruth, q: Question, gold: Optional[str] = None,
              shortcuts: Optional[Mapping[str, Optional[str]]] = None) -> tuple[str, ...]:
    """Every named phenomenon (:data:`PHENOMENA`) that holds of ``q`` (a value / knows / aware question), in
    the order of :data:`PHENOMENA`. ``shortcuts`` (the panel's answers to ``q``, when known) saves asking the
    checker again for the chain's last agent alone."""
    assert q.fluent is not None
    gold = gold_answer(truth, q) if gold is None else gold
    at = _at(truth, q)
    f = q.fluent
    real = truth.reality(f, at)
    yes_no = q.kind != "value"
    # the update that gave the chain its value: asked only where a message or a change could make it count
    told = any(p.how == HOW_TOLD for p in truth.updates_of(f, -1, at))
    changed = truth.changed_between(f, -1, at)
    prov = truth.lookup(q.chain, f, at) if q.chain and (told or (changed and gold == NO and yes_no)) else None
    held = prov is not None and _definite(prov.value)
    kind = "value" if q.kind == "value" else "knows"
    out = []
    if q.chain and _any_secret(truth):
        for a in dict.fromkeys(q.chain):
            p = truth.lookup((a,), f, at)
            if p is not None and p.event is not None and a in (getattr(p.event, "secret", None) or ()):
                out.append("secret_observation")
                break
    rules = truth.constraints
    if yes_no and gold == YES and q.chain and rules is not None and rules.constrained(f):
        last = truth.lookup(q.chain[-1:], f, at)
        direct = last is not None and (last.value is OPAQUE or (_definite(last.value) and last.value == real))
        if not direct:
            out.append("elimination")
    if prov is not None and prov.how == HOW_TOLD and held and (gold == YES if yes_no else True):
        out.append("message_borne")
    if len(q.chain) >= 2:
        alone = shortcuts.get("depth_collapse") if shortcuts is not None else None
        if alone is None:
            alone = checker_answer(truth, kind, q.chain[-1:], f, at, q.values)
        if alone != gold or checker_answer(truth, kind, q.chain[:1], f, at, q.values) != gold:
            out.append("divergent_second_order")
    if yes_no and gold == NO and held and prov is not None and truth.changed_between(f, prov.t, at):
        out.append("missed_change")
    if not yes_no and gold not in (UNKNOWN, NOWHERE) and gold != (NOWHERE if real is None else str(real)):
        out.append("false_belief")
    return tuple(out)


def needs_tom(c: Candidate) -> bool:
    """Does the candidate's gold differ from one of the panel's own shortcuts, or show a phenomenon?"""
    if c.phenomena:
        return True
    return any(not _same(c.shortcuts.get(s), c.gold) for s in QUESTION_SHORTCUTS)


class _Tally:
    """Running counts of one template: questions, right answers per shortcut, gold answers."""

    def __init__(self, names: Sequence[str]):
        self.names = tuple(names)
        self.n = 0
        self.right = [0] * len(self.names)
        self.gold: Counter = Counter()
        self.strata: Counter = Counter()
        self.yes_no = True

    def stratum(self, c: Candidate) -> int:
        """How many questions of ``c``'s stratum (its gold and which shortcuts answer it right) are in."""
        return self.strata[(c.gold, c.right())]

    def add(self, c: Candidate, sign: int = 1) -> None:
        self.n += sign
        self.strata[(c.gold, c.right())] += sign
        for i, ok in enumerate(c.right()):
            self.right[i] += sign * ok
        self.gold[c.gold] += sign
        if c.gold not in (YES, NO):
            self.yes_no = False

    def violation(self, limits: Limits, prior: float = 0.0, extra: Optional[Candidate] = None,
                  sign: int = 1) -> float:
        """How far the template is from the limits (0: within), optionally with one candidate added (sign 1) or
        removed (-1), smoothed by ``prior`` balanced pseudo-questions."""
        n = self.n + (sign if extra is not None else 0) + prior
        if n <= 0:
            return 0.0
        right = list(self.right)
        gold = Counter(self.gold)
        yes_no = self.yes_no
        if extra is not None:
            for i, ok in enumerate(extra.right()):
                right[i] += sign * ok
            gold[extra.gold] += sign
            yes_no = yes_no and extra.gold in (YES, NO)
        v = 0.0
        for r in right:
            share = (r + prior / 2) / n
            v += max(0.0, share - limits.high)
            if yes_no:
                v += max(0.0, limits.low - share)
        values = (YES, NO) if yes_no else tuple(gold)
        for g in values:
            share = (gold[g] + (prior / 2 if yes_no else 0.0)) / n
            v += max(0.0, share - limits.high)
        return v


def _question(cell: Cell, qid: str, template: str) -> Question:
    return Question(id=qid, kind=cell.kind, chain=cell.chain, fluent=cell.fluent, time=cell.time,
                    values=cell.values, template=template, agent=cell.agent)


class Selector:
    """The online selector of one trace (see the module docstring): :meth:`offer` at each time the world asks,
    :meth:`finish` once the trace is complete. ``extra`` adds the world's own shortcuts to the panel;
    ``template`` names a cell's template (default :func:`template_of`); ``prefix`` begins every id."""

    def __init__(self, *, limits: Limits = Limits(), seed: object = 0, extra: Optional[Mapping[str, Shortcut]] = None,
                 template: Callable[[Cell], str] = template_of, prefix: str = "s"):
        self.limits = limits
        self.seed = seed
        self.extra = dict(extra or {})
        self.template = template
        self.prefix = prefix
        self.names = QUESTION_SHORTCUTS + tuple(self.extra)
        self.picked: list[Candidate] = []
        self._tally: dict[str, _Tally] = {}
        self._count = 0

    def _evaluate(self, truth: GroundTruth, panel: Panel, cell: Cell) -> Optional[Candidate]:
        """The cell as a candidate (None: not asked, or no ToM needed). Its phenomena are found here only when
        every shortcut answers it right (they decide whether it is a candidate), else once it is picked."""
        template = self.template(cell)
        q = _question(cell, "", template)
        gold = checker_answer(truth, q.kind, q.chain, cell.fluent, cell.time, q.values)
        if q.kind == "value" and gold == UNKNOWN:
            return None
        answers = panel.answers(q)
        c = Candidate(q, gold, {s: answers.get(s) for s in self.names})
        if all(_same(answers.get(s), gold) for s in QUESTION_SHORTCUTS):
            self._name(truth, c)
            return c if c.phenomena else None
        return c

    def _name(self, truth: GroundTruth, c: Candidate) -> None:
        c.phenomena = phenomena(truth, c.question, c.gold, c.shortcuts)
        c.question = replace(c.question, phenomenon=c.phenomena[0] if c.phenomena else None)

    def tally(self, template: str) -> _Tally:
        t = self._tally.get(template)
        if t is None:
            t = self._tally[template] = _Tally(self.names)
        return t

    def offer(self, truth: GroundTruth, cells: Iterable[Cell], panel: Optional[Panel] = None) -> list[Candidate]:
        """Pick questions among ``cells`` (all at times the trace so far covers; ``truth`` is its checker) and
        return them, each with its id, gold answer (the checker's: :func:`gold_answer`) and the panel's answers.
        A world may reword a picked candidate's question (its ``text``, its ``id``) in place: :meth:`finish`
        returns the same objects."""
        panel = panel if panel is not None else Panel(truth, self.extra)
        cells = list(cells)
        if not cells:
            return []
        rng = random.Random(f"belief.selector:{self.seed}:{cells[0].time}:{len(self.picked)}")
        rng.shuffle(cells)
        by_template: dict[str, list[Cell]] = defaultdict(list)
        for cell in cells:
            by_template[self.template(cell)].append(cell)
        out = []
        for template in sorted(by_template):
            pool = []
            for cell in by_template[template][:self.limits.examined]:
                c = self._evaluate(truth, panel, cell)
                if c is not None:
                    pool.append(c)
            tally = self.tally(template)
            for _ in range(self.limits.per_time):
                if not pool:
                    break
                before = tally.violation(self.limits, self.limits.prior)
                scored = [(round(tally.violation(self.limits, self.limits.prior, c), 9), tally.stratum(c), i, c)
                          for i, c in enumerate(pool)]
                v, _, i, best = min(scored, key=lambda x: x[:3])
                if v > before + 1e-9:
                    break
                pool.remove(best)
                self._count += 1
                if best.question.phenomenon is None and not best.phenomena:
                    self._name(truth, best)
                best.question = replace(best.question, id=f"{self.prefix}{self._count}")
                tally.add(best)
                self.picked.append(best)
                out.append(best)
        return out

    def finish(self) -> list[Candidate]:
        """The picked questions, less those whose removal brings each template within the limits (the latest of
        the best stratum first), in the order they were picked."""
        dropped: set[int] = set()
        for template in sorted(self._tally):
            members = [c for c in self.picked if c.template == template]
            tally = _Tally(self.names)
            for c in members:
                tally.add(c)
            strata: dict[tuple, list[Candidate]] = defaultdict(list)
            for c in members:
                strata[(c.gold, c.right())].append(c)
            while tally.n > 0 and tally.violation(self.limits) > 1e-12:
                key = min((k for k in sorted(strata, key=str) if strata[k]),
                          key=lambda k: tally.violation(self.limits, 0.0, strata[k][-1], -1))
                c = strata[key].pop()
                tally.add(c, -1)
                dropped.add(id(c))
        return [c for c in self.picked if id(c) not in dropped]


def select(truth: GroundTruth, cells: Iterable[Cell], *, limits: Limits = Limits(), seed: object = 0,
           extra: Optional[Mapping[str, Shortcut]] = None, template: Callable[[Cell], str] = template_of,
           prefix: str = "s") -> list[Candidate]:
    """The selection of a finished trace (the checker ``truth``): the cells offered time by time, then trimmed."""
    sel = Selector(limits=limits, seed=seed, extra=extra, template=template, prefix=prefix)
    panel = Panel(truth, sel.extra)
    by_time: dict[int, list[Cell]] = defaultdict(list)
    for cell in cells:
        by_time[cell.time].append(cell)
    for t in sorted(by_time):
        sel.offer(truth, by_time[t], panel)
    return sel.finish()


__all__ = ["Cell", "Candidate", "Limits", "Selector", "select", "chains", "phenomena", "needs_tom", "template_of",
           "PHENOMENA", "ORDER_NAMES", "MAX_ORDER"]
