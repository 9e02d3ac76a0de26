"""ToM scores beside the trivial answerers that every ToM table must show.

A question set measures Theory of Mind only if answering it takes more than a shortcut. Two shortcuts are
always scored beside the real answerers:

- ``majority``: the most common gold answer of the question's type (computed on the set itself, which
  favours the shortcut: an upper bound of what a type prior can get);
- a "read the public record / answer as yourself" answerer, which only the world can compute (it knows what
  is public); worlds put it in each row's ``answers`` under ``public_record`` or ``as_self``.

:func:`tom_table` takes rows ``{"type", "gold", "answers": {answerer: answer}}`` and returns per type and
overall accuracy with Wilson 95% intervals, and marks every type where a trivial answerer scores above
:data:`TRIVIAL_LIMIT` (such a type is not reported as ToM: ``"tom": false``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Iterable, Mapping

from belief.errors import BeliefError
from belief.grading.stats import wilson_ci95

TRIVIAL_LIMIT = 0.8
TRIVIAL_ANSWERERS = ("majority", "public_record", "as_self")


def _norm(answer) -> str:
    return str(answer).strip().lower()


def majority_answers(rows: list[Mapping]) -> dict[str, str]:
    """The most common gold answer per question type (ties broken by the answer's text, so it is stable)."""
    by_type: dict[str, Counter] = defaultdict(Counter)
    for row in rows:
        by_type[row["type"]][_norm(row["gold"])] += 1
    return {t: min(c.items(), key=lambda kv: (-kv[1], kv[0]))[0] for t, c in by_type.items()}


def _score(right: int, n: int) -> dict:
    lo, hi = wilson_ci95(right, n)
    return {"accuracy": right / n, "ci95": [lo, hi], "n": n}


def tom_table(rows: Iterable[Mapping], trivial: Iterable[str] = TRIVIAL_ANSWERERS) -> dict:
    """Accuracy per question type and overall, for every answerer of the rows plus ``majority``.

    Each row is ``{"type": str, "gold": answer, "answers": {answerer: answer}}``; an answerer missing from a
    row counts as wrong there, but an answerer that answers no question of a type (a shortcut that does not
    apply to it) gets no entry for that type rather than a score of 0. Returns ``{"by_type": {type: {answerer: {accuracy, ci95, n}, "tom": bool,
    "trivial_best": float}}, "overall": {answerer: {...}}, "answerers": [...], "trivial_limit": 0.8}``.
    ``trivial`` names the shortcut answerers (by default ``majority``, ``public_record``, ``as_self``; a world
    may add its own, e.g. a single-agent planner).
    """
    trivial = tuple(trivial)
    rows = list(rows)
    if not rows:
        raise BeliefError("tom_table: no questions")
    for i, row in enumerate(rows):
        missing = {"type", "gold", "answers"} - set(row)
        if missing:
            raise BeliefError(f"tom_table: row {i} lacks {sorted(missing)}; expected type, gold and answers")
    majority = majority_answers(rows)
    answerers = sorted({a for row in rows for a in row["answers"]} | {"majority"})
    right: dict[tuple[str, str], int] = Counter()
    count: Counter = Counter()
    present: set[tuple[str, str]] = set()
    for row in rows:
        gold = _norm(row["gold"])
        count[row["type"]] += 1
        given = dict(row["answers"], majority=majority[row["type"]])
        for a in answerers:
            if a in given:
                present.add((row["type"], a))
                if _norm(given[a]) == gold:
                    right[(row["type"], a)] += 1
    by_type = {}
    for t in sorted(count):
        entry = {a: _score(right[(t, a)], count[t]) for a in answerers if (t, a) in present}
        shortcut = [entry[a]["accuracy"] for a in trivial + ("majority",) if a in entry]
        entry["trivial_best"] = max(shortcut)
        entry["tom"] = max(shortcut) <= TRIVIAL_LIMIT
        by_type[t] = entry
    overall = {}
    for a in answerers:
        asked = [t for t in count if (t, a) in present]
        overall[a] = _score(sum(right[(t, a)] for t in asked), sum(count[t] for t in asked))
    return {"by_type": by_type, "overall": overall, "answerers": answerers, "trivial_limit": TRIVIAL_LIMIT,
            "trivial": sorted(set(trivial) | {"majority"})}


def tom_rows_markdown(table: Mapping) -> str:
    """The table as markdown: one line per question type, one column per answerer, ToM or not."""
    answerers = table["answerers"]
    lines = ["| type | n | " + " | ".join(answerers) + " | ToM? |",
             "|---|---|" + "---|" * len(answerers) + "---|"]
    for t, entry in table["by_type"].items():
        n = entry["majority"]["n"]
        cells = " | ".join(f"{entry[a]['accuracy']:.3f}" if a in entry else "—" for a in answerers)
        lines.append(f"| {t} | {n} | {cells} | {'yes' if entry['tom'] else 'no (trivial > 0.8)'} |")
    return "\n".join(lines)


def tom_tables_markdown(tables: Mapping[str, Mapping], heading: str) -> str:
    """Several tables (``{kind: table}``, one per agent kind or pairing) as markdown, each under
    ``heading.format(kind=kind)``."""
    return "\n\n".join(f"{heading.format(kind=kind)}\n{tom_rows_markdown(table)}" for kind, table in tables.items())

