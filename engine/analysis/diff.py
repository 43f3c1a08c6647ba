"""`diff`: what differs between two resolved rulesets, as data and as plain sentences.

The comparison walks the two resolved data trees (after `extends` and overlays). Each
difference becomes a `Change` of one kind (a number, a value, an expression, a list, a
rule added or removed, a key added or removed) with the position that set it on each
side. The sentence is built from the data alone: the section, the rule's name and
`label`, the field, and the two values; nothing here knows any particular game.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from engine.diagnostics import Position, printable
from engine.analysis.phrases import describe, render, subject_of

KINDS = (
    "number", "value", "expression", "list",
    "rule_added", "rule_removed", "key_added", "key_removed",
)

# The header (title, description, sources, default) says what a ruleset is, not how the
# game plays; only its `game` matters, and that is checked on its own.
_SKIPPED = {("ruleset",)}

# Fields that hold expressions even when their text is a single word (`if: can_place`).
_EXPRESSION_FIELDS = {"if", "points", "end_if", "extra_turn", "may_also_open_with"}
_EXPRESSION_PARENTS = {"then", "define", "rank", "lowest", "highest"}
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

# Sections whose entries are named rules: an entry on one side only is a rule added or
# removed, not a key.
COLLECTIONS = {
    ("scoring",): "rule",
    ("actions",): "action",
    ("round", "end"): "round end",
    ("define",): "definition",
    ("counters",): "counter",
    ("components",): "component set",
}


@dataclass(frozen=True)
class Change:
    """One difference: its kind, where in the data, both values and positions, a sentence."""

    kind: str
    path: tuple
    a: Any
    b: Any
    a_pos: Position | None
    b_pos: Position | None
    text: str

    def as_dict(self) -> dict:
        return {
            "kind": self.kind,
            "path": list(self.path),
            "a": self.a,
            "b": self.b,
            "a_pos": _pos_dict(self.a_pos),
            "b_pos": _pos_dict(self.b_pos),
            "text": self.text,
        }


@dataclass
class RulesetDiff:
    """Every difference between ruleset `a` and ruleset `b`, in the order of `a`'s keys."""

    a: Any
    b: Any
    changes: list[Change] = field(default_factory=list)

    @property
    def same_game(self) -> bool:
        return self.a.game == self.b.game

    def as_dict(self) -> dict:
        return {
            "a": _about(self.a),
            "b": _about(self.b),
            "same_game": self.same_game,
            "identical": not self.changes,
            "changes": [c.as_dict() for c in self.changes],
        }


def diff_rulesets(a, b) -> RulesetDiff:
    """The differences between two resolved rulesets (`engine.rules.Ruleset`)."""
    result = RulesetDiff(a, b)
    _Walker(a, b, result.changes).walk(a.data, b.data, ())
    return result


class _Walker:
    def __init__(self, a, b, out: list[Change]):
        self.a, self.b, self.out = a, b, out

    def walk(self, x: Any, y: Any, path: tuple) -> None:
        if path in _SKIPPED or _same(x, y):
            return
        if isinstance(x, dict) and isinstance(y, dict):
            for key in list(x) + [k for k in y if k not in x]:
                self._key(x, y, key, path)
        elif isinstance(x, list) and isinstance(y, list):
            self._add("list", path, x, y)
        else:
            self._add(_scalar_kind(path, x, y), path, x, y)

    def _key(self, x: dict, y: dict, key, path: tuple) -> None:
        sub = path + (key,)
        named = path in COLLECTIONS
        if key in x and key in y:
            self.walk(x[key], y[key], sub)
        elif not named and isinstance(x.get(key, y.get(key)), dict):
            # a whole section on one side: say what is in it, entry by entry
            self.walk(x.get(key, {}), y.get(key, {}), sub)
        elif key in x:
            self._add("rule_removed" if named else "key_removed", sub, x[key], None)
        else:
            self._add("rule_added" if named else "key_added", sub, None, y[key])

    def _add(self, kind: str, path: tuple, x: Any, y: Any) -> None:
        a_pos = _position(self.a, path, x is None)
        b_pos = _position(self.b, path, y is None)
        subject = subject_of(path, self.a.data, self.b.data, COLLECTIONS)
        text = describe(kind, subject, x, y, expression=_is_expression_path(path))
        self.out.append(Change(kind, path, x, y, a_pos, b_pos, text))


