"""Household (C-WAH) commands: ``belief bench household`` and ``belief run household``.

``bench household`` plays seeds ``seed .. seed+episodes-1`` with every agent kind (processes in
parallel), shows a progress bar with ETA on stderr, a table on stdout, and as the last stdout line
(``--json``) the benchmark JSON object (the one shape of every world bench: docs/benchmarks.md); ``--out DIR``
writes it to ``summary.json`` beside ``episodes.jsonl`` (one row per episode and kind).
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
from belief.app.cli.episode_report import play_all
from belief.app.runs.progress import progress_bar
from belief.errors import BeliefError
from belief.files.outputs import write_table

out = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True, highlight=False, soft_wrap=True)


_fail = run_options.fail


def _pct(x) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


TABLE_METRICS = ("steps", "done_rate", "message_tokens", "comm_frames", "prediction_accuracy", "persistence_accuracy",
                 "belief_accuracy_world")


def _table(summary: dict) -> Table:
    from belief.app.results.tables import agents_table

    return agents_table(summary, TABLE_METRICS, f"household_v0 (C-WAH), {summary['episodes']} episode(s): means, "
                                                "95% intervals, (n) episodes; steps: lower is better")


def _diff_table(summary: dict) -> Table:
    from belief.app.results.tables import diff_table

    return diff_table(summary, ("steps", "done_rate", "message_tokens"))


_KINDS = "belief.agents.household.team:AGENT_KINDS"
#: the kinds of _KINDS by name, for the help text and default (the team module imports the world, numpy and
#: pettingzoo, which only a household command needs); tests/cli check the two agree
KIND_NAMES = ("cobel", "coela", "messenger", "independent", "silent", "cobel_nobbc", "cobel_nomodel", "single")
_SCALE = typer.Option("cwah", "--scale", help="world size: cwah (C-WAH's: one MHP agent needs about 90 steps) or "
                                             "small (the earlier world, about a third of that; fast)")


def _scale(name: str) -> str:
    from belief.envs.household.world import scale_of

    try:
        return scale_of(name).name
    except ValueError as e:
        _fail(str(e))
        raise
_HIDDEN_RESULTS = typer.Option(None, "--results", hidden=True)  # before --out: one table file (.json/.jsonl/.csv)
_HIDDEN_TRACE = typer.Option(None, "--trace", hidden=True)  # before --out: the trace file of one episode


@bench_app.command("household")
@run_options.pool_options
def bench_household(
    episodes: int = run_options.episodes(50, "episodes per agent kind (seeds S..S+N-1)"),
    seed: int = run_options.SEED,
    agents: str = run_options.agents(",".join(KIND_NAMES), _KINDS, "comma-separated, each once: "
                                     + ", ".join(KIND_NAMES), counts=None, distinct=True),
    as_json: bool = run_options.JSON,
    scale: str = _SCALE,
    out_dir: Optional[Path] = run_options.out(),
    results: Optional[Path] = _HIDDEN_RESULTS,
    force: bool = run_options.FORCE,
    pool: dict = None,
):
    """Steps to finish C-WAH tasks, message tokens, prediction and belief accuracy, per agent kind."""
    from belief.app.bench.household import bench

    kinds = run_options.split_kinds(agents)
    scale = _scale(scale)
    run_options.refuse_bad_outputs({"--results": results}, (), force)
    files = run_options.out_paths(out_dir, run_options.AGGREGATE_FILES, force)
    with progress_bar("household episodes", total=episodes * len(kinds), enabled=pool["progress"]) as bar:
        try:
            summary, rows = bench(kinds, episodes, seed, pool["workers"], progress=lambda r: bar.advance(),
                                  config={"scale": scale}, executor=pool["executor"], address=pool["address"])
        except BeliefError as e:  # the executor: Ray missing or unreachable
            _fail(" ".join(str(e).split()), 1)
    if results is not None:
        try:
            write_table(results, rows)
        except OSError as e:
            _fail(f"cannot write {results}: {e}", 1)
    run_options.write_aggregate(files, rows, summary)
    out.print(_table(summary))
    if summary["diff_vs"]:
        out.print(_diff_table(summary))
    if as_json:
        print(json.dumps(summary))


@run_app.command("household")
@run_options.pool_options
def run_household(
    episodes: int = run_options.episodes(1),
    seed: int = run_options.SEED,
    agents: str = run_options.agents("cobel", _KINDS, " | ".join(KIND_NAMES)),
    out_dir: Optional[Path] = run_options.out("write each episode's global trace, its selected ToM questions (the "
                                              "grading format) and the agents' answers into DIR "
                                              "(household_SEED.trace|questions|answers.jsonl; belief grade "
                                              "regrades them)"),
    trace: Optional[Path] = _HIDDEN_TRACE,
    as_json: bool = typer.Option(False, "--json", help="print one JSON object per episode (the last lines)"),
    scale: str = _SCALE,
    force: bool = run_options.FORCE,
    pool: dict = None,
):
    """Play household_v0 episodes (seeds S..S+N-1) and print each one's figures."""
    scale = _scale(scale)
    seeds = list(range(seed, seed + episodes))
    if trace is not None and (episodes != 1 or out_dir is not None):
        _fail("--trace FILE takes one episode and no --out; use --out DIR")
    run_options.refuse_bad_outputs({"--trace": trace}, (), force, tables=())
    from belief.app.bench.household import play_episode
    from belief.app.runners.episode_files import file_names, write_episode_files
    from belief.app.runs.executor import Star

    files = run_options.out_paths(out_dir, [n for s in seeds for n in file_names(f"household_{s}").values()], force)
    paths = {s: trace if trace is not None else files.get(f"household_{s}.trace.jsonl") for s in seeds}
    try:
        if out_dir is not None:
            out_dir.mkdir(parents=True, exist_ok=True)
        rows = play_all(Star(play_episode), [({"agent": agents, "scale": scale, "trace": str(trace) if trace else None,
                                               "files": out_dir is not None}, s)
                                             for s in seeds], "household episodes", **pool)
        if out_dir is not None:
            write_episode_files(out_dir, rows)
    except OSError as e:
        _fail(f"cannot write the traces into {out_dir or trace}: {e}", 1)
    except BeliefError as e:
        _fail(" ".join(str(e).split()), 1)
    for s, r in zip(seeds, rows):
        path = paths[s]
        p, b = r["prediction"], r["belief_world"]
        out.print(f"seed {s}, {r['task']} in {r['layout']}, {agents}: {'done' if r['done'] else 'not done'} in "
                  f"{r['steps']} steps; {r['messages']} messages ({r['message_tokens']} tokens); prediction "
                  f"{_pct(p[0] / p[1] if p[1] else None)}, belief accuracy (world) "
                  f"{_pct(b[0] / b[1] if b[1] else None)}")
        if path:
            out.print(f"trace: {path} ({r['trace_events']} events)")
        if as_json:
            print(json.dumps(r))
