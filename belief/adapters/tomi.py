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

Where a container is. A statement "The O is in the C." is visible in the room that holds C, and the
story never says which room that is: it is decided from the whole story (two passes: the first replays
who is where and records every action on a container, the second places the containers). A container
stays in one room for the whole story (as in ToMi), decided once, by the first rule that applies:

1. C is itself a room of the story (entered, exited or "A is in the C"): that room.
2. Somebody acts on C somewhere in the story: an agent moves an object into C, or moves out of C an
   object that the story had put in C. An agent acts on what is in its own room, so C is in the room
   where that agent is at that moment; the first such action in the story decides.
3. Otherwise, at C's first statement: the room holding the most agents at that moment (the scene the
   story is about; a bystander who just went elsewhere is outnumbered); on a tie, the tied room in which
   the next move of the story happens; on a further tie, the tied room entered most recently.
4. Nobody is in any room at that statement: the room most recently entered before it, else the first
   room entered after it; a story without any room is an :class:`AdapterError`.

So the last ``entered`` line is only a last resort: in ToMi a third agent may enter another room just
before the statement, and the object's room is where the agents who later act on it are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from belief.adapters.common import NAME, AdapterError, Forms, GradedQuestion, Report
from belief.truth.checker import check
from belief.truth.trace import Enter, Exit, Move, Noise, Statement, Trace

SENTENCES = Forms(
    enter=rf"^{NAME} entered the {NAME}\.?$",
    exit=rf"^{NAME} exited the {NAME}\.?$",
    move=rf"^{NAME} moved the {NAME} to the {NAME}\.?$",
    statement=rf"^The {NAME} is in the {NAME}\.?$",
    agent_in=rf"^{NAME} is in the {NAME}\.?$",
    noise=rf"^{NAME} (?:likes|dislikes|loves|hates) the {NAME}\.?$",
)
QUESTIONS = Forms(
    memory=rf"^Where was the {NAME} at the beginning\?$",
    reality=rf"^Where is the {NAME} really\?$",
    first_order=rf"^Where will {NAME} look for the {NAME}\?$",
    second_order=rf"^Where does {NAME} think that {NAME} searches for the {NAME}\?$",
)


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
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise AdapterError(f"{path}: cannot read: {e}") from None
    if not any(line.strip() for line in lines):
        raise AdapterError(f"{path}: no ToMi stories (the file is empty)")
    examples: list[Example] = []
    story: list = []
    last_n = 0
    for ln, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if not line.strip():
            if "\t" in line:  # not an empty line: a question line whose question and answer are missing?
                raise AdapterError(f"{path}:{ln}: a line of only tabs; expected 'N sentence', "
                                   f"'N question<TAB>answer<TAB>1' or an empty line")
            continue
        m = re.match(r"^ *(\d{1,9}) +(\S.*)$", line)
        if not m:
            shown = repr(line) if len(line) <= 80 else repr(line[:80]) + "..."
            raise AdapterError(f"{path}:{ln}: expected 'N sentence' (N a line number of at most 9 digits), "
                               f"got {shown}")
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
            if not parts[1].strip():  # the question cannot be empty: the line's text starts with a non-space
                raise AdapterError(f"{path}:{ln}: the question line has an empty answer field; expected "
                                   "'N question<TAB>answer<TAB>1'")
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
            tlines = [x for x in tpath.read_text(encoding="utf-8-sig").splitlines() if x.strip()]
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


def _parse(story: list, source: str) -> list:
    """[(line, sentence)] -> [(line, text, kind, groups)]; AdapterError naming the line for an unknown sentence."""
    out = []
    for ln, text in story:
        kind, groups = SENTENCES.read(text, "ToMi sentence", f"{source}:{ln}")
        out.append((ln, text, kind, groups))
    return out


def container_rooms(story: list, source: str = "<story>") -> dict[str, str]:
    """The room of every container named by a statement of ``story`` ([(line, sentence)]), by the rules of
    the module docstring."""
    return _container_rooms(_parse(story, source), source)


