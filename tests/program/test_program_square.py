"""The square board's generated code (`engine/program/square.py`) against the
interpreter's board (`engine/topology/square*.py`).

Random games are played on the interpreter; at every position the generated listing
(`B_plays`, on the program's own cells and masks, kept up to date by `B_lay` from the
plays the interpreter applied) must give the interpreter's plays, as texts, in its
order, with the same pieces of the hand; and each play laid must measure as the
interpreter's `SquarePlacement` does (its `lines`, each piece's `lines_through`).
With jokers the listing is `B_jplays` and laying `B_jlay` (a joker's flag, the lines'
face sums and joker counts).
"""

from __future__ import annotations

import random

import pytest

from engine.kernel import Game
from engine.program.square import SquareCode
from engine.rules import load_ruleset
from engine.rules.model import compile_model
from tests.kernel.test_properties import shipped

SQUARE = [(ref, overlays) for ref, overlays in shipped() if ref.startswith("triolet")]


def _game(ref, overlays) -> Game:
    model, diagnostics = compile_model(load_ruleset(ref, overlays))
    assert model is not None, "\n".join(map(str, diagnostics))
    return Game(model)


def _place_action(game: Game):
    return next(a for a in game.model.actions if a.kind == "place")


def _has_jokers(game: Game) -> bool:
    return any(p.attrs.get("joker") for p in game.pieces)


def _code(game: Game) -> SquareCode:
    pieces = sorted(game.pieces, key=lambda p: p.uid)
    values = tuple(p.attrs["value"] for p in pieces)
    return SquareCode(game.model.topology, _place_action(game).rules, values,
                      _has_jokers(game))


def _texts(code: SquareCode, plays) -> list[str]:
    """The plays' texts as the interpreter writes them (a joker: `H9=J11`)."""
    labels = code.topo.labels
    flagged = [play[3] if len(play) > 3 and play[3] else (False,) * len(play[0])
               for play in plays]
    return [" ".join(f"{labels[c]}={'J' if j else ''}{x}" for c, x, j in zip(play[0], play[1], flags))
            for play, flags in zip(plays, flagged)]


def _check_games(game: Game, seeds, players=None) -> int:
    """Play `seeds` random games on the interpreter, comparing each position; the number
    of plays compared."""
    code, rules, action = _code(game), _place_action(game).rules, _place_action(game)
    ns = code.functions()
    taken = ns["B_taken"]  # (the pieces a play takes: by its indices, or by value)
    listing = ns["B_jplays" if code.jokers else "B_plays"]
    compared = 0
    for seed in seeds:
        state, rng = game.new_game(players, seed), random.Random(seed)
        board, jokers = ns["B_new"](), 0
        while not state.is_over:
            hand, first = state.hands[state.to_move], not state.round.placed_any
            mine = listing(board, hand, first)
            theirs = list(state.board.iter_placements(hand, first, rules))
            assert _texts(code, mine) == [p.text for p in theirs], (seed, state.turns_total)
            assert [tuple(p.uid for p in taken(hand, play)) for play in mine] == \
                [tuple(p.uid for p in play.pieces) for play in theirs]
            compared += len(mine)
            move = rng.choice(state.legal_moves())
            if move.action == action.name:
                play = move.data
                lines = [(x.length, x.sum, x.face_sum, x.new, x.jokers) for x in play.lines]
                placed = [vars(p) for p in play.placed]
                if code.jokers:  # (the play as the listing holds it: with its flags)
                    idx = tuple(sorted(hand, key=lambda p: p.value).index(p) for p in play.pieces)
                    pl = (play.cells, play.values, idx) + ((play.flags,) if play.flags else ())
                    mine_lines, mine_placed = ns["B_lay"](board, play.cells, play.values)
                    mine_lines, mine_placed, jokers = ns["B_jlay"](
                        board[0], pl, play.pieces, jokers, mine_lines, mine_placed)
                else:
                    mine_lines, mine_placed = ns["B_lay"](board, play.cells, play.values)
                assert [tuple(x) for x in mine_lines] == lines
                # (without jokers plain tuples, read by index: the fields of `B_Placed`)
                fields = ns["B_Placed"]._fields
                assert [dict(zip(fields, p)) for p in mine_placed] == placed
            state.apply(move)
    return compared


@pytest.mark.parametrize("ref,overlays", SQUARE, ids=lambda x: "+".join(x) if isinstance(x, tuple) else x)
def test_the_generated_listing_and_measures_are_the_interpreters(ref, overlays):
    game = _game(ref, overlays)
    assert SquareCode.why_not(_place_action(game).rules) is None
    # (about 1,400 positions and 19,500 plays for 20 games of two)
    assert _check_games(game, range(20)) > 10_000


