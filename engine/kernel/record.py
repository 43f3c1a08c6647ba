"""Game records: a JSON file that replays a match exactly.

A record holds the format version, the ruleset (id, overlays, hash of the resolved
data), the seed, the players and agents, the chance outcomes of the setup, and for each
move its text, the chance outcomes it caused (a new round's shuffle, an exchange's
reshuffle), the scores after it and, for a ruleset that reads `clock`, the seconds of
play at it (absent in older records: the clock then reads 0). One move per line, so an
error can name its line.
Moves a player took back (`undo` in play) are kept apart, in `undone`: each entry says
after how many of the kept moves they were played; replay reads only `moves`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.diagnostics import CODES, Diagnostic, Position, RulecraftError, define
from engine.kernel.moves import IllegalMove
from engine.kernel.record_shape import K_UNUSED_CHANCE, ShapeError, parse_record_json, shape_problems

FORMAT = "rulecraft-record"
VERSION = 1

K_BAD_RECORD = define("K501", "bad-record", "the record is not a JSON record of this format")
K_RECORD_FIELD = define("K502", "record-field", "a field of the record is missing or has the wrong type")
K_RULESET_CHANGED = define(
    "K503", "ruleset-changed", "the ruleset has changed since the record was made"
)
K_ILLEGAL_MOVE = define("K504", "illegal-recorded-move", "a recorded move is not legal when replayed")
K_SCORE_MISMATCH = define("K505", "score-mismatch", "replaying gives other scores than recorded")
K_BAD_CHANCE = define("K506", "bad-chance", "a recorded chance outcome does not fit the game")


def make_record(state, ruleset_id: str, overlays=(), ruleset_hash: str = "",
                agents=(), ref: str | None = None, undone=()) -> dict:
    """The record of a state's match so far (or complete). `ref` is how to load the
    ruleset again when it is not its id (a file outside the shipped rulesets); `undone`
    lists the moves taken back, as `{"after": kept moves before them, "moves": [...]}`."""
    rs = {"id": ruleset_id, "overlays": list(overlays), "hash": ruleset_hash}
    if ref and ref != ruleset_id:
        rs["ref"] = ref
    record = {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": rs,
        "seed": state.seed,
        "players": state.n,
        "agents": list(agents),
        "setup": state.setup_chances,
        "moves": state.history,
        "final": {"scores": list(state.scores), "over": state.is_over, "winner": state.winner},
    }
    if undone:
        record["undone"] = [dict(entry) for entry in undone]
    return record


def dumps(record: dict) -> str:
    """JSON text with one move per line."""
    head = {k: v for k, v in record.items() if k not in ("moves", "final")}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value)},")
    lines.append('  "moves": [')
    moves = record.get("moves", [])
    for i, move in enumerate(moves):
        lines.append("    " + json.dumps(move) + ("," if i < len(moves) - 1 else ""))
    lines.append("  ],")
    lines.append(f'  "final": {json.dumps(record.get("final"))}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def save_record(path: str | Path, record: dict) -> None:
    Path(path).write_text(dumps(record), encoding="utf-8")


@dataclass
class Loaded:
    """A parsed record and where each move is written (for messages)."""

    data: dict
    path: str
    move_lines: list[int]
    key_lines: dict[str, tuple[int, int]] = field(default_factory=dict)  # top-level key -> its line

    def move_pos(self, index: int) -> Position:
        line = self.move_lines[index] if index < len(self.move_lines) else 1
        return Position(self.path, line, 1)

    def field_pos(self, path: tuple) -> Position:
        """Where a field (a path of keys and indexes) is written: its move's line, or its
        top-level key's."""
        if len(path) > 1 and path[0] == "moves" and isinstance(path[1], int):
            return self.move_pos(path[1])
        return self.key_pos(str(path[0])) if path else Position(self.path)

    def key_pos(self, key: str) -> Position:
        """Where a top-level field is written (1:1 if the file is laid out otherwise)."""
        line, col = self.key_lines.get(key, (1, 1))
        return Position(self.path, line, col)


def _fail(code, message: str, pos: Position | None, help: str | None = None):
    raise RulecraftError([Diagnostic(code.code, message, pos, help)])


# The JSON parser's own messages, in the project's words (the position is given apart).
_JSON_PROBLEMS = (
    ("Expecting value", "a value (a number, string, list or object) is missing here"),
    ("Extra data", "there is more text after the record's closing brace"),
    ("Unterminated string", "a string is not closed with a double quote"),
    ("Expecting property name", "a key must be a string in double quotes"),
    ("Expecting ',' delimiter", "a comma is missing between two items"),
    ("Expecting ':' delimiter", "a colon is missing after a key"),
    ("Invalid control character", "a string holds a raw control character (write it escaped)"),
    ("Invalid \\escape", "a string holds an escape JSON does not have"),
)


def json_problem(message: str) -> str:
    """What is wrong with a JSON text, from the parser's message, in plain words."""
    for start, words in _JSON_PROBLEMS:
        if message.startswith(start):
            return words
    return "the text is not JSON"