def _container_rooms(parsed: list, source: str) -> dict[str, str]:
    """Pass one replays the agents' rooms and records, per container, the rooms where agents act on it
    and the occupancy at its first statement; pass two applies the rules in order."""
    rooms = {g[1] for _, _, kind, g in parsed if kind in ("enter", "exit", "agent_in")}
    loc: dict[str, Optional[str]] = {}      # agent -> room (None: in no room)
    last_entry: dict[str, int] = {}         # room -> position of its last entry
    obj_in: dict[str, str] = {}             # object -> container, as the story tells it
    acted: dict[str, str] = {}              # container -> room of the first action on it
    first_stmt: dict[str, tuple] = {}       # container -> (position, line, text, occupancy, last entries)
    move_rooms: list = []                   # (position, room of the mover)
    for pos, (ln, text, kind, g) in enumerate(parsed):
        if kind in ("enter", "agent_in"):
            a, room = g
            loc[a] = room
            last_entry[room] = pos
        elif kind == "exit":
            loc[g[0]] = None
        elif kind == "move":
            a, o, c = g
            here = loc.get(a)
            if here is not None:
                move_rooms.append((pos, here))
                for cont in (obj_in.get(o), c):
                    if cont is not None:
                        acted.setdefault(cont, here)
            obj_in[o] = c
        elif kind == "statement":
            o, c = g
            obj_in[o] = c
            if c not in first_stmt:
                occupancy: dict[str, list] = {}
                for a, r in loc.items():
                    if r is not None:
                        occupancy.setdefault(r, []).append(a)
                first_stmt[c] = (pos, ln, text, occupancy, dict(last_entry))
    out: dict[str, str] = {}
    for c, (pos, ln, text, occupancy, entries) in first_stmt.items():
        if c in rooms:
            out[c] = c
        elif c in acted:
            out[c] = acted[c]
        elif occupancy:
            most = max(len(v) for v in occupancy.values())
            tied = [r for r, v in occupancy.items() if len(v) == most]
            if len(tied) > 1:
                nxt = next((r for p, r in move_rooms if p > pos and r in tied), None)
                if nxt is not None:
                    tied = [nxt]
            out[c] = max(tied, key=lambda r: entries.get(r, -1))
        elif entries:
            out[c] = max(entries, key=lambda r: entries[r])
        else:
            later = next((g[1] for _, _, kind, g in parsed[pos + 1:] if kind in ("enter", "agent_in")), None)
            if later is None:
                raise AdapterError(f"{source}:{ln}: {text!r}: no room is known for the {c} "
                                   "(nobody enters any room)")
            out[c] = later
    return out


def story_to_trace(story: list, source: str) -> Trace:
    """Convert [(line, sentence)] to a Trace; AdapterError naming the line for an unknown sentence."""
    trace = Trace(meta={"dataset": "tomi", "source": source})
    parsed = _parse(story, source)
    where = _container_rooms(parsed, source)
    for ln, text, kind, g in parsed:
        common = {"source": source, "source_line": ln}
        if kind in ("enter", "agent_in"):
            a, room = g
            trace.append(Enter(agents=(a,), room=room, **common))
        elif kind == "exit":
            a, room = g
            trace.append(Exit(agents=(a,), room=room, **common))
        elif kind == "move":
            a, o, c = g
            trace.append(Move(agent=a, object=o, to=c, **common))
        elif kind == "statement":
            o, c = g
            trace.append(Statement(subject=(o,), value=c, room=where[c], **common))
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
    return Report("tomi", grade_examples(read_examples(path, trace_path), str(path), policy),
                  groups={"by_story_type": "story_type"})


def grade_examples(examples, source: str, policy="strict-truthful") -> list[GradedQuestion]:
    """The graded questions of `examples` (any slice of a file: shards of one file grade independently)."""
    cache: dict = {}
    out = []
    for ex in examples:
        kind, g = QUESTIONS.read(ex.question, "ToMi question", f"{source}:{ex.line}")
        key = tuple(t for _, t in ex.story)
        truth = cache.get(key)
        if truth is None:
            truth = cache[key] = check(story_to_trace(ex.story, source), policy)
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
    return out


__all__ = ["Example", "coarse_type", "container_rooms", "grade", "grade_examples", "read_examples", "story_to_trace"]
