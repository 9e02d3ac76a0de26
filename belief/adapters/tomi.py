"""ToMi (bAbI-style) stories -> traces -> exact answers, graded against the file's labels.

File format: numbered lines ``N sentence``; numbering restarts at 1 for each example; the last line of an
example is ``N question<TAB>answer<TAB>1``. An optional ``.trace`` file has one line per example whose
last two comma-separated fields are the question type (``first_order_1_tom``, ``memory``, ...) and the
story type (``true_belief``, ...).

Sentences: ``A entered the L.``, ``A exited the L.``, ``A is in the L.``, ``The O is in the C.``,
``A moved the O to the C.``, noise ``A likes|dislikes|loves|hates the X`` (with or without a period).
Questions: ``Where was the O at the beginning?`` (memory), ``Where is the O really?`` (reality),
``Where will A look for the O?`` (first order), ``Where does A think that B searches for the O?``
(second order). Anything else is an :class:`AdapterError` naming the file and line.

A statement "The O is in the C." is visible in the room that holds C (if known) or else in the room the
story is currently about (the room most recently entered).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from belief.adapters.common import AdapterError, GradedQuestion, Report
from belief.checker import check
from belief.trace import Enter, Exit, Move, Noise, Statement, Trace

_NAME = r"([A-Za-z0-9_\-]+)"
SENTENCES = [
    ("enter", re.compile(rf"^{_NAME} entered the {_NAME}\.?$")),
    ("exit", re.compile(rf"^{_NAME} exited the {_NAME}\.?$")),
    ("move", re.compile(rf"^{_NAME} moved the {_NAME} to the {_NAME}\.?$")),
    ("statement", re.compile(rf"^The {_NAME} is in the {_NAME}\.?$")),
    ("agent_in", re.compile(rf"^{_NAME} is in the {_NAME}\.?$")),
    ("noise", re.compile(rf"^{_NAME} (?:likes|dislikes|loves|hates) the {_NAME}\.?$")),
]
QUESTIONS = [
    ("memory", re.compile(rf"^Where was the {_NAME} at the beginning\?$")),
    ("reality", re.compile(rf"^Where is the {_NAME} really\?$")),
    ("first_order", re.compile(rf"^Where will {_NAME} look for the {_NAME}\?$")),
    ("second_order", re.compile(rf"^Where does {_NAME} think that {_NAME} searches for the {_NAME}\?$")),
]


@dataclass
class Example:
    index: int
    story: list            # [(file line, text)]
    question: str
    answer: str
    line: int              # file line of the question
    qtype: Optional[str] = None
    story_type: Optional[str] = None


def read_examples(path, trace_path=None) -> list[Example]:
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise AdapterError(f"{path}: cannot read: {e}") from None
    examples: list[Example] = []
    story: list = []
    last_n = 0
    for ln, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        m = re.match(r"^\s*(\d+)\s+(.*)$", line)
        if not m:
            raise AdapterError(f"{path}:{ln}: expected 'N sentence', got {line!r}")
        n, text = int(m.group(1)), m.group(2)
        if n == 1 and story:
            raise AdapterError(f"{path}:{ln}: a new example starts before the previous one asked its question")
        if n != last_n + 1:
            raise AdapterError(f"{path}:{ln}: line number {n} does not follow {last_n}")
        last_n = n
        if "\t" in text:
            parts = text.split("\t")
            if len(parts) < 2:
                raise AdapterError(f"{path}:{ln}: a question line needs 'question<TAB>answer', got {line!r}")
            examples.append(Example(len(examples), story, parts[0].strip(), parts[1].strip(), ln))
            story = []
            last_n = 0
        else:
            story.append((ln, text.strip()))
    if story:
        raise AdapterError(f"{path}:{story[-1][0]}: the file ends inside a story (no question line)")
    if trace_path is not None:
        tpath = Path(trace_path)
        try:
            tlines = [x for x in tpath.read_text(encoding="utf-8").splitlines() if x.strip()]
        except (OSError, UnicodeDecodeError) as e:
            raise AdapterError(f"{tpath}: cannot read: {e}") from None
        if len(tlines) != len(examples):
            raise AdapterError(f"{tpath}: {len(tlines)} trace lines for {len(examples)} examples in {path}")
        for ex, tl in zip(examples, tlines):
            fields = [f.strip() for f in tl.split(",")]
            if len(fields) < 2:
                raise AdapterError(f"{tpath}:{ex.index + 1}: expected '...,question_type,story_type'")
            ex.qtype, ex.story_type = fields[-2], fields[-1]
    return examples


def story_to_trace(story: list, source: str) -> Trace:
    """Convert [(line, sentence)] to a Trace; AdapterError naming the line for an unknown sentence."""
    trace = Trace(meta={"dataset": "tomi", "source": source})
    scene: Optional[str] = None
    container_room: dict[str, str] = {}
    for ln, text in story:
        for kind, rx in SENTENCES:
            m = rx.match(text)
            if m:
                break
        else:
            raise AdapterError(f"{source}:{ln}: unknown ToMi sentence {text!r}")
        common = {"source": source, "source_line": ln}
        if kind in ("enter", "agent_in"):
            a, room = m.groups()
            scene = room
            trace.append(Enter(agents=(a,), room=room, **common))
        elif kind == "exit":
            a, room = m.groups()
            trace.append(Exit(agents=(a,), room=room, **common))
        elif kind == "move":
            a, o, c = m.groups()
            trace.append(Move(agent=a, object=o, to=c, **common))
        elif kind == "statement":
            o, c = m.groups()
            room = container_room.get(c, scene)
            if room is None:
                raise AdapterError(f"{source}:{ln}: {text!r}: no room is known yet for the {c}")
            container_room.setdefault(c, room)
            trace.append(Statement(subject=(o,), value=c, room=room, **common))
        else:
            trace.append(Noise(text=text, **common))
    return trace


def coarse_type(qtype: str) -> str:
    for k in ("first_order", "second_order", "memory", "reality"):
        if qtype.startswith(k):
            return k
    return qtype


def grade(path, trace_path=None, policy="strict-truthful") -> Report:
    """Answer every question of a ToMi file with the checker and compare with the labels."""
    path = Path(path)
    source = str(path)
    examples = read_examples(path, trace_path)
    cache: dict = {}
    out = []
    for ex in examples:
        for kind, rx in QUESTIONS:
            m = rx.match(ex.question)
            if m:
                break
        else:
            raise AdapterError(f"{source}:{ex.line}: unknown ToMi question {ex.question!r}")
        key = tuple(t for _, t in ex.story)
        truth = cache.get(key)
        if truth is None:
            truth = cache[key] = check(story_to_trace(ex.story, source), policy)
        g = m.groups()
        obj = g[-1]
        fluent = ("in", obj)
        chain = tuple(g[:-1]) if kind in ("first_order", "second_order") else ()
        if kind == "memory":
            answer = truth.initial(fluent)
        else:
            answer = truth.value(chain, fluent)
        qtype = ex.qtype or kind
        extra = {"order": len(chain)}
        if ex.story_type:
            extra["story_type"] = ex.story_type
        out.append(GradedQuestion(
            id=ex.index, source=source, question=ex.question, qtype=qtype, group=coarse_type(qtype),
            gold=ex.answer, answer=answer, chain=chain, fluent=fluent,
            kind="memory" if kind == "memory" else ("reality" if kind == "reality" else "belief"),
            truth=truth, line=ex.line, extra=extra))
    return Report("tomi", out, groups={"by_story_type": "story_type"})


__all__ = ["Example", "coarse_type", "grade", "read_examples", "story_to_trace"]
