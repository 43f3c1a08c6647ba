"""Ruleset files and their ids: discovery, reference lookup, and a cache of parsed files.

Layout: `rulesets/<game>/<variant>.yaml` is the ruleset `<game>/<variant>`; overlays live
in `rulesets/<game>/overlays/<name>.yaml` and are named `<name>` within that game (also
`<game>/overlays/<name>`). A game name alone means the game's ruleset marked
`ruleset.default: true`. Any reference may instead be a path to a file anywhere.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from functools import lru_cache
from typing import Iterator

from engine import paths
from engine.diagnostics import Diagnostic, Position, closest, define
from engine.rules.yamlload import Document, read_text

R_UNKNOWN_RULESET = define("R400", "unknown-ruleset", "no ruleset has this id or path")
R_UNKNOWN_OVERLAY = define("R401", "unknown-overlay", "no overlay has this name or path")
R_NO_DEFAULT = define("R408", "no-default-ruleset", "a game has no default ruleset, or several")
R_BAD_REFERENCE = define("R425", "reference-too-long",
                         "a ruleset or overlay reference too long to be a file name, or with a NUL")

MAX_PART = 250  # bytes of one name in a reference: a file system allows 255, with `.yaml`
MAX_REFERENCE = 1024  # characters of a whole reference

SUFFIXES = (".yaml", ".yml")
_cache: dict[tuple, Document] = {}
_CACHE_LIMIT = 4096  # files
_CACHE_CHARS = 16_000_000  # and text: a folder of large files cannot fill the memory
_cached_chars = 0


def absolute(path: Path) -> Path:
    """The absolute, normalised path (cheap: no symlink resolution, which is slow)."""
    return Path(os.path.abspath(path))


@lru_cache(maxsize=1)
def shipped_root() -> Path:
    """The shipped rulesets folder, absolute."""
    return absolute(paths.rulesets_dir())


def load_document(path: Path) -> Document:
    """Parse a YAML file, reusing the result while the file is unchanged."""
    try:
        stat = path.stat()
        key = (os.path.abspath(path), stat.st_mtime_ns, stat.st_size, display_path(path))
    except OSError:
        return read_text(path, display_path(path))
    global _cached_chars
    doc = _cache.get(key)
    if doc is None:
        doc = read_text(path, display_path(path))
        if len(_cache) >= _CACHE_LIMIT or _cached_chars + len(doc.text) > _CACHE_CHARS:
            _cache.clear()
            _cached_chars = 0
        _cache[key] = doc
        _cached_chars += len(doc.text)
    return doc


def display_path(path: Path) -> str:
    """The path as shown in diagnostics: `rulesets/...` for a shipped file (wherever it is
    installed), relative to the working folder when inside it, else absolute."""
    return shown_path(os.path.abspath(path), os.getcwd(), str(shipped_root()))


def shown_path(absolute: str, here: str, shipped: str) -> str:
    """`display_path` without the file system: `absolute` as seen from the folder `here`,
    with `shipped` the shipped rulesets folder (under site-packages after a wheel install).

    >>> shown_path("/venv/site-packages/engine/_data/rulesets/g/a.yaml", "/home/me",
    ...            "/venv/site-packages/engine/_data/rulesets")
    'rulesets/g/a.yaml'
    """
    if absolute.startswith(shipped.rstrip(os.sep) + os.sep):
        # First: a virtual environment inside the project would otherwise show the file
        # as `.venv/lib/.../site-packages/...`. In a checkout both read `rulesets/...`.
        return "rulesets/" + os.path.relpath(absolute, shipped).replace(os.sep, "/")
    if absolute.startswith(here.rstrip(os.sep) + os.sep):
        return os.path.relpath(absolute, here)
    return absolute


def is_path_ref(ref: str) -> bool:
    """Whether a reference names a file rather than an id."""
    return ref.endswith(SUFFIXES) or Path(ref).is_file()


#: Folders given with `--rulesets DIR` (the command line's, searched first).
_given_roots: list[Path] = []
PATH_VARIABLE = "RULECRAFT_PATH"


def set_user_roots(folders) -> None:
    """The user's rulesets folders from the command line (`--rulesets DIR`, repeatable)."""
    _given_roots[:] = [absolute(Path(f)) for f in folders or ()]


def add_user_roots(folders) -> None:
    """More folders after those already given (a command's own `--rulesets`)."""
    _given_roots.extend(absolute(Path(f)) for f in folders or ())


def given_roots() -> list[Path]:
    """The folders given with `--rulesets DIR` in this run (for advice that repeats them)."""
    return list(_given_roots)


def user_roots() -> list[Path]:
    """The user's rulesets folders: `--rulesets` ones, then `RULECRAFT_PATH`'s (os.pathsep
    separated), each once, in that order."""
    out: list[Path] = []
    listed = os.environ.get(PATH_VARIABLE, "")
    for folder in _given_roots + [absolute(Path(p)) for p in listed.split(os.pathsep) if p]:
        if folder not in out:
            out.append(folder)
    return out


