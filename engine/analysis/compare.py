"""`compare`: the same seeded games under several rulesets, side by side.

Each game gives a set of numbers (final score and win per seat, whether the player who
moved first won, the spread, turns, rounds, rounds ended by each reason, how often each
scoring rule fired and its points). A metric's value under ruleset X is compared with the first ruleset's value in
the same game, so each difference has a paired 95% confidence interval.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from typing import Sequence

from engine.analysis.phrases import counted
from engine.analysis.coverage import RuleCoverage, rule_coverage
from engine.analysis.runs import GameStats, Spec
from engine.analysis.stats import Paired, mean, paired


@dataclass
class Metric:
    """One measured quantity: its values per ruleset and game, and the paired diffs."""

    key: str
    label: str
    group: str
    values: list[list[float]]
    diffs: list[Paired | None] = field(default_factory=list)

    @property
    def means(self) -> list[float]:
        return [mean(v) for v in self.values]


@dataclass
class Comparison:
    """What `compare` reports: the setup, the metrics, and each ruleset's rule coverage."""

    specs: list[Spec]
    seeds: list[int]
    players: int
    agents: list[str]
    metrics: list[Metric]
    coverage: list[list[RuleCoverage]]
    # True when every ruleset is of one game, so seed i deals the same game under each.
    paired_by_seed: bool = True

    def as_dict(self) -> dict:
        return {
            "games": len(self.seeds),
            "seeds": [self.seeds[0], self.seeds[-1]] if self.seeds else [],
            "players": self.players,
            "agents": self.agents,
            "rulesets": [s.name for s in self.specs],
            "paired_by_seed": self.paired_by_seed,
            "metrics": [_metric_dict(m) for m in self.metrics],
            "coverage": {s.name: [c.as_dict() for c in cov]
                         for s, cov in zip(self.specs, self.coverage)},
        }


def _metric_dict(m: Metric) -> dict:
    return {
        "key": m.key,
        "label": m.label,
        "group": m.group,
        "means": [round(x, 4) for x in m.means],
        "diffs": [d.as_dict() if d else None for d in m.diffs],
    }


def build_comparison(specs: Sequence[Spec], models: Sequence, results: Sequence[list[GameStats]],
                     seeds: Sequence[int], players: int, agents: Sequence[str]) -> Comparison:
    """Metrics from the games of every ruleset (results[k][i]: ruleset k, game i)."""
    metrics = [_metric(key, label, group, results) for key, label, group in
               _metric_keys(models, results, players)]
    for m in metrics:
        m.diffs = [None] + [paired(m.values[0], v) for v in m.values[1:]]
    coverage = [rule_coverage(model, games) for model, games in zip(models, results)]
    one_game = len({model.ruleset.game for model in models}) <= 1
    return Comparison(list(specs), list(seeds), players, list(agents), metrics, coverage,
                      one_game)


def _metric_keys(models, results, players: int) -> list[tuple[str, str, str]]:
    # Under `match.objective: lowest` (every ruleset compared) the reader is told which
    # way a score difference goes.
    low = bool(models) and all(getattr(m, "objective", "highest") == "lowest" for m in models)
    way = " (lower is better)" if low else ""
    # Seats from 0, as in rows and records: `score.seat0` is the first seat's score.
    keys = [(f"score.seat{s}", f"mean final score, seat {s}{way}", "outcome")
            for s in range(players)]
    keys += [(f"win.seat{s}", f"seat {s} wins", "outcome") for s in range(players)]
    if players == 1:
        # Alone, the first mover is seat 0 and the spread is always 0; no winner is no tie.
        keys.append(("win.none", "no winner", "outcome"))
    else:
        keys += [
            ("win.first", "the first to move wins", "outcome"),
            ("win.none", "no winner (a tie)", "outcome"),
            ("spread", "score spread (highest - lowest)", "outcome"),
        ]
    keys += [
        ("turns", "game length in turns", "length"),
        ("rounds", "game length in rounds", "length"),
    ]
    reasons = _ordered(r for games in results for g in games for r in g.reasons)
    keys += [(f"round_end.{r}", f"rounds ended `{r}`", "round ends") for r in reasons]
    rules = _ordered(rule.name for model in models for rule in model.scoring)
    for name in rules:
        keys.append((f"rule.{name}.fired", f"`{name}` fired", "rules"))
        keys.append((f"rule.{name}.points", f"`{name}` points", "rules"))
    return keys


