"""Golden lines of play for Tri Peaks: a deal, moves from its start, hand-worked scores.

A scenario file under this folder may hold, besides the position and `expect:` cases
that the shared golden runner checks, a `deal:` (the 52 cards in dealing order: the
tableau row by row from the top, the first waste card, the stock from the top) and
`lines:`, each a list of moves played from the start of that deal with:

- `scores`: the score after each move (optional), `score`: the score at the end;
- `breakdown`: the points of the whole game by rule, round-start rules included;
- `illegal`: a move that must then be illegal;
- `end`: facts about the state at the end (`over`, `reason`, `round`, `board`, `stock`,
  `face_down`, counters by name);
- `ruleset` / `with`: to play the line under another ruleset or overlays.

Every number was worked out by hand from shared/rules/tripeaks.md (see each file's
comments), never copied from the engine.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

HERE = Path(__file__).parent
_GAMES: dict = {}


def _cases():
    for path in sorted(HERE.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for name, line in (data.get("lines") or {}).items():
            yield pytest.param(data, line, id=f"{path.name}::{name}")


def _game(ref: str, overlays: tuple):
    from engine.kernel import Game
    from engine.rules import load_ruleset
    from engine.rules.model import compile_model

    if (ref, overlays) not in _GAMES:
        model, problems = compile_model(load_ruleset(ref, overlays))
        assert model is not None, problems
        _GAMES[ref, overlays] = Game(model)
    return _GAMES[ref, overlays]


def _start(data: dict, line: dict):
    ref = line.get("ruleset", data["ruleset"])
    overlays = tuple(line.get("with", data.get("with") or ()))
    return _game(ref, overlays).new_game(1, 0, deal=data["deal"])


@pytest.mark.parametrize("data, line", list(_cases()))
def test_line(data, line):
    state = _start(data, line)
    after = []
    for move in line["moves"]:
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
    if "illegal" in line:
        assert line["illegal"] not in [m.text for m in state.legal_moves()]
    for fact, value in (line.get("end") or {}).items():
        assert _fact(state, fact) == value, fact


def _fact(state, fact: str):
    facts = {
        "over": lambda: state.is_over,
        "reason": lambda: state.round.reason,
        "round": lambda: state.round.number,
        "board": lambda: state.board.count,
        "stock": lambda: len(state.pool),
        "face_down": lambda: state.board.face_down,
        "waste": lambda: state.pile[-1].name,
    }
    if fact in facts:
        return facts[fact]()
    return getattr(state.counters, fact)


def _dealt_positions():
    for path in sorted(HERE.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if "deal" in data and "board" in data:
            yield pytest.param(data, id=path.name)


@pytest.mark.parametrize("data", list(_dealt_positions()))
def test_the_position_is_the_deal(data):
    """A file's written position is the start of its deal (so both say the same)."""
    state = _start(data, {})
    assert state.board.dump_position().split() == str(data["board"]).split()
    assert [p.name for p in state.pile] == data["pile"]
    assert [p.name for p in reversed(state.pool)] == data["pool"]
