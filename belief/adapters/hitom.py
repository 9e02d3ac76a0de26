"""Hi-ToM stories -> traces -> exact answers (trust policy ``hitom``), graded against the labels.

Reads both published shapes:

- the JSON release ``{"data": [item, ...]}`` (or a plain list, or JSON Lines such as the samples'
  ``sample.jsonl``); an item has ``story`` (a string of numbered lines or a list of sentences),
  ``question``, ``answer``, ``question_order`` and optionally ``tell`` / ``deception``, ``story_length``,
  ``sample_id``/``sample``, ``prompting_type``;
- the directory tree ``.../{Tell,No_Tell}/{MC,CoT}/length_N/sample_K/order_J.txt`` (one story, question
  and answer per file).

MC and CoT (or MCQ/CoTP) copies of the same item are counted once.

Chapters: each ``... entered the L.`` with L other than ``waiting_room`` starts a chapter; the events up to
the next chapter belong to it (the walk to the waiting room excepted), and so do the messages that follow
it -- the ``hitom`` policy reads the chapter's participants and exit order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from belief.adapters.common import NAME, AdapterError, Forms, GradedQuestion, Report
from belief.truth.checker import check
from belief.files.json_input import load_json
from belief.truth.trace import Announce, Content, Enter, Exit, Move, Noise, Noop, Statement, Tell, Trace

WAITING_ROOM = "waiting_room"
_N = NAME
_LIST = r"([A-Za-z0-9_\-]+(?:(?:, | and |, and )[A-Za-z0-9_\-]+)*)"
SENTENCES = Forms(
    enter=rf"^{_LIST} entered the {_N}\.$",
    exit=rf"^{_N} (?:exited|left|went out of) the {_N}\.$",
    move=rf"^{_N} moved the {_N} to the {_N}\.$",
    statement=rf"^The {_N} is in the {_N}\.$",
    stay=rf"^{_N} made no movements and stayed in the {_N} for \d+ minutes?\.$",
    public=rf"^{_N} publicly claimed that (?:the )?{_N} is in the {_N}(?: now)?\.$",
    private=rf"^{_N} privately told {_N} that (?:the )?{_N} is (?:actually )?in the {_N}(?: now)?\.$",
    noise=rf"^{_N} (?:saw an? {_N}|lost (?:his|her|their) {_N}|likes the {_N}|dislikes the {_N})\.$",
)
QUESTIONS = Forms(
    reality=rf"^Where is the {_N} really\?$",
    first=rf"^Where does {_N} really think the {_N} is\?$",
    higher=rf"^Where does {_N} think ((?:{_N} thinks )+)the {_N} is\?$",
)


@dataclass
class Item:
    index: int                 # 0-based order of the item in the input
    source: Any                # .txt path relative to PATH, or index in the JSON list
    origin: str                # file the story came from (for error messages)
    story: list                # [(line, sentence)]
    question: str
    answer: str
    qline: Optional[int] = None
    tell: Optional[str] = None
    order: Optional[int] = None
    meta: dict = field(default_factory=dict)


def _split_names(s: str) -> list[str]:
    return [x for x in re.split(r", and |, | and ", s) if x]


def story_to_trace(story: list, source: str) -> Trace:
    """Convert [(line, sentence)] to a Trace; AdapterError naming the line for an unknown sentence."""
    trace = Trace(meta={"dataset": "hitom", "source": source})
    chapter = 0
    scene: Optional[str] = None
    container_room: dict[str, str] = {}
    for ln, text in story:
        kind, groups = SENTENCES.read(text, "Hi-ToM sentence", f"{source}:{ln}")
        common = {"source": source, "source_line": ln}
        ch = chapter or None
        if kind == "enter":
            names, room = groups
            agents = tuple(_split_names(names))
            if room == WAITING_ROOM:
                trace.append(Enter(agents=agents, room=room, **common))
            else:
                chapter += 1
                scene = room
                trace.append(Enter(agents=agents, room=room, chapter=chapter, **common))
        elif kind == "exit":
            a, room = groups
            trace.append(Exit(agents=(a,), room=room, chapter=ch, **common))
        elif kind == "move":
            a, o, c = groups
            trace.append(Move(agent=a, object=o, to=c, chapter=ch, **common))
        elif kind == "statement":
            o, c = groups
            where = container_room.get(c, scene)
            if where is None:
                raise AdapterError(f"{source}:{ln}: {text!r}: no room is known yet for the {c}")
            container_room.setdefault(c, where)
            trace.append(Statement(subject=(o,), value=c, room=where, chapter=ch, **common))
        elif kind == "stay":
            a, room = groups
            trace.append(Noop(agent=a, room=room, chapter=ch, **common))
        elif kind == "public":
            s, o, c = groups
            trace.append(Announce(sender=s, content=(Content(subject=(o,), value=c),), chapter=ch, **common))
        elif kind == "private":
            s, r, o, c = groups
            trace.append(Tell(sender=s, recipients=(r,), content=(Content(subject=(o,), value=c),), chapter=ch,
                              **common))
        else:
            trace.append(Noise(text=text, chapter=ch, **common))
    return trace


def parse_question(q: str, where: str) -> tuple[tuple, str]:
    q = q.strip()
    if q.startswith("Question:"):
        q = q[len("Question:"):].strip()
    kind, g = QUESTIONS.read(q, "Hi-ToM question", where)
    if kind == "reality":
        return (), g[0]
    if kind == "first":
        return (g[0],), g[1]
    middle = [x for x in g[1].split(" thinks ") if x.strip()]
    return (g[0], *[x.strip() for x in middle]), g[-1]


# ---------------------------------------------------------------------------------------------
# reading the two shapes
# ---------------------------------------------------------------------------------------------

def _natural(s: str) -> list[int | str]:
    return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", s)]


def _story_lines(story, origin: str) -> list:
    if isinstance(story, list):
        return [(i, str(s).strip()) for i, s in enumerate(story, start=1) if str(s).strip()]
    if isinstance(story, str):
        out = []
        for i, raw in enumerate(story.splitlines(), start=1):
            line = raw.strip()
            if not line:
                continue
            m = re.match(r"^(\d+)\s+(.*)$", line)
            out.append((int(m.group(1)) if m else i, (m.group(2) if m else line).strip()))
        return out
    raise AdapterError(f"{origin}: 'story' must be a string or a list of sentences")


def read_txt(path: Path, rel: str) -> Item:
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise AdapterError(f"{path}: cannot read: {e}") from None
    story, question, answer, qline = [], None, None, None
    in_story = False
    for ln, raw in enumerate(lines, start=1):
        line = raw.strip()
        if line == "Story:":
            in_story = True
            continue
        if line.startswith("Question:"):
            question, qline, in_story = line[len("Question:"):].strip(), ln, False
            continue
        if line.startswith("Answer:"):
            answer = line[len("Answer:"):].strip()
            continue
        if in_story and line:
            m = re.match(r"^(\d+)\s+(.*)$", line)
            if not m:
                raise AdapterError(f"{path}:{ln}: expected a numbered story sentence, got {line!r}")
            story.append((ln, m.group(2).strip()))
    if not story or question is None or answer is None:
        raise AdapterError(f"{path}: expected 'Story:', numbered sentences, 'Question:' and 'Answer:' lines")
    parts = Path(rel).parts
    tell = next((p for p in parts if p in ("Tell", "No_Tell")), None)
    m = re.search(r"order_(\d+)", path.name)
    meta = {}
    for p in parts:
        mm = re.match(r"^(length|sample)_(\d+)$", p)
        if mm:
            meta[mm.group(1)] = int(mm.group(2))
    return Item(0, rel, str(path), story, question, answer, qline, tell, int(m.group(1)) if m else None, meta)


def _tell_of(d: dict) -> Optional[str]:
    if "tell" in d and d["tell"] is not None:
        v = d["tell"]
        if isinstance(v, bool):
            return "Tell" if v else "No_Tell"
        return str(v)
    if "deception" in d and d["deception"] is not None:
        return "Tell" if d["deception"] else "No_Tell"
    return None


def _from_record(d: Any, idx: int, origin: str) -> Item:
    where = f"{origin}#{idx}"
    if not isinstance(d, dict):
        raise AdapterError(f"{where}: an item must be a JSON object")
    for k in ("story", "question", "answer"):
        if k not in d:
            raise AdapterError(f"{where}: item without {k!r}")
    meta = {k: d[k] for k in ("story_length", "sample_id", "sample", "prompting_type") if k in d}
    return Item(0, idx, where, _story_lines(d["story"], where), str(d["question"]), str(d["answer"]).strip(), None,
                _tell_of(d), _question_order(d.get("question_order"), where), meta)


def _question_order(order: Any, where: str) -> Optional[int]:
    """The declared ``question_order``: a non-negative integer (or a string of digits), or absent."""
    if order is None:
        return None
    if isinstance(order, str) and order.strip().isdigit():
        return int(order)
    if isinstance(order, int) and not isinstance(order, bool) and order >= 0:
        return order
    shown = repr(order) if len(repr(order)) <= 40 else repr(order)[:40] + "..."
    raise AdapterError(f"{where}: question_order must be a non-negative integer, got {shown}")


def _dedupe_key(it: Item) -> tuple[Optional[str], tuple[str, ...], str, str]:
    return (it.tell, tuple(t for _, t in it.story), it.question.strip(), it.answer)


def read_items(path) -> list[Item]:
    """Items of a Hi-ToM JSON / JSONL file or directory tree, MC/CoT copies counted once; AdapterError
    when there is none (an empty file or data list is a mistake, not a score)."""
    items = _read_items(path)
    if not items:
        raise AdapterError(f"{path}: no Hi-ToM questions found (an empty file or data list)")
    return items


def _read_items(path) -> list[Item]:
    path = Path(path)
    items: list[Item] = []
    if path.is_dir():
        txts = sorted((p for p in path.rglob("*.txt") if re.match(r"order_\d+\.txt$", p.name)),
                      key=lambda p: _natural(str(p.relative_to(path))))
        if txts:
            seen: dict = {}
            # MC before CoT so the MC copy is the one kept
            txts.sort(key=lambda p: (_natural(re.sub(r"(^|/)(MC|MCQ|CoT|CoTP)(/|$)", r"\1*\3",
                                                     str(p.relative_to(path)))),
                                     0 if "/MC" in "/" + str(p.relative_to(path)) else 1))
            for p in txts:
                rel = str(p.relative_to(path))
                key = re.sub(r"(^|/)(MC|MCQ|CoT|CoTP)(/|$)", r"\1*\3", rel)
                it = read_txt(p, rel)
                if key in seen:
                    continue
                seen[key] = True
                items.append(it)
        else:
            files = sorted([*path.glob("*.json"), *path.glob("*.jsonl")], key=lambda p: _natural(p.name))
            if not files:
                raise AdapterError(f"{path}: no order_J.txt files and no .json/.jsonl file")
            for f in files:
                items.extend(_read_items(f))
    else:
        try:
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as e:
            raise AdapterError(f"{path}: cannot read: {e}") from None
        if path.suffix == ".txt":
            items.append(read_txt(path, path.name))
        else:
            records = None
            try:
                data = load_json(text, error=AdapterError)
                if isinstance(data, dict) and "data" in data:
                    records = data["data"]
                elif isinstance(data, list):
                    records = data
                elif isinstance(data, dict):
                    records = [data]
            except AdapterError:  # not one JSON document: JSON Lines
                records = []
                for ln, line in enumerate(text.splitlines(), start=1):
                    if line.strip():
                        records.append(load_json(line, f"{path}:{ln}: ", AdapterError))
            if not isinstance(records, list):
                raise AdapterError(f"{path}: expected {{\"data\": [...]}}, a JSON list or JSON Lines")
            seen2: dict = {}
            for i, d in enumerate(records):
                it = _from_record(d, i, str(path))
                k = _dedupe_key(it)
                if k in seen2:
                    continue
                seen2[k] = True
                items.append(it)
    for i, it in enumerate(items):
        it.index = i
    return items


def grade(path, policy="hitom") -> Report:
    """Answer every Hi-ToM question with the checker and compare with the labels."""
    return Report("hitom", grade_items(read_items(path), policy), groups={"by_tell": "tell"})


def grade_items(items, policy="hitom") -> list[GradedQuestion]:
    """The graded questions of `items` (any slice of a dataset: shards grade independently)."""
    cache: dict = {}
    out = []
    for it in items:
        where = f"{it.origin}:{it.qline}" if it.qline else it.origin
        chain, obj = parse_question(it.question, where)
        key = (it.origin, tuple(t for _, t in it.story))
        truth = cache.get(key)
        if truth is None:
            truth = cache[key] = check(story_to_trace(it.story, it.origin), policy)
        fluent = ("in", obj)
        answer = truth.value(chain, fluent)
        order = len(chain)
        tell = it.tell
        if tell is None:
            tell = "Tell" if any(isinstance(e, (Tell, Announce)) for e in truth.events) else "No_Tell"
        extra = {"order": order, "tell": tell}
        if it.order is not None and it.order != order:
            extra["declared_order"] = it.order
        extra.update(it.meta)
        out.append(GradedQuestion(
            id=it.index, source=it.source, question=it.question, qtype=f"order_{order}", group=f"order_{order}",
            gold=it.answer, answer=answer, chain=chain, fluent=fluent,
            kind="reality" if order == 0 else "belief", truth=truth, line=it.qline, extra=extra))
    return out


__all__ = ["Item", "grade", "grade_items", "parse_question", "read_items", "story_to_trace"]
