"""ToM tables: every agent's accuracy per template beside the best shortcut, and whether the template is ToM.

A question set measures Theory of Mind only where answering it takes more than a shortcut. The shortcut
answerers are the panel of :mod:`belief.grading.shortcuts` (``majority``, computed here on the set itself,
which favours it; ``reality``, ``as_self``, ``depth_collapse``, ``public_record``) and any a world registers
(Hanabi's hint reader, a planner that ignores its partner, ...), named in ``trivial``.

:func:`tom_table` takes rows ``{"type", "gold", "answers": {answerer: answer}}`` (optionally ``"episode"``, to
cluster the intervals of a margin) and returns per type (template) and overall: ``n``, the gold balance
(share of each gold answer), every answerer's accuracy with its Wilson 95% interval, the best shortcut and its
accuracy (``trivial_best``), ``tom``: true only when the best shortcut is at most :data:`TRIVIAL_LIMIT`, the
shortcuts a yes/no type's gold makes right when negated (``inverted``: at most 1 - the limit), and, for the
``headline`` answerer, its paired margin over the best shortcut (the mean of right-minus-right per question,
with a 95% interval clustered by episode: :func:`belief.grading.stats.clustered_mean_ci95`).
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Mapping, Optional

from belief.errors import BeliefError
from belief.grading.shortcuts import SHORTCUTS, majority_answers as by_template
from belief.grading.stats import clustered_mean_ci95, wilson_ci95

TRIVIAL_LIMIT = 0.65
#: the shortcut answerers every table knows by name (a world adds its own with ``trivial``)
TRIVIAL_ANSWERERS = SHORTCUTS


def _norm(answer) -> str:
    return str(answer).strip().lower()


def majority_answers(rows: list[Mapping]) -> dict[str, str]:
    """The most common gold answer per question type (ties broken by the answer's text, so it is stable)."""
    return by_template((row["type"], row["gold"]) for row in rows)


def _score(right: int, n: int) -> dict:
    lo, hi = wilson_ci95(right, n)
    return {"accuracy": right / n, "ci95": [lo, hi], "n": n}


def _margin(rows: list[Mapping], headline: str, shortcut: str, majority: Mapping[str, str]) -> Optional[dict]:
    diffs, clusters = [], []
    for i, row in enumerate(rows):
        given = dict(row["answers"], majority=majority[row["type"]])
        if headline not in given:
            continue
        gold = _norm(row["gold"])
        diffs.append(float(_norm(given[headline]) == gold) - float(shortcut in given and _norm(given[shortcut]) == gold))
        clusters.append(row.get("episode", i))
    if len(diffs) < 2:
        return None
    mean, (lo, hi) = clustered_mean_ci95(diffs, clusters)
    return {"over": shortcut, "mean": mean, "ci95": [lo, hi], "n": len(diffs), "episodes": len(set(clusters)),
            "above_zero": lo > 0}


def tom_table(rows: Iterable[Mapping], trivial: Iterable[str] = TRIVIAL_ANSWERERS,
              headline: Optional[str] = None) -> dict:
    """Accuracy per question type and overall, for every answerer of the rows plus ``majority`` (see the
    module docstring).

    An answerer missing from a row counts as wrong there, but an answerer that answers no question of a type
    (a shortcut that does not apply to it) gets no entry for that type rather than a score of 0. Returns
    ``{"by_type": {type: {answerer: {accuracy, ci95, n}, "n", "gold", "best_shortcut", "trivial_best", "tom",
    "inverted", "margin"}}, "overall": {answerer: {...}}, "answerers": [...], "trivial": [...],
    "trivial_limit", "headline"}``; ``margin`` is None without a ``headline`` (or when it answers fewer than
    two questions of the type).
    """
    trivial = tuple(dict.fromkeys(tuple(trivial) + ("majority",)))
    rows = list(rows)
    if not rows:
        raise BeliefError("tom_table: no questions")
    for i, row in enumerate(rows):
        missing = {"type", "gold", "answers"} - set(row)
        if missing:
            raise BeliefError(f"tom_table: row {i} lacks {sorted(missing)}; expected type, gold and answers")
    majority = majority_answers(rows)
    answerers = sorted({a for row in rows for a in row["answers"]} | {"majority"})
    right: Counter = Counter()
    count: Counter = Counter()
    golds: dict[str, Counter] = {}
    present: set[tuple[str, str]] = set()
    by_rows: dict[str, list[Mapping]] = {}
    for row in rows:
        gold = _norm(row["gold"])
        t = row["type"]
        count[t] += 1
        golds.setdefault(t, Counter())[gold] += 1
        by_rows.setdefault(t, []).append(row)
        given = dict(row["answers"], majority=majority[t])
        for a in answerers:
            if a in given:
                present.add((t, a))
                if _norm(given[a]) == gold:
                    right[(t, a)] += 1
    by_type = {}
    for t in sorted(count):
        entry: dict = {a: _score(right[(t, a)], count[t]) for a in answerers if (t, a) in present}
        shortcuts = {a: entry[a]["accuracy"] for a in trivial if a in entry}
        best = max(sorted(shortcuts), key=lambda a: shortcuts[a])
        yes_no = set(golds[t]) <= {"yes", "no"}
        entry["n"] = count[t]
        entry["gold"] = {g: k / count[t] for g, k in sorted(golds[t].items())}
        entry["best_shortcut"] = best
        entry["trivial_best"] = shortcuts[best]
        entry["tom"] = shortcuts[best] <= TRIVIAL_LIMIT
        entry["inverted"] = sorted(a for a, acc in shortcuts.items() if yes_no and acc <= 1 - TRIVIAL_LIMIT)
        entry["margin"] = (_margin(by_rows[t], headline, best, majority)
                           if headline is not None and (t, headline) in present else None)
        by_type[t] = entry
    overall = {}
    for a in answerers:
        asked = [t for t in count if (t, a) in present]
        overall[a] = _score(sum(right[(t, a)] for t in asked), sum(count[t] for t in asked))
    return {"by_type": by_type, "overall": overall, "answerers": answerers, "trivial_limit": TRIVIAL_LIMIT,
            "trivial": sorted(trivial), "headline": headline}


def _margin_text(m: Optional[Mapping]) -> str:
    if not m:
        return "—"
    lo, hi = m["ci95"]
    return f"{m['mean']:+.3f} [{lo:+.3f}, {hi:+.3f}]"


def tom_rows_markdown(table: Mapping) -> str:
    """The table as markdown: one line per question type (n, gold balance, one column per answerer, the best
    shortcut, the headline's margin over it), ToM or not."""
    answerers = table["answerers"]
    limit = table.get("trivial_limit", TRIVIAL_LIMIT)
    lines = ["| type | n | gold | " + " | ".join(answerers) + " | best shortcut | margin (95% CI) | ToM? |",
             "|---|---|---|" + "---|" * len(answerers) + "---|---|---|"]
    for t, entry in table["by_type"].items():
        n = entry.get("n", entry["majority"]["n"])
        gold = ", ".join(f"{g} {share:.2f}" for g, share in list(entry.get("gold", {}).items())[:3])
        cells = " | ".join(f"{entry[a]['accuracy']:.3f}" if a in entry else "—" for a in answerers)
        best = f"{entry.get('best_shortcut', '')} {entry['trivial_best']:.3f}"
        verdict = "yes" if entry["tom"] else f"no (shortcut > {limit:g})"
        lines.append(f"| {t} | {n} | {gold} | {cells} | {best} | {_margin_text(entry.get('margin'))} | {verdict} |")
    return "\n".join(lines)


def tom_tables_markdown(tables: Mapping[str, Mapping], heading: str) -> str:
    """Several tables (``{kind: table}``, one per agent kind or pairing) as markdown, each under
    ``heading.format(kind=kind)``."""
    return "\n\n".join(f"{heading.format(kind=kind)}\n{tom_rows_markdown(table)}" for kind, table in tables.items())


__all__ = ["TRIVIAL_LIMIT", "TRIVIAL_ANSWERERS", "majority_answers", "tom_table", "tom_rows_markdown",
           "tom_tables_markdown"]
