"""The options every episode command shares, defined once (same names, defaults and help everywhere).

* ``--episodes N`` / ``--seed S``: play seeds ``S .. S+N-1``.
* ``--out DIR``: where the command writes its files (``episodes.jsonl`` and ``summary.json`` for the commands
  that aggregate episodes, ``summary.json`` for the engine benches, a trace per episode for the single-episode
  runs; refused if they exist, unless ``--force``, which also removes the temporary files a killed write left
  there). Checked before any work (:func:`out_paths`, :func:`probe_writable`): a directory that cannot be made
  or written is one ``error:`` line, not a failure after the whole run.
* ``--json``: the figures as one JSON line (the last stdout line); without it, a readable table.
* ``--workers N``: processes of the local pool (CPUs with Ray); default 1 everywhere, so a run is
  deterministic and light unless asked otherwise (results never depend on it).
* ``--executor local|serial|ray`` and ``--agents``: checked against the actual choices; a bad value is one
  ``error:`` line naming the valid ones (exit 2).
* old names (``--games``, ``--worlds``, ``--world-seed``) still work but are hidden:
  :func:`deprecated_aliases`; an old name given with its new name is one ``error:`` line.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Callable, Literal, Optional

import typer

try:  # typer >= 0.2x carries its own copy of click
    from typer._click.globals import get_current_context
except ImportError:  # pragma: no cover - older typer on click
    from click import get_current_context

from belief.errors import BeliefError
from belief.app.runs.executor import EXECUTORS
from belief.files.atomic import TEMP_SUFFIX, remove_stale_temps
from belief.files.outputs import OutputConflictError, check_outputs

#: the --executor values (a typer ``Literal`` is shown and checked as a choice)
Executor = Literal[EXECUTORS]
DEFAULT_WORKERS = 1

EXECUTOR = typer.Option("local", "--executor", help="a local process pool (default), this process only, or Ray "
                        "(pip install 'belief[ray]'); results are identical")
WORKERS = typer.Option(DEFAULT_WORKERS, "--workers", min=1, help="processes (local) or CPUs (ray)")
ADDRESS = typer.Option(None, "--address", help="ray only: a cluster to join ('auto' or 'ray://HOST:10001'); "
                       "default: a Ray instance on this machine")
PROGRESS = typer.Option(True, "--progress/--no-progress", help="progress bar with ETA on stderr (drawn only "
                        "when stderr is a terminal)")
FORCE = typer.Option(False, "--force", help="overwrite existing outputs (a run directory: remove the files its "
                     "manifest lists first)")
JSON = typer.Option(False, "--json", help="print one JSON object as the last line")
SEED = typer.Option(0, "--seed", min=0, help="first seed (episodes play seeds S..S+N-1)")
VS = typer.Option(None, "--vs", help="also play this kind on the same seeds; paired differences")
#: the files --out DIR receives from a command that aggregates episodes
AGGREGATE_FILES = ("episodes.jsonl", "summary.json")
#: the file --out DIR receives from an engine bench (figures, no episodes)
SUMMARY_FILES = ("summary.json",)


def episodes(default: int, help: str = "number of episodes (seeds S..S+N-1)"):
    return typer.Option(default, "--episodes", min=1, help=help)


def out(help: str = "write episodes.jsonl (one row per episode) and summary.json (the JSON line) into DIR",
        default=None):
    return typer.Option(default, "--out", metavar="DIR", file_okay=False, help=help)


#: --out of an engine bench: its figures only
OUT_SUMMARY_HELP = "write summary.json (the JSON line) into DIR"


def given(ctx, name: str) -> bool:
    """Was the parameter `name` given on the command line (not its default)?"""
    source = ctx.get_parameter_source(name) if ctx is not None else None
    return source is not None and source.name == "COMMANDLINE"


# --- --agents --------------------------------------------------------------------------------------------------
def _load(spec: str):
    """``"module:attribute"``, imported when first needed (command modules stay light to import)."""
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


def split_kinds(text: str) -> list[str]:
    """The comma-separated agent kinds of ``text``; an empty item (``belief,,belief``) is an error."""
    kinds = [k.strip() for k in text.split(",")]
    if not text.strip() or any(not k for k in kinds):
        raise typer.BadParameter(f"{text!r} has an empty agent kind; give kinds separated by single commas")
    return kinds


def agents(default: Optional[str], choices: str, help: str, *, counts=(1,), distinct: bool = False,
           known: Optional[str] = None, flag: str = "--agents"):
    """An agents option checked against ``choices`` (``"module:NAMES"``; ``known``, ``"module:predicate"``,
    also accepts composed names such as transport's ``cobel+coela``): ``counts`` the allowed numbers of
    comma-separated kinds (None: any), ``distinct`` no kind twice. The value stays the given text."""

    def check(value: Optional[str]):
        if value is None:
            return None
        names = tuple(_load(choices))
        ok = _load(known) if known else names.__contains__
        kinds = split_kinds(value)
        bad = [k for k in kinds if not ok(k)]
        if bad:
            raise typer.BadParameter(f"unknown agent kind {', '.join(map(repr, bad))}; choose from "
                                     f"{', '.join(names)}")
        if counts is not None and len(kinds) not in counts:
            raise typer.BadParameter(f"give {' or '.join(map(str, counts))} kind(s), got {len(kinds)}")
        if distinct and len(set(kinds)) != len(kinds):
            raise typer.BadParameter(f"{value!r} names a kind twice")
        return value

    return typer.Option(default, flag, callback=check, help=help)


# --- options added by decorators ----------------------------------------------------------------------------
def _with_params(fn: Callable, extra: dict, gather: Callable, drop=()):
    """``fn`` as a command with the options ``extra`` (``{name: (annotation, OptionInfo)}``) added and the
    parameters ``drop`` removed from its signature; ``gather(kwargs)`` turns the call's arguments back into
    ``fn``'s."""
    signature = inspect.signature(fn, eval_str=True)
    params = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in signature.parameters.values()
              if p.name not in drop]
    params += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=info, annotation=hint)
               for name, (hint, info) in extra.items()]

    @functools.wraps(fn)
    def command(**kwargs):
        return fn(**gather(kwargs))

    command.__signature__ = signature.replace(parameters=params)
    command.__annotations__ = {p.name: p.annotation for p in params}
    return command


