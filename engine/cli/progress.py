"""A progress bar with an ETA on stderr for long work (`simulate`, `compare`,
`lint --simulate`): shown only when stderr is a terminal and the output is not JSON."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Callable, Iterator


def wanted(quiet: bool = False, stream=None) -> bool:
    """Whether to draw a bar: not `quiet` (e.g. `--json`) and the stream is a terminal."""
    stream = stream or sys.stderr
    return not quiet and hasattr(stream, "isatty") and stream.isatty()


@contextmanager
def progress_bar(total: int, label: str, quiet: bool = False,
                 stream=None) -> Iterator[Callable[[int], None] | None]:
    """An `advance(n)` callable driving a rich bar, or None when no bar is wanted."""
    if not wanted(quiet, stream):
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(file=stream or sys.stderr)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("ETA"), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda n=1: bar.advance(task, n)
