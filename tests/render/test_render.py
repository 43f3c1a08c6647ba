"""SVG pictures: every shipped ruleset and overlay draws well-formed SVG; one golden
picture per board kind, compared by structure (counts of classes, texts), with the
counts worked out by hand from the fact sheets; highlights, hints and display hints."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from engine.kernel.scenario import load_scenario
from engine.players.agents import RandomAgent
from engine.render import BOARD_DRAWINGS, move_pairs, render_svg
from engine.rules import files, load_ruleset
from engine.rules.model import compile_model
from engine.kernel import Game
from engine.topology import BOARD_KINDS

GOLDEN = Path(__file__).parent / "golden"
NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def classes(root) -> Counter:
    """How many elements carry each class word."""
    found = Counter()
    for node in root.iter():
        found.update(node.get("class", "").split())
    return found


def texts(root, cls: str | None = None) -> list[str]:
    return [n.text for n in root.iter(f"{NS}text")
            if n.text and (cls is None or cls in n.get("class", "").split())]


def _targets(root, cls: str) -> set[str]:
    return {n.get("data-target") for n in root.iter()
            if cls in n.get("class", "").split() and n.get("data-target")}


def _cases():
    for rid, _ in files.iter_ruleset_files():
        yield rid, ()
    for game, name, _ in files.iter_overlay_files():
        yield game, (name,)


@pytest.mark.parametrize("ref,overlays", list(_cases()), ids=lambda v: str(v))
def test_every_shipped_ruleset_and_overlay_renders(ref, overlays):
    model, _ = compile_model(load_ruleset(ref, overlays))
    state = Game(model).new_game(seed=3)
    agent, last = RandomAgent(1), None
    for _ in range(4):
        if state.is_over:
            break
        last = agent.choose(state)
        state.apply(last)
    legal = state.legal_moves()
    root = parse(render_svg(state, highlight=legal[:1], last_move=last, seat=0))
    assert classes(root)["background"] == 1


def test_every_board_kind_has_a_drawing():
    shipped = {kind for kind, cls in BOARD_KINDS.items()
               if cls.__module__.startswith("engine.topology.")}  # not kinds tests register
    assert shipped <= set(BOARD_DRAWINGS)


def _golden(kind: str):
    state = load_scenario(GOLDEN / f"{kind}.yaml").state
    return state, parse(render_svg(state))


def _same_structure(kind: str, root) -> None:
    """The picture has the golden file's classes and texts (not its coordinates)."""
    golden = ET.parse(GOLDEN / f"{kind}.svg").getroot()
    assert classes(root) == classes(golden)
    assert sorted(texts(root)) == sorted(texts(golden))


def test_golden_triangular():
    state, root = _golden("triangular")
    found = classes(root)
    assert found["tile"] == 2
    assert _targets(root, "open") == {"-1,0", "0,1", "2,0", "1,-1"}  # worked out in the file
    # corners: 0-0-0 shows 0 0 0; 0-0-1 shows 0 0 1; the hands 2-3-4, 5-5-5 and 1-2-3
    corners = Counter(texts(root, "corner"))
    assert corners == Counter({"0": 5, "1": 2, "2": 2, "3": 2, "4": 1, "5": 3})
    assert "well: 1" in texts(root, "zone-label")
    _same_structure("triangular", root)


def test_golden_square():
    state, root = _golden("square")
    found = classes(root)
    assert found["cell"] == 225  # 15 x 15
    assert found["token"] == 2  # E7=8, F6=6
    assert found["star"] == 1  # H8
    premium = Counter(texts(root, "premium"))
    assert premium == Counter({"B": 8, "3": 8, "2": 8})  # fact sheet section 2
    assert sorted(texts(root, "ruler")) == sorted([str(i) for i in range(1, 16)]
                                                  + list("ABCDEFGHIJKLMNO"))
    assert found["hand"] == 6  # two racks of three
    _same_structure("square", root)


def test_golden_tableau():
    state, root = _golden("tableau")
    found = classes(root)
    # 17 face-down cards and the stock's top
    assert found["slot"] == 26 and found["back"] == 17 + 1 and found["exposed"] == 9
    ranks = texts(root, "rank")
    assert sorted(ranks) == sorted(["6", "7", "8", "9", "10", "J", "Q", "K", "5", "2"])
    red = {n.get("fill") for n in root.iter(f"{NS}text") if "suit" in n.get("class", "")}
    assert red == {"#c0392b"}  # diamonds and the heart on the waste: the red ink
    assert "stock: 2" in texts(root, "zone-label") and "waste: 1" in texts(root, "zone-label")
    _same_structure("tableau", root)


