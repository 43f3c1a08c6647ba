"""Game records: a JSON file that replays a match exactly.

A record holds the format version, the ruleset (id, overlays, hash of the resolved
data), the seed, the players and agents, the chance outcomes of the setup, and for each
move its text, the chance outcomes it caused (a new round's shuffle, an exchange's
reshuffle) and the scores after it. One move per line, so an error can name its line.
Moves a player took back (`undo` in play) are kept apart, in `undone`: each entry says
after how many of the kept moves they were played; replay reads only `moves`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.diagnostics import Diagnostic, Position, RulecraftError, define
from engine.kernel.moves import IllegalMove

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

    def key_pos(self, key: str) -> Position:
        """Where a top-level field is written (1:1 if the file is laid out otherwise)."""
        line, col = self.key_lines.get(key, (1, 1))
        return Position(self.path, line, col)


def _fail(code, message: str, pos: Position | None, help: str | None = None):
    raise RulecraftError([Diagnostic(code.code, message, pos, help)])


def load_record(path: str | Path) -> Loaded:
    """Read and check a record file; raises RulecraftError (K501/K502) naming the problem."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        _fail(K_BAD_RECORD, f"cannot read the record: {exc}", Position(name))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        _fail(K_BAD_RECORD, f"not valid JSON: {exc.msg}", Position(name, exc.lineno, exc.colno))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        _fail(K_BAD_RECORD, f"not a {FORMAT} file (no `\"format\": \"{FORMAT}\"`)", Position(name))
    if data.get("version") != VERSION:
        _fail(K_BAD_RECORD, f"record version {data.get('version')!r}; this engine reads {VERSION}",
              Position(name))
    rows = text.splitlines()
    lines = [i + 1 for i, line in enumerate(rows) if line.lstrip().startswith('{"move"')]
    loaded = Loaded(data, name, lines, _key_lines(rows, data))
    _check_fields(loaded)
    return loaded


def _key_lines(rows: list[str], data: dict) -> dict[str, tuple[int, int]]:
    """(line, column) of each top-level key, as `dumps` writes them: one per line."""
    found: dict[str, tuple[int, int]] = {}
    for i, row in enumerate(rows):
        for key in data:
            quoted = json.dumps(key) + ":"
            if key not in found and row.lstrip().startswith(quoted):
                found[key] = (i + 1, len(row) - len(row.lstrip()) + 1)
    return found


def _want(cond: bool, message: str, pos: Position) -> None:
    if not cond:
        _fail(K_RECORD_FIELD, message, pos)


def _is_int_list(value) -> bool:
    return isinstance(value, list) and all(type(x) is int for x in value)


def _check_fields(loaded: Loaded) -> None:
    d, at = loaded.data, loaded.key_pos
    rs = d.get("ruleset")
    _want(isinstance(rs, dict) and isinstance(rs.get("id"), str),
          "`ruleset.id` is missing or not a string", at("ruleset"))
    _want(isinstance(rs.get("overlays", []), list), "`ruleset.overlays` is not a list",
          at("ruleset"))
    _want(type(d.get("seed")) is int, "`seed` is missing or not an integer", at("seed"))
    _want(type(d.get("players")) is int, "`players` is missing or not an integer", at("players"))
    _want(isinstance(d.get("setup"), list) and all(_is_int_list(c) for c in d["setup"]),
          "`setup` must be a list of chance outcomes (lists of piece numbers)", at("setup"))
    moves = d.get("moves")
    _want(isinstance(moves, list), "`moves` is missing or not a list", at("moves"))
    for i, move in enumerate(moves):
        pos = loaded.move_pos(i)
        _want(isinstance(move, dict) and isinstance(move.get("move"), str),
              f"moves[{i}]: no `move` text", pos)
        _want(isinstance(move.get("chances", []), list)
              and all(_is_int_list(c) for c in move.get("chances", [])),
              f"moves[{i}]: `chances` must be a list of lists of piece numbers", pos)
        _want(_is_int_list(move.get("scores")), f"moves[{i}]: `scores` must be a list of integers", pos)
    _check_undone(d.get("undone", []), at("undone"))


def _check_undone(undone, pos: Position) -> None:
    """`undone` (optional): taken-back moves, each entry `{"after": int, "moves": [...]}`."""
    _want(isinstance(undone, list), "`undone` must be a list", pos)
    for i, entry in enumerate(undone):
        ok = (isinstance(entry, dict) and type(entry.get("after")) is int
              and entry["after"] >= 0 and isinstance(entry.get("moves"), list)
              and all(isinstance(m, dict) and isinstance(m.get("move"), str)
                      for m in entry["moves"]))
        _want(ok, f"undone[{i}] must be {{\"after\": a move count, \"moves\": [moves]}}", pos)


@dataclass
class Replay:
    """The outcome of replaying a record."""

    state: Any
    problems: list[Diagnostic]
    changed: bool  # the ruleset hash differs from the recorded one


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
              f"`rulecraft replay {loaded.path} --rescore` scores the same moves under the"
              " current rules")
    chances = list(d["setup"]) + [c for m in d["moves"] for c in m.get("chances", [])]
    try:
        state = game.new_game(d["players"], d["seed"], chances=chances)
    except ValueError as exc:
        _fail(K_BAD_CHANCE, f"the setup cannot be replayed: {exc}", loaded.key_pos("setup"))
    problems: list[Diagnostic] = []
    for i, entry in enumerate(d["moves"]):
        pos = loaded.move_pos(i)
        try:
            state.apply(entry["move"])
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
    return Replay(state, problems, changed)
