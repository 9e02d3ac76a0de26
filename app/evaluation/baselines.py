"""The built-in answerers of ``belief eval``: the exact checker (the ceiling) and the shortcuts every ToM score
is read beside. Each answers an :class:`~belief.app.evaluation.datasets.Item` with a short free-text answer,
which goes through the same reader and grading as a model's.

* ``checker``: the exact answer (the ceiling: 100% unless the reader fails).
* ``reality``: where the object really is (a belief question answered as if everyone saw everything);
  "does A know" answered yes.
* ``as_self``: the asked agent's own belief (the first agent of the chain), ignoring the rest of the
  chain; "does A know" answered yes (the agent trusts its own belief).
* ``majority``: the most common gold answer of the question's template in the dataset.
* ``public_record``: only the events every agent of the story perceived: the latest change of the fluent
  that every agent perceived, else the first place it was seen in; "does A know" is yes iff that value
  is the real one.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Callable, Iterable, Optional

from belief.app.evaluation.datasets import Item
from belief.grading.questions import GIVEN, NO, YES, gold_answer
from belief.stories.questions import public_record_value
from belief.truth.index import is_marker

BASELINES = ("checker", "reality", "as_self", "majority", "public_record")


def say(item: Item, value) -> str:
    """A short answer naming ``value`` (a place, yes / no, unknown)."""
    if value is None:
        return "I don't know."
    if item.question.yes_no:
        return "Yes." if value == YES else "No."
    if value == "unknown":
        return "They don't know where it is."
    if value == "nowhere":
        return "Nowhere."
    return f"The {str(value).replace('_', ' ')}."


def _at(item: Item) -> int:
    q = item.question
    return item.truth.end if q.time == "end" else q.time


def _value(item: Item, chain: tuple):
    v = item.truth.value(chain, item.question.fluent, _at(item))
    return v if isinstance(v, str) and not is_marker(v) else None


def checker(item: Item) -> str:
    return say(item, item.gold[0])


def _belief_shortcut(chain_of):
    """An answerer that states the belief of ``chain_of(question)`` (reality for ``()``) and says yes to "does A
    know"."""
    def answer(item: Item) -> str:
        q = item.question
        if q.kind == GIVEN:
            return say(item, None)
        if q.yes_no:
            return say(item, YES)
        return say(item, _value(item, chain_of(q)))

    return answer


reality = _belief_shortcut(lambda q: ())
as_self = _belief_shortcut(lambda q: q.chain[:1])


def public_value(item: Item):
    """The fluent's value by the events every agent of the story perceived (see the module docstring)."""
    return public_record_value(item.truth, item.question.fluent, _at(item))


def public_record(item: Item) -> str:
    q = item.question
    if q.kind == GIVEN:
        return say(item, None)
    v = public_value(item)
    if q.yes_no:
        return say(item, YES if v is not None and v == item.truth.reality(q.fluent, _at(item)) else NO)
    return say(item, v if isinstance(v, str) and not is_marker(v) else None)


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

    return {"checker": checker, "reality": reality, "as_self": as_self, "majority": majority,
            "public_record": public_record}


def gold_of(item: Item) -> Optional[str]:
    return gold_answer(item.truth, item.question)


__all__ = ["BASELINES", "answerers", "say", "majority_table", "public_value", "checker", "reality", "as_self",
           "public_record"]
