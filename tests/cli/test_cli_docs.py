"""docs/cli.md lists every command: the list comes from the typer app, so the table cannot drift."""

from pathlib import Path

import typer

from belief.app.cli import app

DOC = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def _commands(command, path):
    subs = getattr(command, "commands", None)
    if not subs:
        yield " ".join(path)
        return
    for name, sub in sorted(subs.items()):
        if not sub.hidden:
            yield from _commands(sub, path + [name])


def test_every_command_is_in_docs_cli_md():
    commands = list(_commands(typer.main.get_command(app), ["belief"]))
    assert len(commands) > 15
    rows = [line for line in DOC.read_text(encoding="utf-8").splitlines() if line.startswith("| `belief")]
    documented = {" ".join(w for w in row.split("`")[1].split() if not w.isupper())
                  for row in rows}
    missing = [c for c in commands if c not in documented]
    assert not missing, f"add to docs/cli.md: {missing}"
    stale = sorted(documented - set(commands))
    assert not stale, f"no such command (remove from docs/cli.md): {stale}"
