"""What ``belief eval`` evaluates on: a stories directory, a ToMi or Hi-ToM file (the adapters), or any trace
with a questions file. Every source becomes a list of :class:`Item`: the story's text, one question, its
gold answer from the checker, and (ToMi, Hi-ToM) the released label."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from belief.adapters import hitom, tomi
from belief.app.evaluation.stories_dir import is_stories_dir, read_stories_dir
from belief.errors import BeliefError
from belief.grading.files import load_questions, read_complete_trace
from belief.grading.questions import Question, check_question, correct_answers, place_candidates
from belief.grading.report import episode_id
from belief.stories.text import question_text
from belief.truth.checker import check
from belief.truth.ground import GroundTruth


class DatasetError(BeliefError):
    """A dataset that cannot be read for an evaluation."""


@dataclass
class Item:
    """One question to put to a model, with everything needed to grade it."""

    key: str                   # unique in the dataset: "<episode>/<question id>"
    episode: str
    question: Question
    text: str                  # the story, as the model reads it
    prompt_question: str       # the question, as the model reads it
    gold: tuple                # every correct reading (the checker's answer)
    candidates: tuple          # the places an answer may name
    truth: GroundTruth = field(repr=False)
    trace: object = field(repr=False, default=None)
    label: Optional[str] = None  # the released label (ToMi, Hi-ToM)

    @property
    def order(self):
        return self.question.order

    @property
    def phenomenon(self) -> str:
        return self.question.category or self.question.template or "-"


def _question_words(q: Question) -> str:
    if q.text:
        return q.text
    if q.fluent is not None and q.fluent[0] == "in" and q.kind in ("value", "knows"):
        return question_text(q.kind, q.chain, q.fluent[1])
    who = " thinks ".join(q.chain)
    return f"{q.kind} question about {q.fluent_text}" + (f" as {who} thinks" if who else "")


def _item(episode: str, q: Question, text: str, truth: GroundTruth, trace=None, label=None,
          prompt_question: Optional[str] = None) -> Item:
    check_question(truth, q)
    return Item(key=f"{episode}/{q.id}", episode=episode, question=q, text=text,
                prompt_question=prompt_question or _question_words(q), gold=correct_answers(truth, q),
                candidates=place_candidates(truth, q), truth=truth, trace=trace, label=label)


def trace_text(trace) -> str:
    """A trace's events as sentences (for a trace that comes without its own text)."""
    return "\n".join(e.describe()[:1].upper() + e.describe()[1:] + "." for e in trace if e.kind != "noise") + "\n"


def from_stories(path: Path, policy: str) -> list[Item]:
    items = []
    for s in read_stories_dir(path):
        truth = check(s["trace"], policy=policy)
        items.extend(_item(s["id"], q, s["text"], truth, s["trace"]) for q in s["questions"])
    return items


def from_trace(path: Path, questions_path: Path, policy: str, text_path: Optional[Path] = None) -> list[Item]:
    trace = read_complete_trace(path)
    episode = episode_id(trace)
    questions = load_questions(questions_path, episode)
    truth = check(trace, policy=policy)
    text = Path(text_path).read_text(encoding="utf-8") if text_path else trace_text(trace)
    return [_item(episode, q, text, truth, trace) for q in questions]


def _labelled(name: str, graded, stories: list) -> list[Item]:
    items = []
    for g, story in zip(graded, stories):
        truth = g.truth
        if g.kind == "memory":  # "where was it at the beginning": reality when it was first seen
            first = truth.history(g.fluent)[0].t
            q = Question(id=str(g.id), kind="value", chain=(), fluent=g.fluent, time=first, template="memory",
                         text=g.question, category=g.group)
        else:
            q = Question(id=str(g.id), kind="value", chain=tuple(g.chain), fluent=g.fluent, template=g.group,
                         text=g.question, category=g.group)
        text = "\n".join(t for _, t in story) + "\n"
        items.append(_item(f"{name}-{g.id}", q, text, truth, label=g.gold))
    return items


def from_tomi(path: Path, policy: str) -> list[Item]:
    examples = tomi.read_examples(path)
    return _labelled("tomi", tomi.grade_examples(examples, str(path), policy), [e.story for e in examples])


def from_hitom(path: Path, policy: str) -> list[Item]:
    found = hitom.read_items(path)
    return _labelled("hitom", hitom.grade_items(found, policy), [it.story for it in found])


def dataset_kind(path: Path, questions: Optional[Path] = None) -> str:
    path = Path(path)
    if not path.exists():
        raise DatasetError(f"{path}: no such file or directory")
    if questions is not None:
        return "trace"
    if path.is_dir():
        if is_stories_dir(path):
            return "stories"
        if any(path.glob("*/*/length_*")) or any(path.glob("*/length_*")):
            return "hitom"
        raise DatasetError(f"{path}: a directory that is neither a stories set (belief stories --out) nor a "
                           f"Hi-ToM tree")
    if path.name.endswith(".trace.jsonl"):
        raise DatasetError(f"{path} is a trace: pass its questions with --questions FILE")
    if path.suffix in (".json", ".jsonl"):
        return "hitom"
    return "tomi"


def load_items(path: Path, questions: Optional[Path] = None, policy: Optional[str] = None,
               text: Optional[Path] = None) -> tuple[str, list[Item]]:
    """(kind, items) of a dataset; the policy defaults to the dataset's own (Hi-ToM: ``hitom``)."""
    kind = dataset_kind(path, questions)
    policy = policy or ("hitom" if kind == "hitom" else "strict-truthful")
    if kind == "stories":
        items = from_stories(path, policy)
    elif kind == "trace":
        items = from_trace(path, questions, policy, text)
    elif kind == "hitom":
        items = from_hitom(path, policy)
    else:
        items = from_tomi(path, policy)
    if not items:
        raise DatasetError(f"{path}: no questions to evaluate")
    return kind, items


__all__ = ["Item", "DatasetError", "load_items", "dataset_kind", "trace_text"]
