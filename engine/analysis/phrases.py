"""Plain sentences for ruleset differences, built from the format's own vocabulary.

A sentence names its subject (a rule by its name and `label`, or a section), says what B
does, and what A did instead. The phrases know the generic keys of the ruleset format
(`points`, `if`, `on`, `to`, `winner`, `hand_size`, ...); any other field gets a plain
"sets `field` to ..." phrase, so a new format key never breaks `diff`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engine.diagnostics import counted  # noqa: F401 - where the CLI and analysis find it

# (family, field) -> (phrase of B's value, what A had "instead of"). `*` matches one key,
# named `{k}` in the phrase. A family is a collection (`scoring`, `round.end`, ...) or a
# top-level section.
_TEMPLATES: dict[tuple[str, str], tuple[str, str]] = {
    ("scoring", "points"): ("scores {v}", "{v}"),
    ("scoring", "if"): ("scores only when {v}", "when {v}"),
    ("scoring", "on"): ("is triggered by {v}", "{v}"),
    ("scoring", "to"): ("gives its points to {v}", "{v}"),
    ("scoring", "label"): ("is described as {v}", "{v}"),
    ("actions", "if"): ("is allowed when {v}", "when {v}"),
    ("actions", "kind"): ("is of the kind {v}", "{v}"),
    ("actions", "ends_turn"): ("ends the turn: {v}", "{v}"),
    ("actions", "extra_turn"): ("gives an extra turn when {v}", "when {v}"),
    ("actions", "then.*"): ("sets the counter `{k}` to {v}", "{v}"),
    ("actions", "max"): ("allows at most {v}", "{v}"),
    ("round.end", "if"): ("ends the round when {v}", "when {v}"),
    ("round.end", "winner"): ("gives the round to {v}", "{v}"),
    ("round.end", "winner.*"): ("gives the round to the {k} by {v}", "{v}"),
    ("define", ""): ("means {v}", "{v}"),
    ("counters", ""): ("starts at {v}", "{v}"),
    ("players", "min"): ("needs at least {v} players", "{v}"),
    ("players", "max"): ("takes at most {v} players", "{v}"),
    ("players", "default"): ("has {v} players unless told otherwise", "{v}"),
    ("setup", "hand_size.*"): ("deals hands of {v} with {k} players", "{v}"),
    ("setup", "hand_size"): ("deals hands of {v}", "{v}"),
    ("match", "end_if"): ("ends when {v}", "when {v}"),
    ("match", "winner"): ("goes to {v}", "{v}"),
    ("match", "winner.*"): ("goes to the {k} by {v}", "{v}"),
    ("limits", "*"): ("stops a game at `{k}` = {v}", "{v}"),
    ("zones", "*.name"): ("calls the {k} {v}", "{v}"),
}

# A constant condition reads better as "never"/"always" than as "when `false`".
_CONSTANT_IF = {
    "scoring": ("never scores", "scores whenever it is triggered"),
    "actions": ("is never allowed", "is always allowed"),
    "round.end": ("never ends the round", "ends the round after every turn"),
}

_SECTION_SUBJECTS = {
    "players": "a game",
    "setup": "the setup",
    "match": "the match",
    "limits": "the engine",
    "zones": "the game",
    "board": "the board",
}

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Subject:
    """What a change is about: `text` to start a sentence, its family and field path."""

    text: str
    family: str
    rest: tuple


def subject_of(path: tuple, a_data: dict, b_data: dict, collections: dict) -> Subject:
    """The subject of a change at `path`: a named rule with its label, or a section."""
    for prefix, noun in collections.items():
        n = len(prefix)
        if tuple(path[:n]) == prefix and len(path) > n:
            name = path[n]
            label = _label(b_data, path[: n + 1]) or _label(a_data, path[: n + 1])
            text = f"the {noun} `{name}`" + (f" ({label})" if label else "")
            return Subject(text, ".".join(prefix), tuple(path[n + 1:]))
    section = path[0] if path else ""
    text = _SECTION_SUBJECTS.get(section, f"`{section}`")
    return Subject(text, str(section), tuple(path[1:]))


def _label(data: dict, path: tuple) -> str:
    node: Any = data
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return ""
        node = node[key]
    label = node.get("label") if isinstance(node, dict) else None
    return label if isinstance(label, str) else ""


def describe(kind: str, subject: Subject, a: Any, b: Any, expression: bool = False) -> str:
    """The sentence for one change of `kind` (see `engine.analysis.diff.KINDS`)."""
    s = subject.text
    if kind == "rule_added":
        return _capital(f"B adds {s}: it {summary(subject, b)}.")
    if kind == "rule_removed":
        return _capital(f"B drops {s}; in A it {summary(subject, a)}.")
    if kind == "key_added":
        field = ".".join(str(k) for k in subject.rest)
        return _capital(f"{s} {phrase(subject, b, expression)} (A does not set `{field}`).")
    if kind == "key_removed":
        field = ".".join(str(k) for k in subject.rest)
        return _capital(f"{s}: B drops `{field}`; in A it {phrase(subject, a, expression)}.")
    sentence = _changed(subject, a, b, expression)
    if kind == "list":
        sentence += _list_delta(a, b)
    return _capital(sentence + ".")


def _changed(subject: Subject, a: Any, b: Any, expression: bool) -> str:
    new, old = phrase(subject, b, expression), phrase(subject, a, expression)
    if _constant_if(subject, a) or _constant_if(subject, b):
        return f"{subject.text} {new}; in A it {old}"
    alt = _template(subject)[1]
    return f"{subject.text} {new} instead of {_fill(alt, subject, a, expression)}"


def phrase(subject: Subject, value: Any, expression: bool = False) -> str:
    """What the field says with this value: `scores 50`, `is allowed when `...``."""
    if _constant_if(subject, value):
        never, always = _CONSTANT_IF[subject.family]
        return always if value else never
    return _fill(_template(subject)[0], subject, value, expression)


def summary(subject: Subject, entry: Any) -> str:
    """A whole rule in one clause: the phrase of each of its fields, in order."""
    if not isinstance(entry, dict):
        return phrase(subject, entry, True)
    parts = []
    for key, value in entry.items():
        if key == "label":
            continue
        sub = Subject(subject.text, subject.family, subject.rest + (key,))
        parts.append(phrase(sub, value, key in ("if", "points")))
    return ", ".join(parts) if parts else "has no fields"


def _constant_if(subject: Subject, value: Any) -> bool:
    return subject.rest == ("if",) and isinstance(value, bool) and subject.family in _CONSTANT_IF


def _template(subject: Subject) -> tuple[str, str, str]:
    """(phrase, "instead of" part, the key a `*` matched) for the subject's field."""
    keys = [str(k) for k in subject.rest]
    last = keys[-1] if keys else ""
    field = ".".join(keys)
    if (subject.family, field) in _TEMPLATES:
        return (*_TEMPLATES[(subject.family, field)], last)
    for i in range(len(keys)):  # one key replaced by `*`
        pattern = ".".join(keys[:i] + ["*"] + keys[i + 1:])
        if (subject.family, pattern) in _TEMPLATES:
            return (*_TEMPLATES[(subject.family, pattern)], keys[i])
    return (f"sets `{field}` to {{v}}" if field else "is {v}", "{v}", last)


