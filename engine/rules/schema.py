"""Validating rulesets and overlays against the JSON schemas, with positioned diagnostics.

Every schema error is reported (jsonschema's `iter_errors`), each mapped by one small
function per keyword to an `S2xx` code at the position of the key or value at fault.
The ruleset schema lives in `schemas/` (found in a wheel too, via
`engine.paths.schemas_dir`); the overlay schema is derived from it
(`engine.rules.overlay_schema`), and the copy in `schemas/` is for editors only.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any, Callable

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from engine import paths
from engine.diagnostics import Diagnostic, Position, closest, define
from engine.rules.yamlload import Document
from engine.rules.merge import string_keys
from engine.rules.overlay_schema import FILE_KEYS, OVERLAY_HEADER, overlay_schema

S_UNKNOWN_KEY = define("S200", "unknown-key", "a key the format does not know at this place")
S_WRONG_TYPE = define("S201", "wrong-type", "a value of the wrong type")
S_MISSING_KEY = define("S202", "missing-key", "a required key is missing")
S_OUT_OF_RANGE = define("S203", "out-of-range", "a number or size outside its allowed range")
S_BAD_VALUE = define("S204", "bad-value", "a value that is not one of the allowed ones")
S_INVALID = define("S205", "invalid-value", "a value the schema rejects otherwise (e.g. a repeated item)")
S_UNDERSCORE = define("S206", "underscore-name", "a key that starts with `_`, which no name may")

SCHEMA_KINDS = ("ruleset", "overlay")
_TYPE_NAMES = {
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "boolean": "a boolean (true or false)",
    "object": "a mapping",
    "array": "a list",
    "null": "nothing",
}


@lru_cache(maxsize=None)
def load_schema(kind: str = "ruleset") -> dict:
    """The JSON schema for `ruleset` or `overlay` files (the overlay's derived from the ruleset's)."""
    if kind == "overlay":
        return overlay_schema(load_schema("ruleset"))
    with open(paths.schemas_dir() / f"{kind}.schema.json", encoding="utf-8") as handle:
        return json.load(handle)


@lru_cache(maxsize=None)
def _validator(kind: str) -> Draft202012Validator:
    return Draft202012Validator(load_schema(kind))


class _Locator:
    """Positions for instance paths, whichever source (a file or a resolved ruleset)."""

    def __init__(self, data: Any, where: Callable, key_where: Callable, near: Callable,
                 removed: Callable | None = None):
        self.data = data
        self._where, self._key_where, self._near = where, key_where, near
        self._removed = removed  # a resolved ruleset's `$delete` positions

    def removed(self, path, key) -> Position | None:
        """Where a `$delete` removed `key` from the mapping at `path`, if one did."""
        return self._removed(self.real_path(path), key) if self._removed else None

    def real_path(self, path) -> tuple:
        """The path with the data's own keys (an integer key is a string to the schema)."""
        out, node = [], self.data
        for step in path:
            if isinstance(node, dict):
                step = next((k for k in node if str(k) == str(step)), step)
                node = node.get(step)
            elif isinstance(node, list) and isinstance(step, int) and step < len(node):
                node = node[step]
            out.append(step)
        return tuple(out)

    def value(self, path) -> Position:
        real = self.real_path(path)
        return self._where(*real) or self._near(*real)

    def key(self, path) -> Position:
        real = self.real_path(path)
        return self._key_where(*real) or self._where(*real) or self._near(*real)


def check_document(doc: Document, kind: str) -> list[Diagnostic]:
    """Schema problems of one file (`kind`: `ruleset` or `overlay`)."""
    if not isinstance(doc.data, dict):
        return []
    cache = doc.__dict__.setdefault("_schema_checked", {})
    if kind not in cache:
        locator = _Locator(doc.data, doc.where, doc.key_where, doc.near)
        cache[kind] = underscore_names(doc) + validate(doc.data, kind, locator)
    return list(cache[kind])


