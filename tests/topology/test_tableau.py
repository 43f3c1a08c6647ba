"""The `tableau` board kind: layouts, covering, flipping, diagnostics, drawing, deals.

The covering table below is typed from shared/rules/tripeaks.md section 2.2, not derived
from the code.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.diagnostics import Position
from engine.pieces import build_pieces, format_deal, parse_deal
from engine.topology.styled import plain
from engine.topology import BOARD_KINDS
from engine.topology.tableau import read_layout

ROOT = Path(__file__).resolve().parents[2]
BOARD = yaml.safe_load((ROOT / "rulesets/tripeaks/aisleriot.yaml").read_text())["board"]

# Fact sheet 2.2, "covered by".
COVERED_BY = {0: (3, 4), 1: (5, 6), 2: (7, 8), 3: (9, 10), 4: (10, 11), 5: (12, 13),
              6: (13, 14), 7: (15, 16), 8: (16, 17)}
COVERED_BY.update({9 + k: (18 + k, 19 + k) for k in range(9)})
COVERED_BY.update({s: () for s in range(18, 28)})

DECK = build_pieces({"cards": {"kind": "deck"}})
# A deal written out: row by row from the top, so slot s gets the s-th card.
DEAL_TEXT = ("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ad 2d 3d 4d 5d 6d "
             "7d 8d 9d Td Jd Qd Kd Ah 2h 3h Ac 4h 5h 6h 7h 8h 9h Th Jh Qh Kh "
             "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks")


def topology(spec=BOARD):
    return BOARD_KINDS["tableau"](spec)


def dealt(spec=BOARD):
    topo = topology(spec)
    board = topo.new_board()
    board.deal(parse_deal(DEAL_TEXT, DECK)[: board.capacity()])
    return topo, board


def exposed(board):
    return [s for s, _ in board.iter_exposed()]


def test_covering_is_the_fact_sheets_table():
    layout = topology().layout
    assert layout.size == 28
    assert {s: layout.covered_by[s] for s in range(28)} == COVERED_BY


def test_blocking_is_the_covering_read_the_other_way():
    covers = topology().layout.covers
    assert covers[3] == covers[4] == (0,)
    assert covers[9] == (3,) and covers[10] == (3, 4) and covers[11] == (4,)
    assert covers[13] == (5, 6) and covers[16] == (7, 8)
    for k in range(10):
        assert covers[18 + k] == tuple(s for s in (8 + k, 9 + k) if 9 <= s <= 17)


def test_closed_remaining_sets_number_22932():
    layout = topology().layout
    order = list(range(layout.size))[::-1]  # front to back: a card goes after its coverers

    def count(i: int, removed: int) -> int:
        if i == len(order):
            return 1
        s = order[i]
        total = count(i + 1, removed)
        if all(removed >> c & 1 for c in layout.covered_by[s]):
            total += count(i + 1, removed | 1 << s)
        return total

    assert count(0, 0) == 22932


def test_tags_and_slot_records():
    board = topology().new_board()
    assert board.slot_record(1).tags == ("peak",) and board.slot_record(1).row == 0
    last = board.slot_record(27)
    assert last.tags == () and last.row == 3 and last.index == 27


def test_deal_lays_cards_in_slot_order_with_18_face_down():
    _, board = dealt()
    assert [c.name for c in board.cards[:3]] == ["2c", "3c", "4c"]
    assert board.count == 28 and board.face_down == 18 and len(board.exposed) == 10
    assert exposed(board) == list(range(18, 28))
    assert board.check_invariants() == []


def test_a_card_turns_up_only_when_both_covering_cards_are_gone():
    _, board = dealt()
    assert board.remove(18).name == "7d"
    assert exposed(board) == list(range(19, 28)) and not board.up[9]
    board.remove(19)
    assert board.up[9] and not board.up[10]
    assert exposed(board) == [9] + list(range(20, 28))
    board.remove(20)
    assert exposed(board) == [9, 10] + list(range(21, 28))
    board.remove(9)
    assert not board.up[3]
    board.remove(10)
    assert board.up[3] and 3 in exposed(board) and board.face_down == 15
    assert board.check_invariants() == []


def test_taking_a_covered_or_missing_card_is_refused():
    _, board = dealt()
    for slot in (0, 9, 28, -1):
        with pytest.raises(ValueError):
            board.remove(slot)
    board.remove(27)
    with pytest.raises(ValueError):
        board.remove(27)


def test_clone_is_independent_and_key_depends_only_on_what_remains():
    _, board = dealt()
    a, b = board.clone(), board.clone()
    for s in (18, 19, 9):
        a.remove(s)
    for s in (19, 18, 9):
        b.remove(s)
    assert board.count == 28 and a.count == b.count == 25
    assert a.key() == b.key() != board.key()
    assert a.up == b.up


def test_a_position_dumps_and_loads_back():
    topo, board = dealt()
    for slot in (18, 19, 9):
        board.remove(slot)
    text = board.dump_position()
    assert text.splitlines()[2] == ". Qc Kc Ad 2d 3d 4d 5d 6d"
    assert text.splitlines()[3] == ". . 9d Td Jd Qd Kd Ah 2h 3h"
    other = topo.new_board()
    used = other.load_position(text, DECK)
    assert len(used) == 25 and other.dump_position() == text
    assert other.up == board.up and other.check_invariants() == []
    assert [s for s, _ in other.iter_exposed()] == exposed(board)


def test_a_position_with_a_card_on_an_empty_slot_is_refused():
    topo, board = dealt()
    text = board.dump_position().replace("Jc", ".")
    with pytest.raises(ValueError, match="slot 9 is empty"):
        topo.new_board().load_position(text, DECK)
    with pytest.raises(ValueError, match="28 slots"):
        topo.new_board().load_position("Ah", DECK)


def test_open_layout_has_everything_face_up_but_covering_still_rules():
    _, board = dealt({**BOARD, "face_down_rows": []})
    assert board.face_down == 0 and exposed(board) == list(range(18, 28))


@pytest.mark.parametrize("face_down, count", [("all", 18), ("none", 0), ([0, 1, 27], 2)])
def test_face_down_forms(face_down, count):
    spec = {k: v for k, v in BOARD.items() if k != "face_down_rows"}
    _, board = dealt({**spec, "face_down": face_down})
    # Uncovered slots are turned up at once, so "all" leaves row 4 face up.
    assert board.face_down == count


def test_explicit_covers_give_the_same_layout():
    # `covers` is the fact sheet's "covered by" table, as written.
    covers = {slot: list(tops) for slot, tops in COVERED_BY.items() if tops}
    layout, problems = read_layout({"kind": "tableau", "slots": 28, "covers": covers,
                                    "face_down": list(range(18))})
    assert problems == [] and layout.covered_by == topology().layout.covered_by
    assert [len(r) for r in layout.rows] == [3, 6, 9, 10]


def test_golf_is_seven_columns_of_five():
    golf = {"kind": "tableau", "rows": [list(range(7))] * 5}
    layout = topology(golf).layout
    assert layout.covered_by[0] == (7,) and layout.covered_by[27] == (34,)
    assert layout.covered_by[34] == ()


def test_drawing_the_peaks():
    topo, board = dealt()
    assert topo.render_text(board) == "\n".join([
        "      ##          ##          ##",
        "    ##  ##      ##  ##      ##  ##",
        "  ##  ##  ##  ##  ##  ##  ##  ##  ##",
        "7d  8d  9d  Td  Jd  Qd  Kd  Ah  2h  3h",
        "18  19  20  21  22  23  24  25  26  27",
    ])
    board.remove(18)
    board.remove(19)
    assert topo.render_text(board).splitlines()[2:] == [
        "  Jc  ##  ##  ##  ##  ##  ##  ##  ##",
        "   9",
        "        9d  Td  Jd  Qd  Kd  Ah  2h  3h",
        "        20  21  22  23  24  25  26  27",
    ]


def test_styled_drawing_suit_symbols_and_why_a_slot_cannot_be_taken():
    topo, board = dealt()
    runs = topo.render_runs(board, symbols=True)
    assert runs[0][1] == ("##", "hidden")
    cards = [(t.strip(), s) for t, s in runs[3] if t.strip()]
    assert cards[:2] == [("7\u2666", "red"), ("8\u2666", "red")]  # 7d 8d: diamonds are red
    assert plain(topo.render_runs(board)) == topo.render_text(board)
    # slot 3 (x=1, second row) lies under 9 and 10 (x=0.5, 1.5); slot 0 under 3 and 4
    assert topo.why_not_exposed(board, 3) == "the card in slot 3 is covered by slots 9, 10"
    assert topo.why_not_exposed(board, 18) is None
    board.remove(18)
    assert topo.why_not_exposed(board, 18) == "slot 18 is empty"
    assert topo.why_not_exposed(board, 28) == "there is no slot 28 (0 to 27)"


# --- diagnostics -------------------------------------------------------------------


def where(*path):
    return Position("board.yaml", len(path) + 1, 1)


@pytest.mark.parametrize("change, code", [
    ({"rows": None}, "R470"),
    ({"rows": [[0, 1], []]}, "R471"),
    ({"slots": 27}, "R471"),
    ({"tags": {"peak": [0, 1, 28]}}, "R472"),
    ({"rows": None, "slots": 3, "covers": {0: [1], 1: [2], 2: [0]}}, "R473"),
    ({"face_down_rows": [0, 4]}, "R474"),
    ({"face_down": "all"}, "R475"),
    ({"rows": [[0, 0.5]]}, "R476"),
])
def test_each_problem_is_reported_with_a_position(change, code):
    spec = {k: v for k, v in {**BOARD, **change}.items() if v is not None}
    if code == "R476":
        spec = {"kind": "tableau", "rows": change["rows"]}
    problems = BOARD_KINDS["tableau"].check_spec(spec, where)
    assert code in [d.code for d in problems], problems
    assert all(d.pos is not None for d in problems)


def test_the_shipped_board_is_clean():
    assert BOARD_KINDS["tableau"].check_spec(BOARD, where) == []


def test_a_cycle_is_named():
    spec = {"kind": "tableau", "slots": 3, "covers": {0: [1], 1: [2], 2: [0]}}
    (problem,) = BOARD_KINDS["tableau"].check_spec(spec, where)
    # 1 lies on 0, 2 on 1, 0 on 2.
    assert "(0 under 1 under 2 under 0)" in problem.message


# --- deals as text -----------------------------------------------------------------


def test_a_deal_text_round_trips():
    order = parse_deal(DEAL_TEXT, DECK)
    assert [p.name for p in order[:3]] == ["2c", "3c", "4c"] and order[28].name == "Ac"
    assert format_deal(order) == DEAL_TEXT
    assert parse_deal(DEAL_TEXT.replace(" ", ""), DECK) == order
    assert parse_deal(DEAL_TEXT.upper(), DECK) == order


@pytest.mark.parametrize("text, words", [
    (DEAL_TEXT.replace("Ks", "Kx"), "'Kx'"),
    (DEAL_TEXT.replace("Ks", "Qs"), "too often"),
    (DEAL_TEXT[:-3], "missing: Ks"),
])
def test_a_wrong_deal_says_what_is_wrong(text, words):
    with pytest.raises(ValueError, match=words):
        parse_deal(text, DECK)


# --- through the kernel ------------------------------------------------------------


@pytest.mark.parametrize("overlays", [(), ("open",), ("progressive-rounds",)])
def test_random_games_keep_the_cards_and_the_covering(overlays):
    """52 cards always somewhere; a card is played only when nothing lies on it."""
    import random

    from engine.kernel import Game
    from engine.rules import load_ruleset
    from engine.rules.model import compile_model

    game = Game(compile_model(load_ruleset("tripeaks/aisleriot", overlays))[0])
    rng = random.Random(5)
    for seed in range(15):
        state = game.new_game(1, seed)
        while not state.is_over:
            board = state.board
            for move in state.legal_moves():
                if move.action == "play":
                    slot, _ = move.data
                    assert all(board.cards[t] is None for t in board.layout.covered_by[slot])
                    assert board.up[slot]
            state.apply(rng.choice(state.legal_moves()))
            assert board is not state.board or board.check_invariants() == []
            assert state.board.count + len(state.pool) + len(state.pile) == 52


FOUR_PEAKS = """\
extends: tripeaks/aisleriot
ruleset: {game: tripeaks, title: Four peaks, default: false}
board:
  rows:
    - [1.5, 4.5, 7.5, 10.5]
    - [1, 2, 4, 5, 7, 8, 10, 11]
    - [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5]
    - [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
  face_down_rows: [0, 1, 2]
  tags: {peak: [0, 1, 2, 3]}
"""


def test_a_four_peak_solitaire_is_a_yaml_file(tmp_path):
    import random

    from engine.kernel import Game
    from engine.rules import load_ruleset
    from engine.rules.model import compile_model

    path = tmp_path / "four-peaks.yaml"
    path.write_text(FOUR_PEAKS, encoding="utf-8")
    model, problems = compile_model(load_ruleset(str(path)))
    assert model is not None, problems
    state = Game(model).new_game(1, 3)
    assert state.board.count == 37 and len(state.pool) == 14 and state.board.face_down == 24
    assert state.board.layout.covered_by[3] == (10, 11)  # the fourth peak
    rng = random.Random(2)
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))
    assert state.round.reason in ("cleared", "stuck")
