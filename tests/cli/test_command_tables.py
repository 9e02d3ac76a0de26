"""The tables that let `belief --help` list commands without importing them agree with the commands."""

import subprocess
import sys

import pytest
import typer.main

from belief.app.cli import import_all_commands
from belief.app.cli.app import BENCH_COMMANDS, COMMANDS, RUN_COMMANDS, app, bench_app, run_app


def _defined(typer_app) -> dict:
    out = {}
    for info in typer_app.registered_commands:
        name = info.name or typer.main.get_command_name(info.callback.__name__)
        doc = (info.help or info.callback.__doc__ or "").strip().split("\n\n")[0]
        out[name] = (info.callback.__module__.rpartition(".")[2], " ".join(doc.split()))
    return out


@pytest.mark.parametrize("table, typer_app", [(COMMANDS, app), (BENCH_COMMANDS, bench_app), (RUN_COMMANDS, run_app)],
                         ids=["belief", "bench", "run"])
def test_each_table_names_every_command_its_module_and_its_help(table, typer_app):
    import_all_commands()
    defined = _defined(typer_app)
    assert set(table) == set(defined)
    for name, (module, text) in table.items():
        assert defined[name] == (module, text), name


def test_help_imports_no_command_module():
    code = ("import sys; from belief.app.cli import app; from typer.testing import CliRunner; "
            "r = CliRunner().invoke(app, ['--help']); assert r.exit_code == 0, r.output; "
            "print(sorted(m for m in sys.modules if m.startswith('belief.app.cli.') and m.rpartition('.')[2] "
            "not in ('app', 'usage_errors')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
