"""One panel of shortcuts, run on every ToM question set: what answering takes when it takes no Theory of Mind.

A question set measures ToM only where these answerers fail; every ToM table shows the best of them beside
every agent, per template (:func:`belief.grading.trivial.tom_table`). For a question ``q`` about the trace
``truth`` (the checker on the global trace), asked of ``q.agent`` (else the chain's first agent):

* ``majority``: the most common gold answer of the question's template, on the set itself (an upper bound
  of what a prior on the template gets; :func:`majority_answers`);
* ``reality``: the chain replaced by the world itself: a value question answered with the real value; "does
  A know F" answered yes when F holds (everyone knows everything);
* ``as_self``: the asked agent's own belief: the chain replaced by ``(asked,)`` ("Does X know F?" becomes
  "Do I know F?"); on a question that already asks only the asked agent, reality;
* ``depth_collapse``: the belief of the chain's last agent alone ("Does A think B knows F?" becomes "Does B
  know F?"); on a chain of one agent, reality (the last level collapsed);
* ``public_record``: a reader that sees only what every agent perceived: the *public trace*
  (:func:`public_trace`: every update of the global trace that every agent perceived, with no secret
  observer nor condition, as an event all agents see) checked by the same checker, under the world's rules
  (so a hint record's negatives eliminate values), and the question answered on it;
* a world's own (``extra``: name -> answerer), e.g. Hanabi's hint reader; or, by its name, one of the panel's
  optional shortcuts (:data:`OPTIONAL_SHORTCUTS`: ``first_value``, the world as it first was), which a world
  registers where it matters (``extra={"first_value": "first_value"}``) and the selector then balances too.

Shortcut answers are in the gold's vocabulary (``yes`` / ``no``, a value, ``unknown``), compared with the gold
answer as they are: a shortcut is a function of the global trace, never of an agent.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter, defaultdict
from typing import Callable, Iterable, Mapping, Optional, Union

from belief.grading.questions import GIVEN, NO, UNKNOWN, YES, Question, checker_answer
from belief.truth.ground import GroundTruth
from belief.truth.index import OPAQUE, UNSURE, is_marker
from belief.truth.trace import Action, Effect, Possible, Trace
from belief.truth.tracker import Tracker

#: the panel every question set gets, in the order tables show it (a world may add its own)
SHORTCUTS = ("majority", "reality", "as_self", "depth_collapse", "public_record")
#: the shortcuts a single question is answered by (majority is a property of a set)
QUESTION_SHORTCUTS = SHORTCUTS[1:]

#: the panel's shortcuts a world (or a dataset) adds by name, e.g. ``extra={"first_value": "first_value"}``
OPTIONAL_SHORTCUTS = ("first_value",)

Answerer = Callable[[Question], Optional[str]]
#: a world's shortcut: a function of the question, or the name of an optional panel shortcut
Shortcut = Union[Answerer, str]


def _norm(answer: object) -> str:
    return str(answer).strip().lower()


def majority_answers(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """The most common gold answer per template from ``(template, gold)`` pairs (ties broken by the answer's
    text, so it is stable)."""
    counts: dict[str, Counter] = defaultdict(Counter)
    for template, gold in pairs:
        counts[template][_norm(gold)] += 1
    return {t: min(c.items(), key=lambda kv: (-kv[1], kv[0]))[0] for t, c in counts.items()}


def _public_update(p, everyone: set) -> bool:
    ev = p.event
    if ev is None or not everyone <= set(p.observers or ()):
        return False
    if getattr(ev, "has_perception", False) or getattr(ev, "given", None) is not None:
        return False  # someone perceived it secretly or only by a condition: not everyone's record
    return True


def _public_events(truth: GroundTruth, start: int, end: int) -> list[tuple[int, Union[Action, Possible]]]:
    """``(time, event)`` of the public trace for the global updates with ``start < t <= end`` (see
    :func:`public_trace`), in order of time."""
    everyone = set(truth.agents)
    by_time: dict[int, list] = defaultdict(list)
    for f in sorted(truth.fluents(), key=lambda f: tuple(map(str, f))):
        for p in truth.updates_of(f, start, end):
            if _public_update(p, everyone):
                by_time[p.t].append((f, p.value))
    agents = tuple(truth.agents)
    out: list[tuple[int, Union[Action, Possible]]] = []
    for t in sorted(by_time):
        effects, unsure = [], []
        for f, v in by_time[t]:
            if v is UNSURE:
                unsure.append(f)
                continue
            if v is OPAQUE:
                v = truth.reality(f, t)
            if is_marker(v):
                continue
            effects.append(Effect(predicate=f[0], subject=f[1:], value=v))
        if unsure:
            out.append((t, Possible(observers=agents, fluents=tuple(unsure))))
        if effects:
            out.append((t, Action(name="public", effects=tuple(effects), visible_to=agents)))
    return out


def _rules(truth: GroundTruth) -> dict:
    meta = getattr(truth.trace, "meta", None) or {}
    return {k: meta[k] for k in ("constraints",) if k in meta}


def public_trace(truth: GroundTruth) -> tuple[Trace, list[int]]:
    """The public trace of ``truth``'s trace and, per public event, the time of the global event it comes from.

    Every group update that every agent of the trace perceived (no secret observer, inattentive agent,
    condition) becomes an event every agent sees: a definite value an ``action`` effect, a possible change a
    ``possible`` event; an observation whose value the trace does not name takes the real value at its time.
    The meta keeps the world's rules (``constraints``), so the public record eliminates as the world does."""
    pairs = _public_events(truth, -1, truth.end)
    return Trace([e for _, e in pairs], meta=_rules(truth)), [t for t, _ in pairs]


