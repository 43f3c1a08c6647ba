"""The `chain` board kind: open ends, spinners, the Fives count, text forms, geometry.

Expected values come from shared/rules/dominoes.md (section numbers in each test), worked
out by hand in the comments.
"""

from __future__ import annotations

import pytest

from engine.pieces import build_pieces
from engine.topology import BOARD_KINDS
from engine.topology.chain import ChainBoard
from engine.topology.chain_layout import render

TILES = build_pieces({"tiles": {"kind": "corner_tiles", "corners": 2, "values": {"min": 0, "max": 6}}})
BY_NAME = {p.name: p for p in TILES}


def board(text: str = "", spinners: str = "first", crosswise: bool = True) -> ChainBoard:
    b = ChainBoard(spinners, crosswise)
    if text:
        b.load_position(text, TILES)
    return b


def hand(*names: str):
    return [BY_NAME[n] for n in names]


def texts(b: ChainBoard, *names: str) -> list[str]:
    return [p.text for p in b.iter_placements(hand(*names), not b.count, None)]


def test_a_double_six_set_is_corner_tiles_with_two_corners():
    # 1: (6 + 1)(6 + 2) / 2 = 28 tiles, 6 * 7 * 8 / 2 = 168 pips, 7 doubles
    assert len(TILES) == 28 and sum(p.value for p in TILES) == 168
    assert sum(p.distinct == 1 for p in TILES) == 7


def test_any_tile_may_be_the_set_and_its_halves_start_w_and_e():
    b = board()
    assert texts(b, "5-5", "2-4") == ["2-4", "5-5"]  # by uid, whatever the hand's order
    (set_,) = [p for p in b.iter_placements(hand("2-4"), True, None)]
    b.apply_placement(set_)
    assert b.end_items() == [("W", 2), ("E", 4)] and b.ends == [2, 4]


def test_legal_plays_are_the_tiles_matching_an_open_end():
    # 7.6: ends 3 (W) and 5 (E); hand 5-2, 4-4, 1-6: only 5-2 on E
    b = board("set: 3-5")
    assert texts(b, "2-5", "4-4", "1-6") == ["2-5@E"]
    assert texts(b, "3-4", "0-5") == ["3-4@W", "0-5@E"]
    # 3.2: a tile matching two open ends may go on either; the move names the end
    assert texts(board("set: 3-3", spinners="none"), "3-4") == ["3-4@W", "3-4@E"]


def test_the_fives_count_of_the_spinner_set_example():
    # 7.1: row by row, the count after each play
    b = board("set: 5-5")
    assert b.ends == [10]  # the double once, both halves
    b.load_position("", TILES)
    steps = [("0-5@E", [10, 0]), ("5-6@W", [6, 0]), ("4-5@N", [6, 0, 4]), ("0-0@E", [6, 0, 4]),
             ("1-5@S", [6, 0, 4, 1])]
    for move, ends in steps:
        placement = b.parse_placement(move, TILES, False, None)
        b.apply_placement(placement)
        assert b.ends == ends, move
        assert b.check_invariants() == []
    assert sum(b.ends) == 11 and b.open_ends == [6, 0, 4, 1]


def test_a_later_spinner_opens_n_and_s_once_its_far_side_is_covered():
    # 7.2: set 6-4 (W 6, E 4); 4-4 on E is the first double: 6 + 8 = 14
    b = board("set: 6-4; E: 4-4")
    assert b.ends == [6, 8] and b.spinners == 1 and "N" not in b.arms
    assert texts(b, "3-4") == ["3-4@E"]
    b.apply_placement(b.parse_placement("1-4@e", TILES, False, None))  # arm names ignore case
    assert b.ends == [6, 1] and b.open_ends == [6, 1, 4, 4]  # N and S show 4, count nothing
    b.apply_placement(b.parse_placement("3-4@N", TILES, False, None))
    assert sum(b.ends) == 10  # 6 + 1 + 3


def test_without_spinners_a_double_is_a_plain_tile_in_the_line():
    # 7.2, Muggins: no N, and after 4-1 no end shows 4 or 3
    b = board("set: 6-4; E: 4-4 4-1", spinners="none")
    assert b.spinners == 0 and list(b.arms) == ["W", "E"] and texts(b, "3-4") == []
    # 7.3: a double set counts 10 while one side is free, then only the tips count
    b = board("set: 5-5; E: 5-0", spinners="none")
    assert b.ends == [10, 0]


