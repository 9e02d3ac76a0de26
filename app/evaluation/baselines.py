"""The built-in answerers of ``belief eval``: the exact checker (the ceiling) and the shortcuts every ToM score
is read beside. Each answers an :class:`~belief.app.evaluation.datasets.Item` with a short free-text answer,
which goes through the same reader and grading as a model's.

* ``checker``: the exact answer (the ceiling: 100% unless the reader fails).
* ``reality``, ``as_self``, ``depth_collapse``, ``public_record``: the kernel's panel of shortcuts
  (:class:`belief.grading.shortcuts.Panel`, one definition for every world and dataset): the world as it is,
  the asked agent's own belief, the chain's last agent's own belief, and what every agent perceived (the
  public trace, checked).
* ``majority``: the most common gold answer of the question's template in the dataset.
* ``first_value``: the world as it first was (:meth:`belief.grading.shortcuts.Panel.first_value`): ToMi's
  "first container" heuristic, which a small model falls into by repeating the story's first statement.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Callable, Iterable, Optional

from belief.app.evaluation.datasets import Item
from belief.grading.questions import GIVEN, gold_answer
from belief.grading.render import say as say_verdict
from belief.grading.shortcuts import QUESTION_SHORTCUTS, Panel

BASELINES = ("checker", "reality", "as_self", "depth_collapse", "majority", "public_record", "first_value")


def say(item: Item, value) -> str:
    """A short answer naming ``value`` (a place, yes / no, unknown): :func:`belief.grading.render.say`."""
    if value is None:
        return "I don't know."
    if value == "unknown" and not item.question.yes_no:
        return "They don't know where it is."
    return say_verdict(item.question, str(value))


def checker(item: Item) -> str:
    return say(item, item.gold[0])


_PANELS: dict[int, Panel] = {}


def _panel(item: Item) -> Panel:
    """The panel of the item's truth (one per story: its public trace is built once)."""
    p = _PANELS.get(id(item.truth))
    if p is None or p.truth is not item.truth:
        if len(_PANELS) > 256:
            _PANELS.clear()
        p = _PANELS[id(item.truth)] = Panel(item.truth)
    return p


def _shortcut(name: str) -> Callable[[Item], str]:
    def answer(item: Item) -> str:
        if item.question.kind == GIVEN:
            return say(item, None)
        return say(item, getattr(_panel(item), name)(item.question))

    answer.__name__ = name
    return answer


reality, as_self, depth_collapse, public_record = (_shortcut(n) for n in QUESTION_SHORTCUTS)
first_value = _shortcut("first_value")


def majority_table(items: Iterable[Item]) -> dict:
    """The most common gold answer per template (ties broken by the answer's text)."""
    counts: dict = defaultdict(Counter)
    for it in items:
        counts[it.question.template or it.question.kind][it.gold[0]] += 1
    return {t: min(c.items(), key=lambda kv: (-kv[1], kv[0]))[0] for t, c in counts.items()}


def answerers(items: list[Item]) -> dict[str, Callable[[Item], str]]:
    """Every built-in answerer, by name, for this dataset (majority is computed on it)."""
    table = majority_table(items)

    def majority(item: Item) -> str:
        return say(item, table[item.question.template or item.question.kind])

    return {"checker": checker, "reality": reality, "as_self": as_self, "depth_collapse": depth_collapse,
            "majority": majority, "public_record": public_record, "first_value": first_value}


def gold_of(item: Item) -> Optional[str]:
    return gold_answer(item.truth, item.question)


__all__ = ["BASELINES", "answerers", "say", "majority_table", "checker", "reality", "as_self", "depth_collapse",
           "public_record", "first_value"]