def underscore_names(doc: Document) -> list[Diagnostic]:
    """S206 for every key, at any depth, that starts with `_`: author-chosen names become
    attributes of run-time objects, and `__class__` or `__dict__` would be Python's own."""
    out, stack = [], [((), doc.data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, list):
            stack.extend((path + (i,), item) for i, item in enumerate(value))
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and key.startswith("_"):
                    out.append(Diagnostic(S_UNDERSCORE.code, f"`{key}`: a name may not start"
                                          " with `_`", doc.key_where(*path, key) or doc.near(*path),
                                          help=f"rename it, e.g. `{key.strip('_') or 'x'}`"))
                stack.append((path + (key,), item))
    return sorted(out, key=lambda d: (d.pos.line, d.pos.col) if d.pos else (0, 0))


def check_resolved(ruleset) -> list[Diagnostic]:
    """Schema problems of a resolved ruleset, at the positions that set each value.

    Sections are validated one by one and their errors remembered by content: a folder
    of variants of one base validates the base's sections once.
    """
    locator = _Locator(ruleset.data, ruleset.where, ruleset.key_where, ruleset.near,
                       getattr(ruleset, "removed_where", None))
    plain = string_keys(ruleset.data)
    errors = list(_top_validator().iter_errors(plain))
    for key, value in plain.items():
        if key not in load_schema("ruleset")["properties"]:
            continue  # reported as an unknown key above
        cache_key = (key, json.dumps(value, sort_keys=True))
        found = _section_errors.get(cache_key)
        if found is None:
            if len(_section_errors) > 10_000:
                _section_errors.clear()
            found = list(_section_validator(key).iter_errors(value))
            _section_errors[cache_key] = found
        errors += [_Prefixed(e, key) for e in found]
    out: list[Diagnostic] = []
    for error in errors:
        out += _HANDLERS.get(error.validator, _other)(error, locator, plain)
    return out


_section_errors: dict[tuple, list] = {}


@lru_cache(maxsize=None)
def _top_validator() -> Draft202012Validator:
    root = load_schema("ruleset")
    complete = root["$defs"]["complete"]
    return Draft202012Validator({
        "type": "object",
        "properties": {k: True for k in root["properties"] if k not in FILE_KEYS},
        "additionalProperties": False,
        "required": ["ruleset", *complete["required"]],
    })


@lru_cache(maxsize=None)
def _section_validator(key: str) -> Draft202012Validator:
    root = load_schema("ruleset")
    required = root["$defs"]["complete"]["properties"].get(key, {})
    return Draft202012Validator({"$defs": root["$defs"], "allOf": [root["properties"][key], required]})


class _Prefixed:
    """A section's validation error seen from the top of the ruleset."""

    def __init__(self, error: ValidationError, key: str):
        self._error = error
        self.absolute_path = [key, *error.absolute_path]

    def __getattr__(self, name: str):
        return getattr(self._error, name)


def validate(data: Any, kind: str, locator: _Locator) -> list[Diagnostic]:
    """Every schema error of `data`, as diagnostics."""
    out: list[Diagnostic] = []
    plain = string_keys(data)
    for error in _validator(kind).iter_errors(plain):
        handler = _HANDLERS.get(error.validator, _other)
        out += handler(error, locator, plain)
    return out


def _dotted(path) -> str:
    return ".".join(str(p) for p in path) or "(top level)"


def _in(path) -> str:
    return f"in `{_dotted(path)}`" if len(path) else "at the top level"


def _is_list_schema(schema: dict) -> bool:
    return "$append" in schema.get("properties", {})


def _additional(error: ValidationError, loc: _Locator, _plain) -> list[Diagnostic]:
    schema = error.schema
    known = [k for k in schema.get("properties", {}) if not k.startswith("$")]
    patterns = schema.get("patternProperties", {})
    out = []
    for key in error.instance:
        if key in schema.get("properties", {}) or any(re.search(p, key) for p in patterns):
            continue
        path = list(error.absolute_path) + [key]
        where = _dotted(error.absolute_path)
        if _is_list_schema(schema):
            message, help = f"`{key}` cannot stand in place of a list at `{where}`", (
                "give a list, or `{$append: [...]}` / `{$prepend: [...]}`")
        elif re.search(r"[().\s]", key):
            message = f"`{key}` is not a valid key {_in(error.absolute_path)}"
            help = "a comma inside `{...}` ends the value: quote an expression that contains commas"
        elif not len(error.absolute_path) and key in FILE_KEYS and OVERLAY_HEADER in known:
            message = f"an overlay has no `{key}`"
            help = ("an overlay is applied over the ruleset that lists it or `--with`s it; "
                    "to build on a ruleset, write a ruleset with `extends:`")
        elif patterns and not known:
            message = f"`{key}` is not a valid name at `{where}`"
            help = "names are snake_case: lower-case letters, digits and `_`"
        else:
            message = f"unknown key `{key}` {_in(error.absolute_path)}"
            guess = closest(key, known)
            help = f"did you mean `{guess}`?" if guess else f"valid keys: {', '.join(known)}"
        out.append(Diagnostic(S_UNKNOWN_KEY.code, message, loc.key(path), help=help))
    return out


def _false(error: ValidationError, loc: _Locator, plain) -> list[Diagnostic]:
    # A key forbidden for this kind; jsonschema does not name the key, so find it.
    parent = plain
    for step in error.absolute_path:
        parent = parent[step]
    if not isinstance(parent, dict):
        return _other(error, loc, plain)
    kind = parent.get("kind")
    where = _dotted(error.absolute_path)
    return [
        Diagnostic(S_UNKNOWN_KEY.code, f"`{key}` is not a key of `{where}` of kind `{kind}`",
                   loc.key(list(error.absolute_path) + [key]),
                   help="remove it, or change the kind")
        for key, value in parent.items()
        if value is error.instance
    ]


def _type(error: ValidationError, loc: _Locator, _plain) -> list[Diagnostic]:
    expected = error.validator_value
    expected = expected if isinstance(expected, list) else [expected]
    if _is_list_schema(error.schema):
        wanted = "a list"
    elif set(expected) == {"integer", "boolean", "string"}:
        wanted = "an expression (an integer, a boolean or a string)"
    else:
        wanted = " or ".join(_TYPE_NAMES.get(t, t) for t in expected)
    actual = _describe(error.instance)
    path = _dotted(error.absolute_path)
    help = None
    if "integer" in expected and isinstance(error.instance, str) and re.fullmatch(r"-?\d+", error.instance):
        help = f"remove the quotes: {error.instance}"
    elif expected == ["object"] and isinstance(error.schema.get("properties"), dict):
        keys = [f"`{k}`" for k in error.schema["properties"] if not k.startswith("$")]
        help = f"write its keys under it, one a line, indented: {', '.join(keys)}" if keys else None
    return [Diagnostic(S_WRONG_TYPE.code, f"`{path}` must be {wanted}, not {actual}",
                       loc.value(error.absolute_path), help=help)]


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {json.dumps(value)[:40]}"
    if value is None:
        return "nothing (null)"
    return "a list" if isinstance(value, list) else "a mapping"


def _required(error: ValidationError, loc: _Locator, _plain) -> list[Diagnostic]:
    missing = [k for k in error.validator_value if k not in error.instance]
    path = list(error.absolute_path)
    return [
        Diagnostic(S_MISSING_KEY.code, f"missing required key `{key}` {_in(path)}",
                   loc.removed(path, key) or (loc.key(path) if path else loc.value(path)),
                   help=f"add `{key}:`")
        for key in missing
    ]


_RANGE_WORDS = {
    "minimum": "less than the minimum",
    "maximum": "more than the maximum",
    "exclusiveMinimum": "not above",
    "exclusiveMaximum": "not below",
    "minItems": "fewer items than the minimum",
    "maxItems": "more items than the maximum",
    "minLength": "shorter than the minimum length",
    "maxLength": "longer than the maximum length",
    "maxProperties": "more keys than the maximum",
}


def _range(error: ValidationError, loc: _Locator, _plain) -> list[Diagnostic]:
    path = _dotted(error.absolute_path)
    words = _RANGE_WORDS[error.validator]
    shown = error.instance if isinstance(error.instance, (int, float, str)) else _describe(error.instance)
    return [Diagnostic(S_OUT_OF_RANGE.code, f"`{path}` is {json.dumps(shown)}: {words} {error.validator_value}",
                       loc.value(error.absolute_path))]


def _min_properties(error: ValidationError, loc: _Locator, plain) -> list[Diagnostic]:
    if _is_list_schema(error.schema):
        return [Diagnostic(S_WRONG_TYPE.code, f"`{_dotted(error.absolute_path)}` must be a list, not an empty mapping",
                           loc.value(error.absolute_path))]
    return [Diagnostic(S_OUT_OF_RANGE.code, f"`{_dotted(error.absolute_path)}` must not be empty",
                       loc.value(error.absolute_path))]


def _enum(error: ValidationError, loc: _Locator, _plain) -> list[Diagnostic]:
    allowed = error.validator_value if error.validator == "enum" else [error.validator_value]
    guess = closest(str(error.instance), [str(a) for a in allowed])
    return [Diagnostic(
        S_BAD_VALUE.code,
        f"`{_dotted(error.absolute_path)}` is {json.dumps(error.instance)}; expected one of: "
        + ", ".join(str(a) for a in allowed),
        loc.value(error.absolute_path),
        help=f"did you mean `{guess}`?" if guess else None,
    )]


def _pattern(error: ValidationError, loc: _Locator, _plain) -> list[Diagnostic]:
    described = error.schema.get("description", "")
    return [Diagnostic(S_BAD_VALUE.code,
                       f"`{_dotted(error.absolute_path)}` is {json.dumps(error.instance)}, which is not allowed here",
                       loc.value(error.absolute_path), help=described or None)]


def _unique(error: ValidationError, loc: _Locator, _plain) -> list[Diagnostic]:
    items = error.instance
    repeated = next((x for i, x in enumerate(items) if x in items[:i]), None)
    return [Diagnostic(S_INVALID.code,
                       f"`{_dotted(error.absolute_path)}` lists {json.dumps(repeated)} more than once",
                       loc.value(error.absolute_path), help="each item may appear only once")]


def _other(error: ValidationError, loc: _Locator, _plain) -> list[Diagnostic]:
    return [Diagnostic(S_INVALID.code, f"`{_dotted(error.absolute_path)}`: {error.message[:200]}",
                       loc.value(error.absolute_path))]


_HANDLERS: dict[Any, Callable] = {
    "additionalProperties": _additional,
    None: _false,
    "type": _type,
    "required": _required,
    "minProperties": _min_properties,
    "enum": _enum,
    "const": _enum,
    "pattern": _pattern,
    "uniqueItems": _unique,
    **{name: _range for name in _RANGE_WORDS},
}
