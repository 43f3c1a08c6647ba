"""The overlay schema, derived from the ruleset schema (the one source of the format).

An overlay is a header (`overlay:`) and any subset of a ruleset's sections, merged over
the ruleset it is applied to. Its schema is the ruleset schema, changed in four general
ways and no other:

1. The header: the key `overlay`, defined by the ruleset schema's `$defs/overlay_header`
   (an overlay's own fields: `ruleset_title`, `title_append`, ..., and `game` and `title`
   always required), stands in place of `ruleset`, first and the one required key.
2. No file keys (`FILE_KEYS`: `extends`, `overlays`, which name the files a ruleset is
   built from): an overlay is applied over a ruleset, never built on files of its own.
3. No whole-ruleset requirements: the root's `allOf` (a ruleset without `extends` has
   every section, `$defs/complete`) and its other required keys are about a complete
   ruleset, and an overlay changes a part. The sections themselves require nothing (a
   child ruleset, with `extends`, changes a part too; a kind's conditions apply when
   `kind` is given), so an overlay may change any one key of any section.
4. `$defs` keeps the definitions the result still refers to, in their order.

Every section, with its merge directives (`$append`, `$prepend`, `$delete`) and its
kind-by-kind conditions, is the ruleset schema's own, unchanged. The overlay schema in
`schemas/` is this function's output, kept for editors (`$comment` says so);
`rulecraft schema --overlay --write` writes it, and tests/rules/test_schema.py fails when
it differs from the derivation.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

FILE_KEYS = ("extends", "overlays")
RULESET_HEADER, OVERLAY_HEADER = "ruleset", "overlay"
OVERLAY_HEADER_DEF = "overlay_header"
_REF = re.compile(r"^#/\$defs/([^/]+)")

IDENTITY = {
    "$comment": "Generated from ruleset.schema.json (engine/rules/overlay_schema.py): do not edit;"
                " change ruleset.schema.json, then run `rulecraft schema --overlay --write`.",
    "title": "Rulecraft overlay",
    "description": "A Rulecraft overlay: a small file of house rules merged over a ruleset"
                   " (see docs/authoring.md).",
}


def overlay_schema(ruleset: dict) -> dict:
    """The JSON schema of overlay files, from the JSON schema of ruleset files."""
    ruleset = copy.deepcopy(ruleset)
    out: dict[str, Any] = {}
    for key, value in ruleset.items():
        if key == "$id":
            out[key] = value.replace("ruleset.schema.json", "overlay.schema.json")
            out.update(IDENTITY)  # in this order whether the source has a `$comment` or not
        elif key in IDENTITY or key == "allOf":
            continue
        elif key == "properties":
            out[key] = _properties(value, ruleset["$defs"][OVERLAY_HEADER_DEF])
        elif key == "required":
            out[key] = [OVERLAY_HEADER]
        elif key != "$defs":
            out[key] = value
    out["$defs"] = _used_defs(out, ruleset["$defs"])
    return out


def _properties(sections: dict, header: dict) -> dict:
    out: dict[str, Any] = {}
    for key, value in sections.items():
        if key == RULESET_HEADER:
            out[OVERLAY_HEADER] = {"$ref": f"#/$defs/{OVERLAY_HEADER_DEF}",
                                   "description": header["description"]}
        elif key not in FILE_KEYS:
            out[key] = value
    return out


def _used_defs(root: dict, defs: dict) -> dict:
    """The definitions `root` refers to, directly or through other definitions."""
    used: set[str] = set()
    todo = _refs(root)
    while todo:
        name = todo.pop()
        if name not in used and name in defs:
            used.add(name)
            todo |= _refs(defs[name])
    return {name: value for name, value in defs.items() if name in used}


def _refs(node: Any) -> set[str]:
    """The names of the `$defs` that the `$ref`s inside `node` point to."""
    if isinstance(node, list):
        return set().union(*(_refs(item) for item in node))
    if not isinstance(node, dict):
        return set()
    found = set().union(*(_refs(value) for value in node.values()))
    match = _REF.match(node["$ref"]) if isinstance(node.get("$ref"), str) else None
    return found | {match.group(1)} if match else found


def overlay_schema_text(ruleset: dict) -> str:
    """The overlay schema as it is written in `schemas/overlay.schema.json`."""
    return json.dumps(overlay_schema(ruleset), indent=2) + "\n"
