"""What several commands share: the `--with OVERLAY` option, loading a ruleset reference
with clean errors (diagnostics and an exit status, never a traceback), output formats."""

from __future__ import annotations

from enum import Enum
from typing import List, NoReturn, Optional, Sequence

import typer
from typing import Annotated

from engine.diagnostics import FORMATTERS, Diagnostic, Severity, file_reason, printable
from engine.rules import Ruleset, check_ruleset

WithOption = Annotated[
    Optional[List[str]],
    typer.Option(
        "--with",
        "-w",
        metavar="OVERLAY",
        help="Apply an overlay (a name within the game, or a path); repeatable, applied in order.",
    ),
]

# Diagnostics that mean the reference names nothing: a usage error, not a broken ruleset.
_NOT_FOUND = {"R400", "R401", "R408", "R425"}


def not_found_status(diagnostics: Sequence[Diagnostic], source: str | None = None) -> int:
    """2 (a usage error) when a ruleset or overlay reference names nothing, else 1.

    The reference is the command line's (no position) or that of the scenario or record
    `source` that names it (its position is in that file); an unknown `extends` inside a
    ruleset file is that file being broken (1).
    """
    for d in diagnostics:
        if d.code in _NOT_FOUND and (d.pos is None or (source and d.pos.path == str(source))):
            return 2
    return 1


class Format(str, Enum):
    text = "text"
    json = "json"
    github = "github"


def fail(message: str, status: int = 1) -> NoReturn:
    """`error: <message>` on stderr, and exit `status`: 1 when a ruleset, record or file
    is at fault, 2 when the command line is (`usage_error`)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(status)


def usage_error(message: str) -> NoReturn:
    """`error: <message>` on stderr and exit 2: the command line asked for the impossible."""
    fail(message, 2)


def agent_names(text: str) -> list[str]:
    """The agent specs of an `--agents` list; a usage error (exit 2) when it names none
    or a spec is wrong: an unknown name, or a known agent's parameter it does not take
    (its reason said too: `mcts: `plies=x` is not ...`)."""
    from engine.players.agents import AGENTS, check_agent

    names = [a.strip() for a in text.split(",") if a.strip()]
    if not names:
        usage_error(f"--agents names no agent; agents: {', '.join(AGENTS)}")
    bad = [(a, check_agent(a)) for a in names]  # (`mcts:800` has parameters)
    bad = [(a, why) for a, why in bad if why is not None]
    if bad:
        reasons = "".join(f"\n  {why}" for a, why in bad if a.split(":")[0] in AGENTS)
        usage_error(f"unknown {'agent' if len(bad) == 1 else 'agents'}"
                    f" {', '.join(a for a, _ in bad)}; agents: {', '.join(AGENTS)}{reasons}")
    return names


def print_diagnostics(diagnostics: Sequence[Diagnostic], fmt: str = "text", err: bool = False) -> None:
    """Write diagnostics in a format (`text`, `json`, `github`)."""
    if diagnostics or fmt == "json":
        typer.echo(FORMATTERS[fmt](list(diagnostics)), err=err)


def load_or_exit(ref: str, overlays: Optional[Sequence[str]] = None) -> Ruleset:
    """The resolved ruleset, or its diagnostics on stderr and exit 2 (not found) / 1 (broken).

    Warnings are printed to stderr and the ruleset is returned.
    """
    ruleset, diagnostics = check_ruleset(ref, tuple(overlays or ()))
    if ruleset is None:
        print_diagnostics(diagnostics, err=True)
        unknown = any(d.code in _NOT_FOUND and (d.pos is None) for d in diagnostics)
        raise typer.Exit(2 if unknown else 1)
    warnings = [d for d in diagnostics if d.level is Severity.WARNING]
    print_diagnostics(warnings, err=True)
    return ruleset


# One convention for every command (README, docs/analysis.md): game i is seeded
# `--seed + i` from 0, and work runs in one process unless `--jobs` asks for more.
DEFAULT_SEED = 0
DEFAULT_JOBS = 1
JOBS_HELP = "Worker processes (0: one per core). Results do not depend on it."

# Options several commands share word for word (`simulate`, `compare`).
PlayersOption = Annotated[Optional[int], typer.Option("--players", "-p", help="Players per game.")]
JobsOption = Annotated[int, typer.Option("--jobs", "-j", min=0, help=JOBS_HELP)]
HtmlOption = Annotated[Optional[str], typer.Option(
    "--html", metavar="FILE", help="Also write a self-contained HTML report with plots"
    " (needs the `plots` extra).")]
DbOption = Annotated[Optional[str], typer.Option(
    "--db", metavar="FILE", help="Append one row per game to this results file (DuckDB).")]


def jobs_or_cores(jobs: int | None) -> int:
    """`--jobs` as a number of processes: 0 (or none) means one per core."""
    import os

    return jobs if jobs else (os.cpu_count() or 1)


def record_folder(record: str | None, games: int):
    """The folder `--record` names (an existing folder, or a name ending in a separator,
    created), or None when it names one file."""
    import os
    from pathlib import Path

    if record is None:
        return None
    folder = Path(record)
    if not (folder.is_dir() or record.endswith(("/", os.sep))):
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        typer.echo(f"error: cannot make the folder {record}: {file_reason(exc, record)}", err=True)
        raise typer.Exit(1)
    return folder


def write_text_or_exit(path: str, text: str) -> None:
    """Write a report or a table; a path that cannot be written is a one-line error, exit 1."""
    from pathlib import Path

    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        typer.echo(f"error: cannot write {path}: {file_reason(exc, path)}", err=True)
        raise typer.Exit(1)


def require_plots() -> None:
    """Exit 2 with one line naming the extra when matplotlib (the `plots` extra) is missing."""
    from engine.analysis.report_html import plots_available

    if not plots_available():
        typer.echo("error: --html needs matplotlib: pip install 'rulecraft[plots]'", err=True)
        raise typer.Exit(2)


def ruleset_heading(ruleset: Ruleset) -> str:
    """`Title (overlays: a, b)`: the ruleset's title, overlays' headers applied, and which are on."""
    on = ", ".join(ruleset.overlays) if ruleset.overlays else "none"
    return printable(f"{ruleset.title} (overlays: {on})", newlines=False)  # authors' words
