"""The one progress bar every long command shows: rich, on stderr, with a count, the elapsed time and an ETA.

It is quiet (nothing is drawn) when stderr is not a terminal or the command got ``--no-progress``, so
piped and captured output stays clean. Usage::

    with progress_bar("bomb episodes", total=20, enabled=show) as bar:
        for ...:
            bar.advance()
        bar.stage("queries", total=100_000)   # a second phase gets its own line

``bar.on_task_done`` fits :func:`belief.app.runs.executor.run_tasks`'s ``progress`` callback.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)


def stderr_console() -> Console:
    return Console(stderr=True, highlight=False, soft_wrap=True)


class ProgressBar:
    """A handle on the current line of a rich Progress (or a no-op when the bar is disabled)."""

    def __init__(self, progress: Progress | None, description: str, total: int | None):
        self._progress = progress
        self._task = None
        self.stage(description, total)

    @property
    def enabled(self) -> bool:
        return self._progress is not None

    def stage(self, description: str, total: int | None) -> None:
        """Finish the current line and start a new one (a new phase of the command)."""
        if self._progress is None:
            return
        if self._task is not None:
            t = self._progress.tasks[self._task]
            self._progress.update(self._task, completed=t.total if t.total is not None else t.completed)
        self._task = self._progress.add_task(description, total=total)

    def advance(self, n: float = 1, description: str | None = None) -> None:
        """Count `n` more done; `description` replaces the line's label (e.g. the item just finished)."""
        if self._progress is None:
            return
        if description is not None:
            self._progress.update(self._task, description=description)
        self._progress.advance(self._task, n)

    def on_task_done(self, index: int, result: Any) -> None:  # belief.app.runs.executor.run_tasks's callback
        self.advance()


def _columns():
    return (TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
            TaskProgressColumn(), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn())


@contextmanager
def progress_bar(description: str, total: int | None, *, enabled: bool = True,
                 console: Console | None = None) -> Iterator[ProgressBar]:
    """A progress bar on stderr, drawn only when `enabled` and stderr is a terminal; removed when done."""
    console = console or stderr_console()
    if not (enabled and console.is_terminal):
        yield ProgressBar(None, description, total)
        return
    with Progress(*_columns(), console=console, transient=True) as progress:
        yield ProgressBar(progress, description, total)


__all__ = ["ProgressBar", "progress_bar", "stderr_console"]
