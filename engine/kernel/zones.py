"""Zones at run time: where their pieces are kept, how expressions see them, what each
seat may not see, and the deal into them.

`pool`, `pile` and each `hand` stay the state's own lists (`state.pool`, `state.pile`,
`state.hands[seat]`), which the compiled fast path reads. Every other zone is a list of
pieces in `state.zones[key][i]` (top last), with `state.down[key][i]` of them, from the
bottom, lying face down.
"""

from __future__ import annotations


def zone_pieces(state: "engine.kernel.state.State", key: str, index: int = 0) -> list:
    """The list holding zone `key` (number `index` of a row, or a seat's), top last."""
    if key == "pool":
        return state.pool
    if key == "pile":
        return state.pile
    if key == "hand":
        return state.hands[index]
    return state.zones[key][index]


def zone_size(state: "engine.kernel.state.State", key: str) -> int:
    """How many zones of this name the game has (a row's length, or the seats)."""
    if key in ("pool", "pile"):
        return 1
    if key == "hand":
        return state.n
    return len(state.zones[key])


def face_down(state: "engine.kernel.state.State", key: str, index: int = 0) -> int:
    """How many pieces of the zone lie face down, counted from the bottom."""
    pieces = zone_pieces(state, key, index)
    spec = state.game.model.zones.zones[key]
    if spec.builtin or spec.face != "up":
        if spec.face == "down":
            return len(pieces)
        if spec.face == "top":
            return max(len(pieces) - 1, 0)
        return 0
    return state.down[key][index]


def new_zones(state: "engine.kernel.state.State") -> None:
    """Empty every zone beyond the built-in three (at a round's start)."""
    table = state.game.model.zones
    state.zones = {z.key: [[] for _ in range(z.size(state.n))] for z in table.extra()}
    state.down = {z.key: [0] * z.size(state.n) for z in table.extra()}


def deal_to_zone(state: "engine.kernel.state.State", deal, take) -> None:
    """A `setup.deal` step into a zone row: `take(n)` gives the next n pieces in order."""
    rows, down = state.zones[deal.key], state.down[deal.key]
    if deal.by_round:
        for depth in range(max(deal.counts, default=0)):
            for i, count in enumerate(deal.counts):
                if depth < count:
                    rows[i].extend(take(1))
    else:
        for i, count in enumerate(deal.counts):
            rows[i].extend(take(count))
    face = deal.face or state.game.model.zones.zones[deal.key].face
    for i, pieces in enumerate(rows):
        down[i] = len(pieces) if face == "down" else max(len(pieces) - 1, 0) if face == "top" else 0


class ZoneView:
    """A zone as expressions see it (`zones.waste`, `zones.tableau[3]`, `player.zones.hand`):
    `count`, `value`, `top` (none when empty), `pieces` (bottom first), `face_up`."""

    __slots__ = ("_owner", "key", "index", "name", "_pinned")

    def __init__(self, owner, key: str, index: int, name: str, pinned: bool = False):
        self._owner = owner
        self.key = key
        self.index = index
        self.name = name
        # the zone's list itself, for a view used while nothing moves (a move listing)
        self._pinned = zone_pieces(owner(), key, index) if pinned else None

    @property
    def pieces(self) -> list:
        pinned = self._pinned
        if pinned is not None:
            return pinned
        return zone_pieces(self._owner(), self.key, self.index)

    @property
    def count(self) -> int:
        pinned = self._pinned
        return len(pinned if pinned is not None else self.pieces)

    @property
    def value(self) -> int:
        values = self._owner().game.values
        return sum(values[p.uid] for p in self.pieces)

    @property
    def top(self):
        pieces = self._pinned
        if pieces is None:
            pieces = self.pieces
        return pieces[-1] if pieces else None

    @property
    def face_up(self) -> int:
        state = self._owner()
        return len(self.pieces) - face_down(state, self.key, self.index)

    def __repr__(self) -> str:
        return f"<zone {self.name}[{self.index}]>"


