"""One-line usage errors for every command (the root command class of :data:`belief.app.cli.app.app`).

Exit codes of every command: 0 ok, 1 bad content (a file, trace, query or answer that is wrong), 2 bad
usage (an unknown option or command, a missing argument, a value out of range). Usage errors print as one
``error: ...`` line on stderr instead of click's boxed usage panel; a BeliefError that a command did not
catch prints as one ``error: ...`` line (exit 1) instead of a traceback, and so does a module that an extra
installs and is missing (``this command needs the 'envs' extra: pip install 'belief[envs]'``).
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


def one_line(message: str, limit: int = MAX_MESSAGE) -> str:
    """A message on one line, at most ``limit`` characters."""
    text = " ".join(str(message).split())
    return text if len(text) <= limit else text[:limit] + "..."


class OneLineErrors(TyperGroup):
    """The root command: usage errors become ``error: ...`` (exit 2), a stray BeliefError ``error: ...``
    (exit 1), instead of a boxed panel or a traceback. Applies to every subcommand, and to typer's
    CliRunner as well as the console script."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
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