def test_every_double_spins_and_later_spinners_name_their_arms_after_the_tile():
    b = board("set: 5-5; W: 5-6; E: 5-0 0-0 0-3", spinners="every")
    assert list(b.arms) == ["W", "E", "N", "S", "0-0.N", "0-0.S"]
    assert b.end_items()[-2:] == [("0-0.N", 0), ("0-0.S", 0)] and b.spinners == 2


def test_crosswise_false_counts_a_double_at_a_tip_once():
    assert board("set: 2-4; E: 4-4", spinners="none", crosswise=False).ends == [2, 4]
    assert board("set: 2-4; E: 4-4", spinners="none").ends == [2, 8]  # 7.4: 2 + 8 = 10


def test_typed_moves_say_why_they_are_refused():
    b = board("set: 6-6*; E: 6-3")
    with pytest.raises(ValueError, match="no open end N"):
        b.parse_placement("2-6@N", TILES, False, None)  # 7.6: both sides not yet covered
    with pytest.raises(ValueError, match="does not match end E, which shows 3"):
        b.parse_placement("2-6@E", TILES, False, None)
    with pytest.raises(ValueError, match="no tile 1-2 in the hand"):
        b.parse_placement("1-2@E", hand("2-6"), False, None)
    with pytest.raises(ValueError, match="expected TILE@END"):
        b.parse_placement("2-6 on W", TILES, False, None)
    assert b.parse_placement("6-2@w", TILES, False, None).text == "2-6@W"  # halves in any order
    assert b.parse_placement("2-6", hand("2-6"), False, None).text == "2-6@W"  # one end only


def test_positions_round_trip_and_keys_compare_contents():
    text = "set: 5-5*\nW: 5-6\nE: 5-0 0-0\nN: 5-4\nS: 5-1"
    b = board(text)
    assert b.dump_position() == text
    again = board(b.dump_position())
    assert again.key() == b.key() and again.ends == b.ends == [6, 0, 4, 1]
    assert b.clone().key() == b.key() and board("set: 5-5").key() != b.key()
    assert sorted(p.name for p in b.pieces_on_board()) == ["0-0", "0-5", "1-5", "4-5", "5-5", "5-6"]


@pytest.mark.parametrize("text, reason", [
    ("E: 5-0", "the first line must be the set"),
    ("set: 3-5; E: 4-4", "end E shows 5, not 4"),
    ("set: 3-5; E: 5-3", "is not in the set or is used twice"),
    ("set: 5-5; N: 5-4", "there is no open end N"),
    ("set: 3-5*", "only a double can be a spinner"),
    ("set: 3-5; E 5-0", "expected `ARM: TILE TILE ...`"),
])
def test_bad_positions_are_refused_with_a_reason(text, reason):
    with pytest.raises(ValueError, match=reason):
        board(text)


def test_a_clone_is_independent():
    b = board("set: 3-5")
    other = b.clone()
    other.apply_placement(other.parse_placement("0-5@E", TILES, False, None))
    assert b.count == 1 and other.count == 2 and b.ends == [3, 5]


def test_invariants_catch_a_tile_that_does_not_match_its_end():
    b = board("set: 3-5")
    b.lay(BY_NAME["4-4"], "E", 4, 4, False)  # `lay` checks nothing but the arm
    assert any("shows 4 against 5" in p for p in b.check_invariants())