def test_highlight_and_last_move_mark_their_cells():
    state = load_scenario(GOLDEN / "square.yaml").state
    move = state.find_move("place F7=4")  # fact sheet 8 A: the 4 under the 8, right of the 6
    assert move_pairs(state, move) == [(move.data.pieces[0].uid, "F7")]
    root = parse(render_svg(state, highlight="place F7=4"))
    assert _targets(root, "highlight") == {"F7"}
    state.apply(move)
    root = parse(render_svg(state, last_move=move, seat=1))
    assert _targets(root, "last") == {"F7"}
    # seat 1 (P2) sees seat 0's rack (refilled to 3) face down, and the bag's top
    assert classes(root)["back"] == 3 + 1


def test_display_hints_label_and_colour(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text('extends: triolet/standard\nruleset: {game: triolet, title: "Drawn"}\n'
                    'display:\n  colours: {background: "#e8eef8"}\n'
                    '  cells: {"2": {label: "x2", colour: "#99ddff"}}\n', encoding="utf-8")
    model, _ = compile_model(load_ruleset(str(path)))
    root = parse(render_svg(Game(model).new_game(seed=1)))
    assert Counter(texts(root, "premium"))["x2"] == 8
    fills = {n.get("fill") for n in root.iter(f"{NS}rect")}
    assert {"#e8eef8", "#99ddff"} <= fills


def test_text_is_escaped():
    from engine.render.svg import text

    assert parse(f'<svg xmlns="http://www.w3.org/2000/svg">{text(0, 0, "<&>")}</svg>')


def test_golden_chain():
    state, root = _golden("chain")
    found = classes(root)
    assert found["tile"] == 5 and found["open"] == 4
    assert _targets(root, "open") == {"E", "W", "N", "S"}  # worked out in the file
    assert found["pip"] == 35 + 12 + 3  # the board's spots, then 6-6 and 1-2 in the hands
    _same_structure("chain", root)


def _with_declared_zones():
    out = []
    for rid, _ in files.iter_ruleset_files():
        model, _ = compile_model(load_ruleset(rid))
        table = getattr(model, "zones", None)
        if model is not None and table is not None and hasattr(table, "extra") and table.extra():
            out.append(rid)
    return out


def test_every_declared_zone_is_drawn_and_hidden_pieces_stay_hidden():
    found = _with_declared_zones()
    if not found:
        pytest.skip("no shipped ruleset declares zones beyond pool, hands and pile yet")
    from engine.kernel.zones import hidden_from

    for rid in found:
        model, _ = compile_model(load_ruleset(rid))
        state = Game(model).new_game(seed=2)
        root = parse(render_svg(state, seat=0))
        for zone in model.zones.extra():
            groups = [n for n in root.iter() if n.get("data-zone") == zone.key]
            assert len(groups) == len(state.zones[zone.key]), (rid, zone.key)
        hidden = {p.uid for pieces in hidden_from(state, 0).values() for p in pieces}
        shown = {int(n.get("data-piece")) for n in root.iter() if n.get("data-piece")}
        assert not hidden & shown, rid  # no face-down piece says what it is


def test_a_row_of_zones_is_drawn_as_columns_side_by_side():
    """Klondike's deal (fact sheet: seven piles of 1 to 7 cards, a fan each; four empty
    foundations): each pile a column to the right of the last, its top at the same
    height, its cards going down one below the other; the foundations empty outlines
    side by side under the tableau."""
    model, _ = compile_model(load_ruleset("klondike/aisleriot"))
    state = Game(model).new_game(seed=2)
    root = parse(render_svg(state, seat=0))
    piles = [n for n in root.iter() if n.get("data-zone") == "tableau"]
    assert [n.get("data-target") for n in piles] == [f"tableau:{i}" for i in range(7)]
    tops = []
    for k, pile in enumerate(piles):
        cards = [p for p in pile if "piece" in p.get("class", "").split()]
        assert len(cards) == k + 1  # pile k holds k + 1 cards, every one drawn
        ys = [float(next(c.iter(f"{NS}rect")).get("y")) for c in cards]
        xs = {float(next(c.iter(f"{NS}rect")).get("x")) for c in cards}
        assert len(xs) == 1 and ys == sorted(ys) and len(set(ys)) == len(ys)  # one column, down
        tops.append((xs.pop(), ys[0]))
    assert [x for x, _ in tops] == sorted(x for x, _ in tops) and len({x for x, _ in tops}) == 7
    assert len({y for _, y in tops}) == 1  # the piles' tops level
    slots = [n for n in root.iter() if n.get("data-zone") == "foundations"]
    outlines = [next(n.iter(f"{NS}rect")) for n in slots]
    assert len({float(r.get("y")) for r in outlines}) == 1 and len({float(r.get("x")) for r in outlines}) == 4
    assert float(outlines[0].get("y")) > max(y for _, y in tops)  # below the tableau
    assert "[6] 7" in texts(root, "zone-label") and "tableau" in texts(root, "zone-label")
