"""Command-line options shared by the commands that run many episodes or shards: where they run
(``--executor``, ``--workers``, ``--address``), the progress bar, and overwriting outputs (``--force``,
checked by :func:`refuse_bad_outputs`)."""

import sys

import typer

from belief.errors import BeliefError
from belief.app.runs.executor import EXECUTORS
from belief.files.outputs import OutputConflictError, check_outputs

EXECUTOR = typer.Option("local", "--executor", help=f"{' | '.join(EXECUTORS)}: a local process pool (default), "
                        "this process only, or Ray (pip install 'belief[ray]'); results are identical")
WORKERS = typer.Option(None, "--workers", min=1, help="processes (local) or CPUs (ray); default: all cores")
ADDRESS = typer.Option(None, "--address", help="ray only: a cluster to join ('auto' or 'ray://HOST:10001'); "
                       "default: a Ray instance on this machine")
PROGRESS = typer.Option(True, "--progress/--no-progress", help="progress bar with ETA on stderr (drawn only "
                        "when stderr is a terminal)")
FORCE = typer.Option(False, "--force", help="overwrite existing outputs (a run directory: remove the files its "
                     "manifest lists first)")


def refuse_bad_outputs(outputs: dict, inputs=(), force: bool = False, tables=("--results",)) -> None:
    """Exit with one ``error:`` line (2: an output names an input or another output; 1: it exists without
    --force, cannot be written there, or a results table has no known format) before the command does any
    work."""
    try:
        check_outputs(outputs, inputs, force, tables)
    except BeliefError as e:
        print(f"error: {e}", file=sys.stderr)
        raise typer.Exit(2 if isinstance(e, OutputConflictError) else 1)