class Panel:
    """The per-question shortcuts of one trace (see the module docstring); ``extra`` adds a world's own.

    A world that asks as its trace grows keeps one panel and :meth:`advance` s it to each new truth (the
    checker of the trace so far): the public record is extended with the new public updates, never rebuilt."""

    def __init__(self, truth: GroundTruth, extra: Optional[Mapping[str, Shortcut]] = None):
        self.truth = truth
        self.extra: dict[str, Answerer] = {name: self._optional(name, a) if isinstance(a, str) else a
                                           for name, a in (extra or {}).items()}
        self._tracker: Optional[Tracker] = None
        self._times: list[int] = []
        self._upto = -1
        self._cached: Optional[tuple[GroundTruth, list[int], frozenset]] = None

    def _optional(self, name: str, shortcut: str) -> Answerer:
        if shortcut not in OPTIONAL_SHORTCUTS:
            raise ValueError(f"shortcut {name!r}: {shortcut!r} is not one of the panel's optional shortcuts "
                             f"({', '.join(OPTIONAL_SHORTCUTS)}); give a function of the question instead")
        return getattr(self, shortcut)

    @property
    def names(self) -> tuple[str, ...]:
        return QUESTION_SHORTCUTS + tuple(self.extra)

    def advance(self, truth: GroundTruth) -> None:
        """Follow the trace as it grows: ``truth`` is the checker of a longer prefix of the same trace."""
        self.truth = truth

    def public(self) -> tuple[GroundTruth, list[int], frozenset]:
        """The checker on the public trace so far, the global time of each of its events and its fluents."""
        if self._tracker is None:
            self._tracker = Tracker(meta=_rules(self.truth))
            self._tracker.append(Action(name="public", visible_to=tuple(self.truth.agents)))
            self._times.append(-1)
        end = self.truth.end
        if end > self._upto or self._cached is None:
            for t, ev in _public_events(self.truth, self._upto, end):
                self._tracker.append(ev, renumber=True)
                self._times.append(t)
            self._upto = max(end, self._upto)
            truth = self._tracker.truth()
            self._cached = (truth, self._times, frozenset(truth.fluents()))
        return self._cached

    def _at(self, q: Question) -> int:
        return self.truth.end if q.time == "end" else q.time

    def reality(self, q: Question) -> str:
        assert q.fluent is not None
        if q.kind == "value":
            return checker_answer(self.truth, "value", (), q.fluent, self._at(q))
        real = self.truth.reality(q.fluent, self._at(q))
        return YES if q.values is None or real in q.values else NO

    def _as_chain(self, q: Question, chain: tuple[str, ...]) -> str:
        if chain == q.chain:
            return self.reality(q)
        assert q.fluent is not None
        kind = q.kind if q.kind == "value" else "knows"
        return checker_answer(self.truth, kind, chain, q.fluent, self._at(q), q.values)

    def as_self(self, q: Question) -> str:
        asked = q.agent if q.agent is not None else (q.chain[0] if q.chain else None)
        return self.reality(q) if asked is None else self._as_chain(q, (asked,))

    def depth_collapse(self, q: Question) -> str:
        return self.reality(q) if not q.chain else self._as_chain(q, q.chain[-1:])

    def public_record(self, q: Question) -> str:
        truth, times, fluents = self.public()
        k = bisect_right(times, self._at(q)) - 1
        assert q.fluent is not None
        if k < 0 or times[k] < 0 or q.fluent not in fluents:
            return UNKNOWN if q.kind == "value" else NO
        return checker_answer(truth, q.kind, q.chain, q.fluent, k, q.values)

    def first_value(self, q: Question) -> str:
        """The world as it first was: a value question answered with the fluent's first real value (ToMi's
        "first container" heuristic: a stale belief is often the starting place); a yes/no question about
        values, by whether that first value is among them; "does A know F", yes when F never changed up to
        the question (nothing moved, so everyone knows). Not in the default panel (:data:`SHORTCUTS`): a
        dataset or world adds it by name (:data:`OPTIONAL_SHORTCUTS`; ``belief eval`` and the maze worlds do)."""
        assert q.fluent is not None
        at = self._at(q)
        first = [p for p in self.truth.history(q.fluent) if p.t <= at]
        if not first:
            return UNKNOWN if q.kind == "value" else NO
        if q.kind == "value":
            return _norm(first[0].value)
        if q.values is not None:
            return YES if first[0].value in q.values else NO
        return YES if len(first) == 1 else NO

    def answers(self, q: Question) -> dict[str, Optional[str]]:
        """Every shortcut's answer to ``q`` (a question of a checker kind), by name."""
        if q.kind == GIVEN:
            raise ValueError(f"question {q.id}: the panel answers questions about the trace, not 'given' ones")
        out: dict[str, Optional[str]] = {"reality": self.reality(q), "as_self": self.as_self(q),
                                         "depth_collapse": self.depth_collapse(q),
                                         "public_record": self.public_record(q)}
        for name, answer in self.extra.items():
            out[name] = answer(q)
        return out


__all__ = ["SHORTCUTS", "QUESTION_SHORTCUTS", "OPTIONAL_SHORTCUTS", "Shortcut", "Panel", "public_trace", "majority_answers"]
