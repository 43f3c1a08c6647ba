"""Resolving a ruleset: `extends`, the file's own content, its overlays, then `--with` ones.

`check_ruleset` collects every problem on the way (YAML, schema of each file and of the
result, resolution); `load_ruleset` raises `RulecraftError` when there is an error.
The merge rules themselves live in `engine.rules.merge`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from engine.diagnostics import Diagnostic, Position, RulecraftError, Severity, define, sort_key
from engine.rules import files, schema
from engine.rules.merge import Merger, Prov, canonical_json
from engine.rules.overlay_schema import FILE_KEYS
from engine.rules.yamlload import Document

R_CYCLE = define("R402", "inheritance-cycle", "a ruleset extends itself, directly or not")
R_TOO_DEEP = define("R426", "extends-too-deep", "a chain of `extends` longer than the limit")
MAX_EXTENDS = 32  # rulesets in one `extends` chain: real ones have 2 or 3
R_OTHER_GAME = define("R403", "overlay-other-game", "an overlay written for another game")
R_WRONG_KIND = define("R409", "wrong-file-kind", "an overlay used as a ruleset, or the reverse")
R_EXTENDS_GAME = define("R410", "extends-other-game", "a ruleset extends a ruleset of another game")
R_FOLDER_GAME = define("R411", "game-folder-mismatch", "a ruleset's game differs from its folder")
R_REPEATED_OVERLAY = define(
    "R412", "repeated-overlay", "the same overlay is applied twice", Severity.WARNING
)

@dataclass
class Ruleset:
    """A resolved ruleset: plain data plus where each value came from."""

    id: str
    path: Path
    data: dict
    prov: Prov
    files: list[str] = field(default_factory=list)
    overlays: list[str] = field(default_factory=list)
    base: str | None = None

    @property
    def game(self) -> str:
        return str(self._header().get("game", ""))

    @property
    def title(self) -> str:
        return str(self._header().get("title", self.id))

    @property
    def description(self) -> str:
        return str(self._header().get("description", ""))

    @property
    def default(self) -> bool:
        return self._header().get("default") is True

    def _header(self) -> dict:
        header = self.data.get("ruleset")
        return header if isinstance(header, dict) else {}

    @property
    def hash(self) -> str:
        """sha256 of the canonical JSON of the resolved data."""
        return hashlib.sha256(canonical_json(self.data).encode()).hexdigest()

    def origin(self, *path) -> tuple[Document, tuple] | None:
        """The file and the path within it that set the value at `path`."""
        node = self.prov.find(tuple(path))
        return (node.doc, node.path) if node else None

    def where(self, *path) -> Position | None:
        """The file, line and column that set the value at `path`."""
        if not path:  # the whole ruleset: its own file, not its base
            top = files.load_document(self.path)
            return top.where() or Position(top.path)
        node = self.prov.find(tuple(path))
        return node.doc.where(*node.path) if node else None

    def key_where(self, *path) -> Position | None:
        """The position of the key naming the value at `path` (else of the value)."""
        if not path:
            return self.where()
        node = self.prov.find(tuple(path))
        if node is None:
            return None
        return node.doc.key_where(*node.path) or node.doc.where(*node.path)

    def blame(self, path: tuple, fields: Sequence) -> Position | None:
        """Where the last-written of the `fields` of the mapping at `path` was set (or
        removed by `$delete`): a problem between merged values (min above max) is then
        reported in the file that wrote the newer value, not in the base."""
        node = self.prov.find(tuple(path))
        rank = {p: i for i, p in enumerate(self.files)}
        best: tuple[int, Position] | None = None
        kids = node.children if node is not None and isinstance(node.children, dict) else {}
        gone = (node.deleted if node is not None else None) or {}
        for name in fields:
            got = kids.get(name) or gone.get(name)
            pos = got.doc.where(*got.path) if got is not None else None
            if pos is not None and (best is None or rank.get(got.doc.path, -1) > best[0]):
                best = (rank.get(got.doc.path, -1), pos)
        return best[1] if best else self.where(*path)

    def removed_where(self, path: tuple, key) -> Position | None:
        """Where a `$delete` removed `key` from the mapping at `path` (None if none did)."""
        node = self.prov.find(tuple(path))
        got = (node.deleted or {}).get(key) if node is not None else None
        return got.doc.where(*got.path) if got is not None else None

    def near(self, *path) -> Position:
        """The position of `path`, or of its nearest ancestor that has one."""
        path = tuple(path)
        while path:
            found = self.where(*path)
            if found:
                return found
            path = path[:-1]
        top = files.load_document(self.path)
        return top.where() or Position(top.path)

    def locator(self, *path) -> Position | None:
        """A position for an expression at `path`: its `shifted(offset, text)` is exact."""
        node = self.prov.find(tuple(path))
        return node.doc.locator(*node.path) if node else None


def _header(data, key: str) -> dict:
    header = data.get(key) if isinstance(data, dict) else None
    return header if isinstance(header, dict) else {}


class _Resolution:
    """One resolution: the diagnostics found and the files and overlays used, in order."""

    def __init__(self):
        self.diagnostics: list[Diagnostic] = []
        self.overlays: list[str] = []
        self._seen: set[str] = set()
        self._applied_paths: list[str] = []
        self.order: list[str] = []  # files in the order their content was applied

    def _take(self, doc: Document, kind: str) -> bool:
        """Record a file once, with its YAML and schema problems; whether it can be used."""
        if doc.path not in self._seen:
            self._seen.add(doc.path)
            self.diagnostics += doc.diagnostics
            if doc.ok:
                self.diagnostics += schema.check_document(doc, kind)
        return doc.ok

    def ruleset(self, path: Path, chain: tuple[Path, ...] = ()):
        """The resolved data and provenance of the ruleset file at `path`, or None."""
        doc = files.load_document(path)
        if not self._take(doc, "ruleset"):
            return None
        data = doc.data
        if "ruleset" not in data and "overlay" in data:
            self._add(R_WRONG_KIND, f"`{doc.path}` is an overlay, not a ruleset",
                      doc.key_where("overlay"), "apply it with `--with`, or list it under `overlays:`")
            return None
        self._check_folder(doc, path)
        got = self._base(doc, path, chain)
        if got is None:
            return None
        base, bprov = got
        own = {k: v for k, v in data.items() if k not in FILE_KEYS}
        result, prov = Merger(doc, self.diagnostics, "ruleset").merge(base, bprov, own, ())
        self.order.append(doc.path)
        game = _header(result, "ruleset").get("game", "")
        listed = data.get("overlays")
        for i, name in enumerate(listed if isinstance(listed, list) else []):
            if isinstance(name, str):
                result, prov = self.overlay(name, result, prov, game, path, doc.where("overlays", i))
        return result, prov

    def _base(self, doc: Document, path: Path, chain: tuple[Path, ...]):
        ref = doc.data.get("extends")
        if ref is not None and not isinstance(ref, str):
            return None  # the schema says so; a ruleset built on nothing would only cascade
        if ref is None:
            return {}, None
        pos = doc.where("extends")
        if len(chain) >= MAX_EXTENDS:
            self._add(R_TOO_DEEP, f"`extends` chains more than {MAX_EXTENDS} rulesets", pos,
                      "build on fewer levels: an overlay can carry a variation instead")
            return None
        found = files.find_ruleset(ref, near=path, pos=pos)
        if found.path is None:
            self.diagnostics += found.diagnostics
            return None
        chain = chain + (files.absolute(path),)
        if files.absolute(found.path) in chain:
            names = " -> ".join(files.ruleset_id(p) for p in chain + (files.absolute(found.path),))
            self._add(R_CYCLE, f"inheritance cycle: {names}", pos, "one of them must not extend the other")
            return None
        got = self.ruleset(found.path, chain)
        if got is None:
            return None
        base, bprov = got
        own_game = _header(doc.data, "ruleset").get("game")
        base_game = _header(base, "ruleset").get("game")
        if own_game and base_game and own_game != base_game:
            self._add(R_EXTENDS_GAME, f"a `{own_game}` ruleset extends `{ref}`, a `{base_game}` ruleset",
                      pos, f"extend a `{own_game}` ruleset")
        return _without_default(base, bprov)

    def overlay(self, ref: str, data: dict, prov: Prov, game: str, near: Path | None,
                pos: Position | None):
        """`data` with the overlay `ref` merged over it (unchanged if the overlay is unusable)."""
        found = files.find_overlay(ref, game, near=near, pos=pos)
        if found.path is None:
            self.diagnostics += found.diagnostics
            return data, prov
        doc = files.load_document(found.path)
        if doc.path in self._applied_paths:
            self._add(R_REPEATED_OVERLAY, f"overlay `{ref}` is applied twice", pos,
                      "apply it once")
            return data, prov
        if isinstance(doc.data, dict) and "overlay" not in doc.data and "ruleset" in doc.data:
            self._add(R_WRONG_KIND, f"`{doc.path}` is a ruleset, not an overlay",
                      pos or doc.key_where("ruleset"), "use `extends:` to build on a ruleset")
            return data, prov
        if not self._take(doc, "overlay"):
            return data, prov
        its_game = _header(doc.data, "overlay").get("game")
        if its_game and game and its_game != game:
            self._add(R_OTHER_GAME, f"overlay `{ref}` is for `{its_game}`, but this ruleset is `{game}`",
                      doc.where("overlay", "game"), f"use an overlay of `{game}`")
            return data, prov
        own = {k: v for k, v in doc.data.items() if k != "overlay" and k not in FILE_KEYS}
        data, prov = Merger(doc, self.diagnostics, "overlay").merge(data, prov, own, ())
        data, prov = _retitle(doc, data, prov)
        self.overlays.append(ref)
        self._applied_paths.append(doc.path)
        self.order.append(doc.path)
        return data, prov

    def _check_folder(self, doc: Document, path: Path) -> None:
        folder = files.absolute(path).parent
        laid_out = folder.parent.name == "rulesets" or folder.parent == files.shipped_root()
        if not (laid_out or folder.parent in files.user_roots()):
            return
        game = _header(doc.data, "ruleset").get("game")
        if isinstance(game, str) and game != folder.name:
            self._add(R_FOLDER_GAME, f"ruleset of game `{game}` sits in the folder `{folder.name}`",
                      doc.where("ruleset", "game"), f"move it to `{game}/`, or set `game: {folder.name}`")

    def _add(self, code, message: str, pos: Position | None, help: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code.code, message, pos, help=help))


# Overlay header keys that change the header of the ruleset the overlay is applied to:
# (the ruleset header key, the overlay header key, whether it replaces or appends).
_RETITLE = (("title", "ruleset_title", False), ("description", "ruleset_description", False),
            ("title", "title_append", True), ("description", "description_append", True))


def _retitle(doc: Document, data: dict, prov: Prov):
    """The ruleset's title and description as an overlay's header changes them, so that a
    ruleset with an overlay on does not keep a text the overlay made untrue."""
    header = _header(doc.data, "overlay")
    if not any(isinstance(header.get(key), str) for _, key, _ in _RETITLE):
        return data, prov
    own = dict(_header(data, "ruleset"))
    rprov = prov.children.get("ruleset") if isinstance(prov.children, dict) else None
    kids = dict(rprov.children) if rprov is not None and isinstance(rprov.children, dict) else {}
    for target, key, append in _RETITLE:
        text = header.get(key)
        if isinstance(text, str):
            before = str(own.get(target, "")).rstrip()
            own[target] = f"{before} {text}".strip() if append else text
            kids[target] = Prov(doc, ("overlay", key))
    node = Prov(rprov.doc if rprov else doc, rprov.path if rprov else ("ruleset",), kids)
    return dict(data, ruleset=own), Prov(prov.doc, prov.path, dict(prov.children, ruleset=node))


def _without_default(base: dict, bprov: Prov | None):
    """A child is not its base: `ruleset.default` is never inherited."""
    header = base.get("ruleset")
    if not isinstance(header, dict) or "default" not in header:
        return base, bprov
    base = dict(base, ruleset={k: v for k, v in header.items() if k != "default"})
    if bprov is not None and isinstance(bprov.children, dict) and "ruleset" in bprov.children:
        hp = bprov.children["ruleset"]
        kids = {k: v for k, v in (hp.children or {}).items() if k != "default"}
        bprov = Prov(bprov.doc, bprov.path, dict(bprov.children, ruleset=Prov(hp.doc, hp.path, kids)))
    return base, bprov


def unique(diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics without repeats, in file order."""
    seen, out = set(), []
    for d in diagnostics:
        key = (d.code, d.pos, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return sorted(out, key=sort_key)


def resolve_ruleset(ref: str, overlays: Sequence[str] = ()) -> tuple[Ruleset | None, list[Diagnostic]]:
    """Resolve and check a ruleset; the ruleset whenever resolution itself succeeded.

    Unlike `check_ruleset`, the ruleset is returned even when the schema found errors in
    it, so that `lint` can go on to report what the model finds too.
    """
    found = files.find_ruleset(ref)
    if found.path is None:
        return None, found.diagnostics
    res = _Resolution()
    got = res.ruleset(found.path)
    if got is None:
        return None, unique(res.diagnostics)
    data, prov = got
    game = _header(data, "ruleset").get("game", "")
    for name in overlays:
        data, prov = res.overlay(name, data, prov, game, found.path, None)
    top = files.load_document(found.path).data
    ruleset = Ruleset(files.ruleset_id(found.path), found.path, data, prov, res.order,
                      res.overlays, top.get("extends") if isinstance(top.get("extends"), str) else None)
    res.diagnostics += schema.check_resolved(ruleset)
    return ruleset, unique(res.diagnostics)


def check_ruleset(ref: str, overlays: Sequence[str] = ()) -> tuple[Ruleset | None, list[Diagnostic]]:
    """Resolve a ruleset and check it (YAML, schema, resolution); every problem found.

    The ruleset is None when there is an error.
    """
    ruleset, diagnostics = resolve_ruleset(ref, overlays)
    if any(d.is_error for d in diagnostics):
        return None, diagnostics
    return ruleset, diagnostics


def load_ruleset(ref: str, overlays: Sequence[str] = ()) -> Ruleset:
    """The resolved ruleset; raises `RulecraftError` carrying every problem if it has errors."""
    ruleset, diagnostics = check_ruleset(ref, overlays)
    if ruleset is None:
        raise RulecraftError(diagnostics)
    return ruleset
