"""Choosing a card by its board position (`@N`) at the `play` prompt."""

import pytest

from engine.cli.games import compile_game
from engine.cli.play import resolve
from engine.kernel import IllegalMove
from engine.pieces import RANK_NAMES


def _deal_with(slot18: str, waste: str) -> str:
    cards = [r + s for s in "cdhs" for r in RANK_NAMES]
    rest = [c for c in cards if c not in (slot18, waste)]
    order = rest[:18] + [slot18] + rest[18:27] + [waste] + rest[27:]
    return " ".join(order)


@pytest.fixture
def state():
    _, game, problems = compile_game("tripeaks")
    assert game is not None, problems
    # 5c lies at position 18 (bottom row, always exposed); the waste shows 4s
    return game.new_game(players=1, seed=0, deal=_deal_with("5c", "4s"))


def test_at_position_names_the_card_lying_there(state):
    by_position = resolve(state, "@18")
    assert by_position.data[0] == 18
    assert by_position.data[1].name == "5c"
    assert resolve(state, "5c") == by_position
    assert resolve(state, "play @18") == by_position


def test_a_position_without_a_playable_card_is_refused(state):
    with pytest.raises(IllegalMove):
        resolve(state, "@0")  # a face-down peak


def test_a_bare_number_is_the_moves_place_in_the_list(state):
    legal = state.legal_moves()
    assert resolve(state, "1") == legal[0]


def test_a_typed_illegal_placement_gets_the_boards_reason():
    _, game, _ = compile_game("triolet")
    state = game.new_game(players=2, seed=2)
    rack = sorted(p.value for p in state.hands[state.to_move])
    with pytest.raises(IllegalMove, match="must cover the start cell H8"):
        resolve(state, f"A1={rack[0]}")
    with pytest.raises(IllegalMove, match="there is no 99 on the rack"):
        resolve(state, "H8=99")
    assert resolve(state, f"H8={rack[0]}").text == f"place H8={rack[0]}"


def test_an_exchange_that_is_not_legal_names_one_that_is():
    # It said "`exchange` takes no argument here: type `exchange`", also to `exchange`.
    _, game, _ = compile_game("triolet")
    state = game.new_game(players=2, seed=2)
    legal = [m for m in state.legal_moves() if m.action == "exchange"]
    for typed in ("exchange", "exchange 99"):
        with pytest.raises(IllegalMove) as refused:
            resolve(state, typed)
        assert str(refused.value) == (
            f"`{typed}` is not one of the {len(legal)} legal `exchange` moves, such as"
            f" `{legal[0].text}` (`moves` lists them)")
    with pytest.raises(IllegalMove, match="`pass` is not allowed now"):
        resolve(state, "pass")


def test_a_one_cell_play_off_the_board_is_named_once():
    _, game, _ = compile_game("triolet")
    state = game.new_game(players=2, seed=2)
    with pytest.raises(IllegalMove) as refused:
        resolve(state, "Z99=1")
    assert str(refused.value) == "`Z99=1`: no such cell (rows A-O, columns 1-15)"
    with pytest.raises(IllegalMove, match=r"^`H8=1 Z99=1`: `Z99=1`: no such cell"):
        resolve(state, "H8=1 Z99=1")


def test_a_face_down_cards_name_does_not_tell_where_it_lies(state):
    # `Qc` typed used to answer "the card in slot 0 is covered by slots 3, 4": where a
    # face-down card lies is hidden. A card in the stock gets the same answer.
    hidden = state.board.cards[0].name  # slot 0: a peak, dealt face down
    in_stock = state.pool[0].name
    for name in (hidden, in_stock):
        with pytest.raises(IllegalMove) as refused:
            resolve(state, name)
        assert str(refused.value) == f"`{name}`: there is no face-up {name} on the board"
