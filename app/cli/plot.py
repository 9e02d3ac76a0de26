"""``belief plot RESULTS... --out FILE``: the standard figures from run directories and benchmark JSON lines."""

from __future__ import annotations

import json
import math
import sys
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from belief.app.cli.app import app
from belief.errors import BeliefError
from belief.files.json_input import load_json, read_text


class FigureName(str, Enum):
    tom = "tom"
    rounds = "rounds"
    transport = "transport"


def _number(value, where: str) -> None:
    """BeliefError unless `value` is a finite number (a JSON string, NaN or 1e999 is not a figure)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        shown = json.dumps(value) if isinstance(value, (str, int, float)) else type(value).__name__
        raise BeliefError(f"{where} must be a finite number, got {shown[:40]}")


def _check_input(path: Path) -> None:
    """Refuse, before reading, what only looks like plot input: a trace file, or a run not yet finished."""
    if path.is_file():
        with path.open("rb") as f:
            head = f.read(4096).decode("utf-8", "replace").lstrip("\ufeff").lstrip()
        if path.name.endswith(".trace.jsonl") or head.startswith('{"format": "belief-trace"') \
                or head.startswith('{"schema_version"'):
            raise BeliefError(f"{path} is an episode trace, not results to plot: give the run directory "
                              f"(belief run bomb --out DIR) or a file of `belief bench ... --json` output")
    run_dir = path if path.is_dir() else path.parent
    manifest = run_dir / "manifest.json"
    if (path.is_dir() or path.name.startswith("bomb_") or path.name in ("questions.jsonl", "episodes.jsonl",
                                                                          "summary.jsonl")) and manifest.exists():
        data = load_json(read_text(manifest), f"{manifest}: ")
        status = data.get("status") if isinstance(data, dict) else None
        if status != "complete":
            raise BeliefError(f"{run_dir}: the run is not finished (its manifest says {str(status)[:20]!r}, not "
                              f"'complete'): finish it with belief run bomb --resume {run_dir}")


def _check_values(results) -> None:
    """Every number a figure draws is a finite number: episode rounds, an agent's rate, steps, tokens, CIs."""
    from belief.app.plot.data import BenchSummary

    if isinstance(results, BenchSummary):
        for name, v in results.by_agent.items():
            where = f"{results.path}: by_agent.{name}"
            for key in ("transport_rate", "steps", "message_tokens"):
                if key in v and (v[key] is not None or key != "message_tokens"):
                    _number(v[key], f"{where}.{key}")
            ci = v.get("ci95")
            for key, bounds in (ci.items() if isinstance(ci, dict) else [("", ci)] if ci is not None else []):
                for x in bounds if isinstance(bounds, (list, tuple)) else [bounds]:
                    if x is not None:  # no interval known: none drawn
                        _number(x, f"{where}.ci95{'.' + key if key else ''}")
        return
    for n, e in enumerate(results.episodes, 1):
        _number(e.get("rounds"), f"{results.path}: episode {n}: rounds")
    for n, q in enumerate(results.questions, 1):
        if not isinstance(q.get("correct"), bool):
            raise BeliefError(f"{results.path}: question {n}: correct must be true or false")


@app.command("plot")
def plot_cmd(
    results: List[Path] = typer.Argument(..., help="bomb run directories (belief run bomb --out DIR) or files "
                                         "holding `belief bench WORLD --json` output"),
    out: Path = typer.Option(..., "--out", "-o", help="the figure to write: .png, .svg or .pdf"),
    figure: Optional[FigureName] = typer.Option(None, "--figure", help="tom (bomb runs, or any world bench's "
                                                "ToM tables), rounds (bomb runs, other benches' first metric) or "
                                                "transport; default: the standard one for the input"),
    force: bool = typer.Option(False, "--force", help="overwrite --out if it exists"),
):
    """Draw a standard figure: ToM accuracy per order and template, transport rate vs tokens, or rounds/steps."""
    from belief.app.plot.figures import UnsupportedFormatError, check_output_path, draw, save_figure
    from belief.app.plot.data import load_results

    try:
        check_output_path(out, force, inputs=results)  # before any reading or drawing
        for p in results:
            _check_input(p)
        loaded = [load_results(p) for p in results]
        for r in loaded:
            _check_values(r)
        fig = draw(loaded, figure.value if figure else None)
        save_figure(fig, out, force, inputs=results)
    except UnsupportedFormatError as e:
        print(f"error: {e}", file=sys.stderr)
        raise typer.Exit(2)
    except (BeliefError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        raise typer.Exit(1)
    print(f"wrote {out}")
