"""One row per finished game, as `simulate --json` and `simulate --out` write it (and any
store of games reuses): seed, agents, scores, winner, rounds, turns, end reason, duration.
A results store's row (`stored_row`) is the same row with more columns: the run, the
ruleset, who moved first, and per rule its points and firing counts.

Seats are numbered from 0, as in the kernel, records and the API: `winner` and `first`
are indices into `agents` and `scores`, and the CSV columns are `agent_0`, `score_0`, ...;
`winner` is None when no one won (a tie, or a solitaire not cleared).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from engine.analysis.runs import GameStats

#: The row's fields, in order (CSV spreads `agents` and `scores` over one column per seat).
FIELDS = ("seed", "agents", "scores", "winner", "rounds", "turns", "end_reason", "duration_s")
FORMATS = (".jsonl", ".csv")


def game_row(seed: int, agents: Sequence[str], state, duration_s: float) -> dict:
    """The row of one finished game from its final state and how long it took."""
    return {
        "seed": seed,
        "agents": [agents[s % len(agents)] for s in range(state.n)],
        "scores": list(state.scores),
        "winner": state.winner,
        "rounds": state.round.number,
        "turns": state.turns_total,
        "end_reason": state.round.reason or None,
        "duration_s": round(duration_s, 6),
    }


def csv_header(players: int) -> list[str]:
    """The CSV columns: `agent_N` and `score_N` per seat N (from 0) in place of the lists."""
    head = ["seed"] + [f"agent_{s}" for s in range(players)]
    return head + [f"score_{s}" for s in range(players)] + list(FIELDS[3:])


def csv_cells(row: dict) -> list:
    """A row's CSV cells, in the order of `csv_header` (no winner: an empty cell)."""
    rest = ["" if row[k] is None else row[k] for k in FIELDS[3:]]
    return [row["seed"], *row["agents"], *row["scores"], *rest]


def format_rows(rows: Iterable[dict], suffix: str, players: int) -> str:
    """The rows as JSON lines (`.jsonl`) or CSV with a header (`.csv`)."""
    if suffix == ".jsonl":
        return "".join(json.dumps(row) + "\n" for row in rows)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(csv_header(players))
    writer.writerows(csv_cells(row) for row in rows)
    return out.getvalue()


def rows_format(path: str) -> str | None:
    """`.jsonl` or `.csv` by the file name's suffix, or None for anything else."""
    suffix = Path(path).suffix.lower()
    return suffix if suffix in FORMATS else None


#: A stored row's columns: `FIELDS` and what a store adds (the `games` table's columns).
STORED_FIELDS = FIELDS + ("run_id", "ruleset", "ruleset_hash", "overlays", "players", "first",
                          "reasons", "points", "fired", "round_limit", "error")


def stored_row(stats: "GameStats", ruleset_id: str, ruleset_hash: str,
               overlays: Sequence[str], agents: Sequence[str], run_id: str = "") -> dict:
    """The row of one game played by `engine.analysis.runs.play_game`: `game_row`'s
    fields (same values for the same game), then the ruleset, the seat that moved first,
    per rule the points it gave (all seats) and the moves on which it scored."""
    players = len(stats.scores)
    return {
        "seed": stats.seed,
        "agents": [agents[s % len(agents)] for s in range(players)],
        "scores": list(stats.scores),
        "winner": stats.winner,
        "rounds": stats.rounds,
        "turns": stats.turns,
        "end_reason": stats.last_reason,
        "duration_s": round(stats.duration_ms / 1000, 6),
        "run_id": run_id,
        "ruleset": ruleset_id,
        "ruleset_hash": ruleset_hash,
        "overlays": list(overlays),
        "players": players,
        "first": stats.first,
        "reasons": dict(stats.reasons),
        "points": dict(stats.points),
        "fired": dict(stats.fired),
        "round_limit": stats.hit_round_limit,
        "error": stats.error,
    }


def stats_of_row(row: dict) -> "GameStats":
    """Back from a stored row to the stats analysis works on (summaries, comparisons)."""
    from engine.analysis.runs import GameStats

    stats = GameStats(row["seed"], list(row["scores"]), row["winner"], row["turns"],
                      row["rounds"], dict(row["reasons"] or {}), dict(row["fired"] or {}),
                      dict(row["points"] or {}), row["first"] or 0)
    stats.hit_round_limit = bool(row["round_limit"])
    stats.last_reason = row["end_reason"]
    stats.duration_ms = (row["duration_s"] or 0) * 1000
    stats.error = row["error"]
    return stats
