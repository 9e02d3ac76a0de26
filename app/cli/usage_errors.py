"""One-line usage errors for every command (the root command class of :data:`belief.app.cli.app.app`).

Exit codes of every command: 0 ok, 1 bad content (a file, trace, query or answer that is wrong), 2 bad
usage (an unknown option or command, a missing argument, a value out of range). Usage errors print as one
``error: ...`` line on stderr instead of click's boxed usage panel; a BeliefError that a command did not
catch prints as one ``error: ...`` line (exit 1) instead of a traceback, and so does a module that an extra
installs and is missing (``this command needs the 'envs' extra: pip install 'belief[envs]'``).

Every integer option of every command is bounded (:func:`bound_integer_options`): a count of episodes,
games or worlds by :data:`MAX_EPISODES`, any other integer (a seed...) by a signed 64-bit integer, so
``--episodes 2**70`` is a usage error, not a run that never starts.
"""
import sys

import typer
from typer.core import TyperGroup

try:  # typer >= 0.2x carries its own copy of click
    from typer._click import exceptions as click_exceptions
except ImportError:  # pragma: no cover - older typer on click
    from click import exceptions as click_exceptions

from belief.errors import BeliefError, missing_extra

#: longest message printed for a usage error (an option value of megabytes is not echoed)
MAX_MESSAGE = 500
#: the most episodes (games, worlds) one command plays
MAX_EPISODES = 1_000_000
#: options counting episodes (by parameter name)
EPISODE_COUNTS = frozenset({"episodes", "games", "worlds"})
#: the bound of every other integer option (seeds...): a signed 64-bit integer
INT64_MAX = 2**63 - 1


def _bounds_of(name: str) -> tuple[int, int, str]:
    name = name.removeprefix("_old_")  # a hidden old option name (run_options.deprecated_aliases): --games
    if name in EPISODE_COUNTS:
        return -INT64_MAX - 1, MAX_EPISODES, f"at most {MAX_EPISODES:,} {name} are played by one command"
    return -INT64_MAX - 1, INT64_MAX, "it must fit in a signed 64-bit integer"


def _bounded(param, process_value):
    lo, hi, why = _bounds_of(param.name or "")

    def process(ctx, value):
        value = process_value(ctx, value)
        for v in value if isinstance(value, (list, tuple)) else (value,):
            if isinstance(v, int) and not isinstance(v, bool) and not lo <= v <= hi:
                shown = str(v) if len(str(v)) <= 30 else f"a {len(str(abs(v)))}-digit number"
                raise click_exceptions.BadParameter(f"{shown} is out of range ({why})", ctx=ctx, param=param)
        return value

    return process


def bound_integer_options(command) -> None:
    """Bound every integer parameter of `command` and its subcommands (once): see the module docstring."""
    if getattr(command, "_integers_bounded", False):
        return
    command._integers_bounded = True
    for param in getattr(command, "params", ()):
        descriptor = getattr(param, "type_descriptor", None)
        annotation = getattr(descriptor, "annotation", None)
        if annotation is int or (getattr(annotation, "__args__", None) and int in annotation.__args__):
            param.process_value = _bounded(param, param.process_value)
    for sub in (getattr(command, "commands", None) or {}).values():
        bound_integer_options(sub)


def one_line(message: str, limit: int = MAX_MESSAGE) -> str:
    """A message on one line, at most ``limit`` characters."""
    text = " ".join(str(message).split())
    return text if len(text) <= limit else text[:limit] + "..."


class OneLineErrors(TyperGroup):
    """The root command: usage errors become ``error: ...`` (exit 2), a stray BeliefError ``error: ...``
    (exit 1), instead of a boxed panel or a traceback. Applies to every subcommand, and to typer's
    CliRunner as well as the console script."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        bound_integer_options(self)
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click_exceptions.NoArgsIsHelpError as e:  # `belief` or `belief bench` alone: the help
            text = e.ctx.get_help()  # typer's rich help prints itself and returns ""
            if text:
                print(text, file=sys.stderr)
            sys.exit(2)
        except click_exceptions.UsageError as e:
            hint = f" (see '{e.ctx.command_path} --help')" if e.ctx is not None else ""
            print(f"error: {one_line(e.format_message())}{hint}", file=sys.stderr)
            sys.exit(e.exit_code)
        except click_exceptions.ClickException as e:
            print(f"error: {one_line(e.format_message())}", file=sys.stderr)
            sys.exit(e.exit_code)
        except typer.Abort:
            print("error: aborted", file=sys.stderr)
            sys.exit(1)
        except BeliefError as e:
            print(f"error: {one_line(str(e), 4 * MAX_MESSAGE)}", file=sys.stderr)
            sys.exit(1)
        except ImportError as e:  # a module an extra installs (belief[envs], [plot], ...) that is not installed
            missing = missing_extra(e)
            if missing is None:
                raise
            print(f"error: {missing}", file=sys.stderr)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) and not isinstance(rv, bool) else 0)
