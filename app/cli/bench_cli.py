"""``belief bench cli``: the start-up cost of the command line (:mod:`belief.app.bench.cli`)."""

from __future__ import annotations

import typer

from belief.app.cli import run_options
from belief.app.cli.app import bench_app


@bench_app.command("cli")
@run_options.figures_options
def bench_cli_cmd(
    runs: int = typer.Option(7, "--runs", min=1, help="runs of each command (after one warm-up run each)"),
    progress: bool = run_options.PROGRESS,
    output: dict = None,
):
    """CPU seconds of `belief --help` against `python -c "import pydantic, lark"` (a table, or one JSON line with
    --json).

    Each command runs in a fresh interpreter, the two in turn; the figures are medians over the runs
    (help_cpu_s, baseline_cpu_s) and the median of the pairwise ratios (ratio)."""
    from belief.app.bench.cli import bench_cli
    from belief.app.runs.progress import progress_bar

    files = run_options.figures_files(output)
    with progress_bar("belief --help vs import pydantic, lark", total=runs + 1, enabled=progress) as bar:
        figures = bench_cli(runs, progress=bar.advance)
    run_options.emit_figures(figures, output, files, f"bench cli: {runs} run(s) of each command")