def _ordered(items) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        seen.setdefault(item, None)
    return list(seen)


def _metric(key: str, label: str, group: str, results) -> Metric:
    return Metric(key, label, group, [[game_value(g, key) for g in games] for games in results])


def game_value(g: GameStats, key: str) -> float:
    """One metric of one game (a rule or reason the game never saw counts 0)."""
    if key.startswith("score.seat"):
        return g.scores[int(key[len("score.seat"):])]
    if key.startswith("win.seat"):
        return 1.0 if g.winner == int(key[len("win.seat"):]) else 0.0
    if key == "win.first":
        return 1.0 if g.winner is not None and g.winner == g.first else 0.0
    if key == "win.none":
        return 1.0 if g.winner is None else 0.0
    if key == "spread":
        return max(g.scores) - min(g.scores) if g.scores else 0
    if key in ("turns", "rounds"):
        return getattr(g, key)
    if key.startswith("round_end."):
        return g.reasons.get(key[len("round_end."):], 0)
    name, _, what = key[len("rule."):].rpartition(".")
    return (g.fired if what == "fired" else g.points).get(name, 0)


# -- output ---------------------------------------------------------------------

def format_text(c: Comparison, titles: Sequence[str] = ()) -> str:
    """A side-by-side table; each difference from A with its CI, `*` when significant.
    `titles`: each ruleset's title and overlays, shown beside its name."""
    names = [f"{chr(65 + k) if k < 26 else k}: {s.name}" for k, s in enumerate(c.specs)]
    names = [f"{n}  {t}" for n, t in zip(names, titles)] if titles else names
    players = counted(c.players, "player")
    pairing = ("paired by seed (common random numbers)" if c.paired_by_seed else
               "rulesets of different games: the same seed deals a different game under"
               " each, so the games are not paired (no common random numbers)")
    head = [f"{counted(len(c.seeds), 'game')} per ruleset (seeds {_seed_range(c.seeds)}), {players}, "
            f"agents {','.join(c.agents)}; {pairing}"]
    head += [f"  {n}" for n in names]
    width = max(len(m.label) for m in c.metrics) + 2
    cols = [chr(65 + k) if k < 26 else str(k) for k in range(len(c.specs))]
    title = f"{'':<{width}}" + "".join(f"{col:>10}" for col in cols)
    title += "".join(f"   {col} - A [95% CI]{'':<14}" for col in cols[1:])
    lines, group = head + ["", title.rstrip()], None
    for m in c.metrics:
        if m.group != group:
            group = m.group
            lines.append(f"{group}:")
        row = f"  {m.label:<{width - 2}}" + "".join(f"{x:>10.2f}" for x in m.means)
        row += "".join(f"   {_diff_text(d):<29}" for d in m.diffs[1:])
        lines.append(row.rstrip())
    lines.append("* the 95% confidence interval excludes 0: the difference is significant")
    return "\n".join(lines)


def _seed_range(seeds: Sequence[int]) -> str:
    return f"{seeds[0]}..{seeds[-1]}" if seeds else "-"


def _diff_text(d: Paired | None) -> str:
    if d is None:
        return ""
    if d.low == d.high == d.diff:
        return f"{d.diff:+.2f} [exact]" + (" *" if d.significant else "")
    low = f"{d.low:+.2f}" if d.low > -1e300 else "-inf"
    high = f"{d.high:+.2f}" if d.high < 1e300 else "+inf"
    return f"{d.diff:+.2f} [{low}, {high}]" + (" *" if d.significant else "")


def format_json(c: Comparison) -> str:
    return json.dumps(c.as_dict(), indent=2)


CSV_FIELDS = ("metric", "label", "group", "ruleset", "mean", "diff_vs_first", "ci_low",
              "ci_high", "significant")


def format_csv(c: Comparison) -> str:
    """One row per metric and ruleset (long format, easy to pivot in a spreadsheet)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for m in c.metrics:
        for spec, avg, d in zip(c.specs, m.means, m.diffs):
            cells = [m.key, m.label, m.group, spec.name, f"{avg:.4f}"]
            if d is None:
                cells += ["", "", "", ""]
            else:
                info = d.as_dict()
                low, high = info["ci95"]
                cells += [f"{d.diff:.4f}", "" if low is None else f"{low:.4f}",
                          "" if high is None else f"{high:.4f}", str(d.significant).lower()]
            writer.writerow(cells)
    return out.getvalue()
