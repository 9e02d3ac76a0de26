"""Grading ToMi / Hi-ToM questions in shards on an executor (``belief tomi|hitom --executor ...``).

The adapters check a story once and reuse its ground truth for every later copy of the same text (ToMi
repeats a story for each of its questions), so explanations cite the first copy's lines. Shards would each
check their own first copy; :func:`share_stories` gives every copy the first copy's lines beforehand, so a
sharded run writes exactly what one call writes. A shard's graded questions travel back to the calling
process; only those that disagree with their label keep the ground truth (the audit explains them from it).
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Hashable


def grade_lean(grade_slice: Callable[[list], list], items: list) -> list:
    """`grade_slice(items)` with the ground truth dropped from the questions that agree with their label."""
    return [q if not q.agrees else dataclasses.replace(q, truth=None) for q in grade_slice(items)]


def story_text(item) -> tuple:
    """The text of an item's story without its file lines (the adapters' cache key, with the origin for Hi-ToM)."""
    return getattr(item, "origin", None), tuple(text for _, text in item.story)


def share_stories(items: list, key: Callable[[object], Hashable] = story_text) -> list:
    """`items` with every story replaced by the first story of the same text (lines included)."""
    first: dict = {}
    return [dataclasses.replace(it, story=first.setdefault(key(it), it.story)) for it in items]


__all__ = ["grade_lean", "share_stories", "story_text"]
