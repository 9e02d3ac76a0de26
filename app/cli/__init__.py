"""The `belief` command line.

The command modules of this package register their commands on the shared apps of
:mod:`belief.app.cli.app` (``app``, ``bench_app``, ``run_app``) when imported, and they are imported only when
one of their commands runs: the tables of :mod:`belief.app.cli.app` say which module defines which command,
so ``belief --help`` imports none of them (nor the worlds, plots or LLM client behind them).
"""
import importlib
import pkgutil

from belief.app.cli.app import app, bench_app, run_app  # noqa: F401


def import_all_commands() -> None:
    """Import every module of this package, so the apps hold every command (tests that walk them all)."""
    for module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
        importlib.import_module(f"{__name__}.{module}")


def main():  # console-script entry point
    app()
