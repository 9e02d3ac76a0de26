"""Household (C-WAH) commands: ``belief bench household`` and ``belief run household``.

``bench household`` plays seeds ``seed .. seed+episodes-1`` with every agent kind (processes in
parallel), shows a progress bar with ETA on stderr, a table on stdout, and as the last stdout line
(``--json``) the benchmark JSON object (the one shape of every world bench: docs/benchmarks.md).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from belief.app.cli import run_options
from belief.app.cli.app import bench_app, run_app
from belief.app.runners.household import AGENT_KINDS, bench, contract, play_episode
from belief.app.runs.progress import progress_bar
from belief.errors import BeliefError
from belief.app.runs.executor import EXECUTORS
from belief.files.outputs import write_table

out = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(message: str, code: int = 2):
    print(f"error: {message}", file=sys.stderr)
    raise typer.Exit(code)


def _kinds(text: str) -> list:
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    bad = [k for k in kinds if k not in AGENT_KINDS]
    if not kinds or bad or len(set(kinds)) != len(kinds):
        _fail(f"--agents: expected distinct kinds among {', '.join(AGENT_KINDS)}, got {text!r}")
    return kinds


def _pct(x) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


TABLE_METRICS = ("steps", "done_rate", "message_tokens", "comm_frames", "prediction_accuracy", "belief_accuracy_world")


def _table(summary: dict) -> Table:
    from belief.app.bench.tables import agents_table

    return agents_table(summary, TABLE_METRICS, f"household_v0 (C-WAH), {summary['episodes']} episode(s): means, "
                                                "95% intervals, (n) episodes; steps: lower is better")


def _diff_table(summary: dict) -> Table:
    from belief.app.bench.tables import diff_table

    return diff_table(summary, ("steps", "done_rate", "message_tokens"))


@bench_app.command("household")
def bench_household(
    episodes: int = typer.Option(50, "--episodes", help="episodes per agent kind (seeds seed..seed+N-1)"),
    seed: int = typer.Option(0, "--seed", help="first seed"),
    agents: str = typer.Option(",".join(AGENT_KINDS), "--agents", help="comma-separated: " + ", ".join(AGENT_KINDS)),
    executor: str = run_options.EXECUTOR,
    workers: int = typer.Option(2, "--workers", help="episode processes (local) or CPUs (ray)"),
    address: Optional[str] = run_options.ADDRESS,
    as_json: bool = typer.Option(False, "--json", help="print the contract JSON object as the last line"),
    progress: bool = run_options.PROGRESS,
    results: Optional[Path] = typer.Option(None, "--results", help="write one row per episode: .json (an array), "
                                           ".jsonl or .csv (flat: nested figures as dotted columns)"),
    force: bool = run_options.FORCE,
):
    """Steps to finish C-WAH tasks, message tokens, prediction and belief accuracy, per agent kind."""
    kinds = _kinds(agents)
    if episodes < 1:
        _fail(f"--episodes must be at least 1, got {episodes}")
    if workers < 1:
        _fail(f"--workers must be at least 1, got {workers}")
    if executor not in EXECUTORS:
        _fail(f"--executor must be one of {', '.join(EXECUTORS)} (got {executor!r})")
    run_options.refuse_bad_outputs({"--results": results}, (), force)
    with progress_bar("household episodes", total=episodes * len(kinds), enabled=progress) as bar:
        try:
            summary, rows = bench(kinds, episodes, seed, workers, progress=lambda r: bar.advance(),
                                  executor=executor, address=address)
        except BeliefError as e:  # the executor: Ray missing or unreachable
            _fail(" ".join(str(e).split()), 1)
    if results is not None:
        try:
            write_table(results, rows)
        except OSError as e:
            _fail(f"cannot write {results}: {e}", 1)
    out.print(_table(summary))
    if summary["diff_vs"]:
        out.print(_diff_table(summary))
    if as_json:
        print(json.dumps(contract(summary)))


@run_app.command("household")
def run_household(
    seed: int = typer.Option(0, "--seed", help="episode seed"),
    agents: str = typer.Option("cobel", "--agents", help=" | ".join(AGENT_KINDS)),
    trace: Optional[Path] = typer.Option(None, "--trace", help="write the global trace (JSONL)"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object as the last line"),
    force: bool = run_options.FORCE,
):
    """Play one household_v0 episode and print its figures."""
    kinds = _kinds(agents)
    if len(kinds) != 1:
        _fail("--agents takes one agent kind here")
    if trace is not None and trace.exists() and not force:
        _fail(f"{trace} exists; pass --force to overwrite it", 1)
    if trace is not None and not trace.parent.is_dir():
        _fail(f"cannot write the trace {trace}: no directory {trace.parent}", 1)
    try:
        r = play_episode({"agent": kinds[0], "trace": str(trace) if trace else None}, seed)
    except OSError as e:
        _fail(f"cannot write the trace {trace}: {e}", 1)
    p, b = r["prediction"], r["belief_world"]
    out.print(f"seed {seed}, {r['task']} in {r['layout']}, {kinds[0]}: {'done' if r['done'] else 'not done'} in "
              f"{r['steps']} steps; {r['messages']} messages ({r['message_tokens']} tokens); prediction "
              f"{_pct(p[0] / p[1] if p[1] else None)}, belief accuracy (world) {_pct(b[0] / b[1] if b[1] else None)}")
    if trace:
        out.print(f"trace: {trace} ({r['trace_events']} events)")
    if as_json:
        print(json.dumps(r))
