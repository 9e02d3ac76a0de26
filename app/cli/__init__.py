"""The `belief` command line. Each module below registers its commands on the shared app."""
from belief.app.cli.app import app, bench_app  # noqa: F401
from belief.app.cli import core  # noqa: F401  (parse, query, demo, bench parse)
from belief.app.cli import tom  # noqa: F401
from belief.app.cli import bomb  # noqa: F401
from belief.app.cli import llm  # noqa: F401
from belief.app.cli import transport  # noqa: F401


def main():  # console-script entry point
    app()
