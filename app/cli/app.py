"""The shared typer application; command modules register on it (see app/cli/__init__.py)."""
import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="belief: a symbolic belief engine for multi-agent Theory of Mind.")
bench_app = typer.Typer(no_args_is_help=True, help="Benchmarks: each prints one JSON line of figures.")
app.add_typer(bench_app, name="bench")
run_app = typer.Typer(no_args_is_help=True, help="Run an environment's episodes with a team of agents.")
app.add_typer(run_app, name="run")
