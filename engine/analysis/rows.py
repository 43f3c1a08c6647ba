"""One row per finished game, as `simulate --json` and `simulate --out` write it (and any
store of games reuses): seed, agents, scores, winner, rounds, turns, end reason, duration.

Seats and the winner are numbered from 1, as in every report; `winner` is None when no
one won (a tie, or a solitaire not cleared).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Iterable, Sequence

#: The row's fields, in order (CSV spreads `agents` and `scores` over one column per seat).
FIELDS = ("seed", "agents", "scores", "winner", "rounds", "turns", "end_reason", "duration_s")
FORMATS = (".jsonl", ".csv")


def game_row(seed: int, agents: Sequence[str], state, duration_s: float) -> dict:
    """The row of one finished game from its final state and how long it took."""
    return {
        "seed": seed,
        "agents": [agents[s % len(agents)] for s in range(state.n)],
        "scores": list(state.scores),
        "winner": None if state.winner is None else state.winner + 1,
        "rounds": state.round.number,
        "turns": state.turns_total,
        "end_reason": state.round.reason or None,
        "duration_s": round(duration_s, 6),
    }


def csv_header(players: int) -> list[str]:
    """The CSV columns: one `agent_N` and one `score_N` per seat in place of the lists."""
    head = ["seed"] + [f"agent_{s + 1}" for s in range(players)]
    return head + [f"score_{s + 1}" for s in range(players)] + list(FIELDS[3:])


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
