"""`explain`: why a move scored what it did, rule by rule, each with its file and line.

For a record, every move as it was played; for a scenario, every legal move of its
position. A move's points are the mover's score change; its breakdown is the mover's
score events, which the kernel guarantees add up to that change. Events for the other
players (a round's end settling hands, say) are listed apart.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from engine.analysis.phrases import counted


class NoSuchMove(ValueError):
    """`--move` names no move of the record or of the position (a usage error)."""


class NotAScenario(ValueError):
    """The file is a ruleset (or an overlay), not a record or a scenario (a usage error)."""


def _refuse_a_ruleset(path: str) -> None:
    """A ruleset's `ruleset:` is a mapping where a scenario's names one: say so plainly
    rather than let the mapping be read as a ruleset's name."""
    import yaml

    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return  # load_scenario reports it with its line
    if isinstance(data, dict) and isinstance(data.get("ruleset"), dict):
        raise NotAScenario("this is a ruleset, not a record or a scenario; explain"
                           " takes a record (play/simulate --record) or a scenario"
                           " (docs/scenarios.md). To see what a ruleset changes: `diff`")


@dataclass
class Explained:
    """One move: who played it, its points, and the events that make them up."""

    number: int  # 1-based: the move's place in the record, or in the legal-move list
    move: str
    seat: int
    points: int
    breakdown: list = field(default_factory=list)  # the mover's ScoreEvents
    others: list = field(default_factory=list)  # other players' ScoreEvents
    scores: list[int] = field(default_factory=list)  # after the move

    def as_dict(self, points_at: dict | None = None) -> dict:
        return {
            "number": self.number,
            "move": self.move,
            "player": self.seat,  # a seat from 0, as in rows and records
            "points": self.points,
            "breakdown": [_event(e, points_at or {}) for e in self.breakdown],
            "others": [_event(e, points_at or {}) for e in self.others],
            "scores": self.scores,
        }


def _event(e, points_at: dict) -> dict:
    return {
        "rule": e.rule,
        "label": e.detail,
        "points": e.points,
        "player": e.player,
        "where": _at(e.pos),
        "points_where": _at(points_at.get(e.rule)),
    }


def _at(pos) -> str | None:
    return f"{pos.path}:{pos.line}" if pos else None


@dataclass
class Explanation:
    """What `explain` reports about a record or a scenario."""

    source: str
    kind: str  # record | scenario
    ruleset: str
    moves: list[Explained]
    # rule -> where its `points` are written, which may be another file than the rule's
    # start when a ruleset or an overlay changes only the points
    points_at: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"source": self.source, "kind": self.kind, "ruleset": self.ruleset,
                "moves": [m.as_dict(self.points_at) for m in self.moves]}


def points_positions(ruleset) -> dict:
    """Where each scoring rule's `points` field is written."""
    rules = ruleset.data.get("scoring") or {}
    return {name: ruleset.where("scoring", name, "points") for name in rules}


def is_record(path: str | Path) -> bool:
    """Whether a file is a JSON record (else it is read as a YAML scenario)."""
    try:
        with open(path, encoding="utf-8") as handle:
            head = handle.read(4096).lstrip()
    except (OSError, UnicodeDecodeError):  # not text: load_record says why, if asked
        return False
    return head.startswith("{") and "rulecraft-record" in head


def explain_move(state, move, number: int) -> tuple[Explained, object]:
    """Apply `move` to `state` (in place) and explain it; returns the state too."""
    seat, before = state.to_move, list(state.scores)
    text = move if isinstance(move, str) else move.text
    events = state.apply(move)
    mine = [e for e in events if e.player == seat]
    others = [e for e in events if e.player != seat]
    points = state.scores[seat] - before[seat]
    return Explained(number, text, seat, points, mine, others, list(state.scores)), state


