"""Results stores: every finished game as a row in an embedded DuckDB file.

`open_store(path)` gives a `Store`; a run is `store.begin_run(...)`, then
`store.add_games(rows)` as games finish (each call its own transaction, so an interrupted
run keeps what it finished), then `store.finish_run(run_id)`. See docs/analysis.md.
"""

from engine.store.duck import Store, StoreError, open_store

__all__ = ["Store", "StoreError", "open_store"]
