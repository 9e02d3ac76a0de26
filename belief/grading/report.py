"""Grade free-text answers against exact answers: one reader, one path for every question kind.

Questions (:mod:`belief.grading.questions`) get their gold answer from the checker (``value``, ``knows``,
``aware``: any chain, fluent and time) or state it (``given``: a planner's best action, a fact of the map);
each free-text answer is read by :func:`read_answer` (:mod:`belief.grading.answers`) and graded, and
:class:`GradeReport` gives per-question rows (distinct ``gold`` and ``answer`` keys, the ``reading`` of the
text, ``correct``) and a summary with accuracy as fractions: overall, "answered only" (unreadable and missing
answers left out), and by order, template, agent, level, category, phenomenon and kind. Unreadable answers are counted
wrong in the overall accuracy and reported, never silently read as one side.

:func:`grade` and :class:`Report` are the three-level table (Table 2 of the study: accuracy per level, as fractions) for
runners whose questions carry their exact answer (``{"id", "level", "answer": bool, "asked"}``): each becomes
a ``given`` yes/no question graded on the same path.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Collection, Optional

from belief.grading.answers import read_place, read_yes_no
from belief.grading.levels import LEVEL_TITLES, LEVELS, level_chain
from belief.truth.checker import check
from belief.grading.questions import (GIVEN, NO, YES, GradingError, Question, check_question, correct_answers,
                                    place_candidates)
from belief.truth.ground import GroundTruth
from belief.files.json_input import read_json_lines

UNREADABLE, MISSING = "unreadable", "missing"
#: the columns of a graded question row (JSONL keys, CSV header)
ROW_COLUMNS = ("episode", "id", "kind", "category", "phenomenon", "order", "level", "template", "agent", "chain",
               "fluent", "time", "question", "gold", "answer", "reading", "correct")
BREAKDOWNS = ("order", "template", "agent", "level", "category", "phenomenon", "kind")


def trace_digest(trace) -> str:
    """The identity of a trace's content: the SHA-256 of its events (canonical JSON), whatever its meta says.

    Answer files written by a run carry it as ``"trace"``, so answers relabelled with another episode's name
    are still told apart from this trace's own (:func:`belief.grading.files.load_answers`)."""
    return hashlib.sha256("\n".join(json.dumps(e.model_dump(mode="json", exclude_none=True), sort_keys=True)
                                     for e in trace).encode("utf-8")).hexdigest()


def episode_id(trace) -> str:
    """The episode a trace records: its ``meta["episode"]``, else its environment, seed and a digest of its
    events (so answers made for another run of the same seed are told apart)."""
    meta = getattr(trace, "meta", None) or {}
    name = meta.get("episode")
    if isinstance(name, str) and name:
        return name
    seed = meta.get("seed")
    return "-".join(str(x) for x in (meta.get("env") or "trace", seed, trace_digest(trace)[:12]) if x is not None)


def read_answer(q: Question, text: object, candidates: Collection[str] = ()) -> str:
    """What a free-text answer says (the one reader of every grading path): ``yes`` / ``no`` (knows, aware,
    given yes_no; "I don't know" is ``no`` when asked about oneself), a place / ``unknown`` / ``nowhere``
    (value), one of the question's ``choices`` (given choice), or ``unreadable``."""
    if q.yes_no:
        yes = read_yes_no(text, about_self=q.about_self)
        return UNREADABLE if yes is None else (YES if yes else NO)
    place = read_place(text, candidates, about_self=q.agent is not None and q.chain[:1] == (q.agent,),
                       chain=q.chain if q.kind == "value" else None)
    if q.kind == GIVEN and place not in candidates:
        return UNREADABLE
    return place if place is not None else UNREADABLE


def graded_row(q: Question, gold: tuple[str, ...], text: object, candidates: Collection[str] = (),
               episode: Optional[str] = None) -> dict:
    """One flat row: the question's labels, the exact ``gold`` answer (alternatives joined by ``|``), the
    agent's ``answer``, its ``reading``; correct when the reading is one of ``gold``."""
    reading = MISSING if text is None else read_answer(q, text, candidates)
    return {"episode": episode, "id": q.id, "kind": q.kind, "category": q.category, "phenomenon": q.phenomenon,
            "order": q.order,
            "level": q.level, "template": q.template, "agent": q.agent, "chain": list(q.chain),
            "fluent": q.fluent_text, "time": q.time, "question": q.text, "gold": "|".join(gold), "answer": text,
            "reading": reading, "correct": reading in gold}


