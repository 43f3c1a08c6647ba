"""`lint`: every problem of ruleset and overlay files, not just the first.

Per file: YAML -> schema -> resolution (`extends`, overlays) -> schema of the result ->
the ruleset model (every expression compiled in its context, game semantics) -> warnings.
A file whose YAML cannot be read stops at the first stage; the others go on.
"""

from __future__ import annotations

import dataclasses
from fnmatch import fnmatch
from pathlib import Path
from typing import Iterable, Sequence

from engine.diagnostics import Diagnostic, Position, Severity, define
from engine.rules import files
from engine.rules.model import compile_model
from engine.rules.resolve import R_FOLDER_GAME, Ruleset, resolve_ruleset, unique
from engine.rules.schema import check_document

R_NO_RULESET_FOR_OVERLAY = define(
    "R414", "overlay-without-ruleset", "an overlay whose game has no ruleset to apply it to"
)

# Schema errors after which the model is not built: a size out of range (S203, e.g.
# `players: {max: 1000000000}`) could make it loop or allocate for hours, as `simulate`,
# which refuses any schema error, never does. After other schema errors the model is
# still built (tolerantly), to report what it finds too.
_STOP_BEFORE_MODEL = {"S203", "Y114"}

MAX_FILES = 100_000  # a folder walk stops here, so a wrong argument cannot run forever
# Folders a walk skips by default, as ruff does: tools' state, builds, and test data (the
# scenarios under tests/ are positions, not rulesets). `--exclude` adds patterns.
DEFAULT_EXCLUDES = (
    ".git", ".hg", ".svn", ".github", ".venv", "venv", ".tox", ".nox", "__pycache__",
    ".mypy_cache", ".pytest_cache", ".ruff_cache", "node_modules", "build", "dist",
    "site-packages", "*.egg-info", "tests",
)
_RULESET_KEYS = ("ruleset", "overlay", "extends")


def is_excluded(relative: Path, patterns: Sequence[str]) -> bool:
    """Whether a path found in a folder walk (relative to that folder) is left out: one of
    its parts, or the whole relative path, matches a pattern.

    >>> is_excluded(Path("tests/golden/a.yaml"), DEFAULT_EXCLUDES)
    True
    """
    text = relative.as_posix()
    return any(fnmatch(part, pat) for part in relative.parts[:-1] for pat in patterns) or any(
        fnmatch(text, pat) or fnmatch(relative.name, pat) for pat in patterns)


def is_ruleset_file(path: Path) -> bool:
    """Whether a YAML file found in a walk is meant as a ruleset or an overlay: a mapping
    with a top-level `ruleset:`, `overlay:` or `extends:`, or in an `overlays/` folder. A
    file that is not a mapping (or not YAML) is kept: it may be a broken ruleset."""
    data = files.load_document(path).data
    if not isinstance(data, dict):
        return True
    return any(k in data for k in _RULESET_KEYS) or path.parent.name == "overlays"


def iter_files(paths: Iterable[str | Path], exclude: Sequence[str] = (),
               skipped: list | None = None) -> Iterable[tuple[Path, Diagnostic | None]]:
    """Each YAML file named, or found under a folder (recursively, sorted, without the
    default excludes and `exclude` patterns, rulesets and overlays only); or a problem.
    A file named on the command line is always checked; `skipped` collects the others."""
    patterns = tuple(DEFAULT_EXCLUDES) + tuple(exclude)
    count = 0
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix in files.SUFFIXES and p.is_file())
            for p in found[: MAX_FILES - count]:
                if is_excluded(p.relative_to(path), patterns) or not is_ruleset_file(p):
                    if skipped is not None:
                        skipped.append(p)
                    continue
                count += 1
                yield p, None
        elif path.is_file():
            count += 1
            yield path, None
        else:
            yield path, Diagnostic("Y111", "no such file or folder", Position(str(path)))


