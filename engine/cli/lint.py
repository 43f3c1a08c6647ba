"""`rulecraft lint PATH...`: report every problem of ruleset and overlay files."""

from __future__ import annotations

import sys
from typing import List, Optional

import typer
from typing import Annotated

from engine.analysis.phrases import counted
from engine.cli.app import app
from engine.cli.common import Format, WithOption, print_diagnostics
from engine.cli.progress import progress_bar
from engine.diagnostics import has_errors
from engine.rules.lint import lint_paths


@app.command("lint")
def lint(
    paths: Annotated[List[str], typer.Argument(help="Ruleset or overlay files, or folders to search for *.yaml.")],
    with_: WithOption = None,
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail the check too.")] = False,
    fmt: Annotated[Format, typer.Option("--format", help="Output: text, json, or github annotations.")] = Format.text,
    simulate: Annotated[int, typer.Option("--simulate", metavar="N", min=0,
                                          help="Then play N random games per ruleset (L6xx).")] = 0,
    exclude: Annotated[Optional[List[str]], typer.Option(
        "--exclude", metavar="PATTERN", help="Also skip, in folders, paths matching this glob"
        " (a folder name or a relative path); repeatable. Always skipped: .git, .venv, build,"
        " dist, tests, ...")] = None,
) -> None:
    """Check rulesets and overlays: YAML, schema, inheritance, expressions, semantics.

    Exit status: 0 clean, 1 problems found, 2 usage error.
    """
    _check_paths(paths)
    # A bug here (not the author's mistake) is reported by the global guard (engine.cli.app).
    skipped: list = []
    diagnostics = lint_paths(paths, tuple(with_ or ()), strict=strict,
                             exclude=tuple(exclude or ()), skipped=skipped)
    if simulate:  # dynamic checks, engine.analysis.dynlint (docs/diagnostics.md, L)
        diagnostics += _simulate(paths, with_, simulate, strict, exclude, fmt)
    print_diagnostics(diagnostics, fmt.value)
    if fmt is Format.text:
        _summary(diagnostics, skipped)
    raise typer.Exit(1 if has_errors(diagnostics, strict) else 0)


def _check_paths(paths) -> None:
    """Exit 2 when a path is missing or holds no YAML file ("clean" would hide a wrong
    folder)."""
    missing = [p for p in paths if not _exists(p)]
    if missing:
        typer.echo(f"error: no such file or folder: {', '.join(missing)}", err=True)
        raise typer.Exit(2)
    empty = [p for p in paths if not _has_yaml(p)]
    if empty:
        typer.echo(f"error: no .yaml or .yml file under: {', '.join(empty)}", err=True)
        raise typer.Exit(2)


def _summary(diagnostics, skipped) -> None:
    """The count of errors and warnings (stderr, after the diagnostics on stdout)."""
    errors = sum(d.is_error for d in diagnostics)
    warnings = len(diagnostics) - errors
    summary = "clean" if not diagnostics else f"{counted(errors, 'error')}, {counted(warnings, 'warning')}"
    if skipped:  # said, so that a file left out by mistake is noticed
        summary += f" ({counted(len(skipped), 'file')} skipped: excluded, or no top-level"
        summary += " `ruleset:`/`overlay:`)"
    sys.stdout.flush()  # the summary (stderr) after the diagnostics (stdout) in a terminal
    typer.echo(summary, err=True)


def _simulate(paths, with_, games: int, strict: bool, exclude, fmt) -> list:
    from engine.analysis.dynlint import simulate_paths
    from engine.rules.lint import iter_files

    total = sum(1 for _ in iter_files(paths, tuple(exclude or ())))
    with progress_bar(total, "simulating", quiet=fmt is not Format.text) as advance:
        return simulate_paths(paths, tuple(with_ or ()), games, strict,
                              exclude=tuple(exclude or ()), progress=advance)


def _has_yaml(path: str) -> bool:
    from pathlib import Path

    from engine.rules.files import SUFFIXES

    folder = Path(path)
    return not folder.is_dir() or any(p.suffix in SUFFIXES and p.is_file() for p in folder.rglob("*"))


def _exists(path: str) -> bool:
    from pathlib import Path

    try:
        return Path(path).exists()
    except (OSError, ValueError):  # a name too long for the system, or with a NUL
        return False
