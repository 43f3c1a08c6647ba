"""docs/api.md's notebook example runs as written, and engine.api's doctest."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

import engine.api

DOC = Path(__file__).resolve().parents[1] / "docs" / "api.md"


def _examples() -> list[str]:
    section = DOC.read_text(encoding="utf-8").split("# Kernel API")[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_the_documented_example_runs(capsys):
    (example,) = _examples()
    exec(compile(example, str(DOC), "exec"), {})
    assert capsys.readouterr().out.strip()  # it drew the board


def test_the_module_doctest():
    assert doctest.testmod(engine.api).failed == 0


def test_to_pandas_without_pandas_is_one_line():
    import subprocess
    import sys

    code = ("import sys; sys.modules['pandas'] = None; from engine import api;"
            " api.simulate('tripeaks', games=1).to_pandas()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=DOC.parents[1])
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "engine.extras.MissingExtra: Rows.to_pandas() needs pandas, which is not installed:"
        " pip install 'rulecraft[pandas]'")


def test_simulate_rows_are_simulate_games():
    """The API's rows are the CLI's games: the same seeds, the same scores."""
    from engine.analysis.runs import Spec, compile_spec, play_game

    rows = engine.api.simulate("triominos", games=3, seed=11, agents=["greedy", "random"])
    game = compile_spec(Spec("triominos"))
    for row in rows:
        fresh = play_game(game, 2, row["seed"], ["greedy", "random"])
        # one seat numbering: a row's winner is the kernel's seat index, from 0
        assert (row["scores"], row["winner"]) == (fresh.scores, fresh.winner)


def test_board_svg_draws_the_position():
    import xml.etree.ElementTree as ET

    state = engine.api.load("tripeaks").new_game(seed=1)
    root = ET.fromstring(engine.api.board_svg(state))
    assert root.tag.endswith("svg")
    classes = [e.get("class", "") for e in root.iter()]
    # Tri Peaks deals 28 cards to the tableau, the bottom row of 10 face up and the 18
    # above it face down (docs/games/tripeaks.md, the fact sheet's section 2.3)
    assert classes.count("slot exposed") == 10 and classes.count("piece back") == 18


def test_board_svg_leaves_the_state_as_it_was():
    state = engine.api.load("tripeaks").new_game(seed=1)
    before = state.key()
    picture = engine.api.board_svg(state, seat=0)
    assert picture.lstrip().startswith("<svg") or "<svg" in picture[:200]
    assert state.key() == before
