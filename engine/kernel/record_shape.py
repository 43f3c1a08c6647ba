"""Reading a record's JSON safely and checking its whole shape before anything reads it.

The text is parsed with limits (nesting depth, digits of a number, no key twice), then
validated against `schemas/record.schema.json` (printed by `rulecraft schema --record`);
every problem is a K5xx diagnostic naming the field (`ruleset.overlays[0]`) at the line
where that field (or move) is written.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Callable

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from engine import paths
from engine.diagnostics import Diagnostic, Position, define, printable

K_DUPLICATE_KEY = define("K507", "duplicate-record-key", "a JSON object of the record has the same key twice")
K_UNUSED_CHANCE = define("K508", "unused-chance", "the record holds chance outcomes that its moves never use")
K_RECORD_LIMIT = define("K509", "record-too-large",
                        "a record nested too deeply, or with a number of too many digits")

MAX_DEPTH = 32  # a record nests 4 levels deep (record, moves, a move, its chances)
MAX_DIGITS = 310  # 1024 bits; Python refuses to read an int of over 4,300 digits
_TYPES = {"integer": "an integer", "string": "a string", "boolean": "true or false",
          "object": "a mapping", "array": "a list", "null": "null", "number": "a number"}


class ShapeError(Exception):
    """The record's text breaks a limit or the format; carries (code, message, line)."""

    def __init__(self, code: str, message: str, line: int = 1):
        super().__init__(code, message, line)
        self.code, self.message, self.line = code, message, line


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ShapeError(K_RECORD_LIMIT.code,
                         f"a number of {len(text):,} digits; a record's numbers have at most"
                         f" {MAX_DIGITS}")
    return int(text)


def _object(pairs: list) -> dict:
    seen: dict = {}
    for key, value in pairs:
        if key in seen:
            raise ShapeError(K_DUPLICATE_KEY.code, f"the key `{printable(key)}` appears twice"
                             " in one object")
        seen[key] = value
    return seen


def parse_record_json(text: str):
    """The JSON value of `text`; raises ShapeError on a limit, ValueError if not JSON."""
    try:
        data = json.loads(text, parse_int=_int, object_pairs_hook=_object,
                          parse_constant=_no_constant)
    except RecursionError:
        raise ShapeError(K_RECORD_LIMIT.code, "nested too deeply to be a record") from None
    if _depth(data) > MAX_DEPTH:
        raise ShapeError(K_RECORD_LIMIT.code,
                         f"nested more than {MAX_DEPTH} levels deep: not a record")
    return data


def _no_constant(word: str):
    raise ShapeError("K501", f"`{word}` is not a JSON number")


def _depth(data) -> int:
    """How deeply lists and objects nest (without recursion: any depth is safe)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, level = stack.pop()
        if isinstance(value, (list, dict)):
            deepest = max(deepest, level)
            if level > MAX_DEPTH:
                return level
            items = value.values() if isinstance(value, dict) else value
            stack.extend((item, level + 1) for item in items)
    return deepest


@lru_cache(maxsize=1)
def record_schema() -> dict:
    """The JSON schema of records."""
    with open(paths.schemas_dir() / "record.schema.json", encoding="utf-8") as handle:
        return json.load(handle)


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    return Draft202012Validator(record_schema())


def field_name(path) -> str:
    """`ruleset.overlays[0]`, `moves[3].scores`: a field of the record in words."""
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else ("." if text else "") + str(step)
    return printable(text, newlines=False) or "the record"


def shape_problems(data, where: Callable[[tuple], Position]) -> list[Diagnostic]:
    """Every way `data` differs from the record schema, each at `where(path)`."""
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.path)))
    out = []
    for error in errors[:20]:  # a wholly wrong file would otherwise list every move
        path = tuple(error.absolute_path)
        out.append(Diagnostic("K502", _message(error, path), where(path)))
    return out


def _message(error: ValidationError, path: tuple) -> str:
    name, kind, want = field_name(path), error.validator, error.validator_value
    if kind == "required":
        missing = next((k for k in want if not isinstance(error.instance, dict)
                        or k not in error.instance), "?")
        return f"`{field_name(path + (missing,))}` is missing"
    if kind == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        return f"`{field_name(path + (extra[0],))}` is not a field of a record" if extra else name
    if kind == "type":
        wanted = " or ".join(_TYPES[t] for t in ([want] if isinstance(want, str) else want))
        return f"`{name}` must be {wanted}, found {_found(error.instance)}"
    if kind == "const":
        return f"`{name}` must be {json.dumps(want)}, found {_found(error.instance)}"
    if kind in ("minimum", "maximum"):
        return f"`{name}` must be at {'least' if kind == 'minimum' else 'most'} {want}"
    if kind in ("minLength", "maxLength"):
        return f"`{name}` must be {'at least' if kind == 'minLength' else 'at most'} {want} characters"
    return f"`{name}` does not fit the record format ({kind})"


def _found(value) -> str:
    if value is None:
        return "null"
    if type(value) is bool:
        return "true" if value else "false"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, list) else "a mapping"