def _tally(rows: list) -> dict:
    correct = sum(r["correct"] for r in rows)
    answered = [r for r in rows if r["reading"] not in (UNREADABLE, MISSING)]
    return {"questions": len(rows), "correct": correct, "accuracy": correct / len(rows) if rows else None,
            "answered": len(answered), "answered_only": correct / len(answered) if answered else None,
            "unreadable": sum(r["reading"] == UNREADABLE for r in rows),
            "missing": sum(r["reading"] == MISSING for r in rows)}


@dataclass
class GradeReport:
    """Graded rows of one answers file, answer ids that match no question, and summaries (fractions)."""

    rows: list = field(default_factory=list)
    unknown_ids: list = field(default_factory=list)
    episode: Optional[str] = None

    def breakdown(self, key: str) -> dict:
        """Tallies per value of a row key (``order``, ``template``, ``agent``, ``level``, ``kind``), sorted."""
        groups: dict = {}
        for r in self.rows:
            if r.get(key) is not None:
                groups.setdefault(r[key], []).append(r)
        return {str(k): _tally(v) for k, v in sorted(groups.items(), key=lambda kv: (str(type(kv[0])), kv[0]))}

    def summary(self) -> dict:
        s = {"episode": self.episode, **_tally(self.rows), "unknown_ids": list(self.unknown_ids)}
        for key in BREAKDOWNS:
            s[f"by_{key}"] = self.breakdown(key)
        return s

    def unreadable(self) -> list:
        return [r for r in self.rows if r["reading"] == UNREADABLE]

    def missing(self) -> list:
        return [r for r in self.rows if r["reading"] == MISSING]


def answers_by_id(answers) -> dict:
    """``{id: text}`` from ``[{"id", "answer"}, ...]`` or a mapping; GradingError on malformed records."""
    if isinstance(answers, dict):
        return {_answer_id(k, answers): v for k, v in answers.items()}
    out: dict = {}
    for a in answers:
        if not isinstance(a, dict) or "id" not in a:
            raise GradingError(f"an answer must be an object with an 'id' (and an 'answer'): {a!r}")
        qid = _answer_id(a["id"], a)
        if qid in out:
            raise GradingError(f"answer id {qid!r} occurs twice")
        out[qid] = a.get("answer", a.get("text"))
    return out


def grade_questions(truth: Optional[GroundTruth], questions: list[Question], answers,
                    episode: Optional[str] = None) -> GradeReport:
    """Grade ``answers`` (``[{"id", "answer"}]`` or ``{id: text}``) to ``questions`` about ``truth``'s trace
    (None when every question is ``given``: no checker needed)."""
    texts = answers_by_id(answers)
    seen: set = set()
    rows = []
    for q in questions:
        if q.id in seen:
            raise GradingError(f"question id {q.id!r} occurs twice")
        seen.add(q.id)
        check_question(truth, q)
        rows.append(graded_row(q, correct_answers(truth, q), texts.get(q.id), place_candidates(truth, q), episode))
    return GradeReport(rows, sorted(set(texts) - seen), episode)


def grade_trace(trace, questions: list[Question], answers, policy="strict-truthful") -> GradeReport:
    """:func:`grade_questions` on the exact truth of ``trace`` (a :class:`~belief.truth.trace.Trace`)."""
    return grade_questions(check(trace, policy=policy), questions, answers, episode_id(trace))


