"""The DuckDB results store: a `runs` table (one row per run) and a `games` table (one
row per finished game, the columns of `engine.analysis.rows.STORED_FIELDS`).

One process writes a file at a time: DuckDB locks it, and the lock error is turned into
a message naming the process that holds it. User queries run with a time limit.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS runs (
        run_id VARCHAR PRIMARY KEY, started TIMESTAMP, finished TIMESTAMP,
        status VARCHAR, command VARCHAR, params JSON, versions JSON, games INTEGER)""",
    """CREATE TABLE IF NOT EXISTS games (
        run_id VARCHAR, ruleset VARCHAR, ruleset_hash VARCHAR, overlays VARCHAR[],
        seed BIGINT, players INTEGER, agents VARCHAR[], scores INTEGER[], winner INTEGER,
        first INTEGER, rounds INTEGER, turns INTEGER, end_reason VARCHAR, reasons JSON,
        points JSON, fired JSON, round_limit BOOLEAN, duration_s DOUBLE, error VARCHAR)""",
)
_JSON_COLUMNS = ("reasons", "points", "fired")
_COLUMNS = ("run_id", "ruleset", "ruleset_hash", "overlays", "seed", "players", "agents",
            "scores", "winner", "first", "rounds", "turns", "end_reason", "reasons",
            "points", "fired", "round_limit", "duration_s", "error")


class StoreError(Exception):
    """A store that cannot be opened, read or queried; the message is for the user."""


def _duckdb():
    try:
        import duckdb
    except ImportError:  # a dependency, but an install may have skipped it
        raise StoreError("the results store needs duckdb: pip install duckdb") from None
    return duckdb


def open_store(path: str | Path, create: bool = True, read_only: bool = False) -> "Store":
    """Open (or create) a store file; StoreError when it is locked, missing or not one."""
    duckdb = _duckdb()
    path = Path(path)
    if not create and not path.exists():
        raise StoreError(f"{path}: no such results file")
    try:
        conn = duckdb.connect(str(path), read_only=read_only)
    except duckdb.IOException as exc:
        raise StoreError(_lock_message(path, str(exc))) from None
    except duckdb.Error as exc:
        raise StoreError(f"{path}: not a results file ({_first_line(exc)})") from None
    store = Store(conn, path)
    if not read_only:
        for statement in SCHEMA:
            conn.execute(statement)
    elif not store.has_tables():
        conn.close()
        raise StoreError(f"{path}: not a results file (no `runs` and `games` tables)")
    return store


def _lock_message(path: Path, text: str) -> str:
    if "lock" in text.lower():
        held = re.search(r"PID (\d+)", text)
        who = f" (process {held.group(1)})" if held else ""
        return (f"{path} is in use by another run{who}; wait for it to finish, or write"
                " to another file")
    return f"{path}: cannot open the results file ({_first_line(text)})"


def _first_line(exc) -> str:
    lines = [line for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


@dataclass
class Result:
    """A query's column names and rows."""

    columns: list[str]
    rows: list[tuple]


class Store:
    """An open results file. Close it (or use `with`) to release the lock."""

    def __init__(self, conn, path: Path):
        self.conn = conn
        self.path = path

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.conn.close()

    def has_tables(self) -> bool:
        found = self.conn.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_name IN ('runs', 'games')"
        ).fetchone()
        return bool(found and found[0] == 2)

    # -- writing -----------------------------------------------------------------
    def begin_run(self, run_id: str, command: str, params: dict, versions: dict) -> None:
        """Record a run as started (its games come in with `add_games`)."""
        self.conn.execute(
            "INSERT INTO runs VALUES (?, current_timestamp, NULL, 'running', ?, ?, ?, 0)",
            [run_id, command, json.dumps(params, sort_keys=True), json.dumps(versions)])

    def add_games(self, rows: Sequence[dict]) -> None:
        """Append finished games, in one transaction: all of them are kept, or none."""
        if not rows:
            return
        values = [[json.dumps(r[c]) if c in _JSON_COLUMNS else r[c] for c in _COLUMNS]
                  for r in rows]
        marks = ", ".join("?" for _ in _COLUMNS)
        self.conn.execute("BEGIN TRANSACTION")
        try:
            self.conn.executemany(f"INSERT INTO games ({', '.join(_COLUMNS)}) VALUES ({marks})",
                                  values)
            self.conn.execute("UPDATE runs SET games = games + ? WHERE run_id = ?",
                              [len(rows), rows[0]["run_id"]])
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise

    def finish_run(self, run_id: str, status: str = "finished") -> None:
        self.conn.execute("UPDATE runs SET finished = current_timestamp, status = ? WHERE run_id = ?",
                          [status, run_id])

    # -- reading -------------------------------------------------------------------
    def unfinished_run(self, params: dict) -> str | None:
        """The latest run with these parameters that did not finish (to resume), if any."""
        found = self.conn.execute(
            "SELECT run_id FROM runs WHERE CAST(params AS VARCHAR) = ? AND status <> 'finished'"
            " ORDER BY started DESC LIMIT 1", [json.dumps(params, sort_keys=True)]).fetchone()
        return found[0] if found else None

    def played(self, run_id: str) -> set[tuple[str, tuple[str, ...], int]]:
        """(ruleset id, overlays, seed) of the games a run has stored."""
        rows = self.conn.execute("SELECT ruleset, overlays, seed FROM games WHERE run_id = ?",
                                 [run_id]).fetchall()
        return {(ruleset, tuple(overlays or ()), seed) for ruleset, overlays, seed in rows}

    def games_of(self, run_id: str) -> list[dict]:
        """Every stored game of a run, as rows (JSON columns decoded), by seed."""
        result = self.query(f"SELECT * FROM games WHERE run_id = '{_quote(run_id)}' ORDER BY seed")
        rows = [dict(zip(result.columns, row)) for row in result.rows]
        for row in rows:
            for column in _JSON_COLUMNS:
                row[column] = json.loads(row[column]) if row[column] else {}
        return rows

    def runs(self) -> Result:
        return self.query(
            "SELECT run_id, started, status, games, command FROM runs ORDER BY started")

    def query(self, sql: str, timeout: float | None = None) -> Result:
        """Run a query (interrupted after `timeout` seconds); StoreError with DuckDB's
        first line when it is not valid or fails."""
        duckdb = _duckdb()
        fired = threading.Event()

        def stop() -> None:
            fired.set()
            self.conn.interrupt()

        timer = threading.Timer(timeout, stop) if timeout else None
        if timer:
            timer.start()
        try:
            cursor = self.conn.execute(sql)
            columns = [d[0] for d in cursor.description or []]
            rows = cursor.fetchall() if cursor.description else []
        except duckdb.Error as exc:
            if fired.is_set():
                raise StoreError(f"the query ran past {timeout:g} s and was stopped"
                                 " (--timeout sets the limit)") from None
            raise StoreError(_first_line(exc)) from None
        finally:
            if timer:
                timer.cancel()
        return Result(columns, rows)

    def export(self, sql: str, out: str | Path, timeout: float | None = None) -> None:
        """Write a query's result to a Parquet file."""
        self.query(f"COPY ({sql}) TO '{_quote(str(out))}' (FORMAT parquet)", timeout)


def _quote(text: str) -> str:
    return text.replace("'", "''")


def to_jsonable(value: Any) -> Any:
    """A query value as JSON holds it (timestamps as ISO text)."""
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: to_jsonable(v) for k, v in value.items()}
    return value
