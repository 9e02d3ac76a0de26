"""The `belief` command line.

Every module of this package that defines commands registers them on the shared apps of
:mod:`belief.app.cli.app` (``app``, ``bench_app``, ``run_app``) when imported; all modules are
imported here, so a new command module needs no line in this file.
"""
import importlib
import pkgutil

from belief.app.cli.app import app, bench_app, run_app  # noqa: F401

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    importlib.import_module(f"{__name__}.{_module}")


def main():  # console-script entry point
    app()