def test_layout_positions_in_tile_halves():
    # set 5-5 crosswise at (0, 0), 1 half wide along the line; 5-0 on E starts at x = 0.5
    # and is 2 long: centre 1.5; 0-0 crosswise after it: centre 2.5 + 0.5 = 3.0; 5-6 on W:
    # centre -1.5, read left to right as 6|5; 5-4 on N starts at the spinner's top end,
    # y = -1 (a crosswise double is 2 halves across): centre y = -2, read top down 4, 5.
    lay = board("set: 5-5; W: 5-6; E: 5-0 0-0; N: 5-4").layout()
    spots = {t.piece.name: (t.x, t.y, t.vertical, t.halves, t.crosswise) for t in lay.tiles}
    assert spots == {
        "5-5": (0.0, 0.0, True, (5, 5), True),
        "5-6": (-1.5, 0.0, False, (6, 5), False),
        "0-5": (1.5, 0.0, False, (5, 0), False),
        "0-0": (3.0, 0.0, True, (0, 0), True),
        "4-5": (0.0, -2.0, True, (4, 5), False),
    }
    assert [t.piece.name for t in lay.tiles] == ["5-5", "5-6", "0-5", "0-0", "4-5"]  # as laid
    ends = {e.arm: (e.number, e.x, e.y, e.dx, e.dy) for e in lay.ends}
    assert ends == {"W": (6, -2.5, 0.0, -1, 0), "E": (0, 3.5, 0.0, 1, 0), "N": (4, 0.0, -3.0, 0, -1),
                    "S": (5, 0.0, 1.0, 0, 1)}


def test_the_text_drawing_marks_the_ends():
    text = BOARD_KINDS["chain"]({"kind": "chain"}).render_text(board("set: 3-5; E: 5-2 2-2", spinners="none"))
    lines = text.splitlines()
    assert lines[-1] == "open ends: W 3, E 2"
    assert "W   [3|5]   [5|2]" in text and lines[1].rstrip().endswith("E")
    assert "empty table" in BOARD_KINDS["chain"]({"kind": "chain"}).render_text(ChainBoard())


def test_random_games_keep_the_board_sound_and_its_text_forms_round_trip():
    # Every double a spinner on the double-nine set: arms open in every order. At every
    # move the position written out reads back as the same board, and it draws.
    import random

    from engine.kernel import Game
    from engine.rules import load_ruleset
    from engine.rules.model import compile_model

    model, _ = compile_model(load_ruleset("dominoes/all-fives", ("five-up", "double-nine")))
    game = Game(model)
    for seed in range(3):
        state, rng = game.new_game(3, seed), random.Random(seed)
        for _ in range(400):
            if state.is_over:
                break
            b = state.board
            assert b.check_invariants() == []
            again = game.topology.new_board()
            again.load_position(b.dump_position(), list(game.pieces))
            assert again.key() == b.key() and again.dump_position() == b.dump_position()
            assert len(b.layout().tiles) == b.count and game.topology.render_text(b)
            state.apply(rng.choice(state.legal_moves()))


def test_a_long_arm_turns_clockwise_once():
    # The crosswise set 3-3 leaves E at x = 0.5, with 8 halves to run along the row:
    # 3-6 (2, centre 1.5), 6-6 crosswise (1, centre 3.0), 6-2 (2, centre 4.5), 2-5 (2,
    # centre 6.5) leave 1; 5-0 would pass it, so it turns the corner: its 5 straight on at
    # x 7.5..8.5, its 0 below: centre (8.0, 0.5), read top down 5, 0; 0-4 then runs down
    # from y 1.5: centre (8.0, 2.5); the end is at (8.0, 3.5), growing down. W mirrors it
    # upwards: 1-2 leaves x = -7.5 and 2-4 turns up, centre (-8.0, -0.5), read 4, 2.
    b = board("set: 3-3*; W: 3-0 0-1 1-1 1-2 2-4; E: 3-6 6-6 6-2 2-5 5-0 0-4", spinners="none")
    spots = {t.piece.name: (t.x, t.y, t.vertical, t.halves) for t in b.layout().tiles}
    assert spots["0-5"] == (8.0, 0.5, True, (5, 0)) and spots["0-4"] == (8.0, 2.5, True, (0, 4))
    assert spots["2-4"] == (-8.0, -0.5, True, (4, 2)) and spots["2-5"] == (6.5, 0.0, False, (2, 5))
    east = next(e for e in b.layout().ends if e.arm == "E")
    assert (east.x, east.y, east.dx, east.dy) == (8.0, 3.5, 0, 1)
    straight = {t.piece.name: (t.x, t.y) for t in b.layout(turn=None).tiles}
    assert straight["0-5"] == (8.5, 0.0) and straight["0-4"] == (10.5, 0.0)