class RulesetPathWarning(UserWarning):
    """`engine.api.load` warns so of a `RULECRAFT_PATH` entry that is not a folder."""


def path_warnings() -> list[str]:
    """A warning for each `RULECRAFT_PATH` entry that is not a folder (the search skips
    it): the entry as written, what is wrong, and the fix, as `warning: ...` lines."""
    out = []
    for entry in os.environ.get(PATH_VARIABLE, "").split(os.pathsep):
        folder = absolute(Path(entry))
        try:
            if not entry or folder.is_dir():
                continue
            is_file = folder.exists()
        except (OSError, ValueError):  # a name too long for the system, say
            is_file = False
        shown = entry if os.path.isabs(entry) else f"{entry} ({folder})"
        what, fix = (("is a file, not a folder", "name the folder holding your rulesets")
                     if is_file else ("does not exist", "create it"))
        out.append(f"warning: {PATH_VARIABLE} names {shown}, which {what}: no rulesets are"
                   f" looked up there\n  help: {fix}, or remove it from {PATH_VARIABLE}"
                   f" (folders separated by `{os.pathsep}`)")
    return out


def roots(near: Path | None = None) -> list[Path]:
    """Folders to look ids up in: the one holding `near` (if laid out as one), the user's
    folders (`--rulesets`, `RULECRAFT_PATH`), then the shipped one."""
    out: list[Path] = []
    if near is not None:
        near = absolute(near)
        parent = near.parent
        if parent.name == "overlays":
            parent = parent.parent
        out.append(parent.parent)
    for root in user_roots() + [shipped_root()]:
        if root not in out:
            out.append(root)
    return out


def origin(path: Path) -> str:
    """Where a ruleset file comes from: `shipped`, or the user's folder holding it."""
    resolved = absolute(path)
    for root in user_roots():
        if root in resolved.parents:
            return display_path(root) if root != absolute(Path()) else "."
    return "shipped" if shipped_root() in resolved.parents else display_path(resolved.parent)


def ruleset_id(path: Path) -> str:
    """`<game>/<variant>` for a file laid out under a rulesets folder, else its path."""
    resolved = absolute(path)
    shipped = shipped_root()
    top = resolved.parent.parent
    if top == shipped or top.name == "rulesets" or top in user_roots():
        return f"{resolved.parent.name}/{resolved.stem}"
    return display_path(path)


def _yaml_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix in SUFFIXES and p.is_file())


def iter_games(root: Path) -> Iterator[Path]:
    """Every game folder under a rulesets root, sorted."""
    if root.is_dir():
        yield from sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))


def iter_ruleset_files(root: Path | None = None) -> Iterator[tuple[str, Path]]:
    """(id, path) of every ruleset under a root (default: the shipped rulesets)."""
    root = root or paths.rulesets_dir()
    for game in iter_games(root):
        for path in _yaml_files(game):
            yield f"{game.name}/{path.stem}", path


def iter_overlay_files(root: Path | None = None) -> Iterator[tuple[str, str, Path]]:
    """(game, name, path) of every overlay under a root (default: shipped)."""
    root = root or paths.rulesets_dir()
    for game in iter_games(root):
        for path in _yaml_files(game / "overlays"):
            yield game.name, path.stem, path


def _find_file(folder: Path, stem: str) -> Path | None:
    for suffix in SUFFIXES:
        candidate = folder / f"{stem}{suffix}"
        if candidate.is_file():
            return candidate
    return None


def find_default(game: str, root: Path) -> tuple[Path | None, list[Path]]:
    """The game's default ruleset in `root`, and every file that claims to be it."""
    claims = []
    for path in _yaml_files(root / game):
        data = load_document(path).data
        header = data.get("ruleset") if isinstance(data, dict) else None
        if isinstance(header, dict) and header.get("default") is True:
            claims.append(path)
    return (claims[0] if len(claims) == 1 else None), claims


@dataclass
class Lookup:
    """The result of resolving a reference: a path, or diagnostics saying why not."""

    path: Path | None
    diagnostics: list[Diagnostic]


def reference_problem(ref: str, kind: str, pos: Position | None) -> Diagnostic | None:
    """R425 when `ref` cannot name a file at all (the system would refuse to look)."""
    if "\0" in ref:
        why = "it holds a NUL character"
    elif len(ref) > MAX_REFERENCE:
        why = f"it is {len(ref):,} characters long; the limit is {MAX_REFERENCE:,}"
    elif any(len(os.fsencode(part)) > MAX_PART for part in ref.split("/")):
        why = f"a name in it is over {MAX_PART} bytes, longer than a file name can be"
    else:
        return None
    return Diagnostic(R_BAD_REFERENCE.code, f"this {kind} reference cannot name a file: {why}",
                      pos, help="check the reference (an id such as `<game>/<ruleset>`, or a path)")


