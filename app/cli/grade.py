"""``belief grade TRACE ANSWERS``: grade free-text ToM answers against the checker's exact answers."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from belief.app.cli.app import app
from belief.envs.bomb_grading import grade_files
from belief.errors import BeliefError
from belief.grading import LEVEL_TITLES, LEVELS

out = Console(highlight=False, soft_wrap=True)


def _fail(message: str, code: int = 1):
    print(f"error: {message}", file=sys.stderr)
    raise typer.Exit(code)


def _pct(x) -> str:
    return "n/a" if x is None else f"{x:.1f}%"


@app.command("grade")
def grade_cmd(
    trace: Path = typer.Argument(..., help="a bomb_v0 trace (JSONL), e.g. runs/bomb/bomb_0.trace.jsonl"),
    answers: Path = typer.Argument(..., help="answers JSONL: one {\"id\": ..., \"answer\": \"free text\"} per line"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object as the last line"),
):
    """Grade free-text ToM answers against the exact answers the checker derives from TRACE."""
    try:
        rep = grade_files(trace, answers)
    except BeliefError as e:
        _fail(str(e))
    t = Table(title=f"ToM accuracy of {answers.name} (Table 2)")
    for lvl in LEVELS:
        t.add_column(LEVEL_TITLES[lvl], justify="right")
    t.add_column("overall", justify="right")
    t.add_row(*[f"{_pct(rep.accuracy(l))} ({rep.correct[l]}/{rep.total[l]})" for l in LEVELS], _pct(rep.accuracy()))
    out.print(t)
    if rep.unparseable:
        out.print(f"{len(rep.unparseable)} unparseable answer(s), counted as wrong:")
        for qid, a in rep.unparseable[:20]:
            out.print(f"  {qid}: {a!r}")
    if rep.missing:
        out.print(f"{len(rep.missing)} question(s) without an answer, counted as wrong: {', '.join(rep.missing[:10])}"
                  + (" ..." if len(rep.missing) > 10 else ""))
    if rep.unknown_ids:
        out.print(f"{len(rep.unknown_ids)} answer id(s) match no question: {', '.join(rep.unknown_ids[:10])}")
    if as_json:
        print(json.dumps(rep.to_json()))
