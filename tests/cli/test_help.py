"""Help on every command: -h works like --help, every option is described, no type placeholders in angle brackets."""
import re
import subprocess
import sys
from importlib.metadata import version

import pytest
import typer.main
from typer.testing import CliRunner

from belief.app.cli import app, import_all_commands

runner = CliRunner()


def _command_paths(command, prefix=()):
    yield prefix
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from _command_paths(sub, prefix + (name,))


def _commands():
    import_all_commands()  # every command itself, not the placeholder a group lists before its module runs
    root = typer.main.get_command(app)
    out = []
    for path in _command_paths(root):
        cmd = root
        for name in path:
            cmd = cmd.commands[name]
        out.append((path, cmd))
    return out


COMMANDS = _commands()


def test_every_command_is_listed():
    names = {" ".join(p) for p, _ in COMMANDS}
    assert {"", "run", "run bomb", "bench", "bench transport", "parse", "explain"} <= names
    assert len(names) >= 15


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=lambda p: " ".join(p) or "belief")
def test_short_and_long_help_agree_and_are_clean(path):
    long_ = runner.invoke(app, [*path, "--help"], prog_name="belief", terminal_width=100)
    short = runner.invoke(app, [*path, "-h"], prog_name="belief", terminal_width=100)
    assert long_.exit_code == 0 and short.exit_code == 0, (long_.output, short.output)
    assert short.output == long_.output
    text = long_.output
    assert f"Usage: belief {' '.join(path)}".rstrip() in " ".join(text.split())
    # typer 0.2x printed "--help <bool>", "<str>", "<int range>" and "{trace}" (see app/cli/app.py)
    assert not re.search(r"<(bool|str|int|float|path|file|directory)[^>]*>", text), text
    assert not re.search(r"\{[a-z_]+\}", text), text
    assert "--help" in text and "-h" in text


@pytest.mark.parametrize("path,command", [(p, c) for p, c in COMMANDS if not hasattr(c, "commands")],
                         ids=lambda x: " ".join(x) if isinstance(x, tuple) else "")
def test_every_option_and_argument_is_described(path, command):
    ctx = command.make_context(" ".join(("belief",) + path), [], resilient_parsing=True)
    for param in command.get_params(ctx):
        if param.hidden:
            continue
        assert (param.help or "").strip(), f"belief {' '.join(path)}: {param.opts} has no help text"
    assert (command.help or "").strip(), f"belief {' '.join(path)} has no description"


def test_flags_show_no_placeholder_and_values_show_click_style():
    text = runner.invoke(app, ["run", "bomb", "--help"], terminal_width=200).output
    flag_row = next(line for line in text.splitlines() if "--json" in line)
    assert re.search(r"--json\s+print", flag_row, re.I), flag_row  # nothing between the flag and its help
    episodes_row = next(line for line in text.splitlines() if "--episodes" in line)
    assert "INTEGER" in episodes_row and "[x>=1]" in episodes_row
    usage = runner.invoke(app, ["explain", "--help"], terminal_width=200).output
    assert "TRACE QUERY" in usage


def test_version_option_prints_the_installed_version():
    r = runner.invoke(app, ["--version"])
    assert r.exit_code == 0
    assert r.output.strip() == f"belief {version('belief')}" == "belief 0.1.0"


def test_console_script_version_and_short_help():
    r = subprocess.run([sys.executable, "-m", "belief", "--version"], capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stdout.strip()) == (0, "belief 0.1.0"), r.stderr
    r = subprocess.run([sys.executable, "-m", "belief", "run", "bomb", "-h"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0 and "--episodes" in r.stdout and "<bool>" not in r.stdout, r.stderr