class ListingView(ZoneView):
    """A destination zone's view while moves are listed (nothing moves): its `count` and
    `top` read once, plain attributes for the `accepts:` of every candidate."""

    __slots__ = ("count", "top")

    def __init__(self, owner, key: str, index: int, name: str, pieces: list):
        self._owner = owner  # (as ZoneView's, pinned to `pieces`, the zone's own list)
        self.key = key
        self.index = index
        self.name = name
        self._pinned = pieces
        self.count = len(pieces)
        self.top = pieces[-1] if pieces else None


class ZonesRecord:
    """`zones` (or `player.zones`): one attribute per zone name, a view or a list of views."""

    def __init__(self, fields: dict):
        self.__dict__.update(fields)


def zones_record(state: "engine.kernel.state.State", weak, seat: int | None = None) -> ZonesRecord:
    """`zones` (every zone by key and display name) or, for a seat, `player.zones`."""
    fields: dict = {}
    for zone in state.game.model.zones.zones.values():
        if seat is not None and zone.owner != "player":
            continue
        size = state.n if zone.owner == "player" else (zone.count or 1)
        views = [ZoneView(weak, zone.key, i, zone.label) for i in range(size)]
        value = views[seat] if seat is not None else views if zone.is_list else views[0]
        fields[zone.key] = value
        fields.setdefault(zone.label, value)
    return ZonesRecord(fields)


def hidden_from(state: "engine.kernel.state.State", seat: int | None) -> dict[str, list]:
    """Where the pieces `seat` may not see lie: place name -> those pieces (bottom first).

    A face-down piece is hidden from everyone unless its zone is `visible: all`; a zone
    `visible: owner` is hidden from every other seat, `visible: none` from everyone. Board
    pieces lying face down are listed under `board`. `seat=None` asks for an onlooker.
    """
    out: dict[str, list] = {}
    for zone in state.game.model.zones.zones.values():
        for i in range(zone_size(state, zone.key)):
            pieces = zone_pieces(state, zone.key, i)
            owned = zone.owner == "player" and i == seat
            if zone.visible == "all" or (zone.visible == "owner" and owned):
                continue
            if zone.visible in ("none", "owner"):
                hidden = list(pieces)
            else:
                hidden = pieces[: face_down(state, zone.key, i)]
            if hidden:
                name = zone.label if zone_size(state, zone.key) == 1 and not zone.is_list \
                    else f"{zone.label}[{i}]"
                out[name] = hidden
    board = [piece for _, piece in state.board.hidden_items()]
    if board:
        out["board"] = board
    return out


def iter_zone_pieces(state: "engine.kernel.state.State"):
    """Every piece in a zone beyond the built-in three (for conservation checks)."""
    for rows in state.zones.values():
        for pieces in rows:
            yield from pieces


def render_zones(state: "engine.kernel.state.State", seat: int | None) -> list[str]:
    """One line per zone beyond pool, hands and pile, as `seat` sees it: a stack shows its
    top and its size, a row or a fan every piece (`##` for one face down)."""
    lines = []
    hidden = {id(p) for pieces in hidden_from(state, seat).values() for p in pieces}
    for zone in state.game.model.zones.extra():
        words = []
        for i, pieces in enumerate(state.zones[zone.key]):
            shown = [("##" if id(p) in hidden else p.name) for p in pieces]
            if zone.shape == "stack":
                text = f"{shown[-1]} ({len(shown)})" if shown else "--"
            else:
                text = " ".join(shown) or "--"
            words.append(f"[{i}] {text}" if zone.is_list else text)
        sep = "\n  " if zone.shape == "fan" and zone.is_list else "   "
        lines.append(f"{zone.label}:{' ' if sep == '   ' else sep}{sep.join(words)}")
    return lines


def pool_top_shown(state: "engine.kernel.state.State") -> bool:
    """Whether the pool's top lies face up (a stock whose top card may be played)."""
    return state.game.model.zones.zones["pool"].face == "top" and bool(state.pool)
