"""The shared typer application; command modules register on it, and are imported when one of their commands
runs (:class:`LazyGroup`; the tables :data:`COMMANDS`, :data:`BENCH_COMMANDS`, :data:`RUN_COMMANDS`).

Help formatting is fixed here, once for every command. typer 0.2x vendors click (``typer._click``) and labels
every parameter with its Python type in angle brackets: its rich help panel asks each option for
``display_type_rich()`` without checking ``is_flag``, so flags and ``--help`` itself read ``--help <bool>``,
and values read ``<str>``/``<int range>``; the usage line shows required arguments as ``{trace}``. (Its plain
formatter does skip flags; the rich panel, used whenever rich is installed, does not.) We restore click's
conventions: nothing after a flag, an upper-case placeholder (``TEXT``, ``INTEGER``, ``PATH``) or the choices
after an option taking a value, and ``TRACE QUERY`` / ``[OPTIONAL]`` in the usage line.
"""
import importlib
import sys
import types

import typer
import typer.core
import typer.main

from belief.app.cli.usage_errors import OneLineErrors, bound_integer_options

_PLACEHOLDERS = {"str": "TEXT", "int": "INTEGER", "float": "FLOAT", "bool": "BOOLEAN", "path": "PATH",
                 "file": "FILE", "directory": "DIRECTORY", "datetime": "DATETIME"}


def _placeholder(param, ctx) -> str:
    """click-style placeholder for a parameter's value: TEXT, INTEGER, PATH, or the choices a|b."""
    label = param.display_type(ctx).strip("<>")
    if label.endswith(" range"):  # the range itself is printed beside it, e.g. [x>=1]
        label = label[: -len(" range")]
    if label.startswith("list[") and label.endswith("]"):
        label = label[len("list["):-1]
    return _PLACEHOLDERS.get(label, label if "|" in label else label.upper())


def _option_type(self, ctx):
    if self.is_flag or self.count:
        return None  # a flag takes no value: nothing to show
    if self.metavar is not None:
        return self.metavar
    label = _placeholder(self, ctx)
    return label + "..." if self.nargs != 1 else label


def _argument_type(self, ctx):
    return self.metavar if self.metavar is not None else _placeholder(self, ctx)


def _argument_usage(self) -> str:
    name = self.display_name_raw.upper() if self.metavar is None else self.metavar
    name = name if self.required else f"[{name}]"
    return name + "..." if self.nargs != 1 else name


def _argument_name(self) -> str:
    name = self.display_name_raw.upper() if self.metavar is None else self.metavar
    return name + "..." if self.metavar is None and self.nargs != 1 else name


if hasattr(typer.core.TyperOption, "display_type_rich"):  # typer >= 0.2x; older ones already print click's help
    typer.core.TyperOption.display_type_rich = _option_type
    typer.core.TyperArgument.display_type_rich = _argument_type
    typer.core.TyperArgument._usage_display_name = _argument_usage
    typer.core.TyperArgument._rich_display_name = _argument_name


def package_version() -> str:
    # imported here: importlib.metadata (and the email package under it) costs `belief --help` a tenth of its
    # start-up, and only --version reads it
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("belief")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "unknown"


def _print_version(value: bool):
    if value:
        print(f"belief {package_version()}")
        raise typer.Exit()