def test_the_styled_drawing_marks_the_last_tile_and_the_ends():
    b = board("set: 5-5; E: 5-0 0-0; W: 5-6; N: 5-4")
    placement = b.parse_placement("1-5@S", TILES, False, None)
    b.apply_placement(placement)
    runs = BOARD_KINDS["chain"]({"kind": "chain"}).render_runs(b, placement)
    styled = [(text, style) for line in runs for text, style in line if style in ("last", "open")]
    assert [t for t, s in styled if s == "last"] == ["5", "-", "1"]  # the 5-1 down S
    assert ("W", "open") in styled and styled[-1] == ("W 6, E 0, N 4, S 1", "open")


# -- the terminal drawing fits the terminal: a line turns only where it must -------------
# Columns: a tile half is 4 columns, so a tile along a row takes 8 (`[6|5]` and 3 blanks),
# a crosswise double 4; the set 6-6 (crosswise) is drawn at column 0, E's tiles at 8, 16, ...
LONG_EAST = "set: 6-6; E: 6-5 5-4 4-3 3-2 2-1 1-0 0-4 4-2 2-0; W: 6-1"


def _rows(text: str) -> list[str]:
    return text.splitlines()[:-1]  # (the last line lists the open ends)


def test_a_long_arm_runs_on_while_the_terminal_has_room():
    b = board(LONG_EAST, spinners="none")
    # The picture's layout turns E after 8 halves (4 tiles: 6-5 5-4 4-3 3-2).
    pictured = _rows(render(b))
    assert "[3|2]" in pictured[1] and "[2|1]" not in pictured[1]
    # In 80 columns W takes 12 (its mark and 1-6) and the double 4: E runs on for 7 tiles,
    # 6-5 ... 0-4 (x = 8 ... 56: 61 columns from W's mark), and 4-2 turns the corner down,
    # since an 8th tile along the row would end at column 81
    fitted = _rows(render(b, width=80))
    assert fitted[1] == "W   [1|6]   -   [6|5]   [5|4]   [4|3]   [3|2]   [2|1]   [1|0]   [0|4]   4"
    assert max(map(len, fitted)) <= 80
    # 4-2 turns the corner (its 4 on the row, its 2 below), 2-0 runs down, E under it
    assert [row[72:] for row in fitted[2:]] == ["-", "2", "", "2", "-", "0", "", "E"]


def test_a_line_that_fits_is_drawn_straight():
    b = board(LONG_EAST, spinners="none")
    rows = _rows(render(b, width=120))
    # one row of tiles between the double's two halves: 1 + 1 + 9 tiles, no turn
    assert len(rows) == 3 and rows[1].startswith("W   [1|6]") and rows[1].endswith("[2|0]   E")
    assert render(b, width=120) == render(b, width=10_000)


def test_a_terminal_too_narrow_for_any_straight_line_gets_the_picture_layout():
    b = board(LONG_EAST, spinners="none")
    assert render(b, width=30) == render(b)  # (it cannot fit: the picture's turns, no fewer)


def test_the_fitted_drawing_is_never_wider_than_the_pictures_and_turns_no_earlier():
    import random

    from engine.topology.chain_layout import fitted, layout_of, TURN, _width

    rng = random.Random(3)
    for game in range(40):  # random lines of play, with and without a spinner
        b = board(spinners="first" if game % 2 else "none")
        pool = list(TILES)
        rng.shuffle(pool)
        for _ in range(rng.randrange(3, 20)):
            moves = [m for m in b.iter_placements(pool, not b.count, None)]
            if not moves:
                break
            move = rng.choice(moves)
            b.apply_placement(move)
            pool = [p for p in pool if p not in move.pieces]
        for width in (60, 80, 100):
            got, pictured = fitted(b, width), layout_of(b, TURN)
            assert _width(got) <= max(width, _width(pictured))
            # W and E keep at least as many tiles on the set's row as in the picture
            on_row = [sum(t.arm in ("W", "E") and t.y == 0 for t in lay.tiles)
                      for lay in (got, pictured)]
            assert on_row[0] >= on_row[1]
            if _width(pictured) > width:
                continue
            assert _width(got) <= width  # whenever the picture's layout fits, this does
