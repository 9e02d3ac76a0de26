"""``belief bench elimination``: CPU of knowledge by elimination on random-agent bomb episodes
(:mod:`belief.app.bench.elimination`)."""

from __future__ import annotations

import typer

from belief.app.cli import run_options
from belief.app.cli.app import bench_app


@bench_app.command("elimination")
@run_options.figures_options
def bench_elimination_cmd(
    episodes: int = run_options.episodes(10, help="random-agent bomb episodes, seeds SEED, SEED+1, ..."),
    seed: int = run_options.SEED,
    queries: int = typer.Option(300, "--queries", min=0, help="random knows_chain and possible queries per episode"),
    depth: int = typer.Option(2, "--depth", min=1, help="longest perspective chain queried"),
    max_rounds: int = typer.Option(30, "--max-rounds", min=1, help="rounds before an episode is cut off"),
    progress: bool = run_options.PROGRESS,
    output: dict = None,
):
    """CPU seconds per random-agent bomb episode and CPU ms per knows_chain / possible query (a table, or one JSON
    line with --json)."""
    from belief.app.bench.elimination import run
    from belief.app.runs.progress import progress_bar

    files = run_options.figures_files(output)
    with progress_bar("bomb episodes", total=episodes, enabled=progress) as bar:
        res = run(episodes, seed, queries, depth, max_rounds, progress=bar.advance)
    run_options.emit_figures(res, output, files, f"bench elimination: {episodes} random-agent bomb episode(s)")
