"""ToM benchmark commands: ``belief tomi``, ``belief hitom`` and ``belief bench checker``.

Each prints a rich table and, as its last stdout line, one JSON object. Progress goes to stderr only.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from belief.app.cli import run_options
from belief.app.cli.app import app, bench_app
from belief.errors import BeliefError

out = Console(highlight=False, soft_wrap=True)


def _fail(message: str, code: int = 1):
    print(f"error: {message}", file=sys.stderr)
    raise typer.Exit(code)


def _pct(a: int, n: int) -> str:
    return f"{100.0 * a / n:.1f}%" if n else "-"


def _table(title: str, summary: dict, breakdowns: list[tuple[str, str]]) -> Table:
    t = Table(title=title)
    t.add_column("group")
    t.add_column("type")
    t.add_column("agree", justify="right")
    t.add_column("total", justify="right")
    t.add_column("accuracy", justify="right")
    for label, key in breakdowns:
        for k, (a, n) in summary.get(key, {}).items():
            t.add_row(label, k, str(a), str(n), _pct(a, n))
    t.add_row("all", "", str(summary["agree"]), str(summary["total"]), _pct(summary["agree"], summary["total"]))
    return t


#: questions per shard: grading runs at ~25,000 questions/s in one process, so smaller shards would not pay
#: for starting worker processes (a file below this size is graded in one task)
MIN_SHARD = 20_000


def _grade_sharded(grade_slice, items: list, executor: str, workers, address, progress: bool) -> list:
    """grade_slice(items) over contiguous shards on the chosen executor; the same list as one call."""
    from belief.app.runs.progress import progress_bar
    from belief.app.runs.tom_shards import grade_lean, share_stories
    from belief.app.runs.executor import run_sharded

    count = min(max(1, len(items) // MIN_SHARD), 4 * (workers or os.cpu_count() or 1))
    if count > 1:
        items = share_stories(items)
    with progress_bar("questions", total=len(items), enabled=progress) as bar:
        return run_sharded(functools.partial(grade_lean, grade_slice), items, executor, workers, address,
                           count=count, progress=lambda i, part: bar.advance(len(part)))


def _write_jsonl(path: Optional[Path], rows) -> None:
    from belief.files.outputs import atomic_write_text

    if path is None:
        return
    try:
        atomic_write_text(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    except OSError as e:
        _fail(f"{path}: cannot write: {e}")


def _emit(report, title: str, breakdowns, predictions: Optional[Path], audit: Optional[Path], with_source: bool,
          policy: str):
    from belief.adapters.common import audit_entry

    summary = report.summary()
    summary["policy"] = policy
    _write_jsonl(predictions, (q.prediction(with_source) for q in report.questions))
    _write_jsonl(audit, (audit_entry(q, with_source) for q in report.disagreements()))
    out.print(_table(title, summary, breakdowns))
    dis = report.disagreements()
    if dis:
        out.print(f"{len(dis)} disagreement(s) with the official labels"
                  + (f" (explained in {audit})" if audit else " (use --audit FILE for the justifications)"))
    print(json.dumps(summary), flush=True)


_PREDICTIONS = typer.Option(None, "--predictions", help="Write one JSON line per question.")
_AUDIT = typer.Option(None, "--audit", help="Write one JSON line per disagreement, explained.")


def _graded(name: str, examples, grade, groups: dict, pool: dict):
    """The adapter's report of `examples` graded (sharded over the pool); one error line on bad input."""
    from belief.adapters.common import Report

    try:
        return Report(name, _grade_sharded(grade, examples(), **pool), groups=groups)
    except BeliefError as e:
        _fail(str(e))


@app.command("tomi")
@run_options.pool_options
def tomi_cmd(
    stories: Path = typer.Argument(..., help="ToMi bAbI-style file (numbered sentences; a question line is question, answer and 1, tab-separated)."),
    trace: Optional[Path] = typer.Option(None, "--trace", help="The matching .trace file (question-type labels)."),
    predictions: Optional[Path] = _PREDICTIONS,
    audit: Optional[Path] = _AUDIT,
    policy: str = typer.Option("strict-truthful", "--policy", help="Trust policy for messages."),
    force: bool = run_options.FORCE,
    pool: dict = None,
):
    """Answer every ToMi question from the story's trace; accuracy per question type against the labels."""
    from belief.adapters import tomi

    if not stories.exists():
        _fail(f"{stories}: no such file")
    if trace is not None and not trace.exists():
        _fail(f"{trace}: no such file")
    run_options.refuse_bad_outputs({"--predictions": predictions, "--audit": audit}, [stories, trace], force)
    report = _graded("tomi", lambda: tomi.read_examples(stories, trace),
                     functools.partial(tomi.grade_examples, source=str(stories), policy=policy),
                     {"by_story_type": "story_type"}, pool)
    _emit(report, f"ToMi: {stories}", [("type", "by_type"), ("story", "by_story_type")], predictions, audit,
          False, policy)


