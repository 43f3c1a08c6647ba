"""`rulecraft diff`, `explain` and `compare`: what a rule change does.

A ruleset argument may carry overlays inline, `id+overlay1+overlay2` (see
`engine.analysis.refs.split_spec`); `diff` also takes `--with-a`/`--with-b`.
"""

from __future__ import annotations

import json
from typing import List, Optional

import typer
from typing import Annotated

from engine.analysis.refs import split_spec
from engine.cli.app import app
from engine.cli.common import load_or_exit


def _with(side: str):
    return typer.Option(
        f"--with-{side}", metavar="OVERLAY",
        help=f"Apply an overlay to ruleset {side.upper()}; repeatable, applied in order.",
    )


@app.command("diff")
def diff_command(
    a: Annotated[str, typer.Argument(help="Ruleset A: an id, game name or file; `id+overlay` allowed.")],
    b: Annotated[str, typer.Argument(help="Ruleset B, compared with A.")],
    with_a: Annotated[Optional[List[str]], _with("a")] = None,
    with_b: Annotated[Optional[List[str]], _with("b")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the differences as JSON.")] = False,
    across_games: Annotated[bool, typer.Option(
        "--across-games", help="Compare rulesets of two different games anyway.")] = False,
) -> None:
    """Say what differs between two rulesets, after inheritance and overlays.

    Exit status: 0 compared (whether or not anything differs), 1 the rulesets belong to
    different games (without --across-games) or one is broken, 2 a ruleset not found.
    """
    from engine.analysis.diff import diff_rulesets, format_text

    ruleset_a = load_or_exit(*split_spec(a, with_a or ()))
    ruleset_b = load_or_exit(*split_spec(b, with_b or ()))
    if ruleset_a.game != ruleset_b.game and not across_games:
        typer.echo(
            f"error: A is a `{ruleset_a.game}` ruleset and B a `{ruleset_b.game}` ruleset: "
            "they belong to different games, so their rules do not line up.\n"
            "  help: pass --across-games to list the differences anyway", err=True)
        raise typer.Exit(1)
    result = diff_rulesets(ruleset_a, ruleset_b)
    if as_json:
        typer.echo(json.dumps(result.as_dict(), indent=2, default=str))
        return
    if not result.same_game:
        typer.echo(f"note: different games (`{ruleset_a.game}` and `{ruleset_b.game}`)")
    typer.echo(format_text(result))