@pytest.mark.parametrize("players", [3, 4])
def test_more_players_meet_other_positions(players):
    game = _game("triolet/standard", ())
    assert _check_games(game, range(100, 108), players) > 1_000


@pytest.mark.parametrize("window,most,longest", [(4, 4, 5), (2, 2, 4), (3, 3, 6)])
def test_other_numbers_meet_other_walks(window, most, longest):
    """The board's code written for numbers no shipped ruleset has: a longer window,
    more pieces a play, longer lines with their own sum bounds."""
    data = load_ruleset("triolet/standard", ())
    place = data.data["actions"]["place"]
    place.update({"count": {"min": 1, "max": most}, "window": window})
    bounds = {2: {"max": 15}, 3: {"max": 20}, 4: {"exact": 22}, 5: {"min": 20, "max": 30},
              6: {"max": 40}}
    place["lines"] = {"max_length": longest,
                      "sums": {n: bounds[n] for n in range(2, longest + 1)}}
    data.data["setup"]["hand_size"] = most
    model, diagnostics = compile_model(data)
    assert model is not None, "\n".join(map(str, diagnostics))
    assert _check_games(Game(model), range(4)) > 500


@pytest.mark.parametrize("window,most,longest,jokers,count,games", [
    (4, 4, 5, {"max_per_play": 2, "values": {"min": 2, "max": 18}}, 8, 2),
    (3, 3, 3, {"max_per_play": 3, "values": {"min": 0, "max": 15}}, 20, 6),
    (2, 2, 4, {"values": {"min": 5, "max": 9}}, 20, 6)])
def test_other_joker_rules_meet_other_walks(window, most, longest, jokers, count, games):
    """Jokers with numbers no shipped ruleset has: more than one a play (`count` jokers
    in the bag, so that racks hold several), values beyond the tokens' (up to 18) or a
    narrow range, longer windows and lines (`games` random games: a rack of four with
    jokers lists some 100,000 plays a game)."""
    data = load_ruleset("triolet/standard", ())
    data.data["components"]["tokens"]["jokers"] = count
    place = data.data["actions"]["place"]
    place.update({"count": {"min": 1, "max": most}, "window": window, "jokers": jokers})
    bounds = {2: {"max": 15}, 3: {"exact": 15}, 4: {"max": 24}, 5: {"min": 20, "max": 30}}
    place["lines"] = {"max_length": longest,
                      "sums": {n: bounds[n] for n in range(2, longest + 1)}}
    data.data["setup"]["hand_size"] = most
    model, diagnostics = compile_model(data)
    assert model is not None, "\n".join(map(str, diagnostics))
    assert _check_games(Game(model), range(games)) > 500


def test_the_cross_table_is_the_rules_own():
    """`B_cross[n][total]` is `PlaceRules.cross(n, total)`'s bit set: a piece beside one
    piece of 9 may take 0-6 (a pair sums to at most 15), beside two summing to 9 only 6
    (a trio makes exactly 15), beside three none (no line is longer than 3)."""
    cross = _code(_game("triolet/standard", ())).cross
    assert cross[0][0] & 0xFFFF == 0xFFFF
    assert cross[1][9] == 0b111_1111
    assert cross[2][9] == 1 << 6
    assert cross[3][0] == 0


def test_a_program_state_from_the_interpreters_plays_on_the_same():
    """`Program.from_state` of a Triolet match under way (plays, exchanges, extra
    turns) lists the same moves, and plays on to the same scores, as the interpreter."""
    from engine.program import compile_program

    game = _game("triolet/standard", ())
    program = compile_program(game)
    checked = 0
    for seed in range(8):
        state, rng = game.new_game(None, seed), random.Random(seed)
        for _ in range(12):
            if not state.is_over:
                state.apply(rng.choice(state.legal_moves()))
        if state.is_over:  # (a short game: nothing to start from)
            continue
        checked += 1
        s = program.from_state(state)
        while not state.is_over:
            assert program.legal_texts(s) == [m.text for m in state.legal_moves()]
            code, = rng.choices(program.legal(s))
            text = program.move_text(s, code)
            program.apply(s, code)  # (first: `s` shares the state's generator until then)
            state.apply(text)
        assert program.is_over(s) and list(program.scores(s)) == list(state.scores)
    assert checked >= 4
