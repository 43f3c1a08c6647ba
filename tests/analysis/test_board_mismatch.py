"""Issue #17, item 7: pieces a board kind cannot hold are a load-time error (R443), and
`lint --simulate` reports an engine crash as L601 with the move and the seed, never as its
own exit 2. The rulesets are the issue's reproducers."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from engine.cli import app
from engine.topology import BOARD_KINDS
from engine.topology.chain import Chain, ChainBoard

runner = CliRunner()

# The line-of-play game written with the kinds there were: 2-corner tiles.
LINE_OF_PLAY = """\
ruleset: {{game: lineplay, title: Two-ended tiles on a {kind} board}}
players: {{min: 2, max: 4, default: 2}}
components:
  tiles: {{kind: corner_tiles, corners: 2, values: {{min: 0, max: 6}}}}
board: {board}
setup:
  hand_size: {{2: 7, 3: 5, 4: 5}}
actions:
  place: {{kind: place}}
  draw: {{kind: draw, if: not can_place and pool.count > 0, ends_turn: false}}
  pass: {{kind: pass, if: not can_place and pool.count == 0}}
scoring:
  going_out: {{on: round_end, to: winner, points: sum(p.hand_value for p in opponents)}}
round:
  end:
    went_out: {{if: player.hand_count == 0, winner: mover}}
    blocked: {{if: round.passes_in_row >= players.count}}
match:
  end_if: true
"""


def write(tmp_path, kind: str, board: str | None = None):
    path = tmp_path / f"{kind}.yaml"
    path.write_text(LINE_OF_PLAY.format(kind=kind, board=board or f"{{kind: {kind}}}"), encoding="utf-8")
    return path


@pytest.mark.parametrize("kind, board, needs", [
    ("triangular", None, "need 3 numbers each"),
    ("square", "{kind: square, size: 7}", "is not a numbered token"),
])
def test_pieces_the_board_cannot_hold_are_a_lint_error_at_their_line(tmp_path, kind, board, needs):
    path = write(tmp_path, kind, board)
    result = runner.invoke(app, ["lint", str(path)])
    assert result.exit_code == 1, result.output
    assert f"{path}:4:" in result.output and "error[R443]" in result.output and needs in result.output
    for command in (["simulate", str(path), "--games", "1"], ["lint", str(path), "--simulate", "2"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 1 and "Traceback" not in result.output and "R443" in result.output


def test_the_same_game_on_a_chain_lints_clean_and_plays(tmp_path):
    path = write(tmp_path, "chain")
    assert runner.invoke(app, ["lint", str(path), "--simulate", "3"]).exit_code == 0
    result = runner.invoke(app, ["simulate", str(path), "--games", "3"])
    assert result.exit_code == 0, result.output


class _Breaking(ChainBoard):
    """A chain whose fourth tile breaks the engine: the bug `lint --simulate` must survive."""

    def apply_placement(self, placement):
        if self.count == 3:
            raise IndexError("tuple index out of range")
        super().apply_placement(placement)

    def clone(self):
        new = _Breaking(self.rule, self.crosswise)
        new.__dict__.update(super().clone().__dict__)
        return new


class _BreakingChain(Chain):
    kind = "breaking_chain"

    def new_board(self):
        return _Breaking(self.spinner_rule, self.crosswise)


def test_an_engine_crash_in_play_is_l601_with_the_move_and_the_seed(tmp_path, monkeypatch):
    monkeypatch.setitem(BOARD_KINDS, "breaking_chain", _BreakingChain)
    path = write(tmp_path, "breaking_chain")
    result = runner.invoke(app, ["lint", str(path), "--simulate", "2"])
    assert result.exit_code == 1, result.output
    # one L601 per message: each names its seed, the move being played and the error
    for seed in (0, 1):
        assert f"error[L601] 1 of 2 games failed (seeds {seed}): internal error while playing move " in result.output
    assert result.output.count("IndexError: tuple index out of range") == 2
    assert "(`place " in result.output and "replay it with `--games 1 --seed 0`" in result.output
    assert "Traceback" not in result.output and "internal error: IndexError" not in result.stderr


class _Unbuildable(Chain):
    kind = "unbuildable_chain"

    def learn_pieces(self, pieces):
        raise IndexError("tuple index out of range")


def test_an_engine_crash_setting_up_the_game_is_l601_too(tmp_path, monkeypatch):
    monkeypatch.setitem(BOARD_KINDS, "unbuildable_chain", _Unbuildable)
    path = write(tmp_path, "unbuildable_chain")
    result = runner.invoke(app, ["lint", str(path), "--simulate", "2"])
    assert result.exit_code == 1, result.output
    assert "error[L601] the game cannot be set up: internal error: IndexError" in result.output