# --- the three-level table (Table 2 of the study) over the general path ----------------------------
@dataclass
class Report:
    """Per-level accuracy (a fraction) of graded rows (rows of no level are left out); `unparseable` lists (id,
    answer) pairs, counted wrong."""

    correct: dict = field(default_factory=lambda: {lvl: 0 for lvl in LEVELS})
    total: dict = field(default_factory=lambda: {lvl: 0 for lvl in LEVELS})
    unparseable: list = field(default_factory=list)
    missing: list = field(default_factory=list)
    unknown_ids: list = field(default_factory=list)

    def accuracy(self, level=None) -> float | None:
        if level is None:
            c, n = sum(self.correct.values()), sum(self.total.values())
        else:
            c, n = self.correct.get(level, 0), self.total.get(level, 0)
        return c / n if n else None

    def level_figures(self) -> dict:
        """The per-episode ToM figures of the episode runners: accuracy, correct and total per level."""
        return {"tom_accuracy": {lvl: self.accuracy(lvl) for lvl in LEVELS},
                "tom_correct": dict(self.correct), "tom_total": dict(self.total)}

    def merge(self, other: "Report") -> "Report":
        for lvl in LEVELS:
            self.correct[lvl] += other.correct.get(lvl, 0)
            self.total[lvl] += other.total.get(lvl, 0)
        self.unparseable += other.unparseable
        self.missing += other.missing
        self.unknown_ids += other.unknown_ids
        return self

    def to_json(self) -> dict:
        return {"accuracy": {lvl: self.accuracy(lvl) for lvl in LEVELS}, "overall": self.accuracy(),
                "correct": dict(self.correct), "total": dict(self.total),
                "unparseable": [{"id": i, "answer": a} for i, a in self.unparseable],
                "missing": list(self.missing), "unknown_ids": list(self.unknown_ids)}

    @classmethod
    def from_rows(cls, rows: list, unknown_ids=()) -> "Report":
        rep = cls(unknown_ids=list(unknown_ids))
        for r in rows:
            lvl = r["level"]
            if lvl is None:  # a question of no level (a selected one): not in the three-level table
                continue
            if lvl not in rep.total:
                raise GradingError(f"question {r['id']}: unknown level {lvl!r}")
            rep.total[lvl] += 1
            rep.correct[lvl] += int(r["correct"])
            if r["reading"] == UNREADABLE:
                rep.unparseable.append((r["id"], r["answer"]))
            elif r["reading"] == MISSING:
                rep.missing.append(r["id"])
        return rep


def _answer_id(qid, where) -> str:
    """Question ids are strings; an integer id is read as its decimal text, anything else is an error."""
    if isinstance(qid, str):
        return qid
    if isinstance(qid, int) and not isinstance(qid, bool):
        return str(qid)
    raise GradingError(f"an answer id must be a string: {where!r}")


def level_question(d) -> Question:
    """A question that carries its exact answer (an object or dict with ``id``, ``level``, ``answer`` (bool),
    optionally ``asked`` / ``target`` / ``template`` / ``text``) as a ``given`` yes/no question; its chain
    (a label) makes an introspection question one asked about oneself, as on every other path."""
    d = d if isinstance(d, dict) else d.to_json()
    level = d.get("level")
    if level not in LEVELS:
        raise GradingError(f"question {d.get('id')}: unknown level {level!r}")
    if not isinstance(d.get("answer"), bool):
        raise GradingError(f"question {d.get('id')}: its exact 'answer' must be true or false")
    asked, target = d.get("asked"), d.get("target")
    chain = tuple(x for x in level_chain(level, asked, target) if x is not None)
    return Question(id=str(d["id"]), kind=GIVEN, chain=chain, fluent=None, level=level, agent=asked,
                    template=d.get("template"), text=d.get("text"), gold=(YES if d["answer"] else NO,),
                    answer_type="yes_no")


def grade(questions, answers) -> Report:
    """The per-level table of `answers` (dicts {id, answer} or id->text) to `questions` that carry their exact
    answer (:func:`level_question`), graded by :func:`grade_questions`; questions of no level are left out (their
    answers count among ``unknown_ids``)."""
    levelled = [d for d in (q if isinstance(q, dict) else q.to_json() for q in questions) if d.get("level") is not None]
    rep = grade_questions(None, [level_question(d) for d in levelled], answers)
    return Report.from_rows(rep.rows, rep.unknown_ids)


def read_jsonl(path) -> list[dict]:
    """The JSON values of a JSONL file (strict: :func:`belief.files.json_input.load_json`; a leading byte
    order mark is dropped); GradingError naming the file and line on failure."""
    return read_json_lines(path, GradingError)


__all__ = ["episode_id", "trace_digest", "read_answer", "graded_row", "GradeReport", "answers_by_id", "level_question",
           "grade_questions", "grade_trace", "grade", "Report", "GradingError", "LEVELS", "LEVEL_TITLES",
           "ROW_COLUMNS", "BREAKDOWNS", "UNREADABLE", "MISSING", "read_jsonl"]
