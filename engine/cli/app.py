"""The typer application that every command module registers on; what every command
shares (`--rulesets DIR`, `--version`, `--debug`, examples under each `--help`); and the one
place that turns an unexpected exception into a one-line message and exit status 2."""

from __future__ import annotations

import errno
import os
import sys
import traceback
from pathlib import Path
from typing import Annotated, List, Optional

import click
import typer
from typer.core import TyperGroup

DEBUG_ENV = "RULECRAFT_DEBUG"
RULESETS_HELP = ("A folder of your own rulesets, laid out as <game>/<name>.yaml; repeatable,"
                 " searched before RULECRAFT_PATH and the shipped ones.")

# Exceptions that are the CLI's own way of stopping (an exit status, a usage error, ^C).
# (typer vendors click: its usage errors derive from typer.TyperException, not click's)
_OWN_EXITS = (click.exceptions.Exit, click.ClickException, click.Abort, typer.Exit,
              typer.Abort, getattr(typer, "TyperException", typer.Exit), SystemExit,
              KeyboardInterrupt)


def debug_requested() -> bool:
    """Whether `--debug` or RULECRAFT_DEBUG=1 asks for the traceback of an internal error."""
    return os.environ.get(DEBUG_ENV, "") not in ("", "0") or _State.debug


class _State:
    debug = False


def internal_error_line(command: str, exc: BaseException) -> str:
    """The one line printed for a bug: the command and the exception's type, never its words."""
    return (f"internal error in rulecraft {command}: {type(exc).__name__}: please report"
            f" (run with --debug or {DEBUG_ENV}=1 for the traceback)")


# A full disk (or quota, or file size limit) under the output: it went nowhere, not a bug.
_FULL = {errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}


def output_failure(exc: BaseException) -> str | None:
    """The one line for an output that cannot be written ("" for a closed pipe, which
    `| head` makes on purpose), or None when `exc` is something else."""
    if isinstance(exc, BrokenPipeError):
        return ""
    if isinstance(exc, OSError) and exc.errno in _FULL:
        return f"error: cannot write the output: {exc.strerror}"
    return None


def silence_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # CliRunner's stdout has no descriptor
        pass


class GuardedGroup(TyperGroup):
    """Every command runs inside this guard (the `rulecraft` script, `python -m engine`
    and CliRunner alike)."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except _OWN_EXITS:
            raise
        except Exception as exc:
            command = ctx.invoked_subcommand or "rulecraft"
            failure = output_failure(exc)
            if failure is not None:
                silence_stdout()
                if failure:
                    click.echo(failure, err=True)
                raise typer.Exit(1) from None
            if debug_requested():
                click.echo("".join(traceback.format_exception(exc)), err=True, nl=False)
            click.echo(internal_error_line(command, exc), err=True)
            raise typer.Exit(2) from None


app = typer.Typer(
    name="rulecraft",
    cls=GuardedGroup,
    help="Rulecraft: play, simulate, lint and compare tabletop games written as YAML rulesets.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

RULESETS_HELP = ("A folder of your own rulesets, laid out as <game>/<name>.yaml; repeatable,"
                 " searched before RULECRAFT_PATH and the shipped ones.")
RulesetsOption = Annotated[
    Optional[List[Path]],
    typer.Option("--rulesets", metavar="DIR", help=RULESETS_HELP, exists=True, file_okay=False),
]


def _version(value: bool) -> None:
    if value:
        from engine import __version__

        typer.echo(f"rulecraft {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_version,
                                          help="Print the version and exit.")] = False,
    rulesets: RulesetsOption = None,
    debug: bool = typer.Option(
        False, "--debug", help=f"Show the traceback of an internal error (or {DEBUG_ENV}=1)."
    ),
) -> None:
    """Rulecraft: every game and house variant is a YAML ruleset."""
    from engine.rules import files

    _State.debug = debug
    files.set_user_roots(rulesets or [])  # each run starts afresh (tests run many in one process)
    for warning in files.path_warnings():  # a folder the search would skip without a word
        typer.echo(warning, err=True)
