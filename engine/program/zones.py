"""Zones and the `move` action's part of a generated program (engine/kernel/zones.py,
engine/kernel/general_move.py).

Every zone is a place, numbered: 0 the pool, 1 the pile, then each zone beyond them
in the order declared (a row of zones, one place each). The state keeps them in two
fields: `zones`, the pieces of each place (top last; the pool's and the pile's places
are the state's own `pool` and `pile` lists, put there again by each listing and step,
since a search's sample may deal the pool a new list), and `down`, how many of each
place's pieces lie face down from the bottom (as `state.down`, kept for the zones
beyond the pool and the pile; a zone's `face:` says which count is read).

A move of a `move` action is one int code past its action's base: `c * T + t`, `t`
the destination's index in its row of `T` zones and `c` what is taken:
- `pick` (k separate pieces): the origins as digits `o + 1` in base R, o a board
  slot, or the board's size plus a place (a table `K_mo` decodes it);
- `run` (the top k face-up pieces of one zone): `place * (high + 1) + k`;
- `pack` (the top k, or all): the place alone (k follows from the zone).
The listing walks the candidates in the interpreter's order (the sources in the order
written, then the pieces', then the destinations'), each destination's `accepts:` and
the action's `if:` written in place; a move's step takes the pieces, turns up a
face-down piece left on top (`move.turned`) and puts them on the destination.
"""

from __future__ import annotations

from itertools import combinations

#: the most codes a pick's origins may span (beyond it: not compiled)
MOST_CODES = 1 << 16


class ZoneLook:
    """`zones.<name>` (or an item of a row of zones) in a program: a zone's pieces as
    expressions read them (`engine.kernel.zones.ZoneView`'s fields), made on the spot."""

    __slots__ = ("pieces", "key", "index", "name", "down", "_values")

    def __init__(self, pieces: list, key: str, index: int, name: str, down: int, values):
        self.pieces, self.key, self.index, self.name = pieces, key, index, name
        self.down, self._values = down, values

    @property
    def count(self) -> int:
        return len(self.pieces)

    @property
    def top(self):
        return self.pieces[-1] if self.pieces else None

    @property
    def value(self) -> int:
        return sum(self._values[p.uid] for p in self.pieces)

    @property
    def face_up(self) -> int:
        return len(self.pieces) - self.down

    def __repr__(self) -> str:
        return f"<zone {self.name}[{self.index}]>"


def _digits(origins, radix: int) -> int:
    code = 0
    for o in origins:
        code = code * radix + o + 1
    return code


def _undigits(code: int, radix: int) -> tuple:
    found = []
    while code:
        code, digit = divmod(code, radix)
        found.append(digit - 1)
    return tuple(reversed(found))


