"""What a seat cannot see, and a sample of it: the determinizations of information-set
search (`engine.players.mcts`).

Hidden from a seat today: the other players' hands, the pool's order (all but its top
where the pool lies `face: top`), and the board's face-down pieces (a tableau's).
Everything else is seen: the seat's own hand, the pieces on the board face up, the
pile, every count. `hidden_places` is the one place
that says what is hidden; when zones declare their visibility, it reads them instead.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from operator import attrgetter

from engine.kernel.zones import pool_top_shown

_UID = attrgetter("uid")


@dataclass
class HiddenPlace:
    """Where pieces unseen by a seat lie: a hand, the pool, or the board's hidden slots
    (`slots`, one piece each); `size` pieces in all."""

    kind: str  # "hand" | "pool" (its bottom `size` pieces) | "board" | "zone"
    seat: int | None
    size: int
    slots: tuple = ()


def hidden_places(state, seat: int) -> list[HiddenPlace]:
    """The places whose pieces `seat` cannot see, in a fixed order."""
    places = [HiddenPlace("hand", other, len(state.hands[other]))
              for other in range(state.n) if other != seat]
    places.append(HiddenPlace("pool", None, len(state.pool) - pool_top_shown(state)))
    slots = tuple(slot for slot, _ in state.board.hidden_items())
    if slots:
        places.append(HiddenPlace("board", None, len(slots), slots))
    places += _zone_places(state)
    return places


def _zone_places(state) -> list[HiddenPlace]:
    """The face-down bottom of each declared zone (a pile dealt face down but its top),
    unless the zone is `visible: all` (`engine.kernel.zones`; `slots` is the zone's key
    and index)."""
    zones = state.game.model.zones
    places = []
    for key, down in getattr(state, "down", {}).items():
        if zones is not None and zones.zones[key].visible == "all":
            continue
        for index, count in enumerate(down):
            if count:
                places.append(HiddenPlace("zone", None, count, (key, index)))
    return places


def hidden_pieces(state, places: list[HiddenPlace]) -> list:
    """The pieces in those places, sorted by number: the same list whatever their
    arrangement (what the seat knows is which pieces are unseen, not where)."""
    pieces = []
    for place in places:
        if place.kind == "hand":
            pieces += state.hands[place.seat]
        elif place.kind == "pool":
            pieces += state.pool[:place.size]
        elif place.kind == "zone":
            key, index = place.slots
            pieces += state.zones[key][index][:place.size]
        else:
            pieces += [piece for _, piece in state.board.hidden_items()]
    return sorted(pieces, key=_UID)


def arrange(pieces: list, names: tuple) -> list:
    """`pieces` (shuffled) with the first piece of each of `names` (in their order)
    moved to the front; as they were when the pieces cannot make the names."""
    wanted, first, rest = Counter(names), [], []
    for piece in pieces:
        if wanted[piece.name] > 0:
            wanted[piece.name] -= 1
            first.append(piece)
        else:
            rest.append(piece)
    return first + rest if not +wanted else pieces


def determinize(state, seat: int, rng: random.Random, first: tuple | None = None):
    """A copy of `state` in which every piece `seat` cannot see is dealt again at
    random among the places it cannot see (each keeping its size), with its own chance
    generator drawn from `rng`: what it draws later is sampled, never the real pool's.
    Two states that differ only in what `seat` cannot see give the same copy. With
    `first` (piece names), pieces so named are dealt first (`arrange`): the first
    hidden place, the other seat's hand of two, is that hand."""
    places = hidden_places(state, seat)
    pieces = hidden_pieces(state, places)
    rng.shuffle(pieces)
    if first is not None:
        pieces = arrange(pieces, first)
    world = state.search_clone()
    world.forced_chances = None
    world.rng, world._rng_shared = random.Random(rng.getrandbits(64)), False
    deal(world, places, pieces)
    return world


def deal(world, places: list[HiddenPlace], pieces: list) -> None:
    """Deal `pieces` into `world`'s hidden `places` in order, each its size (a pool's
    shown top stays)."""
    at = 0
    for place in places:
        dealt = pieces[at:at + place.size]
        at += place.size
        if place.kind == "hand":
            world.hands[place.seat] = dealt
        elif place.kind == "pool":
            world.pool = dealt + world.pool[place.size:]  # a top shown stays
        elif place.kind == "zone":
            key, index = place.slots
            world.zones[key][index][:place.size] = dealt
        else:
            for slot, piece in zip(place.slots, dealt):
                world.board.set_hidden(slot, piece)
    world._invalidate()