def lint_paths(paths: Sequence[str | Path], overlays: Sequence[str] = (), strict: bool = False,
               exclude: Sequence[str] = (), skipped: list | None = None) -> list[Diagnostic]:
    """Every problem in the given files and folders (`strict`: warnings become errors;
    `exclude`, `skipped`: as `iter_files`)."""
    out: list[Diagnostic] = []
    for path, problem in iter_files(paths, exclude, skipped):
        out += [problem] if problem else lint_file(path, overlays)
    out = unique(out)
    if strict:
        out = [dataclasses.replace(d, severity=Severity.ERROR) for d in out]
    return out


def lint_file(path: Path, overlays: Sequence[str] = ()) -> list[Diagnostic]:
    """Every problem of one ruleset or overlay file."""
    doc = files.load_document(path)
    if not isinstance(doc.data, dict):
        return list(doc.diagnostics)
    if _is_overlay(doc.data, path):
        if not doc.ok:
            return list(doc.diagnostics) + check_document(doc, "overlay")
        return _lint_overlay(doc, path, overlays)
    if not doc.ok:
        return list(doc.diagnostics) + check_document(doc, "ruleset")
    ruleset, diagnostics = resolve_ruleset(str(path), overlays)
    if ruleset is not None and not _stops(diagnostics):
        diagnostics += lint_model(ruleset, tolerant=any(d.is_error for d in diagnostics))
    return diagnostics


def _stops(diagnostics: Sequence[Diagnostic]) -> bool:
    return any(d.code in _STOP_BEFORE_MODEL and d.is_error for d in diagnostics)


def _is_overlay(data: dict, path: Path) -> bool:
    return "overlay" in data or ("ruleset" not in data and path.parent.name == "overlays")


def _lint_overlay(doc, path: Path, overlays: Sequence[str]) -> list[Diagnostic]:
    header = doc.data.get("overlay")
    game = header.get("game") if isinstance(header, dict) else None
    out = check_document(doc, "overlay")
    if not isinstance(game, str):
        return list(doc.diagnostics) + out
    found = files.find_ruleset(game, near=path, pos=doc.where("overlay", "game"))
    if found.path is None and any(d.code == "R408" for d in found.diagnostics):
        return list(doc.diagnostics) + out + found.diagnostics
    if found.path is None:
        return list(doc.diagnostics) + out + [Diagnostic(
            R_NO_RULESET_FOR_OVERLAY.code, f"no default `{game}` ruleset to check this overlay against",
            doc.where("overlay", "game"), help=f"add a `{game}` ruleset with `ruleset.default: true`")]
    ruleset, diagnostics = resolve_ruleset(str(found.path), [str(path), *overlays])
    if ruleset is not None and not _stops(diagnostics):
        diagnostics += lint_model(ruleset, tolerant=any(d.is_error for d in diagnostics))
    # Checked alone, an overlay is applied to the game's default ruleset; restating one of
    # its values is no mistake when the overlay is meant for other bases too.
    return _overlay_folder(doc, path, game) + [
        d for d in diagnostics if not (d.code == "R404" and d.pos and d.pos.path == doc.path)]


def _overlay_folder(doc, path: Path, game: str) -> list[Diagnostic]:
    """R411 for an overlay in `<root>/<folder>/overlays/` whose game is not `<folder>`: its
    folder's game would never find it, and `lint` would check it against another game."""
    folder = files.absolute(path).parent
    if folder.name != "overlays" or folder.parent.name == game:
        return []
    root = folder.parent.parent
    if not (root.name == "rulesets" or root == files.shipped_root() or root in files.user_roots()):
        return []
    return [Diagnostic(R_FOLDER_GAME.code, f"overlay of game `{game}` sits in the folder "
                       f"`{folder.parent.name}/overlays`", doc.where("overlay", "game"),
                       help=f"move it to `{game}/overlays/`, or set `game: {folder.parent.name}`")]


def lint_model(ruleset: Ruleset, tolerant: bool = False) -> list[Diagnostic]:
    """The ruleset model's diagnostics: expressions in context, game semantics, warnings such
    as unused definitions.

    `tolerant`: the schema already found errors, so the data may not have the shape the
    model expects; if the model then fails, its findings are skipped (the schema's stand).
    """
    try:
        _, found = compile_model(ruleset)
    except Exception:
        if not tolerant:
            raise
        return []
    return list(found)