@app.command("hitom")
@run_options.pool_options
def hitom_cmd(
    path: Path = typer.Argument(..., help="Hi-ToM JSON ({\"data\": [...]}), JSON Lines, or a Tell/No_Tell tree."),
    predictions: Optional[Path] = _PREDICTIONS,
    audit: Optional[Path] = _AUDIT,
    policy: str = typer.Option("hitom", "--policy", help="Trust policy for messages."),
    force: bool = run_options.FORCE,
    pool: dict = None,
):
    """Answer every Hi-ToM question from the story's trace; accuracy per order and per Tell/No_Tell."""
    from belief.adapters import hitom

    if not path.exists():
        _fail(f"{path}: no such file or directory")
    run_options.refuse_bad_outputs({"--predictions": predictions, "--audit": audit}, [path], force)
    report = _graded("hitom", lambda: hitom.read_items(path), functools.partial(hitom.grade_items, policy=policy),
                     {"by_tell": "tell"}, pool)
    _emit(report, f"Hi-ToM: {path}", [("order", "by_type"), ("tell", "by_tell")], predictions, audit, True, policy)


#: the options of the random traces that bench checker and bench online build
_AGENTS = typer.Option(10, "--agents", min=1, max=62, help="agents in the random trace")
_ROOMS = typer.Option(5, "--rooms", min=1, help="rooms (1: everyone witnesses every event)")
_DEPTH = typer.Option(4, "--depth", min=1, help="longest perspective chain queried")
_OBJECTS = typer.Option(10, "--objects", min=1, help="objects moved around")
_POLICY = typer.Option("strict-truthful", "--policy", help="trust policy for messages")


def _known_policy(policy: str) -> None:
    """One error line, before any work, for a trust policy that does not exist."""
    from belief.logic.policies import get_policy

    try:
        get_policy(policy)
    except BeliefError as e:
        _fail(str(e))


@bench_app.command("checker")
@run_options.figures_options
def bench_checker_cmd(
    agents: int = _AGENTS,
    rooms: int = _ROOMS,
    depth: int = _DEPTH,
    events: int = typer.Option(100_000, "--events", min=1, help="events in the trace"),
    queries: int = typer.Option(100_000, "--queries", min=0, help="random chain queries answered"),
    objects: int = _OBJECTS,
    seed: int = run_options.SEED,
    policy: str = _POLICY,
    progress: bool = run_options.PROGRESS,
    output: dict = None,
):
    """Random trace of enters, exits, moves and messages; time to build the truth and to answer chain queries."""
    from belief.app.bench import checker as bench_checker

    _known_policy(policy)
    from belief.app.runs.progress import progress_bar

    files = run_options.figures_files(output)
    with progress_bar("trace", total=events, enabled=progress) as bar:
        stage = ["trace"]

        def cb(name, n, total):
            if name != stage[0]:
                stage[0] = name
                bar.stage(name, total)
            bar.advance(n)

        res = bench_checker.run(agents, rooms, depth, events, queries, seed, objects, policy,
                                progress=cb if bar.enabled else None)
    run_options.emit_figures(res, output, files, f"bench checker: {events} events, {queries} queries")


@bench_app.command("online")
@run_options.figures_options
def bench_online_cmd(
    events: int = typer.Option(20_000, "--events", min=1, help="events appended to the tracker"),
    agents: int = _AGENTS,
    depth: int = _DEPTH,
    rooms: int = _ROOMS,
    objects: int = _OBJECTS,
    seed: int = run_options.SEED,
    policy: str = _POLICY,
    batch: bool = typer.Option(True, "--batch/--no-batch", help="also time the batch check (for ratio_vs_batch)"),
    load: bool = typer.Option(True, "--load/--no-load", help="also time reading the trace back from JSONL"),
    questions_per_event: int = typer.Option(1, "--questions-per-event", min=0, max=1000,
                                            help="random chain queries asked after each event"),
    output: dict = None,
):
    """Append N events to a Tracker with one chain query after each; CPU time per event and query against one batch check."""
    from belief.app.bench import online as bench_online

    _known_policy(policy)
    files = run_options.figures_files(output)
    res = bench_online.run(events, agents, depth, rooms, objects, seed, policy, batch=batch, load=load,
                           questions_per_event=questions_per_event)
    run_options.emit_figures(res, output, files, f"bench online: {events} events appended to a Tracker")