def deprecated_aliases(**aliases: str):
    """Keep old option names working, hidden from --help: ``@deprecated_aliases(episodes="--games")`` adds a
    hidden ``--games`` whose value, when given, replaces ``episodes``'s. Decorate below ``@app.command``."""

    def decorate(fn: Callable):
        params = inspect.signature(fn, eval_str=True).parameters
        extra, targets = {}, {}
        for target, flag in aliases.items():
            name = "_old_" + flag.lstrip("-").replace("-", "_")
            info = params[target].default
            extra[name] = (Optional[params[target].annotation],
                           typer.Option(None, flag, hidden=True, min=getattr(info, "min", None),
                                        max=getattr(info, "max", None)))
            targets[name] = target

        def gather(kwargs):
            ctx = get_current_context(silent=True)
            for name, target in targets.items():
                value = kwargs.pop(name, None)
                if value is None:
                    continue
                if given(ctx, target):
                    new = params[target].default.param_decls[0]
                    fail(f"{aliases[target]} is the old name of {new}: give {new} only")
                kwargs[target] = value
            return kwargs

        command = _with_params(fn, extra, gather)
        command.old_names = {**getattr(fn, "old_names", {}), **{flag: target for target, flag in aliases.items()}}
        return command

    return decorate


def option_group(group: str, options: dict):
    """A decorator adding the options ``{name: (annotation, OptionInfo)}`` to a command that takes them as one
    dict argument ``group`` (one definition for a block of options several commands share)."""

    def decorate(fn: Callable):
        def gather(kwargs):
            kwargs[group] = {name: kwargs.pop(name) for name in options}
            return kwargs

        return _with_params(fn, options, gather, drop=(group,))

    return decorate


# --- outputs -------------------------------------------------------------------------------------------------
def fail(message: str, code: int = 2):
    print(f"error: {' '.join(str(message).split())}", file=sys.stderr)
    raise typer.Exit(code)


def refuse_bad_outputs(outputs: dict, inputs=(), force: bool = False, tables=("--results",)) -> None:
    """Exit with one ``error:`` line (2: an output names an input or another output; 1: it exists without
    --force, cannot be written there, or a results table has no known format) before the command does any
    work."""
    try:
        check_outputs(outputs, inputs, force, tables)
    except BeliefError as e:
        fail(str(e), 2 if isinstance(e, OutputConflictError) else 1)
    for flag, path in outputs.items():
        if path is not None:
            probe_writable(Path(path).parent, f"{flag} {path}")


