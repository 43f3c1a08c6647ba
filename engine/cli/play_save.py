"""Keeping a game played at the terminal: the record's path checked before the game
begins, a save prompt that asks again rather than losing the game, no file overwritten
without asking, and a recovery file when play stops on an unexpected error."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import typer

from engine.diagnostics import file_reason

from engine.cli.games import record_ref
from engine.kernel.record import dumps, make_record

_NO = ("n", "no")


def record_of(session) -> dict:
    """The record of the session's game so far, with the moves taken back."""
    state, ruleset = session.state, session.ruleset
    agents = ["human"] + [session.agent] * (state.n - 1)
    return make_record(state, ruleset.id, session.overlays, ruleset.hash, agents,
                       ref=record_ref(session.ref), undone=session.undone)


def path_problem(path: str) -> str | None:
    """Why a record cannot be written to `path`, in words; None if it can."""
    target = Path(path).expanduser()
    if target.is_dir():
        return f"{path} is a folder"
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        return f"there is no folder {folder}"
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        return f"{path} cannot be written (permission denied)"
    return None


def check_record_option(path: str, ask) -> None:
    """Before the game: a `--record` path that cannot be written is a usage error (exit 2),
    and an existing file is replaced only if the player says so."""
    problem = path_problem(path)
    if problem:
        typer.echo(f"error: --record {path}: {problem}", err=True)
        raise typer.Exit(2)
    if Path(path).expanduser().exists() and not ask(f"{path} exists; replace it at the end?"):
        typer.echo("error: choose another --record file", err=True)
        raise typer.Exit(2)


def write(path: str, record: dict) -> str | None:
    """Write a record; the reason in words if it could not be written."""
    try:
        Path(path).expanduser().write_text(dumps(record), encoding="utf-8")
    except OSError as exc:
        return file_reason(exc, path)
    return None


def save(session, path: str, say) -> bool:
    """Write the record to `path`, saying where (or why not)."""
    problem = write(path, record_of(session))
    if problem:
        say(f"cannot write the record to {path}: {problem}")
        return False
    say(f"record written to {path}")
    return True


def ask_and_save(session, prompt, confirm, say) -> None:
    """Ask where to save the record until it is written or the player says no: a mistyped
    folder, an unwritable file or an existing file not to replace asks again."""
    while True:
        try:
            path = prompt("save the record to (a file; empty or `no`: do not save)").strip()
        except (typer.Abort, KeyboardInterrupt, EOFError):
            return
        if not path or path.lower() in _NO:  # an answer, not a file name (`./no` is one)
            return
        problem = path_problem(path)
        if problem:
            say(f"cannot write the record there: {problem}")
            continue
        if Path(path).expanduser().exists() and not confirm(f"{path} exists; replace it?"):
            continue
        if save(session, path, say):
            return


def recover(session) -> str | None:
    """Write the game so far to a new recovery file (in the current folder, else the
    temporary one); its path, or None if neither can be written."""
    record = record_of(session)
    name = f"rulecraft-recovered-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.json"
    for folder in (Path.cwd(), Path(tempfile.gettempdir())):
        path = folder / name
        if not path.exists() and write(str(path), record) is None:
            return str(path)
    return None
