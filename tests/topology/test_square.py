"""The `square` board kind: the Triolet map, each legality rule, measures, the generator.

Expected values come from the fact sheet (shared/rules/triolet.md); the generator is
compared with a brute-force reference written independently here.
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from itertools import combinations, permutations, product
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.diagnostics import CODES, Position
from engine.pieces import Piece
from engine.topology import BOARD_KINDS
from engine.topology.square import Square
from engine.topology.styled import plain

ROOT = Path(__file__).resolve().parents[2]
STANDARD = yaml.safe_load((ROOT / "rulesets/triolet/standard.yaml").read_text())
PLACE = STANDARD["actions"]["place"]


def tokens(*values, jokers=0, start=0):
    """Rack pieces with these face values (and jokers), uids from `start`."""
    out = [Piece(start + i, "tokens", str(v), {"value": v, "joker": False})
           for i, v in enumerate(values)]
    out += [Piece(start + len(values) + j, "tokens", "J", {"value": 0, "joker": True})
            for j in range(jokers)]
    return out


@pytest.fixture(scope="module")
def topo() -> Square:
    return BOARD_KINDS["square"](STANDARD["board"])


@pytest.fixture(scope="module")
def rules(topo):
    return topo.compile_place(PLACE)


def board_with(topo, cells: dict[tuple[int, int], int]):
    """A board holding value `v` at each (x, y)."""
    board = topo.new_board()
    text = " ".join(f"{chr(65 + y)}{x + 1}={v}" for (x, y), v in cells.items())
    board.load_position(text, tokens(*cells.values(), start=1000))
    return board


# ------------------------------------------------------------------ the map (section 2)
SPECIAL = {
    "x2": [(7, 3), (4, 4), (10, 4), (3, 7), (11, 7), (4, 10), (10, 10), (7, 11)],
    "x3": [(4, 1), (10, 1), (1, 4), (13, 4), (1, 10), (13, 10), (4, 13), (10, 13)],
    "bis": [(7, 0), (1, 1), (13, 1), (0, 7), (14, 7), (1, 13), (13, 13), (7, 14)],
    "star": [(7, 7)],
}
NOTATION = {
    "x2": "D8 E5 E11 H4 H12 K5 K11 L8",
    "x3": "B5 B11 E2 E14 K2 K14 N5 N11",
    "bis": "A8 B2 B14 H1 H15 N2 N14 O8",
    "star": "H8",
}


def test_every_special_cell_of_the_fact_sheet(topo):
    found = {"x2": [], "x3": [], "bis": [], "star": []}
    for y in range(15):
        for x in range(15):
            a = topo.attrs[topo.index(x, y)]
            if a["start"]:
                assert a["multiplier"] == 2 and not a["extra_turn"]
                found["star"].append((x, y))
            elif a["multiplier"] == 2:
                found["x2"].append((x, y))
            elif a["multiplier"] == 3:
                found["x3"].append((x, y))
            elif a["extra_turn"]:
                found["bis"].append((x, y))
            else:
                assert a == {"multiplier": 1, "extra_turn": False, "start": False}
    for kind, cells in SPECIAL.items():
        assert sorted(found[kind]) == sorted(cells), kind
        labels = sorted(topo.label(topo.index(x, y)) for x, y in cells)
        assert labels == sorted(NOTATION[kind].split()), kind
    assert topo.starts == [topo.index(7, 7)]


def test_render_marks_premium_cells_and_shows_tokens(topo):
    board = board_with(topo, {(7, 7): 4, (8, 7): 11})
    text = topo.render_text(board).splitlines()
    assert text[0].split() == [str(n) for n in range(1, 16)]
    row_h = text[1 + 7].split()
    # H4 and H12 are empty x2 cells: drawn `x2`, never a bare `2` that reads as a token
    assert row_h == ["H", "B", ".", ".", "x2", ".", ".", ".", "4", "11", ".", ".", "x2", ".",
                     ".", "B", "H"]
    assert text[1].split()[8] == "B"  # A8, a bis cell, drawn by its legend mark


def test_styled_drawing_tells_tokens_last_play_and_premium_cells_apart(topo):
    board = board_with(topo, {(7, 7): 4, (8, 7): 11, (7, 8): 2})
    last = SimpleNamespace(cells=(topo.index(8, 7),))  # the last play laid H9=11
    row_h = topo.render_runs(board, last)[1 + 7]
    styled = [(t.strip(), s) for t, s in row_h if t.strip()]
    # legend marks in sorted order 2, 3, B, S are mark1..mark4; `.` is a plain cell
    assert styled[:5] == [("H", "axis"), ("B", "mark3"), (".", "empty"), (".", "empty"),
                          ("x2", "mark1")]
    assert styled[8:10] == [("4", "piece"), ("11", "last")]
    assert ("2", "piece") in topo.render_runs(board, last)[1 + 8]  # I8, a token 2
    assert plain(topo.render_runs(board)) == topo.render_text(board)


# ------------------------------------------------------------------ legality (section 5)
def legal(topo, rules, cells, hand, text, first=False):
    board = board_with(topo, cells)
    return board.parse_placement(text, tokens(*hand), first, rules)


def reason(topo, rules, cells, hand, text, first=False) -> str:
    with pytest.raises(ValueError) as err:
        legal(topo, rules, cells, hand, text, first)
    return str(err.value)


ROW = {(5, 5): 6, (6, 5): 2}  # F6=6 F7=2 on plain cells


def test_first_play_must_cover_the_star(topo, rules):
    assert legal(topo, rules, {}, [4, 11], "H8=4 H9=11", first=True).text == "H8=4 H9=11"
    assert legal(topo, rules, {}, [9], "H8=9", first=True).count == 1
    assert "start cell H8" in reason(topo, rules, {}, [4, 11], "H9=4 H10=11", first=True)


def test_one_line(topo, rules):
    assert "one row or one column" in reason(topo, rules, ROW, [7, 1], "F8=7 G9=1")
    assert legal(topo, rules, ROW, [7], "F8=7").lines[0].length == 3


def test_window_of_three(topo, rules):
    text = reason(topo, rules, {(6, 5): 1, (7, 5): 2}, [3, 4], "F6=3 F9=4")
    assert text == "the play spans 4 cells (F6-F9); it must lie within 3 consecutive cells"
    assert legal(topo, rules, {(6, 5): 1}, [3, 11], "F6=3 F8=11").lines[0].sum == 15


def test_no_gaps_except_tokens(topo, rules):
    text = reason(topo, rules, {(5, 5): 6}, [1, 2], "F7=1 F9=2")
    assert text == "a gap at F8: cells between played tokens must hold tokens"
    play = legal(topo, rules, {(6, 5): 2}, [6, 7], "F6=6 F8=7")
    assert [(l.length, l.new) for l in play.lines] == [(3, 2)]


def test_contact_is_orthogonal(topo, rules):
    touch = "the play must touch a token already on the board (orthogonally)"
    assert reason(topo, rules, ROW, [3], "G8=3") == touch  # diagonal to F7
    assert reason(topo, rules, ROW, [3], "E8=3") == touch
    assert reason(topo, rules, ROW, [3, 4], "J1=3 J2=4") == touch
    assert legal(topo, rules, ROW, [3], "G7=3").lines[0].sum == 5


def test_two_in_a_line_sum_to_at_most_15(topo, rules):
    assert legal(topo, rules, {(7, 7): 9}, [6], "H9=6").lines[0].sum == 15
    text = reason(topo, rules, {(7, 7): 9}, [7], "H9=7")
    assert text == "the row H8-H9 sums to 16; a line of 2 must sum to at most 15"


def test_three_in_a_line_sum_to_exactly_15(topo, rules):
    assert legal(topo, rules, ROW, [7], "F8=7").lines[0].sum == 15
    text = reason(topo, rules, ROW, [6], "F8=6")
    assert text == "the row F6-F8 sums to 14; a line of 3 must sum to exactly 15"
    text = reason(topo, rules, {(7, 6): 5, (7, 7): 5}, [4], "I8=4")
    assert text == "the column G8-I8 sums to 14; a line of 3 must sum to exactly 15"


def test_never_four_in_a_line(topo, rules):
    cells = {(5, 5): 6, (6, 5): 2, (7, 5): 7}
    text = reason(topo, rules, cells, [0], "F9=0")
    assert text == "the row F6-F9 would hold 4 tokens; a line holds at most 3"
    # joining two runs: F6=6 F7=2 . F9=7 -> placing F8 makes four
    text = reason(topo, rules, {(5, 5): 6, (6, 5): 2, (8, 5): 7}, [0], "F8=0")
    assert "would hold 4 tokens" in text


def test_perpendicular_line_rule_names_the_column(topo, rules):
    cells = {(7, 3): 9, (7, 4): 1, (8, 5): 3}  # D8=9 E8=1 above F8; F9=3 to its right
    text = reason(topo, rules, cells, [4], "F8=4")
    assert text == "the column D8-F8 sums to 14; a line of 3 must sum to exactly 15"


def test_typed_play_problems(topo, rules):
    assert "no 5 on the rack" in reason(topo, rules, ROW, [4], "F8=5")
    assert "already holds" in reason(topo, rules, ROW, [4], "F7=4")
    assert "no such cell" in reason(topo, rules, ROW, [4], "P8=4")
    assert "cannot read" in reason(topo, rules, ROW, [4], "F8:4")
    assert "1 to 3 tokens" in reason(topo, rules, {}, [1, 2, 3, 4], "H7=1 H8=2 H9=3 H10=4",
                                     first=True)


# ------------------------------------------------------------------ measures (section 8)
def test_example_a_two_pairs(topo, rules):
    play = legal(topo, rules, {(5, 5): 8, (4, 6): 6}, [4], "G6=4")
    assert sorted((l.length, l.sum) for l in play.lines) == [(2, 10), (2, 12)]
    assert play.placed[0].max_line == 2 and play.placed[0].multiplier == 1


def test_example_c_times_two_cell(topo, rules):
    cells = {(2, 3): 5, (3, 3): 9, (3, 4): 5, (3, 5): 1, (4, 5): 4}
    play = legal(topo, rules, cells, [10], "E5=10")
    assert sorted(l.sum for l in play.lines) == [14, 15]
    (p,) = play.placed
    assert (p.x, p.y, p.multiplier, p.value, p.max_line) == (4, 4, 2, 10, 2)


def test_example_e_triolet_measures(topo, rules):
    cells = {(3, 1): 8, (3, 2): 5, (3, 3): 2, (4, 3): 10}
    play = legal(topo, rules, cells, [4, 9, 2], "E5=4 E6=9 E7=2")
    assert play.count == 3 and play.value == 15
    assert [(l.length, l.sum, l.new) for l in play.lines] == [(3, 15, 3), (2, 14, 1)]
    assert [(p.multiplier, p.max_line) for p in play.placed] == [(2, 3), (1, 3), (1, 3)]


def test_jokers_declare_a_value(topo):
    rules = topo.compile_place({**PLACE, "jokers": {"max_per_play": 1}})
    board = board_with(topo, {(5, 5): 6, (6, 5): 2})
    hand = tokens(3, jokers=2)
    play = board.parse_placement("F8=J7", hand, False, rules)
    assert play.jokers == 1 and play.value == 0 and play.text == "F8=J7"
    (line,) = play.lines
    assert (line.sum, line.face_sum, line.jokers) == (15, 8, 1)
    with pytest.raises(ValueError, match="at most 1 joker"):
        board.parse_placement("F8=J7 F9=J0", hand, False, rules)
    board.apply_placement(play)
    assert board.dump_position() == "F6=6 F7=2 F8=J7"
    after = {p.text for p in board.iter_placements(hand, False, rules)}
    assert "G8=J8" in after and "G8=J9" not in after  # the joker still counts as 7
    assert board.check_invariants() == []


def _records(play):
    return ([(l.length, l.sum, l.face_sum, l.new, l.jokers) for l in play.lines],
            [sorted(vars(p).items()) for p in play.placed])


@pytest.mark.parametrize("jokers", [0, 2])
def test_measures_worked_out_on_apply_are_those_read_before(topo, jokers):
    """Applying a play measures it from the runs it was laid through (a shortcut); the
    records must be those its own walk of the board gives before it is laid, with and
    without jokers on the board."""
    action = {**PLACE, "jokers": {"max_per_play": 1}} if jokers else PLACE
    rules = topo.compile_place(action)
    rng = random.Random(11 + jokers)
    compared = 0
    for _ in range(6):
        board, bag, first = topo.new_board(), tokens(*range(16), *range(16), jokers=jokers), True
        rng.shuffle(bag)
        for _ in range(12):
            rack = bag[:3]
            plays = list(board.iter_placements(rack, first, rules))
            if not plays:
                rng.shuffle(bag)
                continue
            for play in rng.sample(plays, min(6, len(plays))) + [plays[-1]]:
                trial = board.clone()
                again = type(play)(trial, play.cells, play.values, play.pieces, play.flags)
                trial.apply_placement(again)  # measured from the runs
                assert _records(again) == _records(play)  # measured by walking, before
                compared += 1
            chosen = rng.choice(plays)
            board.apply_placement(chosen)
            bag = [p for p in bag if p not in chosen.pieces]
            first = False
        assert board.check_invariants() == []
    assert compared > 300


def test_plays_are_kept_for_the_same_pieces_only(topo, rules):
    """The board keeps the plays of the last hand it was asked for until it changes; a
    hand of other pieces with the same values gets plays of its own pieces, and the same
    hand gets new plays once the board has changed."""
    board = board_with(topo, {(7, 7): 5})
    rack = tokens(4, 6, 9)
    plays = list(board.iter_placements(rack, False, rules))
    assert list(board.iter_placements(list(rack), False, rules)) == plays
    assert all(a is b for a, b in zip(board.iter_placements(rack, False, rules), plays))
    twin = tokens(4, 6, 9, start=50)  # the same values, other uids
    other = list(board.iter_placements(twin, False, rules))
    assert [p.text for p in other] == [p.text for p in plays]
    assert all(any(q is t for t in twin) for p in other for q in p.pieces)
    assert not any(q is r for p in other for q in p.pieces for r in rack)
    assert list(board.iter_placements(rack[:2], False, rules)) != plays
    board.apply_placement(plays[0])
    assert all(p.board is board for p in board.iter_placements(rack[1:], False, rules))


# ------------------------------------------------------------------ the generator
def test_repeated_values_give_each_play_once(topo, rules):
    board = board_with(topo, {(7, 7): 5})
    plays = [p.text for p in board.iter_placements(tokens(5, 5, 5), False, rules)]
    assert len(plays) == len(set(plays))
    assert "H9=5 H10=5" in plays and "G8=5" in plays
    assert plays.count("H9=5") == 1
    first = [p for p in board.iter_placements(tokens(5, 5, 5), False, rules) if p.text == "H9=5 H10=5"]
    assert [q.uid for q in first[0].pieces] == [0, 1]


def test_generated_plays_parse_back_equal(topo, rules):
    board = board_with(topo, {(7, 7): 5, (8, 7): 3, (8, 8): 7})
    hand = tokens(5, 2, 8)
    for play in board.iter_placements(hand, False, rules):
        again = board.parse_placement(play.text, hand, False, rules)
        assert again == play and again.pieces == play.pieces


def brute_force(cells, width, height, hand, first, start, window, maxk, max_len, bounds,
                joker_max=1):
    """Every legal play as text, by trying every cell set and value assignment."""
    out = set()
    empty = [(x, y) for y in range(height) for x in range(width) if (x, y) not in cells]
    kinds = [(p.value, bool(p.attrs["joker"])) for p in hand]
    for k in range(1, min(maxk, len(hand)) + 1):
        for spot in combinations(empty, k):
            if not _shape_ok(spot, cells, window):
                continue
            for picks in set(permutations(kinds, k)):
                if sum(j for _, j in picks) > joker_max:
                    continue
                choices = [range(16) if j else (v,) for v, j in picks]
                for vals in product(*choices):
                    new = dict(zip(spot, vals))
                    if _legal(cells, new, first, start, max_len, bounds):
                        out.add(" ".join(f"{chr(65 + y)}{x + 1}={'J' if j else ''}{v}"
                                         for (x, y), v, (_, j) in zip(spot, vals, picks)))
    return out


def _shape_ok(spot, cells, window):
    xs, ys = {x for x, _ in spot}, {y for _, y in spot}
    if len(xs) > 1 and len(ys) > 1:
        return False
    lo, hi = min(spot), max(spot)
    between = [(x, y) for x in range(lo[0], hi[0] + 1) for y in range(lo[1], hi[1] + 1)]
    return len(between) <= window and all(c in cells or c in spot for c in between)


def _legal(cells, new, first, start, max_len, bounds):
    full = {**cells, **new}
    if first:
        if start not in new:
            return False
    elif not any((x + dx, y + dy) in cells for x, y in new
                 for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))):
        return False
    for (x, y) in new:
        for dx, dy in ((1, 0), (0, 1)):
            run = [(x, y)]
            for sign in (1, -1):
                c = (x + sign * dx, y + sign * dy)
                while c in full:
                    run.append(c)
                    c = (c[0] + sign * dx, c[1] + sign * dy)
            n, s = len(run), sum(full[c] for c in run)
            if n > max_len or not bounds.get(n, (-99, 99))[0] <= s <= bounds.get(n, (-99, 99))[1]:
                return False
    return True


@st.composite
def situations(draw):
    width, height = draw(st.integers(3, 7)), draw(st.integers(3, 7))
    seed = draw(st.integers(0, 10**6))
    rng = random.Random(seed)
    density = draw(st.sampled_from([0.0, 0.2, 0.4, 0.6]))
    cells = {(x, y): rng.randrange(16) for y in range(height) for x in range(width)
             if rng.random() < density}
    hand = draw(st.lists(st.integers(0, 15), min_size=1, max_size=3))
    jokers = draw(st.integers(0, 1 if len(hand) < 3 else 0))
    window = draw(st.integers(1, 4))
    max_len = draw(st.integers(2, 4))
    bounds = {2: (0, draw(st.integers(5, 20))), 3: (15, 15)}
    start = (width // 2, height // 2)
    first = not cells
    return width, height, cells, hand, jokers, window, max_len, bounds, start, first


@settings(max_examples=60, deadline=None)
@given(situations())
def test_generator_matches_brute_force(case):
    width, height, cells, hand, jokers, window, max_len, bounds, start, first = case
    marks = [["." for _ in range(width)] for _ in range(height)]
    marks[start[1]][start[0]] = "S"
    spec = {"kind": "square", "width": width, "height": height,
            "cell_defaults": {"start": False}, "cells": {"S": {"start": True}},
            "map": "\n".join(" ".join(r) for r in marks)}
    topo = Square(spec)
    sums = {n: ({"max": hi} if lo == 0 else {"exact": lo}) for n, (lo, hi) in bounds.items()}
    rules = topo.compile_place({"count": {"min": 1, "max": 3}, "window": window,
                                "first_play": "cover_start", "jokers": {"max_per_play": 1},
                                "lines": {"max_length": max_len, "sums": sums}})
    board = board_with(topo, cells)
    rack = tokens(*hand, jokers=jokers)
    rng = random.Random(len(cells))
    for _ in range(3):  # the position, then after plays applied to the incremental index
        found = list(board.iter_placements(rack, first, rules))
        plays = [p.text for p in found]
        assert len(plays) == len(set(plays))
        expect = brute_force(cells, width, height, rack, first, start, window, 3, max_len, bounds)
        assert set(plays) == expect
        if not found:
            break
        play = rng.choice(found)
        board.apply_placement(play)
        assert [m for m in board.check_invariants() if "drifted" in m] == []
        cells.update({topo.xy(c): val for c, val in zip(play.cells, play.values)})
        first = False


# ------------------------------------------------------------------ diagnostics
def check(spec):
    return Square.check_spec(spec, lambda *path: Position("board.yaml", 1, 1))


def test_check_spec_map_problems():
    base = dict(STANDARD["board"])
    assert check(base) == []
    short = {**base, "map": "\n".join(base["map"].splitlines()[:14])}
    assert [d.code for d in check(short)] == ["R451"]
    narrow = {**base, "map": base["map"].replace(". B . . 3", "B . . 3", 1)}
    assert [d.code for d in check(narrow)] == ["R452"]
    typo = {**base, "map": base["map"].replace("S", "s")}
    (d,) = check(typo)
    assert d.code == "R453" and d.help == "did you mean `S`?"
    attr = {**base, "cells": {**base["cells"], "B": {"extra_trun": True}}}
    (d,) = check(attr)
    assert d.code == "R454" and d.help == "did you mean `extra_turn`?"
    kind = {**base, "cells": {**base["cells"], "2": {"multiplier": "2"}}}
    assert [d.code for d in check(kind)] == ["R455"]
    assert [d.code for d in check({**base, "size": 0})] == ["R450", "R450"]


def test_check_place_problems(topo):
    def codes(**changes):
        return [d.code for d in topo.check_place({**PLACE, **changes}, lambda *p: None)]

    assert codes() == []
    assert codes(count={"min": 2, "max": 1}) == ["R460"]
    assert codes(lines={"max_length": 3, "sums": {2: {"most": 15}}}) == ["R461"]
    assert codes(first_play="cover_star") == ["R462"]
    assert codes(jokers={"max": 1}) == ["R463"]
    assert codes(jokers={"values": {"min": 10, "max": 5}}) == ["R463"]
    for code in ("R450", "R451", "R452", "R453", "R454", "R455", "R460", "R461", "R462", "R463"):
        assert code in CODES


# ------------------------------------------------------------------ through the kernel
GOLDEN = ROOT / "tests" / "golden" / "triolet"


def scenario(name: str):
    load = pytest.importorskip("engine.kernel.scenario").load_scenario
    return load(GOLDEN / name).state


def test_bis_cells_give_extra_turns_that_chain():
    state = scenario("standard-bis.yaml")
    state.apply("place A8=8")          # a bis cell: the same player again, rack refilled
    assert state.to_move == 0 and sorted(p.value for p in state.hands[0]) == [3, 6, 9]
    state.apply("place H1=9")          # another bis cell during the extra turn
    assert state.to_move == 0
    state.apply("place G1=3")          # a plain cell, over the 9: the turn passes
    assert state.to_move == 1 and state.scores == [15 + 14 + 12, 0]


def test_going_out_on_a_bis_cell_ends_the_game():
    state = scenario("standard-going-out-on-bis.yaml")
    state.apply("place A8=8")
    assert state.is_over and state.round.reason == "went_out" and state.scores == [28, 0]


@pytest.mark.parametrize("name,move,reason", [
    ("standard-all-passed.yaml", "pass", "all_passed"),
    ("standard-nobody-can-place.yaml", "exchange 11", "nobody_can_place"),
])
def test_the_game_ends_without_bonus(name, move, reason):
    state = scenario(name)
    before = list(state.scores)
    state.apply(move)
    assert state.is_over and state.round.reason == reason and state.scores == before


def test_one_round_unable_does_not_end_the_game():
    # section 7: the game ends by going out or by everyone passing; `nobody_can_place`
    # waits for ten full rounds (20 turns with two players), not one
    state = scenario("standard-unable-goes-on.yaml")
    state.apply("exchange 11")
    assert not state.is_over and state.round.unable_in_row == 2 and state.to_move == 1


def test_exchange_keeps_every_token():
    state = scenario("standard-exchange.yaml")
    total = len(state.pool) + sum(len(h) for h in state.hands) + state.board.count
    state.apply("exchange 11 4")
    assert state.to_move == 1 and len(state.hands[0]) == 3
    assert len(state.pool) + sum(len(h) for h in state.hands) + state.board.count == total


def test_map_problems_point_at_the_cell_in_the_file():
    from engine.rules import load_ruleset

    fixtures = ROOT / "tests" / "fixtures" / "diagnostics"
    for name, code, line, col in [("R453-square-unknown-cell.yaml", "R453", 13, 19),
                                  ("R452-square-map-columns.yaml", "R452", 7, 5)]:
        rs = load_ruleset(str(fixtures / name))
        (d,) = Square.check_spec(rs.data["board"], lambda *p, rs=rs: rs.where("board", *p))
        assert (d.code, d.pos.line, d.pos.col) == (code, line, col)
        assert d.pos.path.endswith(name)


def general_plays(board, hand, rules):
    """The plays as the generator's general loops find them (the ones jokers need),
    walking back from every anchor: the reference for the fast path of plain hands."""
    from engine.topology import square_moves as sm

    plan, _ = sm.hand_plan(hand, min(rules.max_count, len(hand)), rules)
    anchors = sm._cells(board.anchor_bits)
    real = sm._useful_starts

    def every_start(board, fits, rules, maxk):  # (rows, columns)
        room = rules.max_length - max(2, rules.min_count)
        return tuple(sm._starts(board, anchors, d, rules.window, board.cross[1 - k],
                                (d, "every", id(rules), k, room))
                     for k, d in ((0, 1), (1, board.topo.stride)))

    plan.plain, sm._useful_starts, board.starts = False, every_start, {}
    try:  # (`_general`, not `find_plays`: that would take the fast path under test)
        maxk = min(rules.max_count, len(hand))
        plays = sm._general([], board, hand, False, rules, maxk, board.crosses(rules))
        return [p.text for p in plays]
    finally:
        plan.plain, sm._useful_starts, board.starts = True, real, {}


def test_fast_path_finds_the_plays_in_the_order_of_the_general_loops():
    rng = random.Random(5)
    compared = 0
    for _ in range(300):
        width, height = rng.randint(3, 8), rng.randint(3, 8)
        density = rng.choice([0.1, 0.2, 0.4, 0.6])
        cells = {(x, y): rng.randrange(16) for y in range(height) for x in range(width)
                 if rng.random() < density}
        if not cells:
            continue
        topo = Square({"kind": "square", "width": width, "height": height,
                       "cell_defaults": {"start": False}})
        rules = topo.compile_place({
            "count": {"min": rng.choice([1, 2]), "max": 3}, "window": rng.randint(1, 4),
            "lines": {"max_length": rng.randint(2, 4),
                      "sums": {2: {"max": rng.randint(5, 20)}, 3: {"exact": 15}}}})
        board = board_with(topo, cells)
        rack = tokens(*[rng.randrange(16) for _ in range(rng.randint(1, 3))])
        found = [p.text for p in board.iter_placements(rack, False, rules)]
        assert found == general_plays(board, rack, rules)
        compared += len(found)
    assert compared > 1000  # the boards leave room for plays


@pytest.mark.parametrize("width,height", [(3, 7), (7, 3), (15, 15)])
def test_transposed_bits_step_one_bit_along_a_column(width, height):
    topo = Square({"kind": "square", "width": width, "height": height,
                   "cell_defaults": {"start": False}})
    low = topo.low_bits
    for y in range(height):
        for x in range(width):
            c = topo.index(x, y)
            high = topo.both[c] & ~low
            assert topo.both[c] & low == 1 << c
            t = high.bit_length() - 1 - topo.offset
            assert topo.untranspose[t] == c
            if y + 1 < height:  # the cell below is the next bit up in the second half
                assert topo.both[topo.index(x, y + 1)] & ~low == high << 1
    # no shift of the walks (at most twice the longest line) reaches the other half
    last_low = max(topo.both[c] & low for c in range(len(topo.attrs))).bit_length() - 1
    first_high = min(b & ~low for b in topo.both if b).bit_length() - 1
    assert first_high - last_low > 2 * max(width, height)
