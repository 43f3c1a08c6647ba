"""The kernel's value types keep the behaviour documented in docs/api.md: a ScoreEvent
behaves as the frozen dataclass it was (fields, equality, hash, repr, frozen), though
made as a tuple; a mixed pool is recorded as piece numbers, first drawn first."""

import copy
import pickle
from dataclasses import FrozenInstanceError
from unittest import mock

import pytest

from engine.diagnostics import Position
from engine.kernel import Move, ScoreEvent
from engine.kernel.moves import make_event, moves_of_data
from engine.kernel.state import chance_uids

POS = Position("rules.yaml", 12, 3)


def test_score_event_fields_and_defaults():
    event = ScoreEvent(1, 50, "hexagon", POS)
    assert (event.player, event.points, event.rule, event.pos, event.detail) == (
        1, 50, "hexagon", POS, "")
    assert event.as_dict() == {"player": 1, "points": 50, "rule": "hexagon",
                               "where": "rules.yaml:12", "detail": ""}


def test_score_event_equality_is_by_every_field_and_only_with_events():
    event = ScoreEvent(0, 10, "bridge", POS, "bridge")
    assert event == make_event(0, 10, "bridge", POS, "bridge")
    assert hash(event) == hash(make_event(0, 10, "bridge", POS, "bridge"))
    assert event != ScoreEvent(0, 10, "bridge", POS, "other label")
    assert event != ScoreEvent(1, 10, "bridge", POS, "bridge")
    # a plain tuple of the same values is not an event (as with the dataclass)
    assert event != (0, 10, "bridge", POS, "bridge")
    assert (0, 10, "bridge", POS, "bridge") != event
    assert event == mock.ANY  # others may still say how they compare
    with pytest.raises(TypeError):
        event < event  # noqa: B015 - events have no order


def test_score_event_repr_and_frozen():
    event = ScoreEvent(2, -5, "draw_penalty", None, "draw")
    assert repr(event) == (
        "ScoreEvent(player=2, points=-5, rule='draw_penalty', pos=None, detail='draw')")
    with pytest.raises(FrozenInstanceError):
        event.points = 7
    with pytest.raises(FrozenInstanceError):
        del event.rule


def test_score_event_copies_and_pickles():
    event = ScoreEvent(1, 30, "opening", POS, "triple")
    for other in (copy.copy(event), copy.deepcopy(event), pickle.loads(pickle.dumps(event))):
        assert other == event and type(other) is ScoreEvent


class _Piece:
    def __init__(self, uid):
        self.uid = uid


def test_chance_uids_turns_a_logged_pool_into_numbers_first_drawn_first():
    shuffled = [3, 1, 2]
    # the pool as the state holds it: its last piece is drawn first
    pool = tuple(_Piece(u) for u in (7, 5, 9))
    assert chance_uids([shuffled, pool]) == [[3, 1, 2], [9, 5, 7]]
    plain = [[4, 2]]
    assert chance_uids(plain) is plain
    assert chance_uids(()) == []  # a move without chance outcomes is logged with ()


class _Placement:
    text = "7,7:5"


def test_a_generated_move_formats_its_text_when_asked_and_copies():
    (move,) = moves_of_data("place", [_Placement()])
    assert (move.action, move.arg, move.text) == ("place", "7,7:5", "place 7,7:5")
    assert move == Move("place", "7,7:5") and hash(move) == hash(Move("place", "7,7:5"))
    assert repr(Move("draw")) == "Move('draw')" and Move("draw").text == "draw"
    (fresh,) = moves_of_data("place", [_Placement()])
    for other in (copy.copy(fresh), pickle.loads(pickle.dumps(fresh))):
        assert other == move and other.text == "place 7,7:5"