#: the commands of ``belief``, ``belief bench`` and ``belief run``: name -> (the module of belief.app.cli that
#: defines it, the first paragraph of its help, shown in the group's --help). A new command needs its line
#: here; tests/cli/test_extras.py checks the tables against the commands the modules define.
COMMANDS: dict[str, tuple[str, str]] = {
    "parse": ("core", "Validate and pretty-print a belief document; exit 1 with line:column and a caret on errors."),
    "query": ("core", "Answer a query against a scenario's initial facts: believes / believes-not / unsure, with "
              "bindings."),
    "demo": ("core", "Parse a small scenario, show every agent's beliefs per perspective chain, answer its ToM "
             "queries."),
    "grade": ("grade", "Grade free-text answers against the checker's exact answers on TRACE (and the stated gold "
              "of given questions)."),
    "translate": ("llm", "Print the belief facts one observation gives AGENT (and every problem found), then the "
                  "messages in it."),
    "coordqa": ("maze", "Episodes as CoordinationQA files: the trace, its EC / ToM / JP questions (ToM gold from "
                "the checker, EC/JP gold stated) and the players' answers, each episode graded by one `belief grade` "
                "call."),
    "plot": ("plot", "Draw a standard figure: ToM accuracy per order and template, transport rate vs tokens, or "
             "rounds/steps."),
    "tomi": ("tom", "Answer every ToMi question from the story's trace; accuracy per question type against the "
             "labels."),
    "hitom": ("tom", "Answer every Hi-ToM question from the story's trace; accuracy per order and per Tell/No_Tell."),
    "explain": ("tom", "Answer a query from a trace's exact ground truth and show the events (who was present where) "
                "behind it."),
    "eval": ("evaluation", "Put a dataset's questions to a model (or a built-in answerer) and grade the answers "
             "against the checker, beside the shortcut answerers and the checker."),
    "stories": ("evaluation", "Generate ToM stories from actions (trace, plain English, questions where ToM is needed) "
                "into DIR."),
}
BENCH_COMMANDS: dict[str, tuple[str, str]] = {
    "parse": ("core", "Parse N generated facts of depth 1-4 in both forms: facts per second (a table, or one JSON "
              "line with --json)."),
    "hanabi": ("hanabi", "Hanabi for 2-5 players: score, lives lost, turns per agent kind, paired differences, ToM "
               "table."),
    "household": ("household", "Steps to finish C-WAH tasks, message tokens, prediction and belief accuracy, per "
                  "agent kind."),
    "checker": ("tom", "Random trace of enters, exits, moves and messages; time to build the truth and to answer "
                "chain queries."),
    "elimination": ("bench_elimination", "CPU seconds per random-agent bomb episode and CPU ms per knows_chain / "
                    "possible query (a table, or one JSON line with --json)."),
    "online": ("tom", "Append N events to a Tracker with one chain query after each; CPU time per event and query "
               "against one batch check."),
    "exploretom": ("tom", "Side by side with ExploreToM's belief tracker on the same stories: CPU time per action "
                   "and per question of each, the ratios, and how often they agree (disagreements by cause)."),
    "transport": ("transport", "CoBel vs baselines on transport_v0: a table of mean figures, or one JSON line with "
                  "--json."),
    "llm-cache": ("llm", "Time the LLM response cache (a SQLite file): writes and reads per second (a table, or one "
                  "JSON line with --json)."),
    "capture": ("maze", "CollabCapture, belief vs greedy on the same seeds: capture rate, rounds, ToM beside trivial "
                "answerers (a table, or one JSON line with --json)."),
    "escape": ("maze", "CollabEscape, belief vs greedy and vs lookahead (its ablation: no beliefs about the partner) "
               "on the same seeds: escape rate, rounds, ToM beside trivial answerers (a table, or one JSON line with "
               "--json)."),
    "coordqa": ("maze", "Multiple-choice CoordinationQA (EC / ToM / JP): the belief agent beside random, majority and "
                "single-agent answerers; a table, or one JSON line with --json."),
    "blocks": ("bench_blocks", "COBLOCK: belief vs the talking naive and the silent baselines on paired seeds; ToM "
               "with trivial answerers."),
    "overcooked": ("overcooked", "Soups served per layout and chef pairing on overcooked-ai (paired CIs), CPU per "
                   "episode and step, ToM and multiple-choice scores beside trivial answerers."),
    "cli": ("bench_cli", "CPU seconds of `belief --help` against `python -c \"import pydantic, lark\"` (a table, or "
            "one JSON line with --json)."),
    "guandan": ("guandan", "ToM planner vs rule, random, its ablation (planner) and rule_keep: win rates with CIs, "
                "level gains, ToM accuracy."),
    "guandan-moves": ("guandan", "Time the legal-move enumeration of full 27-card Guandan hands (goal <= 5 ms); a "
                      "table, or one JSON line with --json."),
    "bomb": ("bomb", "bomb_v0 agent teams (belief, no_minds, planner, random, mixed) on the same seeds: score, rounds, "
             "valid actions, message words, ToM accuracy per level beside trivial answerers, paired differences."),
}
RUN_COMMANDS: dict[str, tuple[str, str]] = {
    "bomb": ("bomb", "Play bomb_v0 episodes; print Table 1 (score, rounds, valid actions) and ToM accuracy "
             "(Table 2)."),
    "household": ("household", "Play household_v0 episodes (seeds S..S+N-1) and print each one's figures."),
    "capture": ("maze", "CollabCapture: capture rate, rounds, messages, ToM accuracy (95% CIs)."),
    "escape": ("maze", "CollabEscape: escape rate, players escaped, caught, rounds, messages, ToM accuracy "
               "(95% CIs)."),
    "transport": ("transport", "Play transport_v0 episodes and print each one's figures."),
    "blocks": ("worlds", "COBLOCK episodes: success rate, timesteps, workload balance (raw and normalised), ToM "
               "accuracy."),
    "overcooked": ("overcooked", "Play overcooked_v0 episodes of one chef pairing on one layout and print each "
                   "one's figures."),
    "hanabi": ("worlds", "2-player Hanabi games: mean score (out of 25), fireworks, lives lost, turns, ToM "
               "accuracy."),
    "guandan": ("guandan", "Play Guandan games of one matchup (team A against team B) and print each one's figures, "
                "then the win rate."),
}


