"""Building a ruleset's program, once: the source is kept by the ruleset's hash (in
memory, and on disk under the user's cache folder), so that it is not generated again.

The key is the ruleset's hash (sha256 of its resolved data, overlays included) and a
digest of the generator's own modules (and those of the expressions and board kinds), so a changed generator never reads an old
program. The disk cache is `$RULECRAFT_CACHE/programs/` (default
`~/.cache/rulecraft/programs/`; `RULECRAFT_CACHE=off` keeps it in memory only); a file
that cannot be read or written is skipped, never an error.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from engine.program.plan import NotCompiled, make_plan
from engine.program.program import Program
from engine.program.steps import module_source

_HERE = Path(__file__).resolve().parent
_SOURCES: dict[str, str] = {}  # key -> source
_CODES: dict[str, object] = {}  # key -> its code object


def _generator_digest() -> str:
    """A digest of every module whose text or functions a program is made from: this
    package's, the expressions' (`Expression.inline`) and the board kinds'."""
    digest = hashlib.sha256()
    for folder in (_HERE, _HERE.parent / "expr", _HERE.parent / "topology"):
        for path in sorted(folder.glob("*.py")):
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


_DIGEST = _generator_digest()


def cache_key(game) -> str:
    return f"{game.model.ruleset.hash[:24]}-{_DIGEST}"


def cache_dir() -> Path | None:
    """Where programs are kept on disk, or None (`RULECRAFT_CACHE=off`)."""
    root = os.environ.get("RULECRAFT_CACHE")
    if root == "off":
        return None
    base = Path(root) if root else Path.home() / ".cache" / "rulecraft"
    return base / "programs"


def _title(game) -> str:
    ruleset = game.model.ruleset
    overlays = "".join(f" --with {name}" for name in ruleset.overlays)
    return f"{ruleset.id}{overlays}"


def program_source(game) -> str:
    """The module's text for `game` (from the cache when kept); NotCompiled if the
    compiler does not cover the ruleset."""
    plan = make_plan(game)
    key = cache_key(game)
    source = _SOURCES.get(key) or _read(key)
    if source is None:
        source = module_source(plan, _title(game))
        _write(key, source)
    _SOURCES[key] = source
    return source


def _read(key: str) -> str | None:
    folder = cache_dir()
    try:
        return (folder / f"{key}.py").read_text(encoding="utf-8") if folder else None
    except OSError:
        return None


def _write(key: str, source: str) -> None:
    folder = cache_dir()
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        temporary = folder / f".{key}.{os.getpid()}.tmp"
        temporary.write_text(source, encoding="utf-8")
        temporary.replace(folder / f"{key}.py")
    except OSError:
        pass


def compile_program(game) -> Program:
    """The program of `game` (kept on the game: built once); NotCompiled(reason) if
    the compiler does not cover its ruleset."""
    found = getattr(game, "_program", None)
    if isinstance(found, Program):
        return found
    if isinstance(found, NotCompiled):
        raise found
    try:
        source = program_source(game)
    except NotCompiled as exc:
        game._program = exc
        raise
    key = cache_key(game)
    code = _CODES.get(key)
    if code is None:
        code = _CODES[key] = compile(source, f"<program {_title(game)}>", "exec")
    program = game._program = Program(make_plan(game), source, code)
    return program


def program_for(game) -> Program | None:
    """The program of `game`, or None when the compiler does not cover it."""
    try:
        return compile_program(game)
    except NotCompiled:
        return None


def why_not(game) -> str | None:
    """Why `game` has no program (the feature not covered), or None if it has one."""
    try:
        compile_program(game)
    except NotCompiled as exc:
        return exc.reason
    return None
