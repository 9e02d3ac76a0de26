"""The shared progress bar: drawn with a count and an ETA on a terminal, silent otherwise or when disabled."""

import io

from rich.console import Console
from typer.testing import CliRunner

from belief.app.cli import app
from belief.app.runs.progress import progress_bar


def _console(terminal: bool) -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, force_terminal=terminal, width=100), buf


def test_drawn_on_a_terminal_with_count_and_eta():
    console, buf = _console(True)
    with progress_bar("episodes", total=4, console=console) as bar:
        assert bar.enabled
        for i in range(4):
            bar.advance(description=f"episode {i}")
        bar.stage("queries", total=2)
        bar.on_task_done(0, None)
    text = buf.getvalue()
    assert "episode" in text and "ETA" in text and "/4" in text and "queries" in text


def test_silent_off_a_terminal_or_when_disabled():
    for terminal, enabled in ((False, True), (True, False)):
        console, buf = _console(terminal)
        with progress_bar("episodes", total=3, enabled=enabled, console=console) as bar:
            assert not bar.enabled
            bar.advance()
            bar.stage("more", total=1)
        assert buf.getvalue() == ""


def test_commands_print_nothing_on_stderr_when_it_is_not_a_terminal(tmp_path):
    r = CliRunner().invoke(app, ["run", "bomb", "--episodes", "1", "--max-rounds", "4", "--executor", "serial",
                                 "--out", str(tmp_path)])  # a short episode: only what reaches stderr matters
    assert r.exit_code == 0 and r.stderr == ""
    r = CliRunner().invoke(app, ["bench", "parse", "--facts", "200", "--repeat", "1", "--json"])
    assert r.exit_code == 0 and r.stderr == "" and '"facts": 200' in r.stdout