class LazyCommand(typer.core.TyperCommand):
    """A command whose module is not imported yet: its name and one-line help, for the group's --help."""


def _typer_rich_utils() -> None:
    """Import ``typer.rich_utils`` (typer's help panels) without the two modules it imports at its top for
    other uses: ``rich.markdown`` (markdown-it and pygments: Markdown help text) and ``rich.traceback``
    (``rich.pretty`` and attrs: pretty tracebacks, which this app turns off). A group's --help uses neither
    (:meth:`LazyGroup.format_help`), and they cost ``belief --help`` a third of its start-up. Each is replaced,
    while typer imports it, by a module whose one class imports the real one on first use (a command's own
    --help renders Markdown: the real ``rich.markdown`` then). Nothing changes if either is already imported
    or typer's imports differ from these (an ImportError: the plain import)."""
    if "typer.rich_utils" in sys.modules:
        return
    stand_ins = {module: _deferring_module(module, name)
                 for module, name in (("rich.markdown", "Markdown"), ("rich.traceback", "Traceback"))
                 if module not in sys.modules}
    sys.modules.update(stand_ins)
    try:
        importlib.import_module("typer.rich_utils")
    except ImportError:
        sys.modules.pop("typer.rich_utils", None)
    finally:
        for module, stand_in in stand_ins.items():
            if sys.modules.get(module) is stand_in:
                del sys.modules[module]
    importlib.import_module("typer.rich_utils")  # (after an ImportError above: the plain import, the real modules)


class _Deferring(type):
    """The metaclass of a stand-in class: an attribute it lacks (a class method) is the real class's."""

    def __getattr__(cls, name: str):
        return getattr(cls.real(), name)


def _deferring_module(module: str, name: str) -> types.ModuleType:
    """A module ``module`` holding a class ``name`` that imports ``module`` when called (or asked for a class
    attribute) and returns the real class's instance (or attribute)."""

    def real(cls) -> type:
        return getattr(importlib.import_module(module), name)

    def new(cls, *args, **kwargs):
        return cls.real()(*args, **kwargs)

    stand_in = types.ModuleType(module, f"imports {module} on first use (see _typer_rich_utils)")
    setattr(stand_in, name, _Deferring(name, (), {"real": classmethod(real), "__new__": new, "__module__": module}))
    return stand_in


def _rich_markup(text: str) -> str:
    """A one-line help as rich markup showing what Markdown shows: the words, and each `code` span in the
    style Markdown gives it (markdown.code)."""
    from rich.markup import escape

    parts = text.split("`")
    if len(parts) % 2 == 0:  # an odd number of backticks: no code span
        return escape(text)
    return "".join(escape(p) if i % 2 == 0 else f"[markdown.code]{escape(p)}[/]" for i, p in enumerate(parts))