@bench_app.command("exploretom")
@run_options.figures_options
def bench_exploretom_cmd(
    exploretom: Path = typer.Option(..., "--exploretom", help="a checkout of "
                                    "https://github.com/facebookresearch/ExploreToM (the folder holding "
                                    "belief_tracker.py); its code is imported from there, never copied"),
    n: int = typer.Option(4000, "--n", min=1, max=1_000_000, help="stories generated (belief stories)"),
    seed: int = typer.Option(0, "--seed", min=0, help="seed of the story set and of the questions"),
    questions_per_event: int = typer.Option(8, "--questions-per-event", min=0, max=1000,
                                            help="random first- and second-order questions after each action"),
    policy: str = _POLICY,
    progress: bool = run_options.PROGRESS,
    output: dict = None,
):
    """Side by side with ExploreToM's belief tracker on the same stories: CPU time per action and per question
    of each, the ratios, and how often they agree (disagreements by cause).

    Our story generator's stories, restricted to ExploreToM's actions, drive both `FullBeliefTracker` and our
    `Tracker`; the same first- and second-order questions are asked of both after every action. Every
    disagreement is traced to the action after which the answers parted and labelled; four labels are the known
    errors of ExploreToM's tracker, the rest count as `unexplained` (docs/benchmarks.md)."""
    from belief.app.bench import exploretom as bench_exploretom

    _known_policy(policy)
    files = run_options.figures_files(output)
    try:
        bench_exploretom.load_exploretom(exploretom)
    except bench_exploretom.ExploreToMError as e:
        run_options.fail(str(e), 2)
    from belief.app.runs.progress import progress_bar

    with progress_bar("stories", total=n, enabled=progress) as bar:
        res = bench_exploretom.run(exploretom, n, seed, questions_per_event, policy, progress=bar.advance)
    run_options.emit_figures(res, output, files, f"bench exploretom: {n} stories, {questions_per_event} "
                             "questions after each action")


@app.command("explain")
def explain_cmd(
    trace: Path = typer.Argument(..., help="A whole global trace (JSONL, belief.truth.trace, ending with its end marker), e.g. "
                                           "runs/bomb/bomb_0.trace.jsonl or one written with Trace.write()."),
    query: str = typer.Argument(..., help="e.g. '? A BELIEVE B BELIEVE apple IN ?c'"),
    at: Optional[int] = typer.Option(None, "--at", help="Event index to answer at (default: the end)."),
    policy: str = typer.Option("strict-truthful", "--policy", help="Trust policy for messages."),
    as_json: bool = typer.Option(False, "--json", help="Print the answer and its justification as one JSON line."),
    domain: Optional[str] = typer.Option(None, "--domain", help="Type-check the trace first against a built-in "
                                         "domain (e.g. tomi), a domain file, or a scenario file (names typed)."),
    knows: bool = typer.Option(False, "--knows", help="Also say whether the query's chain knows the fluent's value "
                               "('? A BELIEVE apple IN ?c': does A know where the apple is; '? X BELIEVE A BELIEVE "
                               "...': is X aware that A knows), and why."),
    limit: int = typer.Option(20, "--limit", min=1, max=10_000, help="Show at most this many answers (a query "
                              "with a variable subject has one per matching fluent), and this many changes not "
                              "followed per answer; the rest are counted ('... N more')."),
):
    """Answer a query from a trace's exact ground truth and show the events (who was present where) behind it."""
    from belief.truth.checker import check
    from belief.truth.completeness import read_complete_trace
    from belief.truth.explain import explain, explain_knows
    from belief.logic.scenario import load_domain

    try:
        dom, entities = load_domain(domain) if domain is not None else (None, None)
        # a trace cut short (no end marker) is refused, as grade refuses it: no answer from part of an episode
        truth = check(read_complete_trace(trace), policy=policy, domain=dom, entities=entities)
        answers = truth.answers(query, at)
        total, answers = len(answers), answers[:limit]
        more = total - len(answers)
        rows, texts = [], []
        for a in answers:
            ex = explain(truth, a.chain, a.fluent, at, limit=limit)
            row = {"query": str(a.query), "chain": list(a.chain), "fluent": list(a.fluent), "stance": a.stance,
                   "value": a.value, "bindings": a.bindings, "holds": a.holds, "explanation": ex.to_dict(),
                   "answers_total": total}
            text = ex.text
            if knows:
                kx = explain_knows(truth, a.chain, a.fluent, at, limit=limit)
                row["knows"], row["knowledge"] = kx.knows, kx.to_dict()
                text = kx.text
            rows.append(row)
            texts.append(text)
    except BeliefError as e:
        _fail(str(e))
    if as_json:
        print(json.dumps(rows))
        return
    for a, text in zip(answers, texts):
        verdict = "" if a.holds is None else ("yes: " if a.holds else "no: ")
        out.print(f"{verdict}{a.stance} {a.value if a.value is not None else ''}"
                  f"{'   ' + str(a.bindings) if a.bindings else ''}", markup=False)
        out.print(text, markup=False)
    if more:
        out.print(f"... {more} more answer(s) (--limit {limit})", markup=False)
