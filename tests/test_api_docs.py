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
        winner = None if fresh.winner is None else fresh.winner + 1  # rows count seats from 1
        assert (row["scores"], row["winner"]) == (fresh.scores, winner)


def test_board_svg_names_the_missing_renderer():
    state = engine.api.load("tripeaks").new_game(seed=1)
    import importlib.util

    if importlib.util.find_spec("engine.render") is None:
        with pytest.raises(ImportError, match="engine.render"):
            engine.api.board_svg(state)
    else:  # the web layer has landed: it draws SVG text
        assert "<svg" in engine.api.board_svg(state)