def _one_line(help_text: str | None) -> str:
    return " ".join((help_text or "").split("\n\n")[0].split())


class LazyGroup(typer.core.TyperGroup):
    """A group that lists its commands from a table and imports a command's module when that command is
    resolved (to run, or to print its own --help): ``belief --help`` imports no command module, and so none
    of the worlds, plots, planners, Ray or the LLM client behind them. A module the command needs that an
    extra installs and is missing ends as one ``error:`` line (:class:`OneLineErrors`)."""

    #: the table of the group's commands, and the name (in this module) of the typer app its modules register
    #: their commands on
    TABLE: dict[str, tuple[str, str]] = {}
    SOURCE = ""

    def table(self) -> dict[str, tuple[str, str]]:
        return self.TABLE

    def source(self) -> typer.Typer:
        return globals()[self.SOURCE]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        listed = {name: self.commands.get(name) or LazyCommand(name=name, help=text, callback=None)
                  for name, (_, text) in self.table().items()}
        self.commands = {**listed, **{n: c for n, c in self.commands.items() if n not in listed}}

    def format_help(self, ctx, formatter):
        """The group's --help: its own help and its commands' one-line helps (the table's) as rich markup
        (:func:`_rich_markup`), so that printing it needs no Markdown (:func:`_typer_rich_utils`)."""
        _typer_rich_utils()
        shown = {name: LazyCommand(name=name, help=_rich_markup(text), callback=None)
                 for name, (_, text) in self.table().items()}
        shown.update({name: LazyCommand(name=name, help=_rich_markup(_one_line(c.help)), hidden=c.hidden,
                                        callback=None) for name, c in self.commands.items() if name not in shown})
        saved = self.commands, self.help, self.rich_markup_mode
        self.commands, self.help, self.rich_markup_mode = shown, _rich_markup(_one_line(self.help)), "rich"
        try:
            super().format_help(ctx, formatter)
        finally:
            self.commands, self.help, self.rich_markup_mode = saved

    def resolve_command(self, ctx, args):
        if args and isinstance(self.commands.get(args[0]), LazyCommand):
            # bounded here: the root bounds the commands it holds when it starts, before this one was loaded
            self.commands[args[0]] = command = self.load(args[0])
            bound_integer_options(command)
        return super().resolve_command(ctx, args)

    def load(self, name: str):
        """The command `name`, its module imported."""
        module = self.table()[name][0]
        importlib.import_module(f"belief.app.cli.{module}")
        source = self.source()
        for info in source.registered_commands:
            if (info.name or typer.main.get_command_name(info.callback.__name__)) == name:
                return typer.main.get_command_from_info(info, pretty_exceptions_short=source.pretty_exceptions_short,
                                                        rich_markup_mode=source.rich_markup_mode)
        raise LookupError(f"belief.app.cli.{module} defines no command {name!r} (see the tables in {__name__})")


class RootCommands(LazyGroup, OneLineErrors):
    TABLE, SOURCE = COMMANDS, "app"


class BenchCommands(LazyGroup):
    TABLE, SOURCE = BENCH_COMMANDS, "bench_app"


class RunCommands(LazyGroup):
    TABLE, SOURCE = RUN_COMMANDS, "run_app"


HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}  # inherited by every sub-command's context

# markdown: a docstring's wrapped lines flow into one paragraph (blank lines separate paragraphs)
app = typer.Typer(cls=RootCommands, add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  context_settings=HELP_OPTIONS, rich_markup_mode="markdown",
                  help="belief: a symbolic belief engine for multi-agent Theory of Mind.")


@app.callback()
def _root(version_: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                        help="Print the installed version and exit.")):
    """belief: a symbolic belief engine for multi-agent Theory of Mind."""


bench_app = typer.Typer(cls=BenchCommands, no_args_is_help=True, rich_markup_mode="markdown", help="Benchmarks: each prints a table of figures, or one JSON line with --json.")
app.add_typer(bench_app, name="bench")
run_app = typer.Typer(cls=RunCommands, no_args_is_help=True, rich_markup_mode="markdown", help="Run an environment's episodes with a team of agents.")
app.add_typer(run_app, name="run")
