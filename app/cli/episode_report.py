"""The shared report of the episode commands (``run blocks|hanabi|capture|escape``): every seed played on
an executor with the progress bar, means with 95% t intervals (shares of episodes kept inside [0, 1]),
paired differences with ``--vs``, ToM accuracy per level, a table, one JSON line, and with ``--out DIR``
``episodes.jsonl`` (one row per episode and kind) and ``summary.json`` (the JSON line)."""

from __future__ import annotations

import json
from typing import Optional

from rich.console import Console
from rich.table import Table

from belief.app.cli.run_options import fail, write_aggregate
from belief.app.runs.progress import progress_bar
from belief.app.runs.executor import run_tasks
from belief.errors import BeliefError
from belief.grading.report import LEVELS
from belief.grading.stats import mean_ci95, ordering, paired_diff_ci95

out = Console(highlight=False, soft_wrap=True)


def play_all(fn, seeds, label: str, workers: int = 1, progress: bool = True, executor: str = "local",
             address: Optional[str] = None) -> list[dict]:
    """``fn(seed)`` for every seed, in seed order, with the progress bar; on `executor` (local: a pool of
    `workers` processes, serial, or ray; :func:`belief.app.runs.executor.run_tasks`)."""
    with progress_bar(label, total=len(seeds), enabled=progress) as bar:
        return run_tasks(fn, seeds, executor, workers, address, progress=bar.on_task_done)


def play_kinds(episode_fn, agents: str, vs: Optional[str], seeds, label: str, pool: dict) -> dict:
    """``{kind: rows}`` for ``agents`` (and ``vs``): ``episode_fn(kind)`` is the picklable per-seed function,
    ``pool`` the keywords of :func:`play_all`; a BeliefError (an executor that cannot start, ...) exits 1
    with one error line."""
    runs = {}
    try:
        for kind in [agents] + ([vs] if vs else []):
            runs[kind] = play_all(episode_fn(kind), seeds, f"{label} {kind}", **pool)
    except BeliefError as e:
        fail(str(e), 1)
    return runs


def mean_interval(values) -> dict:
    """Mean and 95% interval; a share of episodes (every value 0 or 1) keeps its interval inside [0, 1]."""
    values = [float(v) for v in values]
    share = all(v in (0.0, 1.0) for v in values)
    mean, (lo, hi) = mean_ci95(values, bounds=(0.0, 1.0) if share else None)
    return {"mean": mean, "ci95": [lo, hi]}


def tom_accuracy(results) -> dict:
    correct = {lvl: sum(r.get("tom_correct", {}).get(lvl, 0) for r in results) for lvl in LEVELS}
    total = {lvl: sum(r.get("tom_total", {}).get(lvl, 0) for r in results) for lvl in LEVELS}
    return {"accuracy": {lvl: (correct[lvl] / total[lvl] if total[lvl] else None) for lvl in LEVELS},
            "questions": sum(total.values())}


def summary(results, figures) -> dict:
    return {**{f: mean_interval([r[f] for r in results]) for f in figures}, "tom": tom_accuracy(results)}


def paired(a, b, figures) -> dict:
    out_ = {}
    for f in figures:
        xs, ys = [float(r[f]) for r in a], [float(r[f]) for r in b]
        d, (lo, hi) = paired_diff_ci95(xs, ys)
        out_[f] = {"mean": d, "ci95": [lo, hi], "ordering": ordering(xs, ys) if len(xs) > 1 else "~"}
    return out_


def table(title: str, rows: dict, figures, fmt) -> Table:
    t = Table(title=title)
    t.add_column("agents")
    for f in figures:
        t.add_column(f"{f} (95% CI)", justify="right")
    t.add_column("ToM intro / 1st / 2nd", justify="right")
    for name, s in rows.items():
        acc = s["tom"]["accuracy"]
        tom = " / ".join("n/a" if acc[lvl] is None else f"{100 * acc[lvl]:.1f}%" for lvl in LEVELS)
        t.add_row(name, *[f"{fmt(s[f]['mean'])} [{fmt(s[f]['ci95'][0])}, {fmt(s[f]['ci95'][1])}]" for f in figures], tom)
    return t


def report(world: str, agents: str, vs: Optional[str], seeds, runs: dict, figures, extra: dict, as_json: bool,
           out_files: Optional[dict] = None):
    """The table(s) and the JSON line of ``runs`` (:func:`play_kinds`); the files of ``--out`` when given."""
    main, other = runs[agents], runs.get(vs)
    rows = {agents: summary(main, figures)}
    if other is not None:
        rows[vs] = summary(other, figures)
    out.print(table(f"{world}: {len(seeds)} episode(s) from seed {seeds[0]}", rows, figures, lambda x: f"{x:.3f}"))
    figures_json = {"world": world, "agents": agents, "episodes": len(seeds), "seed": seeds[0], **rows[agents], **extra}
    if other is not None:
        diff = paired(main, other, figures)
        t = Table(title=f"paired differences {agents} - {vs} (same seeds), 95% CI; '~': no ordering")
        for col in ("figure", "difference", "95% CI", "ordering"):
            t.add_column(col, justify="right")
        for f, d in diff.items():
            t.add_row(f, f"{d['mean']:+.3f}", f"[{d['ci95'][0]:+.3f}, {d['ci95'][1]:+.3f}]", d["ordering"])
        out.print(t)
        figures_json["vs"] = {"agents": vs, **rows[vs], "paired_diff": diff}
    write_aggregate(out_files or {}, [{"agents": kind, **r} for kind, rs in runs.items() for r in rs], figures_json)
    if as_json:
        print(json.dumps(figures_json))


def check_vs(agents: str, vs: Optional[str]) -> None:
    if vs is not None and vs == agents:
        fail("--vs must name another agent kind than --agents")
