"""`rulecraft diff`, `explain` and `compare`: what a rule change does.

A ruleset argument may carry overlays inline, `id+overlay1+overlay2` (see
`engine.analysis.refs.split_spec`); `diff` also takes `--with-a`/`--with-b`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer
from typing import Annotated

from engine.analysis.phrases import counted
from engine.analysis.refs import split_spec
from engine.diagnostics import printable
from engine.cli.app import app
from engine.cli.common import (DEFAULT_JOBS, DEFAULT_SEED, DbOption, HtmlOption, JobsOption,
                               PlayersOption, WithOption, agent_names, jobs_or_cores,
                               load_or_exit, not_found_status, print_diagnostics, require_plots,
                               ruleset_heading, usage_error, write_text_or_exit)
from engine.cli.progress import progress_bar
from engine.kernel.game import players_mismatch


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


@app.command("explain")
def explain_command(
    source: Annotated[str, typer.Argument(help="A record (JSON, from play/simulate --record) or a scenario (YAML).")],
    move: Annotated[Optional[str], typer.Option(
        "--move", metavar="K", help="Only move K (1-based; for a scenario also a move's text).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
) -> None:
    """Explain each move's points rule by rule, with each rule's file and line.

    For a record: every move played. For a scenario: every legal move of its position.
    """
    from engine.analysis import explain as ex
    from engine.diagnostics import RulecraftError
    from engine.kernel import RuleFailure

    if not _is_file(source):
        typer.echo(printable(f"error: no such file: {source}"), err=True)
        raise typer.Exit(2)
    try:
        if ex.is_record(source):
            result = ex.explain_record(source, move)
        else:
            result = ex.explain_scenario(source, move)
    except RulecraftError as exc:
        print_diagnostics(exc.diagnostics, err=True)
        raise typer.Exit(not_found_status(exc.diagnostics, source))
    except ex.NoSuchMove as exc:
        typer.echo(f"error: --move: {exc}", err=True)
        raise typer.Exit(2)
    except ex.NotAScenario as exc:
        typer.echo(f"{source}:1:1: error: {exc}", err=True)
        raise typer.Exit(2)
    except RuleFailure as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)
    # move texts and names come from the record or scenario: no control characters
    typer.echo(ex.format_json(result) if as_json else printable(ex.format_text(result)))


def _is_file(source: str) -> bool:
    try:
        return Path(source).is_file()
    except (OSError, ValueError):  # a name too long for the system, or with a NUL
        return False


# The options of `compare`, one alias each.
RulesetsArg = Annotated[List[str], typer.Argument(
    help="Two or more rulesets; overlays inline: `id+overlay1+overlay2`. The first is the reference.")]
GamesOption = Annotated[int, typer.Option("--games", "-n", min=1, help="Games per ruleset.")]
SeedOption = Annotated[int, typer.Option(
    "--seed", help="Seed of the first game (game i: seed + i, under every ruleset).")]
AgentsOption = Annotated[str, typer.Option("--agents", help="Agents by seat, e.g. greedy,random.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON.")]
CsvOption = Annotated[bool, typer.Option("--csv", help="Print CSV (one row per metric and ruleset).")]
CoverageOption = Annotated[bool, typer.Option(
    "--coverage", help="Also report each rule's coverage per ruleset.")]
AcrossOption = Annotated[bool, typer.Option(
    "--across-games", help="Compare rulesets of different games anyway (no pairing of deals).")]
ResumeOption = Annotated[bool, typer.Option(
    "--resume", help="Finish the interrupted run of the same command in --db.")]
BackendOption = Annotated[str, typer.Option(
    "--backend", help="Where games run: local (here and --jobs processes) or ray.")]
AddressOption = Annotated[Optional[str], typer.Option(
    "--address", help="Ray: an existing cluster (default: a local Ray).")]


@app.command("compare")
def compare_command(
    rulesets: RulesetsArg,
    games: GamesOption = 100,
    seed: SeedOption = DEFAULT_SEED,
    players: PlayersOption = None,
    agents: AgentsOption = "random",
    jobs: JobsOption = DEFAULT_JOBS,
    with_: WithOption = None,
    as_json: JsonOption = False,
    as_csv: CsvOption = False,
    coverage: CoverageOption = False,
    html: HtmlOption = None,
    across_games: AcrossOption = False,
    db: DbOption = None,
    resume: ResumeOption = False,
    backend: BackendOption = "local",
    address: AddressOption = None,
) -> None:
    """Play the same seeded games under each ruleset and compare them side by side.

    Every difference from the first ruleset comes with a 95% confidence interval from the
    paired games; `*` marks the significant ones. Results do not depend on --jobs.
    """
    from engine.analysis import compare as cmp

    specs, models = _checked_specs(rulesets, with_, as_json, as_csv, html, across_games)
    n = _players(models, players)
    names = _agents(agents, n)
    seeds = list(range(seed, seed + games))
    results = _play(specs, models, n, seeds, names, jobs_or_cores(jobs),
                    (db, resume, backend, address), as_json or as_csv)
    _stop_on_crash(specs, results)
    comparison = cmp.build_comparison(specs, models, results, seeds, n, names)
    if html:
        from engine.analysis.report_html import comparison_report

        write_text_or_exit(html, comparison_report(comparison, [ruleset_heading(m.ruleset)
                                                                for m in models]))
    _print_comparison(comparison, models, as_json, as_csv, coverage)


def _checked_specs(rulesets, with_, as_json: bool, as_csv: bool, html, across_games: bool):
    """(specs, compiled models) of the command's rulesets, the options checked first (a
    usage error is its message and exit 2)."""
    from engine.analysis.runs import Spec

    if len(rulesets) < 2:
        usage_error("compare needs at least two rulesets")
    if as_json and as_csv:
        usage_error("--json and --csv: choose one")
    if html is not None:
        require_plots()
    specs = [Spec(*_spec(r, with_)) for r in rulesets]
    models = [_model_or_exit(s) for s in specs]
    _same_game_or_exit(specs, models, across_games)
    return specs, models


def _play(specs, models, n, seeds, names, workers, where, quiet: bool):
    """Each spec's games, here and in `workers` processes, or through `engine.cli.sweep`
    when `where` (--db, --resume, --backend, --address) asks for it."""
    from engine.analysis.runs import run_games

    db, resume, backend, address = where
    if db or resume or backend != "local":
        return _sweep(specs, models, n, seeds, names, workers, db, resume, backend, address,
                      not quiet)
    return _run(run_games, specs, n, seeds, names, workers, len(specs) * len(seeds), quiet)


def _sweep(specs, models, n, seeds, names, workers, db, resume, backend, address, show):
    """The games through `engine.cli.sweep`: stored in `db` as they finish, or on Ray."""
    from engine.cli.sweep import Target, run_sweep

    if backend not in ("local", "ray"):
        usage_error(f"--backend {backend}: choose local or ray")
    targets = [Target(s, m.ruleset.id, m.ruleset.hash) for s, m in zip(specs, models)]
    return run_sweep(targets, n, seeds, names, workers, "compare", None, db, resume, backend,
                     address, show)


def _print_comparison(comparison, models, as_json: bool, as_csv: bool, coverage: bool) -> None:
    from engine.analysis import compare as cmp
    from engine.analysis.coverage import format_coverage

    if as_json:
        data = comparison.as_dict()
        data["titles"] = [ruleset_heading(m.ruleset) for m in models]
        typer.echo(json.dumps(data, indent=2))
    elif as_csv:
        typer.echo(cmp.format_csv(comparison), nl=False)
    else:
        typer.echo(cmp.format_text(comparison, [ruleset_heading(m.ruleset) for m in models]))
        if coverage:
            for spec, cov in zip(comparison.specs, comparison.coverage):
                typer.echo("\n" + format_coverage(cov, len(comparison.seeds), spec.name))


def _spec(text: str, extra) -> tuple[str, tuple[str, ...]]:
    ref, overlays = split_spec(text, extra or ())
    return ref, tuple(overlays)


def _model_or_exit(spec):
    """The compiled model of a spec, or its diagnostics and exit 2 (not found) / 1."""
    from engine.analysis.runs import compile_spec
    from engine.diagnostics import RulecraftError

    load_or_exit(spec.ref, spec.overlays)  # not found: exit 2, with the diagnostics
    try:
        return compile_spec(spec).model
    except RulecraftError as exc:
        print_diagnostics(exc.diagnostics, err=True)
        raise typer.Exit(1)


def _same_game_or_exit(specs, models, across_games: bool) -> None:
    """Seeds pair the deals of one game only: across games the pairing means nothing."""
    first = models[0].ruleset.game
    for spec, model in zip(specs[1:], models[1:]):
        if model.ruleset.game != first and not across_games:
            typer.echo(
                f"error: `{specs[0].name}` is a `{first}` ruleset and `{spec.name}` a"
                f" `{model.ruleset.game}` ruleset: they belong to different games, so the same"
                " seeds do not deal the same game.\n"
                "  help: pass --across-games to compare them anyway", err=True)
            raise typer.Exit(1)


def _players(models, players: Optional[int]) -> int:
    n = models[0].players_default if players is None else players
    for model in models:
        if not model.players_min <= n <= model.players_max:
            usage_error(f"`{model.id}`: {players_mismatch(model, n)}")
    return n


def _agents(text: str, players: int) -> list[str]:
    names = agent_names(text)
    if len(names) > players:
        # A longer list would be cut silently: the user meant another player count.
        usage_error(f"--agents names {counted(len(names), 'agent')} for {counted(players, 'player')}; give at most"
               f" {players} (or --players {len(names)})")
    return names


def _run(run_games, specs, n, seeds, names, jobs, total: int, quiet: bool):
    """Play the games, with a progress bar on stderr when it is a terminal."""
    try:
        with progress_bar(total, "playing", quiet=quiet) as advance:
            return run_games(specs, n, seeds, names, jobs, advance)
    except KeyboardInterrupt:
        typer.echo("\ninterrupted", err=True)
        raise typer.Exit(130)


def _stop_on_crash(specs, results) -> None:
    for spec, games in zip(specs, results):
        for g in games:
            if g.error:
                typer.echo(f"error: {spec.name}, game seeded {g.seed}: {g.error}", err=True)
                raise typer.Exit(1)
