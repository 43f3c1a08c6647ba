"""What several commands share: the `--with OVERLAY` option, loading a ruleset reference
with clean errors (diagnostics and an exit status, never a traceback), output formats."""

from __future__ import annotations

from enum import Enum
from typing import List, Optional, Sequence

import typer
from typing import Annotated

from engine.diagnostics import FORMATTERS, Diagnostic, Severity
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
