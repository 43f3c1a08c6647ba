"""One flat row per finished game: what a results file (`--out`, `--db`) keeps of it.

Seats are numbered from 0 in every row (`winner`, `first`, the order of `scores` and
`agents`), as in records and the Python API; the CLI's text says "seat 1" for seat 0.
"""

from __future__ import annotations

from typing import Sequence

from engine.analysis.runs import GameStats

# The columns of a game row, in order (the store's `games` table has them too).
GAME_FIELDS = (
    "run_id", "ruleset", "ruleset_hash", "overlays", "seed", "players", "agents", "scores",
    "winner", "first", "rounds", "turns", "end_reason", "reasons", "points", "fired",
    "duration_ms", "error",
)


def game_row(stats: GameStats, ruleset_id: str, ruleset_hash: str, overlays: Sequence[str],
             agents: Sequence[str], run_id: str = "", duration_ms: float | None = None) -> dict:
    """The row of one game: the ruleset, seed, agents by seat, outcome, and per rule the
    points it gave (all seats) and the number of moves on which it scored."""
    players = len(stats.scores)
    return {
        "run_id": run_id,
        "ruleset": ruleset_id,
        "ruleset_hash": ruleset_hash,
        "overlays": list(overlays),
        "seed": stats.seed,
        "players": players,
        "agents": [agents[s % len(agents)] for s in range(players)],
        "scores": list(stats.scores),
        "winner": stats.winner,
        "first": stats.first,
        "rounds": stats.rounds,
        "turns": stats.turns,
        "end_reason": end_reason(stats),
        "reasons": dict(stats.reasons),
        "points": dict(stats.points),
        "fired": dict(stats.fired),
        "duration_ms": duration_ms,
        "error": stats.error,
    }


def end_reason(stats: GameStats) -> str | None:
    """Why the game ended: the reason of its last round (`max_rounds` when the match
    stopped at its round limit without its own end condition holding)."""
    if stats.error:
        return "error"
    if stats.hit_round_limit:
        return "max_rounds"
    return stats.last_reason


def stats_of_row(row: dict) -> GameStats:
    """Back from a stored row to the stats analysis works on (summaries, comparisons)."""
    stats = GameStats(row["seed"], list(row["scores"]), row["winner"], row["turns"],
                      row["rounds"], dict(row["reasons"] or {}), dict(row["fired"] or {}),
                      dict(row["points"] or {}), row["first"] or 0)
    stats.hit_round_limit = row["end_reason"] == "max_rounds"
    stats.last_reason = row["end_reason"]
    stats.error = row["error"]
    return stats
