"""``belief grade TRACE ANSWERS [--questions QUESTIONS]``: grade free-text answers against exact answers: the
checker's on TRACE (ToM kinds) or the ones the questions file states (kind ``given``: EC / JP questions).

Without ``--questions`` the trace must be a bomb_v0 trace (its questions are regenerated from it). Tables go
to stdout; with ``--out FILE`` one row per question (JSONL or CSV); with ``--json`` the last stdout line is
the summary as one JSON object.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer
from rich.console import Console
from rich.table import Table

from belief.app.cli import run_options
from belief.app.cli.app import app
from belief.app.runs.progress import ProgressBar, progress_bar
from belief.errors import BeliefError

if TYPE_CHECKING:  # the grading modules load the checker (and bomb's questions the worlds): only `grade` needs them
    from belief.grading.report import GradeReport

out = Console(highlight=False, soft_wrap=True)


def _fail(message: str, code: int = 1):
    print(f"error: {' '.join(str(message).split())}", file=sys.stderr)
    raise typer.Exit(code)


def _frac(x) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def grade_paths(trace_path: Path, answers_path: Path, questions_path: Optional[Path], policy: str,
                executor: str = "serial", workers: Optional[int] = None, address: Optional[str] = None,
                bar: Optional[ProgressBar] = None) -> GradeReport:
    """Read, check and grade the files (BeliefError on any bad input); the questions are graded in shards
    on `executor` (:mod:`belief.app.runs.grade_shards`: the same report as one call), counted on `bar`."""
    from belief.app.runs.grade_shards import grade_sharded
    from belief.envs.bomb.grading import bomb_questions
    from belief.grading.files import load_answers, load_questions, read_complete_trace
    from belief.grading.report import episode_id, trace_digest
    from belief.truth.checker import check

    trace = read_complete_trace(trace_path)
    episode = episode_id(trace)
    answers = load_answers(answers_path, episode, trace_digest(trace))
    if questions_path is not None:
        questions = load_questions(questions_path, episode)
    elif trace.meta.get("env") == "bomb_v0":
        questions = bomb_questions(trace)
    else:
        raise BeliefError(f"{trace_path} is not a bomb_v0 trace: pass its questions with --questions FILE")
    truth = check(trace, policy=policy)
    if bar is not None:
        bar.stage("grading questions", len(questions))
    return grade_sharded(truth, questions, answers, episode, executor=executor, workers=workers, address=address,
                         progress=(lambda i, rows: bar.advance(len(rows))) if bar is not None else None)


def _print_report(rep: GradeReport, title: str) -> None:
    from belief.grading.report import BREAKDOWNS

    s = rep.summary()
    t = Table(title=title)
    # short headers so the table fits 80 columns (a pipe or a file gets no wider terminal)
    for col in ("questions", "n", "correct", "acc.", "answered\nacc.", "unread", "missing"):
        t.add_column(col, justify="left" if col == "questions" else "right", no_wrap=True)

    def add(label, tally, end_section=False):
        t.add_row(label, str(tally["questions"]), str(tally["correct"]), _frac(tally["accuracy"]),
                  _frac(tally["answered_only"]), str(tally["unreadable"]), str(tally["missing"]),
                  end_section=end_section)

    add("all", s, end_section=True)
    for key in BREAKDOWNS:
        groups = s[f"by_{key}"]
        if len(groups) < 2 and key not in ("order",):
            continue
        for i, (label, tally) in enumerate(groups.items()):
            add(f"{key} {label}", tally, end_section=i == len(groups) - 1)
    out.print(t)
    unreadable = rep.unreadable()
    if unreadable:
        out.print(f"{len(unreadable)} unreadable answer(s), counted wrong (left out of 'answered only'):")
        for r in unreadable[:20]:
            out.print(f"  {r['id']}: {r['answer']!r}")
    missing = rep.missing()
    if missing:
        out.print(f"{len(missing)} question(s) without an answer, counted wrong: "
                  + ", ".join(r["id"] for r in missing[:10]) + (" ..." if len(missing) > 10 else ""))
    if rep.unknown_ids:
        out.print(f"{len(rep.unknown_ids)} answer id(s) match no question: {', '.join(rep.unknown_ids[:10])}")


@app.command("grade")
def grade_cmd(
    trace: Path = typer.Argument(..., help="the episode's global trace (JSONL), e.g. runs/bomb/bomb_0.trace.jsonl"),
    answers: Path = typer.Argument(..., help="answers JSONL: one {\"id\", \"answer\" (free text), \"episode\"} per "
                                   "line"),
    questions: Optional[Path] = typer.Option(None, "--questions", help="questions JSONL (id, kind value|knows|aware|given, "
                                             "chain, fluent, time, labels; gold and answer_type for given); "
                                             "default: a bomb_v0 trace's own"),
    out_path: Optional[Path] = typer.Option(None, "--out", help="write one graded row per question to FILE "
                                            "(.jsonl or .csv)"),
    force: bool = typer.Option(False, "--force", help="overwrite an existing --out file"),
    policy: str = typer.Option("strict-truthful", "--policy", help="trust policy of the checker"),
    as_json: bool = typer.Option(False, "--json", help="print the summary as one JSON object on the last line"),
    executor: str = run_options.EXECUTOR,
    workers: Optional[int] = run_options.WORKERS,
    address: Optional[str] = run_options.ADDRESS,
    progress: bool = run_options.PROGRESS,
):
    """Grade free-text answers against the checker's exact answers on TRACE (and the stated gold of given
    questions)."""
    from belief.grading.files import check_output, write_rows

    try:
        check_output(out_path, [p for p in (trace, answers, questions) if p is not None], force)
        with progress_bar("reading the trace", total=None, enabled=progress) as bar:
            rep = grade_paths(trace, answers, questions, policy, executor, workers, address, bar)
        if out_path is not None:
            write_rows(rep, out_path)
    except (BeliefError, OSError) as e:
        _fail(str(e))
    _print_report(rep, f"Accuracy of {answers.name} (episode {rep.episode})")
    if out_path is not None:
        out.print(f"{len(rep.rows)} graded row(s) in {out_path}")
    if as_json:
        print(json.dumps(rep.summary()))
