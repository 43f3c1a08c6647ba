"""The triangular board kind against the geometry of the rules reference (section 2).

The tables below are transcribed from the fact sheet, not from the module, so that a slip
in either shows up here.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pieces import Piece, build_pieces
from engine.topology.styled import plain
from engine.topology import BOARD_KINDS
from engine.topology import triangular as T

TILES = build_pieces({"tiles": {"kind": "corner_tiles", "corners": 3, "values": {"min": 0, "max": 5}}})
BY_NAME = {p.name: p for p in TILES}

# Section 2.5, offsets for an up cell, "flip" (row sign changes on a down cell), contact,
# and the corners touched.
TABLE_2_5 = {
    "LEFT": ((-1, 0), False, "edge", "ML"),
    "RIGHT": ((1, 0), False, "edge", "MR"),
    "MIDDLE": ((0, 1), True, "edge", "LR"),
    "FAR_LEFT": ((-2, 0), False, "vertex", "L"),
    "FAR_RIGHT": ((2, 0), False, "vertex", "R"),
    "LEFT_TO_MIDDLE": ((-1, 1), True, "vertex", "L"),
    "FAR_LEFT_TO_MIDDLE": ((-2, 1), True, "vertex", "L"),
    "RIGHT_TO_MIDDLE": ((1, 1), True, "vertex", "R"),
    "FAR_RIGHT_TO_MIDDLE": ((2, 1), True, "vertex", "R"),
    "OPPOSITE": ((0, -1), True, "vertex", "M"),
    "LEFT_TO_OPPOSITE": ((-1, -1), True, "vertex", "M"),
    "RIGHT_TO_OPPOSITE": ((1, -1), True, "vertex", "M"),
}
# Section 2.6: new tile's corner -> (neighbour, the neighbour's corner it must equal).
TABLE_2_6 = {
    "M": [("LEFT", "R"), ("RIGHT", "L"), ("OPPOSITE", "M"), ("LEFT_TO_OPPOSITE", "R"), ("RIGHT_TO_OPPOSITE", "L")],
    "L": [("LEFT", "M"), ("FAR_LEFT", "R"), ("MIDDLE", "L"), ("LEFT_TO_MIDDLE", "M"), ("FAR_LEFT_TO_MIDDLE", "R")],
    "R": [("RIGHT", "M"), ("FAR_RIGHT", "L"), ("MIDDLE", "R"), ("RIGHT_TO_MIDDLE", "M"), ("FAR_RIGHT_TO_MIDDLE", "L")],
}
UP, DOWN = (4, 2), (5, 2)
cells = st.tuples(st.integers(-20, 20), st.integers(-20, 20))


def zero(uid: int) -> Piece:
    """A piece showing 0 at every corner, so that any layout of them matches."""
    return Piece(uid, "t", f"z{uid}", {"corners": [0, 0, 0]})


def board_with(*cells_: tuple[int, int]) -> T.TriangularBoard:
    board = T.TriangularBoard()
    for i, cell in enumerate(cells_):
        board.put_tile(cell, zero(1000 + i), 0)
    return board


def measures(board: T.TriangularBoard, cell, piece=None):
    placement = next(p for p in board.iter_placements([piece or zero(1)], False, "point") if p.cell == cell)
    return placement


# -- cells, lattice points, neighbours ----------------------------------------------


def test_orientation_and_origin():
    assert T.is_up((0, 0)) and not T.is_up((1, 0)) and not T.is_up((0, -1)) and T.is_up((-1, -1))


@pytest.mark.parametrize("cell", [UP, DOWN])
def test_neighbour_table_matches_section_2_5(cell):
    sign = 1 if T.is_up(cell) else -1
    for name, ((dc, dr), flip, contact, touched) in TABLE_2_5.items():
        expected = (cell[0] + dc, cell[1] + (dr * sign if flip else dr))
        assert T.neighbour(cell, name) == expected, name
        shared = set(T.corner_points(cell)) & set(T.corner_points(expected))
        assert len(shared) == (2 if contact == "edge" else 1), name
        mine = {"MLR"[i] for i, p in enumerate(T.corner_points(cell)) if p in shared}
        assert mine == set(touched), name
        assert T.NEIGHBOURS[name][2] == (contact == "edge")


def test_twelve_neighbours_are_every_cell_sharing_a_point():
    for cell in (UP, DOWN):
        touching = {x for p in T.corner_points(cell) for x in T.cells_at(p)} - {cell}
        assert touching == {T.neighbour(cell, n) for n in T.NEIGHBOURS}
        assert len(touching) == 12


@pytest.mark.parametrize("cell", [UP, DOWN])
def test_corner_matching_table_2_6(cell):
    mine = dict(zip("MLR", T.corner_points(cell)))
    for corner, pairs in TABLE_2_6.items():
        for name, theirs in pairs:
            other = dict(zip("MLR", T.corner_points(T.neighbour(cell, name))))
            assert mine[corner] == other[theirs], (corner, name)


def test_lattice_points_section_2_3():
    assert T.corner_points((0, 0)) == ((1, 0), (0, 1), (2, 1))
    assert T.corner_points((1, 0)) == ((2, 1), (1, 0), (3, 0))
    assert T.corner_points((-3, 2)) == ((-2, 3), (-3, 2), (-1, 2))
    for point in [(1, 0), (0, 1), (-3, 2), (4, -7)]:
        assert sum(point) % 2 == 1
        around = T.cells_at(point)
        assert len(set(around)) == 6
        assert all(point in T.corner_points(x) for x in around)


@given(cells)
def test_every_corner_is_a_lattice_point_of_six_cells(cell):
    for point in T.corner_points(cell):
        assert sum(point) % 2 == 1
        assert cell in T.cells_at(point)


@given(cells, st.sampled_from(sorted(T.NEIGHBOURS)))
def test_neighbour_relation_is_symmetric(cell, name):
    other = T.neighbour(cell, name)
    back = [n for n in T.NEIGHBOURS if T.neighbour(other, n) == cell]
    assert len(back) == 1
    assert T.NEIGHBOURS[back[0]][2] == T.NEIGHBOURS[name][2]  # same contact type


# -- rotations and matching -----------------------------------------------------------


def test_rotations_are_the_three_turns_never_the_mirror():
    # 0-1-2 read clockwise; on an up cell clockwise is M -> R -> L.
    up = dict(T.rotations([0, 1, 2], True))
    assert up == {0: (0, 2, 1), 1: (1, 0, 2), 2: (2, 1, 0)}
    down = dict(T.rotations([0, 1, 2], False))
    assert down == {0: (0, 1, 2), 1: (1, 2, 0), 2: (2, 0, 1)}
    # The mirror 0-2-1 clockwise would put (M, L, R) = (0, 1, 2) on an up cell: never offered.
    assert (0, 1, 2) not in up.values()
    assert len(T.rotations([3, 3, 3], True)) == 1
    assert len(T.rotations([1, 1, 4], False)) == 3


def test_matching_through_edges_and_vertices():
    board = T.TriangularBoard()
    board.load_position("0-1-2@0,0r0", TILES)  # up: M=0 at (1,0), L=2 at (0,1), R=1 at (2,1)
    assert board.points == {(1, 0): 0, (0, 1): 2, (2, 1): 1}
    found = {p.text for p in board.iter_placements([BY_NAME["0-1-1"], BY_NAME["2-2-5"]], False, None)}
    # RIGHT (1,0) is down: L=(1,0)=0 and M=(2,1)=1, so (M, L, R) = (1, 0, x): 0-1-1 r2 only.
    assert "0-1-1@1,0r2" in found
    assert not any(t.startswith("2-2-5@1,0") for t in found)
    # A vertex-only contact must match too: FAR_RIGHT (2,0) touches only at (2,1) = 1.
    board.load_position("1-1-1@2,0", TILES)
    assert {p.text for p in board.iter_placements([BY_NAME["0-1-1"]], False, None) if p.cell == (1, 0)} == {"0-1-1@1,0r2"}
    with pytest.raises(ValueError, match="corner M shows 3, the table shows 1"):
        board.put_tile((3, 0), BY_NAME["3-3-3"], 0)


def test_opening_offers_both_orientations_at_the_origin():
    board = T.TriangularBoard()
    found = [p.text for p in board.iter_placements([BY_NAME["4-4-4"], BY_NAME["0-1-2"]], True, None)]
    # Cells by row then column, tiles by their numbers (not hand order), then rotation.
    assert found == ["0-1-2@0,0r0", "0-1-2@0,0r1", "0-1-2@0,0r2", "4-4-4@0,0r0",
                     "0-1-2@1,0r0", "0-1-2@1,0r1", "0-1-2@1,0r2", "4-4-4@1,0r0"]
    assert all(p.edges == 0 and p.corners_touched == 0 for p in board.iter_placements([BY_NAME["4-4-4"]], True, None))


def test_parse_placement_round_trip_and_errors():
    board = T.TriangularBoard()
    board.load_position("0-1-2@0,0r0", TILES)
    hand = [BY_NAME["0-1-1"], BY_NAME["4-4-4"]]
    for placement in board.iter_placements(hand, False, None):
        assert board.parse_placement(placement.text, hand, False, None).numbers == placement.numbers
    assert board.parse_placement(" 0-1-1 @ 1 , 0 r2 ", hand, False, None).cell == (1, 0)
    assert board.parse_placement("0-1-1@1,0", hand, False, None).rotation == 2  # only fit
    with pytest.raises(ValueError, match="expected TILE@C,R"):
        board.parse_placement("hello", hand, False, None)
    with pytest.raises(ValueError, match="no tile 5-5-5 in the hand"):
        board.parse_placement("5-5-5@1,0", hand, False, None)
    with pytest.raises(ValueError, match="already occupied"):
        board.parse_placement("0-1-1@0,0r0", hand, False, None)
    with pytest.raises(ValueError, match="does not share an edge"):
        board.parse_placement("4-4-4@5,5", hand, False, None)
    with pytest.raises(ValueError, match="corner L of 0-1-1r1 on 1,0 shows 1, the table shows 0"):
        board.parse_placement("0-1-1@1,0r1", hand, False, None)
    with pytest.raises(ValueError, match="rotation must be r0, r1 or r2"):
        board.parse_placement("0-1-1@1,0r3", hand, False, None)
    with pytest.raises(ValueError, match="first tile goes on 0,0"):
        T.TriangularBoard().parse_placement("4-4-4@2,0", hand, True, None)


# -- hexagons and bridges ---------------------------------------------------------------

N = (0, 0)  # the new tile, an up cell, in every hand-drawn position below


def cells_named(*names: str):
    return [T.neighbour(N, n) for n in names]


def placement_at_n(*names: str):
    return measures(board_with(*cells_named(*names)), N)


def test_hexagon_detection_one_two_three():
    around_m = ["LEFT", "RIGHT", "OPPOSITE", "LEFT_TO_OPPOSITE", "RIGHT_TO_OPPOSITE"]
    around_l = ["LEFT", "FAR_LEFT", "MIDDLE", "LEFT_TO_MIDDLE", "FAR_LEFT_TO_MIDDLE"]
    around_r = ["RIGHT", "FAR_RIGHT", "MIDDLE", "RIGHT_TO_MIDDLE", "FAR_RIGHT_TO_MIDDLE"]
    assert placement_at_n(*around_m[:4]).hexagons == 0  # four of five: not yet
    assert placement_at_n(*around_m).hexagons == 1
    assert placement_at_n(*around_m, *around_l[1:]).hexagons == 2
    assert placement_at_n(*T.NEIGHBOURS).hexagons == 3
    assert [k.tiles for k in placement_at_n(*around_m).contacts] == [5, 1, 1]


# Readings of TO-12 as written in docs/games/triominos.md, evaluated on a placement.
READINGS = {
    "R1": lambda m: m.edges == 1 and m.bridges > 0,
    "R2": lambda m: m.bridges > 0,
    "R3": lambda m: m.narrow_bridges,  # +40 each
    "R4": lambda m: m.corners_touched == 3 and m.hexagons == 0,
    "R5": lambda m: m.edges == 3 and m.hexagons == 0,
    "R6": lambda m: m.edges == 2 and m.bridges > 0,
}
# occupied neighbours of N -> (edges, corners_touched, vertex_only_corners, bridges,
# narrow_bridges, {reading: value})
BRIDGE_CASES = {
    ("MIDDLE", "OPPOSITE"): (1, 3, 1, 1, 1, dict(R1=True, R2=True, R3=1, R4=True, R5=False, R6=False)),
    ("MIDDLE", "LEFT_TO_OPPOSITE"): (1, 3, 1, 1, 0, dict(R1=True, R2=True, R3=0, R4=True, R5=False, R6=False)),
    ("LEFT", "FAR_RIGHT"): (1, 3, 1, 1, 0, dict(R1=True, R2=True, R3=0, R4=True, R5=False, R6=False)),
    ("LEFT", "FAR_RIGHT_TO_MIDDLE"): (1, 3, 1, 1, 1, dict(R1=True, R2=True, R3=1, R4=True, R5=False, R6=False)),
    ("RIGHT", "LEFT_TO_MIDDLE"): (1, 3, 1, 1, 0, dict(R1=True, R2=True, R3=0, R4=True, R5=False, R6=False)),
    ("LEFT", "MIDDLE", "OPPOSITE", "FAR_RIGHT_TO_MIDDLE"):
        (2, 3, 0, 2, 2, dict(R1=False, R2=True, R3=2, R4=True, R5=False, R6=True)),
    ("LEFT", "MIDDLE", "LEFT_TO_OPPOSITE"): (2, 3, 0, 1, 0, dict(R1=False, R2=True, R3=0, R4=True, R5=False, R6=True)),
    ("LEFT", "RIGHT"): (2, 3, 0, 0, 0, dict(R1=False, R2=False, R3=0, R4=True, R5=False, R6=False)),
    ("LEFT", "RIGHT", "MIDDLE"): (3, 3, 0, 0, 0, dict(R1=False, R2=False, R3=0, R4=True, R5=True, R6=False)),
    ("MIDDLE",): (1, 2, 0, 0, 0, dict(R1=False, R2=False, R3=0, R4=False, R5=False, R6=False)),
    ("MIDDLE", "FAR_LEFT"): (1, 2, 0, 0, 0, dict(R1=False, R2=False, R3=0, R4=False, R5=False, R6=False)),
    ("OPPOSITE", "FAR_LEFT"): (0, 2, 2, 0, 0, dict(R1=False, R2=False, R3=0, R4=False, R5=False, R6=False)),
    ("OPPOSITE", "FAR_LEFT", "FAR_RIGHT"): (0, 3, 3, 0, 0, dict(R1=False, R2=False, R3=0, R4=True, R5=False, R6=False)),
}


@pytest.mark.parametrize("names", list(BRIDGE_CASES), ids=["+".join(n) for n in BRIDGE_CASES])
def test_bridge_measures_and_readings(names):
    edges, touched, vertex_only, bridges, narrow, readings = BRIDGE_CASES[names]
    m = placement_at_n(*names)
    assert (m.edges, m.corners_touched, m.vertex_only_corners, m.bridges, m.narrow_bridges) == (
        edges, touched, vertex_only, bridges, narrow)
    assert m.hexagons == 0
    assert {r: f(m) for r, f in READINGS.items()} == readings


def test_down_cell_bridge_mirrors_the_up_cell():
    cell = (1, 0)  # down: MIDDLE is (1, -1) above it, OPPOSITE (1, 1) below it
    board = board_with(T.neighbour(cell, "MIDDLE"), T.neighbour(cell, "OPPOSITE"))
    assert T.neighbour(cell, "MIDDLE") == (1, -1) and T.neighbour(cell, "OPPOSITE") == (1, 1)
    m = measures(board, cell)
    assert (m.edges, m.bridges, m.narrow_bridges) == (1, 1, 1)


def test_measures_describe_the_board_before_the_move():
    board = board_with(*cells_named("LEFT", "RIGHT", "OPPOSITE", "LEFT_TO_OPPOSITE", "RIGHT_TO_OPPOSITE"))
    placement = measures(board, N)
    board.apply_placement(placement)  # measures read lazily after the move still see before
    assert placement.hexagons == 1 and placement.edges == 2
    assert board.check_invariants() == []


# -- frontier and move generation against brute force ---------------------------------------


def brute_frontier(board: T.TriangularBoard, edge: bool):
    if not board.cells:
        return set()
    cs = [c for c, _ in board.cells]
    rs = [r for _, r in board.cells]
    names = [n for n, v in T.NEIGHBOURS.items() if v[2] or not edge]
    return {
        (c, r)
        for c in range(min(cs) - 3, max(cs) + 4)
        for r in range(min(rs) - 3, max(rs) + 4)
        if (c, r) not in board.cells and any(T.neighbour((c, r), n) in board.cells for n in names)
    }


def brute_placements(board: T.TriangularBoard, hand, edge: bool = True):
    """Every (tile, cell, numbers) whose corners equal the touching corners of each neighbour (2.6)."""
    found = set()
    for cell in brute_frontier(board, edge):
        for piece in hand:
            for _, nums in T.rotations(piece.corners, T.is_up(cell)):
                mine = dict(zip("MLR", nums))
                ok = all(
                    mine[corner] == dict(zip("MLR", board.cells[T.neighbour(cell, name)][1]))[theirs]
                    for corner, pairs in TABLE_2_6.items()
                    for name, theirs in pairs
                    if T.neighbour(cell, name) in board.cells
                )
                if ok:
                    found.add((piece.name, cell, nums))
    return found


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 30))
def test_frontier_equals_a_scan_of_the_board(seed, moves):
    rng = random.Random(seed)
    pool = list(TILES)
    rng.shuffle(pool)
    board = T.TriangularBoard()
    hand, first = pool[:12], True
    for _ in range(moves):
        options = list(board.iter_placements(hand, first, None))
        if not first:
            assert {(p.piece.name, p.cell, p.numbers) for p in options} == brute_placements(board, hand)
            by_point = {(p.piece.name, p.cell, p.numbers) for p in board.iter_placements(hand, False, "point")}
            assert by_point == brute_placements(board, hand, edge=False)
        if not options:
            break
        choice = rng.choice(options)
        copy = board.clone()
        board.apply_placement(choice)
        assert choice.cell not in copy.cells  # a clone is independent
        assert copy.check_invariants() == []
        if not first:  # the copy still offers what the board offered before the move
            assert {(p.piece.name, p.cell, p.numbers) for p in copy.iter_placements(hand, False, "point")} == by_point
        hand.remove(choice.piece)
        if len(pool) > 12:
            hand.append(pool.pop())
        first = False
        assert board.edge_frontier == brute_frontier(board, True)
        assert board.point_frontier == brute_frontier(board, False)
        assert board.check_invariants() == []
        for cell in brute_frontier(board, False) | set(board.cells):  # occupancy, from the points' records
            assert board.occupancy(cell) == sum(1 << i for i, name in enumerate(T.NEIGHBOURS)
                                                if T.neighbour(cell, name) in board.cells)


def test_position_round_trip_and_drawing():
    board = T.TriangularBoard()
    layout = ["0-0-0@0,-1r0", "0-2-2@-1,0r1", "0-1-2@0,0r0", "0-1-1@1,0r2"]
    used = board.load_position("\n".join(layout), TILES)
    assert [p.name for p in used] == ["0-0-0", "0-2-2", "0-1-2", "0-1-1"]
    assert board.dump_position().splitlines() == layout
    assert T.TriangularBoard().load_position(str(layout), TILES) == used  # a YAML list, printed
    assert board.key() == again_key(layout) and sorted(p.name for p in board.pieces_on_board()) == sorted(
        p.name for p in used)
    again = T.TriangularBoard()
    again.load_position(board.dump_position(), TILES)
    assert again.points == board.points
    with pytest.raises(ValueError, match="board entry 2 .*used twice"):
        T.TriangularBoard().load_position("0-0-0@0,0 0-0-0@1,0", TILES)
    with pytest.raises(ValueError, match="cannot read 'x9'"):
        T.TriangularBoard().load_position("0-0-0@0,0; x9", TILES)
    drawing = BOARD_KINDS["triangular"]({"kind": "triangular"}).render_text(board)
    assert drawing.splitlines()[:9] == [
        "               (0,-2)",
        "            0-----------0",
        "              \\ 0,-1  /",
        "         (-1,-1)\\   /(1,-1)",
        "      2-----------0-----------1",
        "        \\ -1,0  /   \\  1,0  /",
        "   (-2,0) \\   /  0,0  \\   / (2,0)",
        "            2-----------1",
        "                (0,1)",
    ]


def test_styled_drawing_marks_the_last_tile_and_open_cells():
    board = T.TriangularBoard()
    board.load_position("0-0-0@0,-1r0\n0-2-2@-1,0r1\n0-1-2@0,0r0\n0-1-1@1,0r2", TILES)
    topo = BOARD_KINDS["triangular"]({"kind": "triangular"})
    last = type("Last", (), {"cell": (1, 0)})()
    runs = [run for line in topo.render_runs(board, last) for run in line]
    assert ("1,0", "last") in runs and ("0,0", "piece") in runs
    assert any(text.startswith("(") and style == "open" for text, style in runs)
    assert plain(topo.render_runs(board)) == topo.render_text(board)


def again_key(layout):
    board = T.TriangularBoard()
    board.load_position(" ".join(reversed(layout)), TILES)
    return board.key()


def test_empty_board_drawing_says_where_to_start():
    assert "0,0" in T.render(T.TriangularBoard())


def test_check_invariants_reports_a_disagreeing_corner():
    board = board_with((0, 0))
    board._pts[T.cell_id(1, 0)] = 4  # corrupt the point map by hand
    assert any("map holds 4" in p for p in board.check_invariants())
    board = board_with((0, 0))
    board._round[T.cell_id(1, 0)] = 0  # forget which cells round a point hold a tile
    assert any("round some point" in p for p in board.check_invariants())
    board = board_with((0, 0))
    list(board.iter_placements([zero(7)], False, None))  # a piece known: the open cells it fits
    del board._edge[T.cell_id(1, 0)]  # forget an open cell
    assert any("frontier" in p for p in board.check_invariants())
    board = board_with((0, 0))
    list(board.iter_placements([zero(7)], False, None))
    record = board._edge[T.cell_id(1, 0)]
    board._edge[T.cell_id(1, 0)] = record[:4] + (0,)  # lose its shared edge
    assert "open cell (1, 0): stale record" in board.check_invariants()


def test_a_cell_no_known_piece_fits_opens_for_a_piece_met_later():
    # The open cells keep only what some known piece fits: 0-0-1 shows a 1 that no zero
    # tile can meet, until a hand holding a 0-0-1 comes (rotations by 2.4).
    board = board_with((0, 0))
    assert {p.cell for p in board.iter_placements([zero(7)], False, None)} == {(-1, 0), (0, 1), (1, 0)}
    board.put_tile((1, 0), BY_NAME["0-0-1"], 0)  # its R, at point (3, 0), shows 1
    assert {p.cell for p in board.iter_placements([zero(7)], False, None)} == {(-1, 0), (0, 1)}
    assert board.check_invariants() == []
    twin = Piece(2000, "t", "0-0-1 again", {"corners": [0, 0, 1]})  # (the one on the table is in no hand)
    spots = {(p.cell, p.rotation) for p in board.iter_placements([twin], False, None)}
    assert spots == {((-1, 0), 1), ((0, 1), 2), ((2, 0), 2), ((1, -1), 1)}
    assert board.check_invariants() == []


def test_cells_far_from_the_origin_are_refused_not_confused():
    # Cells are numbered within a range far beyond any set of pieces; a cell outside it
    # is never taken for another one.
    board = board_with((0, 0))
    far = (T.LIMIT + 100, 0)
    assert T.cell_id(*far) == -1 and board.occupancy(far) == 0
    with pytest.raises(ValueError, match="too far from the origin"):
        board.put_tile(far, zero(5), 0)
    with pytest.raises(ValueError, match=f"cell {far[0]},0 does not share an edge with a tile"):
        board.parse_placement(f"0-0-0@{far[0]},0", [BY_NAME["0-0-0"]], False, "edge")
    assert board.check_invariants() == []


def test_a_kind_given_every_piece_up_front_lists_as_one_meeting_them_late():
    # `learn_pieces` indexes the set before any game: the same placements as a board whose
    # catalogue meets the pieces hand by hand, and its boards never rebuild their records.
    kind = BOARD_KINDS["triangular"]({"kind": "triangular"})
    kind.learn_pieces(TILES)
    early, late = kind.new_board(), T.TriangularBoard()
    known = early._seen
    rng = random.Random(5)
    pool = list(TILES)
    rng.shuffle(pool)
    hand, first = [pool.pop() for _ in range(9)], True
    for _ in range(30):
        options = list(early.iter_placements(hand, first, "edge"))
        assert [p.text for p in options] == [p.text for p in late.iter_placements(hand, first, "edge")]
        if not options:
            if not pool:
                break
            hand.append(pool.pop())
            continue
        chosen = rng.choice(options)
        early.apply_placement(chosen)
        late.apply_placement(next(p for p in late.iter_placements(hand, first, "edge") if p.text == chosen.text))
        hand.remove(chosen.piece)
        first = False
    assert early.count > 5 and early._seen == known == (1 << len(TILES)) - 1
    assert early.check_invariants() == [] and late.check_invariants() == []
