"""What the benchmark adapters share: the sentence forms of a story, a graded question, the report, and the audit
of disagreements."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Optional

from belief.errors import BeliefError
from belief.truth.explain import chain_text, explain


class AdapterError(BeliefError):
    """A benchmark file that cannot be read: unknown sentence or question, malformed line or layout."""


#: a name in a story (an agent, object, container or room)
NAME = r"([A-Za-z0-9_\-]+)"
#: how much of an unknown sentence an error shows (a 10 MB line is not echoed)
SHOWN_MAX = 80


class Forms:
    """The forms of a dataset's sentences (or questions), by kind, tried in order: the first that matches a
    text says what it is."""

    def __init__(self, **patterns: str) -> None:
        self.patterns = {kind: re.compile(p) for kind, p in patterns.items()}

    def read(self, text: str, what: str, where: str) -> tuple[str, tuple[str, ...]]:
        """(kind, the form's groups); for a text no form matches, an :class:`AdapterError` naming ``where``
        and ``what`` it should have been (``ToMi sentence``)."""
        for kind, rx in self.patterns.items():
            m = rx.match(text)
            if m:
                return kind, m.groups()
        shown = repr(text) if len(text) <= SHOWN_MAX else repr(text[:SHOWN_MAX]) + "..."
        raise AdapterError(f"{where}: unknown {what} {shown}")


@dataclass
class GradedQuestion:
    id: int
    source: Any                 # file path / JSON index of the item
    question: str
    qtype: str                  # fine-grained label (ToMi trace label, Hi-ToM order)
    group: str                  # the key of by_type
    gold: str
    answer: Optional[str]
    chain: tuple
    fluent: tuple
    kind: str                   # "belief", "reality" or "memory"
    truth: Any = None           # GroundTruth of the story
    line: Optional[int] = None  # line of the question in its file
    extra: dict = field(default_factory=dict)

    @property
    def agrees(self) -> bool:
        return self.answer == self.gold

    def prediction(self, with_source: bool) -> dict:
        d = {"id": self.id, "question": self.question, "question_type": self.qtype, "gold": self.gold,
             "answer": self.answer, "agrees": self.agrees}
        if with_source:
            d["source"] = self.source
        d.update(self.extra)
        return d


def _sub_chains(chain: tuple) -> list[tuple]:
    """Reality, every contiguous sub-chain and every order-preserving sub-sequence of the chain."""
    out = {(): None}
    for k in range(1, len(chain) + 1):
        for idx in combinations(range(len(chain)), k):
            out.setdefault(tuple(chain[i] for i in idx), None)
    return list(out)


def audit_entry(q: GradedQuestion, with_source: bool = True) -> dict:
    """Explain a disagreement from the trace: why our answer, and where the label's value comes from."""
    truth = q.truth
    entry = q.prediction(with_source)
    entry["line"] = q.line
    entry["chain"] = list(q.chain)
    entry["fluent"] = list(q.fluent)
    if q.kind == "memory":
        hist = truth.history(q.fluent)
        entry["justification"] = {
            "text": "first value of the fluent: " + (f"{hist[0].value} at t={hist[0].t} [{hist[0].event.where()}] "
                                                     f"{hist[0].event.describe()}" if hist else "never set"),
            "history": [h.to_dict() for h in hist]}
        return entry
    ex = explain(truth, q.chain, q.fluent)
    entry["justification"] = ex.to_dict()
    # where could the label come from? values of related chains (sub-sequences of the asked chain)
    related = {}
    for sub in _sub_chains(tuple(q.chain)):
        related[chain_text(sub)] = truth.value(sub, q.fluent)
    entry["related_chains"] = related
    entry["label_matches"] = sorted(k for k, v in related.items() if v == q.gold)
    hist = [h for h in truth.history(q.fluent) if h.value == q.gold]
    if hist:
        last = hist[-1]
        seen = set()
        for u in truth.updates_of(q.fluent, last.t - 1, last.t):
            seen.update(u.observers)
        absent = sorted(set(q.chain) - seen)
        entry["label_last_real"] = {
            "t": last.t, "where": last.event.where(), "text": last.event.describe(),
            "observers": sorted(seen), "chain_agents_absent": absent}
    else:
        told = []
        for sub in _sub_chains(tuple(q.chain)):
            if not sub:
                continue
            for p in truth.chain_updates_of(q.fluent, sub):
                if p.value == q.gold:
                    told.append({"chain": list(sub), "t": p.t, "where": p.event.where(), "text": p.event.describe()})
        entry["label_never_real"] = True
        entry["label_told_to"] = told
    entry["note"] = _note(q, entry)
    return entry


def _note(q: GradedQuestion, entry: dict) -> str:
    who = chain_text(tuple(q.chain))
    ours = q.answer if q.answer is not None else "unknown"
    m = [x for x in entry.get("label_matches", []) if x != who]
    text = f"strict semantics give {who} = {ours}; the label {q.gold!r}"
    if m:
        text += " equals the value of " + ", ".join(m)
    else:
        text += " is the value of no sub-chain"
    lr = entry.get("label_last_real")
    if lr:
        text += (f"; the {q.gold} was last made real at t={lr['t']} ({lr['text']}), observed by "
                 f"{', '.join(lr['observers']) or 'nobody'}")
        if lr["chain_agents_absent"]:
            text += f", without {', '.join(lr['chain_agents_absent'])}"
    return text


@dataclass
class Report:
    dataset: str
    questions: list
    groups: dict = field(default_factory=dict)   # name of an extra breakdown -> attribute of extra

    def summary(self) -> dict:
        by_type: dict[str, list[int]] = {}
        for q in self.questions:
            a = by_type.setdefault(q.group, [0, 0])
            a[0] += int(q.agrees)
            a[1] += 1
        out = {"dataset": self.dataset, "total": len(self.questions),
               "agree": sum(int(q.agrees) for q in self.questions), "by_type": dict(sorted(by_type.items()))}
        for name, key in self.groups.items():
            br: dict[str, list[int]] = {}
            for q in self.questions:
                v = q.extra.get(key)
                if v is None:
                    continue
                a = br.setdefault(str(v), [0, 0])
                a[0] += int(q.agrees)
                a[1] += 1
            if br:
                out[name] = dict(sorted(br.items()))
        return out

    def disagreements(self) -> list:
        return [q for q in self.questions if not q.agrees]


__all__ = ["AdapterError", "GradedQuestion", "Report", "audit_entry"]
