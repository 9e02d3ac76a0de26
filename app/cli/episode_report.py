"""The shared report of the episode commands (``run blocks|hanabi|capture|escape``): every seed played on
an executor with the progress bar, then the one benchmark shape (:mod:`belief.app.results.comparison`,
docs/benchmarks.md): means with 95% t intervals, ToM accuracy per level, the paired differences of
``--agents`` against ``--vs``; tables, one JSON line, and with ``--out DIR`` ``episodes.jsonl`` (one row per
episode and kind) and ``summary.json`` (the JSON line)."""

from __future__ import annotations

import json
from typing import Optional

from rich.console import Console

from belief.app.cli.run_options import fail, write_aggregate
from belief.app.runs.progress import progress_bar
from belief.app.runs.executor import run_tasks
from belief.errors import BeliefError

out = Console(highlight=False, soft_wrap=True)


def play_all(fn, seeds, label: str, workers: int, progress: bool, executor: str = "local",
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


COORDQA_CATEGORIES = ("EC", "ToM", "JP")


def episode_row(result: dict, figures) -> dict:
    """The per-episode metrics of one runner row: its figures, ToM accuracy per level and, when the episode
    asked CoordinationQA questions, the accuracy per category."""
    from belief.app.results.metrics import tom_figures

    row = {"seed": result["seed"], **{f: result[f] for f in figures}}
    if "tom_total" in result:
        row.update(tom_figures(result))
    if "coordqa" in result:
        for cat in COORDQA_CATEGORIES:
            correct, total = result["coordqa"].get(cat, (0, 0))
            row[f"coordqa_{cat}"] = correct / total if total else None
    return row


def comparison(world: str, agents: str, vs: Optional[str], seeds, main, other, figures, extra: dict,
               more: Optional[dict] = None) -> dict:
    """The benchmark JSON object (:func:`belief.app.results.comparison.compare`): `agents` is the headline,
    `vs` (when given) the baseline, `more` further baselines ``{kind: runner rows}`` (ablations), each paired by
    seed with the headline."""
    from belief.app.results.comparison import compare
    from belief.app.results.metrics import TOM, episode_metrics

    results = {agents: main, **({vs: other} if other is not None else {}), **(more or {})}
    rows = {k: [episode_row(r, figures) for r in rs] for k, rs in results.items()}
    metrics = episode_metrics(figures)
    present = {key for rs in rows.values() for r in rs for key in r}
    metrics += tuple(m for m in TOM if m.name in present)
    metrics += episode_metrics(f"coordqa_{c}" for c in COORDQA_CATEGORIES if f"coordqa_{c}" in present)
    return compare(world, rows, metrics, agents, seed=seeds[0], extra=extra)


def report(world: str, agents: str, vs: Optional[str], seeds, runs: dict, figures, extra: dict, as_json: bool,
           out_files: Optional[dict] = None):
    """Tables (figures per agent, paired differences with `vs`) of ``runs`` (:func:`play_kinds`), the files of
    ``--out`` when given and, with `as_json`, the JSON line."""
    from belief.app.results.tables import agents_table, diff_table

    main, other = runs[agents], runs.get(vs)
    summary = comparison(world, agents, vs, seeds, main, other, figures, extra)
    out.print(agents_table(summary, title=f"{world}: {len(seeds)} episode(s) from seed {seeds[0]}; means, 95% "
                                          "intervals, (n) episodes measured"))
    if summary["diff_vs"]:
        out.print(diff_table(summary))
    write_aggregate(out_files or {}, [{"agents": kind, **r} for kind, rs in runs.items() for r in rs], summary)
    if as_json:
        print(json.dumps(summary))


def show_comparison(summary: dict, rows: list, files: dict, as_json: bool, title: str, tom_title: str,
                    tom: Optional[dict] = None) -> None:
    """A bench's comparison: ``episodes.jsonl`` and ``summary.json`` into --out, then one JSON line with --json,
    else the figures per agent, the paired differences and the ToM tables (`tom`, default ``extra.tom``)."""
    from belief.app.results.tables import agents_table, diff_table
    from belief.grading.trivial import tom_tables_markdown

    write_aggregate(files, rows, summary)
    if as_json:
        print(json.dumps(summary))
        return
    out.print(agents_table(summary, title=title))
    if summary["diff_vs"]:
        out.print(diff_table(summary))
    tom = {k: v for k, v in (tom if tom is not None else summary["extra"].get("tom") or {}).items() if v}
    if tom:
        out.print(tom_tables_markdown(tom, tom_title), markup=False)


def check_vs(agents: str, vs: Optional[str]) -> None:
    if vs is not None and vs == agents:
        fail("--vs must name another agent kind than --agents")