def explain_record(path: str, only: str | None = None) -> Explanation:
    """Every move of a record (or move `only`, 1-based), replayed under its ruleset."""
    from engine.analysis.runs import Spec, compile_spec
    from engine.diagnostics import Diagnostic, RulecraftError
    from engine.kernel.record import load_record, replay_record

    loaded = load_record(path)
    data = loaded.data
    rs = data["ruleset"]
    ref, overlays = rs.get("ref") or rs["id"], tuple(rs.get("overlays") or ())
    try:
        game = compile_spec(Spec(ref, overlays))
    except RulecraftError as exc:
        # Its diagnostics name only the ruleset or overlay: say which file asked for it.
        named = f"`{ref}`" + "".join(f" with `{o}`" for o in overlays)
        where = Diagnostic(exc.diagnostics[0].code if exc.diagnostics else "R400",
                           f"the ruleset this record names ({named}) cannot be loaded",
                           loaded.key_pos("ruleset"))
        raise RulecraftError([*exc.diagnostics, where]) from None
    try:
        replay_record(loaded, game, game.model.hash)  # a changed ruleset or a bad move: K5xx
    except RulecraftError as exc:
        raise RulecraftError([_explain_help(d) for d in exc.diagnostics]) from None
    chances = list(data["setup"]) + [c for m in data["moves"] for c in m.get("chances", [])]
    state = game.new_game(data["players"], data["seed"], chances=chances)
    wanted = _record_index(only, len(data["moves"]))
    moves = []
    for i, entry in enumerate(data["moves"]):
        explained, state = explain_move(state, entry["move"], i + 1)
        if wanted is None or wanted == i:
            moves.append(explained)
    return Explanation(str(path), "record", _name(rs.get("id"), rs.get("overlays")), moves,
                       points_positions(game.model.ruleset))


def _explain_help(diag):
    """K503's help names `replay --rescore`; explain has no such option, so say why."""
    from dataclasses import replace

    if diag.code != "K503":
        return diag
    return replace(diag, help="explain needs the rules the record was made with (restore"
                   f" them to explain it); {diag.help}")


def explain_scenario(path: str, only: str | None = None) -> Explanation:
    """Every legal move of a scenario's position (or move `only`: a number or a move text)."""
    from engine.kernel import IllegalMove
    from engine.kernel.scenario import load_scenario

    _refuse_a_ruleset(path)
    sc = load_scenario(path)
    legal = sc.state.legal_moves()
    picks = list(enumerate(legal))
    if only is not None:
        if only.lstrip("-").isdigit():
            # A number is a position in the legal list, never a move's text.
            if not 1 <= int(only) <= len(legal):
                raise NoSuchMove(f"the position has legal moves 1..{len(legal)}, not `{only}`")
            picks = [(int(only) - 1, legal[int(only) - 1])]
        else:
            try:
                found = sc.state.find_move(only)
            except IllegalMove as exc:
                raise NoSuchMove(f"`{only}` is not a legal move here ({exc}); "
                                 f"give a number 1..{len(legal)} or a move's text") from None
            picks = [(legal.index(found), found)]
    moves = [explain_move(sc.state.clone(), move, i + 1)[0] for i, move in picks]
    return Explanation(str(path), "scenario", _name(sc.ruleset.id, sc.ruleset.overlays), moves,
                       points_positions(sc.ruleset))


def _record_index(only: str | None, count: int) -> int | None:
    if only is None:
        return None
    if not only.isdigit() or not 1 <= int(only) <= count:
        raise NoSuchMove(f"the record has moves 1..{count}, not `{only}`")
    return int(only) - 1


def _name(ruleset_id, overlays) -> str:
    return "+".join([str(ruleset_id), *(overlays or [])])


def format_text(explanation: Explanation) -> str:
    """Each move, its points, then one line per rule: points, file:line, label."""
    lines = [f"{explanation.ruleset}: {counted(len(explanation.moves), 'move')} of {explanation.source}"]
    width = max([len(e.rule) + 3 for m in explanation.moves for e in m.breakdown + m.others]
                + [5])
    for m in explanation.moves:
        lines.append(f"{m.number:>4}. P{m.seat + 1} {m.move}: {m.points:+d}")
        lines += [_event_line(e, width, "", explanation.points_at) for e in m.breakdown]
        if len(m.breakdown) > 1:
            lines.append(f"        {'':<{width}} {'----':>6}")
            lines.append(f"        {'total':<{width}} {m.points:>+6d}")
        lines += [_event_line(e, width, f"P{e.player + 1} ", explanation.points_at)
                  for e in m.others]
    return "\n".join(lines)


def _event_line(e, width: int, who: str, points_at: dict) -> str:
    where = _at(e.pos) or "-"
    label = f"  {e.detail}" if e.detail else ""
    points = points_at.get(e.rule)
    if points and e.pos and points.path != e.pos.path:
        label += f"  (points: {_at(points)})"
    return f"        {who + e.rule:<{width}} {e.points:>+6d}  {where}{label}"


def format_json(explanation: Explanation) -> str:
    return json.dumps(explanation.as_dict(), indent=2)
