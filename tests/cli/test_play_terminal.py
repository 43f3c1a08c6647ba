"""`rulecraft play` as a person sees it (issue #18) and never losing a game (#16 item 11),
with typer's CliRunner on the shipped games: plain text off a terminal, the best moves
by points, every move grouped, reasons for refused moves, undo, summaries, saving.

Golden values are worked out by hand from docs/games/triolet.md and the fact sheets.
Triolet, seed 0: P1's rack is 2 5 3 and the bag holds 75 (81 - 2 x 3).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cli import app

runner = CliRunner()


def run(*args, input=None, env=None):
    return runner.invoke(app, list(args), input=input, env=env)


@pytest.fixture(autouse=True)
def _terminal(monkeypatch):
    """A 30-line terminal: 17 board lines + 9 lines of status and prompt leave 4 moves."""
    monkeypatch.setenv("LINES", "30")
    monkeypatch.setenv("COLUMNS", "100")


def test_plain_screen_status_line_and_the_best_moves_by_points():
    result = run("play", "triolet", input="quit\nno\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "\x1b[" not in out  # not a terminal: plain text
    # H4, H12 are empty x2 cells: never drawn as a bare digit
    assert re.search(r"^H +B +\. +\. +x2 .* S .* x2 .* B +H$", out, re.M)
    assert "round 1  your turn   scores P1 0  P2 0   bag 75" in out
    assert "your rack: 2 5 3" in out
    # Best first: 3 and 5 as a pair through the S cell (x2) on H8: the line 3 + 5 = 8,
    # and the 5 on the x2 cell earns 5 more: 13. Four of the 34 moves fit, then a note.
    best = re.findall(r"^ +(\d)\. (place [^+]*?) +\+(\d+)", out, re.M)
    assert [int(p) for _, _, p in best] == [13, 13, 13, 13]
    assert best[0][1] == "place H7=3 H8=5"
    assert "... 30 more: `moves` lists them all" in out


def test_moves_lists_every_move_grouped_by_action():
    # 3 singles on H8, 6 ordered pairs x 4 places through H8 = 27 placements (no trio:
    # 2 + 5 + 3 = 10, not 15); the exchanges are the 7 non-empty subsets of the rack
    out = run("play", "triolet", input="moves\nquit\nno\n").output
    assert "place (27):" in out and "exchange (7):" in out
    assert " 1. H7=3 H8=5 +13" in out and "34. 2 3 5 +0" in out


def test_a_refused_pass_or_draw_says_why_not_the_place_parser():
    out = run("play", "triolet", input="pass\nquit\nno\n").output
    assert ("`pass` is not allowed now: the condition `pool.count <= 5` "
            "(rulesets/triolet/standard.yaml:70) does not hold") in out
    out = run("play", "triominos", input="draw\nquit\nno\n").output
    assert "`draw` is not allowed now: the condition `not can_place and pool.count > 0`" in out
    assert "expected" not in out


def test_at_slot_of_a_card_that_cannot_move_gives_the_board_kind_reason():
    out = run("play", "tripeaks", input="@5\n@27\n@99\nquit\nno\n").output
    # slot 5 lies at x=4 in the second row; 12 (x=3.5) and 13 (x=4.5) overlap it
    assert "`@5`: the card in slot 5 is covered by slots 12, 13" in out
    # 2h on the waste card Qs: ranks 2 and 12 are neither 1 nor 12 apart
    assert "`@27`: 2h cannot be played now: the condition `abs(card.rank" in out
    assert "`@99`: there is no slot 99 (0 to 27)" in out
    assert "unknown action" not in out


def test_undo_takes_back_the_move_and_the_reply_and_the_record_keeps_them(tmp_path):
    record = tmp_path / "undo.json"
    result = run("play", "triolet", "--record", str(record),
                 input="1\nundo\n2\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    # P2 (greedy) answers G7=12 G8=1: row G7-G8 12 + 1 = 13, column 7 12 + 3 = 15,
    # column 8 1 + 5 = 6: 34
    assert "P2: place G7=12 G8=1  +34" in out
    assert "taken back: 2 moves" in out
    assert "P1: place H8=5 H9=3  +13" in out  # the same 13 points, the pair laid across
    data = json.loads(record.read_text())
    assert data["undone"] == [{"after": 0, "moves": [
        {"move": "place H7=3 H8=5", "chances": [], "scores": [13, 0]},
        {"move": "place G7=12 G8=1", "chances": [], "scores": [13, 34]}]}]
    assert data["moves"][0]["move"] == "place H8=5 H9=3"
    replayed = run("replay", str(record))
    assert replayed.exit_code == 0, replayed.output


def test_undo_in_a_solitaire_and_nothing_to_undo_at_the_start():
    out = run("play", "tripeaks", input="undo\n1\nundo\nquit\nno\n").output
    assert "nothing to undo yet" in out
    # Jc on the waste Qs is the run's first card: +1; taken back, the score is 0 again
    assert "P1: play Jc  +1" in out and "taken back: 1 move" in out
    assert out.split("taken back")[1].count("scores P1 0 ") == 1


def test_a_huge_typed_number_is_refused_in_words():
    out = run("play", "tripeaks", input="9" * 5000 + "\nquit\nno\n").output
    assert "there is no move number 999999... (1 to 2)" in out


# Tri Peaks: the tableau (A, 8, 9, T, J above; J, Q, K in the exposed row), the waste 2s,
# and a stock of every 2 to 7
STUCK = ("As Ah Ad Ac 8s 8h 8d 8c 9s 9h 9d 9c Ts Th Td Tc Js Jh Jd Jc Qs Qh Qd Qc Ks Kh Kd Kc "
         "2s 2h 2d 2c 3s 3h 3d 3c 4s 4h 4d 4c 5s 5h 5d 5c 6s 6h 6d 6c 7s 7h 7d 7c")


def test_overlays_are_named_and_the_end_is_a_table_not_a_list():
    result = run("play", "triolet", "--with", "jokers", input="quit\nno\n")
    # the title (which an overlay may extend), the id, then the overlays that are on
    assert re.search(r"^Triolet, printed rules.* \(triolet/standard\) with jokers; 2 players",
                     result.output, re.M)
    out = run("play", "tripeaks", "--deal", STUCK, input="deal\n" * 23).output
    # no exposed J, Q or K is next to a waste card 2-7: 23 deals, then stuck with all 28
    # cards on the peaks; each deal costs 5, floored at 0
    assert "game over: not cleared, 28 cards left, score 0 (1 round)" in out
    assert "winner: nobody" not in out and "[" not in out.split("game over")[-1]


def test_a_round_summary_adds_up_per_rule_points():
    out = run("play", "triominos", "--seed", "1", input="1\n" * 300).output
    head = re.search(r"round 1 over: (P\d)(?: \(you\))? wins it \((\w[\w ]*)\)", out)
    assert head, out[-3000:]
    table = out[head.end():].split("round total")[0].strip().splitlines()[1:]
    rows = [[int(x) for x in re.findall(r"[+-]\d+", line)] for line in table]
    total = [int(x) for x in re.findall(r"[+-]\d+", out[head.end():].split("round total")[1]
                                                     .splitlines()[0])]
    assert [sum(col) for col in zip(*rows)] == total


def test_record_option_is_checked_before_the_game(tmp_path):
    missing = tmp_path / "no-such-dir" / "g.json"
    result = run("play", "triolet", "--record", str(missing), input="quit\n")
    assert result.exit_code == 2 and f"there is no folder {missing.parent}" in result.output
    assert "round 1" not in result.output
    existing = tmp_path / "old.json"
    existing.write_text("keep me")
    result = run("play", "triolet", "--record", str(existing), input="n\n")
    assert result.exit_code == 2 and existing.read_text() == "keep me"


def test_the_save_prompt_never_overwrites_without_asking(tmp_path):
    existing = tmp_path / "old.json"
    existing.write_text("keep me")
    new = tmp_path / "new.json"
    result = run("play", "tripeaks", input=f"quit\n{existing}\nn\n{new}\n")
    assert result.exit_code == 0, result.output
    assert f"{existing} exists; replace it?" in result.output
    assert existing.read_text() == "keep me" and new.exists()
    result = run("play", "tripeaks", input=f"quit\n{existing}\ny\n")
    assert json.loads(existing.read_text())["format"] == "rulecraft-record"


def test_json_prints_the_record_on_stdout():
    result = run("play", "tripeaks", "--json", input="1\nquit\n")
    assert result.exit_code == 0, result.output
    # (CliRunner echoes the typed input on stdout; a terminal does not)
    data = json.loads(result.stdout[result.stdout.index("{\n"):])
    assert data["moves"][0]["move"] == "play Jc" and data["agents"] == ["human"]


def test_the_default_opponent_is_the_search():
    # (a person beats greedy at once: docs/agents.md); its move is in the record
    result = run("play", "triominos", "--seed", "1", "--json", input="1\nquit\n")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout[result.stdout.index("{\n"):])
    assert data["agents"] == ["human", "mcts"]
    assert len(data["moves"]) >= 2 and data["moves"][1]["scores"][1] > 0  # it answered


def test_an_unexpected_error_writes_a_recovery_file_first(tmp_path, monkeypatch):
    # No real part of the engine fails on purpose: an agent with a bug stands in for one.
    import engine.players.agents as agents

    class Broken:
        def choose(self, state):
            raise RuntimeError("a bug")

    monkeypatch.setattr(agents, "make_agent", lambda spec, seed=0: Broken())
    monkeypatch.chdir(tmp_path)
    result = run("play", "triolet", input="1\n")
    # then the global handler's one line and exit 2
    assert result.exit_code == 2 and "internal error in rulecraft play: RuntimeError" in result.output
    saved = list(tmp_path.glob("rulecraft-recovered-*.json"))
    assert len(saved) == 1 and f"the game so far is saved in {saved[0]}" in result.output
    assert json.loads(saved[0].read_text())["moves"][0]["move"] == "place H7=3 H8=5"


def test_a_rule_failing_during_play_writes_a_recovery_file_and_exits_1(tmp_path, monkeypatch):
    # a real failure: the first play lays every token on the board, so the divisor is 0
    broken = tmp_path / "boom.yaml"
    broken.write_text("extends: triolet/standard\n"
                      "ruleset: {game: triolet, title: Triolet that fails}\n"
                      "scoring:\n  boom: {on: place, points: 100 // (board.count - move.count)}\n")
    monkeypatch.chdir(tmp_path)
    result = run("play", str(broken), input="1\n")
    assert result.exit_code == 1
    saved = list(tmp_path.glob("rulecraft-recovered-*.json"))
    assert len(saved) == 1 and f"the game so far is saved in {saved[0]}" in result.output
    assert "scoring rule `boom` failed: division by zero" in result.output
    assert run("replay", str(saved[0])).exit_code == 0


@pytest.mark.parametrize("game", sorted(p.name for p in
                                        (Path(__file__).parents[2] / "rulesets").iterdir()
                                        if p.is_dir()))
def test_every_shipped_game_plays_a_move_at_the_terminal(game):
    result = run("play", game, input="1\nmoves\nundo\nquit\nno\n")
    assert result.exit_code == 0, result.output
    assert "your turn" in result.output and "taken back" in result.output
    assert "Traceback" not in result.output and "bye" in result.output


def test_a_ruleset_without_undo_refuses_it_and_says_where(tmp_path):
    # tripeaks/pysol-scored sets `play.undo: false` (TP-13: PySolFC, scored)
    record = tmp_path / "scored.json"
    out = run("play", "tripeaks/pysol-scored", "--record", str(record),
              input="1\nundo\nquit\n").output
    refusal = "this ruleset does not allow undo (`play.undo: false`, rulesets/tripeaks/pysol-scored.yaml:"
    assert out.count(refusal) == 2  # at the start, and when typed
    assert "taken back" not in out
    data = json.loads(record.read_text())
    assert len(data["moves"]) == 1 and "undone" not in data


def test_undo_is_said_at_the_end():
    out = run("play", "tripeaks", input="1\nundo\n1\nquit\nno\n").output
    assert "1 move taken back with undo (kept in the record under `undone`)" in out
