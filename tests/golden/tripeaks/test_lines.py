"""Golden lines of play for Tri Peaks: a deal, moves from its start, hand-worked scores
(played and checked by tests/golden/lines.py, shared with the zone games).

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

from tests.golden.lines import cases, game_of, play_line

HERE = Path(__file__).parent


@pytest.mark.parametrize("path, data, line", list(cases(HERE)))
def test_line(path, data, line):
    play_line(path, data, line)


def _start(data: dict, line: dict):
    ref = line.get("ruleset", data["ruleset"])
    overlays = tuple(line.get("with", data.get("with") or ()))
    return game_of(ref, overlays).new_game(1, 0, deal=data["deal"])


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
