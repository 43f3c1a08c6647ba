"""Dynamic lint (`lint --simulate N`): play N seeded random games per ruleset and report
what static checks cannot see, as L6xx diagnostics at the position of the rule at fault.

A ruleset with static errors is not played (its errors are already reported). An overlay
file is played applied to its game's default ruleset, as static lint checks it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Sequence

from engine.analysis.coverage import never_fired, rule_coverage
from engine.analysis.phrases import counted
from engine.analysis.runs import LIMIT_REASONS, STALLED, Spec, compile_spec, run_games
from engine.diagnostics import Diagnostic, Position, RulecraftError, Severity, define

L_CRASH = define("L601", "simulation-crash",
                 "a game failed while playing: an expression raised at run time")
L_NO_END = define("L602", "game-never-ends",
                  "a round or the match stopped at a `limits:` cap, not by its own rules")
L_NEVER_FIRED = define("L603", "rule-never-fired",
                       "a scoring rule gave no points in any simulated game", Severity.WARNING)
L_STALLED = define("L604", "round-stalled",
                   "rounds ended because the player to move had no legal move", Severity.WARNING)


def simulate_paths(paths: Sequence[str | Path], overlays: Sequence[str] = (), games: int = 10,
                   strict: bool = False, seed: int = 0, exclude: Sequence[str] = (),
                   progress=None) -> list[Diagnostic]:
    """L6xx diagnostics from `games` random games of each ruleset found under `paths`
    (`exclude`: as lint's; `progress(n)` is called after each file)."""
    from engine.rules.lint import iter_files

    from engine.rules.resolve import unique

    out: list[Diagnostic] = []
    for path, problem in iter_files(paths, exclude):
        spec = None if problem else _spec_of(path, tuple(overlays))
        if progress:
            progress(1)
        if spec is None:
            continue
        found = simulate_spec(spec, games, seed)
        if spec.ref != str(path):  # an overlay: its base's rare rules are the base's business
            found = [d for d in found if d.code != L_NEVER_FIRED.code
                     or (d.pos is not None and Path(d.pos.path) == Path(_shown(path)))]
        out += found
    out = unique(out)
    if strict:
        out = [dataclasses.replace(d, severity=Severity.ERROR) for d in out]
    return out


def _shown(path: Path) -> str:
    from engine.rules import files

    return files.display_path(path)


def _spec_of(path: Path, overlays: tuple[str, ...]) -> Spec | None:
    """What to play for a file: the ruleset itself, or the game's default with the overlay."""
    from engine.rules import files

    data = files.load_document(path).data
    if not isinstance(data, dict):
        return None
    header = data.get("overlay")
    if isinstance(header, dict) or ("ruleset" not in data and path.parent.name == "overlays"):
        game = header.get("game") if isinstance(header, dict) else None
        found = files.find_ruleset(game) if isinstance(game, str) else None
        if found is None or found.path is None:
            return None
        return Spec(str(found.path), (str(path),) + overlays)
    return Spec(str(path), overlays)


def simulate_spec(spec: Spec, games: int, seed: int = 0) -> list[Diagnostic]:
    """Play `games` random games of one ruleset; [] if it does not compile (lint says why)."""
    try:
        game = compile_spec(spec)
    except RulecraftError:
        return []
    except Exception as exc:  # an engine bug while building the game: reported, not raised
        return [Diagnostic(L_CRASH.code, f"the game cannot be set up: internal error: {type(exc).__name__}: {exc}",
                           _ruleset_pos(spec), help="report it: lint found nothing wrong with the ruleset")]
    model, ruleset = game.model, game.model.ruleset
    players = model.players_default
    (stats,) = run_games([spec], players, list(range(seed, seed + games)), ["random"], jobs=1)
    out = _crashes(stats, ruleset)
    played = [s for s in stats if not s.error]
    out += _limits(played, ruleset, games)
    broken = bool(out)  # coverage means little when games crash or never end
    out += _stalls(played, ruleset, games)
    if played and not broken:
        for rule in never_fired(rule_coverage(model, played)):
            out.append(Diagnostic(
                L_NEVER_FIRED.code,
                f"scoring rule `{rule.name}` never gave points in "
                f"{counted(len(played), 'random game')}",
                rule.pos, help="check its `on:` and `if:`; a rare rule may need more games"))
    return out


def _ruleset_pos(spec: Spec) -> Position:
    return Position(_shown(Path(spec.ref)), 1, 1) if Path(spec.ref).exists() else Position(spec.ref)


def _crashes(stats, ruleset) -> list[Diagnostic]:
    by_message: dict[str, list] = {}
    for s in stats:
        if s.error:
            by_message.setdefault(s.error, []).append(s)
    out = []
    for message, failed in by_message.items():
        seeds = ", ".join(str(s.seed) for s in failed[:5])
        pos = failed[0].error_pos or ruleset.where()
        help = ("guard the expression (e.g. with `if ... then ... else`) for this case"
                if not message.startswith("internal error") else
                f"an engine bug, not the ruleset's: replay it with `--games 1 --seed {failed[0].seed}` and report it")
        out.append(Diagnostic(
            L_CRASH.code, f"{len(failed)} of {counted(len(stats), 'game')} failed (seeds {seeds}): {message}",
            pos, help=help))
    return out


def _limits(stats, ruleset, games: int) -> list[Diagnostic]:
    out = []
    capped = [s for s in stats if any(s.reasons.get(r) for r in LIMIT_REASONS)]
    if capped:
        out.append(Diagnostic(
            L_NO_END.code,
            f"in {len(capped)} of {counted(games, 'game')} a round reached `limits.max_turns_per_round` "
            "without any `round.end` condition becoming true",
            _first(ruleset, ("limits", "max_turns_per_round"), ("round", "end"), ("round",)),
            help="make sure some round-end condition must eventually hold"))
    rounds = [s for s in stats if s.hit_round_limit]
    if rounds:
        out.append(Diagnostic(
            L_NO_END.code,
            f"in {len(rounds)} of {counted(games, 'game')} the match reached `limits.max_rounds` "
            "before `match.end_if` held",
            _first(ruleset, ("match", "end_if"), ("limits", "max_rounds"), ("match",)),
            help="make sure `match.end_if` must eventually hold"))
    return out


def _stalls(stats, ruleset, games: int) -> list[Diagnostic]:
    stalled = [s for s in stats if s.reasons.get(STALLED)]
    if not stalled:
        return []
    total = sum(s.reasons[STALLED] for s in stalled)
    return [Diagnostic(
        L_STALLED.code,
        f"{counted(total, 'round')} in {len(stalled)} of {counted(games, 'game')} ended because the player to "
        "move had no legal move, not by a `round.end` condition",
        _first(ruleset, ("round", "end"), ("round",), ("actions",)),
        help="add a round-end condition for this case, or an action (e.g. `pass`) that is always possible")]


def _first(ruleset, *paths: tuple) -> Position:
    for path in paths:
        pos = ruleset.key_where(*path)
        if pos is not None:
            return pos
    return ruleset.near(*paths[-1])
