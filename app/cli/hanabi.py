"""``belief bench hanabi``: every Hanabi agent kind on the same seeds (2-5 players), the one benchmark shape.

A table per agent and of the paired differences on stdout, a progress bar on stderr, and with ``--json``
the benchmark JSON object (docs/benchmarks.md) as the last stdout line; ``--out DIR`` writes it to
``summary.json`` beside ``episodes.jsonl`` (one row per game and kind). The ToM table of the first
``--tom-games`` games of each kind is in ``extra.tom``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from belief.app.cli import run_options
from belief.app.cli.app import bench_app
from belief.app.runs.progress import progress_bar
from belief.errors import BeliefError

out = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 160)
_KINDS = "belief.app.runners.hanabi:AGENT_KINDS"
DEFAULT_KINDS = "belief,smartbot,conventional,hintless"


@bench_app.command("hanabi")
@run_options.deprecated_aliases(episodes="--games")
def bench_hanabi(
    players: int = typer.Option(2, "--players", min=2, max=5, help="players at the table (hands of 5, or 4 "
                                "with 4-5 players)"),
    episodes: int = run_options.episodes(100, "games per agent kind (seeds S..S+N-1)"),
    seed: int = run_options.SEED,
    agents: str = run_options.agents(DEFAULT_KINDS, _KINDS, "comma-separated, each once (one kind for the "
                                     "whole table)", counts=None, distinct=True),
    tom_games: int = typer.Option(6, "--tom-games", min=0, help="games per kind that also ask the selected ToM "
                                  "questions (belief.envs.hanabi.tom) beside the shortcut panel"),
    executor: run_options.Executor = run_options.EXECUTOR,
    workers: int = run_options.WORKERS,
    address: Optional[str] = run_options.ADDRESS,
    as_json: bool = run_options.JSON,
    progress: bool = run_options.PROGRESS,
    out_dir: Optional[Path] = run_options.out(),
    force: bool = run_options.FORCE,
):
    """Hanabi for 2-5 players: score, lives lost, turns per agent kind, paired differences, ToM table."""
    from belief.app.bench.hanabi import bench
    from belief.app.results.tables import agents_table, diff_table

    kinds = run_options.split_kinds(agents)
    files = run_options.out_paths(out_dir, run_options.AGGREGATE_FILES, force)
    with progress_bar("hanabi games", total=episodes * len(kinds), enabled=progress) as bar:
        try:
            summary, rows = bench(kinds, episodes, seed, players, tom_games, workers=workers, executor=executor,
                                  address=address, progress=lambda r: bar.advance())
        except BeliefError as e:
            run_options.fail(" ".join(str(e).split()), 1)
    run_options.write_aggregate(files, rows, summary)
    out.print(agents_table(summary, title=f"hanabi_v0, {players} players, {episodes} game(s) from seed {seed}: "
                                          "means, 95% intervals, (n) games"))
    if summary["diff_vs"]:
        out.print(diff_table(summary))
    if summary["extra"]["tom"]:
        from belief.grading.trivial import tom_tables_markdown

        out.print(tom_tables_markdown(summary["extra"]["tom"], "Selected ToM questions, {kind} games (accuracy; a "
                                      "template whose best shortcut gets > 0.65 is not ToM):"), markup=False)
    if as_json:
        print(json.dumps(summary))