class ZonesCode:
    """What the generator writes for a ruleset's zones and its `move` actions; built
    for the game (`ValueError` names what it does not cover)."""

    #: the state fields the zones own, in order
    fields = ("zones", "down")

    def __init__(self, game, board):
        model = game.model
        table = model.zones
        self.board, self.size = board, board.size
        self.specs = table.zones
        self.places: list[tuple[str, int]] = [("pool", 0), ("pile", 0)]
        self.first = {"pool": 0, "pile": 1}
        for zone in table.extra():
            if zone.owner == "player":
                raise ValueError(f"zone `{zone.key}`, one for each player")
            self.first[zone.key] = len(self.places)
            self.places += [(zone.key, i) for i in range(zone.size(1))]
        self.radix = self.size + len(self.places) + 1
        self.unique = game.unique_names
        self.values = game.values
        self.moves = [a for a in model.actions if a.kind == "move"]
        for action in self.moves:
            self._check(action)
        self.deals = self._deals(model)

    def _check(self, action) -> None:
        spec = action.move
        for key in spec.sources + (spec.target,):
            if key != "board" and key not in self.first:
                raise ValueError(f"action `{action.name}` moving with zone `{key}`")
        if "board" in spec.sources and self.board.kind != "tableau":
            raise ValueError(f"action `{action.name}` taking from a `{self.board.kind}` board")
        if spec.mode == "pick" and self.radix ** spec.high > MOST_CODES:
            raise ValueError(f"action `{action.name}` picking {spec.high} pieces")

    def count(self, key: str) -> int:
        """How many zones of this name (a row's length, else 1)."""
        return self.specs[key].size(1)

    def _face(self, key: str) -> str:
        """How a zone's face-down count is read: `all`, `top`, `none` (a built-in zone
        face up) or `list` (the state's `down`)."""
        spec = self.specs[key]
        if spec.face in ("down", "top"):
            return "all" if spec.face == "down" else "top"
        return "none" if spec.builtin else "list"

    def _down_text(self, key: str, zl: str, z: str) -> str:
        return {"all": f"_len({zl})", "top": f"(_len({zl}) - 1 if {zl} else 0)",
                "none": "0", "list": f"dn[{z}]"}[self._face(key)]

    # -- the round's start ---------------------------------------------------------------
    def _deals(self, model) -> list:
        """For each deal into zones (in `setup.deal`'s order): (place, offset in the
        step's pieces) in dealing order, and (place, face-down count) after it
        (`zones.deal_to_zone`)."""
        found, lengths = [], {}
        for to, step in model.deal:
            if to in ("board", "pile"):
                continue
            z0, order = self.first[step.key], []  # (the place of each piece dealt)
            if step.by_round:
                for depth in range(max(step.counts, default=0)):
                    order += [z0 + i for i, n in enumerate(step.counts) if depth < n]
            else:
                for i, n in enumerate(step.counts):
                    order += [z0 + i] * n
            pairs = tuple((z, j) for j, z in enumerate(order))
            for z in order:
                lengths[z] = lengths.get(z, 0) + 1
            face = step.face or self.specs[step.key].face
            downs = []
            for i in range(len(step.counts)):
                held = lengths.get(z0 + i, 0)
                downs.append((z0 + i, held if face == "down" else max(held - 1, 0)
                              if face == "top" else 0))
            found.append((pairs, tuple(downs)))
        return found

    def start_lines(self, f: dict) -> list[str]:
        """Every zone emptied (`zones.new_zones`): the lists `zs`, the counts `dn`."""
        empty = ", ".join(["None", "None"] + ["[]"] * (len(self.places) - 2))
        return [f"zs = s[{f['zones']}] = [{empty}]", f"dn = s[{f['down']}] = [0] * {len(self.places)}"]

    def deal_lines(self, step: int, at: int) -> tuple[list[str], int]:
        """(lines dealing zone deal `step` from `order[h + at:]`, how many it deals)."""
        pairs, _ = self.deals[step]
        return [f"for z, j in K_zdeal[{step}]:", f"    zs[z].append(order[h + {at} + j])",
                f"for z, d in K_zdown[{step}]:", "    dn[z] = d"], len(pairs)

    def alias_lines(self, f: dict) -> list[str]:
        """The pool's and the pile's places are the state's own lists."""
        return [f"zs[0] = s[{f['pool']}]", f"zs[1] = s[{f['pile']}]"]

    # -- constants, names, copies ---------------------------------------------------------
    def constants(self, f: dict) -> dict:
        Z, D, P, Q = f["zones"], f["down"], f["pool"], f["pile"]
        faces = tuple(self._face(key) for key, _ in self.places)
        labels = tuple(self.specs[key].label for key, _ in self.places)
        places, values = self.places, self.values

        def view(s: list, z: int) -> ZoneLook:
            # (the pool's and the pile's pieces: the state's own lists, whichever now)
            pieces = s[Z][z] if z > 1 else s[P] if z == 0 else s[Q]
            face = faces[z]
            down = (len(pieces) if face == "all" else max(len(pieces) - 1, 0) if face == "top"
                    else s[D][z] if face == "list" else 0)
            return ZoneLook(pieces, places[z][0], places[z][1], labels[z], down, values)

        def views(s: list, z0: int, n: int) -> list:
            return [view(s, z) for z in range(z0, z0 + n)]
        names = {"k_view": view, "k_views": views, "k_combinations": combinations, "k_divmod": divmod,
                 "K_mo": tuple(self._origins(a) for a in self.moves),
                 "K_zdeal": tuple(pairs for pairs, _ in self.deals),
                 "K_zdown": tuple(downs for _, downs in self.deals),
                 "k_value": lambda pieces: sum(values[p.uid] for p in pieces)}
        size = self.size
        names.update({
            "K_zlabel": labels, "K_zindex": tuple(i for _, i in places),
            "k_source": lambda o: "board" if o < size else labels[o - size],
            "k_source_index": lambda o: o if o < size else places[o - size][1]})
        layout = getattr(self.board, "layout", None)
        if layout is not None:
            names.update(self._board_constants(layout))
        return names

    def _board_constants(self, layout) -> dict:
        lying = tuple(tuple(tops) for tops in layout.covered_by)
        cover = [len(tops) for tops in layout.covered_by]
        size = self.size

        def free(cards: list, slots: list) -> int:
            """The first of `slots` with nothing lying on it (`_take_from_board`)."""
            for slot in slots:
                if all(cards[t] is None for t in lying[slot]):
                    return slot
            raise ValueError("no slot of the move is free")

        def with_lying(cards: list, origins: tuple) -> bool:
            """Whether every board piece taken is taken with what lies on it."""
            slots = {o for o in origins if o < size}
            return all(cards[t] is None or t in slots for s in slots for t in lying[s])
        return {"k_free": free, "k_with_lying": with_lying,
                "B_up0": tuple(s not in layout.face_down or not cover[s] for s in range(size)),
                "B_rows": tuple(tuple(row) for row in layout.rows)}

    def _origins(self, action) -> tuple:
        """`K_mo[j]`: a pick's origins by their code `c` (empty for other modes)."""
        spec = action.move
        if spec.mode != "pick":
            return ()
        return tuple(_undigits(c, self.radix) for c in range(self.radix ** spec.high))

    def names(self, f: dict) -> dict[str, str]:
        """`zones.<key>` and `zones.<name>` -> their texts (a view, or a row's list)."""
        out = {}
        for key, spec in self.specs.items():
            if key not in self.first:
                continue
            z = self.first[key]
            text = f"k_views(s, {z}, {self.count(key)})" if spec.is_list else f"k_view(s, {z})"
            out[f"zones.{key}"] = text
            out.setdefault(f"zones.{spec.label}", text)
        return out

    def copy_lines(self, f: dict) -> list[str]:
        """The copy `c` gets its own lists (its pool and pile copied first)."""
        Z = f["zones"]
        own = ", ".join([f"c[{f['pool']}]", f"c[{f['pile']}]"] +
                        [f"zs[{z}][:]" for z in range(2, len(self.places))])
        return [f"zs = s[{Z}]", f"c[{Z}] = [{own}]", f"c[{f['down']}] = s[{f['down']}][:]"]

    def fill(self, s: list, f: dict, state) -> None:
        """The zones of the interpreter's `state` into the program's state `s`."""
        zs = [s[f["pool"]], s[f["pile"]]]
        dn = [0, 0]
        for key, i in self.places[2:]:
            zs.append(list(state.zones[key][i]))
            dn.append(state.down[key][i])
        s[f["zones"]], s[f["down"]] = zs, dn

    # -- a move action: its codes, its listing, its step ----------------------------------
    def width(self, action) -> int:
        spec, rows = action.move, self.count(action.move.target)
        if spec.mode == "pick":
            return self.radix ** spec.high * rows
        if spec.mode == "run":
            return len(self.places) * (spec.high + 1) * rows
        return len(self.places) * rows

    def candidate_names(self, action) -> dict[str, str]:
        """The names a destination's `accepts:` and the action's `if:` read, for one
        candidate (`mp` its pieces, `mk` their count, `mo` a pick's origins) and one
        destination (`tz` its pieces, `ti` its index)."""
        t0 = self.first[action.move.target]
        names = self._move_names(action)
        names.update({"move.target_index": "ti", "zone": f"k_view(s, {t0} + ti)",
                      "zone.count": "_len(tz)", "zone.top": "(tz[-1] if tz else None)",
                      "zone.index": "ti", "zone.pieces": "tz"})
        return names

    def applied_names(self, action) -> dict[str, str]:
        """The names a move's `then:` and scoring rules read once it is applied."""
        names = self._move_names(action)
        names.update({"move.target_index": "ti", "move.turned": "turned"})
        return names

    def _move_names(self, action) -> dict[str, str]:
        spec, slots = action.move, "[]"
        if spec.mode == "pick" and "board" in spec.sources:
            slots = f"[B_slots[o] for o in mo if o < {self.size}]"
        # (where the first piece comes from: a pick's first origin, a run's or a pack's zone)
        source, index = ("k_source(mo[0])", "k_source_index(mo[0])") if spec.mode == "pick" \
            else ("K_zlabel[z]", "K_zindex[z]")
        return {"move.pieces": "mp", "move.count": "mk", "move.value": "k_value(mp)",
                "move.opening": "False", "move.slots": slots, "move.source": source,
                "move.source_index": index,
                "move.target": f"K_zlabel[{self.first[spec.target]}]"}

    def listing_lines(self, f: dict, action, base: int, conditions: list[str],
                      site: int) -> list[str]:
        """Lines appending to `out` the codes of `action`'s legal moves
        (`general_move.move_moves`), `conditions` the texts of the destination's
        `accepts:` and the action's `if:` (over `candidate_names`)."""
        spec = action.move
        lines = self._bind_lines(f)
        if spec.mode == "pick":
            return lines + self._pick_lines(f, action, base, conditions, site)
        for key in spec.sources:
            z0 = self.first[key]
            lines += [f"for z in range({z0}, {z0 + self.count(key)}):", "    zl = zs[z]",
                      "    if zl:"]
            if spec.mode == "run":
                lines += [f"        up = _len(zl) - {self._down_text(key, 'zl', 'z')}",
                          f"        for mk in range({spec.low}, min({spec.high}, up) + 1):",
                          "            mp = zl[-mk:]",
                          f"            c0 = {base} + (z * {spec.high + 1} + mk) * "
                          f"{self.count(spec.target)}"]
                pad = "            "
            else:
                whole = "_len(zl)" if spec.high == 0 else f"min({spec.high}, _len(zl))"
                lines += [f"        mk = {whole}", "        mp = zl[-mk:]",
                          f"        c0 = {base} + z * {self.count(spec.target)}"]
                pad = "        "
            skip = f"{self.first[spec.target]} + ti == z" if spec.target == key else None
            lines += [pad + line for line in self._onto_lines(spec, skip, conditions, site)]
        return lines

    def _pick_lines(self, f: dict, action, base: int, conditions: list[str],
                    site: int) -> list[str]:
        spec, size, rows = action.move, self.size, self.count(action.move.target)
        lines = ["items = []"]
        for key in spec.sources:
            if key == "board":
                lines += self._board_items(f, spec.reach)
                continue
            face = self._face(key)
            if face == "all":
                continue  # (every piece face down: none to take)
            z0 = self.first[key]
            test = "zl" if face != "list" else "zl and dn[z] < _len(zl)"
            lines += [f"for z in range({z0}, {z0 + self.count(key)}):", "    zl = zs[z]",
                      f"    if {test}:", f"        items.append(({size} + z, zl[-1]))"]
        skip = f"({size + self.first[spec.target]} + ti) in mo" if spec.target in spec.sources \
            else None
        for k in range(spec.low, spec.high + 1):
            # (k pieces: `(o1, p1), (o2, p2), ...` of a combination of the items, the
            # code's digits `o + 1` in base R)
            o = [f"o{i}" for i in range(1, k + 1)]
            p = [f"p{i}" for i in range(1, k + 1)]
            taken = ", ".join(f"({a}, {b})" for a, b in zip(o, p))
            code = f"{o[0]} + 1"
            for name in o[1:]:
                code = f"({code}) * {self.radix} + {name} + 1"
            lines += [f"for {taken} in k_combinations(items, {k}):" if k > 1 else
                      f"for {taken} in items:",
                      f"    mo, mp, mk = ({', '.join(o)},), [{', '.join(p)}], {k}",
                      f"    c0 = {base} + ({code}) * {rows}"]
            if spec.reach and "board" in spec.sources:
                lines += [f"    if not k_with_lying(s[{f['cards']}], mo):", "        continue"]
            lines += ["    " + line for line in self._onto_lines(spec, skip, conditions, site)]
        return lines

    def _board_items(self, f: dict, reach: int) -> list[str]:
        """The board's pieces a pick may take, in slot order (`_available`)."""
        if not reach:
            head, _ = self.board.candidates(f, "k", "p")
            return head + ["    items.append((k, p))"]
        return [f"cards, cover = s[{f['cards']}], s[{f['cover']}]",
                f"for k in range({self.size}):", "    p = cards[k]",
                f"    if p is not None and cover[k] <= {reach} and (not cover[k] or B_up0[k]):",
                "        items.append((k, p))"]

    def _onto_lines(self, spec, skip: str | None, conditions: list[str], site: int) -> list[str]:
        """Each destination of a candidate whose code before the destination is `c0`:
        not the zone it comes from (`skip`), and where the conditions hold."""
        t0, rows = self.first[spec.target], self.count(spec.target)
        if rows == 1:  # (one destination: no loop)
            lines = ["ti = 0", f"tz = zs[{t0}]"]
            if skip:
                lines.append(f"if not ({skip}):")
            pad = "    " if skip else ""
        else:
            lines = [f"for ti in range({rows}):"]
            if skip:
                lines += [f"    if {skip}:", "        continue"]
            lines.append(f"    tz = zs[{t0} + ti]")
            pad = "    "
        if not conditions:
            return lines + [pad + "out.append(c0 + ti)"]
        test = " and ".join(f"({text})" for text in conditions)
        return lines + [pad + line for line in (
            "try:", f"    ok = {test}", "except k_ERRORS as exc:",
            f"    raise k_failure({site}, exc) from exc", "if ok:", "    out.append(c0 + ti)")]

    def effect_lines(self, f: dict, action, base: int) -> list[str]:
        """A move's step (`general_move.apply_general_move`): `mp` the pieces moved,
        `turned` how many pieces it turned face up (kept in `s`: `State.turned`)."""
        spec, size = action.move, self.size
        rows, j = self.count(spec.target), self.moves.index(action)
        lines = self._bind_lines(f) + [f"c, ti = k_divmod(m - {base}, {rows})", "turned = 0"]
        if spec.mode == "pick":
            lines.append(f"mo = K_mo[{j}][c]")
            if "board" in spec.sources:
                lines += [f"cards = s[{f['cards']}]",
                          f"mp = [cards[o] if o < {size} else zs[o - {size}][-1] for o in mo]"]
            else:
                lines.append(f"mp = [zs[o - {size}][-1] for o in mo]")
            lines += ["mk = _len(mp)", "for o in mo:", f"    if o >= {size}:",
                      f"        zs[o - {size}].pop()"]
            if "board" in spec.sources:
                lines += [f"bs = [o for o in mo if o < {size}]", "while bs:",
                          f"    slot = k_free(s[{f['cards']}], bs)", "    bs.remove(slot)"]
                lines += ["    " + line for line in self.board.remove_lines(f, "slot", "_r")]
            lines += ["for o in mo:", f"    z = o - {size}"]
            lines += ["    " + line for line in self._turn_up_lines()]
        else:
            if spec.mode == "run":
                lines += [f"z, mk = k_divmod(c, {spec.high + 1})", "zl = zs[z]"]
            else:
                whole = "_len(zl)" if spec.high == 0 else f"min({spec.high}, _len(zl))"
                lines += ["z = c", "zl = zs[z]", f"mk = {whole}"]
            lines += ["mp = zl[-mk:]", "del zl[-mk:]"] + self._turn_up_lines()
        moved = "mp[::-1]" if spec.flip else "mp"
        return lines + [f"zs[{self.first[spec.target]} + ti].extend({moved})",
                        f"s[{f['turned']}] = turned  # (`State.turned`)"]

    @staticmethod
    def _bind_lines(f: dict) -> list[str]:
        """`zs`, the places' lists, the pool's and the pile's the state's own (a search's
        sample may have dealt the pool a new list), and `dn`, the face-down counts."""
        return [f"zs = s[{f['zones']}]", f"zs[0], zs[1] = s[{f['pool']}], s[{f['pile']}]",
                f"dn = s[{f['down']}]"]

    def _turn_up_lines(self) -> list[str]:
        """A face-down piece left on top of place `z` turns up (`_turn_up`: the zones
        beyond the pool and the pile)."""
        return ["if z >= 2:", "    left = _len(zs[z])", "    if dn[z] >= left:",
                "        if left:", "            turned += 1", "        dn[z] = left - 1 if left else 0"]

    # -- back to the engine's objects -------------------------------------------------------
    def _origin(self, o: int) -> tuple[str, int]:
        if o < self.size:
            return "board", o
        return self.places[o - self.size]

    def candidate(self, s: list, f: dict, action, offset: int, zs: list) -> tuple:
        """What a move's code names, as the step and the listing decode it
        (`effect_lines`): `(c, ti, mo, z, zl, mk, mp)`, the code past the destination,
        the destination's index, a pick's origins (else None), the zone the pieces come
        from and its list (None for a pick), how many and which pieces; `zs` the places'
        lists, the pool's and the pile's first."""
        spec, size = action.move, self.size
        c, ti = divmod(offset, self.count(spec.target))
        if spec.mode == "pick":
            mo = _undigits(c, self.radix)
            mp = [s[f["cards"]][o] if o < size else zs[o - size][-1] for o in mo]
            return c, ti, mo, None, None, len(mo), mp
        if spec.mode == "run":
            z, mk = divmod(c, spec.high + 1)
        else:
            z = c
            mk = len(zs[z]) if spec.high == 0 else min(spec.high, len(zs[z]))
        zl = zs[z]
        return c, ti, None, z, zl, mk, zl[-mk:]

    def taken(self, s: list, f: dict, action, offset: int) -> tuple[list, list, int]:
        """(the origins, the pieces, the destination's index) of a move's code."""
        zs = [s[f["pool"]], s[f["pile"]]] + s[f["zones"]][2:]
        _, ti, mo, z, _, mk, mp = self.candidate(s, f, action, offset, zs)
        if mo is not None:
            return [self._origin(o) for o in mo], mp, ti
        return [self.places[z]] * mk, mp, ti

    def move_arg(self, s: list, f: dict, action, offset: int) -> str:
        """The text of a move past its action's name (`general_move._texts`)."""
        origins, pieces, ti = self.taken(s, f, action, offset)
        mode, target = action.move.mode, self.specs[action.move.target]
        if mode == "pack":
            words = []
        elif self.unique:
            words = [p.name for p in pieces] if mode == "pick" else [pieces[0].name]
        else:
            words = [f"{p.name}@{k}{i}" for p, (k, i) in zip(pieces, origins)]
        if mode == "run" and len(pieces) > 1:
            words[-1] += f"+{len(pieces) - 1}"
        if target.count is not None:
            words.append(f"{target.label}[{ti}]")
        return " ".join(words)

    def move_code(self, action, data) -> int:
        """The code (past its action's base) of the interpreter's `MoveData`."""
        spec, size = action.move, self.size
        mo = [i if k == "board" else size + self.first[k] + i for k, i in data.origins]
        if spec.mode == "pick":
            c = _digits(mo, self.radix)
        elif spec.mode == "run":
            c = (mo[0] - size) * (spec.high + 1) + len(data.pieces)
        else:
            c = mo[0] - size
        return c * self.count(spec.target) + data.target_index
