"""Merging one file's content over resolved data, keeping provenance.

Mappings merge deeply; scalars and lists replace; `{$append: [...]}` and
`{$prepend: [...]}` extend a base list; `$delete: [keys]` inside a mapping removes keys
of the base. An override that sets the value it replaces is reported (a warning).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Sequence

from engine.diagnostics import Diagnostic, Severity, closest, define
from engine.rules.yamlload import Document

R_REDUNDANT = define(
    "R404", "redundant-override", "an override sets the value it replaces", Severity.WARNING
)
R_NOT_LIST = define("R405", "append-non-list", "`$append`/`$prepend` on a value that is not a list")
R_DIRECTIVE = define("R406", "bad-directive", "a misused `$append`, `$prepend` or `$delete`")
R_DELETE_MISSING = define(
    "R407", "delete-missing", "`$delete` names a key the base does not have", Severity.WARNING
)

MISSING = object()
_LIST_DIRECTIVES = ("$append", "$prepend")


@dataclass
class Prov:
    """Provenance of one resolved value, mirroring its shape: where it was set."""

    doc: Document
    path: tuple
    children: Any = None  # dict of Prov for a mapping, list of Prov for a list
    # A mapping's keys removed by `$delete`: key -> where the `$delete` names it, so that a
    # problem the removal causes is reported in the file that removed it.
    deleted: dict | None = None

    def find(self, path: tuple) -> "Prov | None":
        node: Prov | None = self
        for step in path:
            kids = node.children if node else None
            if isinstance(kids, dict) and step in kids:
                node = kids[step]
            elif isinstance(kids, list) and isinstance(step, int) and 0 <= step < len(kids):
                node = kids[step]
            else:
                return None
        return node



def canonical_json(data: Any) -> str:
    """Sorted keys (all as strings), no spaces: equal data gives equal text."""
    return json.dumps(string_keys(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def string_keys(value: Any) -> Any:
    """The same data with every mapping key as a string (JSON's and the schema's view)."""
    if isinstance(value, dict):
        return {str(k): string_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [string_keys(v) for v in value]
    return value


def _same(a: Any, b: Any) -> bool:
    # True == 1 in Python; a ruleset distinguishes them.
    return canonical_json(a) == canonical_json(b) if type(a) is type(b) else False


class Merger:
    """Merges one file's content over resolved data, tracking provenance."""

    def __init__(self, doc: Document, diagnostics: list[Diagnostic], label: str):
        self.doc = doc
        self.out = diagnostics
        self.label = label  # "overlay" or "ruleset", for messages

    def merge(self, base: Any, bprov: Prov | None, over: Any, dpath: tuple) -> tuple[Any, Prov]:
        """`over` (at `dpath` in this file) merged over `base`: the new value and its provenance."""
        if isinstance(over, dict) and any(k in over for k in _LIST_DIRECTIVES):
            return self._list_directive(base, bprov, over, dpath)
        if isinstance(over, dict):
            if not isinstance(base, dict):
                base, bprov = {}, None
            return self._mapping(base, bprov, over, dpath)
        # A child restates its header's game by design; elsewhere, a repeat is a no-op.
        if base is not MISSING and _same(base, over) and bprov is not None and dpath[:1] != ("ruleset",):
            where = bprov.doc.where(*bprov.path)
            self._report(R_REDUNDANT, dpath,
                         f"this {self.label} sets `{_dotted(dpath)}` to the value it already has"
                         + (f" (set at {where})" if where else ""),
                         "remove the line, or change the value")
        if isinstance(over, list):
            merged = [self.merge(MISSING, None, item, dpath + (i,)) for i, item in enumerate(over)]
            return [v for v, _ in merged], Prov(self.doc, dpath, [p for _, p in merged])
        return over, Prov(self.doc, dpath)

    def _mapping(self, base: dict, bprov: Prov | None, over: dict, dpath: tuple):
        result = dict(base)
        kids = dict(bprov.children) if bprov is not None and isinstance(bprov.children, dict) else {}
        deleted = dict(bprov.deleted or {}) if bprov is not None else {}
        for i, key in enumerate(self._delete_keys(over, dpath)):
            if key in result:
                del result[key]
                kids.pop(key, None)
                deleted[key] = Prov(self.doc, dpath + ("$delete", i))
            else:
                self._report(R_DELETE_MISSING, dpath + ("$delete",),
                             f"`$delete` names `{key}`, which is not set here", "remove it from the list")
        for key, value in over.items():
            if key == "$delete":
                continue
            if isinstance(key, str) and key.startswith("$"):
                guess = closest(key, ("$append", "$prepend", "$delete"))
                self._report(R_DIRECTIVE, dpath + (key,), f"unknown merge directive `{key}`",
                             f"did you mean `{guess}`?" if guess else
                             "directives are `$append`, `$prepend` (for a list) and `$delete`",
                             key=True)
                continue
            result[key], kids[key] = self.merge(result.get(key, MISSING), kids.get(key), value,
                                                dpath + (key,))
        own = bprov if bprov is not None else Prov(self.doc, dpath)
        gone = {k: v for k, v in deleted.items() if k not in result} or None
        return result, Prov(own.doc, own.path, kids, gone)

    def _delete_keys(self, over: dict, dpath: tuple) -> list:
        keys = over.get("$delete", [])
        if isinstance(keys, list) and all(isinstance(k, (str, int)) for k in keys):
            return keys
        self._report(R_DIRECTIVE, dpath + ("$delete",), "`$delete` takes a list of keys",
                     "write `$delete: [key, ...]`")
        return []

    def _list_directive(self, base, bprov: Prov | None, over: dict, dpath: tuple):
        extra = [k for k in over if k not in _LIST_DIRECTIVES]
        if extra:
            self._report(R_DIRECTIVE, dpath + (extra[0],),
                         f"`{extra[0]}` cannot sit beside `$append`/`$prepend`",
                         "a list directive mapping holds only `$append` and `$prepend`", key=True)
        if base is MISSING:
            base, bprov = [], None
        elif not isinstance(base, list):
            key = next(k for k in _LIST_DIRECTIVES if k in over)
            self._report(R_NOT_LIST, dpath + (key,),
                         f"`{key}` extends a list, but `{_dotted(dpath)}` is a {_kind(base)}",
                         "give the value in full instead", key=True)
            return base, bprov
        parts: dict[str, tuple[list, list]] = {}
        for key in _LIST_DIRECTIVES:
            items = over.get(key, [])
            if not isinstance(items, list):
                self._report(R_DIRECTIVE, dpath + (key,), f"`{key}` takes a list", None)
                items = []
            merged = [self.merge(MISSING, None, item, dpath + (key, i)) for i, item in enumerate(items)]
            parts[key] = ([v for v, _ in merged], [p for _, p in merged])
        base_kids = list(bprov.children) if bprov is not None and isinstance(bprov.children, list) else [
            Prov(self.doc, dpath) for _ in base
        ]
        values = parts["$prepend"][0] + list(base) + parts["$append"][0]
        kids = parts["$prepend"][1] + base_kids + parts["$append"][1]
        return values, Prov(self.doc, dpath, kids)

    def _report(self, code, dpath: tuple, message: str, help: str | None, key: bool = False):
        pos = (self.doc.key_where(*dpath) if key else None) or self.doc.where(*dpath) or self.doc.near(*dpath)
        self.out.append(Diagnostic(code.code, message, pos, help=help))


def _dotted(path: Sequence) -> str:
    return ".".join(str(p) for p in path) or "(top)"


def _kind(value: Any) -> str:
    return {dict: "mapping", list: "list", str: "string", bool: "boolean", int: "integer"}.get(
        type(value), type(value).__name__
    )
