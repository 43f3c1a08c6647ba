"""Rule coverage: how often each scoring rule of a ruleset fired in many games, and the
points it gave. A rule that never fired may be dead or mistyped; reports point it out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from engine.analysis.phrases import counted
from engine.diagnostics import Position


@dataclass(frozen=True)
class RuleCoverage:
    """One scoring rule over a batch of games."""

    name: str
    label: str
    pos: Position | None
    fired: int  # moves (or round ends) on which it gave points
    games: int  # games in which it fired at least once
    points: int  # points it gave, every seat together

    def as_dict(self) -> dict:
        return {
            "rule": self.name,
            "label": self.label,
            "where": f"{self.pos.path}:{self.pos.line}" if self.pos else None,
            "fired": self.fired,
            "games": self.games,
            "points": self.points,
        }


def rule_coverage(model, stats: Sequence) -> list[RuleCoverage]:
    """Every scoring rule of `model` in the order written, with its counts over `stats`."""
    out = []
    for rule in model.scoring:
        out.append(RuleCoverage(
            rule.name,
            rule.label or "",
            rule.pos,
            sum(s.fired.get(rule.name, 0) for s in stats),
            sum(1 for s in stats if s.fired.get(rule.name)),
            sum(s.points.get(rule.name, 0) for s in stats),
        ))
    return out


def never_fired(coverage: Sequence[RuleCoverage]) -> list[RuleCoverage]:
    return [c for c in coverage if c.fired == 0]


def format_coverage(coverage: Sequence[RuleCoverage], games: int, title: str = "") -> str:
    """A table (rule, fired, share of games, points, where), then the rules that never fired."""
    n = max(1, games)
    width = max([len(c.name) for c in coverage] + [4])
    lines = [f"rule coverage{(' of ' + title) if title else ''} over {counted(games, 'game')}:",
             f"  {'rule':<{width}} {'fired':>7} {'games':>7} {'points':>9}  where"]
    for c in coverage:
        where = f"{c.pos.path}:{c.pos.line}" if c.pos else "-"
        lines.append(f"  {c.name:<{width}} {c.fired:>7} {c.games / n * 100:>6.1f}% "
                     f"{c.points:>9}  {where}")
    for c in never_fired(coverage):
        where = f"{c.pos.path}:{c.pos.line}: " if c.pos else ""
        lines.append(f"{where}rule `{c.name}` never fired in {counted(games, 'game')}: "
                     "is it dead or mistyped?")
    return "\n".join(lines)


@dataclass(frozen=True)
class CoverageReport:
    """Coverage of one ruleset over a batch of games: as text, and as JSON-ready data."""

    text: str
    data: object  # a list of per-rule dicts, or {"error": ...} when a game failed


def coverage_report(ref: str, overlays, players: int, seeds, agents, jobs: int = 1,
                    deal=None, title: str | None = None) -> CoverageReport:
    """The coverage of `ref` over the games `simulate` plays with the same seeds and
    agents (the same games: each is fully determined by its seed). `title` names the
    ruleset in the header (default: `ref` and its overlays, as given)."""
    from engine.analysis.runs import Spec, compile_spec, run_games

    spec = Spec(ref, tuple(overlays or ()))
    (stats,) = run_games([spec], players, list(seeds), list(agents), jobs, deal=deal)
    failed = [s for s in stats if s.error]
    if failed:
        message = f"game seeded {failed[0].seed} failed: {failed[0].error}"
        return CoverageReport(f"rule coverage: {message}", {"error": message})
    coverage = rule_coverage(compile_spec(spec).model, stats)
    return CoverageReport(format_coverage(coverage, len(stats), title or spec.name),
                          [c.as_dict() | {"never_fired": c.fired == 0} for c in coverage])
