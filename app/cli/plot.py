"""``belief plot RESULTS... --out FILE``: the standard figures from run directories and benchmark JSON lines."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional

import typer

from belief.app.cli.app import app
from belief.errors import BeliefError


@app.command("plot")
def plot_cmd(
    results: List[Path] = typer.Argument(..., help="bomb run directories (belief run bomb --out DIR) or files "
                                         "holding `belief bench transport|household --json` output"),
    out: Path = typer.Option(..., "--out", "-o", help="the figure to write: .png, .svg or .pdf"),
    figure: Optional[str] = typer.Option(None, "--figure", help="tom | rounds (bomb runs), transport, rounds "
                                         "(household); default: tom, transport or rounds by input"),
    force: bool = typer.Option(False, "--force", help="overwrite --out if it exists"),
):
    """Draw a standard figure: ToM accuracy per order and template, transport rate vs tokens, or rounds/steps."""
    from belief.app.plot import FIGURES, check_output_path, draw, save_figure
    from belief.app.plot_data import load_results

    try:
        if figure is not None and figure not in FIGURES:
            raise BeliefError(f"--figure must be one of {', '.join(FIGURES)} (got {figure!r})")
        check_output_path(out, force)  # before any reading or drawing
        fig = draw([load_results(p) for p in results], figure)
        save_figure(fig, out, force)
    except (BeliefError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        raise typer.Exit(1)
    print(f"wrote {out}")
