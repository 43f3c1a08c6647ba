"""`rulecraft results FILE`: the runs in a results file, or a SQL query over it.

The file is opened read-only: a query cannot change it. A query runs at most `--timeout`
seconds; a bad one is a one-line error (exit 1).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from engine.cli.app import app
from engine.cli.common import usage_error


@app.command("results")
def results_command(
    file: Annotated[str, typer.Argument(help="A results file written by simulate/compare --db.")],
    sql: Annotated[Optional[str], typer.Option(
        "--sql", help="A query over the tables `runs` and `games` (docs/analysis.md).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the rows as JSON.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print the rows as CSV.")] = False,
    out: Annotated[Optional[str], typer.Option(
        "--out", metavar="FILE.parquet", help="Write the rows (default: every game) to Parquet.")] = None,
    timeout: Annotated[float, typer.Option(
        "--timeout", min=0.1, help="Stop a query after this many seconds.")] = 60.0,
) -> None:
    """List the runs in a results file, or run a SQL query over its games."""
    from engine.store import StoreError, open_store

    if as_json and as_csv:
        usage_error("--json and --csv: choose one")
    if out is not None and not out.endswith(".parquet"):
        usage_error("--out writes Parquet: give a FILE.parquet")
    if not Path(file).is_file():
        usage_error(f"no such results file: {file}")
    try:
        with open_store(file, create=False, read_only=True) as store:
            if out is not None:
                store.export(sql or "SELECT * FROM games ORDER BY run_id, ruleset, seed", out, timeout)
                typer.echo(f"wrote {out}")
                return
            result = store.query(sql, timeout) if sql else store.runs()
    except StoreError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)
    typer.echo(_format(result, as_json, as_csv), nl=not as_csv)


def _format(result, as_json: bool, as_csv: bool) -> str:
    from engine.store.duck import to_jsonable

    if as_json:
        rows = [dict(zip(result.columns, map(to_jsonable, row))) for row in result.rows]
        return json.dumps(rows, indent=2, default=str)
    if as_csv:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(result.columns)
        writer.writerows([[_cell(v) for v in row] for row in result.rows])
        return buffer.getvalue()
    return table(result.columns, result.rows)


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value, default=str)
    return str(value)


def table(columns, rows) -> str:
    """Columns padded to their widest cell; numbers to the right."""
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    numeric = [bool(rows) and all(isinstance(r[i], (int, float)) or r[i] is None for r in rows)
               for i in range(len(columns))]

    def line(values) -> str:
        return "  ".join(v.rjust(w) if n else v.ljust(w)
                         for v, w, n in zip(values, widths, numeric)).rstrip()

    out = [line(columns), line(["-" * w for w in widths])] + [line(r) for r in cells]
    out.append(f"({len(rows)} {'row' if len(rows) == 1 else 'rows'})")
    return "\n".join(out)
