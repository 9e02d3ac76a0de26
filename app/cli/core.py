"""Core commands: parse, query, demo, bench parse."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.console import Console

from belief.app.cli import run_options
from belief.app.cli.app import app, bench_app
from belief.errors import BeliefError

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def read_input(path: str) -> tuple[str, str]:
    """Text of FILE or of stdin for '-'; (text, display name)."""
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    p = Path(path)
    if not p.exists():
        fail(f"{path}: no such file")
    try:
        return p.read_text(encoding="utf-8-sig"), path  # a leading byte order mark is dropped
    except (OSError, UnicodeDecodeError) as e:
        fail(f"{path}: cannot read: {e}")


def fail(message: str, code: int = 1):
    print(f"error: {message}", file=sys.stderr)
    raise typer.Exit(code)


def report_error(e: BeliefError, code: int = 1):
    errors = getattr(e, "all_errors", None) or [e]
    for x in errors:
        print(f"error: {x}", file=sys.stderr)
    raise typer.Exit(code)


@app.command("parse")
def parse_cmd(
    file: str = typer.Argument(..., help="A file of facts (readable or s-expressions), domains or scenarios; '-' for stdin."),
    form: str = typer.Option("readable", "--form", "-f", help="Output form for facts: readable, sexpr or pdkb."),
):
    """Validate and pretty-print a belief document; exit 1 with line:column and a caret on errors."""
    from belief.logic.domain import Domain
    from belief.logic.formula import Fact
    from belief.grammar import format_fact
    from belief.logic.scenario import Scenario, load_scenario, read_document

    if form not in ("readable", "sexpr", "pdkb"):
        fail(f"unknown form {form!r}: expected readable, sexpr or pdkb", 2)
    text, name = read_input(file)
    try:
        items = read_document(text, source=name)
        if any(isinstance(i, Scenario) for i in items):
            load_scenario(text, source=name).store()  # type-check every initial fact against the domain
    except BeliefError as e:
        report_error(e)
    for item in items:
        if isinstance(item, Fact):
            out.print(format_fact(item, form), markup=False)
        elif isinstance(item, (Domain, Scenario)):
            out.print(_format_decl(item, form), markup=False)
    print(f"ok: {sum(isinstance(i, Fact) for i in items)} fact(s), "
          f"{sum(isinstance(i, Domain) for i in items)} domain(s), "
          f"{sum(isinstance(i, Scenario) for i in items)} scenario(s)", file=sys.stderr)


def _format_decl(item, form: str) -> str:
    from belief.logic.domain import Domain
    from belief.grammar import format_fact

    if isinstance(item, Domain):
        return str(item)
    lines = [f"; scenario {item.name} (domain {item.domain_name})", f"; agents: {' '.join(item.agents)}"]
    lines += [format_fact(f, form) for f in item.init]
    lines += [f"? {format_fact(q, 'readable')}" for q in item.queries]
    return "\n".join(lines)


@app.command("query")
def query_cmd(
    scenario: str = typer.Argument(..., help="Scenario file (s-expression problem, or readable facts) or a built-in "
                                             "example name such as 'sally-anne'."),
    query: str = typer.Argument(..., help="e.g. '? Anne BELIEVE Sally BELIEVE marble IN ?c'"),
    as_json: bool = typer.Option(False, "--json", help="Print answers as one JSON line."),
):
    """Answer a query against a scenario's initial facts: believes / believes-not / unsure, with bindings."""
    from belief import examples
    from belief.grammar import parse_query
    from belief.logic.scenario import load_scenario

    try:
        if scenario in examples.scenario_names() and not Path(scenario).exists():
            sc = examples.scenario(scenario)
        else:
            text, name = read_input(scenario)
            sc = load_scenario(text, source=name)
        store = sc.store()
        formula = parse_query(query)
        sc.check_query_names(formula)
        answers = store.query(formula)
    except BeliefError as e:
        report_error(e)
    if as_json:
        print(json.dumps({"query": query, "answers": [a.to_json() for a in answers]}))
        return
    for a in answers:
        bind = ", ".join(f"?{k} = {v}" for k, v in a.bindings.items())
        status = a.stance.value if a.known else "unsure (nothing known)"
        prob = f" @ {a.probability}" if a.probability is not None else ""
        out.print(f"{status}{prob}: {a.formula}" + (f"   [{bind}]" if bind else ""), markup=False)


@app.command("demo")
def demo_cmd(
    scenario: str = typer.Option("sally-anne", help="Built-in example scenario or a scenario file."),
):
    """Parse a small scenario, show every agent's beliefs per perspective chain, answer its ToM queries."""
    from belief.app.demo import run_demo
    from belief import examples

    if not scenario.strip():
        fail(f"--scenario is empty: name a built-in example ({', '.join(examples.scenario_names())}) or a "
             f"scenario file", 2)
    try:
        run_demo(scenario, out)
    except BeliefError as e:
        report_error(e)
    except (OSError, UnicodeDecodeError) as e:  # a missing or unreadable scenario file: one line, no traceback
        fail(f"{scenario}: cannot read: {e}")


@bench_app.command("parse")
@run_options.figures_options
def bench_parse_cmd(
    facts: int = typer.Option(100_000, min=1, help="Number of generated facts."),
    seed: int = run_options.SEED,
    repeat: int = typer.Option(3, min=1, help="Runs per form; the best is reported (as timeit does)."),
    progress: bool = run_options.PROGRESS,
    output: dict = None,
):
    """Parse N generated facts of depth 1-4 in both forms: facts per second (a table, or one JSON line with --json)."""
    from belief.app.bench.parse import bench_parse, steps
    from belief.app.runs.progress import progress_bar

    files = run_options.figures_files(output)
    with progress_bar("parsing generated facts", total=steps(repeat), enabled=progress) as bar:
        figures = bench_parse(facts, seed, repeat, progress=bar.advance)
    run_options.emit_figures(figures, output, files, f"bench parse: {facts} generated facts")
