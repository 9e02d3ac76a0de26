"""Rich tables of a benchmark comparison (:mod:`belief.app.results.comparison`): figures per agent, and the
headline agent's paired differences against each baseline."""

from __future__ import annotations

from rich.table import Table


def _value(x, unit: str, signed: bool = False) -> str:
    if x is None:
        return "n/a"
    sign = "+" if signed else ""
    return f"{100 * x:{sign}.1f}%" if unit == "share" else f"{x:{sign}.3g}" if abs(x) >= 100 else f"{x:{sign}.2f}"


def _interval(ci, unit: str, signed: bool = False) -> str:
    return "" if ci is None else f" [{_value(ci[0], unit, signed)}, {_value(ci[1], unit, signed)}]"


def agents_table(summary: dict, metrics=None, title: str | None = None) -> Table:
    """One row per agent, one column per metric: mean [95% interval] (n episodes that measured it)."""
    names = list(metrics or summary["metrics"])
    t = Table(title=title or f"{summary['world']}: {summary['episodes']} episode(s); means, 95% intervals, "
                             "(n) episodes measured")
    t.add_column("agent")
    for m in names:
        better = {True: " ↑", False: " ↓", None: ""}[summary["metrics"][m]["higher_is_better"]]
        t.add_column(m.replace("_", " ") + better, justify="right")
    for agent, v in summary["by_agent"].items():
        unit = lambda m: summary["metrics"][m]["unit"]
        t.add_row(agent, *[f"{_value(v[m], unit(m))}{_interval(v['ci95'][m], unit(m))} ({v['n'][m]})" for m in names])
    return t


def diff_table(summary: dict, metrics=None) -> Table:
    """One row per (baseline, metric): headline - baseline on paired seeds, its interval, the ordering."""
    head = summary["headline"]
    t = Table(title=f"{head} - baseline on the same seeds, 95% interval; an ordering only when it excludes 0")
    for col in ("baseline", "metric", "difference", "95% CI", "n", "ordering"):
        t.add_column(col, justify="left" if col in ("baseline", "metric", "ordering") else "right")
    for baseline, diffs in summary["diff_vs"].items():
        for m in metrics or summary["metrics"]:
            d, unit = diffs[m], summary["metrics"][m]["unit"]
            t.add_row(baseline, m, _value(d["mean"], unit, True), _interval(d["ci95"], unit, True).strip(),
                      str(d["n"]), d["ordering"])
    return t


def _flat(value, prefix: str = ""):
    """``(dotted key, value)`` of every leaf of nested dicts; a list of plain values stays one cell."""
    if isinstance(value, dict) and value:
        for k, v in value.items():
            yield from _flat(v, f"{prefix}.{k}" if prefix else str(k))
    elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        for i, v in enumerate(value):
            yield from _flat(v, f"{prefix}[{i}]")
    else:
        yield prefix, value


def _cell(value) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, (list, dict)):
        import json

        return json.dumps(value)
    return str(value)


def figures_table(figures: dict, title: str) -> Table:
    """A two-column table (figure, value) of an engine bench's figures, nested keys dotted."""
    t = Table(title=title)
    t.add_column("figure")
    t.add_column("value", justify="right")
    for key, value in _flat(figures):
        t.add_row(key, _cell(value))
    return t


__all__ = ["agents_table", "diff_table", "figures_table"]
