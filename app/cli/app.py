"""The shared typer application; command modules register on it (see app/cli/__init__.py).

Help formatting is fixed here, once for every command. typer 0.2x vendors click (``typer._click``) and labels
every parameter with its Python type in angle brackets: its rich help panel asks each option for
``display_type_rich()`` without checking ``is_flag``, so flags and ``--help`` itself read ``--help <bool>``,
and values read ``<str>``/``<int range>``; the usage line shows required arguments as ``{trace}``. (Its plain
formatter does skip flags; the rich panel, used whenever rich is installed, does not.) We restore click's
conventions: nothing after a flag, an upper-case placeholder (``TEXT``, ``INTEGER``, ``PATH``) or the choices
after an option taking a value, and ``TRACE QUERY`` / ``[OPTIONAL]`` in the usage line.
"""
from importlib.metadata import PackageNotFoundError, version

import typer
import typer.core

from belief.app.cli.usage_errors import OneLineErrors

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
    try:
        return version("belief")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "unknown"


def _print_version(value: bool):
    if value:
        print(f"belief {package_version()}")
        raise typer.Exit()


HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}  # inherited by every sub-command's context

# markdown: a docstring's wrapped lines flow into one paragraph (blank lines separate paragraphs)
app = typer.Typer(cls=OneLineErrors, add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  context_settings=HELP_OPTIONS, rich_markup_mode="markdown",
                  help="belief: a symbolic belief engine for multi-agent Theory of Mind.")


@app.callback()
def _root(version_: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                        help="Print the installed version and exit.")):
    """belief: a symbolic belief engine for multi-agent Theory of Mind."""


bench_app = typer.Typer(no_args_is_help=True, rich_markup_mode="markdown", help="Benchmarks: each prints one JSON line of figures.")
app.add_typer(bench_app, name="bench")
run_app = typer.Typer(no_args_is_help=True, rich_markup_mode="markdown", help="Run an environment's episodes with a team of agents.")
app.add_typer(run_app, name="run")