def _find_path(ref: str, kind: str, code: str, near: Path | None, pos: Position | None) -> Lookup:
    """A reference that is a path: relative to the file naming it (`near`), else to the
    working folder; missing, diagnostic `code` says so."""
    base = near.parent if near is not None and not os.path.isabs(ref) else Path()
    for candidate in (base / ref, Path(ref)):
        if candidate.is_file():
            return Lookup(candidate, [])
    return Lookup(None, [_missing_file(code, kind, ref, near, pos)])


def find_ruleset(ref: str, near: Path | None = None, pos: Position | None = None) -> Lookup:
    """Resolve a ruleset reference: a path, `<game>/<variant>`, or a game name alone."""
    if (problem := reference_problem(ref, "ruleset", pos)) is not None:
        return Lookup(None, [problem])
    if is_path_ref(ref):
        return _find_path(ref, "ruleset", R_UNKNOWN_RULESET.code, near, pos)
    if "/" in ref:
        game, _, variant = ref.partition("/")
        for root in roots(near):
            found = _find_file(root / game, variant)
            if found:
                return Lookup(found, [])
        return Lookup(None, [_unknown_ruleset(ref, near, pos)])
    seen_game = False
    for root in roots(near):
        if (root / ref).is_dir():
            seen_game = True
            found, claims = find_default(ref, root)
            if found:
                return Lookup(found, [])
            if claims:
                names = ", ".join(f"{p.parent.name}/{p.stem}" for p in claims)
                return Lookup(None, [Diagnostic(R_NO_DEFAULT.code,
                                                f"several rulesets of `{ref}` say `default: true`: {names}",
                                                pos, help="mark exactly one of them as the default")])
    if seen_game:
        return Lookup(None, [Diagnostic(R_NO_DEFAULT.code,
                                        f"no ruleset of `{ref}` says `ruleset.default: true`", pos,
                                        help="mark one ruleset of the game as the default, or give a full id")])
    return Lookup(None, [_unknown_ruleset(ref, near, pos)])


def known_ids(near: Path | None = None) -> list[str]:
    """Every ruleset id and game name that a reference could name."""
    ids: list[str] = []
    for root in roots(near):
        for rid, _ in iter_ruleset_files(root):
            ids.append(rid)
            ids.append(rid.split("/")[0])
    return sorted(set(ids))


def _missing_file(code: str, kind: str, ref: str, near: Path | None,
                  pos: Position | None) -> Diagnostic:
    # A path that names no file: listing ids or overlay names would not help.
    if os.path.isabs(ref):
        hint = "check the path"
    elif near is not None:
        hint = f"check the path; a relative one is read from {display_path(near.parent)} or the current folder"
    else:
        hint = "check the path; a relative one is read from the current folder"
    return Diagnostic(code, f"no {kind} file `{ref}`", pos, help=hint)


def _unknown_ruleset(ref: str, near: Path | None, pos: Position | None) -> Diagnostic:
    # A folder, or a path missing its suffix, is a likely slip on the command line.
    base = near.parent if near is not None and not os.path.isabs(ref) else Path()
    if "/" in ref and (base / ref).is_dir():
        return Diagnostic(R_UNKNOWN_RULESET.code, f"`{ref}` is a folder, not a ruleset", pos,
                          help="name a ruleset file in it, or an id (`rulecraft lint` takes folders)")
    with_suffix = next((ref + s for s in SUFFIXES if "/" in ref and (base / (ref + s)).is_file()), None)
    if with_suffix:
        return Diagnostic(R_UNKNOWN_RULESET.code, f"unknown ruleset `{ref}`", pos,
                          help=f"did you mean the file `{with_suffix}`?")
    guess = closest(ref, known_ids(near))
    return Diagnostic(
        R_UNKNOWN_RULESET.code,
        f"unknown ruleset `{ref}`",
        pos,
        help=f"did you mean `{guess}`?" if guess else "run `rulecraft rulesets` to list them",
    )


def find_overlay(ref: str, game: str, near: Path | None = None,
                 pos: Position | None = None) -> Lookup:
    """Resolve an overlay reference: a name within `game`, `<game>/overlays/<name>`, or a path."""
    if (problem := reference_problem(ref, "overlay", pos)) is not None:
        return Lookup(None, [problem])
    if is_path_ref(ref):
        return _find_path(ref, "overlay", R_UNKNOWN_OVERLAY.code, near, pos)
    else:
        parts = ref.split("/")
        if len(parts) == 3 and parts[1] == "overlays":
            folder_game, name = parts[0], parts[2]
        else:
            folder_game, name = game, ref
        for root in roots(near):
            found = _find_file(root / folder_game / "overlays", name)
            if found:
                return Lookup(found, [])
    names = sorted({n for root in roots(near) for g, n, _ in iter_overlay_files(root) if g == game})
    guess = closest(ref, names)
    hint = f"did you mean `{guess}`?" if guess else (
        f"overlays of `{game}`: {', '.join(names)}" if names else f"`{game}` has no overlays"
    )
    return Lookup(None, [Diagnostic(R_UNKNOWN_OVERLAY.code, f"unknown overlay `{ref}`", pos, help=hint)])
