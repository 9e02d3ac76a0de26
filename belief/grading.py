"""Grade free-text yes/no answers to ToM questions against exact answers; per-level accuracy (Table 2).

:func:`extract_yes_no` reads a stance from answers such as "No, Charlie does not know ... because
...", "Yes.", "I believe so", "**Answer:** no", "Bravo is not aware that ...". It returns ``True``,
``False`` or ``None`` (unparseable: both or neither stance, or only hedging); unparseable answers are
reported, never silently counted as wrong guesses of one side.

Environment-independent: an environment supplies the questions with their exact answers (for bomb_v0 traces,
:func:`belief.envs.bomb_grading.grade_files`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from belief.errors import BeliefError

LEVELS = ("introspection", "first_order", "second_order")
LEVEL_TITLES = {"introspection": "Introspection", "first_order": "1st-order", "second_order": "2nd-order"}


class GradingError(BeliefError):
    """Answers that cannot be graded (bad file, unknown question ids, ...)."""


_LEAD_YES = re.compile(r"^(?:yes|yeah|yep|correct|true|affirmative|definitely|certainly|indeed|of course|"
                       r"i believe so|i think so|absolutely)\b")
_LEAD_NO = re.compile(r"^(?:no|nope|not really|false|negative|incorrect|i don'?t think so|i do not think so|"
                      r"not at all)\b")
# contractions with or without the apostrophe ("doesn't", "doesnt")
_NEG = re.compile(r"\b(?:does not|doesn'?t|do not|don'?t|is not|isn'?t|are not|aren'?t|cannot|can'?t|can not|"
                  r"has not|hasn'?t|have not|haven'?t|was not|wasn'?t|unaware|not aware|no longer|never|lacks?|"
                  r"unknown to|not know|did not|didn'?t)\b")
# answers that take no side: "I don't know.", "Not sure.", "No idea."
_NON_ANSWER = re.compile(r"^(?:(?:i\s+)?(?:do not|don'?t)\s+know|(?:i'?m\s+|i am\s+)?not sure|no idea|"
                         r"(?:i\s+)?(?:cannot|can'?t) (?:say|tell)|dunno)\s*[.!]?\s*$")
_POS = re.compile(r"\b(?:knows|know|is aware|are aware|aware|has seen|have seen|learned|informed)\b")
_HEDGE = re.compile(r"\b(?:maybe|perhaps|unclear|uncertain|possibly|might|cannot determine|can't determine|"
                    r"not enough information|unsure)\b")


def _clean(text: str) -> str:
    t = (text or "").strip().lower()
    t = t.replace("\u2019", "'").replace("\u2018", "'")
    t = re.sub(r"[*_`#>\"]", "", t)
    t = re.sub(r"^(?:answer|final answer|a|response)\s*[:\-]\s*", "", t)
    return t.strip()


def extract_yes_no(text) -> bool | None:
    """True (yes), False (no) or None (unparseable) from a free-text answer."""
    if isinstance(text, bool):
        return text
    t = _clean(str(text) if text is not None else "")
    if not t or _NON_ANSWER.match(t):
        return None
    first = re.split(r"(?<=[.!?;])\s|\bbecause\b|\bsince\b|\bas\b", t, maxsplit=1)[0]
    words = set(re.findall(r"[a-z]+", first))
    has_yes, has_no = "yes" in words, "no" in words
    if has_yes and has_no:
        return None
    if _LEAD_YES.match(t):
        return True
    if _LEAD_NO.match(t):
        return False
    m = re.search(r"\b(?:answer|verdict)\s*(?:is|:)\s*(yes|no)\b", t)
    if m:
        return m.group(1) == "yes"
    if has_yes != has_no:
        return has_yes
    if _HEDGE.search(first) and not _NEG.search(first):
        return None
    if _NEG.search(first):
        return False
    if _POS.search(first):
        return True
    return None


@dataclass
class Report:
    """Per-level accuracy; `unparseable` lists (id, answer) pairs graded as wrong and reported."""

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
        return 100.0 * c / n if n else None

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


def _answer_id(qid, where) -> str:
    """Question ids are strings; an integer id is read as its decimal text, anything else is an error."""
    if isinstance(qid, str):
        return qid
    if isinstance(qid, int) and not isinstance(qid, bool):
        return str(qid)
    raise GradingError(f"an answer id must be a string: {where!r}")


def grade(questions, answers) -> Report:
    """`questions`: objects or dicts with id, level, answer (bool); `answers`: dicts {id, answer} or id->text."""
    qmap = {}
    for q in questions:
        d = q if isinstance(q, dict) else q.to_json()
        qmap[d["id"]] = d
    if isinstance(answers, dict):
        amap = {_answer_id(k, answers): v for k, v in answers.items()}
    else:
        amap = {}
        for a in answers:
            if not isinstance(a, dict) or "id" not in a:
                raise GradingError(f"an answer must be an object with an 'id' (and an 'answer'): {a!r}")
            amap[_answer_id(a["id"], a)] = a.get("answer", a.get("text"))
    rep = Report()
    for qid, d in qmap.items():
        lvl = d["level"]
        if lvl not in rep.total:
            raise GradingError(f"question {qid}: unknown level {lvl!r}")
        rep.total[lvl] += 1
        if qid not in amap:
            rep.missing.append(qid)
            continue
        got = extract_yes_no(amap[qid])
        if got is None:
            rep.unparseable.append((qid, amap[qid]))
            continue
        rep.correct[lvl] += int(got == bool(d["answer"]))
    rep.unknown_ids = sorted(set(amap) - set(qmap))
    return rep


def read_jsonl(path) -> list[dict]:
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise GradingError(f"{path}: cannot read: {e}") from None
    out = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as e:
            raise GradingError(f"{path}:{n}: invalid JSON: {e.msg}") from None
    return out


def table_rows(reports: dict) -> list[list[str]]:
    """Rows like the study's Table 2: name, introspection, 1st-order, 2nd-order (accuracy %)."""
    rows = []
    for name, rep in reports.items():
        rows.append([name] + [("n/a" if rep.accuracy(l) is None else f"{rep.accuracy(l):.1f}%") for l in LEVELS])
    return rows


__all__ = ["extract_yes_no", "grade", "Report", "GradingError", "LEVELS", "LEVEL_TITLES",
           "read_jsonl", "table_rows"]
