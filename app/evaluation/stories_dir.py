"""A generated story set on disk (``belief stories --out DIR``), and reading it back.

Layout (every file written atomically; the same options give byte-identical files)::

    DIR/manifest.json                   format, options, counts per phenomenon, order and template, digests
    DIR/stories.jsonl                   one line per story: id, seed, index, people, objects, rooms, text, questions
    DIR/questions.jsonl                 every question, each naming its story as "episode"
    DIR/traces/<id>.trace.jsonl         the story's trace (trace format, end marker)
    DIR/text/<id>.txt                   the story in plain English, one sentence per line (one per event)
    DIR/questions/<id>.questions.jsonl  the story's questions (grading file format)

so ``belief grade DIR/traces/<id>.trace.jsonl ANSWERS --questions DIR/questions/<id>.questions.jsonl`` regrades
one story's answers.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from belief.errors import BeliefError
from belief.files.atomic import atomic_write_text
from belief.files.json_input import read_json_lines
from belief.files.outputs import jsonl_text, sha256_text
from belief.grading.files import load_questions, read_complete_trace
from belief.stories.generator import StoryConfig
from belief.stories.questions import PHENOMENA, StorySet

FORMAT = "belief-stories"
VERSION = 1
MANIFEST = "manifest.json"


class StoriesDirError(BeliefError):
    """A stories directory that cannot be written or read."""


def _question_line(c) -> dict:
    return {**c.question.to_json(), "episode": c.story}


def write_story_set(story_set: StorySet, out: Path, options: dict, force: bool = False) -> dict:
    """Write the set under ``out`` (refused if it holds a manifest or other files, unless ``force``); returns
    the manifest."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise StoriesDirError(f"{out} is a file; --out names a directory")
    if out.is_dir() and any(out.iterdir()) and not force:
        raise StoriesDirError(f"{out} is not empty; pass --force to write the stories there")
    for sub in ("traces", "text", "questions"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    index_rows, all_questions = [], []
    for s in story_set.stories:
        qs = story_set.questions.get(s.id, [])
        s.trace().write(out / "traces" / f"{s.id}.trace.jsonl")
        atomic_write_text(out / "text" / f"{s.id}.txt", s.text)
        lines = [_question_line(c) for c in qs]
        atomic_write_text(out / "questions" / f"{s.id}.questions.jsonl", jsonl_text(lines))
        all_questions.extend(lines)
        index_rows.append({"id": s.id, "seed": s.seed, "index": s.index, "people": list(s.people),
                           "objects": list(s.objects), "rooms": {r: list(c) for r, c in s.rooms.items()},
                           "text": s.text, "questions": len(qs)})
    stories_text, questions_text = jsonl_text(index_rows), jsonl_text(all_questions)
    atomic_write_text(out / "stories.jsonl", stories_text)
    atomic_write_text(out / "questions.jsonl", questions_text)
    manifest = {"format": FORMAT, "version": VERSION, "command": "belief stories", "options": options,
                "stories": len(story_set.stories), "questions": story_set.n_questions,
                "counts": story_set.counts(), "phenomena": PHENOMENA,
                "sha256": {"stories.jsonl": sha256_text(stories_text), "questions.jsonl": sha256_text(questions_text)}}
    atomic_write_text(out / MANIFEST, json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return manifest


def config_options(config: StoryConfig, n: int, seed: int, per_story: int) -> dict:
    d = asdict(config)
    return {"n": n, "seed": seed, "depth": d["depth"], "people": list(d["people"]), "phenomena": list(d["features"]),
            "actions": list(d["actions"]), "per_story": per_story}


def is_stories_dir(path: Path) -> bool:
    p = Path(path) / MANIFEST
    if not p.is_file():
        return False
    try:
        return json.loads(p.read_text(encoding="utf-8")).get("format") == FORMAT
    except (OSError, ValueError, AttributeError):
        return False


def read_stories_dir(path: Path) -> list[dict]:
    """The stories of a directory: ``{"id", "trace", "questions", "text"}`` in file order."""
    path = Path(path)
    if not is_stories_dir(path):
        raise StoriesDirError(f"{path} is not a stories directory (no {MANIFEST} of format {FORMAT!r})")
    out = []
    for row in read_json_lines(path / "stories.jsonl", StoriesDirError):
        sid = row.get("id") if isinstance(row, dict) else None
        if not isinstance(sid, str):
            raise StoriesDirError(f"{path / 'stories.jsonl'}: a line without a story id")
        trace = read_complete_trace(path / "traces" / f"{sid}.trace.jsonl")
        questions = load_questions(path / "questions" / f"{sid}.questions.jsonl", sid) if row.get("questions") else []
        out.append({"id": sid, "trace": trace, "questions": questions, "text": row.get("text", "")})
    return out


__all__ = ["write_story_set", "read_stories_dir", "is_stories_dir", "config_options", "StoriesDirError", "FORMAT"]
