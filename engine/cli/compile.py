"""`rulecraft compile RULESET [--with OVERLAY ...] [-o game.py]`: the ruleset's program.

The program is one generated Python module of plain functions over plain data
(`engine.program`), with comments pointing back to the YAML line of each rule. Without
`-o` it is printed; with `-o` it is written as a module that can be imported (it binds
its constants from the ruleset when loaded). A ruleset the compiler does not cover says
`not compiled: <feature>` and exits 1; the interpreter plays it as before.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from engine.cli.app import app
from engine.cli.common import WithOption
from engine.cli.games import load_game_or_exit


@app.command("compile")
def compile_command(
    ruleset: Annotated[str, typer.Argument(help="A ruleset id, a game name, or a path.")],
    with_: WithOption = None,
    out: Annotated[
        Optional[Path],
        typer.Option("--out", "-o", help="Write the module to this file (else print it)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON: compiled or why not.")] = False,
) -> None:
    """Compile a ruleset (with overlays) to one Python program, or say why it is not."""
    from engine.program import NotCompiled, compile_program

    loaded, game = load_game_or_exit(ruleset, with_ or [])
    try:
        program = compile_program(game)
    except NotCompiled as exc:
        if as_json:
            typer.echo(json.dumps({"ruleset": loaded.id, "compiled": False,
                                   "reason": exc.reason}, indent=2))
        else:
            typer.echo(f"not compiled: {exc.reason}", err=True)
        raise typer.Exit(1)
    text = program.source
    if out is not None:
        text = _write(out, program.source, ruleset, list(with_ or []), loaded.hash)
    report = _report(loaded, game, text, out)
    if as_json:
        typer.echo(json.dumps(report, indent=2))
    elif out is None:
        typer.echo(program.source, nl=False)
    else:
        typer.echo(f"wrote {out}: {report['lines']} lines, the program of {loaded.id}"
                   f" (key {report['key']})", err=True)


def _write(out: Path, source: str, ref: str, overlays: list, ruleset_hash: str) -> str:
    """The module, with the footer binding its constants when imported (the text
    written)."""
    from engine.program.bind import footer

    text = source + footer(ref, overlays, ruleset_hash)
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        typer.echo(f"error: cannot write {out}: {exc.strerror}", err=True)
        raise typer.Exit(1)
    return text


def _report(loaded, game, source: str, out: Path | None) -> dict:
    from engine.program.build import cache_dir, cache_key

    folder, key = cache_dir(), cache_key(game)
    return {"ruleset": loaded.id, "compiled": True, "key": key,
            "lines": source.count("\n"), "out": str(out) if out else None,
            "cache": str(folder / f"{key}.py") if folder else None}
