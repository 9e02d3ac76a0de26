"""``belief plot RESULTS... --out FILE``: the standard figures from run directories and benchmark JSON lines."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from belief.app.cli.app import app
from belief.errors import BeliefError


class FigureName(str, Enum):
    tom = "tom"
    rounds = "rounds"
    transport = "transport"


@app.command("plot")
def plot_cmd(
    results: List[Path] = typer.Argument(..., help="bomb run directories (belief run bomb --out DIR) or files "
                                         "holding `belief bench transport|household` output"),
    out: Path = typer.Option(..., "--out", "-o", help="the figure to write: .png, .svg or .pdf"),
    figure: Optional[FigureName] = typer.Option(None, "--figure", help="tom, rounds (bomb runs, household "
                                                "output) or transport; default: the standard one for the input"),
    force: bool = typer.Option(False, "--force", help="overwrite --out if it exists"),
):
    """Draw a standard figure: ToM accuracy per order and template, transport rate vs tokens, or rounds/steps."""
    from belief.app.plot.figures import UnsupportedFormatError, check_output_path, draw, save_figure
    from belief.app.plot.data import load_results

    try:
        check_output_path(out, force, inputs=results)  # before any reading or drawing
        fig = draw([load_results(p) for p in results], figure.value if figure else None)
        save_figure(fig, out, force, inputs=results)
    except UnsupportedFormatError as e:
        print(f"error: {e}", file=sys.stderr)
        raise typer.Exit(2)
    except (BeliefError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        raise typer.Exit(1)
    print(f"wrote {out}")