def _fill(template: str, subject: Subject, value: Any, expression: bool) -> str:
    return template.format(v=render(value, expression), k=_template(subject)[2])


def render(value: Any, expression: bool = False) -> str:
    """A value as a sentence shows it: `50`, `true`, `` `expr` ``, a ranking, a list."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        text = " ".join(value.split())
        if _WORD.fullmatch(text) and not expression:
            return text.replace("_", " ")
        return f"`{text}`"
    if isinstance(value, list):
        return "[" + ", ".join(render(v, True) for v in value) + "]"
    if isinstance(value, dict):
        return _render_mapping(value)
    return f"`{value}`"


def _render_mapping(value: dict) -> str:
    if len(value) == 1:
        (key, keys), = value.items()
        if key in ("lowest", "highest") and isinstance(keys, list) and keys:
            return f"the {key} " + ", then ".join(render(k, True) for k in keys)
    inner = ", ".join(f"{k}: {render(v, isinstance(v, str))}" for k, v in value.items())
    return "{" + inner + "}"


def _list_delta(a: list, b: list) -> str:
    rest_a, rest_b = list(a), list(b)
    for item in list(rest_a):
        if item in rest_b:
            rest_a.remove(item)
            rest_b.remove(item)
    parts = []
    if rest_b:
        parts.append("adds " + ", ".join(render(v, True) for v in rest_b))
    if rest_a:
        parts.append("removes " + ", ".join(render(v, True) for v in rest_a))
    return f" ({'; '.join(parts)})" if parts else " (the same items in another order)"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
