"""Golden lines of play (Tri Peaks, Pyramid, Klondike): a deal (or, without one, the
file's scenario position), moves from its start, hand-worked scores. The format:
`deal:` (every card in dealing order) and `lines:`, each with `moves`, optional `scores`
(after each move), `seconds` (the clock at each move, as a front end sets it), `score`,
`breakdown` (by rule), `illegal`, `legal` (the exact list of
legal move texts at the end), `ruleset`/`with`, and `end` facts: `over`, `reason`,
`round`, `board` (cards on it), `face_down`, `stock`, `waste` (its top), `stock_top`, `zones.<name>` (a count;
a list of counts for a row of zones), and counters by name.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

_GAMES: dict = {}


def cases(folder: Path):
    """One pytest param per line of every golden file in `folder`."""
    for path in sorted(folder.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for name, line in (data.get("lines") or {}).items():
            yield pytest.param(path, data, line, id=f"{path.name}::{name}")


def game_of(ref: str, overlays: tuple):
    """The compiled game of a ruleset with overlays, built once per test session."""
    from engine.kernel import Game
    from engine.rules import load_ruleset
    from engine.rules.model import compile_model

    if (ref, overlays) not in _GAMES:
        model, problems = compile_model(load_ruleset(ref, overlays))
        assert model is not None, problems
        _GAMES[ref, overlays] = Game(model)
    return _GAMES[ref, overlays]


def play_line(path: Path, data: dict, line: dict):
    """Play the line from the start of the file's deal (or, without one, from the
    file's position) and check everything it says."""
    if "deal" in data:
        ref = line.get("ruleset", data["ruleset"])
        overlays = tuple(line.get("with", data.get("with") or ()))
        state = game_of(ref, overlays).new_game(1, 0, deal=data["deal"])
    else:
        from engine.kernel.scenario import load_scenario

        state = load_scenario(path).state
    after, seconds = [], line.get("seconds")
    for i, move in enumerate(line.get("moves") or []):
        if seconds is not None:
            state.set_clock(seconds[i])
        state.apply(move)
        after.append(state.scores[0])
    if "scores" in line:
        assert after == line["scores"]
    if "score" in line:
        assert state.scores[0] == line["score"]
    if "breakdown" in line:
        got: dict = {}
        for event in state.events:
            got[event.rule] = got.get(event.rule, 0) + event.points
        assert got == line["breakdown"]
    legal = [m.text for m in state.legal_moves()]
    for move in _listed(line.get("illegal")):
        assert move not in legal
    if "legal" in line:
        assert legal == line["legal"]
    for fact, value in (line.get("end") or {}).items():
        assert fact_of(state, fact) == value, fact
    return state


def _listed(value) -> list:
    return [] if value is None else value if isinstance(value, list) else [value]


def fact_of(state, fact: str):
    """One `end` fact of a state."""
    if fact.startswith("zones."):
        rows = state.zones[state.game.model.zones.find(fact[6:]).key]
        counts = [len(z) for z in rows]
        return counts if len(counts) > 1 else counts[0]
    facts = {
        "over": lambda: state.is_over,
        "reason": lambda: state.round.reason,
        "round": lambda: state.round.number,
        "board": lambda: state.board.count,
        "face_down": lambda: state.board.face_down,
        "stock": lambda: len(state.pool),
        "stock_top": lambda: state.pool[-1].name,
        "waste": lambda: state.pile[-1].name if state.pile else None,
        "waste_count": lambda: len(state.pile),
    }
    if fact in facts:
        return facts[fact]()
    return getattr(state.counters, fact)