def load_record(path: str | Path) -> Loaded:
    """Read and check a record file; raises RulecraftError (K501, K502, K507, K509)
    naming every problem of its shape before anything reads a field."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        _fail(K_BAD_RECORD, f"not UTF-8 text (byte {exc.start:,} cannot be read)", Position(name))
    except OSError as exc:
        _fail(K_BAD_RECORD, f"cannot read the record: {exc.strerror or 'unreadable'}",
              Position(name))
    try:
        data = parse_record_json(text)
    except ShapeError as exc:
        _fail(CODES[exc.code], exc.message, Position(name, exc.line))
    except json.JSONDecodeError as exc:
        _fail(K_BAD_RECORD, f"not valid JSON: {json_problem(exc.msg)}",
              Position(name, exc.lineno, exc.colno))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        _fail(K_BAD_RECORD, f"not a {FORMAT} file (no `\"format\": \"{FORMAT}\"`)", Position(name))
    version = data.get("version")
    if type(version) is not int or version != VERSION:  # `true` == 1 in Python: not a version
        _fail(K_BAD_RECORD, f"record version {json.dumps(version)}; this engine reads {VERSION}",
              Position(name))
    rows = text.splitlines()
    lines = [i + 1 for i, line in enumerate(rows) if line.lstrip().startswith('{"move"')]
    loaded = Loaded(data, name, lines, _key_lines(rows, data))
    problems = shape_problems(data, loaded.field_pos)
    if problems:
        raise RulecraftError(problems)
    return loaded


def _key_lines(rows: list[str], data: dict) -> dict[str, tuple[int, int]]:
    """(line, column) of each top-level key, as `dumps` writes them: one per line."""
    found: dict[str, tuple[int, int]] = {}
    quoted = {key: json.dumps(key) + ":" for key in data}
    for i, row in enumerate(rows):
        stripped = row.lstrip()
        if not stripped.startswith('"') or stripped.startswith('{"move"'):
            continue
        for key, text in quoted.items():
            if key not in found and stripped.startswith(text):
                found[key] = (i + 1, len(row) - len(stripped) + 1)
    return found


@dataclass
class Replay:
    """The outcome of replaying a record."""

    state: Any
    problems: list[Diagnostic]
    changed: bool  # the ruleset hash differs from the recorded one


def _rulesets_options() -> str:
    """` --rulesets DIR` for each folder this run was given, so that advice works as typed."""
    import shlex

    from engine.rules.files import given_roots

    return "".join(f" --rulesets {shlex.quote(str(root))}" for root in given_roots())


def _apply_entry(state, entry: dict) -> None:
    """One recorded move, made at its recorded clock reading (absent: the clock is left
    as it is, 0 before any)."""
    if "seconds" in entry:
        state.set_clock(entry["seconds"])
    state.apply(entry["move"])


def replay_record(loaded: Loaded, game, ruleset_hash: str, rescore: bool = False) -> Replay:
    """Replay a record on `game`. Without `rescore`, a changed ruleset stops with K503 and
    any difference in scores is K505; with it, the moves are re-scored under the current
    rules and the moves no longer legal are reported (K504), stopping at the first."""
    d = loaded.data
    changed = bool(d["ruleset"].get("hash")) and d["ruleset"]["hash"] != ruleset_hash
    if changed and not rescore:
        _fail(K_RULESET_CHANGED,
              f"the ruleset `{d['ruleset']['id']}` has changed since this record was made",
              loaded.key_pos("ruleset"),
              f"`rulecraft replay {loaded.path} --rescore{_rulesets_options()}` scores the"
              " same moves under the current rules")
    chances = list(d["setup"]) + [c for m in d["moves"] for c in m.get("chances", [])]
    try:
        state = game.new_game(d["players"], d["seed"], chances=chances)
    except ValueError as exc:
        _fail(K_BAD_CHANCE, f"the setup cannot be replayed: {exc}", loaded.key_pos("setup"))
    problems: list[Diagnostic] = []
    for i, entry in enumerate(d["moves"]):
        pos = loaded.move_pos(i)
        try:
            _apply_entry(state, entry)
        except IllegalMove as exc:
            diag = Diagnostic(K_ILLEGAL_MOVE.code, f"moves[{i}] `{entry['move']}`: {exc}", pos)
            if not rescore:
                raise RulecraftError([diag]) from None
            problems.append(diag)
            break
        except ValueError as exc:
            _fail(K_BAD_CHANCE, f"moves[{i}] `{entry['move']}`: {exc}", pos)
        if not rescore and state.scores != entry["scores"]:
            _fail(K_SCORE_MISMATCH,
                  f"moves[{i}] `{entry['move']}`: scores {state.scores}, recorded {entry['scores']}",
                  pos)
    if not rescore and state.forced_chances:  # re-scored moves may well use fewer
        left = len(state.forced_chances)
        _fail(K_UNUSED_CHANCE, f"{left} recorded chance outcome{'s' if left > 1 else ''}"
              " left over after the last move: the record was edited or is not of this game",
              loaded.key_pos("moves"))
    return Replay(state, problems, changed)