def probe_writable(directory: Path, label: Optional[str] = None) -> None:
    """Exit 1 with one ``error:`` line unless files can be written into `directory`: it is made (with its
    missing parents) and a file written and removed in it, then the folders made here are removed again, so
    a command that fails later leaves nothing behind. Called before any work."""
    made, p = [], Path(directory)
    while not (p.exists() or p.is_symlink()) and p != p.parent:
        made.append(p)
        p = p.parent
    try:
        Path(directory).mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".probe.", suffix=TEMP_SUFFIX, dir=directory)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        fail(f"{label or f'--out {directory}'}: cannot write into {directory} ({e.strerror or e})", 1)
    finally:
        for d in made:  # the deepest first
            try:
                d.rmdir()
            except OSError:
                break


def out_paths(out_dir: Optional[Path], names, force: bool) -> dict:
    """``{name: out_dir/name}`` for the files a command will write into ``--out DIR`` ({} without --out);
    exits 1 before any work when one exists (without --force), DIR is not a directory or cannot be written.
    With --force, the temporary files a killed write left in DIR are removed."""
    if out_dir is None:
        return {}
    if out_dir.exists() and not out_dir.is_dir():
        fail(f"--out {out_dir} is not a directory", 1)
    paths = {n: out_dir / n for n in names}
    existing = [p for p in paths.values() if p.exists() or p.is_symlink()]
    if existing and not force:
        fail(f"{existing[0]} exists; pass --force to overwrite it", 1)
    probe_writable(out_dir)
    if force and out_dir.is_dir():
        remove_stale_temps(out_dir)
    return paths


def write_aggregate(paths: dict, rows, summary: dict) -> None:
    """``episodes.jsonl`` (when among `paths`) and ``summary.json`` into the --out directory (nothing without
    --out), atomically."""
    if not paths:
        return
    from belief.files.atomic import atomic_write_text
    from belief.files.outputs import write_jsonl

    try:
        next(iter(paths.values())).parent.mkdir(parents=True, exist_ok=True)
        if "episodes.jsonl" in paths:
            write_jsonl(paths["episodes.jsonl"], rows)
        atomic_write_text(paths["summary.json"], json.dumps(summary, indent=1) + "\n")
    except OSError as e:
        fail(f"cannot write into --out {paths['summary.json'].parent}: {e}", 1)


def figures_files(output: dict) -> dict:
    """The --out files of an engine bench (``output``: its :func:`output_options`), checked before any work."""
    return out_paths(output["out_dir"], SUMMARY_FILES, output["force"])


def emit_figures(figures: dict, output: dict, files: dict, title: str) -> None:
    """An engine bench's figures: ``summary.json`` into --out (when given), then one JSON line with --json,
    else a readable table (:func:`belief.app.results.tables.figures_table`)."""
    write_aggregate(files, (), figures)
    if output["as_json"]:
        print(json.dumps(figures), flush=True)
        return
    from rich.console import Console

    from belief.app.results.tables import figures_table

    Console(highlight=False, soft_wrap=True).print(figures_table(figures, title))


#: where episodes run, as one option group: ``@pool_options`` hands a command ``pool``, the keywords of
#: :func:`belief.app.cli.episode_report.play_all` (``executor``, ``workers``, ``address``, ``progress``)
POOL = {"executor": (Executor, EXECUTOR), "workers": (int, WORKERS), "address": (Optional[str], ADDRESS),
        "progress": (bool, PROGRESS)}
pool_options = option_group("pool", POOL)


def output_options(out_help: Optional[str] = None):
    """A decorator adding ``--json``, ``--out DIR`` and ``--force`` as one option group: the command takes them
    as ``output`` (``as_json``, ``out_dir``, ``force``); `out_help` says what --out DIR receives."""
    return option_group("output", {"as_json": (bool, JSON),
                                   "out_dir": (Optional[Path], out(out_help) if out_help else out()),
                                   "force": (bool, FORCE)})


#: what an engine bench reports: ``@figures_options`` hands a command ``output`` for :func:`figures_files` and
#: :func:`emit_figures`
figures_options = output_options(OUT_SUMMARY_HELP)