def _scalar_kind(path: tuple, x: Any, y: Any) -> str:
    if _is_int(x) and _is_int(y):
        return "number"
    if isinstance(x, (dict, list)) or isinstance(y, (dict, list)):
        return "value"
    if _is_expression_path(path) or any(_is_expression_text(v) for v in (x, y)):
        return "expression"
    return "value"


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_expression_path(path: tuple) -> bool:
    if not path:
        return False
    last = path[-1]
    if last in _EXPRESSION_FIELDS:
        return True
    if path[0] == "define" and len(path) == 2:
        return True
    return any(p in _EXPRESSION_PARENTS for p in path[:-1] if isinstance(p, str))


def _is_expression_text(v: Any) -> bool:
    return isinstance(v, str) and not _WORD.fullmatch(v.strip())


def _same(x: Any, y: Any) -> bool:
    # json: `1 == True` in Python, but a number and a boolean are different rules.
    return type(x) is type(y) and _canonical(x) == _canonical(y)


def _canonical(v: Any) -> str:
    return json.dumps(v, sort_keys=True, default=str)


def _position(ruleset, path: tuple, missing: bool) -> Position | None:
    """Where `path` is set; for a side that lacks it, its nearest enclosing section."""
    if missing:  # the enclosing section in the last file that wrote it (a `$delete` there)
        return _last_writer(ruleset, path[:-1]) or ruleset.near(*path[:-1])
    if isinstance(_value_at(ruleset.data, path), (dict, list)):  # the key names it best
        return ruleset.key_where(*path) or ruleset.near(*path)
    return ruleset.where(*path) or ruleset.near(*path)


def _last_writer(ruleset, path: tuple) -> Position | None:
    from pathlib import Path

    from engine.rules import files

    if not path:
        return ruleset.where()
    for name in reversed(ruleset.files):
        doc = files.load_document(Path(name))
        found = doc.key_where(*path) if doc.ok else None
        if found is not None:
            return found
    return None


def _value_at(data: Any, path: tuple) -> Any:
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data


def _pos_dict(pos: Position | None) -> dict | None:
    if pos is None:
        return None
    return {"path": pos.path, "line": pos.line, "col": pos.col}


def _about(ruleset) -> dict:
    return {
        "id": ruleset.id,
        "overlays": list(ruleset.overlays),
        "game": ruleset.game,
        "title": ruleset.title,
        "hash": ruleset.hash,
        "files": list(ruleset.files),
    }


def format_text(result: RulesetDiff) -> str:
    """The differences as numbered sentences, each with `A: file:line  B: file:line`."""
    a, b = result.a, result.b
    lines = [f"A: {_name(a)} ({a.title})", f"B: {_name(b)} ({b.title})"]
    if not result.changes:
        lines.append("The two rulesets play the same: no rule differs.")
        return printable("\n".join(lines))
    count = len(result.changes)
    lines.append(f"{count} difference{'s' if count != 1 else ''} (B compared with A):")
    for i, change in enumerate(result.changes, 1):
        lines.append(f"{i:3}. {change.text}")
        lines.append(f"     A: {_short(change.a_pos)}   B: {_short(change.b_pos)}")
    return printable("\n".join(lines))  # titles and values are the authors' words


def _name(ruleset) -> str:
    return "+".join([ruleset.id, *ruleset.overlays])


def _short(pos: Position | None) -> str:
    return f"{pos.path}:{pos.line}" if pos else "-"


__all__ = ["Change", "RulesetDiff", "diff_rulesets", "format_text", "render", "KINDS"]
