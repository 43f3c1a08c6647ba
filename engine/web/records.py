"""Records in and out of the browser: a session's record to download, and an uploaded
record, size-limited, checked by the kernel's record loader and replayed."""

from __future__ import annotations

import os
import tempfile

from engine.diagnostics import RulecraftError
from engine.kernel.record import dumps, load_record, make_record
from engine.web.catalog import check_choice

MAX_RECORD_BYTES = 2_000_000  # a long match is a few hundred kilobytes


class BadRecord(ValueError):
    """An uploaded record that cannot be used; the message says why."""


def record_text(session) -> str:
    """The record of a session's game so far, as `rulecraft play --record` writes it
    (with the moves taken back under `undone`)."""
    setup, ruleset = session.setup, session.ruleset
    record = make_record(session.state, ruleset.id, setup.overlays, ruleset.hash,
                         list(setup.seats), undone=session.undone)
    return dumps(record)


def parse_uploaded(body: bytes):
    """The checked record (`Loaded`) of an upload; BadRecord with the reason.

    The kernel's loader reads files, so the bytes go to a temporary file this function
    makes itself (never a path from the browser); the ruleset it names must be listed in
    the catalog, since a record may name any file as its ruleset.
    """
    if len(body) > MAX_RECORD_BYTES:
        raise BadRecord(f"the record is larger than {MAX_RECORD_BYTES // 1000} kB")
    handle, name = tempfile.mkstemp(prefix="rulecraft-upload-", suffix=".json")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(body)
        loaded = load_record(name)
    except RulecraftError as exc:
        raise BadRecord("; ".join(d.message for d in exc.diagnostics)) from None
    finally:
        os.unlink(name)
    loaded.path = "upload"
    rs = loaded.data["ruleset"]
    try:
        check_choice(rs["id"], list(rs.get("overlays") or []))
    except ValueError as exc:
        raise BadRecord(f"the record's ruleset: {exc}") from None
    return loaded
